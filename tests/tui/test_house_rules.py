"""The house rules at the terminal (VARIANTS.md B): several cards in one play, the 7 of 7-0
asking whom to trade with, the jump-in key, going out on a sum, and a status line that
says what a stack is made of. Each key the table waits for is shown in the footer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import (
    deal,
    footer_keys,
    game,
    game_config,
    log_text,
    make_app,
    run,
    screen,
    settle,
)
from tests.tui.test_new_game import BluffingBot
from uno_attack.cards import Card
from uno_attack.options import OPTION_SPECS, Options
from uno_attack.rules import CLASSIC, RULE_SETS, RuleSet
from uno_attack.session import Session
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.help_text import card_table, help_markdown
from uno_attack.tui.local import LocalTable
from uno_attack.tui.screens.dialogs import HelpScreen, RevealScreen
from uno_attack.tui.screens.pickers import SeatPicker
from uno_attack.tui.screens.scoreboard import ScoreboardScreen
from uno_attack.tui.widgets.hand import HandView


def _slow_bots(tmp_path: Path, the_deal: Any, **config: Any) -> UnoAttackApp:
    """A table whose bots think for a minute: a person may act out of turn meanwhile."""
    session = Session(replace(game_config(tmp_path, **config), bot_delay=60.0))
    session.use_deal(the_deal)
    return UnoAttackApp(LocalTable(session))


def test_a_play_of_several_cards_picked_with_a(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, options=Options(multi_play="numbers"),
                   the_deal=deal(["R5 G5 Y9 B5", "G1 G2 G3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        assert "a" in footer_keys(app)
        assert screen(app).active_bindings["space"].binding.description == "Press"
        assert "a: add a card to a play of several" in screen(app).status
        await pilot.press("a", "right", "a", "right", "a")  # red 5, green 5, yellow 9 …
        assert screen(app).status == ("To play together: R5 G5 Y9 (a: add or drop the card "
                                      "under the cursor, Enter: play them).")
        await pilot.press("a", "right", "a")  # … yellow 9 dropped, blue 5 added
        assert screen(app).query_one(HandView).picked == (0, 1, 3)
        await pilot.press("left", "enter")  # Enter plays the cards picked, wherever the cursor
        await settle(pilot, lambda: "R5" not in [c.code for c in game(app).hands[0]])
        now = game(app)
        assert [c.code for c in now.hands[0]] == ["Y9"]
        assert [c.code for c in now.discard[-3:]] == ["R5", "G5", "B5"]  # in the order picked
        assert now.color is not None
        assert now.color.label == "blue"  # the last card's colour

    run(body, app)


def test_a_pick_of_cards_that_do_not_go_together_says_why(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, options=Options(multi_play="numbers"),
                   the_deal=deal(["R5 G6 Y9", "G1 G2 G3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("a", "right", "a", "enter")  # red 5 and green 6
        await settle(pilot)
        assert screen(app).status.startswith("⚠ ")
        assert screen(app).status == "⚠ the cards of one play must all have one symbol"
        assert [c.code for c in game(app).hands[0]] == ["R5", "G6", "Y9"]

    run(body, app)


def test_a_seven_asks_whom_to_trade_with(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3, options=Options(seven_zero=True),
                   the_deal=deal(["R7 B1 B2", "G1 G2", "Y1 Y2 Y3 Y4"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        picker = app.screen
        assert isinstance(picker, SeatPicker)
        assert "with whom" in picker.title_text
        assert [label for label, _ in picker.choices] == ["Ada (2 cards)", "Ben (4 cards)"]
        await pilot.press("2")  # Ben
        await settle(pilot, lambda: Card.parse("R7") in game(app).discard)
        now = game(app)
        assert [c.code for c in now.hands[0]] == ["Y1", "Y2", "Y3", "Y4"]  # Ben's, now mine
        for code in ("B1", "B2"):  # mine, now Ben's (unless he has played one since)
            assert Card.parse(code) in now.hands[2] or Card.parse(code) in now.discard

    run(body, app)


def test_j_jumps_in_with_the_identical_card(tmp_path: Path) -> None:
    app = _slow_bots(tmp_path, deal(["G7 B1 B2", "Y1 Y2 Y3", "R1 R2 R4"], "G7", dealer=0),
                     players=3, options=Options(jump_in="numbers", multi_play="numbers"))

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: "jump in (j)" in screen(app).status)
        assert game(app).to_act == 1  # Ada's turn: she thinks
        assert screen(app).status == "Ada is thinking… You hold green 7: jump in (j)!"
        assert "j" in footer_keys(app)
        assert "a" not in footer_keys(app)  # several cards are played on one's own turn
        await pilot.press("j")
        await settle(pilot, lambda: Card.parse("G7") not in game(app).hands[0])
        assert [c.code for c in game(app).hands[0]] == ["B1", "B2"]
        assert game(app).to_act == 1  # play goes on from the jumper: Ada is next
        assert "j" not in footer_keys(app)

    run(body, app, settled=False)


def test_o_goes_out_when_the_numbers_add_up(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, options=Options(sum_out=True),
                   the_deal=deal(["R2 G3", "Y5 B9 G8"], "Y3", dealer=0))

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: "o: go out" in screen(app).status)
        assert "Ada played yellow 5" in log_text(app)
        assert "o" in footer_keys(app)
        await pilot.press("o")
        await settle(pilot, lambda: isinstance(app.screen, ScoreboardScreen))
        assert game(app).winner == 0
        assert game(app).hands[0] == []

    run(body, app)


def test_the_status_says_what_a_stack_is_made_of(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3, launcher="sim",
                   options=Options(rules="classic", stacking="same", multi_play="numbers"),
                   the_deal=deal(["B+2 Y4 Y5", "R+2 G9", "G+2 B8"], "R3", dealer=0,
                                 rules=CLASSIC, launcher="Y1 Y2 Y3 Y6 Y7 Y8 Y9 G1"))

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        assert screen(app).status == (
            "You owe 4 draws (two Draw Twos stacked (Ada, Ben)): draw (Space), or answer "
            "with a ✓ card.")
        assert "space" in footer_keys(app)
        assert screen(app).active_bindings["space"].binding.description == "Draw"
        assert "a" not in footer_keys(app)  # no play of several cards answers a stack (B3)
        assert screen(app).query_one(HandView).playable == frozenset({0})
        await pilot.press("1")  # stack my Draw Two: Ada owes the six
        await settle(pilot, lambda: "You played blue Draw Two" in log_text(app))
        await settle(pilot)
        assert "Ada drew 6 cards" in log_text(app)

    run(body, app)


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_the_helps_card_table_is_the_rule_sets_kinds_and_effects(rules: RuleSet) -> None:
    table = card_table(rules)
    assert table in help_markdown(Options(rules=rules.name))
    assert table.splitlines()[2:] == [f"| {kind.name} ({kind.symbol}) | {kind.effect} |"
                                      for kind in rules.kinds.values() if kind.number is None]
    skip = replace(rules.kinds["S"], effect="the next two players lose their turns")
    other = replace(rules, kinds={**rules.kinds, "S": skip})
    assert "| Skip (S) | the next two players lose their turns |" in card_table(other)


def test_the_help_tells_the_tables_rule_set_options_and_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, launcher="sim",
                   options=Options(rules="classic", stacking="same", uno_penalty=4),
                   the_deal=deal(["R5 G7", "Y1 Y2"], "R3", rules=CLASSIC))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        text = help_markdown(help_screen.options)
        assert text.startswith("# Classic UNO — help")
        assert "| Wild Draw Four (W+4) |" in text
        assert "| Hit 2 (H) |" not in text  # a card of Attack
        assert f"| stacking = same | {OPTION_SPECS['stacking'].help} |" in text
        assert "you draw 4." in text  # the UNO penalty, in the rule set's unit
        for key in ("| a |", "| j |", "| x |", "| p |", "| o |", "| u |", "| c |"):
            assert key in text

    run(body, app)


def test_challenging_a_fair_wild_draw_four_costs_six(tmp_path: Path) -> None:
    session = Session(game_config(tmp_path, players=2, launcher="sim",
                                  options=Options(rules="classic")))
    session.use_deal(deal(["R5 G2 Y7 B1", "W+4 G9 Y9"], "R3", dealer=0, rules=CLASSIC,
                          launcher="Y1 Y2 Y3 Y4 Y5 Y6 Y8 G1 G3 G4 G5"))
    session.players[1] = BluffingBot(session.names[1])  # no red card: a fair one
    app = UnoAttackApp(LocalTable(session))

    async def body(pilot: Pilot[Any]) -> None:
        assert "x" in footer_keys(app)
        await pilot.press("x")
        await settle(pilot, lambda: isinstance(app.screen, RevealScreen))
        reveal = app.screen
        assert isinstance(reveal, RevealScreen)
        assert [card.code for card in reveal.hand] == ["G9", "Y9"]
        assert "fair" in reveal.outcome
        await pilot.press("enter")
        await settle(pilot)
        assert screen(app).status == "You owe 6 draws (your challenge): draw (Space)."
        await pilot.press("space")
        await settle(pilot, lambda: "You drew 6 cards" in log_text(app))
        assert len(game(app).hands[0]) == 4 + 6

    run(body, app)
