"""Request-to-reply round trip over the emulated board's pty, beside the wire time.

The wire time is what the same bytes (request and reply lines) need on a real UART at
115200 baud, 10 bits per byte: the pty has no baud rate, so the difference is the cost of
the host driver, the pty and the firmware logic.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import Row
from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.firmware import ulp
from firmware_bridge.host import UlpLink

ROUNDS = 2000
BAUD_BYTES_PER_S = 115200 / 10


def run() -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp, \
            EmulatedBoard(link=Path(tmp) / "board", seed=1) as board:
        link = UlpLink(board.port, ping_s=3600)
        link.open()
        try:
            times = []
            for _ in range(ROUNDS):
                started = time.perf_counter()
                link.ping()
                times.append(time.perf_counter() - started)
        finally:
            link.close()
    times.sort()
    median = statistics.median(times) * 1000
    p99 = times[int(len(times) * 0.99)] * 1000
    wire_bytes = len(ulp.frame("PING 65000")) + len(ulp.frame("PONG 65000"))
    wire_ms = wire_bytes / BAUD_BYTES_PER_S * 1000
    return [
        Row("serial PING round trip, median", f"{median:.3f} ms", f"over a pty, {ROUNDS} rounds"),
        Row("serial PING round trip, p99", f"{p99:.3f} ms", "host driver + pty + firmware"),
        Row("same bytes on the wire", f"{wire_ms:.3f} ms",
            f"{wire_bytes} bytes at 115200 baud, 10 bits a byte"),
    ]
