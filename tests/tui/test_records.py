"""The player store in the terminal game: the scoreboard round by round, levels beside the
names, the level-up news, and the players' records on key ``s``."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Label, Static

from tests.store.helpers import a_match, a_round
from tests.tui.helpers import deal, log_text, make_app, run, screen, settle, table
from tests.tui.test_rounds import play_round_by_keys
from uno_attack.options import Options
from uno_attack.store import PlayerStore, level_for
from uno_attack.tui.screens.scoreboard import ScoreboardScreen
from uno_attack.tui.screens.stats import StatsScreen
from uno_attack.tui.widgets.seats import SeatBadge


def a_store_where(tmp_path: Path, **points: int) -> Path:
    """A player store where each named person has won one round worth ``points``."""
    db = tmp_path / "players.db"
    with PlayerStore.open(db) as store:
        for name, worth in points.items():
            store.record_round(a_round(a_match(name, "Zed:basic"), 1, winner=0,
                                       hands=[0, worth]))
    return db


def test_the_scoreboard_shows_every_round_and_who_is_out(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3, options=Options(match="elimination", target=30),
                   the_deal=deal(["R5", "G1 WF", "Y1 Y2"], "R3"), seed=3)  # a short round 2

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")  # out at once: Ada holds 51 points and is out, Ben 3
        await settle(pilot, lambda: isinstance(app.screen, ScoreboardScreen))
        first = app.screen
        assert isinstance(first, ScoreboardScreen)
        assert [(ln.name, ln.by_round, ln.out) for ln in first.board.lines] == [
            ("You", (0,), False), ("Ada", (51,), True), ("Ben", (3,), False)]
        await pilot.press("enter")
        board = await play_round_by_keys(pilot, app)
        second = table(app).session.match.history[-1]
        assert [ln.by_round for ln in board.board.lines] == [
            (0, second.round_points[0]), (51, None), (3, second.round_points[1])]
        ada = board.board.lines[1]
        assert ada.cards_left is None
        assert ada.total == 51
        rows = board.query_one(DataTable)
        assert [str(c.label) for c in rows.columns.values()] == [
            "player", "cards left", "R1", "R2", "total"]
        assert rows.get_row_at(1)[:4] == ["Ada (out)", "—", "51", "—"]

    run(body, app)


def test_levels_beside_the_names_and_the_news_of_a_level_up(tmp_path: Path) -> None:
    db = a_store_where(tmp_path, Ann=60, Bob=14)
    app = make_app(tmp_path, humans=("Ann", "Bob"), players=3, db=db,
                   the_deal=deal(["R5", "GD GT", "Y1"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("enter")  # Ann takes the keyboard
        await settle(pilot)
        title = str(screen(app).query_one("#hand-title", Label).content)
        assert title.endswith(" · L3 Salesperson")
        bob = next(b for b in screen(app).query(SeatBadge)
                   if b.info is not None and b.info.name == "Bob")
        assert "Bob L1" in str(bob.render())
        zed_free = [b for b in screen(app).query(SeatBadge)
                    if b.info is not None and b.info.name != "Bob"]
        assert all(" L" not in str(b.render()).split("\n")[0] for b in zed_free)
        await pilot.press("1")  # Ann goes out: 60 + 61 = 121 points, Sales Lead
        await settle(pilot, lambda: isinstance(app.screen, ScoreboardScreen))
        board = app.screen
        assert isinstance(board, ScoreboardScreen)
        assert board.board.news == ("Ann is now level 4, Sales Lead!",)
        assert "★ Ann is now level 4, Sales Lead!" in [
            str(label.content) for label in board.query(Label)]
        assert board.board.lines[0].level == str(level_for(121)) == "L4 Sales Lead"
        assert board.board.lines[2].level == ""  # a bot has no level

    run(body, app)


def test_s_shows_the_records_of_the_people_at_the_table(tmp_path: Path) -> None:
    db = a_store_where(tmp_path, Ann=60)
    app = make_app(tmp_path, humans=("Ann", "Newcomer"), players=3, db=db,
                   the_deal=deal(["R5 G7", "R6 G8", "Y1 Y2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        texts = [str(s.content) for s in stats.query(Static).filter(".record")]
        assert texts[0].startswith("Ann · L3 Salesperson · 60 career points · 40 to level 4")
        assert "rounds won 1/1 (100 %)" in texts[0]
        assert texts[1] == "Newcomer · nothing recorded yet"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen(app)

    run(body, app)


def test_s_says_when_the_game_is_not_recorded(tmp_path: Path) -> None:
    app = make_app(tmp_path)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("s")
        await settle(pilot)
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        notes = [str(s.content) for s in stats.query(Static).filter(".note")]
        assert notes == ["This game is not being recorded (--no-record)."]

    run(body, app)


def test_a_resumed_match_keeps_its_rounds_on_the_scoreboard(tmp_path: Path) -> None:
    from uno_attack.session import GameConfig, Session

    app = make_app(tmp_path, options=Options(target=500),
                   the_deal=deal(["R5", "G1 G2", "Y1 Y2", "B1 B2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        await settle(pilot, lambda: isinstance(app.screen, ScoreboardScreen))
        await pilot.press("enter")
        await settle(pilot)

    run(body, app)
    again = Session.resume(GameConfig(save=tmp_path / "game.json"))
    assert again.points_by_round == [[9, 0, 0, 0]]


def test_a_locked_store_holds_up_no_screen_and_the_board_shows_the_records_once_free(
        tmp_path: Path) -> None:
    """Another program holds the store (``BEGIN EXCLUSIVE``) as the round ends: the
    scoreboard comes at once, and shows the level-up once the store lets the round in."""
    db = a_store_where(tmp_path, Ann=60)
    app = make_app(tmp_path, humans=("Ann",), players=2, db=db,
                   the_deal=deal(["R5", "GD GT"], "R3"))
    other = sqlite3.connect(db, isolation_level=None)

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        other.execute("BEGIN EXCLUSIVE")
        pressed = time.monotonic()
        await pilot.press("1")  # Ann goes out
        await settle(pilot, lambda: isinstance(app.screen, ScoreboardScreen), seconds=1.0)
        assert time.monotonic() - pressed < 1.0
        board = app.screen
        assert isinstance(board, ScoreboardScreen)
        assert board.board.news == ()  # not recorded yet
        other.execute("ROLLBACK")
        await settle(pilot, lambda: board.board.news != ())
        await pilot.pause()
        assert board.board.news == ("Ann is now level 4, Sales Lead!",)
        assert "★ Ann is now level 4, Sales Lead!" in [
            str(label.content) for label in board.query(Label)]
        assert board.board.lines[0].level == "L4 Sales Lead"
        assert "★ Ann is now level 4, Sales Lead!" in log_text(app)

    try:
        run(body, app)
    finally:
        other.close()
    with PlayerStore.open(db) as store:
        assert store.player_stats("Ann").rounds.played == 2
