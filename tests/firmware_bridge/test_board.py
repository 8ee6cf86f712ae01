"""The firmware on the emulated board, spoken to through a real pty by a raw terminal."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.firmware import board as fw
from firmware_bridge.firmware import ulp
from firmware_bridge.firmware.hal import Hal
from sim_launcher.physical import DispenserParams

from .conftest import FAST, Terminal, wait_for


def cards(term: Terminal, rid: int) -> tuple[list[int], ulp.Message]:
    done = term.expect("DONE")
    assert done.rid == rid
    return [m.fields["n"] for m in term.skipped if m.verb == "CARD" and m.rid == rid], done


class TestEject:
    @pytest.mark.parametrize("count", range(1, 13))
    def test_eject_reports_the_cards_that_left(self, board: EmulatedBoard, term: Terminal,
                                               count: int) -> None:
        before = board.world.model.cards_out
        term.send(ulp.build_request("EJECT", 10, count, 6000))
        seen, done = cards(term, 10)
        assert term.skipped[0].verb == "OK"
        assert seen == list(range(1, count + 1))
        assert done.fields == {"ejected": count, "status": "ok"}
        assert board.world.model.cards_out - before == count

    def test_repeated_eject_fires_nothing_and_returns_the_same_done(
            self, board: EmulatedBoard, term: Terminal) -> None:
        term.send("EJECT 2 3 4000")
        _, first = cards(term, 2)
        out = board.world.model.cards_out
        term.send("EJECT 2 3 4000")
        again = term.answers_to_last()
        assert again == [first]            # exactly one line: the stored DONE
        assert board.world.model.cards_out == out
        assert len(board.records) == 1

    def test_repeat_while_running_gets_ok_only(self, board: EmulatedBoard,
                                               term: Terminal) -> None:
        board.world.pause()  # the repeat comes while the eject runs, however late
        term.send("EJECT 3 12 6000")
        term.expect("OK")
        term.send("EJECT 3 12 6000")
        assert term.expect("OK").rid == 3
        board.world.resume()
        _, done = cards(term, 3)
        assert [m.verb for m in term.skipped].count("OK") == 0
        assert done.fields["ejected"] == board.records[0].cards
        assert len(board.records) == 1

    def test_new_session_forgets_ids_same_session_keeps_them(self, board: EmulatedBoard,
                                                             term: Terminal) -> None:
        term.send("EJECT 4 1 4000")
        cards(term, 4)
        term.send("HELLO 5 session=0000cafe")   # the same session, other case
        term.expect("HELLO")
        term.send("EJECT 4 1 4000")
        assert term.expect("DONE").rid == 4
        assert len(board.records) == 1
        term.send("HELLO 6 session=00000001")
        term.expect("HELLO")
        term.send("EJECT 4 1 4000")
        assert term.expect("OK").rid == 4      # forgotten: a new eject
        cards(term, 4)
        assert len(board.records) == 2

    def test_a_hello_that_lost_a_digit_past_the_crc_forgets_no_id(
            self, board: EmulatedBoard, term: Terminal) -> None:
        """A soak's double fire, replayed: the host's HELLO before a re-ask lost one digit
        of its session on the wire and the CRC still matched (CRC-16 passes 1 line in 65536
        so damaged, and this very one). A board that took it for a new session forgot the
        EJECT, and the re-ask after the next, sound HELLO fired it a second time."""
        term.send("HELLO 1253 session=4BB659A0")
        term.expect("HELLO")
        term.send("EJECT 1254 3 4000")
        _, done = cards(term, 1254)  # a DONE the host never heard
        damaged = ulp.frame("HELLO 1255 session=4BB659A0").replace(b"4BB659A0", b"4BB65A0")
        assert ulp.unframe(damaged) == "HELLO 1255 session=4BB65A0"  # the CRC cannot tell
        term.send_raw(damaged)
        term.send("HELLO 1256 session=4BB659A0")
        term.send("EJECT 1254 3 4000")  # the re-ask
        assert term.expect("DONE") == done
        assert [m.verb for m in term.skipped if m.rid == 1254] == []  # nothing moved
        assert len(board.records) == 1
        refused = [m for m in term.skipped if m.verb == "ERR"]
        assert [(m.rid, m.fields["code"]) for m in refused] == [(1255, "args")]

    def test_memory_holds_the_last_eight(self, board: EmulatedBoard, term: Terminal) -> None:
        for rid in range(20, 29):
            term.send(ulp.build_request("MOTOR", rid, 0, 1))
            term.expect("DONE")
        term.send(ulp.build_request("MOTOR", 28, 0, 1))
        assert term.expect("DONE").rid == 28
        term.send(ulp.build_request("MOTOR", 20, 0, 1))  # the ninth-last: forgotten, runs again
        assert term.expect("OK").rid == 20
        assert len(board.records) == 10


class TestErrors:
    def test_bad_crc_is_answered_err_crc(self, board: EmulatedBoard, term: Terminal) -> None:
        term.send_raw(b"EJECT 7 3 4000*0000\n")
        msg = term.expect("ERR")
        assert (msg.rid, msg.fields["code"]) == (None, "crc")
        assert board.records == []

    def test_too_long_line_is_dropped(self, term: Terminal) -> None:
        term.send_raw(b"P" * 200 + b"\n")
        assert term.expect("ERR").fields["code"] == "crc"

    @pytest.mark.parametrize(("payload", "rid", "code"), [
        ("EJECT 8 13 4000", 8, "range"), ("EJECT 8 0 4000", 8, "range"),
        ("EJECT 8 3 10001", 8, "range"), ("MOTOR 8 101 100", 8, "range"),
        ("MOTOR 8 50 2001", 8, "range"), ("EJECT 8 3", 8, "args"),
        ("FIRE 8", 8, "verb"), ("FIRE x", None, "verb"), ("EJECT x 3 4000", None, "args"),
    ])
    def test_errors(self, term: Terminal, payload: str, rid: int | None, code: str) -> None:
        term.send(payload)
        msg = term.expect("ERR")
        assert (msg.rid, msg.fields["code"]) == (rid, code)

    def test_refused_ids_are_not_remembered(self, board: EmulatedBoard, term: Terminal) -> None:
        term.send("EJECT 9 13 4000")
        assert term.expect("ERR").fields["code"] == "range"
        term.send("EJECT 9 1 4000")
        assert term.expect("OK").rid == 9

    def test_busy_while_ejecting(self, board: EmulatedBoard, term: Terminal) -> None:
        board.world.pause()
        term.send("EJECT 10 12 6000")
        term.expect("OK")
        term.send("EJECT 11 1 4000")
        msg = term.expect("ERR")
        assert (msg.rid, msg.fields["code"]) == (11, "busy")
        board.world.resume()


class TestStopAndEnds:
    def test_stop_stops_a_running_eject(self, board: EmulatedBoard, term: Terminal) -> None:
        board.world.pause()
        term.send("EJECT 12 12 8000")
        term.expect("OK")
        board.world.pause(after_ms=400)  # spin-up and two cards, then the STOP
        term.expect("CARD")
        term.send("STOP 13")
        ok = term.expect("OK")
        assert ok.rid == 13
        assert not board.world.model.duty or wait_for(lambda: board.world.model.duty == 0, 1)
        board.world.resume()  # the count settles
        _, done = cards(term, 12)
        assert done.fields["status"] == "stopped"
        assert 1 <= done.fields["ejected"] < 12
        assert done.fields["ejected"] == board.records[0].cards
        term.send("STATUS 14")
        status = term.expect("STATUS")
        assert (status.fields["motor"], status.fields["ejecting"]) == (0, None)

    def test_jam_is_reported(self, board: EmulatedBoard, term: Terminal) -> None:
        board.jam(stuck=True)
        assert board.wait_idle()
        term.send("EJECT 15 4 8000")
        _, done = cards(term, 15)
        assert done.fields == {"ejected": 0, "status": "jam"}

    def test_empty_hopper_with_a_sensor(self, tmp_path: Path) -> None:
        params = DispenserParams(hopper=3, hopper_sensor=True, jam_probability=0.0)
        with EmulatedBoard(link=tmp_path / "b", params=params, refill=False,
                           time_scale=FAST) as b:
            t = Terminal(b.port)
            t.send("EJECT 1 5 8000")
            seen, done = cards(t, 1)
            assert seen == [1, 2, 3]
            assert done.fields == {"ejected": 3, "status": "empty"}
            t.send("EJECT 2 1 8000")
            assert cards(t, 2)[1].fields == {"ejected": 0, "status": "empty"}
            t.close()

    def test_empty_hopper_without_sensor_is_a_jam(self, board: EmulatedBoard,
                                                  term: Terminal) -> None:
        board.empty()
        assert board.wait_idle()
        term.send("EJECT 16 2 8000")
        assert cards(term, 16)[1].fields == {"ejected": 0, "status": "jam"}

    def test_max_ms_runs_out(self, board: EmulatedBoard, term: Terminal) -> None:
        term.send("EJECT 17 12 400")
        _, done = cards(term, 17)
        assert done.fields["status"] == "timeout"
        assert done.fields["ejected"] < 12

    def test_the_boards_own_limit_stops_the_motor(self, tmp_path: Path) -> None:
        with EmulatedBoard(link=tmp_path / "b", time_scale=FAST, limit_ms=300) as b:
            t = Terminal(b.port)
            t.send("EJECT 1 12 6000")
            fault = t.expect("FAULT")
            assert fault.fields["code"] == "overrun"
            _, done = cards(t, 1)
            assert done.fields["status"] == "timeout"
            assert b.world.model.duty == 0
            t.close()

    def test_motor_command_reports_cards(self, board: EmulatedBoard, term: Terminal) -> None:
        term.send("MOTOR 18 100 1000")
        _, done = cards(term, 18)
        assert done.fields["status"] == "ok"
        assert done.fields["ejected"] == board.records[0].cards >= 5


class TestStatusAndEvents:
    def test_presses_are_debounced_and_numbered(self, board: EmulatedBoard,
                                                term: Terminal) -> None:
        board.press_button(3)
        numbers = [term.expect("PRESS").fields["n"] for _ in range(3)]
        assert numbers == [1, 2, 3]
        assert board.wait_idle()
        term.send("STATUS 20")
        assert term.expect("STATUS").fields == {
            "motor": 0, "beam": 1, "button": 0, "presses": 3, "ejecting": None}

    def test_ping(self, term: Terminal) -> None:
        term.send("PING 21")
        assert term.expect("PONG").rid == 21

    def test_boot_event_after_a_reboot(self, board: EmulatedBoard, term: Terminal) -> None:
        old = board.firmware.boot
        board.reboot()
        boot = term.expect("BOOT")
        assert boot.fields["boot"] != old

    def test_beam_blocked_while_idle_is_a_sensor_fault(self, board: EmulatedBoard,
                                                       term: Terminal) -> None:
        board.world.model.finger_in_beam = True
        assert term.expect("FAULT").fields["code"] == "sensor"


def test_limits_are_consistent() -> None:
    assert fw.LIMIT_MS > fw.MAX_MS >= fw.MOTOR_MAX_MS


class PinsHal(Hal):
    """Pins a test sets by hand, and a clock it moves: to see when the firmware acts."""

    def __init__(self) -> None:
        self.now = 0
        self.beam = False
        self.motor = 0
        self.sent = b""
        self.rx = b""

    def ticks_ms(self) -> int:
        return self.now

    def ticks_diff(self, later: int, earlier: int) -> int:
        return later - earlier

    def set_motor(self, duty: int) -> None:
        self.motor = duty

    def set_led(self, on: bool) -> None:
        pass

    def set_buzzer(self, on: bool) -> None:
        pass

    def beam_blocked(self) -> bool:
        return self.beam

    def button_down(self) -> bool:
        return False

    def hopper_empty(self) -> bool | None:
        return None

    def read(self) -> bytes:
        data, self.rx = self.rx, b""
        return data

    def write(self, data: bytes) -> None:
        self.sent += data

    def boot_id(self) -> str:
        return "0000CAFE"


class TestNextTick:
    """The emulator polls only at input changes and at ``next_tick``: a poll before it must
    change nothing, and the firmware must act at it."""

    @staticmethod
    def until_it_acts(firmware: fw.Firmware, hal: PinsHal) -> tuple[int, int]:
        """Poll tick by tick from now: (the tick it said, the tick it did something)."""
        tick = firmware.next_tick()
        assert tick is not None
        before = (hal.sent, firmware.beam, firmware.beep_since, hal.motor)
        while (hal.sent, firmware.beam, firmware.beep_since, hal.motor) == before:
            hal.now += 1
            firmware.poll()
        return math.ceil(tick), hal.now

    def test_idle_with_the_beam_clear_has_no_timer(self) -> None:
        firmware = fw.Firmware(PinsHal())
        firmware.poll()
        assert firmware.next_tick() is None

    def test_the_beam_filter_then_the_sensor_fault(self) -> None:
        hal = PinsHal()
        firmware = fw.Firmware(hal)
        firmware.poll()
        hal.now, hal.beam = 100, True
        firmware.poll()
        said, acted = self.until_it_acts(firmware, hal)   # the beam filter
        assert said == acted == 100 + fw.BEAM_FILTER_MS
        assert firmware.beam
        said, acted = self.until_it_acts(firmware, hal)   # blocked while idle
        assert said == acted == 100 + fw.BEAM_FILTER_MS + fw.SENSOR_MS
        assert hal.sent.endswith(ulp.frame("FAULT sensor"))
        assert firmware.next_tick() is None               # said once per blocking

    def test_an_eject_with_no_card_ends_at_its_timers(self) -> None:
        hal = PinsHal()
        firmware = fw.Firmware(hal)
        hal.rx = ulp.frame("EJECT 1 3 4000")
        firmware.poll()
        assert hal.motor > 0
        stops = []
        while firmware.job is not None:
            said, acted = self.until_it_acts(firmware, hal)
            assert said == acted
            stops.append(acted)
        assert hal.sent.endswith(ulp.frame("DONE 1 0 jam"))
        assert stops[-1] < 4000   # the jam, its reverse pulse, the new run, the beep, settling
