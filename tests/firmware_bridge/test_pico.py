"""The emulated Pico as a maker meets it: its banner, a blank board, a firmware that only
CPython could run, and ``firmware emulate --micropython`` in its own process."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import image
from firmware_bridge.pico_emulator import PicoBoard
from sim_launcher.physical import DispenserParams

from .conftest import Terminal, wait_for
from .test_conformance import Wire


def serial_text(port: str, until: str, timeout: float = 10.0) -> str:
    """Whatever the board writes on its serial, up to ``until`` (raw, not ULP/1)."""
    wire = Wire(port)
    try:
        assert wait_for(lambda: until in _more(wire), timeout), wire.buffer
        return wire.buffer.decode(errors="replace")
    finally:
        wire.close()


def _more(wire: Wire) -> str:
    with contextlib.suppress(BlockingIOError):
        wire.buffer += os.read(wire.fd, 4096)
    return wire.buffer.decode(errors="replace")


def test_a_blank_board_is_micropython_at_its_repl(tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    flash.mkdir()
    with PicoBoard(link=tmp_path / "pico", flash=flash, time_scale=20.0) as board:
        assert board.banner.startswith("MicroPython v1.27.0 ")
        text = serial_text(board.port, ">>> ")
        assert "MicroPython v1.27.0" in text
        assert "BOOT" not in text
        assert board.at_repl
        wire = Wire(board.port)   # bytes past 127 come out as the board wrote them
        wire.write(b"print('\\xe9\\x80')\r")   # MicroPython writes it in UTF-8
        assert wait_for(lambda: _more(wire) and b"\xc3\xa9\xc2\x80" in wire.buffer, 10), \
            wire.buffer
        wire.close()
    assert list(flash.iterdir()) == []   # nothing written to a board nobody flashed


@pytest.mark.parametrize(("where", "change", "error"), [
    ("firmware/board.py", "from dataclasses import dataclass\n",
     "ImportError: no module named 'dataclasses'"),
    ("firmware/dispenser.py", "\n\nclass Limits:\n    cards: int = CARDS\n\n\n"
     "NAMES = list(Limits.__annotations__)\n",
     "AttributeError: type object 'Limits' has no attribute '__annotations__'"),
])
def test_a_firmware_only_cpython_runs_does_not_boot(tmp_path: Path, where: str,
                                                    change: str, error: str) -> None:
    """The very change CPython takes in its stride stops the Pico at power-up, with
    MicroPython's own traceback on the serial where a maker sees it."""
    flash = tmp_path / "flash"
    image.write(flash)
    target = flash / where
    text = target.read_text()
    target.write_text(change + text if change.startswith("from") else text + change)
    with PicoBoard(link=tmp_path / "pico", flash=flash, time_scale=20.0) as board:
        out = serial_text(board.port, ">>> ")
    assert "Traceback (most recent call last):" in out
    assert f'File "{where}"' in out
    assert error in out
    assert "BOOT boot=" not in out
    assert "rp2.py" not in out      # the emulator's own frames are not the board's


def test_the_project_firmware_boots_in_a_small_heap(tmp_path: Path) -> None:
    with PicoBoard(link=tmp_path / "pico", time_scale=20.0, heap_kb=128) as board:
        term = Terminal(board.port)
        try:
            term.send("HELLO 1 session=0000CAFE")
            assert term.expect("HELLO").fields["boot"] == board.firmware.boot
            term.send("EJECT 2 3 4000")
            assert term.expect("DONE").fields["ejected"] == 3
        finally:
            term.close()
        assert board.world.model.cards_out == 3


def test_emulate_micropython_in_a_subprocess(tmp_path: Path) -> None:
    link = tmp_path / "pico"
    proc = subprocess.Popen(
        [sys.executable, "-m", "uno_attack", "firmware", "emulate", "--micropython",
         "--link", str(link), "--seed", "5", "--time-scale", "20", "--heap", "128"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert re.match(r"MicroPython v1\.27\.0 on \d{4}-\d\d-\d\d; ", proc.stdout.readline())
        assert "emulated board on" in proc.stdout.readline()
        wire = Wire(str(link))
        assert re.fullmatch(r"BOOT boot=[0-9A-F]{8}", wire.expect(r"BOOT .*"))
        assert wire.ask("PING 7") == "PONG 7"
        wire.close()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert "board stopped:" in out
        assert not link.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize(("args", "message"), [
    (["--flash", "x"], "--flash needs --micropython"),
    (["--micropython", "--flash", "/nonexistent/flash"], "--flash /nonexistent/flash: no such"),
])
def test_bad_pico_options_are_one_clean_error(args: list[str], message: str) -> None:
    run = subprocess.run([sys.executable, "-m", "uno_attack", "firmware", "emulate", *args],
                         capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode != 0
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_a_repl_request_restarts_the_pico_into_its_repl(tmp_path: Path) -> None:
    """Re-flashing needs no button: the firmware stops, the board restarts without its
    watchdog, and MicroPython's REPL has the serial; the next power-up runs the firmware."""
    flash = tmp_path / "flash"
    image.write(flash)
    with PicoBoard(link=tmp_path / "pico", flash=flash, time_scale=20.0) as board:
        wire = Wire(board.port)
        wire.expect(r"BOOT .*")
        assert wire.ask("REPL 9") == "OK 9"
        wire.close()
        text = serial_text(board.port, ">>> ")
        assert "MicroPython v1.27.0" in text
        assert board.at_repl
        assert board.stats.reboots == 1
        assert not (flash / "repl.flag").exists()     # taken by the power-up it made
        board.reboot()
        wire = Wire(board.port)
        assert wire.expect(r"BOOT .*", 10)
        assert wire.ask("PING 10") == "PONG 10"
        wire.close()


def _flash(port: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", "firmware", "flash", "--port",
                           str(port)], capture_output=True, text=True, timeout=180,
                          check=False, stdin=subprocess.DEVNULL)


def _on_board(flash: Path) -> set[str]:
    return {str(p.relative_to(flash)) for p in flash.rglob("*") if p.is_file()}


def test_flash_a_blank_pico_then_reflash_it_running(tmp_path: Path) -> None:
    """Blank → flash → it holds exactly the firmware, boots and speaks ULP/1; running, with
    stale firmware files and a maker's own → re-flash (no button) → the stale ones are
    gone, the maker's kept and named, and it boots."""
    flash = tmp_path / "flash"
    flash.mkdir()
    with PicoBoard(link=tmp_path / "pico", flash=flash, time_scale=20.0) as board:
        run = _flash(board.link)  # type: ignore[arg-type]
        assert run.returncode == 0, run.stderr
        assert "every file read back the same" in run.stdout
        assert "answered PING" in run.stdout
        assert "removed" not in run.stdout
        assert "left on the board" not in run.stdout
        assert _on_board(flash) == set(image.files())
        for name, source in image.files().items():
            assert (flash / name).read_bytes() == source.read_bytes(), name
        assert not (flash / "firmware" / "dispenser.py").is_symlink()
        wire = Wire(board.port)
        assert wire.ask("PING 5") == "PONG 5"
        wire.close()
    # What an older firmware left (a module since removed, one compiled to .mpy, in a
    # folder), and a maker's own file: on the board's flash while it is off.
    stale = ["firmware/old.py", "firmware/ulp.mpy", "firmware/extra/more.py"]
    for name in [*stale, "notes.txt"]:
        (flash / name).parent.mkdir(parents=True, exist_ok=True)
        (flash / name).write_text("# not this firmware's\n")
    with PicoBoard(link=tmp_path / "pico", flash=flash, time_scale=20.0) as board:
        wire = Wire(board.port)
        assert wire.ask("PING 6") == "PONG 6"    # running the firmware: no button held
        wire.close()
        again = _flash(board.link)  # type: ignore[arg-type]
        assert again.returncode == 0, again.stderr
        assert board.stats.reboots >= 2   # to its REPL, then the reset
        assert f"removed 3 stale firmware file(s): {', '.join(sorted(stale))}" in again.stdout
        assert "left on the board, not the firmware's: notes.txt" in again.stdout
        assert _on_board(flash) == {*image.files(), "notes.txt"}
        assert not (flash / "firmware" / "extra").exists()
        wire = Wire(board.port)
        assert wire.ask("PING 7") == "PONG 7"
        wire.close()


def test_flash_without_a_board_is_one_line(tmp_path: Path) -> None:
    run = _flash(tmp_path / "nothing")
    assert run.returncode != 0
    assert "cannot open the port" in run.stderr
    assert "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_without_a_port_flash_finds_the_one_pico(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from firmware_bridge import flash

    monkeypatch.setattr(flash.list_ports, "comports", lambda: [
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403),
        SimpleNamespace(device="/dev/ttyACM0", vid=flash.PICO_VID)])
    assert flash.find_port() == "/dev/ttyACM0"


@pytest.mark.parametrize(("found", "message"), [
    ([], "no Pico found: plug one in (with MicroPython on it) or give --port"),
    (["/dev/ttyACM1", "/dev/ttyACM0"],
     "2 Picos found (/dev/ttyACM0, /dev/ttyACM1): choose one with --port"),
])
def test_without_a_port_flash_needs_exactly_one_pico(monkeypatch: pytest.MonkeyPatch,
                                                      found: list[str], message: str) -> None:
    """USB enumeration cannot run here: the ports list is the one thing made up."""
    from types import SimpleNamespace

    from firmware_bridge import flash

    ports = [SimpleNamespace(device=d, vid=flash.PICO_VID) for d in found]
    ports.append(SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403))   # not a Pico
    monkeypatch.setattr(flash.list_ports, "comports", lambda: ports)
    with pytest.raises(flash.FlashError) as raised:
        flash.find_port()
    assert str(raised.value) == message


def test_noise_takes_no_heap_for_good(tmp_path: Path) -> None:
    """Lines garbled into 300 different characters leave the firmware's live heap as the
    same garbled line 300 times did: MicroPython keeps every one-character string it
    makes, so checking a line character by character took 300 of them for good."""
    with PicoBoard(link=tmp_path / "pico", time_scale=20.0, heap_kb=128) as board:
        term = Terminal(board.port)
        try:
            term.send("HELLO 1 session=0000CAFE")
            term.expect("HELLO")
            for _ in range(300):   # the same garbled line: whatever its path takes once
                term.send_raw("PING 7\u0100*0000\n".encode())
            assert len(term.answers_to_last(60001)) == 300
            before = board.heap_after_collect()[0]
            for c in range(0x101, 0x101 + 300):
                term.send_raw(f"PING 7{chr(c)}*0000\n".encode())
            assert len(term.answers_to_last(60002)) == 300    # ERR - crc, each one
            after = board.heap_after_collect()[0]
        finally:
            term.close()
    assert after - before < 256, (before, after)


def test_the_firmware_state_takes_the_same_heap_whatever_it_holds(tmp_path: Path) -> None:
    """The 8 ejects the firmware remembers and the line coming in take as much heap with
    5-digit ids and a long part line as with 1-digit ids and none: a state that swayed
    with what it holds would hide a leak of a few bytes (the soak asserts none, to the
    byte)."""
    params = DispenserParams(hopper=200)
    with PicoBoard(link=tmp_path / "pico", time_scale=20.0, heap_kb=128,
                   params=params) as board:
        term = Terminal(board.port)
        try:
            term.send("HELLO 1 session=0000CAFE")
            term.expect("HELLO")
            live = []
            for first, coming in ((1, b""), (60001, b"PING 9 " + b"x" * 60)):
                for rid in range(first, first + 8):
                    term.send(f"EJECT {rid} 10 4000")
                    assert term.expect("DONE", timeout=10).fields["status"] == "ok"
                term.send_raw(coming)   # no end of line yet: the firmware holds it
                live.append(board.heap_after_collect()[0])
        finally:
            term.close()
    assert live[1] == live[0], live
