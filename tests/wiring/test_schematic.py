"""``uno-attack wiring schematic``: the whole circuit drawn from the pin map in use."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from uno_attack.errors import UnoAttackError
from wiring.header import PHYSICAL
from wiring.pinmap import PinMap
from wiring.schematic import PICO_FIRMWARE, pico_board, pico_pins, render_schematic

SVG = "{http://www.w3.org/2000/svg}svg"
PARTS = ("H-bridge TB6612FNG", "DC gear motor", "motor supply 5–6 V", "break-beam receiver",
         "IR emitter", "100 Ω", "10 kΩ", "STBY", "VM", "one common ground")
OPTIONAL = {"led": ("status LED", "330 Ω"), "buzzer": ("active buzzer",),
            "hopper_empty": ("hopper-empty switch",)}


def schematic(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], str]:
    out = tmp_path / "out.svg"
    run = subprocess.run([sys.executable, "-m", "uno_attack", "wiring", "schematic", *args,
                          "--svg", str(out)], capture_output=True, text=True, timeout=60,
                         check=False)
    return run, (out.read_text(encoding="utf-8") if out.exists() else "")


def words(svg: str) -> str:
    """Every label of the picture, one per line; the SVG must parse."""
    root = ET.fromstring(svg)
    assert root.tag == SVG
    return "\n".join(" ".join(text.itertext()) for text in root.iter(
        "{http://www.w3.org/2000/svg}text"))


def test_the_pi_schematic_names_every_part_and_pin_of_the_map(tmp_path: Path) -> None:
    run, svg = schematic(tmp_path)
    assert run.returncode == 0, run.stderr
    labels = words(svg)
    pin_map = PinMap.default()
    for role, bcm in pin_map.pins.items():
        assert role in labels, role
        assert f"GPIO{bcm}" in labels.split(), role
        assert f"pin {PHYSICAL[bcm]}" in labels, role
    for part in PARTS + tuple(p for parts in OPTIONAL.values() for p in parts):
        assert part in labels, part
    assert "3V3 (pin 1)" in labels
    assert "GND (pin 6)" in labels


def test_a_part_left_out_of_the_map_is_left_out_of_the_picture(tmp_path: Path) -> None:
    pins = tmp_path / "pins.toml"
    pins.write_text("[pins]\nbutton = 6\nmotor_in1 = 20\nmotor_in2 = 21\nmotor_pwm = 13\n"
                    "beam = 26\nled = 16\n", encoding="utf-8")
    run, svg = schematic(tmp_path, "--pins", str(pins))
    assert run.returncode == 0, run.stderr
    labels = words(svg)
    for role, bcm in {"button": 6, "motor_in1": 20, "motor_in2": 21, "motor_pwm": 13,
                      "beam": 26, "led": 16}.items():
        assert f"GPIO{bcm}" in labels.split(), role
        assert role in labels, role
    for role in ("buzzer", "hopper_empty"):
        assert role not in labels
        for part in OPTIONAL[role]:
            assert part not in labels, part
    for left_out in (17, 23, 24, 18, 27, 22, 25, 5):  # the default map's pins are gone
        assert f"GPIO{left_out}" not in labels.split()


def test_the_pico_schematic_uses_the_firmwares_pins(tmp_path: Path) -> None:
    run, svg = schematic(tmp_path, "--board", "pico")
    assert run.returncode == 0, run.stderr
    labels = words(svg)
    firmware = pico_pins()
    for role, gp in firmware.items():
        if gp is None:  # the firmware drives no such part: not drawn
            assert role not in labels, role
        else:
            assert role in labels, role
            assert f"GP{gp}" in labels.split(), role
    assert "GP14" in labels.split()
    assert "pin 19" in labels
    assert "on the board" in labels                         # GP25: the Pico's own LED
    assert "not drawn: hopper_empty, buzzer" in run.stdout
    for part in PARTS:
        assert part in labels, part


def test_the_pico_draws_only_parts_both_maps_have() -> None:
    pin_map = PinMap.from_toml("[pins]\nbutton = 17\nmotor_in1 = 23\nmotor_in2 = 24\n"
                               "motor_pwm = 18\nbeam = 27\n")
    board = pico_board(pin_map, {"button": 2, "motor_in1": 3, "motor_in2": 4,
                                 "motor_pwm": 5, "beam": 6, "led": 25, "buzzer": 7})
    assert [(p.role, p.name, p.edge) for p in board.pins] == [
        ("beam", "GP6", "pin 9"), ("button", "GP2", "pin 4"), ("motor_in1", "GP3", "pin 5"),
        ("motor_in2", "GP4", "pin 6"), ("motor_pwm", "GP5", "pin 7")]
    labels = words(render_schematic(pin_map, board))
    assert "status LED" not in labels
    assert "active buzzer" not in labels


def test_firmware_without_a_pin_table_is_one_clear_error(tmp_path: Path) -> None:
    firmware = tmp_path / "pico.py"
    firmware.write_text("PINS = make_pins()\n", encoding="utf-8")
    with pytest.raises(UnoAttackError, match=r"pico.py: no PINS = \{\.\.\.\} table"):
        pico_pins(firmware)
    assert PICO_FIRMWARE.exists()


@pytest.mark.parametrize(("args", "message"), [
    (("--pins", "{tmp}/missing.toml"), "missing.toml"),
    (("--board", "arduino"), "invalid choice: 'arduino'"),
])
def test_bad_input_is_one_line_and_a_failure(tmp_path: Path, args: tuple[str, ...],
                                             message: str) -> None:
    run, svg = schematic(tmp_path, *(a.format(tmp=tmp_path) for a in args))
    assert run.returncode != 0
    assert message in run.stderr
    assert "Traceback" not in run.stderr
    assert svg == ""
