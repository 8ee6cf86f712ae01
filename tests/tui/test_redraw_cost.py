"""What a key or a change of the game redraws: only what changed, so that a slow board
answers a key at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from tests.tui.helpers import make_app, run, screen, settle, table
from uno_attack.tui.screens.dialogs import HelpScreen


def test_the_help_is_built_once_and_opens_and_closes_again(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, launcher="sim")

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("question_mark")
        first = app.screen
        assert isinstance(first, HelpScreen)
        text = first.query_one("#help-text")
        await pilot.press("question_mark")
        await settle(pilot, lambda: app.screen is screen(app))
        await pilot.press("question_mark")
        assert app.screen is first
        assert first.query_one("#help-text") is text  # the same widget, not built anew
        await pilot.press("escape")  # it closes again, as the first time
        await settle(pilot, lambda: app.screen is screen(app))

    run(body, app)


def test_a_change_that_leaves_the_keys_as_they_were_keeps_the_footer(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, launcher="sim")

    async def body(pilot: Pilot[Any]) -> None:
        keys = list(screen(app).query(FooterKey))
        assert keys
        table(app).flow.note("a line for the log: the keys stay")
        await settle(pilot, lambda: "a line for the log: the keys stay" in screen(app).log_lines)
        await pilot.pause()
        assert list(screen(app).query(FooterKey)) == keys

    run(body, app)
