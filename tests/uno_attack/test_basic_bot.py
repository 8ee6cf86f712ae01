"""The basic bot's choices under the rule sets and house rules: each test sets up a table
where one choice is the sensible one and a bot that ignored the rule in question would
make another."""

from __future__ import annotations

from collections.abc import Sequence

from uno_attack.actions import Action, Verb
from uno_attack.bots import BasicBot
from uno_attack.cards import Color
from uno_attack.engine import Round
from uno_attack.options import Options
from uno_attack.rules import rule_set

BOT = BasicBot()


def table(hands: Sequence[str], starter: str, *, stock: str = "", **options: object) -> Round:
    """A round with these hands (codes separated by spaces), seat 0 to play first."""
    chosen = Options(**options)  # type: ignore[arg-type]
    rules = rule_set(chosen.rules)
    filler = "R1 R2 R3 R4 Y1 Y2 Y3 Y4 G1 G2 G3 G4"
    return Round.setup(hands=[rules.parse_cards(h.split()) for h in hands],
                       dealer=len(hands) - 1, starter=rules.parse_card(starter),
                       stock=rules.parse_cards((stock or filler).split()), options=chosen)


def act(game: Round, text: str) -> None:
    game.apply(Action.parse(text, rules=game.rules), fired=1)


def choice(game: Round) -> str:
    seat = game.to_act
    assert seat is not None
    action = BOT.choose(game, seat, game.legal_actions())
    assert game.is_legal(action), action
    return action.text(seat=False)


class TestShedding:
    def test_sheds_high_points_and_keeps_wilds(self) -> None:
        game = table(["R2 RD W B3", "Y1 Y2"], "R5")
        assert choice(game) == "play RD"

    def test_calls_uno_with_the_play(self) -> None:
        game = table(["R2 B3", "Y1 Y2"], "R5")
        assert choice(game) == "play R2 uno"

    def test_wild_names_its_strongest_colour(self) -> None:
        game = table(["W B3 B4 G1", "Y1 Y2"], "R5")
        assert choice(game) == "play W blue"

    def test_plays_every_card_of_the_symbol_the_kept_colour_last(self) -> None:
        """B3: several cards are legal but never listed; the bot builds the play."""
        game = table(["R5 G5 B5 G7 G8 Y9", "Y1 Y2"], "R3", multi_play="numbers")
        assert choice(game) == "play R5 B5 G5"

    def test_several_cards_only_as_far_as_the_mode_allows(self) -> None:
        game = table(["RS GS B7 Y9", "Y1 Y2"], "R3", multi_play="numbers")
        assert choice(game) == "play RS"
        game = table(["RS GS B7 Y9", "Y1 Y2"], "R3", multi_play="symbols")
        assert choice(game) == "play RS GS"

    def test_does_not_keep_a_hand_that_cannot_end_the_round(self) -> None:
        """B7: under no_action two wilds cannot end a hand: it plays a wild first."""
        assert choice(table(["W W R5", "Y1 Y2"], "R2")) == "play R5"
        assert choice(table(["W W R5", "Y1 Y2"], "R2", last_card="no_action")) == "play W red"


class TestSeats:
    def test_trade_hands_aims_at_the_smallest_hand(self) -> None:
        game = table(["RT B3 B4 B5 G7", "Y1 Y2 Y3", "G4", "Y5 Y6"], "R5")
        assert choice(game) == "play RT 2 uno"  # it then holds one card

    def test_a_seven_aims_at_the_smallest_hand(self) -> None:
        """B4: the 7 names a seat; the bot picks the one that leaves it fewest cards."""
        game = table(["R7 B1 B2 B3 B4", "Y1 Y2 Y3 Y4 Y5", "G1 G2", "Y6 Y7 Y8 Y9"], "R5",
                     seven_zero=True)
        assert choice(game) == "play R7 2"

    def test_no_seven_into_a_bigger_hand(self) -> None:
        game = table(["R7 R8 B1", "Y1 Y2 Y3 Y4 Y5", "G1 G2 G3 G4"], "R5", seven_zero=True)
        assert choice(game) == "play R8"

    def test_a_zero_passes_hands_on_when_that_gains(self) -> None:
        """B4 (classic): a 0 passes every hand on; the bot gets the hand behind it."""
        hands = ["R0 R9 B1 B2 B3 B4", "Y1 Y2 Y3 Y4 Y5 Y6 Y7", "G1 G2"]
        assert choice(table(hands, "R5", rules="classic", seven_zero=True)) == "play R0"
        hands[1], hands[2] = hands[2], hands[1]
        assert choice(table(hands, "R5", rules="classic", seven_zero=True)) == "play R9"


class TestPenalties:
    def test_stacks_a_hit_2_rather_than_press(self) -> None:
        game = table(["RH R1 R2", "GH Y7 Y8 B1"], "R5", stacking="same")
        act(game, "0 play RH")
        assert choice(game) == "play GH"

    def test_deflects_with_a_matching_skip(self) -> None:
        game = table(["RH R1 R2", "RS Y7 Y8 B1", "G1 G2 G3"], "R5", deflect=True)
        act(game, "0 play RH")
        assert choice(game) == "play RS"

    def test_stacks_rather_than_challenges(self) -> None:
        game = table(["W+4 R1 R2 R3 R4 R5 R6 R7 R8 R9", "W+4 B1 B2 G1 G2 G3 G4"], "R0",
                     rules="classic", stacking="same")
        act(game, "0 play W+4 blue")
        assert choice(game) == "play W+4 green"

    def test_challenges_a_big_hand(self) -> None:
        """A bluffer keeping nine cards very likely holds red (the odds rule): challenge."""
        game = table(["W+4 R1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9", "B1 B2 B3 G1 G2 G3 G4"], "R0",
                     rules="classic")
        act(game, "0 play W+4 blue")
        assert choice(game) == "challenge"

    def test_takes_a_small_hands_draw_four(self) -> None:
        """With one card kept, a red one is unlikely: draw the four."""
        game = table(["W+4 R1 Y1", "B1 B2 B3 G1 G2 G3 G4"], "R0", rules="classic")
        act(game, "0 play W+4 blue")
        assert choice(game) == "draw"


class TestWildDrawFour:
    def test_plays_it_fairly(self) -> None:
        """Holding red, it plays red, not an unfair Wild Draw Four."""
        game = table(["W+4 R1 B5 B6", "G1 G2 G3 G4 G5 G6 G7"], "R0", rules="classic")
        assert choice(game) == "play R1"

    def test_bluffs_only_to_stop_a_player_going_out(self) -> None:
        """After a draw, a bluff is not worth the challenge: pass; unless the next player
        holds one card."""
        game = table(["Y1 B5 B6", "G1 G2 G3 G4 G5 G6 G7"], "Y0", rules="classic",
                     stock="W+4 G8 G9")
        act(game, "0 draw")
        assert choice(game) == "pass"
        game = table(["Y1 B5 B6", "G1"], "Y0", rules="classic", stock="W+4 G8 G9")
        act(game, "0 draw")
        assert choice(game) == "play W+4 blue"


class TestOutOfTurn:
    def test_catches_a_player_who_forgot(self) -> None:
        game = table(["R2 B3", "Y1 Y2", "G1 G2"], "R5")
        act(game, "0 play R2")
        assert BOT.react(game, 2) == Action.parse("2 catch 0")
        assert BOT.react(game, 0) == Action.parse("0 uno")

    def test_never_catches_a_team_mate(self) -> None:
        game = table(["R2 B3", "Y1 Y2", "G1 G2", "B1 B2"], "R5", teams=2)
        act(game, "0 play R2")
        assert BOT.react(game, 2) is None
        assert BOT.react(game, 1) == Action.parse("1 catch 0")

    def test_jumps_in_with_the_identical_card(self) -> None:
        """B2: jump-ins are legal but not listed for the seat in turn."""
        game = table(["R5 B1 B2", "Y1 Y2 Y3", "R5 G1 G2"], "R3", jump_in="numbers")
        act(game, "0 play R5")
        assert BOT.react(game, 1) is None  # its own turn: it plays, not jumps
        assert BOT.react(game, 2) == Action.parse("2 play R5")

    def test_goes_out_on_a_sum(self) -> None:
        game = table(["R5 B1 B2", "Y1 Y2 Y3", "G2 B3"], "R3", sum_out=True)
        act(game, "0 play R5")
        assert BOT.react(game, 2) == Action.out(2)

    def test_never_makes_a_false_call(self) -> None:
        """B8: with false calls allowed, UNO and catches are listed for the seat in turn;
        the bot makes none of them while nobody is in the UNO position."""
        game = table(["R2 B3 B4", "Y1 Y2"], "R5", false_uno_penalty=2,
                     false_catch_penalty=2)
        legal = game.legal_actions()
        assert {Verb.UNO, Verb.CATCH} <= {a.verb for a in legal}
        assert BOT.choose(game, 0, legal).verb is Verb.PLAY
        assert BOT.react(game, 1) is None


def test_names_a_wild_starter_colour_it_holds() -> None:
    game = table(["G1 G2 B3", "Y1 Y2"], "W")
    assert game.legal_actions()[0].verb is Verb.CHOOSE
    assert BOT.choose(game, 0, game.legal_actions()) == Action.choose(0, Color.GREEN)
