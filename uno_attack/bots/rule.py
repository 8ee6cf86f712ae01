"""The ``rule`` bot: a port of RLCard's UNO rule agent, so win rates compare with others'.

RLCard (``rlcard/models/uno_rule_models.py``, ``UNORuleAgentV1``, the model
``uno-rule-v1``; MIT licence) is the one published UNO agent others measure against. Its
rules, as that file has them in RLCard 1.2.0:

- when it has no card to play, it draws (RLCard's legal set offers ``draw`` only then);
- when a Wild Draw Four may be played, it plays it, naming the colour it holds most of
  (its wilds aside);
- otherwise it plays one of its playable cards other than wilds, uniformly at random; if
  only wilds can be played, one of them with a colour at random.

Our rules ask two things RLCard's game does not, and the port does them as its game does by
itself: a card drawn (or fired) that can be played goes down at once, else the turn passes;
and the last but one card goes down with an UNO call (RLCard has no UNO call to forget). It
never acts out of turn, catches or challenges (RLCard's game has neither). Under UNO Attack
it presses where RLCard draws, and a wild that hits (Wild All Hit, Wild Hit-Fire) is one of
its wilds. Its dice are read by step and seat, as every bot's are (:mod:`.dice`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from uno_attack.actions import Action, Verb
from uno_attack.bots.dice import Dice
from uno_attack.cards import Color
from uno_attack.engine import Phase, Round

#: What RLCard's game has no room for: calls, catches and challenges.
_CALLS = frozenset({Verb.UNO, Verb.CATCH, Verb.CHALLENGE})


class RuleBot:
    """RLCard's ``uno-rule-v1``, ported; see the module docstring."""

    kind = "rule"

    def __init__(self, name: str = "rule", *, seed: int | str | None = None) -> None:
        self.name = name
        self.dice = Dice(seed)

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        pick = self.dice.at(game.steps, seat)
        if game.phase is not Phase.PLAY and game.phase is not Phase.AFTER:
            # a wild starter's colour, or taking on until a card fits: never a call
            moves = [a for a in legal if a.verb not in _CALLS]
            return moves[int(pick * len(moves))]
        plays = [a for a in legal if a.verb is Verb.PLAY and len(a.cards) == 1]
        if not plays:  # after a take, the engine lists only the cards that arrived
            passes = [a for a in legal if a.verb is Verb.PASS]
            if game.phase is Phase.AFTER and passes:
                return passes[0]
            return next(a for a in legal if a.verb is game.take_verb)
        draw_fours = [a for a in plays if _is_draw_four(game, a)]
        if draw_fours:
            colour = _most_held_colour(game, seat)
            named = [a for a in draw_fours if a.color is colour] or draw_fours
            return self._with_call(game, named[0])
        ordinary = [a for a in plays if not game.kind(a.cards[0]).wild] or plays
        return self._with_call(game, ordinary[int(pick * len(ordinary))])

    def react(self, game: Round, seat: int) -> Action | None:
        return None

    def recall(self, game: Round, seat: int, action: Action) -> None:
        """It remembers nothing between decisions."""

    @staticmethod
    def _with_call(game: Round, play: Action) -> Action:
        """The play, with an UNO call when it leaves one card (RLCard has none to forget)."""
        if len(game.hands[play.seat]) == 2 and game.is_legal(play.with_uno()):
            return play.with_uno()
        return play


def _is_draw_four(game: Round, play: Action) -> bool:
    """A Wild Draw Four: a wild whose play may be challenged as unfair."""
    kind = game.kind(play.cards[0])
    return kind.wild and kind.fair is not None


def _most_held_colour(game: Round, seat: int) -> Color | None:
    """The colour ``seat`` holds most cards of, wilds aside (the first such in its hand)."""
    counts = Counter(card.color for card in game.hands[seat] if not game.kind(card).wild)
    return counts.most_common(1)[0][0] if counts else None
