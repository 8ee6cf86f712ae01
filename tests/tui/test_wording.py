"""What the screens say: counts that agree, players by name, "you" for the person at the
keyboard, and badges that tell a called UNO from a forgotten one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Button, Static

from tests.tui.helpers import deal, game, log_text, make_app, run, screen, settle, steps, table
from uno_attack.actions import Action, Verb
from uno_attack.cli.play import build_app
from uno_attack.engine import Round
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.session import GameConfig, Session
from uno_attack.tui.screens.dialogs import HandoffScreen
from uno_attack.tui.screens.pickers import SeatPicker
from uno_attack.tui.widgets.seats import SeatBadge


class OneCardBot:
    """Plays its first legal card; calls UNO with it, or forgets to."""

    kind = "scripted"

    def __init__(self, name: str, *, calls: bool) -> None:
        self.name = name
        self.calls = calls

    def choose(self, game: Round, seat: int, legal: list[Action]) -> Action:
        action = legal[0]
        if self.calls and action.verb is Verb.PLAY and game.hand_after(action) == 1:
            return action.with_uno()
        return action

    def react(self, game: Round, seat: int) -> Action | None:
        return None


def _status(app: Any) -> str:
    return str(screen(app).query_one("#status", Static).render())


def test_one_card_is_one_card(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["G5", "B1 B2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        title = str(screen(app).query_one("#hand-title").render())
        assert "Your hand · 1 card · " in title

    run(body, app)


def test_a_resume_after_one_action_says_so(tmp_path: Path) -> None:
    session = Session(GameConfig(players=2, launcher="fixed:1", seed=1,
                                 save=tmp_path / "game.json"))
    session.use_deal(deal(["R5 G1 G2", "G3 G4 G6"], "R3"))
    session.perform(Action.parse("0 play R5"))
    session.close()
    again = build_app(["--resume", "--save", str(tmp_path / "game.json"), "--pace", "instant",
                       "--bot-delay", "0"])

    async def body(pilot: Pilot[Any]) -> None:
        assert "Round 1 resumed after 1 action" in log_text(again)

    run(body, again)


def test_an_elimination_match_is_named_with_an() -> None:
    _, record = Match(["a", "b", "c"], Options(match="elimination"), seed=1).deal_round()
    assert "of an elimination match" in record.name
    _, record = Match(["a", "b"], Options(match="points"), seed=1).deal_round()
    assert "of a points match" in record.name


def test_a_catch_says_who_owes_what(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3, the_deal=deal(["R5 G7", "B1 B2", "Y1 Y2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")  # no UNO called
        await settle(pilot, lambda: "caught" in log_text(app))
        assert "Ada caught you without UNO: you owe 2 presses" in log_text(app)
        await settle(pilot)
        assert screen(app).status == ("You owe 2 presses (caught without UNO by Ada): press "
                                      "the launcher (Space).")

    run(body, app)


def _bot_down_to_one_card(tmp_path: Path, *, calls: bool) -> Any:
    """Ada (seat 1) starts and plays down to one card, calling UNO or not."""
    app = make_app(tmp_path, players=2, catch_delay=30.0,
                   the_deal=deal(["G5 G6 G7", "R7 B2"], "R3", dealer=0))
    table(app).session.players[1] = OneCardBot("Ada", calls=calls)
    return app


def test_catching_a_bot_names_it_and_its_penalty(tmp_path: Path) -> None:
    app = _bot_down_to_one_card(tmp_path, calls=False)

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: game(app).uno_seat == 1)
        assert "forgot UNO!" in str(screen(app).query_one(SeatBadge).render())
        await pilot.press("c", "1")
        await settle(pilot, lambda: "You caught Ada" in log_text(app))
        assert "You caught Ada without UNO: Ada owes 2 presses" in log_text(app)

    run(body, app)


def test_a_called_uno_and_a_forgotten_one_look_different(tmp_path: Path) -> None:
    app = _bot_down_to_one_card(tmp_path, calls=True)

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: len(game(app).hands[1]) == 1)
        text = str(screen(app).query_one(SeatBadge).render())
        assert "UNO!" in text
        assert "forgot" not in text

    run(body, app)


def test_a_refusal_names_the_player_not_the_seat(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3, the_deal=deal(["R5 G7 B1", "B2 B3", "Y1 Y2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("c")
        assert isinstance(app.screen, SeatPicker)
        await pilot.press("1")  # Ada, who holds two cards
        await settle(pilot)
        assert "Ada cannot be caught" in _status(app)
        assert "seat" not in _status(app).split(":")[0]
        await pilot.press("u")  # arm UNO for my next play: fine
        await pilot.press("u")  # and disarm it
        assert "cancelled" in _status(app)

    run(body, app)


class TradingBot:
    """Trades hands with seat 0 when it can."""

    kind = "scripted"

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, game: Round, seat: int, legal: list[Action]) -> Action:
        return next((a for a in legal if a.target == 0), legal[0])

    def react(self, game: Round, seat: int) -> Action | None:
        return None


def test_a_trade_with_you_says_you(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["G5 G6 G7", "RT B2 B3"], "R3", dealer=0))
    table(app).session.players[1] = TradingBot("Ada")

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: "Trade Hands" in log_text(app))
        assert "Ada played red Trade Hands, trading hands with you" in log_text(app)

    run(body, app)


def test_a_game_of_bots_only_says_it_is_watched(tmp_path: Path) -> None:
    app = make_app(tmp_path, humans=(), players=3, launcher="sim")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: steps(app) > 3)
            title = str(screen(app).query_one("#hand-title").render())
            assert title == "watching: every seat is a bot"

    asyncio.run(main())


def test_the_hand_off_button_shows_a_name_as_it_is_never_as_markup(tmp_path: Path) -> None:
    app = make_app(tmp_path, humans=("[b]x", "[/]y"), players=3)

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        button = handoff.query_one("#ready", Button)
        assert str(button.label) == f"I am {handoff.player} — show my cards"
        assert handoff.player in ("[b]x", "[/]y")
        handoff.player = "[/]y" if handoff.player == "[b]x" else "[b]x"  # the next hand-off
        await pilot.pause()
        assert str(button.label) == f"I am {handoff.player} — show my cards"

    run(body, app)
