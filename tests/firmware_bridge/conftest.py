"""Fixtures: an emulated board behind a real pty, a raw terminal on it, a host link."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.firmware import ulp
from firmware_bridge.host import UlpLink
from firmware_bridge.pico_emulator import PicoBoard
from sim_launcher.physical import DispenserParams

FAST = 20.0  # model time runs this many times faster than real time
# The same tests run on both boards: the firmware logic in this process, and the firmware's
# own files on MicroPython (the emulated Pico).
BOARDS: dict[str, type[EmulatedBoard]] = {"cpython": EmulatedBoard, "micropython": PicoBoard}


class Terminal:
    """A person at a serial terminal: writes framed lines, reads and parses replies."""

    def __init__(self, port: str) -> None:
        self.serial = serial.Serial(port, 115200, timeout=0.05, exclusive=True)
        self.buffer = b""
        self.serial.write(b"\n")

    def send(self, payload: str) -> None:
        self.serial.write(ulp.frame(payload))

    def send_raw(self, data: bytes) -> None:
        self.serial.write(data)

    def read(self, timeout: float = 2.0) -> ulp.Message | None:
        """The next whole line the board sent, parsed (None when none came in time).

        Bytes are kept across calls until their ``\n`` comes: a line the machine hands
        over in two parts is one line, never two broken ones."""
        deadline = time.monotonic() + timeout
        while True:
            line, newline, rest = self.buffer.partition(b"\n")
            if newline:
                self.buffer = rest
                payload = ulp.unframe(line)
                if payload is not None:
                    return ulp.parse_device(payload)
                continue
            if time.monotonic() >= deadline:
                return None
            self.buffer += self.serial.read(self.serial.in_waiting or 1)

    def expect(self, verb: str, timeout: float = 3.0) -> ulp.Message:
        """The next message with ``verb``; the ones before it are kept in ``skipped``."""
        self.skipped: list[ulp.Message] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self.read(deadline - time.monotonic())
            if msg is None:
                break
            if msg.verb == verb:
                return msg
            self.skipped.append(msg)
        raise AssertionError(f"no {verb} within {timeout} s (saw {self.skipped})")

    def answers_to_last(self, rid: int = 60000) -> list[ulp.Message]:
        """Everything the board says before the PONG of a ``PING rid`` sent now: the board
        answers in order, so that is all it said to the requests sent before (no waiting
        out a quiet spell that a loaded machine can make too short)."""
        self.send(f"PING {rid}")
        out = []
        while (msg := self.read(10.0)) is not None:
            if (msg.verb, msg.rid) == ("PONG", rid):
                return out
            out.append(msg)
        raise AssertionError(f"no PONG {rid} (saw {out})")

    def close(self) -> None:
        self.serial.close()


def wait_for(predicate: Callable[[], object], timeout: float = 5.0) -> bool:
    """Wait on a condition, never on a fixed sleep."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.002)
    return predicate()


@pytest.fixture(params=list(BOARDS))
def board_class(request: pytest.FixtureRequest) -> type[EmulatedBoard]:
    """Each emulated board in turn: a test that takes it runs on both."""
    return BOARDS[request.param]


@pytest.fixture
def board(tmp_path: Path, board_class: type[EmulatedBoard]) -> Iterator[EmulatedBoard]:
    params = DispenserParams(jam_probability=0.0)  # jams only when a test makes one
    with board_class(link=tmp_path / "board", seed=7, time_scale=FAST, params=params) as b:
        yield b


@pytest.fixture
def term(board: EmulatedBoard) -> Iterator[Terminal]:
    t = Terminal(board.port)
    t.send("HELLO 1 session=0000CAFE")
    t.expect("HELLO")
    yield t
    t.close()


@pytest.fixture
def link(board: EmulatedBoard) -> Iterator[UlpLink]:
    ulp_link = UlpLink(board.port, retry_s=0.05, poll_s=0.05, ping_s=0.3)
    ulp_link.open()
    yield ulp_link
    ulp_link.close()
