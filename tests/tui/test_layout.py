"""Everything fits: at 80×24 and 200×50 every part of the table is on screen, and a
large hand still shows every card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import deal, make_app, run, screen, screen_lines
from uno_attack.tui.widgets.hand import HandView
from uno_attack.tui.widgets.seats import SeatBadge

BIG_HAND = " ".join(f"{c}{n}" for c in "RBG" for n in range(1, 10))  # 27 cards


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
@pytest.mark.parametrize("hand", ["R5 G7 B2", BIG_HAND])
def test_the_table_fits(tmp_path: Path, size: tuple[int, int], hand: str) -> None:
    app = make_app(tmp_path, the_deal=deal([hand, "Y1 Y2", "Y3 Y4", "Y5 Y6"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        table_screen = screen(app)
        width, height = size
        for part in ("#seats", "#pile", "#launcher", "#log", "#status", "#hand-panel"):
            region = table_screen.query_one(part).region
            assert region.width > 0, part
            assert region.height > 0, part
            assert region.right <= width, part
            assert region.bottom <= height - 1, part  # the footer keeps the last line
        view = table_screen.query_one(HandView)
        panel = table_screen.query_one("#hand-panel")
        assert view.region.height == view.rows() * view.row_height()
        assert view.region.bottom <= panel.region.bottom - 1  # no card hidden below
        assert view.index_at(0, 0) == 0
        last = len(view.cards) - 1
        row, col = divmod(last, view.per_row())
        assert view.index_at(col * 7 + 1, row * view.row_height()) == last

    run(body, app, size=size)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (200, 50)])
@pytest.mark.parametrize("players", [8, 10])
def test_every_opponent_is_seen_and_can_be_clicked(tmp_path: Path, size: tuple[int, int],
                                                   players: int) -> None:
    hands = ["R5 G7 B2"] + [f"Y{n} B{n}" for n in range(1, players)]
    app = make_app(tmp_path, players=players, the_deal=deal(hands, "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        table_screen = screen(app)
        badges = list(table_screen.query(SeatBadge))
        assert len(badges) == players - 1
        names = []
        for badge in badges:
            region = badge.region
            assert region.height >= 2, badge.info
            assert region.bottom <= size[1] - 1, badge.info
            # what a click on it reaches is this badge: it is on screen, not scrolled away
            for y in range(region.y, region.bottom):
                widget, _ = table_screen.get_widget_at(region.x + 2, y)
                assert widget is badge, (badge.info, y)
            assert badge.info is not None
            names.append(badge.info.name)
        shown = "\n".join(screen_lines(app))
        for name in names:
            assert name in shown
        for part in ("#pile", "#log", "#status", "#hand-panel"):
            assert table_screen.query_one(part).region.height > 0, part

    run(body, app, size=size)
