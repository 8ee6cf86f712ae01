"""Config files and pin maps that are not what they should be: one clean line, never a
traceback or a hang, from the reader up to the command a user runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from uno_attack.config import MAX_BYTES, ConfigError, load_policy_tables
from wiring.pinmap import PinMapError, load_pin_map

PINS = "[pins]\nbutton = 17\nmotor_in1 = 23\nmotor_in2 = 24\nmotor_pwm = 18\nbeam = 27\n"
POLICY = "[policies.party]\nfire = [0.5, 1.0]\nweights = [1, 2]\n"


def uno_attack(*args: str, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", *args], capture_output=True,
                          text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
                          env={**os.environ, **(env or {})})


Maker = Callable[[Path], Path]


def not_utf8(tmp: Path) -> Path:
    path = tmp / "bad.toml"
    path.write_bytes(b"[pins]\nbutton = 17 # \xff\xfe caf\xe9\n")
    return path


def nested(tmp: Path) -> Path:
    path = tmp / "deep.toml"
    path.write_text("x = " + "[" * 100_000 + "\n")
    return path


def long_number(tmp: Path) -> Path:
    path = tmp / "long.toml"
    path.write_text("x = " + "7" * 5000 + "\n")
    return path


def huge(tmp: Path) -> Path:
    path = tmp / "huge.toml"
    path.write_text("# " + "x" * MAX_BYTES + "\n")
    return path


def folder(tmp: Path) -> Path:
    return tmp


def fifo(tmp: Path) -> Path:
    path = tmp / "pipe.toml"
    os.mkfifo(path)
    return path


def missing(tmp: Path) -> Path:
    return tmp / "nowhere" / "none.toml"


BAD: dict[str, tuple[Maker, str]] = {
    "not UTF-8": (not_utf8, "not UTF-8 text (byte 0xFF at offset 21)"),
    "nested deeply": (nested, "nested too deeply"),
    "a 5000-digit number": (long_number, "not valid TOML"),
    "over 1 MiB": (huge, "more than a"),
    "a folder": (folder, "not a regular file"),
    "a FIFO": (fifo, "not a regular file"),
    "missing": (missing, "no such"),
    "/dev/zero": (lambda _: Path("/dev/zero"), "not a regular file"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_pin_map_file(tmp_path: Path, kind: str) -> None:
    make, fragment = BAD[kind]
    path = make(tmp_path)
    with pytest.raises(PinMapError) as info:
        load_pin_map(path)
    assert str(info.value).startswith(f"{path}: ")
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_config_file(tmp_path: Path, kind: str) -> None:
    make, fragment = BAD[kind]
    path = make(tmp_path)
    with pytest.raises(ConfigError) as info:
        load_policy_tables(path)
    assert str(info.value).startswith(f"{path}: ")
    assert fragment in str(info.value)


@pytest.mark.parametrize(("key", "value"), [
    ("[motor] duty", "nan"), ("[motor] duty", "inf"), ("[motor] reverse_ms", "-inf"),
    ("[timing] jam_ms", "nan"), ("[timing] max_ms", "inf"), ("[timing] debounce_ms", "nan"),
    ("[calibration] spin_up_ms", "nan"), ("[calibration] beam_ms", "inf"),
])
def test_nan_and_inf_are_no_duration_or_duty(tmp_path: Path, key: str, value: str) -> None:
    table, name = key[1:].split("] ")
    path = tmp_path / "pins.toml"
    path.write_text(f"{PINS}[{table}]\n{name} = {value}\n")
    with pytest.raises(PinMapError) as info:
        load_pin_map(path)
    assert f"{path}: {key} = {value}: must be" in str(info.value)


class TestCommands:
    """The same, as the user meets it: a command, one line, exit 2."""

    @pytest.mark.parametrize("kind", ["not UTF-8", "nested deeply", "a FIFO", "/dev/zero"])
    def test_wiring_show_with_a_bad_pin_map(self, tmp_path: Path, kind: str) -> None:
        path = BAD[kind][0](tmp_path)
        run = uno_attack("wiring", "show", "--pins", str(path))
        assert run.returncode == 2
        assert run.stderr.startswith(f"uno-attack wiring: error: {path}: ")
        assert run.stderr.count("\n") == 1

    @pytest.mark.parametrize("kind", ["not UTF-8", "nested deeply", "a folder", "a FIFO"])
    def test_a_bad_config_named_by_the_environment(self, tmp_path: Path, kind: str) -> None:
        path = BAD[kind][0](tmp_path)
        run = uno_attack("launcher", "run", "--launcher", "gpio:emulated", "--policy", "party",
                         env={"UNO_ATTACK_CONFIG": str(path)})
        assert run.returncode == 2
        assert BAD[kind][1] in run.stderr
        assert f"{path}: " in run.stderr.splitlines()[-1]
        assert "Traceback" not in run.stderr

    def test_a_policy_table_that_never_fires(self, tmp_path: Path) -> None:
        config = tmp_path / "config.toml"
        config.write_text("[policies.dud]\nfire = [0.0]\nweights = [1]\n")
        run = uno_attack("launcher", "run", "--launcher", "gpio:emulated", "--policy", "dud",
                         env={"UNO_ATTACK_CONFIG": str(config)})
        assert run.returncode == 2
        assert f"{config}: [policies.dud]: " in run.stderr
        assert "no press ever fires again" in run.stderr

    def test_a_good_config_still_works(self, tmp_path: Path) -> None:
        config = tmp_path / "config.toml"
        config.write_text(POLICY)
        assert set(load_policy_tables(config)) == {"party"}
