"""The hand on screen: the cursor keeps to a card, and arrows reach every card however
large the hand grows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.geometry import Region
from textual.pilot import Pilot

from tests.tui.helpers import deal, log_text, make_app, run, screen, settle, steps
from uno_attack.tui.widgets.hand import CARD_W, GAP, HandView


def _card_on_screen(view: HandView, index: int) -> bool:
    """The card at ``index`` lies inside the part of the hand panel that is shown."""
    row, col = divmod(index, view.per_row())
    card = Region(view.region.x + col * (CARD_W + GAP), view.region.y + row * view.row_height(),
                  CARD_W, view.row_height())
    panel = view.parent
    assert panel is not None
    screen = view.screen.region
    return panel.content_region.contains_region(card) and screen.contains_region(card)


def test_arrows_reach_every_card_of_a_hand_larger_than_the_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path, launcher="fixed:4", seed=3)

    async def body(pilot: Pilot[Any]) -> None:
        view = screen(app).query_one(HandView)
        while len(view.cards) < 36:  # press on every turn: the hand outgrows the screen
            await pilot.press("space")
            await settle(pilot)
        start = view.cursor
        for step in range(1, len(view.cards)):
            await pilot.press("right")
            assert view.cursor == start + step
            assert _card_on_screen(view, view.cursor)
        await pilot.press("left")
        assert view.cursor == len(view.cards) - 2
        assert _card_on_screen(view, view.cursor)

    run(body, app, size=(80, 24))


def test_after_the_right_most_card_is_played_the_cursor_stays_on_a_card(
        tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["B7 G1 R7", "B1 B2 B3 B4"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        view = screen(app).query_one(HandView)
        await pilot.press("right", "right", "enter")  # R7, the last card
        await settle(pilot)
        assert "You played red 7" in log_text(app)
        assert view.cursor == len(view.cards) - 1
        assert "▶" in str(view.render())
        before = screen(app).message
        await pilot.press("enter")  # the card under the cursor: played, or why not
        await settle(pilot)
        assert screen(app).message != before or steps(app) > 2

    run(body, app)


def test_a_hand_of_27_cards_at_100_by_30_keeps_every_label_and_mark_and_every_key(
        tmp_path: Path) -> None:
    codes = [f"{colour}{n}" for colour in "GBR" for n in range(1, 10)]  # red 9 is last
    app = make_app(tmp_path, players=2, the_deal=deal([" ".join(codes), "Y1 Y2"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        view = screen(app).query_one(HandView)
        assert len(view.cards) == 27
        per_row = view.per_row()
        assert view.rows() == 3
        lines = view.render().plain.split("\n")
        assert len(lines) == view.rows() * view.row_height()
        playable = {i for i, code in enumerate(codes) if code[0] == "R" or code[1] == "3"}
        for i, code in enumerate(codes):
            row, col = divmod(i, per_row)
            top, bottom = lines[row * view.row_height()], lines[(row + 1) * view.row_height() - 1]
            cell = slice(col * (CARD_W + GAP), col * (CARD_W + GAP) + CARD_W)
            assert code in top[cell], (i, top)                       # its code,
            assert ("✓" in top[cell]) == (i in playable), (i, top)  # its mark on it,
            assert bottom[cell].strip() == code[1], (i, bottom)      # its label under it
            assert _card_on_screen(view, i)
        status = str(screen(app).query_one("#status").render())
        assert "Home End" in status
        await pilot.press("end")
        assert view.cursor == 26
        await pilot.press("home")
        assert view.cursor == 0
        await pilot.press("end", "enter")  # the 27th card, which no digit reaches
        await settle(pilot)
        assert "You played red 9" in log_text(app)

    run(body, app, size=(100, 30))
