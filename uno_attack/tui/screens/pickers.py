"""Pickers: a colour for a wild, a seat for a Trade Hands, a player to catch.

Each is a modal list of buttons; arrows move, Enter or a click chooses, a digit or the
colour's letter picks directly, Escape cancels (the screen then returns ``None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Button, Label

from uno_attack.cards import COLORS, Color
from uno_attack.tui.screens.once import OnceModal

T = TypeVar("T")


class ChoiceScreen(OnceModal[T | None], Generic[T]):
    """Choose one of a few labelled values."""

    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        Binding("escape", "cancel", "Cancel"),
        Binding("up,left", "app.focus_previous", "Previous", show=False),
        Binding("down,right", "app.focus_next", "Next", show=False),
    ]

    def __init__(self, title: str, choices: Sequence[tuple[str, T]], *,
                 keys: Sequence[str] = (), classes: Sequence[str] = ()) -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.keys = list(keys) or [str(i + 1) for i in range(len(choices))]
        self.button_classes = list(classes) or [""] * len(choices)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog picker"):
            yield Label(self.title_text, classes="dialog-title")
            for i, (label, _) in enumerate(self.choices):
                yield Button(f"{self.keys[i]}  {label}", id=f"choice-{i}",
                             classes=f"choice {self.button_classes[i]}".strip())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        index = int((event.button.id or "choice-0").removeprefix("choice-"))
        self.dismiss(self.choices[index][1])

    def on_key(self, event: Key) -> None:
        key = (event.character or "").lower()
        index = self.index_for_key(key) if key else None
        if index is not None:
            event.stop()
            event.prevent_default()
            self.dismiss(self.choices[index][1])

    def index_for_key(self, key: str) -> int | None:
        """The choice a typed key picks, if any."""
        return self.keys.index(key) if key in self.keys else None

    def action_cancel(self) -> None:
        self.dismiss(None)


class ColorPicker(ChoiceScreen[Color]):
    """Name the colour of a wild (keys r y g b, or 1-4)."""

    def __init__(self, card_name: str = "the wild") -> None:
        super().__init__(f"Name a colour for {card_name}",
                         [(f"{c.label.capitalize()} ({c.letter})", c) for c in COLORS],
                         keys=[c.letter.lower() for c in COLORS],
                         classes=[f"color-{c.label}" for c in COLORS])

    def index_for_key(self, key: str) -> int | None:
        if key in ("1", "2", "3", "4"):
            return int(key) - 1
        return super().index_for_key(key)


class SeatPicker(ChoiceScreen[int]):
    """Choose another seat: to trade hands with, or to catch."""

    def __init__(self, title: str, seats: Sequence[tuple[int, str]]) -> None:
        super().__init__(title, [(label, seat) for seat, label in seats])
