"""Who decides next: the seat in turn, or first the seats asked out of turn, in order."""

from __future__ import annotations

from uno_attack.actions import Action
from uno_attack.engine import Round
from uno_attack.options import Options
from uno_attack.rules import CLASSIC
from uno_attack.transcript import Transcript
from uno_attack.turns import Decision, Turns, reaction_order


def deal(hands: tuple[str, ...], starter: str, **options: object) -> Round:
    return Transcript(name="turns", players=len(hands), dealer=len(hands) - 1,
                      hands=[CLASSIC.parse_cards(h.split()) for h in hands],
                      starter=CLASSIC.parse_cards([starter]),
                      options=Options(rules="classic", **options),  # type: ignore[arg-type]
                      ).new_round()


def act(game: Round, turns: Turns, text: str) -> None:
    game.apply(Action.parse(text, rules=game.rules))
    turns.acted()


def test_an_uno_window_asks_every_seat_from_the_forgetter_then_the_turn_moves() -> None:
    game = deal(("R5 B1", "Y1 Y2 Y3", "G1 G2 G3"), "R3")
    turns = Turns(game)
    assert turns.decision == Decision(0, reacting=False)
    act(game, turns, "0 play R5")  # one card left, UNO not called
    assert turns.asking == tuple(reaction_order(game)) == (1, 2, 0)  # the forgetter last
    for seat in (1, 2, 0):
        assert turns.decision == Decision(seat, reacting=True)
        turns.declined()
    assert turns.decision == Decision(1, reacting=False)


def test_only_the_seats_the_table_asks_are_asked() -> None:
    game = deal(("R5 B1", "Y1 Y2 Y3", "G1 G2 G3"), "R3")
    turns = Turns(game, asks=lambda seat: seat != 1)
    act(game, turns, "0 play R5")
    assert turns.asking == (2, 0)


def test_an_action_out_of_turn_starts_the_asking_again_from_what_it_left() -> None:
    game = deal(("R5 B1 B2", "R5 Y2 Y3", "G1 G2 G3", "R5 G4 G5", "B3 B4 B5"), "R3",
                jump_in="numbers")
    turns = Turns(game, asks=lambda seat: seat != game.to_act and bool(game.legal_actions(seat)))
    act(game, turns, "0 play R5")
    assert turns.asking == (3,)  # seat 1, in turn, plays its red 5 in turn if it likes
    act(game, turns, "3 play R5")  # a jump-in: seat 4 is in turn now
    assert turns.asking == (1,)  # the last red 5 may jump in on it
    act(game, turns, "1 play R5")
    assert not turns.reacting  # no red 5 is left to jump in with
    assert turns.decision == Decision(2, reacting=False)


def test_a_round_over_waits_for_no_one() -> None:
    game = deal(("R5", "Y1 Y2 Y3"), "R3")
    turns = Turns(game)
    act(game, turns, "0 play R5")  # out: the round is over
    assert game.over
    assert turns.decision is None
