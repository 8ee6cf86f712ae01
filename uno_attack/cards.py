"""Cards and colours: interned values shared by every rule set's deck.

A card is a colour (``None`` for a wild) and a symbol; its code is how RULES.md and
VARIANTS.md write it (``R5``, ``YT``, ``R+2``, ``W+4``). Cards are interned:
``Card.parse("RH") is Card.parse("RH")``, and ``R5`` is the same value in the Attack and
the classic deck. Which cards a game's deck holds, what kind each is, its points, name
and place in the canonical order belong to the rule set (:mod:`uno_attack.rules`), which
is also where card codes are read in the context of a game (``R+2`` is a card of classic,
an invalid card of Attack).
"""

from __future__ import annotations

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
        key = text.strip().lower() if isinstance(text, str) else ""
        for color in cls:
            if key in (color.label, color.letter.lower()):
                return color
        raise InvalidCardError(f"invalid colour: {text!r} (expected red, yellow, green or blue)")

    def __str__(self) -> str:
        return self.label

    # Members are singletons: identity hashing is correct, and far cheaper than Enum's
    # hash of the name (colours are dictionary keys on the engine's hot path).
    __hash__ = object.__hash__


COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
#: Words that name a colour in an action (``green`` or ``g``, any case, lower-cased here);
#: none of them is a card code.
COLOR_WORDS = frozenset(word for c in COLORS for word in (c.label, c.letter.lower()))


class Card:
    """One card: a colour (``None`` for wilds) and a symbol (``"5"``, ``"H"``, ``"+2"`` …).

    >>> Card.parse("GD")
    Card.parse('GD')
    >>> str(Card.parse("W+4")), Card.parse("W+4").is_wild
    ('W+4', True)
    """

    __slots__ = ("code", "color", "symbol")

    _by_code: ClassVar[dict[str, Card]] = {}

    code: str
    color: Color | None
    symbol: str

    def __new__(cls, color: Color | None, symbol: str) -> Card:
        return cls.parse(symbol if color is None else color.letter + symbol)

    @classmethod
    def intern(cls, color: Color | None, symbol: str) -> Card:
        """The card of this colour and symbol, made on first use (rule sets build their
        decks with it; nothing else creates cards)."""
        code = symbol if color is None else color.letter + symbol
        card = cls._by_code.get(code)
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "code", code)
            object.__setattr__(card, "color", color)
            object.__setattr__(card, "symbol", symbol)
            cls._by_code[code] = card
        return card

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card with this code in any rule set's deck (``R5``, ``YT``, ``R+2``).

        Whether the card belongs to a game is its rule set's question:
        :meth:`uno_attack.rules.RuleSet.parse_card`.
        """
        by_code = _known_cards()
        try:
            return by_code[code]
        except (KeyError, TypeError):
            raise InvalidCardError(f"invalid card code: {code!r}") from None

    @property
    def is_wild(self) -> bool:
        return self.color is None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def _known_cards() -> dict[str, Card]:
    """Every card of every rule set: the rule-set modules intern their decks on import."""
    if not Card._by_code:
        import uno_attack.rules  # noqa: F401 - deferred: the rule sets import this module
    return Card._by_code


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes, for printing, transcripts and views."""
    return [card.code for card in cards]
