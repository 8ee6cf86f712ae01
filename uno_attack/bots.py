"""Bots: players that choose their own actions from the engine's legal list.

``random`` picks uniformly among the legal actions. ``basic`` plays sensibly: sheds
high-point cards early, keeps wilds for need, aims Trade Hands at the smallest hand,
hits an opponent close to going out, calls UNO with its play and catches others who
forget. Bots read the engine and ask the rule set what a card is; they never hold rules
of their own.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from uno_attack.actions import Action, Verb
from uno_attack.cards import COLORS, Card, Color
from uno_attack.engine import Round

BOT_KINDS = ("random", "basic")


class Player(Protocol):
    """Anyone who sits at a table: a bot, or a front end speaking for a person."""

    name: str

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        """The action to take when ``seat`` is the seat to act."""
        ...

    def react(self, game: Round, seat: int) -> Action | None:
        """An action out of turn (call UNO, catch), or ``None``."""
        ...


class RandomBot:
    """Uniformly random among the legal actions; never acts out of turn."""

    kind = "random"

    def __init__(self, name: str = "random", *, seed: int | str | None = None) -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]

    def react(self, game: Round, seat: int) -> Action | None:
        return None


class BasicBot:
    """A sensible player (see the module docstring); deterministic given its seed.

    ``forget_uno`` is the chance that it plays its second-last card without calling UNO,
    as people do, so a person at the table gets a chance to catch it.
    """

    kind = "basic"

    def __init__(self, name: str = "basic", *, seed: int | str | None = None,
                 forget_uno: float = 0.0) -> None:
        self.name = name
        self.forget_uno = forget_uno
        self._forget_rng = random.Random(f"{seed}:forget")

    def react(self, game: Round, seat: int) -> Action | None:
        window = game.uno_seat
        if window is not None and window != seat:
            return Action.catch(seat, window)
        if window == seat:
            return Action.call_uno(seat)
        return None

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        for action in legal:
            if action.verb in (Verb.CATCH, Verb.UNO):
                return action
        first = legal[0]
        if first.verb is Verb.CHOOSE:
            return Action.choose(seat, self._best_color(game.hands[seat]))
        plays = [a for a in legal if a.verb is Verb.PLAY]
        if not plays:
            return first  # a press owed, or pass
        action = max(plays, key=lambda a: self._score(game, seat, a))
        if self._score(game, seat, action) < 0 and any(a.verb is Verb.PRESS for a in legal):
            return next(a for a in legal if a.verb is Verb.PRESS)
        if game.hand_after(action) == 1 and not self._forgets():
            action = action.with_uno()
        return action

    def _forgets(self) -> bool:
        return self.forget_uno > 0 and self._forget_rng.random() < self.forget_uno

    # -- how good a play is --------------------------------------------------------
    def _score(self, game: Round, seat: int, action: Action) -> float:
        card = action.card
        assert card is not None
        kind = game.kind(card)
        hand = game.hands[seat]
        nxt = game.next_seat(seat)
        threat = len(game.hands[nxt]) <= 2
        score = float(kind.points)
        if kind.wild:
            rest = [c for c in hand if c is not card]
            # keep wilds for need: only worth it when nothing coloured can be played
            score = 0.5
            if action.color is not self._best_color(rest):
                return -1000.0
            if kind.hits:
                score += 10 + (40 if threat else 0)
            if len(hand) <= 2:
                score += 60
            return score
        if kind.names_seat:
            target = action.target
            assert target is not None
            smallest = min(len(game.hands[s]) for s in range(game.players) if s != seat)
            if len(game.hands[target]) != smallest:
                return -500.0
            gain = (len(hand) - 1) - len(game.hands[target])
            return score + 20 * gain if gain > 0 else -200.0
        if kind.lays_down is not None:
            score += 15 * len(kind.lays_down(game.rules, hand, card))
        if kind.skips and threat:
            score += 40
        # prefer staying in a colour we hold many of
        score += 2 * sum(1 for c in hand if c.color is card.color)
        return score

    @staticmethod
    def _best_color(hand: Sequence[Card]) -> Color:
        counts = Counter(c.color for c in hand if c.color is not None)
        if not counts:
            return COLORS[0]
        return max(COLORS, key=lambda color: (counts[color], -COLORS.index(color)))


def make_bot(kind: str, name: str, *, seed: int | str | None = None,
             forget_uno: float = 0.0) -> RandomBot | BasicBot:
    """A bot of this kind; ``forget_uno`` only matters to bots that call UNO."""
    if kind == "random":
        return RandomBot(name, seed=seed)
    if kind == "basic":
        return BasicBot(name, seed=seed, forget_uno=forget_uno)
    raise ValueError(f"unknown bot {kind!r} (known: {', '.join(BOT_KINDS)})")
