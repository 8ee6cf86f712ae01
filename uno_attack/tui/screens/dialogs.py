"""Small dialogs: the hot-seat hand-off, quit confirmation, help, and launcher and save
problems."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.widgets import Button, Input, Label, Markdown

from uno_attack.journal import SaveFailure
from uno_attack.tui.help_text import HELP_MARKDOWN
from uno_attack.tui.screens.once import OnceModal, OnceScreen


class HandoffScreen(OnceScreen[None]):
    """Hides the table until the next person at the keyboard says they are ready."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter,space", "ready", "I'm ready"),
        Binding("q", "app.ask_quit", "Quit"),
    ]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog handoff"):
            yield Label(f"Pass the keyboard to {self.player}", classes="dialog-title")
            yield Label("Everyone else, look away: the next screen shows a hand.")
            yield Button(f"I am {self.player} — show my cards", id="ready", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)


class QuitScreen(OnceModal[bool]):
    """Quit for real? The game is already saved, so this only says how to come back."""

    BINDINGS = [  # noqa: RUF012
        Binding("y,q", "answer(True)", "Quit"),
        Binding("n,escape", "answer(False)", "Stay"),
    ]

    def __init__(self, save_hint: str) -> None:
        super().__init__()
        self.save_hint = save_hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog quit"):
            yield Label("Quit the game?", classes="dialog-title")
            yield Label(self.save_hint)
            with Horizontal(classes="buttons"):
                yield Button("Quit (y)", id="yes", variant="error")
                yield Button("Keep playing (n)", id="no", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class SaveProblemScreen(OnceModal[str]):
    """The save failed: try again, play on unsaved (every action tries again), or quit.

    Returns ``"retry"``, ``"play"`` or ``"quit"``.
    """

    BINDINGS = [  # noqa: RUF012
        Binding("r", "choose('retry')", "Try again"),
        Binding("k,escape", "choose('play')", "Keep playing"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, failure: SaveFailure) -> None:
        super().__init__()
        self.failure = failure

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog problem"):
            yield Label("The game could not be saved", classes="dialog-title")
            yield Label(f"{self.failure}.", id="save-failure")
            yield Label(f"The last save in {self.failure.path} is kept as it was. Free some "
                        "space or mend the folder, then try again; or keep playing, and "
                        "every move tries to save again.")
            with Horizontal(classes="buttons"):
                yield Button("Try again (r)", id="retry", variant="primary")
                yield Button("Keep playing (k)", id="play", variant="warning")
                yield Button("Quit (q)", id="quit", variant="error")

    def on_mount(self) -> None:
        self.query_one("#retry", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "play")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class HelpScreen(OnceModal[None]):
    """The rules in short and every key."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]  # noqa: RUF012

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            with VerticalScroll():
                yield Markdown(HELP_MARKDOWN)
            yield Button("Close (Esc)", id="close", variant="primary")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()  # arrows and PgUp/PgDn scroll the text

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class LauncherProblemScreen(OnceModal[tuple[str, int]]):
    """The launcher stopped short or lost count: retry, or say how many came out.

    Returns ``("retry", 0)`` or ``("count", n)``.
    """

    BINDINGS = [Binding("r", "retry", "Retry")]  # noqa: RUF012

    def __init__(self, message: str, *, fired: int, can_retry: bool = True) -> None:
        super().__init__()
        self.message = message
        self.fired = fired
        self.can_retry = can_retry

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog problem"):
            yield Label("Launcher problem", classes="dialog-title")
            yield Label(self.message, id="problem-message")
            yield Label("How many cards came out in all? Type it and press Enter, or retry.")
            yield Input(placeholder=f"{self.fired} (counted so far)", id="count", type="integer")
            with Horizontal(classes="buttons"):
                yield Button("Retry (r)", id="retry", variant="warning",
                             disabled=not self.can_retry)
                yield Button("Use this count", id="use", variant="primary")
            yield Label("", id="problem-error", classes="error")

    def on_mount(self) -> None:
        if self.can_retry:
            self.query_one("#retry", Button).focus()
        else:
            self.query_one(Input).focus()

    def on_key(self, event: Key) -> None:
        """A digit typed anywhere goes into the count (Retry keeps the focus for ``r``)."""
        box = self.query_one(Input)
        digit = event.character or ""
        if digit.isdigit() and not box.has_focus:
            event.stop()
            box.focus()
            box.value += digit
            box.cursor_position = len(box.value)

    def _submit_count(self) -> None:
        text = self.query_one(Input).value.strip() or str(self.fired)
        if not text.isdigit():
            self.query_one("#problem-error", Label).update(f"{text!r} is not a count of cards")
            return
        self.dismiss(("count", int(text)))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit_count()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "retry":
            self.action_retry()
        else:
            self._submit_count()

    def action_retry(self) -> None:
        if self.can_retry:
            self.dismiss(("retry", 0))
