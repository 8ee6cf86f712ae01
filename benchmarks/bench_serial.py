"""Request-to-reply round trip over the emulated boards' ptys, beside the wire time.

The wire time is what the same bytes (request and reply lines) need on a real UART at
115200 baud, 10 bits per byte: the pty has no baud rate, so the difference is the cost of
the host driver, the pty and the firmware. Both boards are measured: the firmware logic
run in this process (CPython) and the emulated Pico (the firmware's files on MicroPython,
one sync with the emulator per pass of its main loop). An eject of 3 cards runs with the
model clock 20 times faster than real time: its time is the dispenser's, over 20, plus
what the board and the host add.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks import Row
from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.firmware import ulp
from firmware_bridge.host import UlpLink
from firmware_bridge.pico_emulator import PicoBoard
from sim_launcher.physical import DispenserParams

ROUNDS = 2000
EJECTS = 40
EJECT_SCALE = 20.0
BAUD_BYTES_PER_S = 115200 / 10
BOARDS: dict[str, type[EmulatedBoard]] = {"CPython": EmulatedBoard, "MicroPython": PicoBoard}


def _timed(rounds: int, action: Callable[[], object]) -> tuple[float, float]:
    """Median and p99 of ``action``'s wall time, in ms."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000


def _measure(kind: type[EmulatedBoard]) -> tuple[tuple[float, float], tuple[float, float]]:
    with tempfile.TemporaryDirectory() as tmp, \
            kind(link=Path(tmp) / "board", seed=1, time_scale=EJECT_SCALE,
                 params=DispenserParams(jam_probability=0.0)) as board:
        link = UlpLink(board.port, ping_s=3600)
        link.open()
        try:
            ping = _timed(ROUNDS, link.ping)
            eject = _timed(EJECTS, lambda: link.eject(3, 4000))
        finally:
            link.close()
    return ping, eject


def run() -> list[Row]:
    rows = []
    for name, kind in BOARDS.items():
        (ping_median, ping_p99), (eject_median, eject_p99) = _measure(kind)
        rows += [
            Row(f"serial PING round trip ({name} board), median", f"{ping_median:.3f} ms",
                f"over a pty, {ROUNDS} rounds"),
            Row(f"serial PING round trip ({name} board), p99", f"{ping_p99:.3f} ms",
                "host driver + pty + firmware"),
            Row(f"EJECT 3 cards ({name} board), median", f"{eject_median:.1f} ms",
                f"{EJECTS} ejects, model clock x{EJECT_SCALE:g}"),
            Row(f"EJECT 3 cards ({name} board), p99", f"{eject_p99:.1f} ms", "OK to DONE"),
        ]
    wire_bytes = len(ulp.frame("PING 65000")) + len(ulp.frame("PONG 65000"))
    wire_ms = wire_bytes / BAUD_BYTES_PER_S * 1000
    rows.append(Row("same bytes on the wire", f"{wire_ms:.3f} ms",
                    f"{wire_bytes} bytes at 115200 baud, 10 bits a byte"))
    return rows
