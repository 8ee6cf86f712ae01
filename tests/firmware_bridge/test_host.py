"""The host driver and the ``serial`` backend against the emulated board, over a pty."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.host import PortError, UlpLink
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
        assert ejected == 2 == board.records[-1].cards
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

    def test_spec_without_port(self) -> None:
        with pytest.raises(LauncherError, match="needs a port"):
            open_launcher("serial")
