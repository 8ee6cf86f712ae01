"""How the hand is shown: in order of colour and value (or as dealt), and which of its
cards just arrived, so a card fired at you is found at once in a sorted hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from uno_attack.cards import COLORS, Card


def sort_key(card: Card) -> tuple[int, int, str]:
    """Red, yellow, green, blue, then the wilds; numbers in order before the symbols."""
    color = COLORS.index(card.color) if card.color is not None else len(COLORS)
    number = card.symbol.isdigit()
    return color, int(card.symbol) if number else 10, "" if number else card.symbol


def in_order(hand: Iterable[Card], *, sorted_hand: bool) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=sort_key)) if sorted_hand else tuple(hand)


class Arrivals:
    """The cards that came into one seat's hand and are still news: each stays marked
    until the end of that seat's next turn (a card fired during your turn stays marked
    through the turn after)."""

    def __init__(self) -> None:
        self._whose: object = None
        self._hand: Counter[Card] = Counter()
        self._new: Counter[Card] = Counter()
        self._at_turn_start: Counter[Card] | None = None  # news when this turn began

    def update(self, whose: object, hand: Iterable[Card], *, my_turn: bool) -> None:
        """Look at the hand again; ``whose`` (a seat and a round) changing means another
        hand (a hot-seat player's, a new deal), in which nothing is news."""
        now = Counter(hand)
        if whose != self._whose:
            self._whose, self._hand, self._new = whose, now, Counter()
            self._at_turn_start = Counter() if my_turn else None
            return
        self._new += now - self._hand
        self._new &= now  # cards played are news no more
        if my_turn and self._at_turn_start is None:
            self._at_turn_start = Counter(self._new)
        elif not my_turn and self._at_turn_start is not None:
            self._new -= self._at_turn_start
            self._at_turn_start = None
        self._hand = now

    def marked(self, shown: tuple[Card, ...]) -> frozenset[int]:
        """The positions of ``shown`` to mark (of several alike, the last ones)."""
        left = Counter(self._new)
        marks = set()
        for i in range(len(shown) - 1, -1, -1):
            if left[shown[i]] > 0:
                left[shown[i]] -= 1
                marks.add(i)
        return frozenset(marks)
