"""The players' records (key ``s``): each person at the table, from the player store."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Button, Label, Static

from uno_attack.store import PlayerStats
from uno_attack.store.text import summary_lines
from uno_attack.tui.screens.once import InfoModal


class StatsScreen(InfoModal):
    """Shows ``records`` (name → record, ``None`` for someone with nothing recorded yet),
    or ``note`` when the store is not in use."""

    BINDINGS = [Binding("escape,s,q", "close", "Close")]  # noqa: RUF012

    def __init__(self, records: dict[str, PlayerStats | None], *, note: str | None) -> None:
        super().__init__()
        self.records = records
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog stats"):
            yield Label("Players' records", classes="dialog-title")
            with VerticalScroll():
                if self.note is not None:
                    yield Static(self.note, classes="note")
                for name, stats in self.records.items():
                    text = (f"{name} · nothing recorded yet" if stats is None
                            else "\n".join(summary_lines(stats)))
                    yield Static(text, classes="record")
            yield Button("Close (Esc)", id="close", variant="primary")
