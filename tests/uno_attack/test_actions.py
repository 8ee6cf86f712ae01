"""Actions go to text and back exactly as TRANSCRIPTS.md writes them."""

import pytest

from uno_attack.actions import Action, Verb
from uno_attack.cards import Card, Color
from uno_attack.errors import InvalidActionError


@pytest.mark.parametrize("text", [
    "1 play R9", "1 play W green", "1 play RT 2", "1 play R9 uno", "3 play WA blue uno",
    "0 play GT 1 uno", "1 press", "1 pass", "1 choose blue", "1 uno", "2 catch 1", "10 press",
])
def test_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action
    assert eval(repr(action)) == action


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
    ("1 play W", "a colour"),
    ("1 play W pink", "invalid colour"),
    ("1 play RT", "a seat"),
    ("1 play R5 green", "one card"),
    ("1 press now", "no arguments"),
    ("1 catch", "a seat"),
    ("1 uno uno", "no arguments"),
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
