"""Small dialogs: the hot-seat hand-off, quit confirmation, help, launcher and save
problems, and a challenged hand."""

from __future__ import annotations

from pathlib import Path

from rich.markdown import Markdown as RichMarkdown
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Click, Key, ScreenResume
from textual.reactive import reactive
from textual.widgets import Button, Input, Label, Static

from uno_attack.cards import Card
from uno_attack.journal import SaveFailure
from uno_attack.options import Options
from uno_attack.tui.help_text import help_markdown
from uno_attack.tui.screens.once import InfoModal, InfoScreen, OnceModal, OnceScreen
from uno_attack.tui.widgets.cardfaces import card_chips
from uno_attack.tui.widgets.prerendered import PrerenderedText

#: the longest path a dialog shows whole (three lines of a narrow dialog)
PATH_LIMIT = 180
#: the help's columns of text, whatever the terminal's width: a reading width, and what
#: the help fits in at 80 columns (so it is rendered before it is laid out)
HELP_WIDTH = 64


def _ready(name: str) -> Content:
    """The hand-off button's label: a name is text, never markup (``[b]x`` is a name)."""
    return Content(f"I am {name} — show my cards")


class HandoffScreen(OnceScreen[None]):
    """Hides the table until the next person at the keyboard says they are ready (the
    person asked for may change meanwhile: a catch makes someone else owe first)."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter,space", "ready", "I'm ready"),
        Binding("q", "app.ask_quit", "Quit"),
    ]

    player: reactive[str] = reactive("", init=False)

    def __init__(self, name: str) -> None:
        super().__init__()
        self.set_reactive(HandoffScreen.player, name)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog handoff"):
            yield Label(f"Pass the keyboard to {self.player}", classes="dialog-title",
                        id="handoff-title", markup=False)
            yield Label("Everyone else, look away: the next screen shows a hand.")
            yield Button(_ready(self.player), id="ready", variant="primary")

    def watch_player(self, name: str) -> None:
        self.query_one("#handoff-title", Label).update(f"Pass the keyboard to {name}")
        self.query_one("#ready", Button).label = _ready(name)

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
    AUTO_FOCUS = "#retry"

    def __init__(self, failure: SaveFailure) -> None:
        super().__init__()
        self.failure = failure

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog problem"):
            yield Label("The game could not be saved", classes="dialog-title")
            # the reason first, on its own line: a long path must not push it away
            yield Label(f"{self.failure.reason}.", id="save-reason", classes="error")
            yield Label("The last good save is kept as it was, in:")
            yield Label(shorten_path(self.failure.path), id="save-path")
            yield Label("Free some space or mend the folder, then try again; or keep "
                        "playing, and every move tries to save again.")
            with Horizontal(classes="buttons"):
                yield Button("Try again (r)", id="retry", variant="primary")
                yield Button("Keep playing (k)", id="play", variant="warning")
                yield Button("Quit (q)", id="quit", variant="error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "play")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


def shorten_path(path: Path, limit: int = PATH_LIMIT) -> str:
    """The path, its middle left out when it is longer than ``limit`` characters (its
    start and its file name stay: the dialog must keep room for the reason and the
    choices; the log holds the whole path)."""
    text = str(path)
    if len(text) <= limit:
        return text
    tail = limit * 2 // 3
    return f"{text[:limit - tail - 1]}…{text[-tail:]}"


class HelpScreen(InfoScreen):
    """The rules in short (of the table's rule set and options) and every key.

    The table screen makes it before it is asked for and keeps it. Its markdown is
    rendered into lines once; it is styled again only in a new theme; and as a full
    screen its opening draws only itself, not also the table below, tinted, as a modal
    would. On a slow board each of these took a good part of a second at every opening.
    Its close button is a label: see ``.help .close`` in the stylesheet."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]  # noqa: RUF012
    AUTO_FOCUS = "#help-text"  # arrows and PgUp/PgDn scroll the text

    def __init__(self, options: Options) -> None:
        super().__init__()
        self.options = options
        self.text = PrerenderedText(RichMarkdown(help_markdown(options)), HELP_WIDTH,
                                    id="help-text")
        self._styled_theme: str | None = None  # the theme it was last styled in

    def prerender(self) -> None:
        """Render its text now (when the table is idle)."""
        self.text.prerender()

    def on_screen_resume(self, event: ScreenResume) -> None:
        self._dismiss_started = False  # the table screen shows it again: it closes once more
        # (this runs before Textual's own handler, which restyles a screen at each push,
        # so that every line is rendered anew) nothing restyles it while it is hidden:
        # only a theme changed meanwhile calls for it
        event.refresh_styles = self._styled_theme != self.app.theme
        self._styled_theme = self.app.theme

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield self.text
            yield Label("Close (Esc)", id="close", classes="close")

    def on_click(self, event: Click) -> None:
        if event.widget is not None and event.widget.id == "close":
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
            yield Label(self.message, id="problem-message", markup=False)
            yield Label("How many cards came out in all? Type it and press Enter, or retry.")
            yield Input(placeholder=f"{self.fired} (counted so far)", id="count", type="integer")
            with Horizontal(classes="buttons"):
                yield Button("Retry (r)", id="retry", variant="warning",
                             disabled=not self.can_retry)
                yield Button("Use this count", id="use", variant="primary")
            yield Label("", id="problem-error", classes="error")

    def on_mount(self) -> None:
        # (a query, not query_one: a dialog pushed as the app exits is never composed)
        for first in self.query("#retry" if self.can_retry else "#count").results():
            first.focus()

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


class RevealScreen(InfoModal):
    """The hand of a player whose Wild Draw Four was challenged, shown to the challenger
    (VARIANTS.md A5), with what the challenge came to."""

    BINDINGS = [Binding("enter,escape,space", "close", "Close")]  # noqa: RUF012

    def __init__(self, name: str, hand: tuple[Card, ...], outcome: str) -> None:
        super().__init__()
        self.player = name
        self.hand = hand
        self.outcome = outcome

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog reveal"):
            yield Label(f"{self.player}'s hand, shown for your challenge",
                        classes="dialog-title", markup=False)
            yield Static(card_chips(self.hand), id="revealed-hand")
            yield Label(self.outcome, id="challenge-outcome", markup=False)
            yield Button("Close (Enter)", id="close", variant="primary")


class HintScreen(InfoModal):
    """What the hard bot would do in your place (:mod:`uno_attack.tui.hints`)."""

    BINDINGS = [Binding("enter,escape,space,h", "close", "Close")]  # noqa: RUF012

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog hint"):
            yield Label("A hint", classes="dialog-title")
            yield Static("\n".join(self.lines), id="hint-lines", markup=False)
            yield Label("The bot sees only what you see: it deals the cards you cannot "
                        "see anew for each playout.", classes="muted")
            yield Button("Close (Enter)", id="close", variant="primary")
