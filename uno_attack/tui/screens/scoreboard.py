"""Between rounds: the match so far round by round, each player's total and level, who
went up a level; at the end of the match, its winner."""

from __future__ import annotations

from collections.abc import Callable

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Label

from uno_attack.tui.control import Scoreboard
from uno_attack.tui.screens.once import OnceModal


class ScoreboardScreen(OnceModal[str]):
    """Returns ``"next"`` (deal the next round), ``"new"`` (a new match) or ``"quit"``.

    ``show_records`` opens the players' records (key ``s``).
    """

    BINDINGS = [  # noqa: RUF012
        Binding("enter,space,n", "next", "Next round"),
        Binding("q", "finish", "Quit"),
        Binding("s", "stats", "Stats"),
    ]
    # the first button takes the focus once composed (and nothing fails when a screen
    # pushed as the app exits is never composed)
    AUTO_FOCUS = "Button"

    def __init__(self, board: Scoreboard, *, show_records: Callable[[], None],
                 can_start_new: bool = True) -> None:
        super().__init__()
        self.board = board
        self.show_records = show_records
        self.can_start_new = can_start_new

    def compose(self) -> ComposeResult:
        board = self.board
        with Vertical(classes="dialog scoreboard"):
            # names (a host's, or typed) are text, never markup
            yield Label(board.title, classes="dialog-title", markup=False)
            yield Label(f"Round {board.round_no} · {board.mode} match to {board.target}")
            table: DataTable[str] = DataTable(cursor_type="none", zebra_stripes=True)
            table.can_focus = False
            rounds = max((len(line.by_round) for line in board.lines), default=0)
            table.add_columns("player", "cards left", *(f"R{n}" for n in range(1, rounds + 1)),
                              "total")
            for line in board.lines:
                name = line.name + (f" · {line.level}" if line.level else "")
                name += " (out)" if line.out else ""
                table.add_row(escape(name), _shown(line.cards_left), *map(_shown, line.by_round),
                              str(line.total))
            yield table
            for news in board.news:
                yield Label(f"★ {news}", classes="news", markup=False)
            if board.winner is not None:
                yield Label(f"★ {board.winner} the match! ★", classes="winner", markup=False)
            if board.next_round is not None and board.winner is None:
                yield Label(board.next_round, id="next-round")
            with Horizontal(classes="buttons"):
                if board.winner is None:
                    label = "Next round (Enter)" if board.next_round is None else "Close (Enter)"
                    yield Button(label, id="next", variant="primary")
                elif self.can_start_new:
                    yield Button("New match (Enter)", id="new", variant="primary")
                yield Button("Quit (q)", id="quit")

    def show(self, board: Scoreboard) -> None:
        """Draw this board instead (the same round, with what its recording found)."""
        if board != self.board:
            self.board = board
            self.refresh(recompose=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "next")

    def action_next(self) -> None:
        if self.board.winner is None:
            self.dismiss("next")
        elif self.can_start_new:
            self.dismiss("new")

    def action_finish(self) -> None:
        self.dismiss("quit")

    def action_stats(self) -> None:
        self.show_records()


def _shown(value: int | None) -> str:
    return "—" if value is None else str(value)
