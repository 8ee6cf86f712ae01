"""Worlds a seat cannot tell from the real one: determinisations for a search.

A seat sees its own hand, the discard pile (it saw every card of it played), how many
cards each hand and the stock hold, and whatever it remembers of cards that went into
another hand (:class:`Memory`: its own hand, given away by a trade). Every other card
is somewhere it cannot see. :func:`sample_world` deals those cards anew, at random, into
the other hands and the stock of a copy of the round, so that the copy agrees with
everything the seat knows and with nothing else. The engine has no way to set hidden
cards, so this module rebuilds them on a copy that it owns (the one place that writes a
round's hands and stock outside the engine).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from uno_attack.actions import Action
from uno_attack.cards import Card
from uno_attack.engine import Round
from uno_attack.penalties import Challenge
from uno_attack.rules import Kind

#: Tries at dealing a bluffer a card of the colour it bluffed on before one is put in.
_BLUFF_TRIES = 20


def swaps_hands(kind: Kind) -> bool:
    """Whether a play of this kind moves hands between seats: a card that names a seat
    (Trade Hands, a 7 under ``seven_zero``), or a number with an effect of its own (the 0
    of ``seven_zero`` passes every hand on)."""
    return kind.names_seat or (kind.number is not None and not kind.plain)


def unseen(game: Round, seat: int) -> Counter[Card]:
    """The cards ``seat`` has not seen: the deck less its hand and the discard pile. The
    other hands and the stock hold exactly these."""
    pool = game.rules.counts.copy()
    pool.subtract(game.hands[seat])
    pool.subtract(game.discard)
    return +pool


def set_bluff(world: Round, bluff: bool) -> None:
    """Whether the Wild Draw Four owed first in this world was a bluff (a challenge reads
    it): the real round's answer is the one thing a seat must not know."""
    head = world.owed[0]
    challenge = head.cause.challenge
    assert challenge is not None
    world.owed[0] = head._replace(cause=head.cause._replace(
        challenge=Challenge(challenge.by, bluff)))


@dataclass
class Memory:
    """What one seat knows of other hands between its decisions, and how it learns it.

    It learns only from its own hand: when it gives its hand away (its own Trade Hands or
    7), the seat it named holds those cards; when its hand is taken from it in a
    two-player round, the other seat holds it. It forgets a card as soon as a card like it
    is played (maybe from that hand), and forgets everything when it cannot follow the
    cards any more (the discard pile was reloaded, or hands moved between others).
    """

    seat: int
    known: dict[int, Counter[Card]] = field(default_factory=dict)
    _discard: list[Card] = field(default_factory=list)
    _kept: Counter[Card] | None = None  # its hand after its last action, if it can tell
    _mine: tuple[Card, ...] = ()        # the cards its last action put on the pile

    def observe(self, game: Round) -> None:
        """Bring the memory up to what the round shows now."""
        old = self._discard
        discard = game.discard
        if len(discard) < len(old) or discard[:len(old)] != old:
            self.known.clear()  # reloaded, or a hand went under the top (sum_out)
            new: Sequence[Card] = ()
        else:
            new = discard[len(old):]
        others = new[len(self._mine):] if tuple(new[:len(self._mine)]) == self._mine else new
        self._mine = ()
        if any(swaps_hands(game.kind(card)) for card in others):
            self.known.clear()
        kept, hand = self._kept, Counter(game.hands[self.seat])
        if kept is not None and kept - hand and game.players == 2:
            self.known = {1 - self.seat: kept}  # the other seat took this hand
        for card in new:
            for cards in self.known.values():
                if cards[card]:
                    cards[card] -= 1
        self.known = {s: +cards for s, cards in self.known.items()
                      if 0 < cards.total() <= len(game.hands[s])}
        self._discard = list(discard)
        self._kept = hand

    def acted(self, game: Round, action: Action) -> None:
        """Note what its own action (not yet applied) does to what it knows."""
        self._kept = None
        self._mine = action.cards
        if not action.cards:
            return  # a press or draw only adds cards it will see
        kind = game.kind(action.cards[0])
        if kind.names_seat and action.target is not None:
            given = Counter(game.hands[self.seat])
            given.subtract(action.cards)
            self.known = {s: c for s, c in self.known.items() if s != action.target}
            if +given:
                self.known[action.target] = +given
        elif not swaps_hands(kind):
            probe = game.copy()  # its hand after its own play depends only on its cards
            self._mine = probe.push(action)[1]  # with a Discard All's cards
            self._kept = Counter(probe.hands[self.seat])


def sample_world(game: Round, seat: int, rng: random.Random, *,
                 known: Mapping[int, Counter[Card]] | None = None,
                 bluff: bool | None = None) -> Round:
    """A copy of ``game`` in which every card ``seat`` has not seen is dealt anew at random:
    each other hand keeps its size and the cards known to be in it, the stock keeps its
    size, and the stock's order is new. ``bluff`` is whether a Wild Draw Four that ``seat``
    must answer was a bluff in this world; its player's hand is dealt to agree with it
    (with a card of the colour it was played on, or without), where that colour is known.
    """
    world = game.copy()
    pool = unseen(game, seat)
    fixed: dict[int, list[Card]] = {}
    for other, cards in (known or {}).items():
        kept = list((cards & pool).elements())[:len(game.hands[other])]
        pool.subtract(kept)
        fixed[other] = kept
    rest = list(pool.elements())
    rng.shuffle(rest)
    bluffer = _bluffer(game, seat) if bluff is not None else None
    for other in range(game.players):
        if other == seat:
            continue
        hand = fixed.get(other, [])
        need = len(game.hands[other]) - len(hand)
        if other == bluffer:
            hand += _bluffer_cards(game, rest, need, bool(bluff), rng)
        else:
            hand += _take(rest, range(len(rest) - need, len(rest)))
        world.hands[other][:] = hand
    assert len(rest) == len(game.stock), "the unseen cards are the other hands and the stock"
    world.stock.clear()
    world.stock.extend(rest)
    if bluffer is not None:
        set_bluff(world, bool(bluff))
    if world.arrived and world.turn != seat:  # what another seat just took is hidden too
        taker = world.hands[world.turn]
        world.arrived = tuple(taker[len(taker) - len(world.arrived):])
    return world


def _bluffer(game: Round, seat: int) -> int | None:
    """The player of a Wild Draw Four that ``seat`` must answer now, if any."""
    if not game.owed or game.owed[0].seat != seat:
        return None
    challenge = game.owed[0].cause.challenge
    return None if challenge is None else challenge.by


def _bluffer_cards(game: Round, rest: list[Card], need: int, bluff: bool,
                   rng: random.Random) -> list[Card]:
    """``need`` cards out of ``rest`` (shuffled) for the player of a Wild Draw Four: at
    least one of the colour it was played on if it bluffed, none if it did not, as far as
    ``rest`` allows; any cards where that colour is not known (a wild under it)."""
    under = game.discard[-2].color if len(game.discard) >= 2 else None
    last = range(len(rest) - need, len(rest))
    if under is None:
        return _take(rest, last)
    marked = [i for i, card in enumerate(rest) if card.color is under]
    if not bluff:
        plain = [i for i, card in enumerate(rest) if card.color is not under]
        return _take(rest, (marked + plain)[len(rest) - need:])
    for _ in range(_BLUFF_TRIES):  # drawn at random until one is of the colour
        picks = rng.sample(range(len(rest)), need)
        if any(rest[i].color is under for i in picks):
            return _take(rest, picks)
    if not marked:
        return _take(rest, last)
    first = marked[0]
    return _take(rest, [first, *(i for i in last if i != first)][:need])


def _take(rest: list[Card], indexes: Iterable[int]) -> list[Card]:
    """Take the cards at ``indexes`` out of ``rest``."""
    chosen = sorted(set(indexes))
    taken = [rest[i] for i in chosen]
    for i in reversed(chosen):
        del rest[i]
    return taken
