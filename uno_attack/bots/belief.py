"""What the other seat of a two-player round may hold, followed turn by turn.

A seat that plays against a player it can model (the ``basic`` bot, or a person who plays
much as it does) learns from every turn of that player: what it played when it could
have played something else, the colour it named, that it drew. :class:`Belief` keeps a
set of hands the other seat may hold (a particle filter over its hand, with the model as
the likelihood: a hand is kept only if the model holding it would have played the turn as
it was played), for a search to deal from (:func:`~uno_attack.bots.worlds.sample_world`).
Like :mod:`~uno_attack.bots.worlds`, it rebuilds hidden cards only on copies it owns.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from uno_attack.actions import Action, Verb
from uno_attack.bots.worlds import unseen
from uno_attack.cards import Card
from uno_attack.engine import Round

#: Hands a :class:`Belief` keeps by default (and deals anew, when it has none left to
#: follow), and the misses in a row (:attr:`Belief.misses`) after which it works least.
PARTICLES = 128
_GIVING_UP = 4
#: Replays of a turn in which the other seat took cards, each with other cards taken,
#: before a hand is given up: what it took, not what it held, may be what failed.
_DRAW_TRIES = 3
#: Turns a guess remembers, and turn replays spent at most (for :data:`PARTICLES` hands,
#: in proportion for fewer) giving the hands the cards just played, and again making up
#: the hands lost.
_HISTORY = 12
_REPLAYS = 600
#: Actions of one turn after which a replay gives up (a turn that will not end).
_REPLAY_LIMIT = 30


Choose = Callable[[Round, int, Sequence[Action]], Action]
#: One followed turn of a guess: the hand it held as the turn began, and what it took in it.
Past = tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True)
class Guess:
    """One hand the other seat may hold, whether the Wild Draw Four it played last was a
    bluff with that hand (``None``: it played none), and the turns that led to it."""

    hand: tuple[Card, ...]
    bluff: bool | None = None
    past: tuple[Past, ...] = ()


@dataclass(frozen=True)
class _Turn:
    """A turn of the other seat as the seat saw it: the table its own action left, the
    round when it was next asked, and the cards it could not see at the start."""

    left: Round
    after: Round
    pool: tuple[Card, ...]


class Belief:
    """The hands the other seat of a two-player round may hold: a particle filter.

    Each turn of the other seat is replayed from the table the seat's own action left, once
    for each hand kept, with the model (``choose``) playing that hand and what it takes
    dealt at random from the unseen cards; a hand is kept when the replay ends where the
    round is (the same cards played, the same hand size, colour and turn). Before that, a
    hand without a card the seat has just played from its hand is given it, for one of its
    other cards, if the turns since that card came still replay as they were played (else
    it is dropped): a turn that shows cards few hands held does not lose every hand at
    once. Hands lost are made up from the kept ones: a kept one with one of its cards
    swapped for an unseen card in the same way; else the kept one again. When none is
    kept, hands are dealt anew (holding what the turn played). A player that plays as the
    model does is thus followed over many turns, not one: what it played, what it kept and
    when it drew all narrow its hand.
    """

    def __init__(self, seat: int, choose: Choose, rng: random.Random, *,
                 particles: int = PARTICLES) -> None:
        self.particles = particles
        self.seat = seat
        self.other = 1 - seat
        self.choose = choose
        self.rng = rng
        self.guesses: list[Guess] = []
        self.turns: list[_Turn] = []
        #: Turns in a row that none of its hands replayed: a player the model does not
        #: fit, on whom each miss halves the work done (hands dealt anew, swaps tried).
        self.misses = 0

    def clear(self) -> None:
        """Forget every guess (the cards cannot be followed any more)."""
        self.guesses = []
        self.turns = []

    def follow(self, left: Round | None, game: Round) -> None:
        """Bring the guesses up to ``game`` from ``left``, the table its own last action
        left (``None``: it cannot tell)."""
        if left is not None and left.to_act == self.other and \
                game.discard[:len(left.discard)] == left.discard:
            self._follow_turn(_Turn(left, game.copy(), tuple(unseen(left, self.seat).elements())))
        elif left is None or left.to_act == self.other:
            self.clear()
        pool = unseen(game, self.seat)
        self.guesses = [g for g in self.guesses
                        if all(pool[card] >= n for card, n in Counter(g.hand).items())]
        if not self.guesses:
            self.turns = []

    def _follow_turn(self, turn: _Turn) -> None:
        left, after = turn.left, turn.after
        size = len(left.hands[self.other])
        played = len(after.discard) - len(left.discard)
        drew = len(after.hands[self.other]) - size + played
        tries = _DRAW_TRIES if drew > 0 else 1
        rng = self.rng
        # What it played from its hand (all it played, unless it took cards: then the
        # cards but the last ``drew``): a guess without them is given them, if it can be.
        needed = list(after.discard[len(left.discard):len(after.discard) - drew])
        if len(needed) > size:
            needed = []  # cards came into its hand some other way: nothing to go by
        repair = [self._scaled(_REPLAYS * self.particles // PARTICLES)]
        holding = [g for g in (self._holding(guess, needed, repair) for guess in self.guesses)
                   if g is not None]
        kept = self._survivors(turn, holding, tries)
        if kept:
            self.turns = [*self.turns, turn][-_HISTORY:]
            self.misses = 0
        else:  # none is left (or none was kept): dealt anew, as if this were the first turn
            self.misses += bool(self.guesses)
            self.turns = [turn]
            rest = Counter(turn.pool)
            rest.subtract(needed)
            cards = list((+rest).elements())
            kept = self._survivors(
                turn, [Guess((*needed, *rng.sample(cards, size - len(needed))))
                       for _ in range(self._scaled(self.particles))], tries)
        budget = [self._scaled(_REPLAYS * self.particles // PARTICLES)]
        made = [self._move(kept[rng.randrange(len(kept))], budget)
                for _ in range(self.particles - len(kept))] if kept else []
        self.guesses = kept + made

    def _scaled(self, effort: int) -> int:
        """``effort`` halved for each miss in a row (up to :data:`_GIVING_UP` times)."""
        return effort >> min(self.misses, _GIVING_UP)

    def _survivors(self, turn: _Turn, guesses: Sequence[Guess], tries: int) -> list[Guess]:
        """The guesses with which the turn replays as it was played (each replayed up to
        ``tries`` times), as many as it keeps at most, this turn added to their past."""
        kept = []
        for guess in guesses:
            for _ in range(tries):
                step = self._replay(turn, guess.hand)
                if step is not None:
                    hand, taken, bluff = step
                    kept.append(Guess(hand, bluff, (*guess.past, (guess.hand, taken))
                                      [-_HISTORY:]))
                    break
            if len(kept) >= self.particles:
                break
        return kept

    def _holding(self, guess: Guess, needed: Sequence[Card], budget: list[int]
                 ) -> Guess | None:
        """``guess`` holding every card of ``needed``: each it lacks swapped in for one of
        its other cards (:meth:`_swap`); ``None`` if that cannot be done."""
        missing = Counter(needed) - Counter(guess.hand)
        for card in missing.elements():
            others = [held for held in guess.hand if held not in needed]
            if not others:
                return None
            swapped = self._swap(guess, others[self.rng.randrange(len(others))], card, budget)
            if swapped is None:
                return None
            guess = swapped
        return guess

    def _move(self, guess: Guess, budget: list[int]) -> Guess:
        """``guess`` with one of its cards swapped for an unseen one (:meth:`_swap`), or
        ``guess`` itself if that fails."""
        rng = self.rng
        hand = guess.hand
        if not hand or not self.turns:
            return guess
        old = hand[rng.randrange(len(hand))]
        spare = [card for card in (unseen(self.turns[-1].after, self.seat)
                                   - Counter(hand)).elements() if card != old]
        if not spare:
            return guess
        return self._swap(guess, old, spare[rng.randrange(len(spare))], budget) or guess

    def _swap(self, guess: Guess, old: Card, new: Card, budget: list[int]) -> Guess | None:
        """``guess`` holding ``new`` instead of ``old``, if every turn since ``old`` came
        replays as it was played (within ``budget`` turn replays, shared); else ``None``."""
        past, hand = guess.past, guess.hand
        if budget[0] <= 0 or len(past) != len(self.turns):
            return None
        first = len(past)  # the first turn from which it held the card
        while first > 0 and old in past[first - 1][0]:
            first -= 1
        changed = list(past)
        if first > 0:  # it came in the turn before: that turn took the new card instead
            start, taken = past[first - 1]
            if old not in taken:
                return None
            changed[first - 1] = (start, _swapped(taken, old, new))
        for k in range(first, len(past)):
            changed[k] = (_swapped(past[k][0], old, new), past[k][1])
        bluff = guess.bluff
        for k in range(max(first - 1, 0), len(past)):
            budget[0] -= 1
            step = self._replay(self.turns[k], *changed[k])
            if step is None:
                return None
            bluff = step[2]
        return Guess(_swapped(hand, old, new), bluff, tuple(changed))

    def _replay(self, turn: _Turn, hand: tuple[Card, ...], taken: tuple[Card, ...] | None = None
                ) -> tuple[tuple[Card, ...], tuple[Card, ...], bool | None] | None:
        """The other seat's turn replayed with ``hand`` (and, if given, ``taken`` as what it
        takes; else cards at random): the hand it leaves, what it took and whether its last
        Wild Draw Four was a bluff, or ``None`` if the turn does not end as it did."""
        other = self.other
        left, game = turn.left, turn.after
        rest = list(turn.pool)
        try:
            for card in (*hand, *(taken or ())):
                rest.remove(card)
        except ValueError:
            return None  # the cards are not there to hold or to take
        if taken is None:
            limit = len(rest)
        else:
            rest[:0] = taken
            limit = len(taken)
        table = left.copy()
        table.hands[other][:] = hand
        if table.arrived:  # it is to play or keep what it took: the guess's last cards
            table.arrived = hand[len(hand) - len(table.arrived):]
        table.stock = deque(rest)
        took: list[Card] = []
        played = game.discard
        at = len(left.discard)
        for _ in range(_REPLAY_LIMIT):
            if table.to_act != other or table.winner is not None or (
                    game.to_act == other and at == len(played)
                    and len(table.hands[other]) == len(game.hands[other])):
                break  # its turn is over, or the bot is asked out of it
            legal = table.legal_actions()
            if not legal:  # e.g. a guessed card that arrived by drawing until playable, unplayable
                return None
            action = self.choose(table, other, legal)
            cards = action.cards
            if cards:
                if tuple(played[at:at + len(cards)]) != cards:
                    return None
                at += len(cards)
            elif taken is None:
                _deal_top(table, action, self.rng)
                if action.verb is Verb.DRAW and not table.owed and at < len(played) and \
                        not _put_on_top(table.stock, played[at]):
                    return None  # the card it drew and played cannot be in the stock
            if action.verb is Verb.DRAW and table.draw_size() > len(table.stock):
                return None  # a reload: the cards are not followed through it
            held = len(table.hands[other])
            table.push(action)
            if not cards:
                took += table.hands[other][held:]
                if len(took) > limit:
                    return None  # it took more than it did
            while table.reactions_open() and table.uno_seat == other:
                table.push(Action.call_uno(other))
        else:
            return None
        if at != len(played) or table.to_act != game.to_act or \
                len(table.hands[other]) != len(game.hands[other]) or \
                table.color is not game.color or table.phase is not game.phase or \
                len(table.owed) != len(game.owed) or (taken is not None and len(took) != limit):
            return None
        head = table.owed[0].cause.challenge if table.owed else None
        return tuple(table.hands[other]), tuple(took), None if head is None else head.bluff


def _swapped(cards: tuple[Card, ...], old: Card, new: Card) -> tuple[Card, ...]:
    """``cards`` with the first ``old`` replaced by ``new``."""
    i = cards.index(old)
    return (*cards[:i], new, *cards[i + 1:])


def _deal_top(table: Round, action: Action, rng: random.Random) -> None:
    """Put at random what ``action`` may take on top of the stock: one card for a turn's
    draw, the whole stock shuffled for a penalty or a challenge (rare, and of any size)."""
    stock = table.stock
    if action.verb is Verb.DRAW and not table.owed:
        if stock:
            i = rng.randrange(len(stock))
            stock[0], stock[i] = stock[i], stock[0]
    elif action.verb is Verb.DRAW or action.verb is Verb.CHALLENGE:
        cards = list(stock)
        rng.shuffle(cards)
        table.stock = deque(cards)


def _put_on_top(stock: deque[Card], card: Card) -> bool:
    """Move a card like ``card`` to the top of the stock; whether there was one."""
    for i, held in enumerate(stock):
        if held == card:
            stock[0], stock[i] = held, stock[0]
            return True
    return False
