"""The host driver and the ``serial`` backend against the emulated board, over a pty."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.faults import LinkFaults
from firmware_bridge.firmware import ulp
from firmware_bridge.host import PortError, UlpLink, asking
from firmware_bridge.host.asking import Asker, HostClock, Inbox
from firmware_bridge.host.session import HEADROOM, Session
from sim_launcher.dispenser import Settings
from sim_launcher.physical import DispenserParams
from uno_attack.errors import LauncherError
from uno_attack.launcher import EjectStatus, LauncherNotResponding, open_launcher

from .conftest import wait_for

FAST = {"time_scale": 50.0, "retry_s": 0.05, "poll_s": 0.05, "ping_s": 0.3}


class TestEjects:
    @pytest.mark.parametrize("count", [1, 5, 12])
    def test_counts(self, board: EmulatedBoard, link: UlpLink, count: int) -> None:
        assert link.eject(count, 5000) == (count, "ok", "")
        assert board.records[-1].cards == count

    def test_reboot_mid_eject_is_an_unknown_outcome(self, board: EmulatedBoard,
                                                    link: UlpLink) -> None:
        board.reboot_during_next_eject(after_cards=2)
        ejected, status, detail = link.eject(8, 5000)
        assert status == "unknown"
        assert ejected == 2 == board.records[-1].cards, board.records
        assert "restarted" in detail
        assert "not known" in detail
        assert board.records[-1].status == "reboot"
        # The link goes on with the new boot, and nothing fires twice.
        assert link.eject(2, 5000) == (2, "ok", "")
        assert len(board.records) == 2
        assert link.stats.reboots == 1

    def test_a_board_that_stops_answering(self, board: EmulatedBoard) -> None:
        link = UlpLink(board.port, retry_s=0.01, ping_s=10, reconnect=False)
        link.open()
        try:
            board.close()
            with pytest.raises(LauncherNotResponding):
                link.status()
        finally:
            link.close()

    def test_disconnect_and_reconnect(self, board: EmulatedBoard, link: UlpLink) -> None:
        board.disconnect(0.1)
        assert link.eject(3, 5000) == (3, "ok", "")
        assert wait_for(lambda: link.stats.reconnects >= 1, 2)
        assert len(board.records) == 1

    def test_presses_and_pings(self, board: EmulatedBoard, link: UlpLink) -> None:
        board.press_button(4)
        assert wait_for(lambda: link.presses == 4)
        assert board.wait_idle()
        pinged = board.stats.lines_in
        assert wait_for(lambda: board.stats.lines_in > pinged + 2, 3)  # the idle pings
        assert link.presses == 4

    def test_missing_port_is_a_clean_error(self, tmp_path: Path) -> None:
        with pytest.raises(PortError, match="cannot open serial port"):
            UlpLink(str(tmp_path / "nothing")).open()

    def test_port_is_opened_exclusively(self, board: EmulatedBoard, link: UlpLink) -> None:
        with pytest.raises(PortError):
            UlpLink(board.port).open()


class TestBackend:
    def test_a_whole_game_of_presses(self) -> None:
        with open_launcher("serial:emulated", seed=5, config=FAST) as launcher:
            results = [launcher.press() for _ in range(400)]
            records = launcher.emulator.records
            fired = [r for r in results if r.asked]
            assert len(fired) == len(records) > 100
            for result, record in zip(fired, records, strict=True):
                assert result.fired == record.cards
                assert result.status.value == record.status
            assert sum(r.fired for r in results) > 400   # more than the hopper's 112
            assert all(r.status in (EjectStatus.OK, EjectStatus.JAM) for r in results)
            threads = {t.name for t in threading.enumerate()}
            assert any(name.startswith("ulp-reader") for name in threads)
        assert launcher.closed
        assert not any(t.name.startswith(("ulp-", "emulated-board"))
                       for t in threading.enumerate() if t.is_alive())

    def test_button_events_reach_the_launcher(self) -> None:
        with open_launcher("serial:emulated", seed=1, config=FAST) as launcher:
            launcher.emulator.press_button()
            assert launcher.wait_for_button(timeout=3)
            assert launcher.button_presses == 1

    def test_reboot_reaches_the_game_as_unknown(self) -> None:
        with open_launcher("serial:emulated", seed=2, config=FAST) as launcher:
            launcher.emulator.reboot_during_next_eject(after_cards=1)
            result = launcher.eject(5)
            assert (result.status, result.fired, result.known) == (EjectStatus.UNKNOWN, 1,
                                                                   False)

    def test_empty_hopper_through_the_launcher(self) -> None:
        params = DispenserParams(hopper=2, hopper_sensor=True, jam_probability=0.0)
        with open_launcher("serial:emulated", config={**FAST, "params": params,
                                                      "refill": False}) as launcher:
            result = launcher.eject(4)
            assert (result.fired, result.status) == (2, EjectStatus.EMPTY)

    def test_a_stop_before_the_eject_went_out_is_not_lost(self) -> None:
        """Regression: a Ctrl-C between "asking the board to eject" and the EJECT on the
        wire sent STOP to an idle board, and then the whole burst fired."""
        with open_launcher("serial:emulated", seed=3, policy="fixed:12",
                           config=FAST) as launcher:
            link = launcher.link
            greet = link.ensure_hello
            stops = []

            def stop_then_greet() -> None:  # the eject's last step before its EJECT
                if not stops:
                    stops.append("ctrl-c")
                    launcher.stop()
                greet()

            link.ensure_hello = stop_then_greet  # type: ignore[method-assign]
            result = launcher.press()
            assert (result.fired, result.status) == (0, EjectStatus.STOPPED)
            assert launcher.emulator.records == []
            link.ensure_hello = greet  # type: ignore[method-assign]
            assert launcher.eject(2).status is EjectStatus.OK  # the next eject runs

    def test_spec_without_port(self) -> None:
        with pytest.raises(LauncherError, match="needs a port"):
            open_launcher("serial")


class TestIdsRunOut:
    """Regression: ids wrapped past 65535 in the re-ask of an EJECT; the host greeted the
    board with a new session, which forgot the id, and the re-sent EJECT fired again."""

    def test_a_job_across_the_end_of_the_ids_fires_once(self, tmp_path: Path) -> None:
        # slow cards: the host re-asks while each eject runs, and needs ids to greet with
        params = DispenserParams(jam_probability=0.0, cards_per_second=1.5)
        with EmulatedBoard(link=tmp_path / "board", seed=4, time_scale=20, params=params,
                           settings=Settings(rates=(1.5,))) as board:
            link = UlpLink(board.port, retry_s=0.02, poll_s=0.01, ping_s=30, first_id=65533)
            link.open()                    # HELLO 65533, STATUS 65534
            try:
                results = [link.eject(3, 4000) for _ in range(3)]
                sessions = {r.session for r in board.records}
            finally:
                link.close()
        assert results == [(3, "ok", "")] * 3
        assert len(board.records) == 3            # three ejects asked, three fired
        assert board.world.model.cards_out == 9
        assert len(sessions) == 1                 # the new session began before the first
        assert all(r.rid < 100 for r in board.records)

    def test_a_new_session_only_between_jobs_and_never_an_id_twice(self) -> None:
        session = Session(Inbox(), first_id=65535 - HEADROOM)
        token = session.token
        session.fresh(jobs_running=True)       # a job runs: no new session under it
        assert session.token == token
        ids = [session.take_id() for _ in range(HEADROOM + 1)]
        assert ids[-1] == 65535
        with pytest.raises(LauncherError, match="ids ran out"):
            session.take_id()
        session.fresh(jobs_running=False)      # between jobs: a new session, ids from 1
        assert session.token != token
        assert session.need_hello
        assert session.take_id() == 1


class StillClock(HostClock):
    """Time that moves only when the host waits: each wait runs out at once, exactly."""

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def wait(self, cond: threading.Condition, timeout: float) -> None:
        self.t += timeout


class TestRetrySchedule:
    def test_an_unanswered_request_is_sent_five_times_at_100_ms_doubling(self) -> None:
        """Rule 2, to the millisecond, whatever the machine's load: the same line at 0,
        0.1, 0.3, 0.7 and 1.5 s, and not answering 1.6 s after the last."""
        clock = StillClock()
        sent: list[tuple[float, bytes]] = []
        gone: list[float] = []
        asker = Asker(Inbox(clock), lambda data, resend: sent.append((clock.t, data)),
                      "the port", on_gone=lambda: gone.append(clock.t))
        with pytest.raises(LauncherNotResponding, match="PING unanswered 5 times"):
            asker.ask("PING 777", {"PONG"})
        assert (asking.RETRY_S, asking.TRIES) == (0.1, 5)
        assert [data for _, data in sent] == [ulp.frame("PING 777")] * 5
        assert [t for t, _ in sent] == pytest.approx([0.0, 0.1, 0.3, 0.7, 1.5])
        assert gone == pytest.approx([3.1])


PRESSES = 8


class TestNoisyLine:
    """Regression: at 5 % noise the host gave up (tries to open the link, presses "not
    responding"). A noisy cable slows the game; it never stops it."""

    NOISY = LinkFaults(noise=0.05, lose=0.05, repeat=0.05)  # bytes flipped, lines lost/twice

    def test_every_press_is_served_once_at_five_percent(self) -> None:
        params = DispenserParams(jam_probability=0.0)
        config = {**FAST, "ping_s": 0.2, "wire": self.NOISY, "params": params}
        with open_launcher("serial:emulated", seed=8, policy="fixed:2",
                           config=config) as launcher:
            board = launcher.emulator
            results = []
            for _ in range(PRESSES):
                board.press_button()
                assert launcher.wait_for_button(timeout=30)
                results.append(launcher.press())
            assert board.wait_idle(10)
            launcher.link.status()  # presses whose PRESS line was lost are counted now
            records = list(board.records)
            presses = launcher.link.presses
        assert [(r.fired, r.status) for r in results] == [(2, EjectStatus.OK)] * PRESSES
        assert len(records) == PRESSES                 # each press fired once, none twice
        assert board.world.model.cards_out == 2 * PRESSES
        assert presses == PRESSES == board.stats.presses  # and none lost
        assert board.stats.to_host.flipped > 50        # the line really was noisy


class BootLineLost(EmulatedBoard):
    """A board whose ``BOOT`` line is lost once ``deaf_to_boot`` is set: a restart unheard."""

    deaf_to_boot = False

    def transmit(self, data: bytes) -> None:
        if self.deaf_to_boot and data.startswith(b"BOOT "):
            return
        super().transmit(data)


class TestRestartUnheard:
    """Regression: with the ``BOOT`` line of a restart lost, the new power-up's presses
    above the old count were counted against it, then again from 0 once a ``HELLO`` showed
    the new boot: 3 presses, a restart, 4 more, and the host counted 8 (and asked an eject
    for the one nobody pressed). The new power-up's ``PRESS 1`` after the old one's
    ``PRESS 1`` and a ``STATUS`` was taken for a repeat: that press was lost, and the
    restart never noticed."""

    @pytest.mark.parametrize(("before", "after"), [(3, 4), (1, 2)])
    def test_presses_count_per_power_up(self, tmp_path: Path, before: int,
                                        after: int) -> None:
        params = DispenserParams(jam_probability=0.0)
        with BootLineLost(link=tmp_path / "board", seed=3, time_scale=20,
                          params=params) as board:
            # no idle pings: the host hears the new boot only when it next asks
            link = UlpLink(board.port, retry_s=0.05, poll_s=0.05, ping_s=60)
            got: list[int] = []
            link.on_press = got.append
            link.open()
            try:
                board.press_button(before)
                assert wait_for(lambda: link.presses == before)
                link.status()              # a line between: no PRESS after it is a copy
                board.deaf_to_boot = True
                old = board.firmware
                board.reboot()
                assert wait_for(lambda: board.firmware is not old)  # the new power-up
                board.press_button(after)
                assert board.wait_idle()
                assert wait_for(lambda: board.firmware.presses == after)
                link.status()              # its reply comes after the PRESS lines: then
                link.status()              # the HELLO before this one shows the new boot
                assert link.stats.reboots == 1
                presses = link.presses
            finally:
                link.close()
        assert board.stats.reboots == 1
        assert presses == before + after == board.stats.presses
        assert sum(got) == before + after  # the game is told of each press once
