"""Conformance with PROTOCOL.md (ULP/1), rule by rule, over real ptys with raw bytes.

The board side talks to :class:`EmulatedBoard` through its pty with a tiny framing/CRC
helper written here from the specification (not our codec), so a codec bug cannot hide a
board bug. The host side drives :class:`UlpLink` against a fake board on a pty written
the same way. Every test names the sentence of PROTOCOL.md it checks.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_bridge import host as host_module
from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.firmware import board as fw
from firmware_bridge.firmware import dispenser
from firmware_bridge.firmware.hal import Hal
from firmware_bridge.host import UlpLink
from sim_launcher.physical import DispenserParams
from uno_attack.launcher import LauncherNotResponding

SPEED = 20.0  # model time runs this many times faster than real time


# -- the spec's framing, written again from PROTOCOL.md ------------------------------------
def crc(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor."""
    value = 0xFFFF
    for byte in data:
        value ^= byte << 8
        for _ in range(8):
            value = ((value << 1) ^ 0x1021 if value & 0x8000 else value << 1) & 0xFFFF
    return value


def line(payload: str | bytes, *, lower: bool = False, end: bytes = b"\n") -> bytes:
    data = payload.encode("latin-1") if isinstance(payload, str) else payload
    check = b"%04x" % crc(data) if lower else b"%04X" % crc(data)
    return data + b"*" + check + end


DEVICE_LINE = re.compile(rb"^([\x20-\x29\x2B-\x7E]{0,72})\*([0-9A-F]{4})\r?$")


def payload_of(raw: bytes) -> str:
    """The payload of a line the device wrote, checking every framing rule on the way."""
    m = DEVICE_LINE.match(raw)
    assert m, f"device line breaks the framing rules: {raw!r}"
    body = m.group(1)
    assert b"  " not in body, raw
    assert int(m.group(2), 16) == crc(body), f"bad CRC from the device: {raw!r}"
    return body.decode()


HEX8 = re.compile(r"^[0-9A-F]{8}$")


class Wire:
    """The far end of a pty, byte by byte: writes raw lines, reads and checks the device's."""

    def __init__(self, port: str) -> None:
        self.fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        self.buffer = b""
        self.skipped: list[str] = []

    def close(self) -> None:
        os.close(self.fd)

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def send(self, payload: str, **kw: object) -> None:
        self.write(line(payload, **kw))  # type: ignore[arg-type]

    def read(self, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                with contextlib.suppress(BlockingIOError):
                    self.buffer += os.read(self.fd, 4096)
        raw, _, self.buffer = self.buffer.partition(b"\n")
        return payload_of(raw)

    def expect(self, pattern: str, timeout: float = 3.0) -> str:
        """The next line matching the regex ``pattern``; the lines before are in skipped."""
        self.skipped = []
        deadline = time.monotonic() + timeout
        while (got := self.read(max(deadline - time.monotonic(), 0))) is not None:
            if re.fullmatch(pattern, got):
                return got
            self.skipped.append(got)
        raise AssertionError(f"no line matching {pattern!r} in {timeout} s: {self.skipped}")

    def answers_to_last(self, rid: int = 60000) -> list[str]:
        """Every line the device writes before the PONG of a ``PING rid`` sent now: it
        answers in order, so that is all it said to the lines sent before (no quiet
        spell to wait out, which a loaded machine can make too short)."""
        self.send(f"PING {rid}")
        out = []
        while (got := self.read(10.0)) is not None:
            if got == f"PONG {rid}":
                return out
            out.append(got)
        raise AssertionError(f"no PONG {rid} (saw {out})")

    def quiet(self, seconds: float = 0.15) -> list[str]:
        """Every line the device writes in ``seconds``."""
        out = []
        deadline = time.monotonic() + seconds
        while (got := self.read(max(deadline - time.monotonic(), 0))) is not None:
            out.append(got)
        return out

    def ask(self, payload: str, timeout: float = 1.0) -> str:
        """Send one request and return its reply: the first line with its id (or ``-``),
        skipping events and the CARD and DONE lines of a job that runs meanwhile."""
        words = payload.split(" ")
        rid = words[1] if len(words) > 1 else None
        self.send(payload)
        deadline = time.monotonic() + timeout
        while (got := self.read(max(deadline - time.monotonic(), 0))) is not None:
            verb, _, rest = got.partition(" ")
            if verb in ("BOOT", "PRESS", "FAULT", "CARD"):
                continue
            if rest.split(" ")[0] in (rid, "-"):
                return got
        raise AssertionError(f"no reply to {payload!r}")


def wait(predicate: Callable[[], object], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.002)
    return bool(predicate())


class Books:
    """What the physical model really did, in model time: motor, beam, lines written."""

    def __init__(self, board: EmulatedBoard) -> None:
        self.motor: list[tuple[float, float]] = []
        self.beam: list[tuple[float, bool]] = []
        self.lines: list[tuple[float, str]] = []
        model = board.world.model
        set_motor, advance, transmit = model.set_motor, model.advance, board.transmit

        def on_motor(duty: float) -> None:
            set_motor(duty)
            self.motor.append((model.now_ms, duty))

        def on_advance(ms: float) -> None:
            advance(ms)
            blocked = model.beam_blocked
            if not self.beam or self.beam[-1][1] != blocked:
                self.beam.append((model.now_ms, blocked))

        def on_transmit(data: bytes) -> None:
            self.lines.append((model.now_ms, data.decode().split("*")[0]))
            transmit(data)

        model.set_motor = on_motor  # type: ignore[method-assign]
        model.advance = on_advance  # type: ignore[method-assign]
        board.transmit = on_transmit  # type: ignore[method-assign]

    def runs(self) -> list[float]:
        """How long each motor run lasted (ms, model time)."""
        out, since = [], None
        for at, duty in self.motor:
            if duty and since is None:
                since = at
            elif not duty and since is not None:
                out.append(at - since)
                since = None
        return out

    def when(self, payload: str) -> float:
        return next(at for at, text in self.lines if text == payload)


@pytest.fixture
def make_board(tmp_path: Path, board_class: type[EmulatedBoard]
               ) -> Iterator[Callable[..., tuple[EmulatedBoard, Books]]]:
    boards: list[EmulatedBoard] = []

    def make(**kw: object) -> tuple[EmulatedBoard, Books]:
        params = kw.pop("params", DispenserParams(jam_probability=0.0))
        b = board_class(link=tmp_path / f"board{len(boards)}", seed=3, time_scale=SPEED,
                        params=params, **kw)  # type: ignore[arg-type]
        books = Books(b)
        boards.append(b)
        b.start()
        return b, books

    yield make
    for b in boards:
        b.close()


@pytest.fixture
def dev(make_board: Callable[..., tuple[EmulatedBoard, Books]]) -> Iterator[Wire]:
    """A wire to a fresh board, greeted with a HELLO (its BOOT already read)."""
    board, books = make_board()
    wire = Wire(board.port)
    wire.board, wire.books = board, books  # type: ignore[attr-defined]
    wire.expect(r"BOOT boot=[0-9A-F]{8}")
    wire.write(b"\n")
    assert re.fullmatch(r"HELLO 1 .*", wire.ask("HELLO 1 session=0000BEEF"))
    yield wire
    wire.close()


def cards_of(lines: list[str], rid: int) -> list[int]:
    """The numbers of the ``CARD rid n`` lines among ``lines``."""
    return [int(s.split()[2]) for s in lines if s.startswith(f"CARD {rid} ")]


def run_to_done(wire: Wire, rid: int, timeout: float = 5.0) -> tuple[list[int], str]:
    """Read to the DONE of ``rid``: the CARD numbers seen for it and the DONE line."""
    done = wire.expect(rf"DONE {rid} \d+ \w+", timeout)
    return cards_of(wire.skipped, rid), done


# == Link ==================================================================================
class TestLink:
    def test_crc_check_value_and_the_example_session(self) -> None:
        assert crc(b"123456789") == 0x29B1
        example = ["HELLO 1 session=5A3C9E01*73AC", "OK 2*C319", "DONE 2 3 ok*4252",
                   "STATUS 3 motor=0 beam=1 button=0 presses=1 ejecting=-*A486",
                   "EJECT 5 2 4000*0041", "DONE 5 1 jam*DE71"]
        for text in example:
            assert line(text.split("*")[0]).decode() == text + "\n"

    def test_device_lines_are_framed_with_upper_case_crc(self, dev: Wire) -> None:
        # Wire.read checks every line: printable, at most 72, single spaces, upper-case CRC.
        dev.send("EJECT 2 2 4000", lower=True)
        run_to_done(dev, 2)
        assert dev.ask("STATUS 3").startswith("STATUS 3 ")

    def test_crlf_is_accepted(self, dev: Wire) -> None:
        dev.write(line("PING 5", end=b"\r\n"))
        assert dev.expect(r".*") == "PONG 5"

    def test_empty_lines_are_ignored(self, dev: Wire) -> None:
        dev.write(b"\n\r\n\n")
        assert dev.answers_to_last() == []
        assert dev.ask("PING 6") == "PONG 6"

    def test_newline_flushes_a_half_line(self, dev: Wire) -> None:
        dev.write(b"EJECT 9 1")
        dev.write(b"\n")
        assert dev.expect(r".*") == "ERR - crc"
        assert dev.ask("PING 7") == "PONG 7"
        assert dev.board.records == []  # type: ignore[attr-defined]

    def test_72_characters_accepted_73_dropped(self, dev: Wire) -> None:
        ok = "PING 8 pad=" + "x" * (72 - len("PING 8 pad="))
        assert len(ok) == 72
        assert dev.ask(ok) == "PONG 8"
        assert dev.ask(ok + "x") == "ERR - crc"
        assert dev.ask("PING 8 pad=" + "x" * 300) == "ERR - crc"
        assert dev.ask("PING 9") == "PONG 9"

    @pytest.mark.parametrize("bad", [b"\x00", b"\x1f", b"\x7f", b"\x80", b"\xff", b"\t",
                                     b"\r", b"*", b"\xc3\xa9"])
    def test_other_bytes_drop_the_line(self, dev: Wire, bad: bytes) -> None:
        assert dev.ask(b"PING 10 a=".decode() + bad.decode("latin-1")) == "ERR - crc"
        dev.write(line(b"EJECT 11 " + bad + b"1 4000"))
        assert dev.expect(r".*") == "ERR - crc"
        assert dev.board.records == []  # type: ignore[attr-defined]

    def test_two_spaces_drop_the_line(self, dev: Wire) -> None:
        assert dev.ask("PING  12") == "ERR - crc"
        assert dev.ask("EJECT 12 1  4000") == "ERR - crc"
        assert dev.board.records == []  # type: ignore[attr-defined]

    @pytest.mark.parametrize("raw", [b"PING 13\n", b"PING 13*\n", b"PING 13*2\n",
                                     b"PING 13*ABC\n", b"PING 13*ABCDE\n", b"PING 13 ABCD\n",
                                     b"PING 13*GGGG\n", b"PING 13*+ABC\n", b"PING 13* ABC\n",
                                     b"*\n"])
    def test_a_line_without_its_crc_is_dropped(self, dev: Wire, raw: bytes) -> None:
        dev.write(raw)
        assert dev.expect(r".*") == "ERR - crc"

    def test_a_bad_crc_drops_the_line(self, dev: Wire) -> None:
        good = line("EJECT 14 1 4000")
        for i in range(len(good) - 1):  # one bit flipped anywhere: never acted on
            bad = bytearray(good)
            bad[i] ^= 0x04
            if bytes(bad).upper() == good.upper() or bad[i] == 0x0A:
                continue
            dev.write(bytes(bad))
            assert dev.expect(r".*") == "ERR - crc", bytes(bad)
        assert dev.board.records == []  # type: ignore[attr-defined]

    def test_lower_case_crc_is_accepted(self, dev: Wire) -> None:
        assert f"{crc(b'PING 15'):04X}" != f"{crc(b'PING 15'):04x}"
        dev.send("PING 15", lower=True)
        assert dev.expect(r".*") == "PONG 15"

    def test_hex_values_compare_without_case(self, dev: Wire) -> None:
        dev.send("EJECT 16 1 4000")
        run_to_done(dev, 16)
        assert dev.ask("HELLO 17 session=0000beef").startswith("HELLO 17 ")  # the same one
        assert re.fullmatch(r"DONE 16 1 ok", dev.ask("EJECT 16 1 4000"))


# == Ids ===================================================================================
class TestIds:
    @pytest.mark.parametrize("word", ["0", "65536", "01", "00", "-1", "+1", "1.0", "1e3",
                                      "99999999999999999999", "x"])
    def test_unusable_ids(self, dev: Wire, word: str) -> None:
        assert dev.ask(f"PING {word}") == "ERR - args"
        assert dev.ask(f"EJECT {word} 1 4000") == "ERR - args"
        assert dev.ask(f"FIRE {word}") == "ERR - verb"
        assert dev.board.records == []  # type: ignore[attr-defined]

    @pytest.mark.parametrize("rid", [1, 9, 10, 65535])
    def test_usable_ids_are_echoed(self, dev: Wire, rid: int) -> None:
        assert dev.ask(f"PING {rid}") == f"PONG {rid}"
        assert dev.ask(f"FIRE {rid}") == f"ERR {rid} verb"

    def test_a_request_without_any_id(self, dev: Wire) -> None:
        for verb in ("PING", "STATUS", "STOP", "EJECT", "MOTOR", "HELLO"):
            assert dev.ask(verb) == "ERR - args"
        assert dev.ask("FIRE") == "ERR - verb"
        assert dev.ask("PING session=1") == "ERR - args"


# == Requests and their replies ============================================================
class TestReplies:
    def test_hello(self, make_board: Callable[..., tuple[EmulatedBoard, Books]]) -> None:
        board, _ = make_board()
        wire = Wire(board.port)
        boot = wire.expect(r"BOOT boot=.*").split("=")[1]
        assert HEX8.match(boot)
        reply = wire.ask("HELLO 1 session=5A3C9E01")
        m = re.fullmatch(r"HELLO 1 ULP/1 boot=(\S+) fw=(\S+) cards=(\d+) max_ms=(\d+)", reply)
        assert m, reply
        assert m.group(1) == boot
        assert (int(m.group(3)), int(m.group(4))) == (fw.CARDS, fw.MAX_MS)
        assert dev_ask_all(wire, ["HELLO 2", "HELLO 2 5A3C9E01", "HELLO 2 session=",
                                  "HELLO 2 session=XYZ", "HELLO 2 session=123456789",
                                  "HELLO 2 session=5A3C9E01 7"]) == ["ERR 2 args"] * 6
        wire.close()

    def test_eject_replies_ok_at_once_then_cards_then_done(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        dev.send("EJECT 20 5 4000")
        cards, done = run_to_done(dev, 20)
        assert dev.skipped[0] == "OK 20"
        assert cards == [1, 2, 3, 4, 5]
        assert done == "DONE 20 5 ok"
        assert board.world.model.cards_out == 5

    @pytest.mark.parametrize(("args", "code"), [
        ("0 4000", "range"), (f"{fw.CARDS + 1} 4000", "range"), ("1 0", "range"),
        (f"1 {fw.MAX_MS + 1}", "range"), ("-1 4000", "range"), ("1 -5", "range"),
        ("1", "args"), ("", "args"), ("1 4000 5", "args"), ("x 4000", "args"),
        ("1 4s", "args"), ("1 40.0", "args"),
    ])
    def test_eject_arguments(self, dev: Wire, args: str, code: str) -> None:
        assert dev.ask(f"EJECT 21 {args}".strip()) == f"ERR 21 {code}"
        assert dev.board.records == []  # type: ignore[attr-defined]

    def test_eject_limits_are_inclusive(self, dev: Wire) -> None:
        dev.send(f"EJECT 22 {fw.CARDS} {fw.MAX_MS}")
        assert dev.expect(r"OK 22|ERR.*") == "OK 22"
        assert run_to_done(dev, 22)[1] == f"DONE 22 {fw.CARDS} ok"
        dev.send("EJECT 23 1 1")
        assert dev.expect(r"OK 23|ERR.*") == "OK 23"
        assert run_to_done(dev, 23)[1] == "DONE 23 0 timeout"

    @pytest.mark.parametrize(("args", "reply"), [
        ("-101 100", "ERR 24 range"), ("101 100", "ERR 24 range"), ("50 0", "ERR 24 range"),
        ("50 2001", "ERR 24 range"), ("50", "ERR 24 args"), ("50 100 1", "ERR 24 args"),
        ("fast 100", "ERR 24 args"),
        ("-100 1", "OK 24"), ("100 1", "OK 24"), ("0 2000", "OK 24"),
    ])
    def test_motor_arguments(self, dev: Wire, args: str, reply: str) -> None:
        assert dev.ask(f"MOTOR 24 {args}") == reply

    def test_motor_reports_the_cards_that_passed(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        dev.send("MOTOR 25 100 500")
        cards, done = run_to_done(dev, 25)
        assert dev.skipped[0] == "OK 25"
        assert done == f"DONE 25 {board.world.model.cards_out} ok"
        assert cards == list(range(1, board.world.model.cards_out + 1))

    def test_stop_when_idle(self, dev: Wire) -> None:
        assert dev.ask("STOP 26") == "OK 26"
        assert dev.answers_to_last() == []

    def test_stop_ends_a_running_eject(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        books: Books = dev.books  # type: ignore[attr-defined]
        board.world.pause()  # the STOP comes while the eject runs, however late
        dev.send("EJECT 27 12 8000")
        dev.expect("OK 27")
        board.world.pause(after_ms=600)  # spin-up and two or three cards
        dev.expect(r"CARD 27 2")
        seen = [*cards_of(dev.skipped, 27), 2]
        dev.send("STOP 28")
        assert dev.expect(r"OK 28|DONE.*") == "OK 28"
        seen += cards_of(dev.skipped, 27)
        ok_at = books.when("OK 28")
        assert books.motor[-1] == (ok_at, 0.0)  # off at once, before the OK
        board.world.resume()
        cards, done = run_to_done(dev, 27)
        seen += cards
        assert re.fullmatch(r"DONE 27 \d+ stopped", done), done
        counted = int(done.split()[2])
        assert 2 <= counted < 12
        assert seen == list(range(1, counted + 1))   # each card said once, and no more
        assert counted == board.records[-1].cards     # what really left the hopper
        self._beam_clear_25_ms(books, books.when(done))

    def test_stop_ends_a_running_motor(self, dev: Wire) -> None:
        books: Books = dev.books  # type: ignore[attr-defined]
        world = dev.board.world  # type: ignore[attr-defined]
        world.pause()
        dev.send("MOTOR 29 100 2000")
        dev.expect("OK 29")
        world.pause(after_ms=230)  # spin-up and one card, the beam clear again
        dev.expect(r"CARD 29 1")
        assert dev.ask("STOP 30") == "OK 30"
        world.resume()
        done = run_to_done(dev, 29)[1]
        assert re.fullmatch(r"DONE 29 \d+ stopped", done), done
        self._beam_clear_25_ms(books, books.when(done))

    @staticmethod
    def _beam_clear_25_ms(books: Books, at: float) -> None:
        changes = [(t, b) for t, b in books.beam if t <= at]
        assert changes
        assert changes[-1][1] is False
        assert at - changes[-1][0] >= 25.0 - 1.0  # ticks are whole ms

    def test_status_fields(self, dev: Wire) -> None:
        pattern = r"STATUS 31 motor=([01]) beam=([01]) button=([01]) presses=(\d+) ejecting=(\S+)"
        assert re.fullmatch(pattern, idle := dev.ask("STATUS 31")), idle
        assert idle == "STATUS 31 motor=0 beam=1 button=0 presses=0 ejecting=-"
        world = dev.board.world  # type: ignore[attr-defined]
        world.pause()
        dev.send("EJECT 32 12 8000")
        dev.expect("OK 32")
        world.pause(after_ms=300)  # spin-up and one card
        dev.expect(r"CARD 32 1")
        running = dev.ask("STATUS 31")
        assert re.fullmatch(r"STATUS 31 motor=1 beam=[01] button=0 presses=0 ejecting=32",
                            running), running
        dev.ask("STOP 33")
        world.resume()
        run_to_done(dev, 32)

    def test_ping(self, dev: Wire) -> None:
        assert dev.ask("PING 34") == "PONG 34"

    def test_repl_stops_the_motor_and_leaves_ulp_until_a_restart(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        books: Books = dev.books  # type: ignore[attr-defined]
        board.world.pause()
        dev.send("EJECT 50 12 8000")
        dev.expect("OK 50")
        board.world.pause(after_ms=300)
        dev.expect(r"CARD 50 1")
        assert dev.ask("REPL 51") == "OK 51"
        assert books.motor[-1] == (books.when("OK 51"), 0.0)   # off at once, before the OK
        board.world.resume()
        dev.write(line("PING 52"))
        heard = raw_for(dev, 0.5)
        assert b"PONG 52" not in heard   # ULP/1 has left
        assert b"DONE 50" not in heard
        assert board.world.model.duty == 0
        board.reboot()
        skip_to(dev, b"BOOT boot=")   # past what a REPL may still be saying, however late
        assert re.fullmatch(r"BOOT boot=[0-9A-F]{8}", dev.expect(r"BOOT .*", 10))
        assert dev.ask("PING 53") == "PONG 53"

    @pytest.mark.parametrize("verb", ["FIRE", "ping", "Eject", "OK", "DONE", "PONG", "BOOT",
                                      "PRESS", "HELLO1"])
    def test_unknown_verbs(self, dev: Wire, verb: str) -> None:
        assert dev.ask(f"{verb} 35") == "ERR 35 verb"
        assert dev.ask(f"{verb} 35 1 2 3") == "ERR 35 verb"

    @pytest.mark.parametrize("payload", ["PING 36 1", "STOP 36 now", "STATUS 36 1",
                                         "EJECT 36 1", "MOTOR 36 1", "EJECT 36 1 4000 0",
                                         "HELLO 36 session=1 x", "PING 36 "])
    def test_bad_missing_or_extra_arguments(self, dev: Wire, payload: str) -> None:
        assert dev.ask(payload) == "ERR 36 args"

    def test_unknown_options_are_ignored(self, dev: Wire) -> None:
        assert dev.ask("PING 37 colour=blue") == "PONG 37"
        assert dev.ask("STATUS 38 x=1 y=").startswith("STATUS 38 motor=0")
        assert dev.ask("HELLO 39 speed=3 session=0000BEEF =").startswith("HELLO 39 ULP/1 ")
        dev.send("EJECT 40 speed=9 1 4000 retry=yes")
        assert run_to_done(dev, 40)[1] == "DONE 40 1 ok"

    def test_busy_while_an_eject_or_motor_runs(self, dev: Wire) -> None:
        world = dev.board.world  # type: ignore[attr-defined]
        for start in ("EJECT 41 12 8000", "MOTOR 41 100 2000"):
            world.pause()
            dev.send(start)
            dev.expect("OK 41")
            assert dev.ask("EJECT 42 1 4000") == "ERR 42 busy"
            assert dev.ask("MOTOR 43 50 100") == "ERR 43 busy"
            assert dev.ask("PING 44") == "PONG 44"
            assert dev.ask("STOP 45") == "OK 45"
            world.resume()
            run_to_done(dev, 41)
            assert dev.ask("HELLO 46 session=0000F00D").startswith("HELLO 46 ")  # forget 41


def raw_for(wire: Wire, seconds: float) -> bytes:
    """Every byte the device writes in ``seconds``, whatever it is (a REPL's too)."""
    deadline = time.monotonic() + seconds
    data, wire.buffer = wire.buffer, b""
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([wire.fd], [], [], left)
        if ready:
            with contextlib.suppress(BlockingIOError):
                data += os.read(wire.fd, 4096)
    return data


def skip_to(wire: Wire, marker: bytes, timeout: float = 10.0) -> None:
    """Drop every byte the device writes before ``marker`` (which stays to be read)."""
    deadline = time.monotonic() + timeout
    while marker not in wire.buffer:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} in {timeout} s: {wire.buffer[-200:]!r}"
        ready, _, _ = select.select([wire.fd], [], [], left)
        if ready:
            with contextlib.suppress(BlockingIOError):
                wire.buffer += os.read(wire.fd, 4096)
    wire.buffer = wire.buffer[wire.buffer.index(marker):]


def dev_ask_all(wire: Wire, payloads: list[str]) -> list[str]:
    return [wire.ask(p) for p in payloads]


# == Rule 1: idempotent ejects ============================================================
class TestIdempotency:
    def test_a_repeat_while_running_gets_one_ok(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        board.world.pause()
        dev.send("EJECT 2 12 8000")
        dev.expect("OK 2")
        board.world.pause(after_ms=300)  # spin-up and one card
        dev.expect(r"CARD 2 1")
        dev.send("EJECT 2 12 8000")
        dev.expect("OK 2")  # while it runs
        board.world.resume()
        cards, done = run_to_done(dev, 2)
        assert [s for s in dev.skipped if not s.startswith("CARD")] == []
        assert cards == list(range(2, 13))  # no CARD again, none twice
        assert done == "DONE 2 12 ok"
        assert len(board.records) == 1

    def test_a_repeat_after_done_gets_the_stored_done_only(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        dev.send("EJECT 3 3 4000")
        _, done = run_to_done(dev, 3)
        out = board.world.model.cards_out
        for _ in range(3):
            dev.send("EJECT 3 3 4000")
            assert dev.answers_to_last() == [done]
        dev.send("EJECT 3 5 9000")  # the id is what counts, not the arguments
        assert dev.answers_to_last() == [done]
        dev.send("MOTOR 3 100 100")
        assert dev.answers_to_last() == [done]
        assert board.world.model.cards_out == out
        assert len(board.records) == 1

    def test_refused_ids_are_not_remembered(self, dev: Wire) -> None:
        assert dev.ask("EJECT 4 99 4000") == "ERR 4 range"
        assert dev.ask("MOTOR 5 100 0") == "ERR 5 range"
        world = dev.board.world  # type: ignore[attr-defined]
        world.pause()
        dev.send("EJECT 6 12 8000")
        dev.expect("OK 6")
        assert dev.ask("EJECT 7 1 4000") == "ERR 7 busy"
        assert dev.ask("STOP 8") == "OK 8"
        world.resume()
        run_to_done(dev, 6)
        for rid in (4, 5, 7):
            dev.send(f"EJECT {rid} 1 4000")
            assert dev.expect(rf"OK {rid}|DONE.*|ERR.*") == f"OK {rid}"
            assert run_to_done(dev, rid)[1] == f"DONE {rid} 1 ok"

    def test_the_last_eight_are_remembered(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        done = {}
        for rid in range(100, 109):
            dev.send(f"EJECT {rid} 1 4000" if rid % 2 else f"MOTOR {rid} 0 1")
            done[rid] = run_to_done(dev, rid)[1]
        for rid in range(101, 109):
            dev.send(f"EJECT {rid} 1 4000")
            assert dev.answers_to_last() == [done[rid]]
        assert len(board.records) == 9
        dev.send("EJECT 100 1 4000")  # the ninth-last: forgotten, it runs again
        assert dev.expect(r"OK 100|DONE.*") == "OK 100"
        run_to_done(dev, 100)
        assert len(board.records) == 10

    def test_a_new_session_forgets_and_a_running_eject_still_finishes(self,
                                                                     dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        dev.send("EJECT 9 1 4000")
        run_to_done(dev, 9)
        board.world.pause()  # the HELLO comes while the eject runs
        dev.send("EJECT 10 12 8000")
        dev.expect("OK 10")
        assert dev.ask("HELLO 11 session=00000002").startswith("HELLO 11 ")
        board.world.resume()
        cards, done = run_to_done(dev, 10)
        assert done == "DONE 10 12 ok"
        assert cards
        dev.send("EJECT 9 1 4000")  # forgotten: it fires again
        assert dev.expect(r"OK 9|DONE.*") == "OK 9"
        run_to_done(dev, 9)
        dev.send("EJECT 10 1 4000")  # finished after the HELLO: not in this session's memory
        assert dev.expect(r"OK 10|DONE.*") == "OK 10"
        run_to_done(dev, 10)
        assert len(board.records) == 4

    def test_the_same_session_keeps_them(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        dev.send("EJECT 12 2 4000")
        _, done = run_to_done(dev, 12)
        for rid in (13, 14):
            assert dev.ask(f"HELLO {rid} session=0000BEEF").startswith(f"HELLO {rid} ")
            dev.send("EJECT 12 2 4000")
            assert dev.answers_to_last() == [done]
        assert len(board.records) == 1

    def test_requests_before_any_hello_are_an_unnamed_session(
            self, make_board: Callable[..., tuple[EmulatedBoard, Books]]) -> None:
        board, _ = make_board()
        wire = Wire(board.port)
        wire.expect(r"BOOT .*")
        wire.send("EJECT 1 1 4000")
        _, done = run_to_done(wire, 1)
        wire.send("EJECT 1 1 4000")
        assert wire.answers_to_last() == [done]
        assert wire.ask("HELLO 2 session=00000001").startswith("HELLO 2 ")
        wire.send("EJECT 1 1 4000")  # the named session is a new one
        assert wire.expect(r"OK 1|DONE.*") == "OK 1"
        run_to_done(wire, 1)
        assert len(board.records) == 2
        wire.close()


# == Events ================================================================================
class TestEvents:
    def test_boot_once_after_power_up(self,
                                      make_board: Callable[..., tuple[EmulatedBoard, Books]]
                                      ) -> None:
        board, _ = make_board()
        wire = Wire(board.port)
        first = wire.read(2.0)
        assert first is not None
        assert re.fullmatch(r"BOOT boot=[0-9A-F]{8}", first)
        assert wire.ask("PING 1") == "PONG 1"
        wire.send("EJECT 2 2 4000")
        run_to_done(wire, 2)
        assert not any(s.startswith("BOOT") for s in wire.skipped + wire.quiet())
        board.reboot()
        again = wire.expect(r"BOOT boot=[0-9A-F]{8}")
        assert again != first
        assert wire.quiet() == []
        wire.close()

    def test_press_counts_since_power_up(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        board.press_button(3)
        assert [dev.expect(r"PRESS \d+") for _ in range(3)] == ["PRESS 1", "PRESS 2",
                                                                  "PRESS 3"]
        assert board.wait_idle()
        assert dev.ask("STATUS 2") == "STATUS 2 motor=0 beam=1 button=0 presses=3 ejecting=-"
        board.reboot()
        dev.expect(r"BOOT .*")
        board.press_button()
        assert dev.expect(r"PRESS \d+") == "PRESS 1"

    def test_sensor_fault_when_the_beam_is_blocked_while_idle(self, dev: Wire) -> None:
        board = dev.board  # type: ignore[attr-defined]
        board.world.model.finger_in_beam = True
        assert dev.expect(r"FAULT \w+") == "FAULT sensor"
        assert re.fullmatch(r"STATUS 3 motor=0 beam=0 .*", dev.ask("STATUS 3"))
        assert not any(s.startswith("FAULT") for s in dev.quiet(0.1))  # once, not a stream
        board.world.model.finger_in_beam = False

    def test_overrun_fault_and_timeout(self,
                                       make_board: Callable[..., tuple[EmulatedBoard, Books]]
                                       ) -> None:
        board, books = make_board(limit_ms=300)
        wire = Wire(board.port)
        wire.send("EJECT 1 12 6000")
        assert wire.expect(r"FAULT \w+") == "FAULT overrun"
        _cards, done = run_to_done(wire, 1)
        assert re.fullmatch(r"DONE 1 \d+ timeout", done)
        assert max(books.runs()) <= 300
        wire.close()


# == Rule 3: bounded motor =================================================================
class TestBoundedMotor:
    @pytest.mark.parametrize("request_", ["EJECT 1 12 333", "EJECT 1 12 1", "MOTOR 1 100 77",
                                          "MOTOR 1 -60 41", "EJECT 1 12 1001"])
    def test_the_motor_never_runs_past_max_ms(
            self, make_board: Callable[..., tuple[EmulatedBoard, Books]],
            request_: str) -> None:
        board, books = make_board()
        wire = Wire(board.port)
        wire.send(request_)
        run_to_done(wire, 1)
        limit = int(request_.split()[-1])
        assert books.runs(), books.motor
        assert sum(books.runs()) <= limit, books.motor
        wire.close()


# == The host: rules 2, 4 and 5, against a fake board on a pty ===========================
class FakeBoard:
    """A board that answers as a test wants; every line it got, with its arrival time."""

    def __init__(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        self.master, self.slave = master, slave
        self.port = os.ttyname(slave)
        self.boot = "0F3A11C2"
        self.presses = 0
        self.answer = {"HELLO", "STATUS", "PING"}
        self.on_eject: Callable[[int], None] | None = None
        self.got: list[tuple[float, str]] = []   # payloads ("" for an empty line)
        self.raw = b""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        os.close(self.master)
        os.close(self.slave)

    def send(self, payload: str) -> None:
        os.write(self.master, line(payload))

    def requests(self, verb: str) -> list[tuple[float, str]]:
        return [(t, p) for t, p in self.got if p.split(" ")[0] == verb]

    def _run(self) -> None:
        buffer = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                continue
            self.raw += data
            buffer += data
            while b"\n" in buffer:
                raw, _, buffer = buffer.partition(b"\n")
                now = time.monotonic()
                if not raw:
                    self.got.append((now, ""))
                    continue
                payload = payload_of(raw)  # the host frames as the spec says
                self.got.append((now, payload))
                self._answer(payload)

    def _answer(self, payload: str) -> None:
        verb, rid = payload.split(" ")[:2]
        if verb not in self.answer:
            if verb == "EJECT" and self.on_eject is not None:
                self.on_eject(int(rid))
            return
        if verb == "HELLO":
            self.send(f"HELLO {rid} ULP/1 boot={self.boot} fw=9.9 cards=12 max_ms=10000")
        elif verb == "STATUS":
            self.send(f"STATUS {rid} motor=0 beam=1 button=0 presses={self.presses} "
                      "ejecting=-")
        elif verb == "PING":
            self.send(f"PONG {rid}")


@pytest.fixture
def fake() -> Iterator[FakeBoard]:
    board = FakeBoard()
    yield board
    board.close()


def opened(fake: FakeBoard, **kw: float) -> UlpLink:
    link = UlpLink(fake.port, **{"ping_s": 30.0, **kw})  # type: ignore[arg-type]
    link.open()
    return link


class TestHost:
    def test_sends_a_newline_first_then_hello(self, fake: FakeBoard) -> None:
        link = opened(fake)
        try:
            assert fake.raw.startswith(b"\n")
            assert fake.got[0][1] == ""
            assert re.fullmatch(r"HELLO 1 session=[0-9A-F]{8}", fake.got[1][1])
        finally:
            link.close()

    def test_retries_with_the_same_id_then_not_answering(self, fake: FakeBoard) -> None:
        assert (host_module.RETRY_S, host_module.TRIES) == (0.1, 5)
        link = opened(fake)
        try:
            fake.answer = set()
            started = time.monotonic()
            with pytest.raises(LauncherNotResponding, match="not answering"):
                link.request("PING 777", {"PONG"})
            ended = time.monotonic()
        finally:
            link.close()
        sent = [t for t, p in fake.got if p == "PING 777"]
        assert len(sent) == 5, fake.got
        gaps = [b - a for a, b in itertools.pairwise(sent)] + [ended - sent[-1]]
        # 0.1, 0.2, 0.4, 0.8, 1.6 s, never early over a real pty (a loaded machine can
        # only make them later); test_host.py holds the schedule exact on a still clock
        for i, gap in enumerate(gaps):
            assert gap >= 0.1 * 2**i * 0.9, gaps
        assert sent[0] >= started

    def test_press_gaps_and_status_counts_are_counted(self, fake: FakeBoard) -> None:
        fake.presses = 2  # before we opened: the baseline
        link = opened(fake)
        got: list[int] = []
        link.on_press = got.append
        try:
            fake.send("PRESS 3")
            fake.send("PRESS 3")  # a repeat counts nothing
            fake.send("PRESS 6")  # 4 and 5 were lost
            assert wait(lambda: link.presses == 4)
            fake.presses = 9
            link.status()
            assert link.presses == 7
            assert link.stats.presses_recovered == 2 + 3
            assert wait(lambda: sum(got) == 7)
        finally:
            link.close()

    def test_a_lower_number_of_the_same_boot_counts_nothing_twice(self,
                                                                  fake: FakeBoard) -> None:
        """A damaged line that passed the CRC (``PRESS 12`` that lost its ``2``) looks like
        a new power-up's; the HELLO shows the same boot, so the count goes on from 12."""
        link = opened(fake)
        got: list[int] = []
        link.on_press = got.append
        try:
            fake.send("PRESS 12")          # 1 to 11 were lost
            fake.send("PRESS 1")
            fake.send("PRESS 13")
            fake.presses = 13
            link.status()                  # its reply comes after the PRESS lines: then
            link.status()                  # the HELLO before this one names the same boot
            assert link.presses == 13
            assert link.stats.reboots == 0
            assert wait(lambda: sum(got) == 13)
        finally:
            link.close()

    def test_a_new_boot_makes_an_unfinished_eject_unknown(self, fake: FakeBoard) -> None:
        link = opened(fake, retry_s=0.05, poll_s=0.05)
        rebooted: list[float] = []

        def on_eject(rid: int) -> None:
            if rebooted:
                return  # after the reboot a new board would fire again: never asked
            fake.send(f"OK {rid}")
            fake.send(f"CARD {rid} 1")
            fake.boot = "DEADBEEF"
            rebooted.append(time.monotonic())
            fake.send("BOOT boot=deadbeef")

        fake.on_eject = on_eject
        try:
            ejected, status, detail = link.eject(3, 4000)
        finally:
            link.close()
        assert (ejected, status) == (1, "unknown")
        assert "not known" in detail
        assert len(fake.requests("EJECT")) == 1

    def test_a_new_boot_in_a_hello_reply_also_counts(self, fake: FakeBoard) -> None:
        link = opened(fake, retry_s=0.05, poll_s=0.05)

        def on_eject(rid: int) -> None:
            fake.send(f"OK {rid}")
            fake.boot = "0000FFFF"  # it restarted silently: only a HELLO reply tells
            fake.on_eject = None

        fake.on_eject = on_eject
        try:
            ejected, status, _ = link.eject(2, 4000)
        finally:
            link.close()
        assert (ejected, status) == (0, "unknown")
        assert len(fake.requests("EJECT")) == 1

    def test_ping_about_once_a_second(self, fake: FakeBoard) -> None:
        assert host_module.PING_S == 1.0
        link = opened(fake, ping_s=1.0)
        try:
            assert wait(lambda: len(fake.requests("PING")) >= 4, 6)
        finally:
            link.close()
        # The fake board stamps a line when its reader thread gets to it, which a loaded
        # machine delays: one late stamp shortens one gap and lengthens the next, so the
        # rate is judged over the whole run, and each gap only for a ping missed or doubled.
        times = [t for t, _ in fake.requests("PING")]
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert 0.8 <= (times[-1] - times[0]) / len(gaps) <= 1.6, gaps
        assert all(0.25 <= gap <= 2.5 for gap in gaps), gaps
        assert not link.gone

    def test_three_unanswered_pings_mean_gone(self, fake: FakeBoard) -> None:
        link = opened(fake, ping_s=0.2)
        try:
            assert wait(lambda: len(fake.requests("PING")) >= 2, 3)
            fake.answer = {"HELLO", "STATUS"}
            start = len(fake.requests("PING"))
            assert wait(lambda: len(fake.requests("PING")) >= start + 2, 3)
            assert not link.gone or len(fake.requests("PING")) >= start + 3
            assert wait(lambda: link.gone, 3)
            assert len(fake.requests("PING")) >= start + 3
            unanswered = [p for _, p in fake.requests("PING")][start:]
            assert len(set(unanswered)) == len(unanswered)  # a new id each
        finally:
            link.close()


class TestWordsAndSpaces:
    """Only the five framing faults drop a line; other oddities are verb or argument errors."""

    @pytest.mark.parametrize(("payload", "reply"), [
        (" PING 1", "ERR - verb"), ("PING 1 ", "ERR 1 args"), ("", "ERR - verb"),
        (" ", "ERR - verb"), ("EJECT 2 1 4000 ", "ERR 2 args"),
    ])
    def test_stray_spaces_and_an_empty_payload(self, dev: Wire, payload: str,
                                               reply: str) -> None:
        assert dev.ask(payload) == reply
        assert dev.board.records == []  # type: ignore[attr-defined]


class ClockHal(Hal):
    """A board on a desk: a hand-turned clock, a beam a test blocks, the link in lists."""

    def __init__(self) -> None:
        self.now = 1000
        self.blocked = False
        self.duty = 0
        self.inbox = b""
        self.out: list[str] = []

    def ticks_ms(self) -> int:
        return self.now

    def set_motor(self, duty: int) -> None:
        self.duty = duty

    def beam_blocked(self) -> bool:
        return self.blocked

    def button_down(self) -> bool:
        return False

    def read(self) -> bytes:
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> None:
        self.out.append(payload_of(data.rstrip(b"\n")))

    def boot_id(self) -> str:
        return "0F3A11C2"


class TestStopWhileSettling:
    """A job is running until its DONE is sent: a STOP in its settling time ends it stopped."""

    @staticmethod
    def run(hal: ClockHal, firmware: fw.Firmware, ms: int) -> None:
        for _ in range(ms):
            hal.now += 1
            firmware.poll()

    def test_stop_after_the_last_card_ends_stopped(self) -> None:
        hal = ClockHal()
        firmware = fw.Firmware(hal)
        hal.inbox = line("EJECT 2 1 4000")
        self.run(hal, firmware, 100)
        hal.blocked = True
        self.run(hal, firmware, 20)
        hal.blocked = False
        self.run(hal, firmware, 5)                  # the card is out, the motor is off
        assert hal.out[-2:] == ["OK 2", "CARD 2 1"]
        assert hal.duty == 0
        hal.inbox = line("STOP 3")
        self.run(hal, firmware, 100)
        assert hal.out[-2:] == ["OK 3", "DONE 2 1 stopped"]

    def test_stop_while_unjamming_ends_stopped_with_the_motor_off(self) -> None:
        hal = ClockHal()
        firmware = fw.Firmware(hal, dispenser.Settings(jam_ms=200))
        hal.inbox = line("EJECT 4 3 4000")
        self.run(hal, firmware, 210)                # no card: a jam, the roller reverses
        assert hal.duty < 0
        hal.inbox = line("STOP 5")
        self.run(hal, firmware, 1)
        assert hal.duty == 0
        assert hal.out[-1] == "OK 5"
        self.run(hal, firmware, 100)
        assert hal.out[-1] == "DONE 4 0 stopped"


class TestReplyTime:
    """The device replies within 20 ms: on the board's own clock, in the very poll that
    reads the request, so no load on a host machine can make it late."""

    @pytest.mark.parametrize(("request_line", "reply"), [
        ("PING 50", "PONG 50"),
        ("STATUS 51", "STATUS 51 "),
        ("EJECT 52 3 4000", "OK 52"),
        ("HELLO 53 session=0000BEEF", "HELLO 53 ULP/1 "),
        ("NOPE 54", "ERR 54 verb"),
    ])
    def test_reply_in_the_poll_that_reads_the_request(self, request_line: str,
                                                      reply: str) -> None:
        hal = ClockHal()
        firmware = fw.Firmware(hal)
        firmware.poll()
        sent = len(hal.out)
        hal.inbox = line(request_line)
        firmware.poll()  # no time passes on the board's clock
        assert hal.out[sent:][0].startswith(reply), hal.out

    def test_status_while_ejecting_is_answered_at_once(self) -> None:
        hal = ClockHal()
        firmware = fw.Firmware(hal)
        hal.inbox = line("EJECT 60 12 8000")
        TestStopWhileSettling.run(hal, firmware, 50)
        hal.inbox = line("STATUS 61")
        firmware.poll()
        assert hal.out[-1].startswith("STATUS 61 motor=1 ")
