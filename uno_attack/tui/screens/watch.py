"""The table screen over a replay (:class:`~uno_attack.tui.watch.ReplayTable`): the same
table, the hand of the player to act, every other hand beside it, and keys that move
through the round instead of playing it."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets import Label, Static

from uno_attack.tui.screens.table import TableScreen
from uno_attack.tui.seen import Seen
from uno_attack.tui.watch import SPEEDS, ReplayTable
from uno_attack.tui.widgets.cardfaces import card_chips
from uno_attack.wording import count

_WATCH_ACTIONS = {"step", "step_to", "toggle_playing", "faster", "help", "quit_game",
                  "toggle_order"}


class WatchScreen(TableScreen):
    """Dismissed never: ``q`` ends the app."""

    BINDINGS = [  # noqa: RUF012
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("right", "step(1)", "On", priority=True),
        Binding("home", "step_to(0)", "Deal", priority=True),
        Binding("end", "step_to(-1)", "End", priority=True),
        Binding("space", "toggle_playing", "Play/pause", priority=True),
        Binding("plus,equals_sign", "faster(1)", "Faster"),
        Binding("minus", "faster(-1)", "Slower"),
    ]

    def __init__(self, table: ReplayTable) -> None:
        super().__init__(table, sorted_hand=True)
        self.replay = table

    def on_mount(self) -> None:
        self.mount(Static(id="all-hands", classes="panel"), after="#status")
        self.query_one("#all-hands").border_title = "Every other hand"
        super().on_mount()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys of watching: a replay is not played."""
        return action in _WATCH_ACTIONS

    def _draw(self, seen: Seen) -> None:
        super()._draw(seen)
        game = self.replay.frame.game
        text = Text()
        for seat, hand in enumerate(game.hands):
            if seat == seen.seat:
                continue
            if text:
                text.append("\n")
            text.append(f"{seen.name(seat)}: ", "bold")
            text.append_text(card_chips(hand) if hand else Text("(out)", "dim"))
        if self.query("#all-hands"):
            self.query_one("#all-hands", Static).update(text)

    def _draw_hand_title(self, seen: Seen) -> None:
        seat = seen.seat
        if seat is None:
            return
        game = self.replay.frame.game
        whose = "to play" if game.winner is None else "went out"
        self.query_one("#hand-title", Label).update(
            f"{seen.name(seat)}'s hand ({whose}) · {count(len(game.hands[seat]), 'card')}")

    @property
    def status(self) -> str:
        replay = self.replay
        state = (f"playing, {SPEEDS[replay.speed]:g} s a step" if replay.playing
                 else "paused")
        return (f"Step {replay.position} of {replay.last} ({state}) · ← → step · Home: the "
                "deal · End: the end · Space: play/pause · + -: speed · q: quit")

    def on_key(self, event: events.Key) -> None:
        """(No card codes to type: nothing is played here.)"""

    def action_step(self, steps: int) -> None:
        self.replay.playing = False
        self.replay.go(self.replay.position + steps)

    def action_step_to(self, position: int) -> None:
        self.replay.playing = False
        self.replay.go(position if position >= 0 else self.replay.last)

    def action_toggle_playing(self) -> None:
        self.replay.toggle_playing()

    def action_faster(self, steps: int) -> None:
        self.replay.faster(steps)

    def action_quit_game(self) -> None:
        self.app.exit()
