"""``uno-attack firmware flash``: the firmware onto a Pico with ``mpremote``, checked.

The files are ``image.files()`` (``dispenser.py``'s link resolved to its file). A board
that runs the firmware is first asked to leave it for its REPL (the ``REPL`` request), so
nobody has to hold its button; ``mpremote`` removes what the firmware owns and the image
no longer has, copies the files, reads every one back to compare it, and resets the
board, and the flash is done when the board answers ``PING``.

The firmware owns ``main.py``, the folder ``firmware/`` and its ``repl.flag``: anything
else in ``firmware/`` (a module since removed, a ``.mpy`` compiled from an old one)
goes. A maker's own files beside them stay, and are named.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import serial
from serial.tools import list_ports

from firmware_bridge import image
from firmware_bridge.firmware import ulp
from uno_attack.errors import UnoAttackError

PICO_VID = 0x2E8A      # Raspberry Pi's USB vendor id: a Pico running MicroPython
MPREMOTE_S = 120.0     # the longest one mpremote run may take
ANSWER_S = 15.0        # how long a board may take to restart and answer


class FlashError(UnoAttackError):
    """A board that cannot be found, reached or flashed."""


def find_port() -> str:
    """The one Pico plugged in (a clear error when there is none, or more than one)."""
    ports = sorted(str(p.device) for p in list_ports.comports() if p.vid == PICO_VID)
    if not ports:
        raise FlashError("no Pico found: plug one in (with MicroPython on it) or give --port")
    if len(ports) > 1:
        raise FlashError(f"{len(ports)} Picos found ({', '.join(ports)}): choose one with "
                         "--port")
    return ports[0]


def flash(port: str, *, log: bool = True) -> None:
    """Copy the firmware to the board on ``port``, check it, reset it, wait for its PONG."""
    ask_for_repl(port)
    files = image.files()
    with tempfile.TemporaryDirectory(prefix="uno-attack-flash-") as tmp:
        stage, back = Path(tmp) / "stage", Path(tmp) / "back"
        image.write(stage)
        (back / "firmware").mkdir(parents=True)
        removed, others = _prune(port, files)
        if removed:
            _say(log, f"removed {len(removed)} stale firmware file(s): {', '.join(removed)}")
        _say(log, f"copying {len(files)} files to {port}")
        mpremote(port, "fs", "cp", "-r", str(stage / "firmware"), ":",
                 "+", "fs", "cp", str(stage / "main.py"), ":main.py")
        reads: list[str] = []
        for name in files:
            reads += ["fs", "cp", f":{name}", str(back / name), "+"]
        mpremote(port, *reads[:-1])
        for name, source in files.items():
            if (back / name).read_bytes() != source.read_bytes():
                raise FlashError(f"{name} on the board differs from {source} after copying")
        _say(log, "every file read back the same; resetting the board")
        if others:
            _say(log, f"left on the board, not the firmware's: {', '.join(others)}")
        mpremote(port, "reset")
    wait_for_pong(port)
    _say(log, f"the board on {port} runs the firmware: it answered PING")


def ask_for_repl(port: str) -> None:
    """A board running the firmware leaves it for the REPL; one at its REPL ignores it."""
    try:
        with serial.Serial(port, 115200, timeout=0.1, exclusive=True) as link:
            link.write(b"\n" + ulp.frame(ulp.build_request("REPL", 1)))
            deadline = time.monotonic() + 1.0
            heard = b""
            while time.monotonic() < deadline and ulp.frame("OK 1") not in heard \
                    and b">>> " not in heard:   # already at its REPL: nothing to wait for
                heard += link.read(256)
    except serial.SerialException as exc:
        raise FlashError(f"{port}: cannot open the port: {exc}") from None
    if ulp.frame("OK 1") in heard:
        _wait_for_port(port)   # it restarts into its REPL (a real one leaves the USB bus)


# Run on the board (MicroPython): the firmware's files that the image no longer has go;
# the names at the top that are not the firmware's are listed.
PRUNE = """
import os
KEEP = %r
def prune(folder):
    for entry in os.ilistdir(folder):
        path = folder + "/" + entry[0]
        if entry[1] & 0x4000:
            prune(path)
            if not os.listdir(path):
                os.rmdir(path)
        elif path not in KEEP:
            os.remove(path)
            print("removed", path)
for name in sorted(os.listdir()):
    if name == "firmware" and os.stat(name)[0] & 0x4000:
        prune(name)
    elif name == "repl.flag":
        os.remove(name)
    elif name not in KEEP:
        print("other", name)
"""


def _prune(port: str, files: dict[str, Path]) -> tuple[list[str], list[str]]:
    """Remove the firmware's stale files; the stale ones and the maker's own, by name."""
    out = mpremote(port, "exec", PRUNE % sorted(files))
    removed, others = [], []
    for line in out.splitlines():
        what, _, name = line.strip().partition(" ")
        if what == "removed":
            removed.append(name)
        elif what == "other":
            others.append(name)
    return sorted(removed), others


def mpremote(port: str, *args: str) -> str:
    """Run ``mpremote connect PORT ARGS…``: its output; its error, in one line, when it
    fails."""
    try:
        run = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, *args],
                             capture_output=True, text=True, timeout=MPREMOTE_S, check=False)
    except subprocess.TimeoutExpired:
        raise FlashError(f"mpremote on {port} took over {MPREMOTE_S:g} s") from None
    if run.returncode != 0:
        lines = (run.stderr or run.stdout).strip().splitlines() or ["no output"]
        raise FlashError(f"mpremote on {port} failed: {lines[-1]}")
    return run.stdout


def wait_for_pong(port: str, timeout: float = ANSWER_S) -> None:
    """Wait until the board answers a PING (it may leave and rejoin the bus meanwhile)."""
    deadline = time.monotonic() + timeout
    pong = ulp.frame("PONG 1")
    while time.monotonic() < deadline:
        try:
            with serial.Serial(port, 115200, timeout=0.1, exclusive=True) as link:
                link.write(b"\n" + ulp.frame("PING 1"))
                heard = b""
                until = min(time.monotonic() + 0.5, deadline)
                while time.monotonic() < until and pong not in heard:
                    heard += link.read(256)
                if pong in heard:
                    return
        except serial.SerialException:
            time.sleep(0.2)
    raise FlashError(f"the board on {port} did not answer PING within {timeout:g} s "
                     "after the reset")


def _wait_for_port(port: str) -> None:
    deadline = time.monotonic() + ANSWER_S
    time.sleep(0.5)
    while not Path(port).exists() and time.monotonic() < deadline:
        time.sleep(0.1)


def _say(log: bool, text: str) -> None:
    if log:
        print(text, flush=True)
