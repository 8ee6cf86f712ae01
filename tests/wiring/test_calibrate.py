"""``wiring calibrate``: it recovers the machine's figures, and the driver and the check
use what it writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sim_launcher.physical import DispenserParams
from uno_attack.launcher import EjectStatus
from wiring.calibrate import calibrate
from wiring.check import FAIL, PASS, NobodyHelper, WiringCheck
from wiring.emulated import open_emulated
from wiring.pinmap import (
    Calibration,
    PinMap,
    PinMapError,
    default_pin_map_path,
    load_pin_map,
    write_calibration,
)

SLOW = DispenserParams(cards_per_second=1.2, jam_probability=0.0, hopper_sensor=True)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", "wiring", "calibrate", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def test_emulated_calibration_recovers_the_models_figures(tmp_path: Path) -> None:
    pins = tmp_path / "pins.toml"
    pins.write_text(default_pin_map_path().read_text(encoding="utf-8"), encoding="utf-8")
    run = run_cli("--emulated", "--pins", str(pins), "--seed", "5")
    assert run.returncode == 0, run.stderr
    assert f"wrote [calibration] to {pins}" in run.stdout
    figures = load_pin_map(pins).calibration
    model = DispenserParams()
    assert figures.measured
    assert figures.spin_up_ms == pytest.approx(model.spin_up_ms, rel=0.10)
    assert figures.beam_ms == pytest.approx(model.beam_ms, rel=0.10)
    assert figures.duties == (0.4, 0.6, 0.8, 1.0)
    for duty, rate in zip(figures.duties, figures.cards_per_second, strict=True):
        assert rate == pytest.approx(model.cards_per_second * duty, rel=0.10)
    assert load_pin_map(pins).pins == PinMap.default().pins  # the rest of the map is kept


def test_emulated_figures_are_not_written_without_pins() -> None:
    run = run_cli("--emulated", "--seed", "2")
    assert run.returncode == 0, run.stderr
    assert "not written" in run.stdout
    assert "wrote" not in run.stdout


def test_the_built_in_map_is_never_written() -> None:
    run = run_cli("--emulated", "--pins", str(default_pin_map_path()))
    assert run.returncode == 2
    assert "the built-in default map is not written" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_driver_and_the_check_use_the_figures(tmp_path: Path) -> None:
    """A dispenser much slower than LAUNCHER.md's: uncalibrated, its slow cards look like
    jams and a slow feed; calibrated, the same machine ejects and passes the check."""
    pins = tmp_path / "pins.toml"
    devices, ejector, _ = open_emulated(PinMap.default(), params=SLOW, seed=1, time_scale=20)
    try:
        assert ejector.eject(3).status is EjectStatus.JAM   # 60 + 1042 ms > jam_ms 529
        verdicts = {r.part: r for r in WiringCheck(devices, ejector, NobodyHelper(),
                                                   say=lambda _: None).run()}
        assert verdicts["feed"].verdict == FAIL
        figures = calibrate(ejector, say=lambda _: None)
    finally:
        ejector.close()
    calibrated = write_calibration(pins, figures)
    assert calibrated.settings.jam_ms == pytest.approx(60 + 3 * 1000 / (1.2 * 0.8), rel=0.10)
    devices, ejector, _ = open_emulated(load_pin_map(pins), params=SLOW, seed=1,
                                        time_scale=20)
    try:
        result = ejector.eject(3)
        assert (result.status, result.count) == (EjectStatus.OK, 3)
        verdicts = {r.part: r for r in WiringCheck(devices, ejector, NobodyHelper(),
                                                   say=lambda _: None).run()}
        assert verdicts["feed"].verdict == PASS, verdicts["feed"].note
        assert "by the calibration" in verdicts["feed"].note
    finally:
        ejector.close()


def test_a_slipping_roller_fails_the_feed_against_the_calibration(tmp_path: Path) -> None:
    pins = tmp_path / "pins.toml"
    write_calibration(pins, Calibration(60.0, 25.0, (0.4, 1.0), (3.2, 8.0)))
    devices, ejector, _ = open_emulated(load_pin_map(pins), faults=["roller-slipping"],
                                        seed=1, time_scale=20)
    try:
        verdicts = {r.part: r for r in WiringCheck(devices, ejector, NobodyHelper(),
                                                   say=lambda _: None).run()}
    finally:
        ejector.close()
    assert verdicts["feed"].verdict == FAIL
    assert "the roller slips" in verdicts["feed"].note


class TestWriting:
    def test_an_old_calibration_is_replaced_and_the_rest_kept(self, tmp_path: Path) -> None:
        pins = tmp_path / "pins.toml"
        pins.write_text("# my wiring\n[pins]\nbutton = 17\nmotor_in1 = 23\nmotor_in2 = 24\n"
                        "motor_pwm = 18\nbeam = 27\n[calibration]\nspin_up_ms = 99\n"
                        "[timing]\nmax_ms = 5000\n", encoding="utf-8")
        write_calibration(pins, Calibration(61.0, 24.0, (1.0,), (7.5,)))
        text = pins.read_text(encoding="utf-8")
        assert text.count("[calibration]") == 1
        assert "spin_up_ms = 99" not in text
        assert "# my wiring" in text
        pin_map = load_pin_map(pins)
        assert pin_map.timing.max_ms == 5000
        assert pin_map.calibration == Calibration(61.0, 24.0, (1.0,), (7.5,), measured=True)

    def test_a_broken_map_is_not_overwritten(self, tmp_path: Path) -> None:
        pins = tmp_path / "pins.toml"
        pins.write_text("[pins\n", encoding="utf-8")
        with pytest.raises(PinMapError, match="not valid TOML"):
            write_calibration(pins, Calibration())
        assert pins.read_text(encoding="utf-8") == "[pins\n"

    @pytest.mark.parametrize(("table", "fragment"), [
        ("duties = [0.5, 1.0]\ncards_per_second = [4.0]\n", "one rate for each duty"),
        ("duties = [1.0, 0.5]\ncards_per_second = [8.0, 4.0]\n", "from the lowest up"),
        ("duties = [0.0]\ncards_per_second = [1.0]\n", "duties[0] = 0.0: must be above 0"),
        ("beam_ms = nan\n", "beam_ms = nan: must be above 0"),
        ("cards_per_second = [inf]\n", "cards_per_second[0] = inf"),
        ("spin_up_ms = 'slow'\n", "expected a number"),
        ("spinup_ms = 60\n", "unknown key"),
    ])
    def test_bad_figures_name_the_key(self, tmp_path: Path, table: str, fragment: str) -> None:
        pins = tmp_path / "pins.toml"
        pins.write_text("[pins]\nbutton = 17\nmotor_in1 = 23\nmotor_in2 = 24\nmotor_pwm = 18\n"
                        f"beam = 27\n[calibration]\n{table}", encoding="utf-8")
        with pytest.raises(PinMapError) as info:
            load_pin_map(pins)
        assert str(info.value).startswith(f"{pins}: [calibration]")
        assert fragment in str(info.value)
