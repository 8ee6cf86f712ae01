"""What a key or a change of the game redraws: only what changed, so that a slow board
answers a key at once."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from tests.tui.helpers import make_app, run, screen, settle, table
from uno_attack.tui.screens.dialogs import HelpScreen
from uno_attack.tui.widgets.prerendered import PrerenderedText


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


def test_the_help_is_made_once_the_table_is_drawn_and_the_key_only_shows_it(
        tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, launcher="sim")

    async def body(pilot: Pilot[Any]) -> None:
        table_screen = screen(app)
        await settle(pilot, lambda: table_screen._help is not None)
        made = table_screen._help
        assert made is not None
        assert app.screen is table_screen
        # composed, styled and laid out, its text rendered, before anyone asked for it
        assert made.is_running
        text = made.query_one("#help-text", PrerenderedText)
        assert text.size.width == text.text_width + text.styles.scrollbar_size_vertical
        assert 0 < text.size.height < len(text.lines)
        focused = app.focused
        await pilot.press("question_mark")
        assert app.screen is made  # shown, not made anew
        assert made.query_one("#help-text") is text
        assert app.focused is text
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is table_screen)
        assert app.focused is focused  # the table as it was left

    run(body, app)


def test_the_help_opens_on_an_opaque_screen_that_is_not_restyled_again(
        tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, launcher="sim")

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert help_screen.styles.background.a == 1  # nothing of the table below is drawn
        text = help_screen.query_one("#help-text")
        assert text.styles.padding.left == 0
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is screen(app))
        app.stylesheet.add_source("PrerenderedText { padding: 0 1; }", read_from=("t", "t"))
        await pilot.press("question_mark")
        assert text.styles.padding.left == 0  # the theme it was styled in: not styled again
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is screen(app))
        app.theme = "textual-light"
        await pilot.press("question_mark")
        assert text.styles.padding.left == 1  # another theme: styled again

    run(body, app)


def test_what_the_table_made_by_its_first_drawing_is_kept_out_of_collections(
        tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, launcher="sim")

    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: gc.get_freeze_count() > 0)

    run(body, app)
    assert gc.get_freeze_count() == 0  # the table closed: its cycles can go
