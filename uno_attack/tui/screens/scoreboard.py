"""Between rounds: each player's points this round and the match totals; at the end of
the match, its winner."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Label

from uno_attack.tui.screens.once import OnceModal


@dataclass(frozen=True)
class ScoreLine:
    name: str
    cards_left: int
    round_points: int
    total: int
    out: bool = False


class ScoreboardScreen(OnceModal[str]):
    """Returns ``"next"`` (deal the next round), ``"new"`` (a new match) or ``"quit"``."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter,space,n", "next", "Next round"),
        Binding("q", "finish", "Quit"),
    ]

    def __init__(self, title: str, lines: list[ScoreLine], *, winner: str | None,
                 round_no: int, target: int, mode: str) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.winner = winner
        self.round_no = round_no
        self.target = target
        self.mode = mode

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog scoreboard"):
            yield Label(self.title_text, classes="dialog-title")
            yield Label(f"Round {self.round_no} · {self.mode} match to {self.target}")
            table: DataTable[str] = DataTable(cursor_type="none", zebra_stripes=True)
            table.can_focus = False
            table.add_columns("player", "cards left", "this round", "total")
            for line in self.lines:
                name = line.name + (" (out)" if line.out else "")
                table.add_row(name, str(line.cards_left), str(line.round_points),
                              str(line.total))
            yield table
            if self.winner is not None:
                yield Label(f"★ {self.winner} the match! ★", classes="winner")
            with Horizontal(classes="buttons"):
                if self.winner is None:
                    yield Button("Next round (Enter)", id="next", variant="primary")
                else:
                    yield Button("New match (Enter)", id="new", variant="primary")
                yield Button("Quit (q)", id="quit")

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "next")

    def action_next(self) -> None:
        self.dismiss("next" if self.winner is None else "new")

    def action_finish(self) -> None:
        self.dismiss("quit")
