"""The discard pile's top card, large and in its colour, with the current colour and
the direction of play."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from uno_attack.cards import Card, Color
from uno_attack.rules import ATTACK, RuleSet
from uno_attack.tui.widgets.cardfaces import card_style, color_name


class TopCardView(Widget):
    """The top card as a block that fills the space it is given."""

    card: reactive[Card | None] = reactive(None)
    color: reactive[Color | None] = reactive(None)
    direction: reactive[int] = reactive(1)
    rules: RuleSet = ATTACK  # names the card

    def render(self) -> Text:
        card = self.card
        width = max(8, min(self.size.width, 18))
        text = Text()
        if card is None:
            return text
        body_h = max(3, min(self.size.height - 2, 9))
        face = card_style(card)
        lines = [""] * body_h
        mid = body_h // 2
        name = self.rules.card_name(card)
        lines[mid - 1 if body_h > 3 else 0] = card.code
        lines[mid] = name if len(name) <= width - 2 else card.code
        if body_h > 3:
            lines[mid] = ""
            lines[mid + 1] = name if len(name) <= width - 2 else ""
            lines[mid - 1] = card.code
        for line in lines:
            text.append(line.center(width), face)
            text.append("\n")
        current = self.color
        text.append("colour ", Style(dim=True))
        text.append(color_name(current), card_style(current) if current else Style())
        text.append("\n")
        arrow = "↻ clockwise" if self.direction == 1 else "↺ counterclockwise"
        text.append(arrow, Style(bold=True))
        return text
