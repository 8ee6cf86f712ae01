"""Bots: legal, deterministic, and the basic bot plays well."""

from __future__ import annotations

from uno_attack.actions import Action, Verb
from uno_attack.bots import BasicBot
from uno_attack.cards import Card
from uno_attack.engine import Round
from uno_attack.simulate import simulate


def cards(*codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes]


def test_basic_beats_three_random_bots() -> None:
    stats = simulate(2000, 4, "mixed", seed=1)
    share = stats.wins["basic"] / stats.games
    assert share >= 0.40, f"basic won {share:.1%} of rounds"


def test_simulation_is_deterministic() -> None:
    assert simulate(30, 3, "random", 5).to_json() == simulate(30, 3, "random", 5).to_json()


def round_with(hands: list[list[Card]], starter: str) -> Round:
    return Round.setup(hands=hands, dealer=len(hands) - 1, starter=Card.parse(starter),
                       stock=cards("G1", "G2", "G3"))


class TestBasicBot:
    bot = BasicBot()

    def test_sheds_high_points_and_keeps_wilds(self) -> None:
        game = round_with([cards("R2", "RD", "W", "B3"), cards("Y1", "Y2")], "R5")
        action = self.bot.choose(game, 0, game.legal_actions())
        assert action.card == Card.parse("RD")

    def test_calls_uno_with_the_play(self) -> None:
        game = round_with([cards("R2", "B3"), cards("Y1", "Y2")], "R5")
        action = self.bot.choose(game, 0, game.legal_actions())
        assert action == Action.parse("0 play R2 uno")
        game.apply(action)
        assert game.uno_seat is None

    def test_trade_hands_aims_at_the_smallest_hand(self) -> None:
        game = round_with([cards("RT", "B3", "B4", "B5", "G7"), cards("Y1", "Y2", "Y3"),
                           cards("G4"), cards("Y5", "Y6")], "R5")
        action = self.bot.choose(game, 0, game.legal_actions())
        assert (action.card, action.target) == (Card.parse("RT"), 2)

    def test_catches_a_player_who_forgot(self) -> None:
        game = round_with([cards("R2", "B3"), cards("Y1", "Y2"), cards("G1", "G2")], "R5")
        game.apply(Action.parse("0 play R2"))
        assert self.bot.react(game, 2) == Action.parse("2 catch 0")
        assert self.bot.react(game, 0) == Action.parse("0 uno")

    def test_wild_names_its_strongest_colour(self) -> None:
        game = round_with([cards("W", "B3", "B4", "G1"), cards("Y1", "Y2")], "R5")
        action = self.bot.choose(game, 0, game.legal_actions())
        assert (action.verb, action.card, str(action.color)) == (Verb.PLAY, Card.parse("W"),
                                                                 "blue")
