"""The first screen when a saved game was not finished: resume it, or start anew and
keep it beside (``game.previous.json``), so a new game never overwrites one unasked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Label

from uno_attack.journal import previous_path
from uno_attack.saved_game import SavedGame
from uno_attack.tui.screens.once import OnceScreen

if TYPE_CHECKING:
    from uno_attack.tui.control import TableControl


@dataclass(frozen=True)
class SavedGameOffer:
    """An unfinished saved game, and how to go on with it (a new game is the app's)."""

    saved: SavedGame
    resume: Callable[[], TableControl]


class StartScreen(OnceScreen[str]):
    """Returns ``"resume"``, ``"new"`` or ``"quit"``."""

    BINDINGS = [  # noqa: RUF012
        Binding("r", "choose('resume')", "Resume"),
        Binding("n", "choose('new')", "New game"),
        Binding("q,escape", "choose('quit')", "Quit"),
    ]
    AUTO_FOCUS = "#resume"

    def __init__(self, saved: SavedGame) -> None:
        super().__init__()
        self.saved = saved

    def compose(self) -> ComposeResult:
        path = self.saved.path
        with Vertical(classes="dialog start"):
            yield Label("A saved game was not finished", classes="dialog-title")
            yield Label(f"{path}: {self.saved.summary()}.", id="saved-summary")
            yield Button("Resume it (r)", id="resume", variant="primary")
            yield Button(f"Start a new game (n), keeping this one as {previous_path(path).name}",
                         id="new")
            yield Button("Quit (q)", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "quit")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
