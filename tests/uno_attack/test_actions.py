"""Actions go to text and back exactly as TRANSCRIPTS.md writes them."""

import pytest

from uno_attack.actions import Action, Verb
from uno_attack.cards import Card, Color
from uno_attack.errors import InvalidActionError
from uno_attack.rules import CLASSIC


@pytest.mark.parametrize("text", [
    "1 play R9", "1 play W green", "1 play RT 2", "1 play R9 uno", "3 play WA blue uno",
    "0 play GT 1 uno", "1 press", "1 pass", "1 choose blue", "1 uno", "2 catch 1", "10 press",
    "1 play R5 G5 B5", "1 play W W green", "1 play R7 2", "1 play R5 G5 uno", "3 out",
    "2 challenge", "1 draw",
])
def test_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action
    assert eval(repr(action)) == action


@pytest.mark.parametrize("text", ["1 play R+2", "1 play W+4 blue uno", "0 play R0", "1 draw",
                                  "2 challenge", "1 play B+2 G+2"])
def test_classic_cards_in_a_classic_game(text: str) -> None:
    action = Action.parse(text, rules=CLASSIC)
    assert str(action) == text


def test_several_cards_last_on_top() -> None:
    action = Action.parse("1 play R5 G5 B5 uno")
    assert action.cards == (Card.parse("R5"), Card.parse("G5"), Card.parse("B5"))
    assert action.card == Card.parse("R5")
    assert action.uno
    assert Action.parse("1 play W W green").color is Color.GREEN


def test_fields() -> None:
    action = Action.parse("2 play WF red uno")
    assert (action.seat, action.verb, action.card, action.color, action.uno) == (
        2, Verb.PLAY, Card.parse("WF"), Color.RED, True)
    assert action.text(seat=False, uno=False) == "play WF red"


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "expected 'SEAT VERB"),
    ("press", "expected 'SEAT VERB"),
    ("x press", "not a seat number"),
    ("1 jump", "unknown verb 'jump'"),
    ("1 play", "needs a card"),
    ("1 play R0", "invalid card code: 'R0'"),
    ("1 play R+2", "invalid card code: 'R+2'"),
    ("1 play W", "a colour"),
    ("1 play W pink", "invalid card code: 'pink'"),
    ("1 play RT", "a seat"),
    ("1 play R5 green", "names no colour"),
    ("1 play R5 green 2 3", "unexpected '3'"),
    ("1 play R5 2 green", "unexpected 'green'"),
    ("1 press now", "no arguments"),
    ("1 draw 2", "no arguments"),
    ("1 out 3", "no arguments"),
    ("1 catch", "a seat"),
    ("1 uno uno", "no arguments"),
    ("² press", "'²' is not a seat number"),
    ("٣ press", "'٣' is not a seat number"),
    ("1 catch ³", "'³' is not a seat number"),
    ("1 play RT ٢", "'٢' is not a seat number"),
    ("01 press", "'01' is not a seat number"),
    ("1" * 5000 + " press", "is not a seat number"),
])
def test_invalid_actions_name_the_text(text: str, fragment: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        Action.parse(text)
    assert fragment in str(info.value)
    assert repr(text) in str(info.value)


def test_with_uno_only_on_plays() -> None:
    assert Action.parse("1 play R5").with_uno() == Action.parse("1 play R5 uno")
    with pytest.raises(InvalidActionError):
        Action.parse("1 press").with_uno()
