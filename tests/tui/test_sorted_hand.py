"""The hand sorted by colour and value (``t``: as dealt, remembered), its new cards
marked until the end of your next turn, a 30-card hand read and reached whole at 80×24
(Home, End, PgUp, PgDn, a card's code typed), and opponents' counts said loudly past ten."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import deal, log_text, make_app, run, screen, screen_lines, settle
from tests.tui.test_hand import _card_on_screen
from uno_attack.cards import Card
from uno_attack.cli.play import build_app
from uno_attack.config import load_settings
from uno_attack.tui.arrivals import Arrivals, in_order
from uno_attack.tui.widgets.hand import HandView
from uno_attack.tui.widgets.seats import SeatBadge

#: 30 cards of the Attack deck, dealt in no order
BIG = [f"{c}{s}" for c in "RYG" for s in "123456789"] + ["BD", "WF", "W"]
random.Random(5).shuffle(BIG)
SORTED = [f"R{n}" for n in range(1, 10)] + [f"Y{n}" for n in range(1, 10)] + \
    [f"G{n}" for n in range(1, 10)] + ["BD", "W", "WF"]


def test_sorted_means_colour_then_numbers_then_symbols_then_wilds() -> None:
    hand = [Card.parse(code) for code in ["WF", "B2", "RS", "R9", "Y1", "R1", "W", "BD", "G5"]]
    assert [c.code for c in in_order(hand, sorted_hand=True)] == \
        ["R1", "R9", "RS", "Y1", "G5", "B2", "BD", "W", "WF"]
    assert in_order(hand, sorted_hand=False) == tuple(hand)


def test_a_sorted_30_card_hand_at_80_by_24_is_read_and_reached_whole(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, sorted_hand=True, launcher="fixed:1",
                   the_deal=deal([" ".join(BIG), "Y1 Y2 " + " ".join(["G1"] * 10)], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        view = screen(app).query_one(HandView)
        assert [card.code for card in view.cards] == SORTED
        badge = next(b for b in screen(app).query(SeatBadge) if b.info is not None)
        assert "10+ 12 cards" in badge.render().plain  # the opponent's count, loudly
        # every card, reached by End, Home and the arrows, is on screen, code and label
        await pilot.press("end")
        assert view.cursor == 29
        await pilot.press("home")
        for i, code in enumerate(SORTED):
            assert view.cursor == i
            assert _card_on_screen(view, i)
            assert code in "\n".join(screen_lines(app))
            await pilot.press("right")
        await pilot.press("home", "pagedown")
        assert view.cursor >= view.per_row()  # a page down is at least a row
        await pilot.press("pageup")
        assert view.cursor == 0
        await pilot.press("g", "7")  # a card's code typed
        assert view.cards[view.cursor].code == "G7"
        await pilot.press("w")  # W, WA, WF: on the first, waiting for more
        assert view.cards[view.cursor].code == "W"
        await pilot.press("f")
        assert view.cards[view.cursor].code == "WF"
        await pilot.press("b", "9")  # no such card: said, the cursor on the first blue
        assert view.cards[view.cursor].code == "BD"
        assert "No card B9 in your hand" in screen(app).status
        await pilot.press("r", "3", "enter")  # Enter plays the card reached
        await settle(pilot)
        assert "You played red 3" in log_text(app)

    run(body, app, size=(80, 24))


def test_a_digit_plays_the_card_shown_there(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, sorted_hand=True,
                   the_deal=deal(["G5 B1 R9 R5", "Y1 Y2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        assert [c.code for c in screen(app).query_one(HandView).cards] == \
            ["R5", "R9", "G5", "B1"]
        await pilot.press("2")
        await settle(pilot)
        assert "You played red 9" in log_text(app)

    run(body, app)


def test_t_shows_the_hand_as_dealt_and_the_choice_is_remembered(tmp_path: Path) -> None:
    app = build_app(["--quick", "--save", str(tmp_path / "game.json"), "--no-record",
                     "--bot-delay", "0", "--seed", "4", "--players", "2"])
    assert not app.sorted_hand  # as the suite's settings say
    hand: list[str] = []

    async def body(pilot: Pilot[Any]) -> None:
        view = screen(app).query_one(HandView)
        hand.extend(card.code for card in view.cards)
        await pilot.press("t")
        assert list(view.cards) == list(in_order(view.cards, sorted_hand=True))
        assert Counter(c.code for c in view.cards) == Counter(hand)
        assert "sorted by colour and value" in screen(app).status

    run(body, app)
    assert load_settings().hand_order == "sorted"
    assert build_app(["--quick", "--save", str(tmp_path / "game2.json"), "--no-record",
                      "--players", "2"]).sorted_hand


def test_a_fired_card_is_marked_until_the_end_of_your_next_turn(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, sorted_hand=True, launcher="fixed:1",
                   the_deal=deal(["B5 B6", "G1 G2 G4 G5"], "R3", launcher="R7 Y7 Y8 Y9"))

    async def body(pilot: Pilot[Any]) -> None:
        view = screen(app).query_one(HandView)
        assert not view.arrived
        await pilot.press("space")  # nothing to play: the launcher fires R7 to you
        await settle(pilot)
        assert view.cards[0].code == "R7"
        assert view.arrived == {0}
        assert "• just came" in str(screen(app).query_one("#hand-title").render())
        assert "•R7" not in "".join(screen_lines(app))  # the mark is on its label line
        assert any("•" in line for line in screen_lines(app))

    run(body, app)


def test_arrivals_last_until_the_end_of_the_next_turn() -> None:
    r5, g2, y7 = (Card.parse(c) for c in ("R5", "G2", "Y7"))
    arrivals = Arrivals()
    arrivals.update(1, [r5], my_turn=False)      # the deal: nothing is news
    assert arrivals.marked((r5,)) == frozenset()
    arrivals.update(1, [r5, g2], my_turn=False)  # fired at you on another's turn
    arrivals.update(1, [r5, g2], my_turn=True)   # your turn: still news
    assert arrivals.marked((r5, g2)) == {1}
    arrivals.update(1, [r5, g2, y7], my_turn=True)  # you press: Y7 comes
    arrivals.update(1, [r5, g2, y7], my_turn=False)  # your turn ends: G2 is old news
    assert arrivals.marked((r5, g2, y7)) == {2}
    arrivals.update(1, [r5, g2, y7], my_turn=True)
    arrivals.update(1, [g2, y7], my_turn=False)  # the next one ends: nothing is news
    assert arrivals.marked((g2, y7)) == frozenset()
    arrivals.update(2, [r5, g2, y7], my_turn=False)  # a new deal
    assert arrivals.marked((r5, g2, y7)) == frozenset()
