"""Single moves through keys and clicks: wilds, Trade Hands, presses, UNO and catches."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.tui.helpers import deal, game, log_text, make_app, run, screen, settle, table
from uno_attack.actions import Action
from uno_attack.cards import Card, Color
from uno_attack.engine import Round
from uno_attack.tui.screens.pickers import ColorPicker, SeatPicker
from uno_attack.tui.widgets.hand import HandView
from uno_attack.tui.widgets.launcher import LauncherView


def test_wild_opens_the_colour_picker_and_names_the_colour(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["W R5 B7", "G1 G2 G3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        assert isinstance(app.screen, ColorPicker)
        await pilot.press("g")
        await settle(pilot)
        now = game(app)
        assert Card.parse("W") in now.discard
        assert "You played Wild, naming green" in log_text(app)
        assert Card.parse("W") not in now.hands[0]

    run(body, app)


def test_trade_hands_opens_the_seat_picker(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3,
                   the_deal=deal(["RT R5 B7 B8", "G1 G2", "Y1 Y2 Y3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        assert isinstance(app.screen, SeatPicker)
        await pilot.press("1")  # the first choice: Ada, seat 1
        await settle(pilot, lambda: "trading hands with Ada" in log_text(app))
        now = game(app)
        assert Card.parse("RT") in now.discard
        assert now.hands[0] == [Card.parse("G1"), Card.parse("G2")]  # Ada's hand, now mine
        for code in ("R5", "B7", "B8"):  # mine, now Ada's (she may have played one since)
            card = Card.parse(code)
            assert card in now.hands[1] or card in now.discard
        assert Card.parse("G1") not in now.hands[1]

    run(body, app)


def test_space_presses_and_fired_cards_join_the_hand(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, launcher="fixed:2",
                   the_deal=deal(["R5 B7", "G1 G2 G3"], "Y3", launcher="B1 B2 B3 B4"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("space")
        await settle(pilot, lambda: "2 cards fired" in log_text(app))
        hand = game(app).hands[0]
        assert hand[:4] == [Card.parse(c) for c in ("R5", "B7", "B1", "B2")]
        assert "2 CARDS FIRED" in screen(app).query_one(LauncherView).last

    run(body, app)


def test_an_illegal_card_says_why(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["B7 R5", "G1 G2 G3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        status = str(screen(app).query_one("#status", Static).render())
        assert "B7 does not match the top card R3" in status
        assert game(app).top == Card.parse("R3")

    run(body, app)


def test_calling_uno_with_the_play_is_not_caught(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3, the_deal=deal(["R5 G7", "B1 B2", "Y1 Y2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("u")
        assert screen(app).uno_armed
        await pilot.press("1")
        await settle(pilot)
        assert "You played red 5 and called UNO!" in log_text(app)
        assert "caught" not in log_text(app)
        assert len(game(app).hands[0]) == 1

    run(body, app)


def test_uno_key_after_the_play_calls_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, catch_delay=30.0,
                   the_deal=deal(["RS R7 G8", "B1 B2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1", "1")  # Skip: the same player goes again (2 players)
        await settle(pilot, lambda: len(game(app).hands[0]) == 1)
        assert game(app).uno_seat == 0
        await pilot.press("u")
        await settle(pilot, lambda: "You called UNO!" in log_text(app))

    run(body, app)


def test_forgetting_uno_gets_you_caught(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3, the_deal=deal(["R5 G7", "B1 B2", "Y1 Y2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        await settle(pilot, lambda: "caught you" in log_text(app))
        await settle(pilot)
        log = log_text(app)
        assert "Ada caught you without UNO: you owe 2 presses" in log

    run(body, app)


class ForgetfulBot:
    """Plays its first legal card and never calls UNO."""

    kind = "forgetful"

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, game: Round, seat: int, legal: list[Action]) -> Action:
        return legal[0]

    def react(self, game: Round, seat: int) -> Action | None:
        return None


def test_catching_a_bot_that_forgot_uno(tmp_path: Path) -> None:
    the_deal = deal(["G5 G6 G7", "R7 B2"], "R3", dealer=0)  # seat 1 (the bot) starts
    app = make_app(tmp_path, players=2, the_deal=the_deal)
    table(app).session.players[1] = ForgetfulBot("Ada")

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: game(app).uno_seat == 1)
        await pilot.press("c")
        assert isinstance(app.screen, SeatPicker)
        await pilot.press("1")
        await settle(pilot, lambda: "You caught Ada" in log_text(app))
        assert len(game(app).hands[1]) == 3  # fixed:1, two presses

    run(body, app)


def test_a_starter_wild_asks_for_its_colour(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["R5 B7", "G1 G2 G3"], "W"))

    async def body(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, ColorPicker)
        await pilot.press("4")
        await settle(pilot)
        assert game(app).color is Color.BLUE

    run(body, app)


def test_arrows_and_enter_choose_and_play(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["B7 R5 G7", "G1 G2 G3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("right")
        assert screen(app).query_one(HandView).cursor == 1
        await pilot.press("enter")
        await settle(pilot)
        assert "You played red 5" in log_text(app)

    run(body, app)


def test_play_after_press_offers_pass(tmp_path: Path) -> None:
    from uno_attack.options import Options

    app = make_app(tmp_path, players=2, options=Options(play_after_press=True),
                   the_deal=deal(["B7 B8", "G1 G2 G3"], "R3", launcher="R5"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("space")
        await settle(pilot, lambda: "pass: p" in screen(app).status)
        assert screen(app).query_one(HandView).playable == frozenset({2})
        await pilot.press("p")
        await settle(pilot, lambda: "You passed" in log_text(app))

    run(body, app)


def test_two_fast_keys_on_a_picker_close_only_the_picker(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["W R5 B7", "G1 G2 G3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1", "r", "y")
        await settle(pilot)
        assert app.table_screen in app.screen_stack
        assert "You played Wild, naming red" in log_text(app)

    run(body, app)


def test_catching_by_clicking_the_forgetful_player(tmp_path: Path) -> None:
    from uno_attack.tui.widgets.seats import SeatBadge

    app = make_app(tmp_path, players=2, the_deal=deal(["G5 G6 G7", "R7 B2"], "R3", dealer=0))
    table(app).session.players[1] = ForgetfulBot("Ada")

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: game(app).uno_seat == 1)
        assert "Ada did not call UNO: catch them" in screen(app).status
        badge = screen(app).query_one(SeatBadge)
        assert badge.has_class("-catchable")
        await pilot.click(badge)
        await settle(pilot, lambda: "You caught Ada" in log_text(app))

    run(body, app)


def test_the_terminal_game_never_reads_an_action_back_from_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen's moves are the engine's values, and the table takes them as values:
    nothing between a key and the engine reads action text (only the network sends it)."""
    readers: list[str] = []
    parse_move, parse = Action.parse_move, Action.parse

    def reading(original: Callable[..., Action]) -> Callable[..., Action]:
        def read(*args: Any, **kwargs: Any) -> Action:
            readers.append(sys._getframe(1).f_globals["__name__"])
            return original(*args, **kwargs)
        return read

    monkeypatch.setattr(Action, "parse_move", staticmethod(reading(parse_move)))
    monkeypatch.setattr(Action, "parse", staticmethod(reading(parse)))
    app = make_app(tmp_path, players=2, the_deal=deal(["R5 B7 G2", "G1 G3 G4"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("2")  # B7 does not match: refused before anything is sent
        assert "B7 does not match the top card R3" in screen(app).status
        await pilot.press("1")
        await settle(pilot, lambda: Card.parse("R5") in game(app).discard)

    run(body, app)
    assert Card.parse("R5") not in game(app).hands[0]  # the play was made …
    assert readers == []                               # … with no text read back
