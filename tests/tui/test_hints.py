"""Hints: ``h`` at your turn shows what the hard bot would do in your place, with the
share of its playouts each top choice won; it sees only what your seat sees."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import deal, make_app, run, screen, settle
from uno_attack.actions import Action
from uno_attack.cards import Card
from uno_attack.engine import Round
from uno_attack.rules import ATTACK
from uno_attack.tui.hints import Choice, Hint, ask_hard_bot, hint_lines
from uno_attack.tui.screens.dialogs import HintScreen

MINE = [Card.parse(c) for c in ("R5", "R9", "G3", "B3", "WF")]


def _round(seed: int) -> Round:
    """Your hand and the top card as always; the rest of the deck dealt by ``seed`` to
    the other player (4 cards) and the launcher."""
    rest = list(ATTACK.deck)
    for card in [*MINE, Card.parse("R3")]:
        rest.remove(card)
    random.Random(seed).shuffle(rest)
    return Round.setup(hands=[MINE, rest[:4]], dealer=1, starter=Card.parse("R3"),
                       stock=rest[4:])


def test_the_hint_sees_only_what_the_seat_sees() -> None:
    """The same hint whatever the other player holds and the launcher will fire: the
    search deals what the seat cannot see anew (a clock that never runs out keeps every
    playout)."""
    first, second = (ask_hard_bot(_round(deal_seed), 0, seed=1, policy="attack",
                                  clock=lambda: 0.0) for deal_seed in (1, 2))
    assert _round(1).hands[1] != _round(2).hands[1]
    assert first == second
    assert first.playouts == 200
    assert len(first.choices) == 3
    shares = [choice.share for choice in first.choices]
    assert shares == sorted(shares, reverse=True)
    assert all(0 <= c.won <= c.playouts for c in first.choices)


def test_h_shows_the_hard_bots_top_choices(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["R5 R9 G3 B3 WF", "Y1 Y2 G7 B8"],
                                                      "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("h")
        await settle(pilot, lambda: isinstance(app.screen, HintScreen))
        hint = app.screen
        assert isinstance(hint, HintScreen)
        assert hint.lines[0].startswith("The hard bot would play ")
        assert "its top choices won:" in hint.lines[0]
        assert len(hint.lines) in (4, 5)  # and why, when its pick is not the top one
        for line in hint.lines[1:4]:  # "  62%  play red 5 (40 of 64)"
            share, _, rest = line.strip().partition("%")
            assert 0 <= int(share) <= 100
            assert rest.strip().startswith(("play ", "press the launcher"))
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen is screen(app))
        assert screen(app).seen is not None
        assert screen(app).seen.my_turn  # a hint plays nothing

    run(body, app)


def test_a_hint_is_for_your_turn(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, bot_delay=60.0,
                   the_deal=deal(["Y1 Y2 G7 B8", "R5 R9 G3 B3 WF"], "R3", dealer=1))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("space")  # your press; then the bot's turn, which takes a minute
        await settle(pilot, lambda: screen(app).seen is not None
                     and not screen(app).seen.my_turn)
        await pilot.press("h")
        assert screen(app).status == "⚠ A hint is for your turn: ask (h) when it is yours."

    run(body, app, settled=False)


def test_the_words_say_when_the_pick_is_not_the_top_share() -> None:
    red5, green4 = (Action.play(0, Card.parse(code)) for code in ("R5", "G4"))
    choices = (Choice(green4, 10, 6), Choice(red5, 10, 5))
    lines = hint_lines(Hint(red5.with_uno(), choices, 20, 0.1), str)
    assert lines[1:3] == [f"   60%  {green4} (6 of 10)", f"   50%  {red5} (5 of 10)"]
    assert lines[-1].startswith("It keeps to its usual move")
    assert len(hint_lines(Hint(green4, choices, 20, 0.1), str)) == 3
    assert hint_lines(Hint(red5, (), 0, 0.0), str) == [f"Only one move makes sense: {red5}."]
