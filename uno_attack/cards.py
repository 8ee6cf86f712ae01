"""Cards of the 112-card UNO Attack deck: codes, colours, points, canonical order.

Cards are interned values: ``Card.parse("RH") is Card.parse("RH")``. The two copies
of ``R5`` in a deck are the same object, which keeps hands cheap to copy and compare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import Enum
from typing import ClassVar

from uno_attack.errors import InvalidCardError


class Color(Enum):
    """The four card colours, with their one-letter code and their name in text."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        """The colour's name as RULES.md writes it: ``red``, ``yellow`` …"""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Color:
        """A colour from its name (``green``) or letter (``G``), any case."""
        key = text.strip().lower()
        for color in cls:
            if key in (color.label, color.letter.lower()):
                return color
        raise InvalidCardError(f"invalid colour: {text!r} (expected red, yellow, green or blue)")

    def __str__(self) -> str:
        return self.label


COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)

NUMBERS = ("1", "2", "3", "4", "5", "6", "7", "8", "9")
SKIP, REVERSE, HIT2, DISCARD_ALL, TRADE_HANDS = "S", "R", "H", "D", "T"
WILD, WILD_ALL_HIT, WILD_HIT_FIRE = "W", "WA", "WF"
ACTION_SYMBOLS = (SKIP, REVERSE, HIT2, DISCARD_ALL, TRADE_HANDS)
WILD_SYMBOLS = (WILD, WILD_ALL_HIT, WILD_HIT_FIRE)

SYMBOL_NAMES = {
    SKIP: "Skip",
    REVERSE: "Reverse",
    HIT2: "Hit 2",
    DISCARD_ALL: "Discard All",
    TRADE_HANDS: "Trade Hands",
    WILD: "Wild",
    WILD_ALL_HIT: "Wild All Hit",
    WILD_HIT_FIRE: "Wild Hit-Fire",
}

_POINTS = {SKIP: 20, REVERSE: 20, HIT2: 20, DISCARD_ALL: 30, TRADE_HANDS: 30}
_PER_COLOR = [n for n in NUMBERS for _ in range(2)] + [SKIP, SKIP, REVERSE, REVERSE, HIT2, HIT2]
_PER_COLOR += [DISCARD_ALL, TRADE_HANDS]
_WILDS = [WILD] * 4 + [WILD_ALL_HIT] * 2 + [WILD_HIT_FIRE] * 2


class Card:
    """One card: a colour (``None`` for wilds) and a symbol (``"5"``, ``"H"``, ``"WA"`` …).

    >>> Card.parse("GD")
    Card.parse('GD')
    >>> str(Card.parse("WF")), Card.parse("WF").points
    ('WF', 50)
    """

    __slots__ = ("code", "color", "index", "points", "symbol")

    _by_code: ClassVar[dict[str, Card]] = {}

    code: str
    color: Color | None
    symbol: str
    points: int
    index: int  # position of the card's first copy in the canonical deck order

    def __new__(cls, color: Color | None, symbol: str) -> Card:
        code = symbol if color is None else color.letter + symbol
        card = cls._by_code.get(code)
        if card is None:
            raise InvalidCardError(f"invalid card: {code!r}")
        return card

    @classmethod
    def _make(cls, color: Color | None, symbol: str, index: int) -> Card:
        card = object.__new__(cls)
        code = symbol if color is None else color.letter + symbol
        points = 50 if color is None else _POINTS.get(symbol) or int(symbol)
        for name, value in (
            ("code", code), ("color", color), ("symbol", symbol), ("points", points),
            ("index", index),
        ):
            object.__setattr__(card, name, value)
        cls._by_code[code] = card
        return card

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card with this code, exactly as RULES.md writes it (``R5``, ``YT``, ``WA``)."""
        try:
            return cls._by_code[code]
        except (KeyError, TypeError):
            raise InvalidCardError(f"invalid card code: {code!r}") from None

    @property
    def is_wild(self) -> bool:
        return self.color is None

    @property
    def is_number(self) -> bool:
        return self.symbol in NUMBERS

    @property
    def name(self) -> str:
        """Human name: ``red 5``, ``blue Hit 2``, ``Wild All Hit``."""
        symbol = SYMBOL_NAMES.get(self.symbol, self.symbol)
        return symbol if self.color is None else f"{self.color.label} {symbol}"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def _build_deck() -> tuple[Card, ...]:
    deck: list[Card] = []
    for color in COLORS:
        for symbol in _PER_COLOR:
            code = color.letter + symbol
            card = Card._by_code.get(code) or Card._make(color, symbol, len(deck))
            deck.append(card)
    for symbol in _WILDS:
        card = Card._by_code.get(symbol) or Card._make(None, symbol, len(deck))
        deck.append(card)
    return tuple(deck)


#: The 112 cards in the canonical deck order of RULES.md section 1.
CANONICAL_DECK: tuple[Card, ...] = _build_deck()
DECK_SIZE = len(CANONICAL_DECK)
#: How many copies of each card the deck holds.
DECK_COUNTS: Counter[Card] = Counter(CANONICAL_DECK)
#: Every distinct card, in canonical order.
ALL_CARDS: tuple[Card, ...] = tuple(dict.fromkeys(CANONICAL_DECK))

assert DECK_SIZE == 112


def parse_cards(codes: Iterable[str]) -> list[Card]:
    """Cards from a sequence of codes; the first bad code raises :class:`InvalidCardError`."""
    return [Card.parse(code) for code in codes]


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes, for printing and transcripts."""
    return [card.code for card in cards]


def canonical_sorted(cards: Iterable[Card]) -> list[Card]:
    """Cards in canonical deck order (the order Discard All lays them down in)."""
    return sorted(cards, key=_index)


def hand_points(cards: Iterable[Card]) -> int:
    """Points of a hand at the end of a round (RULES.md section 8)."""
    return sum(card.points for card in cards)


def _index(card: Card) -> int:
    return card.index
