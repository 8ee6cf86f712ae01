"""Whole rounds, played by the keyboard alone and by the mouse alone, to the scoreboard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Button
from textual.widgets._footer import FooterKey

from tests.tui.helpers import deal, game, log_text, make_app, run, screen, settle, table
from uno_attack.actions import Verb
from uno_attack.session import Session
from uno_attack.tui.app import NewGame, UnoAttackApp
from uno_attack.tui.local import LocalTable
from uno_attack.tui.screens.dialogs import HandoffScreen
from uno_attack.tui.screens.newgame import NewGameScreen
from uno_attack.tui.screens.pickers import ChoiceScreen
from uno_attack.tui.screens.scoreboard import ScoreboardScreen
from uno_attack.tui.widgets.hand import CARD_W, GAP, HandView
from uno_attack.tui.widgets.launcher import LauncherView


def _dealt(session: Session) -> Session:
    session.start_round()
    return session


def _my_move(app: UnoAttackApp) -> tuple[str, int]:
    """What the test player does now: ("play", the card's place on the screen, in its
    order), ("uno", 0) or ("press", 0)."""
    now = game(app)
    seat = table(app).viewer
    assert seat is not None
    assert seat == now.to_act
    plays = [a for a in now.legal_actions(seat) if a.verb is Verb.PLAY]
    if plays:
        card = plays[0].card
        if not screen(app).uno_armed and now.hand_after(plays[0]) == 1:
            return "uno", 0
        return "play", screen(app).shown.index(card)
    return "press", 0


async def play_round_by_keys(pilot: Pilot[Any], app: UnoAttackApp) -> ScoreboardScreen:
    for _ in range(400):
        await settle(pilot)
        top = app.screen
        if isinstance(top, ScoreboardScreen):
            return top
        if isinstance(top, ChoiceScreen):
            await pilot.press("1")
            continue
        if isinstance(top, HandoffScreen):
            await pilot.press("enter")
            continue
        move, index = _my_move(app)
        if move == "play":
            hand = screen(app).query_one(HandView)
            if index < 10:
                await pilot.press(str((index + 1) % 10))
            else:
                await pilot.press(*["right"] * (index - hand.cursor), "enter")
        else:
            await pilot.press("u" if move == "uno" else "space")
    raise AssertionError("the round did not end")


async def play_round_by_mouse(pilot: Pilot[Any], app: UnoAttackApp) -> ScoreboardScreen:
    for _ in range(400):
        await settle(pilot)
        top = app.screen
        if isinstance(top, ScoreboardScreen):
            return top
        if isinstance(top, ChoiceScreen | HandoffScreen):
            await pilot.click(top.query(Button).first())
            continue
        move, index = _my_move(app)
        table_screen = screen(app)
        if move == "play":
            hand = table_screen.query_one(HandView)
            row, col = divmod(index, hand.per_row())
            await pilot.click(hand, offset=(col * (CARD_W + GAP) + 2, row * hand.row_height() + 1))
        elif move == "uno":
            uno = next(k for k in table_screen.query(FooterKey) if k.key == "u")
            await pilot.click(uno)
        else:
            await pilot.click(table_screen.query_one(LauncherView), offset=(8, 1))
    raise AssertionError("the round did not end")


def test_a_whole_round_by_keyboard_then_the_next_round(tmp_path: Path) -> None:
    app = make_app(tmp_path, launcher="sim", seed=7)

    async def body(pilot: Pilot[Any]) -> None:
        board = await play_round_by_keys(pilot, app)
        result = table(app).session.match.history[-1]
        assert sum(result.round_points) > 0
        assert "round 1!" in board.board.title
        assert " went out and win" in log_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert table(app).session.match.round_no == 2
        saved = json.loads((tmp_path / "game.json").read_text())
        assert saved["meta"]["round"] == 2
        assert saved["meta"]["match"]["scores"] == list(table(app).session.match.scores)

    run(body, app)


def test_a_whole_round_by_mouse(tmp_path: Path) -> None:
    app = make_app(tmp_path, launcher="sim", seed=11, players=3)

    async def body(pilot: Pilot[Any]) -> None:
        board = await play_round_by_mouse(pilot, app)
        assert board.board.lines
        assert table(app).session.match.history
        await pilot.click(board.query_one("#next", Button))
        await settle(pilot)
        assert table(app).session.match.round_no == 2

    run(body, app)


def test_going_out_shows_the_scoreboard_and_the_match_winner(tmp_path: Path) -> None:
    from uno_attack.options import Options

    app = make_app(tmp_path, players=2, options=Options(match="single"),
                   the_deal=deal(["R5 G7", "B1 B2 WA"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("u", "1")  # R5 with UNO; the bot presses; then G7 goes out?
        await settle(pilot)
        while not isinstance(app.screen, ScoreboardScreen):
            move, index = _my_move(app)
            await pilot.press(str(index + 1) if move == "play" else
                              ("u" if move == "uno" else "space"))
            await settle(pilot)
        board = app.screen
        assert isinstance(board, ScoreboardScreen)
        assert board.board.winner is not None
        assert table(app).session.match.over
        old = table(app)
        app.new_game = NewGame(old.session.config, lambda config: LocalTable(
            _dealt(Session(config))), next_seed=lambda: 5)
        await pilot.press("enter")  # a new match: the new-game screen, as it was
        await settle(pilot, lambda: isinstance(app.screen, NewGameScreen))
        assert app.screen.query_one("#opt-match").value == "single"
        await pilot.press("enter")  # Start
        await settle(pilot)
        assert table(app) is not old
        assert old.session.launcher.closed
        assert table(app).session.config.seed == 5
        assert table(app).session.match.round_no == 1
        assert not table(app).session.match.over

    run(body, app)


def test_hot_seat_hides_the_hand_until_the_next_player_is_ready(tmp_path: Path) -> None:
    app = make_app(tmp_path, humans=("Ann", "Bob"), players=3,
                   the_deal=deal(["R5 G7 G8", "R6 B7 B8", "Y1 Y2 Y3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, HandoffScreen)
        assert app.screen.player == "Ann"
        assert table(app).viewer is None
        await pilot.press("enter")
        await settle(pilot)
        assert table(app).viewer == 0
        await pilot.press("1")  # Ann plays R5; Bob is next
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)
        assert app.screen.player == "Bob"
        assert screen(app).query_one(HandView).hidden
        await pilot.press("enter")
        await settle(pilot)
        assert table(app).viewer == 1
        assert list(screen(app).query_one(HandView).cards) == game(app).hands[1]

    run(body, app)


def test_resuming_a_finished_round_shows_its_scoreboard(tmp_path: Path) -> None:
    from uno_attack.cli.play import build_app

    first = make_app(tmp_path, the_deal=deal(["R5", "G1 G2", "Y1 Y2", "B1 B2"], "R3"))

    async def finish(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        await settle(pilot, lambda: isinstance(first.screen, ScoreboardScreen))

    run(finish, first)  # the app is left at the scoreboard, as after a crash there
    again = build_app(["--resume", "--save", str(tmp_path / "game.json"), "--pace", "instant",
                       "--bot-delay", "0"])

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: isinstance(again.screen, ScoreboardScreen))
        assert table(again).session.match.scores == [9, 0, 0, 0]  # (1+2) x 3, counted once
        await pilot.press("enter")
        await settle(pilot)
        assert table(again).session.match.round_no == 2

    run(body, again)


def test_a_round_that_ends_as_the_game_quits_ends_cleanly(tmp_path: Path) -> None:
    """The last card goes down in the moment the app exits: the scoreboard pushed then is
    never composed, and must not fail for want of its buttons."""
    app = make_app(tmp_path, players=2, the_deal=deal(["R5", "B1 B2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        app.exit()
        screen(app).play_card(0)

    run(body, app)
    assert game(app).winner == 0
