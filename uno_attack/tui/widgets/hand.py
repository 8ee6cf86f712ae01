"""The hand: a row (or rows) of coloured cards, playable ones marked, one under the
cursor, those picked for a play of several cards (● the one that leads, + the others),
and those that just came (• before the label).

Drawn as one widget so it stays cheap to redraw after every action; a click is mapped
back to the card under the pointer.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from uno_attack.cards import Card
from uno_attack.rules import ATTACK, RuleSet
from uno_attack.tui.widgets.cardfaces import card_style

CARD_W = 6  # characters of one card
GAP = 1
ROW_H = 3   # lines of one row of cards: key line, code line, label line
COMPACT_ROWS = 2  # beyond this many rows, a card's key and mark share its code's line


class HandView(Widget):
    """A player's hand; posts :class:`HandView.Chosen` when a card is clicked."""

    cards: reactive[tuple[Card, ...]] = reactive((), layout=True)
    playable: reactive[frozenset[int]] = reactive(frozenset())
    cursor: reactive[int] = reactive(0)
    picked: reactive[tuple[int, ...]] = reactive(())  # cards picked for a play, in order
    arrived: reactive[frozenset[int]] = reactive(frozenset())  # cards that just came
    hidden: reactive[bool] = reactive(False)
    rules: RuleSet = ATTACK  # names the cards' faces

    class Chosen(Message):
        """A card was clicked: play it."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def per_row(self, width: int | None = None) -> int:
        width = self.size.width if width is None else width
        return max(1, (width + GAP) // (CARD_W + GAP))

    def rows(self, width: int | None = None) -> int:
        return -(-len(self.cards) // self.per_row(width))

    def row_height(self, width: int | None = None) -> int:
        """Lines per row of cards: 3, or 2 (key, mark and code on one) for a hand of many
        rows."""
        return ROW_H if self.rows(width) <= COMPACT_ROWS else ROW_H - 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.hidden or not self.cards:
            return 1
        return self.rows(width) * self.row_height(width)

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self.cards) - 1)) if self.cards else 0

    def watch_cards(self) -> None:
        self.cursor = self.cursor  # a card played from the end: onto the new last card

    def watch_cursor(self, cursor: int) -> None:
        """Keep the selected card in sight when the hand is taller than its panel."""
        panel = self.parent
        if not isinstance(panel, Widget) or not self.cards:
            return
        row, col = divmod(cursor, self.per_row())
        card = Region(col * (CARD_W + GAP), row * self.row_height(), CARD_W, self.row_height())
        panel.scroll_to_region(card.translate(self.virtual_region.offset), animate=False,
                               immediate=True)

    def render(self) -> Text:
        if self.hidden:
            return Text("(hand hidden)", style="dim")
        if not self.cards:
            return Text("(no cards)", style="dim")
        per_row = self.per_row()
        compact = self.row_height() < ROW_H
        out = Text()
        for start in range(0, len(self.cards), per_row):
            lines = [Text() for _ in range(self.row_height())]
            for i in range(start, min(start + per_row, len(self.cards))):
                self._draw_card(i, lines, compact=compact)
                for line in lines:
                    line.append(" " * GAP)
            for line in lines:
                out.append_text(line)
                out.append("\n")
        out.rstrip()
        return out

    def _draw_card(self, i: int, lines: list[Text], *, compact: bool) -> None:
        """Card ``i`` onto its row's lines: its key and mark (✓ playable, ● + picked),
        its code and its label. A compact row (a hand of many rows) puts the key and mark
        on the code's line, so that every card keeps its label and its mark."""
        card = self.cards[i]
        key = str((i + 1) % 10) if i < 10 else " "  # past 10: the arrows, Home and End
        mark = "✓" if i in self.playable else " "
        if i in self.picked:
            mark = "+" if self.picked.index(i) else "●"  # the first one leads
        cursor = i == self.cursor
        if cursor:
            head_style = Style(reverse=True, bold=True)
        else:
            head_style = Style(color="green", bold=True) if mark != " " else Style(dim=True)
        face = card_style(card)
        label = f"{self.rules.short_label(card):<{CARD_W - 1}}"[:CARD_W - 1]
        if compact:
            head = f"{'▶' if cursor else ' '}{key}{mark}"
            lines[0].append(head, head_style)
            lines[0].append(f"{card.code:<{CARD_W - len(head)}}"[:CARD_W - len(head)], face)
        else:
            head = f"▶{key:>1} {mark}" if cursor else f"{key:>2} {mark}"
            lines[0].append(head.ljust(CARD_W), head_style)
            lines[1].append(f" {card.code:<{CARD_W - 1}}", face)
        lines[-1].append("•" if i in self.arrived else " ",
                         card_style(card, bold=i in self.arrived))
        lines[-1].append(label, card_style(card, bold=False))

    def index_at(self, x: int, y: int) -> int | None:
        """The card under a point of the widget, if any."""
        col, within = divmod(x, CARD_W + GAP)
        if within >= CARD_W:
            return None
        index = (y // self.row_height()) * self.per_row() + col
        return index if 0 <= index < len(self.cards) and col < self.per_row() else None

    def on_click(self, event: Click) -> None:
        index = self.index_at(event.x, event.y)
        if index is not None and not self.hidden:
            self.cursor = index
            self.post_message(self.Chosen(index))
