"""A long run of ULP/1 on a bad line: across an id wrap and a reboot in the middle of an
eject, with 5 % noise, lost lines and repeated lines, every press is served once.

Bounded by the emulator's time scale: a few hundred requests, some twenty seconds.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from firmware_bridge.faults import LinkFaults
from firmware_bridge.host.session import HEADROOM
from sim_launcher.physical import DispenserParams
from uno_attack.launcher import EjectStatus, PressResult, open_launcher

NOISY = LinkFaults(noise=0.05, lose=0.05, repeat=0.05)
PRESSES = 20
REBOOT_AT = 8        # the press whose eject the board restarts in the middle of


@pytest.mark.parametrize("micropython", [False, True], ids=["cpython", "micropython"])
def test_presses_across_an_id_wrap_and_a_reboot_on_a_noisy_line(micropython: bool) -> None:
    config = {"micropython": micropython, "time_scale": 20.0, "wire": NOISY,
              "retry_s": 0.05, "poll_s": 0.05, "ping_s": 0.2,
              "params": DispenserParams(jam_probability=0.005),
              "first_id": 65535 - HEADROOM - 40}      # the ids run out a few presses in
    results: list[PressResult] = []
    with open_launcher("serial:emulated", seed=21, policy="fixed:2", config=config) as launcher:
        board = launcher.emulator
        for press in range(1, PRESSES + 1):
            if press == REBOOT_AT:
                board.reboot_during_next_eject(after_cards=1)
            board.press_button()
            assert launcher.wait_for_button(timeout=30), f"press {press} never arrived"
            results.append(launcher.press())
        assert board.wait_idle(10)
        launcher.link.status()           # presses whose PRESS line was lost count now
        counted = launcher.link.presses
        records = list(board.records)
    sessions = Counter(record.session for record in records)
    assert len(sessions) == 2                               # the ids wrapped: a new session
    assert len(records) == PRESSES                          # every press fired, none twice
    assert counted == PRESSES == board.stats.presses        # no press lost
    rebooted = [i for i, record in enumerate(records) if record.status == "reboot"]
    assert rebooted == [REBOOT_AT - 1]
    for i, (result, record) in enumerate(zip(results, records, strict=True)):
        if i in rebooted:
            assert result.status is EjectStatus.UNKNOWN     # said, never guessed
            assert result.fired <= record.cards == 1        # what was counted, at most
        else:
            assert result.status in (EjectStatus.OK, EjectStatus.JAM), result
            assert (result.fired, result.status.value) == (record.cards, record.status)
    assert board.world.model.cards_out == sum(record.cards for record in records)
    assert board.stats.to_host.flipped > 100   # the line really was bad
    assert board.stats.to_device.lost_lines > 5


def test_launcher_run_against_an_emulator_in_another_process(tmp_path: Path) -> None:
    """``launcher run --launcher serial:PATH`` against ``firmware emulate --link PATH``,
    the emulated finger pushing the board's own button, on a noisy line."""
    link = tmp_path / "board"
    board = subprocess.Popen(
        [sys.executable, "-m", "uno_attack", "firmware", "emulate", "--link", str(link),
         "--seed", "3", "--time-scale", "10", "--jam-rate", "0", "--noise", "5%",
         "--lose", "5%", "--repeat", "5%", "--press-every", "0.5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert board.stdout is not None
        assert "emulated board on" in board.stdout.readline()
        run = subprocess.run(
            [sys.executable, "-m", "uno_attack", "launcher", "run", "--launcher",
             f"serial:{link}", "--policy", "fixed:2", "--presses", "5"],
            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
            check=False)
        assert run.returncode == 0, run.stderr
        for n in range(1, 6):
            assert f"press {n}: fired 2 of 2 (ok)" in run.stderr
        assert "stopped: motor off, pins released (closed)" in run.stderr
        board.send_signal(signal.SIGTERM)
        out, err = board.communicate(timeout=30)
        assert board.returncode == 0, err
        assert "5 ejects, 10 cards out" in out               # nothing fired twice
    finally:
        if board.poll() is None:
            board.kill()
            board.wait()
