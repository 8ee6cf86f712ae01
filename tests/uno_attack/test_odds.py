"""The challenge rule: the chance of a bluff from what the challenger has seen."""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uno_attack.actions import Action
from uno_attack.bots.odds import BLUFF_LIKELIHOOD, bluff_chance, challenge_pays, none_of
from uno_attack.engine import Round
from uno_attack.options import Options
from uno_attack.rules import CLASSIC


@given(st.integers(0, 108), st.data())
def test_none_of_is_the_hypergeometric_chance(total: int, data: st.DataObject) -> None:
    marked = data.draw(st.integers(0, total))
    drawn = data.draw(st.integers(0, total))
    expected = comb(total - marked, drawn) / comb(total, drawn)
    assert none_of(total, marked, drawn) == pytest.approx(expected, abs=1e-12)


YELLOWS = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "YS", "YR"]


def kept(n: int) -> str:
    """``n`` yellow cards for the bluffer to keep."""
    return " ".join(YELLOWS[:n])


def w4_on_red(bluffer: str, challenger: str = "B1 B2 B3 G1 G2 G3 G4") -> Round:
    """Seat 0 plays a Wild Draw Four naming blue on a red 0; seat 1 must answer it."""
    hands = [CLASSIC.parse_cards(f"W+4 {bluffer}".split()),
             CLASSIC.parse_cards(challenger.split())]
    game = Round.setup(hands=hands, dealer=1, starter=CLASSIC.parse_card("R0"),
                       stock=CLASSIC.parse_cards(["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]),
                       options=Options(rules="classic"))
    game.apply(Action.parse("0 play W+4 blue", rules=CLASSIC))
    return game


def test_the_chance_comes_from_the_unseen_cards_of_the_colour() -> None:
    """Unseen: 108 less the challenger's 7 and the pile's 2 = 99, of which 24 red (25 red
    cards, the 0 on the pile); the bluffer kept 3 cards."""
    fair = comb(99 - 24, 3) / comb(99, 3)
    holds = (1 - fair) * BLUFF_LIKELIHOOD
    game = w4_on_red(kept(3))
    assert bluff_chance(game, 1) == pytest.approx(holds / (holds + fair))


def test_red_cards_seen_make_a_bluff_less_likely() -> None:
    """The challenger holding red cards leaves fewer of them for the bluffer."""
    plain = bluff_chance(w4_on_red(kept(7)), 1)
    seen = bluff_chance(w4_on_red(kept(7), "R1 R2 R3 R4 R5 R6 R7"), 1)
    assert seen < plain


def test_more_cards_kept_make_a_bluff_more_likely() -> None:
    chances = [bluff_chance(w4_on_red(kept(n)), 1) for n in (1, 4, 9)]
    assert chances == sorted(chances)
    assert chances[0] < 0.1 < chances[-1]


def test_it_challenges_only_when_the_odds_pay() -> None:
    """In two players a challenge pays above a one-in-five chance of a bluff (a fair
    card costs 6 instead of 4; a bluff costs nothing and gives the bluffer 4)."""
    for n in range(1, 12):
        game = w4_on_red(kept(n))
        assert challenge_pays(game, 1) == (bluff_chance(game, 1) > 0.2), n
    assert not challenge_pays(w4_on_red(kept(1)), 1)
    assert challenge_pays(w4_on_red(kept(9)), 1)
