"""Two rules that hold after every action of any game, checked with hypothesis:

- RULES.md 7 and VARIANTS.md E11, E15: the UNO window closes when any other seat acts, so
  after an action only the seat that made it can hold an open window (or the seat that
  held it, if that seat acted itself), and only while holding exactly one card;
- RULES.md 4: the current colour is the top card's colour, or, for a wild on top, a colour
  named (none only while a wild starter's colour is to be named).
"""

from __future__ import annotations

import random

from hypothesis import given

from tests.uno_attack.test_engine_owed_first import rounds_from_any_starter
from tests.uno_attack.test_engine_properties import SETTINGS, STEPS
from uno_attack.actions import Action, Verb
from uno_attack.engine import Phase, Round


def _random_action(game: Round, rng: random.Random) -> Action:
    """A legal action of the seat to act, or (a third of the time) of any seat out of turn,
    with an UNO call on half the plays that leave one card."""
    seat = rng.randrange(game.players) if rng.random() < 0.3 else game.to_act
    action = rng.choice(game.legal_actions(seat) or game.legal_actions())
    if action.verb is Verb.PLAY and rng.random() < 0.5 and game.hand_after(action) == 1:
        action = action.with_uno()
    return action


@SETTINGS
@given(rounds_from_any_starter())
def test_the_window_and_the_current_colour_after_every_action(
        dealt: tuple[Round, random.Random]) -> None:
    game, rng = dealt
    for _ in range(STEPS):
        if game.over:
            break
        window = game.uno_seat
        action = _random_action(game, rng)
        game.apply(action, fired=rng.choice([0, 1, 1, 2, 5]), shuffle=rng.shuffle)
        if game.uno_seat is not None:
            assert len(game.hands[game.uno_seat]) == 1
            assert game.uno_seat == action.seat, (str(action), window, game.uno_seat)
            if game.uno_seat != window:
                assert action.verb is Verb.PLAY  # opened by this play …
                assert not action.uno  # … without a call
        top = game.top
        if top.color is not None:
            assert game.color is top.color
        else:
            assert (game.color is None) == (game.phase is Phase.CHOOSE)
