"""How a card looks: its colours (its short label, so it reads without colour too, is the
rule set's: :meth:`uno_attack.rules.RuleSet.short_label`)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text

from uno_attack.cards import Card, Color

#: (foreground, background) per colour; wilds are white on black.
PALETTE: dict[Color | None, tuple[str, str]] = {
    Color.RED: ("#ffffff", "#c62828"),
    Color.YELLOW: ("#000000", "#f9d71c"),
    Color.GREEN: ("#ffffff", "#2e7d32"),
    Color.BLUE: ("#ffffff", "#1565c0"),
    None: ("#ffffff", "#262626"),
}


def card_style(card: Card | Color | None, *, bold: bool = True) -> Style:
    color = card.color if isinstance(card, Card) else card
    fg, bg = PALETTE[color]
    return Style(color=fg, bgcolor=bg, bold=bold)


def color_name(color: Color | None) -> str:
    return f"{color.label.upper()} ({color.letter})" if color is not None else "not named yet"


def card_chips(cards: Iterable[Card]) -> Text:
    """Cards in a row, each its code on its colour: ``R5 W G+2``."""
    text = Text()
    for card in cards:
        text.append(f" {card.code} ", card_style(card))
        text.append(" ")
    return text
