"""The ``rule`` bot plays as RLCard's ``uno-rule-v1`` does (rlcard/models/uno_rule_models.py)."""

from __future__ import annotations

from uno_attack.actions import Action, Verb
from uno_attack.bots import RuleBot, make_bot
from uno_attack.cards import Color
from uno_attack.engine import Round
from uno_attack.options import Options
from uno_attack.rules import CLASSIC
from uno_attack.transcript import Transcript


def deal(hands: tuple[str, ...], starter: str, stock: str = "R1 Y2 G3 B4 R6 Y7") -> Round:
    return Transcript(name="rule bot", players=len(hands), dealer=len(hands) - 1,
                      hands=[CLASSIC.parse_cards(h.split()) for h in hands],
                      starter=CLASSIC.parse_cards([starter]),
                      launcher=CLASSIC.parse_cards(stock.split()),
                      options=Options(rules="classic", wild_draw_four="free")).new_round()


def choice(game: Round, seed: int = 0) -> Action:
    bot = make_bot("rule", "rule", seed=seed)
    assert isinstance(bot, RuleBot)
    action = bot.choose(game, 0, game.legal_actions())
    assert game.is_legal(action), action
    return action


def test_a_wild_draw_four_goes_down_naming_the_colour_held_most() -> None:
    game = deal(("R7 W+4 B1 B2 B3 G9", "Y1 Y2 Y3"), "R3")
    for seed in range(8):
        action = choice(game, seed)
        assert action.cards == (CLASSIC.parse_card("W+4"),)
        assert action.color is Color.BLUE


def test_a_plain_card_before_a_wild_uniformly_among_the_plain_ones() -> None:
    game = deal(("R7 W R8 G3", "Y1 Y2 Y3"), "R3")
    played = {choice(game, seed).cards[0].code for seed in range(40)}
    assert played == {"R7", "R8", "G3"}  # never the wild while a plain card may be played


def test_only_wilds_to_play_one_of_them_with_a_colour_at_random() -> None:
    game = deal(("W B1", "Y1 Y2 Y3"), "R3")
    colours = {choice(game, seed).color for seed in range(40)}
    assert len(colours) > 1


def test_nothing_to_play_it_draws_and_plays_what_arrived() -> None:
    game = deal(("B1 B2", "Y1 Y2 Y3"), "R3", stock="R5 Y7")
    assert choice(game).verb is Verb.DRAW
    game.apply(Action(0, Verb.DRAW))
    assert choice(game) == Action.play(0, CLASSIC.parse_card("R5"))


def test_its_last_but_one_card_goes_down_with_an_uno_call() -> None:
    game = deal(("R7 B1", "Y1 Y2 Y3"), "R3")
    action = choice(game)
    assert action.cards == (CLASSIC.parse_card("R7"),)
    assert action.uno


def test_it_never_acts_out_of_turn() -> None:
    game = deal(("R7 B1", "Y1 Y2 Y3"), "R3")
    game.apply(Action.play(0, CLASSIC.parse_card("R7")))  # no UNO: it could be caught
    assert make_bot("rule", "rule").react(game, 1) is None
