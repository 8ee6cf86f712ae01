"""Recording from ``play``: every finished round and match goes into the store; a store
that is damaged, read-only or locked is said in one line and the game plays on."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.store.helpers import read_only
from tests.tui.helpers import deal, log_text, make_app, run, settle, table
from tests.tui.test_resume import PtyGame
from uno_attack.actions import Verb
from uno_attack.bots import BasicBot
from uno_attack.options import Options
from uno_attack.session import GameConfig, Session
from uno_attack.store import PlayerStore, schema
from uno_attack.tui.screens.scoreboard import ScoreboardScreen

QUICK = Options(target=120)


def bots_only(db: Path | None, *, seed: int = 2, save: Path | None = None,
              humans: tuple[str, ...] = ()) -> Session:
    """A session of three seats, people (``humans``) and bots, recording in ``db``."""
    config = GameConfig(humans=list(humans), players=3, seed=seed, launcher="sim",
                        options=QUICK, db=db, save=save)
    return Session(config)


def play_match(session: Session) -> int:
    """Play the session's match to its end as ``play`` does (a bot chooses for each person);
    the number of rounds."""
    while not session.match.over:
        table = session.start_round()
        stand_in = [BasicBot(name, seed=seat) for seat, name in enumerate(table.names)]
        while not table.over:
            seat = table.seat_to_act
            assert seat is not None
            if session.is_human(seat):
                action = stand_in[seat].choose(table.game, seat, table.game.legal_actions())
            else:
                action = session.bot_choice(seat)
            if action.verb is Verb.PRESS:
                session.perform(action, press=table.press_launcher())
            else:
                session.perform(action)
            reaction = table.bot_reaction()
            if reaction is not None:
                session.perform(reaction)
        session.finish_round()
    return session.match.round_no


def test_every_round_and_the_match_are_recorded(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    session = bots_only(db, humans=("Ann",))
    rounds = play_match(session)
    session.close()
    with PlayerStore.open(db) as store:
        (match,) = store.matches()
        stats = store.player_stats("Ann")
    assert len(match.rounds) == rounds == len(session.match.history)
    assert match.finished_at is not None
    assert [s.score for s in match.seats] == session.match.scores
    assert [(s.name, s.kind) for s in match.seats] == list(zip(
        session.names, session.kinds, strict=True))
    assert [r.round_points for r in match.rounds] == [
        r.round_points for r in session.match.history]
    assert stats.rounds.played == rounds
    assert stats.level == session.levels["Ann"]


def test_a_resumed_finished_round_is_recorded_once(tmp_path: Path) -> None:
    db, save = tmp_path / "players.db", tmp_path / "game.json"
    first = make_app(tmp_path, the_deal=deal(["R5", "G1 G2", "Y1 Y2", "B1 B2"], "R3"), db=db)

    async def finish(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        await settle(pilot, lambda: isinstance(first.screen, ScoreboardScreen))

    run(finish, first)  # left at the scoreboard, as after a crash there
    again = Session.resume(GameConfig(save=save, db=db))
    assert again.match_key == table(first).session.match_key
    again.finish_round()
    assert again.saved is not None
    assert not again.saved.new
    with PlayerStore.open(db) as store:
        (match,) = store.matches()
        assert len(match.rounds) == 1
        assert store.player_stats("You").career_points == 9


def test_a_damaged_file_is_said_once_and_the_match_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    db.write_bytes(b"not a database at all\n" * 300)
    data = db.read_bytes()
    session = bots_only(db)
    assert session.recorder.problem is not None
    assert session.recorder.problem.startswith("not recording games: ")
    assert "players.db: damaged or not a player database" in session.recorder.problem
    assert play_match(session) >= 1
    assert session.match.over
    assert db.read_bytes() == data  # never touched


def test_a_read_only_file_is_said_and_the_match_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    earlier = bots_only(db, seed=3, humans=("Ann",))
    play_match(earlier)
    earlier.close()
    with read_only(db):
        session = bots_only(db, seed=4, humans=("Ann",))
        assert session.levels == earlier.levels  # reading still works
        rounds = play_match(session)
        session.close()
        assert session.match.over
        assert session.recorder.problem is not None
        assert session.recorder.problem.endswith(
            "players.db: read-only, nothing can be recorded in it")
        assert session.saved is None  # the last round was not recorded either
        assert rounds >= 1
    with PlayerStore.open(db) as store:
        assert len(store.matches()) == 1  # the earlier match, untouched


def test_a_locked_file_costs_the_rounds_it_blocks_and_no_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.05)
    db = tmp_path / "players.db"
    session = bots_only(db)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    session.start_round()
    assert session.table is not None
    session.table.play_round()
    session.finish_round()
    assert session.saved is None
    assert session.recorder.problem is not None
    assert "locked by another program" in session.recorder.problem
    other.execute("ROLLBACK")
    session.start_round()
    session.table.play_round()
    session.finish_round()
    assert session.saved is not None
    assert session.saved.new
    other.close()


def test_the_game_log_says_when_the_store_fails(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    db.write_bytes(b"garbage" * 1000)
    app = make_app(tmp_path, db=db)

    async def body(pilot: Pilot[Any]) -> None:
        assert "⚠ not recording games: " in log_text(app)

    run(body, app)


def test_a_level_up_is_written_in_the_game_log(tmp_path: Path) -> None:
    app = make_app(tmp_path, db=tmp_path / "players.db",
                   the_deal=deal(["R5", "GD GT", "YD YT", "BD BT"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")  # out at once: 6 × 30 = 180 points, Intern to level 5
        await settle(pilot, lambda: isinstance(app.screen, ScoreboardScreen))
        assert "★ You are now level 5, Operations Manager!" in log_text(app)

    run(body, app)


def test_play_says_on_stderr_that_it_did_not_record(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    db.write_bytes(b"garbage" * 1000)
    env = dict(os.environ, HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path),
               TERM="xterm-256color")
    game = PtyGame(["--quick", "--db", str(db), "--bot-delay", "0", "--seed", "1"], env)
    try:
        game.wait_for(b"Your hand")
        game.send("q")
        game.wait_for(b"Quit the game?")
        game.send("y")
        assert game.wait_exit() == 0
        game.read()
    finally:
        if game.proc.poll() is None:
            game.kill()
    assert b"uno-attack play: not recording games: " in game.output
