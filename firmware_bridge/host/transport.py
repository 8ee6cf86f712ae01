"""The serial port under a ULP/1 link: open it, read lines in a thread, write, reopen.

It knows lines, not messages: every line received (good, damaged or empty) goes to the
``on_line`` callback, from the reader thread. A port that vanishes (a USB cable pulled,
the emulator's disconnect) is reported to ``on_lost`` (the link then greets the board
again with its next request) and reopened every ``REOPEN_S``.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from firmware_bridge.firmware import ulp
from uno_attack.errors import LauncherError

BAUD = 115200
READ_TIMEOUT_S = 0.02
REOPEN_S = 0.05      # a lost port is retried this often


class PortError(LauncherError):
    """The serial port cannot be opened (missing, busy, no permission)."""


@dataclass
class LinkStats:
    """Counters a test or a status line can show."""

    sent: int = 0
    resent: int = 0
    received: int = 0
    bad_lines: int = 0       # lines that failed framing or CRC here
    crc_errors: int = 0      # ``ERR - crc``: the board dropped one of our lines
    reconnects: int = 0
    reboots: int = 0
    presses_recovered: int = 0  # presses counted from a gap or a STATUS, not a PRESS
    faults: list[str] = field(default_factory=list)


class Transport:
    """One serial port, opened exclusively, with a reader thread."""

    def __init__(self, port: str, *, on_line: Callable[[bytes], None],
                 on_lost: Callable[[], None], stats: LinkStats,
                 reconnect: bool = True) -> None:
        self.port = port
        self.on_line = on_line
        self.on_lost = on_lost
        self.stats = stats
        self.reconnect = reconnect
        self.last_write = 0.0
        self._serial: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def open(self) -> None:
        """Open the port and flush whatever half line the board holds."""
        self._serial = self._open_port()
        self._flush()
        self._thread = threading.Thread(target=self._reader, name=f"ulp-reader {self.port}",
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            thread.join(timeout=2)
        with self._write_lock:
            ser, self._serial = self._serial, None
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    def write(self, data: bytes, *, resend: bool = False) -> None:
        """Send bytes; on a lost port they are lost too (the retries will send again)."""
        self.last_write = time.monotonic()
        self.stats.sent += 1
        if resend:
            self.stats.resent += 1
        with self._write_lock:
            ser = self._serial
            if ser is None:
                return
            try:
                ser.write(data)
                return
            except (serial.SerialException, OSError):
                pass
        self._lost(ser)  # outside the lock, which _lost takes

    # -- inside -------------------------------------------------------------------------
    def _open_port(self) -> serial.SerialBase:
        try:
            return serial.serial_for_url(self.port, baudrate=BAUD, timeout=READ_TIMEOUT_S,
                                         write_timeout=1.0, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise PortError(f"cannot open serial port {self.port}: {exc}") from None

    def _flush(self) -> None:
        ser = self._serial
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.reset_input_buffer()  # type: ignore[attr-defined]  # see _reader
            self.write(b"\n")  # ends whatever half line the board holds

    def _reader(self) -> None:
        buffer = bytearray()
        while not self._stop.is_set():
            ser = self._serial
            if ser is None:
                if self._stop.wait(REOPEN_S) or not self.reconnect:
                    continue
                self._reopen()
                buffer.clear()
                continue
            try:
                # Every port class has in_waiting; types-pyserial declares it on none.
                data = ser.read(ser.in_waiting or 1)  # type: ignore[attr-defined]
            except (serial.SerialException, OSError, TypeError):
                self._lost(ser)
                continue
            if not data:
                continue
            buffer += data
            while b"\n" in buffer:
                line, _, rest = bytes(buffer).partition(b"\n")
                buffer = bytearray(rest)
                self.on_line(line)
            if len(buffer) > 4 * ulp.MAX_PAYLOAD:
                buffer.clear()
                self.stats.bad_lines += 1

    def _lost(self, ser: serial.SerialBase) -> None:
        with self._write_lock:
            if self._serial is not ser:
                return
            self._serial = None
        with contextlib.suppress(Exception):
            ser.close()
        self.on_lost()

    def _reopen(self) -> None:
        try:
            ser = self._open_port()
        except PortError:
            return
        with self._write_lock:
            self._serial = ser
        self.stats.reconnects += 1
        self._flush()
