"""The firmware is MicroPython-only code, and the emulator runs it through the HAL."""

from __future__ import annotations

import ast
from pathlib import Path

from firmware_bridge.emulator import EmulatedBoard, ModelHal
from firmware_bridge.firmware import board as firmware_board
from firmware_bridge.firmware.hal import Hal

from .conftest import Terminal

FIRMWARE = Path(firmware_board.__file__).parent
MICROPYTHON = {"machine", "time", "micropython", "sys", "select", "random", "os", "gc",
               "struct", "binascii", "math", "firmware"}


def imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add((node.module or "").split(".")[0])
    return names


def test_firmware_imports_only_micropython_modules() -> None:
    files = sorted(FIRMWARE.glob("*.py"))
    assert {p.name for p in files} >= {"ulp.py", "hal.py", "board.py", "pico.py", "main.py"}
    for path in files:
        assert imports(path) <= MICROPYTHON, path.name


def test_logic_and_codec_import_nothing_but_each_other() -> None:
    for name in ("ulp.py", "board.py", "hal.py"):
        assert imports(FIRMWARE / name) == set(), name


def test_no_cpython_only_syntax_in_the_firmware() -> None:
    """No dataclasses, typing, f-strings with format specs, walrus or match in the board."""
    for path in FIRMWARE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            assert not isinstance(node, ast.Match | ast.NamedExpr | ast.JoinedStr), path.name


def test_emulator_runs_the_firmware_through_the_hal(tmp_path: Path) -> None:
    with EmulatedBoard(link=tmp_path / "board", seed=7, time_scale=20.0) as b:
        _runs_through_the_hal(b)


def _runs_through_the_hal(b: EmulatedBoard) -> None:
    assert isinstance(b.firmware, firmware_board.Firmware)
    assert isinstance(b.hal, ModelHal)
    assert isinstance(b.hal, Hal)
    assert b.firmware.hal is b.hal
    calls = b.hal.motor_calls
    t = Terminal(b.port)
    t.send("EJECT 1 2 4000")
    assert t.expect("DONE").fields["ejected"] == 2
    t.close()
    assert b.hal.motor_calls >= calls + 2     # on, then off: through the HAL
    assert b.world.model.cards_out == 2
