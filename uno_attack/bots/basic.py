"""The ``basic`` bot: plays sensibly by rules of thumb. It sheds
high-point cards early (several at once where ``multi_play`` allows), keeps wilds for
need, aims Trade Hands or a 7 at the smallest hand, hits an opponent close to going out,
stacks and deflects rather than take a penalty, challenges a Wild Draw Four when its
player holds enough cards to have bluffed, jumps in, goes out on a sum, calls UNO with its
play and catches others who forget. Bots read the engine and ask the rule set what a card
is; they never hold rules of their own.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from uno_attack.actions import Action, Verb
from uno_attack.cards import COLORS, Card, Color
from uno_attack.engine import Round


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
        """Catch a forgetful player, remember its own UNO, go out, or jump in."""
        window = game.uno_seat
        if window is not None and window != seat:
            return Action.catch(seat, window)
        if window == seat:
            return Action.call_uno(seat)
        out = Action.out(seat)
        if game.out_value is not None and game.is_legal(out):
            return out
        if seat != game.turn:
            jumps = [a for a in game.legal_actions(seat) if a.verb is Verb.PLAY]
            if jumps:
                best = max(jumps, key=lambda a: self._score(game, seat, a))
                if self._score(game, seat, best) >= 0:
                    return self._with_call(game, best)
        return None

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        window = game.uno_seat
        for action in legal:  # a true catch or call first (never a false one, B8)
            if action.verb is Verb.OUT or (action.verb is Verb.UNO and window == seat) or (
                    action.verb is Verb.CATCH and window is not None and action.target == window):
                return action
        first = legal[0]
        if first.verb is Verb.CHOOSE:
            return Action.choose(seat, self._best_color(game.hands[seat]))
        fallback = next((a for a in legal if a.verb in (Verb.PRESS, Verb.DRAW, Verb.PASS)),
                        None)
        challenge = next((a for a in legal if a.verb is Verb.CHALLENGE), None)
        if challenge is not None and self._challenges(game):
            return challenge
        plays = [a for a in legal if a.verb is Verb.PLAY]
        if not plays:
            return fallback or first  # a penalty owed, or pass
        action = max(plays, key=lambda a: self._score(game, seat, a))
        if game.owed:
            return self._with_call(game, action)  # stacking or deflecting beats taking
        if self._score(game, seat, action) < 0 and fallback is not None:
            return fallback
        return self._with_call(game, self._several(game, seat, action))

    def _with_call(self, game: Round, action: Action) -> Action:
        """UNO called with the play that leaves one card (unless it forgets, as people do)."""
        if game.hand_after(action) == 1 and not self._forgets():
            return action.with_uno()
        return action

    def _several(self, game: Round, seat: int, action: Action) -> Action:
        """Under ``multi_play``, the chosen card with every other of its symbol, the last
        one of the colour it holds most (VARIANTS.md B3), where that is legal."""
        card = action.card
        assert card is not None
        if game.options.multi_play == "off" or game.kind(card).names_seat:
            return action
        rest = list(game.hands[seat])
        rest.remove(card)
        same = [c for c in rest if c.symbol == card.symbol]
        if not same:
            return action
        left = [c for c in rest if c not in same]
        keep = self._best_color(left) if left else None
        same.sort(key=lambda c: c.color is keep)
        several = Action.play(seat, [card, *same], action.color)
        return several if game.is_legal(several) else action

    @staticmethod
    def _challenges(game: Round) -> bool:
        """Challenge a Wild Draw Four when a bluff is likely: its player holds cards enough
        that one of the colour is probable (only what the table can see is used)."""
        challenge = game.owed[0].cause.challenge
        assert challenge is not None
        return len(game.hands[challenge.by]) >= 2

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
            if kind.fair is not None and game.options.wild_draw_four == "challenge" and \
                    not kind.fair(rest, game.color):
                score -= 30  # a bluff may be challenged
            if len(hand) <= 2:
                score += 60
            return score
        if kind.names_seat:  # aim a Trade Hands or a 7 at the smallest hand
            target = action.target
            assert target is not None
            smallest = min(len(game.hands[s]) for s in range(game.players) if s != seat)
            if len(game.hands[target]) != smallest:
                return -500.0
            gain = (len(hand) - 1) - len(game.hands[target])
            if gain > 0:
                return score + 20 * gain
            return -200.0 if kind.number is None else score - 15 * (1 - gain)
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
