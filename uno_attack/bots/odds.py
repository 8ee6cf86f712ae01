"""What a seat can work out from what it has seen: the cards it has not seen, and the odds
that a Wild Draw Four it must answer was a bluff.

**The challenge rule** (VARIANTS.md A5). A Wild Draw Four is a bluff when its player held
a card of the colour it was played on. From the challenger's seat:

1. The cards it has not seen (the deck less its own hand and the discard pile, every card
   of which it saw played) are where the bluffer's hand came from. If the bluffer's ``h``
   cards left were drawn at random from those ``N`` cards, ``K`` of them of the colour the
   Wild Draw Four was played on, the chance that none is of that colour (a fair play) is
   the hypergeometric ``C(N-K, h) / C(N, h)``. The colour is the colour of the card under
   the Wild Draw Four; when that card is a wild too (its named colour is not kept), the
   chance is averaged over the four colours.
2. A player who holds the colour usually plays it instead: a Wild Draw Four is played
   :data:`BLUFF_LIKELIHOOD` times as often by a player who holds the colour as by one who
   does not. So the chance of a bluff, given that the card was played, is
   ``λ·q / (λ·q + 1 - q)``, with ``q`` the chance from step 1 that the bluffer holds the
   colour.
3. The costs come from the engine (a probe of each outcome): not challenging takes the
   penalty owed now; a challenge of a fair card takes its own penalty instead; a challenge
   of a bluff makes the bluffer take one (worth ``1 / (players - 1)`` of a card to the
   challenger per card, as the other opponents gain from it too) and costs nothing. The seat
   challenges when the expected number of cards it takes, less what the bluffer takes, is
   smaller than what it would take by not challenging.
"""

from __future__ import annotations

from uno_attack.actions import Action
from uno_attack.bots.worlds import set_bluff, unseen
from uno_attack.cards import COLORS, Color
from uno_attack.engine import Round

#: How often a player holding the current colour plays a Wild Draw Four, relative to a
#: player who does not (step 2 above): sensible players rarely throw one away on a bluff.
BLUFF_LIKELIHOOD = 0.1


def none_of(total: int, marked: int, drawn: int) -> float:
    """The chance that ``drawn`` cards taken at random from ``total``, ``marked`` of which
    are marked, include none of the marked ones (hypergeometric)."""
    chance = 1.0
    for i in range(drawn):
        if total - i <= 0:
            break
        chance *= max(total - marked - i, 0) / (total - i)
    return chance


def bluff_chance(game: Round, seat: int) -> float:
    """The chance that the Wild Draw Four ``seat`` must answer was a bluff (steps 1 and 2
    of the module docstring)."""
    challenge = game.owed[0].cause.challenge
    assert challenge is not None, "no Wild Draw Four to challenge"
    pool = unseen(game, seat)
    total = sum(pool.values())
    held = len(game.hands[challenge.by])
    under = game.discard[-2].color if len(game.discard) >= 2 else None
    colours: tuple[Color, ...] = COLORS if under is None else (under,)
    fair = sum(none_of(total, sum(n for card, n in pool.items() if card.color is colour), held)
               for colour in colours) / len(colours)
    holds = (1.0 - fair) * BLUFF_LIKELIHOOD
    return holds / (holds + fair) if holds + fair > 0 else 0.0


def challenge_pays(game: Round, seat: int) -> bool:
    """Whether ``seat`` should challenge the Wild Draw Four it must answer (step 3)."""
    head = game.owed[0]
    assert head.cause.challenge is not None
    assert isinstance(head.count, int)
    fair_cost = _challenged(game, seat, bluff=False)
    bluff_cost = _challenged(game, seat, bluff=True)
    p = bluff_chance(game, seat)
    worth = 1.0 / (game.players - 1)
    return (1 - p) * fair_cost - p * bluff_cost * worth < head.count


def _challenged(game: Round, seat: int, *, bluff: bool) -> int:
    """What the challenge costs the one who owes its penalty, in a probe of the round where
    the Wild Draw Four was (or was not) a bluff."""
    probe = game.copy()
    set_bluff(probe, bluff)
    probe.push(Action.challenge(seat))
    count = probe.owed[0].count
    assert isinstance(count, int)
    return count
