"""A refusal is a value: the rule it cites and the seats it names, beside the sentence a
transcript records, so a front end says it with names and "you" from its fields."""

from __future__ import annotations

import pytest

from uno_attack.actions import Action
from uno_attack.engine import Round
from uno_attack.errors import IllegalActionError
from uno_attack.options import Options
from uno_attack.refusal import Refusal, SeatWord, say
from uno_attack.rules import ATTACK
from uno_attack.wording import YOU


def _round(hands: list[str], starter: str, options: Options | None = None) -> Round:
    return Round.setup(hands=[ATTACK.parse_cards(h.split()) for h in hands], dealer=2,
                       starter=ATTACK.parse_card(starter),
                       stock=ATTACK.parse_cards(["G1", "G2", "G3", "G4"]),
                       options=options or Options())


def _refusal(game: Round, text: str) -> Refusal:
    refusal = game.refusal(Action.parse(text, rules=game.rules))
    assert refusal is not None
    assert str(refusal) == game.illegal_reason(Action.parse(text, rules=game.rules))
    return refusal


def test_a_refusal_out_of_turn_carries_its_rule_and_both_seats() -> None:
    game = _round(["R1 R2", "B1 B2", "Y1 Y2"], "R5")
    refusal = _refusal(game, "2 press")
    assert str(refusal) == "it is seat 0's turn, not seat 2's (RULES.md 4)"
    assert refusal.rule == "RULES.md 4"
    assert refusal.seats == (0, 2)
    assert refusal.for_names([YOU, "Ada", "Ben"]) == "it is your turn, not Ben's (RULES.md 4)"
    assert refusal.for_names(["Ada", "Ben", YOU]) == "it is Ada's turn, not yours (RULES.md 4)"


def test_names_come_from_the_fields_not_from_the_sentence() -> None:
    """A name that reads like a seat stays a name, and seat 1 is "you" by its field."""
    game = _round(["R1 R2", "B1 B2", "Y1 Y2"], "R5")
    refusal = _refusal(game, "1 press")
    names = ["seat 2", YOU, "Ben"]
    assert refusal.for_names(names) == "it is seat 2's turn, not yours (RULES.md 4)"
    assert say(refusal.parts(), names) == refusal.for_names(names)
    assert refusal.parts() == ("it is ", SeatWord(0, "'s"), " turn, not ", SeatWord(1, "yours"),
                               " (RULES.md 4)")


def test_the_verb_after_you_agrees() -> None:
    game = _round(["R1 R2", "B1 B2", "Y1 Y2"], "G5", Options(until_playable=True))
    game.apply(Action.parse("0 press"), fired=0)  # nothing came: pressing goes on (B5)
    refusal = _refusal(game, "0 play R1")
    assert str(refusal) == ("seat 0 goes on pressing until a playable card arrives "
                            "(until_playable, VARIANTS.md B5)")
    assert refusal.rule == "until_playable, VARIANTS.md B5"
    assert refusal.for_names([YOU, "Ada", "Ben"]) == (
        "You go on pressing until a playable card arrives (until_playable, VARIANTS.md B5)")


def test_a_number_that_is_no_seat_is_a_word() -> None:
    game = _round(["R1 R2", "B1 B2", "Y1 Y2"], "R5")
    refusal = _refusal(game, "0 catch 7")
    assert refusal.seats == ()
    assert refusal.for_names([YOU, "Ada", "Ben"]) == "there is no seat 7 to catch (RULES.md 7)"


def test_an_illegal_action_keeps_its_message_and_gives_its_parts() -> None:
    game = _round(["R1 R2", "B1 B2", "Y1 Y2"], "R5")
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("0 play B1"))
    error = info.value
    assert str(error) == "illegal action '0 play B1': seat 0 does not hold B1 (RULES.md 4)"
    assert error.reason == "seat 0 does not hold B1 (RULES.md 4)"
    assert error.refusal is not None
    assert error.refusal.seats == (0,)
    assert say(error.parts(), [YOU, "Ada", "Ben"]) == (
        "illegal action '0 play B1': you do not hold B1 (RULES.md 4)")
