"""Following the other seat of a two-player round: every guess is a hand it could hold and
would have played its turns with, the real hand replays every turn, and the guesses hold
more of its real cards than hands dealt at random do."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

import pytest

from uno_attack.actions import Action
from uno_attack.bots import BasicBot, make_bot
from uno_attack.bots.belief import Belief, Guess, _Turn
from uno_attack.bots.worlds import Memory, unseen
from uno_attack.cards import COLORS
from uno_attack.engine import Round
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.table import Table
from uno_attack.turns import Decision

from .test_smart_bot import acts, table


def drawing(hands: list[str], starter: str, drawn: str, **options: object) -> Round:
    """A classic round in which the first card drawn is ``drawn``."""
    game = table(hands, starter, rules="classic", **options)
    card = game.rules.parse_card(drawn)
    game.stock.remove(card)
    game.stock.appendleft(card)
    return game


def watcher(seat: int = 0, seed: int = 1) -> Memory:
    memory = Memory(seat)
    memory.belief = Belief(seat, BasicBot("model").choose, random.Random(seed))
    return memory


def followed_turns(seed: int, options: Options | None = None) -> Iterator[tuple[Round, Memory]]:
    """A two-player round of basic bots, seat 0's memory following seat 1: the round and
    the memory at each of seat 0's turns, once the memory has followed the turn before."""
    match = Match(["p0", "p1"], options or Options(rules="classic"), seed=seed)
    game, record = match.deal_round()
    bots = [make_bot("basic", f"p{i}") for i in range(2)]
    memory = watcher(seed=seed)
    table = Table(game, bots, open_launcher("sim", seed=seed), record,
                  reload_rng=match.reload_rng())
    while not game.over:
        if table.turns.decision == Decision(0, reacting=False):
            memory.observe(game)
            yield game, memory
            action = bots[0].choose(game, 0, game.legal_actions())
            memory.acted(game, action)
            table.perform(action)
        else:
            table.step()


@dataclass(frozen=True)
class Seen:
    """Seat 0's view at one of its turns: the round, its belief, the guesses it held and
    the turn it had just followed (if it followed one)."""

    seed: int
    game: Round
    belief: Belief
    guesses: list[Guess]
    turn: _Turn | None
    followed: int  # the turns it has followed since it last dealt its guesses anew


@pytest.fixture(scope="module")
def seen() -> list[Seen]:
    """Every turn of seat 0 in three rounds of classic UNO between basic bots."""
    views = []
    for seed in range(3):
        for game, memory in followed_turns(seed):
            belief = memory.belief
            assert belief is not None
            views.append(Seen(seed, game.copy(), belief, list(belief.guesses),
                              belief.turns[-1] if belief.turns else None,
                              len(belief.turns)))
    return views


class TestGuesses:
    def test_every_guess_is_a_hand_the_other_seat_could_hold(self, seen: list[Seen]) -> None:
        for view in seen:
            pool = unseen(view.game, 0)
            for guess in view.guesses:
                assert len(guess.hand) == len(view.game.hands[1])
                assert not Counter(guess.hand) - pool  # only cards it has not seen
        assert sum(bool(view.guesses) for view in seen) > 25

    def test_the_model_holding_a_guess_plays_the_turn_as_it_was_played(
            self, seen: list[Seen]) -> None:
        """The first choice of each turn, asked again of the model holding each guess's
        hand as the turn began: the same action."""
        model = BasicBot("model")
        asked = 0
        for view in seen:
            if view.turn is None or not view.guesses:
                continue
            left = view.turn.left
            real = model.choose(left, 1, left.legal_actions())
            for guess in view.guesses[:20]:
                probe = left.copy()
                probe.hands[1][:] = guess.past[-1][0]
                chosen = model.choose(probe, 1, probe.legal_actions())
                assert (chosen.verb, chosen.cards, chosen.color) == \
                    (real.verb, real.cards, real.color)
                asked += 1
        assert asked > 300

    def test_the_real_hand_replays_its_turn_with_the_cards_it_took(
            self, seen: list[Seen]) -> None:
        replayed = 0
        for view in seen:
            turn = view.turn
            if turn is None:
                continue
            took = len(turn.left.stock) - len(turn.after.stock)
            if took < 0:
                continue  # the pile was reloaded
            hand = tuple(turn.left.hands[1])  # the real one: the table is the round's copy
            taken = tuple(list(turn.left.stock)[:took])
            assert view.belief._replay(turn, hand, taken) is not None
            replayed += 1
        assert replayed > 25

    def test_guesses_hold_more_of_the_real_hand_than_random_deals(
            self, seen: list[Seen]) -> None:
        rng = random.Random(0)
        guessed = dealt = 0.0
        for view in seen:
            if not view.guesses:
                continue
            real = Counter(view.game.hands[1])
            pool = list(unseen(view.game, 0).elements())
            guessed += sum((Counter(g.hand) & real).total()
                           for g in view.guesses) / len(view.guesses)
            dealt += sum((Counter(rng.sample(pool, len(real))) & real).total()
                         for _ in range(20)) / 20
        assert guessed > 1.4 * dealt, (guessed, dealt)  # about 1.7 times

    def test_it_seldom_deals_its_guesses_anew(self, seen: list[Seen]) -> None:
        """A guess without the cards the other seat just played is given them (if its past
        still replays), so the guesses seldom all die at once and start over."""
        followed = anew = 0
        for before, view in pairwise(seen):
            if view.seed == before.seed and before.followed and view.turn is not None:
                followed += 1
                anew += view.followed == 1
        assert followed > 50
        assert anew <= followed // 25, (anew, followed)

    def test_the_same_seed_makes_the_same_guesses(self, seen: list[Seen]) -> None:
        again = [list(memory.belief.guesses)  # type: ignore[union-attr]
                 for seed in range(3) for _game, memory in followed_turns(seed)]
        assert again == [view.guesses for view in seen]


class TestTurns:
    def test_a_player_that_draws_is_guessed_to_have_held_nothing_it_could_play(self) -> None:
        game = drawing(["R5 R3 B4", "Y1 Y2 G3 G7"], "R2", "Y9")
        memory = watcher()
        memory.observe(game)
        acts(memory, game, "0 play R5")
        game.apply(Action.parse("1 draw", rules=game.rules))  # no red, no 5, no wild
        assert game.to_act == 0  # it drew Y9, which it cannot play
        memory.observe(game)
        belief = memory.belief
        assert belief is not None
        assert belief.guesses
        for guess in belief.guesses:
            held = guess.past[-1][0]
            assert not [c for c in held if c.color is None or c.color.letter == "R"
                        or c.code[1:] == "5"], held

    def test_a_wild_names_the_colour_the_guess_holds_most_of(self) -> None:
        game = table(["R5 R3 B4", "W B1 B2 G3 Y7"], "R2", rules="classic")
        memory = watcher()
        memory.observe(game)
        acts(memory, game, "0 play R5")  # seat 1 has no red and no 5: it plays its wild
        game.apply(Action.parse("1 play W blue", rules=game.rules))
        memory.observe(game)
        belief = memory.belief
        assert belief is not None
        assert belief.guesses
        for guess in belief.guesses:
            counts = Counter(c.color for c in guess.hand if c.color is not None)
            most = max(COLORS, key=lambda colour: counts[colour])
            assert most.letter == "B", guess.hand

    def test_a_reloaded_pile_forgets_the_guesses(self) -> None:
        game = drawing(["R5 R3 B4", "Y1 Y2 G3 G7"], "R2", "Y9")
        memory = watcher()
        memory.observe(game)
        acts(memory, game, "0 play R5")
        game.apply(Action.parse("1 draw", rules=game.rules))
        memory.observe(game)
        assert memory.belief is not None
        assert memory.belief.guesses
        game.discard[:] = game.discard[-1:]  # as a reload leaves it
        memory.observe(game)
        assert memory.belief.guesses == []

    def test_asked_while_the_other_seat_may_play_what_it_drew(self) -> None:
        """Seen mid-turn (as a reaction is asked), the card the other seat drew is hidden:
        the replay gives it the guess's own last card to play or keep, never the real one
        (which the guess may not hold)."""
        game = drawing(["R5 R3 B4", "Y1 Y2 G3 G7"], "R2", "R9", multi_play="numbers")
        memory = watcher()
        memory.observe(game)
        acts(memory, game, "0 play R5")
        game.apply(Action.parse("1 draw", rules=game.rules))
        assert game.arrived == tuple(game.rules.parse_cards(["R9"]))
        memory.observe(game)  # as the table asks seat 0 for a reaction
        game.apply(Action.parse("1 pass", rules=game.rules))  # it keeps the R9
        memory.observe(game)
        belief = memory.belief
        assert belief is not None
        for guess in belief.guesses:
            assert len(guess.hand) == 5
            assert not Counter(guess.hand) - unseen(game, 0)
