"""Watching a saved round: ``replay --watch`` opens the table screen on it, steps with
← → Home End, plays it on by itself, and shows every hand; a bad file is one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Label

from tests.one_line import assert_one_line
from tests.tui.helpers import run, screen, screen_lines, settle
from tests.tui.ptygame import PtyGame, game_env
from uno_attack.cli.watch import WatchApp, watch_app
from uno_attack.session import GameConfig, Session
from uno_attack.transcript import Transcript
from uno_attack.tui.watch import ReplayTable
from uno_attack.tui.widgets.hand import HandView


def _bot_round() -> Transcript:
    """A whole round of three bots, as a saved game records it."""
    session = Session(GameConfig(humans=[], players=3, launcher="sim", seed=7, save=None,
                                 db=None, bot_delay=0, catch_delay=0, animate=False))
    session.start_round()
    assert session.table is not None
    session.table.play_round()
    return session.table.record


def _shows_every_hand(app: WatchApp, table: ReplayTable) -> None:
    game = table.frame.game
    shown = screen(app)
    to_act = shown.seen.seat if shown.seen is not None else None
    hand = [card.code for card in shown.query_one(HandView).cards]
    others = "\n".join(screen_lines(app))
    for seat, cards in enumerate(game.hands):
        if seat == to_act:
            assert sorted(hand) == sorted(card.code for card in cards)
        else:
            assert f"{table.names[seat]}:" in others
            for card in cards:
                assert card.code in others


def test_stepping_a_round_to_its_end_and_back(tmp_path: Path) -> None:
    record = _bot_round()
    app = watch_app(record, source="round")
    table = app.table
    assert isinstance(table, ReplayTable)
    assert table.names == ["Ada", "Ben", "Cleo"]

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: screen(app).seen is not None)
        assert screen(app).status.startswith(f"Step 0 of {table.last} (paused)")
        to_act = table.frame.game.to_act
        assert to_act is not None
        assert str(screen(app).query_one("#hand-title", Label).content).startswith(
            f"{table.names[to_act]}'s hand (to play)")
        _shows_every_hand(app, table)
        for step in range(1, 4):
            await pilot.press("right")
            assert table.position == step
            _shows_every_hand(app, table)
        assert len(screen(app).log_lines) == 4  # the deal and three moves
        await pilot.press("left")
        assert table.position == 2
        while table.position < table.last:  # every step, to the end
            await pilot.press("right")
            _shows_every_hand(app, table)
        await pilot.press("right")  # nothing after the end
        assert table.position == table.last
        assert screen(app).status.startswith(f"Step {table.last} of {table.last}")
        winner = table.frame.game.winner
        assert winner is not None
        assert screen(app).log_lines[-1] == f"{table.names[winner]} went out: the round is over"
        await pilot.press("home")
        assert table.position == 0
        await pilot.press("end")
        assert table.position == table.last
        await pilot.press("space")  # at the end: nothing to play on
        assert not table.playing

    run(body, app, settled=False)


def test_space_plays_it_on_by_itself_at_a_chosen_speed(tmp_path: Path) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:  # a clock that never waits
        waits.append(seconds)

    table = ReplayTable(_bot_round(), sleep=sleep)
    app = WatchApp(table)

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: screen(app).seen is not None)
        await pilot.press("plus", "plus")
        await pilot.press("space")
        await settle(pilot, lambda: table.position == table.last)
        assert not table.playing  # it stops at the end
        assert set(waits) == {0.25}  # the fastest of the speeds, after two +
        assert len(waits) >= table.last
        assert "paused" in screen(app).status

    run(body, app, settled=False)


@pytest.mark.parametrize(("content", "words"), [
    ("{not json", "not valid JSON"),
    ('{"name": "x", "players": 2}', "missing"),
])
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = subprocess.run([sys.executable, "-m", "uno_attack", "replay", "--watch",
                             str(path)], stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=60, check=False)
    assert_one_line(result, str(path))


def test_a_round_that_does_not_replay_is_refused_naming_it(tmp_path: Path) -> None:
    data = _bot_round().to_dict()
    data["fires"] = []  # its presses find nothing to fire
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    result = subprocess.run([sys.executable, "-m", "uno_attack", "replay", "--watch",
                             str(path)], stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=60, check=False)
    assert_one_line(result, str(path), "does not replay", "step")


def _recorded_round(db: Path) -> None:
    """One round of three bots, recorded in the player store ``db`` as round 1."""
    session = Session(GameConfig(humans=[], players=3, launcher="sim", seed=7, save=None,
                                 db=db, bot_delay=0, catch_delay=0, animate=False))
    session.start_round()
    assert session.table is not None
    session.table.play_round()
    session.finish_round()
    session.close()


def test_history_watch_opens_a_recorded_round_in_a_real_terminal(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    _recorded_round(db)
    game = PtyGame(["--watch", "1", "--db", str(db)], game_env(tmp_path),
                   command=("-m", "uno_attack", "history"))
    try:
        game.wait_for_text("Step 0 of 38 (paused)")
        game.send("\x1b[F")  # End
        game.wait_for_text("Step 38 of 38")
        game.wait_for_text("went out: the round is over")
        game.send("q")
        assert game.wait_exit(timeout=10) == 0
    finally:
        if game.proc.poll() is None:
            game.kill()


def test_history_watch_of_no_such_round_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    _recorded_round(db)
    result = subprocess.run([sys.executable, "-m", "uno_attack", "history", "--watch", "9",
                             "--db", str(db)], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60, check=False)
    assert_one_line(result, "9")
