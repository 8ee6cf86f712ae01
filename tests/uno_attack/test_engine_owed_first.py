"""Owed penalties come before everything else (RULES.md 7: "before anything else that is
owed"; VARIANTS.md B8: "owed at once"; TRANSCRIPTS.md: `turn` is the seat owing while one is
owed), in every phase of a round: also while a wild starter's colour is still to be named,
after a press or draw, and during an ``until_playable`` chain. Checked with hypothesis over
random games from every starter kind and random valid options."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from tests.uno_attack.test_engine_properties import SETTINGS, STEPS, options, random_step
from uno_attack.actions import Verb
from uno_attack.engine import Phase, Round
from uno_attack.rules import rule_set

#: What the seat owing the first penalty may do besides pressing or drawing it.
_ALSO_WHILE_OWING = {Verb.PLAY, Verb.CHALLENGE, Verb.UNO, Verb.CATCH}


@st.composite
def rounds_from_any_starter(draw: st.DrawFn) -> tuple[Round, random.Random]:
    """A dealt round whose starter is any card that is not put back (a wild one half the
    time), with random options and 3 cards a hand."""
    players = draw(st.integers(2, 6))
    chosen = draw(options(players))
    rules = rule_set(chosen.rules)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    deck = list(rules.deck)
    rng.shuffle(deck)
    starters = [c for c in rules.cards if not rules.kind(c).put_back]
    wilds = [c for c in starters if c.color is None]
    starter = draw(st.sampled_from(wilds) if draw(st.booleans()) else st.sampled_from(starters))
    deck.remove(starter)
    hands = [deck[i * 3:(i + 1) * 3] for i in range(players)]
    stock = deck[players * 3:]
    game = Round.setup(hands=hands, dealer=draw(st.integers(0, players - 1)), starter=starter,
                       stock=stock, options=chosen)
    return game, rng


def _check_owed_first(game: Round) -> None:
    if not game.owed:
        return
    head = game.owed[0]
    assert game.to_act == head.seat
    listed = game.legal_actions()
    assert game.take_verb in {a.verb for a in listed}, listed
    assert {a.verb for a in listed} <= {game.take_verb, *_ALSO_WHILE_OWING}, listed
    if any(a.verb is Verb.PLAY for a in listed):
        assert head.answerable, listed  # only a stack or a deflection answers a penalty
    for seat in range(game.players):
        if seat != head.seat:
            verbs = {a.verb for a in game.legal_actions(seat)}
            assert verbs <= {Verb.UNO, Verb.CATCH}, (seat, verbs)
    if game.winner is not None:
        assert [a.verb for a in listed] == [game.take_verb]  # VARIANTS.md E5


@SETTINGS
@given(rounds_from_any_starter())
def test_a_penalty_owed_is_made_first_in_every_phase(dealt: tuple[Round, random.Random]) -> None:
    game, rng = dealt
    for _ in range(STEPS):
        _check_owed_first(game)
        if game.over:
            break
        random_step(game, rng)


@SETTINGS
@given(rounds_from_any_starter())
def test_only_the_player_left_of_the_dealer_names_a_wild_starters_colour(
        dealt: tuple[Round, random.Random]) -> None:
    game, rng = dealt
    left = (game.dealer + 1) % game.players
    for _ in range(STEPS):
        if game.phase is not Phase.CHOOSE:
            break
        for seat in range(game.players):
            named = any(a.verb is Verb.CHOOSE for a in game.legal_actions(seat))
            assert named == (seat == left and not game.owed), (seat, game.owed_list())
        random_step(game, rng)
