"""The engine's API: what ``apply`` returns, owed penalties as values, who may act."""

from __future__ import annotations

import pytest

from uno_attack.actions import Action
from uno_attack.cards import Card
from uno_attack.engine import Applied, Round
from uno_attack.errors import IllegalActionError, TranscriptError
from uno_attack.penalties import FIRE, Unit, Why
from uno_attack.rules import ATTACK


def cards(*codes: str) -> list[Card]:
    return ATTACK.parse_cards(codes)


def act(text: str) -> Action:
    return Action.parse(text)


def attack_round(hands: list[str], starter: str = "R3", stock: str = "") -> Round:
    """Seat 0 plays first (the dealer is the last seat)."""
    return Round.setup(hands=[cards(*h.split()) for h in hands], dealer=len(hands) - 1,
                       starter=Card.parse(starter), stock=cards(*stock.split()))


class TestApplied:
    def test_discard_all_lays_its_colour_down_first(self) -> None:
        game = attack_round(["RD R9 R1 G2", "Y1 Y2"])
        applied = game.apply(act("0 play RD"))
        assert isinstance(applied, Applied)
        assert [c.code for c in applied.played] == ["R1", "R9", "RD"]
        assert game.top == Card.parse("RD")
        assert (applied.owed, applied.winner, applied.over) == ((), None, False)

    def test_a_press_says_what_it_brought_and_what_it_reloaded(self) -> None:
        game = attack_round(["R1 G2", "Y1 Y2"], stock="B1")
        game.apply(act("0 play R1"))
        game.apply(act("1 press"), fired=2)  # the launcher holds one: it fires
        applied = game.apply(act("0 press"), fired=1)  # empty: reloads R3, fires it
        assert applied.reloads == (tuple(cards("R3")),)
        assert applied.gained == tuple(cards("R3"))
        assert game.discard == cards("R1")

    def test_skip_and_trade_hands_report_seats_and_hands(self) -> None:
        game = attack_round(["RS R7 R8", "Y1 Y2", "B1 B2"])
        assert game.apply(act("0 play RS")).skipped == (1,)
        game = attack_round(["RT R7 R8", "Y1 Y2", "B1 B2"])
        assert game.apply(act("0 play RT 2")).hands == ((0, 2), (2, 0))
        assert game.hands[0] == cards("B1", "B2")

    def test_the_last_card_says_who_won_and_when_the_round_is_over(self) -> None:
        game = attack_round(["RH", "Y1 Y2"], stock="G1 G2")
        applied = game.apply(act("0 play RH"))
        assert (applied.winner, applied.over) == (0, False)  # the Hit 2's presses remain
        game.apply(act("1 press"), fired=1)
        assert game.apply(act("1 press"), fired=1).over

    def test_push_returns_the_same_fields_unnamed(self) -> None:
        one, two = attack_round(["RD R9 R1", "Y1"]), attack_round(["RD R9 R1", "Y1"])
        assert one.push(act("0 play RD")) == two.apply(act("0 play RD"))


class TestOwed:
    def test_a_hit2_penalty_names_its_card_unit_and_that_it_may_be_answered(self) -> None:
        game = attack_round(["RH R1", "Y1 Y2", "B1"], stock="G1 G2")
        game.apply(act("0 play RH"))
        (owed,) = game.owed
        assert (owed.seat, owed.count, owed.unit) == (1, 2, Unit.PRESS)
        assert (owed.cause.why, owed.cause.card, owed.cause.by) == (Why.CARD, Card.parse("RH"), 0)
        assert owed.answerable
        game.apply(act("1 press"), fired=0)
        assert game.owed_list() == [[1, 1]]
        assert not game.owed[0].answerable  # begun: it can no longer be answered

    def test_a_catch_is_owed_first_and_says_so(self) -> None:
        game = attack_round(["WF R1", "Y1 Y2", "B1 B2"], stock="G1 G2")
        game.apply(act("0 play WF green"))
        game.apply(act("2 catch 0"))
        assert game.owed_list() == [[0, 2], [1, FIRE]]
        assert game.owed[0].cause.why is Why.CATCH
        assert game.owed[0].cause.by == 2
        assert game.owed[1].cause.card == Card.parse("WF")

    def test_a_starters_penalty_cannot_be_answered(self) -> None:
        game = attack_round(["R1", "Y1", "B1"], starter="RH", stock="G1 G2")
        assert game.owed[0].cause.why is Why.STARTER
        assert not game.owed[0].answerable


class TestWhoMayAct:
    def test_out_of_turn_seats_see_their_uno_and_catch(self) -> None:
        game = attack_round(["R5 G7", "B1 B2", "Y1 Y2"])
        game.apply(act("0 play R5"))
        assert game.legal_actions(0) == [act("0 uno")]
        assert game.legal_actions(2) == [act("2 catch 0")]
        assert act("1 catch 0") in game.legal_actions(1)
        assert game.listed_actions() == game.legal_actions(1)

    def test_nothing_changes_when_a_reload_shuffle_raises(self) -> None:
        game = attack_round(["R5 G7", "B1 B2", "Y1 Y2"])
        game.apply(act("0 play R5"))  # seat 0's UNO window is open
        before = game.snapshot()

        def broken(cards: list[Card]) -> None:
            raise TranscriptError("reload order does not match")

        with pytest.raises(TranscriptError):
            game.apply(act("1 press"), fired=1, shuffle=broken)
        assert game.snapshot() == before
        assert game.uno_seat == 0  # the window was not closed by the failed press

    def test_an_illegal_action_names_the_rule(self) -> None:
        game = attack_round(["RH R1", "Y1 Y2", "B1"], stock="G1 G2")
        game.apply(act("0 play RH"))
        with pytest.raises(IllegalActionError, match=r"seat 1 owes 2 presses.*RULES.md 5"):
            game.apply(act("1 play Y1"))
        with pytest.raises(IllegalActionError, match=r"no draw pile.*RULES.md 4"):
            game.apply(act("1 draw"))
