"""What a rule set is: its deck, its card kinds, and the machinery every rule set shares.

A :class:`Kind` is one kind of card (a number, Skip, Hit 2, Wild Draw Four …) as data:
its points, names and faces, its effect in a few words (the help shows them), what it may
do (name a colour or a seat, stack, deflect, join a multi-card play) and its effects as a
play, as a starter and as a last card, written as small functions
(:mod:`uno_attack.rules.effects`). A :class:`RuleSet` is a deck of cards with their kinds,
the unit its penalties are made in, and the sections of the rule book its refusals cite.
The engine asks a rule set; it never tests a card's symbol itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple, TypedDict

from uno_attack.cards import COLORS, Card, Color
from uno_attack.errors import InvalidCardError
from uno_attack.penalties import Unit

if TYPE_CHECKING:
    from uno_attack.actions import Action
    from uno_attack.engine import Round
    from uno_attack.options import Options
    from uno_attack.penalties import Owed
    from uno_attack.refusal import Refusal


class Moves(NamedTuple):
    """What an effect did besides the turn and penalties: seats skipped, hands moved.

    ``hands`` holds ``(from_seat, to_seat)`` for every hand that changed owner.
    """

    skipped: tuple[int, ...] = ()
    hands: tuple[tuple[int, int], ...] = ()


#: A card's effect as a play: ``(round, seat, action, cards)``; ``cards`` is how many of
#: the kind were played at once (VARIANTS.md B3: effects add up).
Effect = Callable[["Round", int, "Action", int], Moves | None]
#: A starter's effect: ``(round, seat left of the dealer)``.
StarterEffect = Callable[["Round", int], Moves | None]
#: How a Skip or Reverse passes an owed penalty on (VARIANTS.md B6).
Deflect = Callable[["Round", int, "Owed"], None]
#: The cards laid down with a card (Discard All), from the hand left after playing it.
LayDown = Callable[["RuleSet", Sequence[Card], Card], list[Card]]
#: A Wild Draw Four's fairness: ``(hand without it, current colour) -> fair``.
Fairness = Callable[[Sequence[Card], Color | None], bool]


class CardKind(TypedDict):
    """What a front end shows of a kind (:attr:`RuleSet.card_kinds`), in its JSON form."""

    name: str
    short: str
    sign: str
    effect: str | None


@dataclass(frozen=True, eq=False)
class Kind:
    """One kind of card. ``eq=False``: kinds compare by identity and hash fast."""

    symbol: str
    name: str
    short: str                      # a few letters for a card face: "Skip", "Hit2"
    points: int
    sign: str = ""                  # one or two signs for a card face: "⊘", "+2", "5"
    effect: str | None = None       # what it does, in a few words, for the help (None: a number)
    number: int | None = None       # a number card's face value
    wild: bool = False              # names a colour as it is played
    names_seat: bool = False        # names a seat as it is played (Trade Hands; a 7 in B4)
    penalty: int | None = None      # a Draw card (B1): what the next player owes
    hits: bool = False              # makes others press or draw (allowed last under B7)
    skips: bool = False             # the next player loses the turn (Skip, Draw cards …)
    deflects: bool = False          # a Skip or Reverse: may deflect a penalty (B6)
    multi: str | None = None        # B3: "numbers", "symbols", or None (always alone)
    put_back: bool = False          # as a starter: put back and turn the next card
    fair: Fairness | None = None    # a Wild Draw Four: fair only as this says (A5)
    stackers: Mapping[str, frozenset[str]] = field(default_factory=dict)  # B1 table
    play: Effect | None = None      # None: the turn passes on, nothing else
    starter: StarterEffect | None = None
    last: Effect | None = None      # as a last card (RULES.md 8): penalties still made
    deflect: Deflect | None = None
    lays_down: LayDown | None = None
    #: Why this kind may not end a hand under the game's options (None: it may).
    end_refusal: Refusal | None = None

    @property
    def plain(self) -> bool:
        """A play of this kind only passes the turn on (numbers, Wild, Discard All)."""
        return self.play is None

    def __repr__(self) -> str:
        return f"<Kind {self.symbol} {self.name}>"


@dataclass(frozen=True, eq=False)
class RuleSet:
    """A deck with its card kinds, and what the rule book of that game says.

    ``refs`` maps a topic (``turn``, ``effects``, ``take``, ``starter``, ``uno``, ``end``)
    to the section a refusal cites: ``RULES.md 4`` or ``VARIANTS.md A4``.
    """

    name: str
    title: str
    unit: Unit
    deck: tuple[Card, ...]
    kinds: Mapping[str, Kind]
    refs: Mapping[str, str]

    # -- the deck --------------------------------------------------------------------
    @cached_property
    def counts(self) -> Counter[Card]:
        """How many copies of each card the deck holds."""
        return Counter(self.deck)

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every distinct card, in canonical order."""
        return tuple(dict.fromkeys(self.deck))

    @cached_property
    def _index(self) -> dict[Card, int]:
        index: dict[Card, int] = {}
        for i, card in enumerate(self.deck):
            index.setdefault(card, i)
        return index

    @cached_property
    def _by_code(self) -> dict[str, Card]:
        return {card.code: card for card in self.cards}

    @cached_property
    def kind_of(self) -> dict[Card, Kind]:
        """Each card's kind under the default options."""
        return {card: self.kinds[card.symbol] for card in self.cards}

    def __contains__(self, card: object) -> bool:
        """Whether the card is one of this rule set's deck."""
        return card in self._index

    def parse_card(self, code: str) -> Card:
        """The card with this code in this rule set's deck, or :class:`InvalidCardError`."""
        card = self._by_code.get(code) if isinstance(code, str) else None
        if card is None:
            raise InvalidCardError(f"invalid card code: {code!r} (not a card of {self.title})")
        return card

    def parse_cards(self, codes: Iterable[str]) -> list[Card]:
        return [self.parse_card(code) for code in codes]

    def order(self, card: Card) -> int:
        """The card's place (its first copy's) in the canonical deck order."""
        return self._index[card]

    def sort(self, cards: Iterable[Card]) -> list[Card]:
        """Cards in canonical deck order (the order Discard All lays them down in)."""
        return sorted(cards, key=self._index.__getitem__)

    def kind(self, card: Card) -> Kind:
        return self.kind_of[card]

    def points(self, card: Card) -> int:
        return self.kinds[card.symbol].points

    def hand_points(self, cards: Iterable[Card]) -> int:
        """Points of a hand at the end of a round (RULES.md 8, VARIANTS.md A1)."""
        kinds = self.kinds
        return sum(kinds[card.symbol].points for card in cards)

    def card_name(self, card: Card) -> str:
        """Human name: ``red 5``, ``blue Hit 2``, ``Wild Draw Four``."""
        kind = self.kinds[card.symbol]
        return kind.name if card.color is None else f"{card.color.label} {kind.name}"

    def short_label(self, card: Card) -> str:
        """A few letters for the card's face: ``5``, ``Skip``, ``+4``."""
        return self.kinds[card.symbol].short

    @cached_property
    def card_kinds(self) -> dict[str, CardKind]:
        """Each kind's ``name``, ``short`` face, ``sign`` and ``effect`` by symbol, in the
        deck's order: what the help lists, and the host's ``hello`` gives the page."""
        return {symbol: {"name": kind.name, "short": kind.short, "sign": kind.sign,
                         "effect": kind.effect} for symbol, kind in self.kinds.items()}

    # -- per game ------------------------------------------------------------------
    def kinds_for(self, options: Options) -> dict[Card, Kind]:
        """Each card's kind in a game with these options, as the active house rules change
        it (say, a 7 under ``seven_zero``: :mod:`uno_attack.rules.house`)."""
        from uno_attack.rules.house import kinds_for

        kinds = kinds_for(self, options)
        return {card: kinds[card.symbol] for card in self.cards}

    @cached_property
    def matching(self) -> dict[Card, dict[Color | None, frozenset[Card]]]:
        """top card -> current colour -> the cards that match them (RULES.md 4); two
        lookups of identity-hashed values, the cheapest test on the hot path."""
        by_symbol = {
            symbol: {color: frozenset(card for card in self.cards if card.color is None
                                      or card.color is color or card.symbol == symbol)
                     for color in (*COLORS, None)}
            for symbol in {card.symbol for card in self.cards}
        }
        return {card: by_symbol[card.symbol] for card in self.cards}

    def __repr__(self) -> str:
        return f"rule_set({self.name!r})"


def build_deck(per_color: Sequence[str], wilds: Sequence[str]) -> tuple[Card, ...]:
    """A deck in canonical order: ``per_color`` symbols for R, Y, G, B in turn, then the
    wild symbols (each listed once per copy)."""
    deck = [Card.intern(color, symbol) for color in COLORS for symbol in per_color]
    deck += [Card.intern(None, symbol) for symbol in wilds]
    return tuple(deck)
