"""A real ``uno-attack play`` in a pty, killed mid-round: ``--resume`` restores the very
same state, and the journal replays with ``uno-attack replay``."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import run, screen, settle, table
from tests.tui.ptygame import PtyGame, game_env
from uno_attack.cli.play import build_app
from uno_attack.replay import replay
from uno_attack.transcript import ActionStep, load


def _actions(path: Path) -> int:
    try:
        return sum(isinstance(s, ActionStep) for s in load(path).steps)
    except Exception:  # being rewritten this instant, or not there yet
        return -1


def test_killed_mid_round_then_resumed_exactly(tmp_path: Path) -> None:
    save = tmp_path / "state" / "uno-attack" / "game.json"  # the documented default path
    game = PtyGame(["--quick", "--seed", "5", "--pace", "instant", "--bot-delay", "0",
                    "--no-animation"],
                   game_env(tmp_path))
    try:
        game.wait_for(b"Your hand")
        deadline = time.monotonic() + 20
        while _actions(save) < 12 and time.monotonic() < deadline:
            game.send(" ")  # press the launcher on each of my turns
            game.read(0.1)
        assert _actions(save) >= 12
    finally:
        game.kill()

    saved = load(save)
    expected = replay(saved)
    assert expected.passed, expected.failure
    assert not expected.round.over
    check = subprocess.run([sys.executable, "-m", "uno_attack", "replay", str(save)],
                           capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "1 passed, 0 failed" in check.stdout

    app = build_app(["--resume", "--save", str(save), "--pace", "instant",
                     "--bot-delay", "0", "--no-animation"])
    assert table(app).session.game.snapshot() == expected.round.snapshot()
    assert table(app).session.match.round_no == saved.meta["round"]
    steps_before = len(saved.steps)
    restored = [event.describe() for event in table(app).session.table.events[-9:]]

    async def body(pilot: Pilot[Any]) -> None:
        log = screen(app).log_lines
        resumed = log.index(f"Round 1 resumed after {steps_before} actions")
        assert log[:resumed] == restored  # what bots did since (their turn first) follows
        await pilot.press("space")
        await settle(pilot)
        assert len(load(save).steps) > steps_before  # the journal goes on from there

    run(body, app)


def test_resume_in_a_real_terminal_draws_the_table(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = PtyGame(["--quick", "--seed", "9", "--pace", "instant", "--bot-delay", "0",
                     "--save", str(save)],
                    game_env(tmp_path))
    try:
        first.wait_for(b"Your hand")
    finally:
        first.kill()
    again = PtyGame(["--resume", "--save", str(save), "--pace", "instant", "--bot-delay", "0"],
                    game_env(tmp_path))
    try:
        again.wait_for(b"resumed after")
        again.send("q")
        again.wait_for(b"Quit the game?")
        again.send("y")
        assert again.wait_exit() == 0  # reading meanwhile: a full pty would hold its writes
    finally:
        if again.proc.poll() is None:
            again.kill()


def test_sigterm_ends_the_game_cleanly_and_keeps_it(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    game = PtyGame(["--quick", "--seed", "4", "--pace", "instant", "--bot-delay", "0",
                    "--save", str(save),
                    "--launcher", "gpio:emulated,scale=50"], game_env(tmp_path))
    try:
        game.wait_for(b"Your hand")
        game.proc.send_signal(signal.SIGTERM)
        assert game.wait_exit() == 0
    finally:
        if game.proc.poll() is None:
            game.kill()
    game.read()
    assert b"Traceback" not in game.output
    assert replay(load(save)).passed
