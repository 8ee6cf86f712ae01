"""The other players around the table: name, cards (always; past ten, loudly "10+"),
score, turn marker and UNO badge."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from uno_attack.wording import count

LOUD = 10  # a hand of more cards than this is said loudly: "10+"


@dataclass(frozen=True)
class SeatInfo:
    """What the table shows of one seat."""

    seat: int
    name: str
    cards: int
    score: int
    to_act: bool = False
    uno: bool = False       # holds one card
    called: bool = False    # … and called UNO for it
    catchable: bool = False  # holds one card and has not called UNO: catch now!
    owes: str = ""
    level: int | None = None  # a person's level in the player store
    away: bool = False        # a hosted table's person who is away: a bot plays for them


class SeatBadge(Widget):
    """One opponent; clicking it while it can be caught catches it."""

    info: reactive[SeatInfo | None] = reactive(None)

    class Clicked(Message):
        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def watch_info(self, info: SeatInfo | None) -> None:
        self.set_class(bool(info and info.to_act), "-to-act")
        self.set_class(bool(info and info.catchable), "-catchable")

    def render(self) -> Text:
        info = self.info
        if info is None:
            return Text()
        text = Text()
        text.append("▶ " if info.to_act else "  ", "bold")
        text.append(info.name, "bold")
        if info.level is not None:
            text.append(f" L{info.level}", "dim")
        if info.catchable:
            text.append(" forgot UNO!", "bold reverse red")
        elif info.uno and info.called:
            text.append(" UNO!", "bold yellow")
        text.append("\n  ")
        if info.cards > LOUD:  # as the app does: a hand past ten is a threat no more
            text.append(f"{LOUD}+", "bold reverse magenta")
            text.append(f" {info.cards} cards")
        else:
            text.append(count(info.cards, "card"))
        text.append(f" · {info.score} pts")
        if info.owes:
            text.append(f" · {info.owes}", "italic")
        if info.away:
            text.append(" · away", "dim")
        return text

    def on_click(self, event: Click) -> None:
        if self.info is not None:
            self.post_message(self.Clicked(self.info.seat))


class SeatsBar(Horizontal):
    """All opponents in seat order, three to a row; more than :data:`ROOMY` of them
    (a table of 8 to 10) get two lines each without a box, so every one is on screen."""

    ROOMY = 6

    def show(self, infos: list[SeatInfo]) -> None:
        self.set_class(len(infos) > self.ROOMY, "-crowded")
        badges = list(self.query(SeatBadge))
        if len(badges) != len(infos):
            self.remove_children()
            badges = [SeatBadge(classes="seat") for _ in infos]
            self.mount_all(badges)
        for badge, info in zip(badges, infos, strict=True):
            badge.info = info
