"""The first run's question: who plays at this keyboard. The names are remembered (the
settings file), so the leaderboard knows people by name rather than as "You"; the
new-game screen changes them."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from uno_attack.errors import UnoAttackError
from uno_attack.tui.screens.newgame import parse_people
from uno_attack.tui.screens.once import OnceScreen


class NamesScreen(OnceScreen[list[str]]):
    """Returns the names typed (at least one), or ``None`` (quit)."""

    BINDINGS = [Binding("escape", "quit", "Quit")]  # noqa: RUF012
    AUTO_FOCUS = "#names"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog names"):
            yield Label("Welcome to UNO Attack", classes="dialog-title")
            yield Label("Who plays at this keyboard? Type your name (friends taking turns "
                        "here: Ann, Bob) and press Enter.")
            yield Input(placeholder="your name", id="names")
            yield Label("", id="names-problem", classes="error")
            yield Label("Your records and level are kept under this name; change it on "
                        "the new-game screen.", classes="muted")

    def on_mount(self) -> None:
        self.query_one("#names-problem").display = False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            names = parse_people(event.value)
            if not names:
                raise UnoAttackError("type at least one name")
        except UnoAttackError as exc:
            problem = self.query_one("#names-problem", Label)
            problem.update(f"⚠ {exc}")
            problem.display = True
            self.app.bell()
            return
        self.dismiss(names)

    def action_quit(self) -> None:
        self.dismiss(None)
