"""Between rounds: the match so far round by round, each player's total and level, who
went up a level; at the end of the match, its winner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Label

from uno_attack.tui.screens.once import OnceModal

if TYPE_CHECKING:
    from uno_attack.tui.app import UnoAttackApp


@dataclass(frozen=True)
class ScoreLine:
    """One player of the match: ``by_round`` holds their points of each round so far
    (``None`` for a round they were out of); ``cards_left`` is ``None`` when they did not
    sit in this round."""

    name: str
    cards_left: int | None
    by_round: tuple[int | None, ...]
    total: int
    out: bool = False
    level: str = ""


class ScoreboardScreen(OnceModal[str]):
    """Returns ``"next"`` (deal the next round), ``"new"`` (a new match) or ``"quit"``."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter,space,n", "next", "Next round"),
        Binding("q", "finish", "Quit"),
        Binding("s", "stats", "Stats"),
    ]

    app: UnoAttackApp  # type: ignore[assignment]

    def __init__(self, title: str, lines: list[ScoreLine], *, winner: str | None,
                 round_no: int, target: int, mode: str, news: tuple[str, ...] = ()) -> None:
        """``news`` are lines to announce, such as who went up a level."""
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.winner = winner
        self.round_no = round_no
        self.target = target
        self.mode = mode
        self.news = news

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog scoreboard"):
            yield Label(self.title_text, classes="dialog-title")
            yield Label(f"Round {self.round_no} · {self.mode} match to {self.target}")
            table: DataTable[str] = DataTable(cursor_type="none", zebra_stripes=True)
            table.can_focus = False
            rounds = max((len(line.by_round) for line in self.lines), default=0)
            table.add_columns("player", "cards left", *(f"R{n}" for n in range(1, rounds + 1)),
                              "total")
            for line in self.lines:
                name = line.name + (f" · {line.level}" if line.level else "")
                name += " (out)" if line.out else ""
                table.add_row(name, _shown(line.cards_left), *map(_shown, line.by_round),
                              str(line.total))
            yield table
            for news in self.news:
                yield Label(f"★ {news}", classes="news")
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

    def action_stats(self) -> None:
        self.app.show_stats()


def _shown(value: int | None) -> str:
    return "—" if value is None else str(value)
