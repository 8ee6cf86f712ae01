"""An illegal move names the rule it breaks: the rule that would have allowed it, where an
option would have, not only the rule of the penalty that stands in its way."""

from __future__ import annotations

import pytest

from uno_attack.actions import Action
from uno_attack.engine import Round
from uno_attack.errors import IllegalActionError
from uno_attack.options import Options
from uno_attack.rules import ATTACK, CLASSIC


def _round(hands: list[list[str]], starter: str, options: Options) -> Round:
    rules = CLASSIC if options.rules == "classic" else ATTACK
    stock = rules.parse_cards(["G1", "G2", "G3", "G4"])
    return Round.setup(hands=[rules.parse_cards(h) for h in hands], dealer=2,
                       starter=rules.parse_card(starter), stock=stock, options=options)


def _refusal(game: Round, text: str) -> str:
    action = Action.parse(text, rules=game.rules)
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action, fired=1)
    assert game.snapshot() == before
    return info.value.reason


@pytest.mark.parametrize("rules", ["attack", "classic"])
def test_a_jump_in_while_a_penalty_is_owed_cites_b2(rules: str) -> None:
    hit = "RH" if rules == "attack" else "R+2"
    game = _round([[hit, "R1"], ["B1", "B2"], [hit, "Y1"]], "R5",
                  Options(rules=rules, jump_in="any"))
    game.apply(Action.parse(f"0 play {hit}", rules=game.rules))
    reason = _refusal(game, f"2 play {hit}")
    assert "no jump-in while a penalty is owed (VARIANTS.md B2)" in reason
    assert "seat 1 owes 2" in reason


def test_without_jump_in_an_out_of_turn_play_cites_the_penalty() -> None:
    game = _round([["RH", "R1"], ["B1", "B2"], ["RH", "Y1"]], "R5", Options())
    game.apply(Action.parse("0 play RH"))
    assert _refusal(game, "2 play RH") == "seat 1 owes 2 presses first (RULES.md 5)"


def test_another_seat_after_a_last_card_cites_e5() -> None:
    game = _round([["RH"], ["B1", "B2"], ["RH", "Y1"]], "R5", Options(jump_in="any"))
    game.apply(Action.parse("0 play RH"))
    assert game.winner == 0
    for text in ("2 play RH", "2 press"):
        assert "after a hand is empty only what is owed is made (VARIANTS.md E5)" in \
            _refusal(game, text)


@pytest.mark.parametrize(("rules", "take"), [("attack", "press"), ("classic", "draw")])
def test_a_second_take_in_one_turn_names_the_seat_and_the_rule(rules: str, take: str) -> None:
    options = Options(rules=rules) if rules == "classic" else Options(play_after_press=True)
    game = _round([["B7", "B8"], ["B1", "B2"], ["B3", "Y1"]], "G5", options)
    game.apply(Action.parse(f"0 {take}", rules=game.rules), fired=1)  # a playable G arrives
    reason = _refusal(game, f"0 {take}")
    assert reason.startswith("seat 0 has already")
    assert ("play_after_press, RULES.md 9" if rules == "attack" else "VARIANTS.md A4") in reason


def test_a_second_press_is_refused_without_offering_a_pass_the_rule_forbids() -> None:
    from uno_attack.actions import Action
    from uno_attack.options import Options
    from uno_attack.rules import ATTACK
    from uno_attack.transcript import Transcript

    def after_a_press(**options: bool) -> str | None:
        deal = Transcript(name="t", players=2, dealer=1,
                          hands=[ATTACK.parse_cards(["G5", "B6"]),
                                 ATTACK.parse_cards(["Y1", "Y2"])],
                          starter=ATTACK.parse_cards(["R3"]),
                          launcher=ATTACK.parse_cards(["R7", "Y9"]), options=Options(**options))
        game = deal.new_round()
        game.apply(Action.parse("0 press"), fired=1)
        return game.illegal_reason(Action.parse("0 press"))

    assert after_a_press(until_playable=True) == (
        "seat 0 has already pressed this turn: play a card that arrived "
        "(until_playable, VARIANTS.md B5)")
    assert after_a_press(play_after_press=True) == (
        "seat 0 has already pressed this turn: play a card that arrived, or pass "
        "(play_after_press, RULES.md 9)")
