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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from uno_attack.actions import Action, Verb
from uno_attack.cards import Card, Color
from uno_attack.engine import Phase, Round
from uno_attack.penalties import Challenge
from uno_attack.rules import Kind

if TYPE_CHECKING:
    from uno_attack.bots.belief import Belief

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


#: What a seat infers of another hand: the ``count`` cards it has held longest include
#: none of these cards.
Lack = tuple[int, frozenset[Card]]


@dataclass
class Memory:
    """What one seat knows of other hands between its decisions, and how it learns it.

    - Cards given away: when it gives its hand away (its own Trade Hands or 7), the seat
      it named holds those cards; when its hand is taken from it in a two-player round,
      the other seat holds it. It forgets such a card as soon as a card like it is played.
    - Cards lacked (two players): when the other seat, owing nothing, took cards (pressed
      or drew, and passed) instead of playing, it is taken to have held no card it could
      have played then (the rules let a player keep one back, but a sensible player
      seldom does; a card that moves hands aside is left out, as keeping one can pay), so
      the cards it held then include none of those. That lasts for as many of them as it
      has not played. Sampling keeps to it only as far as the unseen cards allow.
    - The other seat's last choice (two players): when it answered the bot's play with one
      card, the table it chose on is kept (:attr:`choice`), so that a search can ask of a
      world whether a sensible player holding that world's cards would have chosen so
      (:meth:`agrees`), and prefer the worlds in which it would.
    - The other seat's possible hands (two players, given a :attr:`belief`): followed
      over every turn of that seat from the table the seat's own action left
      (:class:`~uno_attack.bots.belief.Belief`).

    It forgets everything when it cannot follow the cards any more (the discard pile was
    reloaded, or hands moved between other seats).
    """

    seat: int
    known: dict[int, Counter[Card]] = field(default_factory=dict)
    lacks: dict[int, list[Lack]] = field(default_factory=dict)
    _discard: list[Card] = field(default_factory=list)
    _kept: Counter[Card] | None = None  # its hand after its last action, if it can tell
    _mine: tuple[Card, ...] = ()        # the cards its last action put on the pile
    _sizes: tuple[int, ...] | None = None  # every hand's size after its last action …
    _owing: frozenset[int] = frozenset()   # … and the seats that owed a penalty then
    #: The other seat's last choice: the table it chose on, the seat, the card and the
    #: colour after it (the table's hidden cards are never read: a world's replace them).
    choice: tuple[Round, int, Card, Color | None] | None = None
    #: The other seat's possible hands, followed turn by turn (two players, see
    #: :class:`Belief`), when a model of it is given.
    belief: Belief | None = None
    _left: Round | None = None  # the table its last play left (two players)
    _since: Round | None = None  # the table the belief follows the other seat from

    def observe(self, game: Round) -> None:
        """Bring the memory up to what the round shows now."""
        old = self._discard
        discard = game.discard
        followed = len(discard) >= len(old) and discard[:len(old)] == old
        new: Sequence[Card] = discard[len(old):] if followed else ()
        others = new[len(self._mine):] if tuple(new[:len(self._mine)]) == self._mine else new
        if not followed or any(swaps_hands(game.kind(card)) for card in others):
            self.known.clear()  # reloaded, a hand under the top (sum_out), hands moved
            self.lacks.clear()
        hand = Counter(game.hands[self.seat])
        if game.players == 2:
            self._infer(game, hand, others if followed else None)
            if followed and others:
                self.choice = self._choice(game, others)
            if self.belief is not None:
                if not followed or any(swaps_hands(game.kind(card)) for card in others):
                    self.belief.clear()
                self.belief.follow(self._since, game)
                self._since = game.copy()  # until its own action leaves another table
        for card in new:
            for cards in self.known.values():
                if cards[card]:
                    cards[card] -= 1
        self.known = {s: +cards for s, cards in self.known.items()
                      if 0 < cards.total() <= len(game.hands[s])}
        self._discard = list(discard)
        self._kept = hand
        self._mine = ()
        self._sizes = None

    def _infer(self, game: Round, hand: Counter[Card], others: Sequence[Card] | None) -> None:
        """What the other seat of a two-player round did since its last action says."""
        other = 1 - self.seat
        if self._kept is not None and self._kept - hand:
            self.known = {other: self._kept}  # the other seat took its hand
            self.lacks.clear()
            return
        if others:  # it played: as many of the cards it held may be gone
            kept = [(n - len(others), cards) for n, cards in self.lacks.pop(other, [])
                    if n > len(others)]
            if kept:
                self.lacks[other] = kept
        elif others is not None and self._sizes is not None and \
                other not in self._owing and game.phase is Phase.PLAY and \
                len(game.hands[other]) > self._sizes[other]:
            matching = game.rules.matching[game.top][game.color]
            could = frozenset(card for card in matching if not swaps_hands(game.kind(card)))
            self.lacks.setdefault(other, []).append((self._sizes[other], could))

    def _choice(self, game: Round, others: Sequence[Card]) -> tuple[Round, int, Card,
                                                                     Color | None] | None:
        """The other seat's choice of one card on the table the bot's play left it."""
        left, other = self._left, 1 - self.seat
        self._left = None
        if left is None or len(others) != 1 or left.to_act != other or \
                len(game.hands[other]) != len(left.hands[other]) - 1:
            return None
        return left, other, others[0], game.color

    def agrees(self, world: Round, choose: Callable[[Round, int, Sequence[Action]], Action]
               ) -> bool:
        """Whether ``choose`` (a model of the other seat) holding the cards ``world`` deals
        it would have made its last choice; true when there is none to go by."""
        if self.choice is None:
            return True
        left, other, card, colour = self.choice
        table = left.copy()
        table.hands[other][:] = [*world.hands[other], card]
        action = choose(table, other, table.legal_actions())
        return action.cards == (card,) and (action.color is None or action.color is colour)

    def acted(self, game: Round, action: Action) -> None:
        """Note what its own action (not yet applied) does to what it knows."""
        self.choice = self._left = self._since = None
        if self.belief is not None and action.verb is Verb.DRAW:
            self._since = game.copy()  # what it draws it sees at once
            self._since.push(action)
        self._mine = action.cards
        self._sizes, self._owing = _after(game)
        if not action.cards:
            if action.verb is Verb.CATCH or action.verb is Verb.CHALLENGE:
                self._sizes = None  # the cards it makes a seat take are no choice of theirs
            elif action.verb is Verb.PASS and game.players == 2:
                self._left = self._since = game.copy()  # a pass leaves a table it can tell
                self._left.push(action)
            return  # a press or draw only adds cards to its hand
        kind = game.kind(action.cards[0])
        if kind.names_seat and action.target is not None:
            given = Counter(game.hands[self.seat])
            given.subtract(action.cards)
            self.known = {s: c for s, c in self.known.items() if s != action.target}
            self.lacks.pop(action.target, None)
            if +given:
                self.known[action.target] = +given
            self._kept = self._sizes = None
        elif swaps_hands(kind):
            self._kept = self._sizes = None
        else:
            probe = game.copy()  # what its own play does depends only on its cards
            self._mine = probe.push(action).played  # with a Discard All's cards
            self._kept = Counter(probe.hands[self.seat])
            self._sizes, self._owing = _after(probe)
            if game.players == 2:
                self._left = self._since = probe


def _after(game: Round) -> tuple[tuple[int, ...], frozenset[int]]:
    return tuple(map(len, game.hands)), frozenset(owed.seat for owed in game.owed)


def sample_world(game: Round, seat: int, rng: random.Random, *,
                 known: Mapping[int, Counter[Card]] | None = None,
                 lacks: Mapping[int, Sequence[Lack]] | None = None,
                 bluff: bool | None = None) -> Round:
    """A copy of ``game`` in which every card ``seat`` has not seen is dealt anew at random:
    each other hand keeps its size, the cards known to be in it and (as far as the cards
    left allow) none that it is known to lack, the stock keeps its size, and the stock's
    order is new. ``bluff`` is whether a Wild Draw Four that ``seat`` must answer was a
    bluff in this world; its player's hand is dealt to agree with it (with a card of the
    colour it was played on, or without), where that colour is known.
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
        elif lacks and lacks.get(other):
            hand += _without_lacked(rest, need, lacks[other])
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


def _without_lacked(rest: list[Card], need: int, lacks: Sequence[Lack]) -> list[Card]:
    """``need`` cards out of ``rest`` (shuffled), the ``n`` first of them none of the
    cards of each lack ``(n, cards)``, as far as ``rest`` allows: the cards held longest
    are dealt first, each from the cards allowed to it."""
    hand: list[Card] = []
    for place in range(need):
        barred = frozenset().union(*(cards for n, cards in lacks if place < n))
        pick = next((i for i in range(len(rest) - 1, -1, -1) if rest[i] not in barred),
                    len(rest) - 1)
        hand.append(rest.pop(pick))
    return hand


def _take(rest: list[Card], indexes: Iterable[int]) -> list[Card]:
    """Take the cards at ``indexes`` out of ``rest``."""
    chosen = sorted(set(indexes))
    taken = [rest[i] for i in chosen]
    for i in reversed(chosen):
        del rest[i]
    return taken

