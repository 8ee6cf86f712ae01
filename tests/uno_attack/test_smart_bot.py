"""The search bot: its worlds agree with what it has seen, it is deterministic for a seed
and a playout budget, it keeps to its budget, and it beats random play."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_mock import MockerFixture

from uno_attack.actions import Action, Verb
from uno_attack.bots import BasicBot, SmartBot, make_bot
from uno_attack.bots.worlds import Memory, sample_world, unseen
from uno_attack.engine import Round
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.rules import rule_set
from uno_attack.table import Table


def table(hands: list[str], starter: str, **options: object) -> Round:
    chosen = Options(**options)  # type: ignore[arg-type]
    rules = rule_set(chosen.rules)
    deck = Counter(rules.deck)
    dealt = [rules.parse_cards(h.split()) for h in hands]
    first = rules.parse_card(starter)
    deck.subtract([first, *(c for hand in dealt for c in hand)])
    return Round.setup(hands=dealt, dealer=len(hands) - 1, starter=first,
                       stock=list(deck.elements()), options=chosen)


def played(seed: int, players: int, options: Options, steps: int) -> Round:
    """A round that basic bots have played for up to ``steps`` actions."""
    match = Match([f"p{i}" for i in range(players)], options, seed=seed)
    game, record = match.deal_round()
    table = Table(game, [make_bot("basic", f"p{i}") for i in range(players)],
                  open_launcher("sim", seed=seed), record, reload_rng=match.reload_rng())
    for _ in range(steps):
        if game.over or game.to_act is None:
            break
        table.step()
    return game


class TestWorlds:
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.sampled_from(["attack", "classic"]),
           st.integers(0, 80))
    def test_every_card_is_accounted_for_and_none_seen_is_dealt(
            self, seed: int, players: int, rules: str, steps: int) -> None:
        game = played(seed, players, Options(rules=rules, first_dealer="random"), steps)
        seat = seed % players
        world = sample_world(game, seat, random.Random(seed))
        everything = Counter(world.stock) + Counter(world.discard)
        for hand in world.hands:
            everything.update(hand)
        assert everything == game.rules.counts  # its hand + the pile + the rest = the deck
        assert world.hands[seat] == game.hands[seat]
        assert world.discard == game.discard
        assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
        assert len(world.stock) == len(game.stock)
        hidden = Counter(world.stock)
        for other, hand in enumerate(world.hands):
            if other != seat:
                hidden.update(hand)
        assert hidden == unseen(game, seat)  # only cards it has not seen are dealt anew

    def test_worlds_differ_where_the_seat_cannot_see(self) -> None:
        game = played(3, 2, Options(), 4)
        hands = {tuple(sample_world(game, 0, random.Random(i)).hands[1]) for i in range(10)}
        assert len(hands) > 5

    def test_cards_known_to_be_in_a_hand_stay_there(self) -> None:
        game = table(["R1 R2 B3", "Y1 Y2 Y3 Y4", "G1 G2"], "R5")
        known = {1: Counter(game.rules.parse_cards(["YT", "W"]))}
        for i in range(10):
            world = sample_world(game, 0, random.Random(i), known=known)
            assert Counter(world.hands[1]) >= known[1]
            assert "YT" not in {c.code for c in world.hands[2] + list(world.stock)}  # one YT

    def test_a_bluff_world_deals_the_bluffer_the_colour(self) -> None:
        game = table(["W+4 R1 Y2 Y3", "B1 B2 B3 G1 G2 G3 G4"], "R0", rules="classic")
        game.apply(Action.parse("0 play W+4 blue", rules=game.rules))
        for i in range(20):
            bluff = i % 2 == 0
            world = sample_world(game, 1, random.Random(i), bluff=bluff)
            reds = [c for c in world.hands[0] if c.color is not None and c.color.letter == "R"]
            assert bool(reds) == bluff
            challenge = world.owed[0].cause.challenge
            assert challenge is not None
            assert challenge.bluff == bluff


def watching(game: Round, seat: int = 0) -> Memory:
    """The memory of ``seat``, having seen ``game`` as it is."""
    memory = Memory(seat)
    memory.observe(game)
    return memory


def acts(memory: Memory, game: Round, text: str) -> None:
    """The memory's own seat takes this action: noted, then made."""
    action = Action.parse(text, rules=game.rules)
    memory.acted(game, action)
    game.apply(action)


class TestMemory:
    def test_a_trade_leaves_its_hand_with_the_seat_named(self) -> None:
        game = table(["RT R3 B4 B5 G7", "Y1 Y2"], "R5")
        memory = watching(game)
        acts(memory, game, "0 play RT 1")
        memory.observe(game)
        assert memory.known == {1: Counter(game.rules.parse_cards(["R3", "B4", "B5", "G7"]))}
        game.apply(Action.parse("1 play R3"))  # one of them comes back into sight
        memory.observe(game)
        assert memory.known == {1: Counter(game.rules.parse_cards(["B4", "B5", "G7"]))}

    def test_a_hand_taken_by_the_other_seat_is_known_to_be_there(self) -> None:
        game = table(["R1 B3 B4", "RT Y1 Y2 Y3"], "R5")
        memory = watching(game)
        acts(memory, game, "0 play R1")
        game.apply(Action.parse("1 play RT 0"))
        memory.observe(game)
        assert memory.known == {1: Counter(game.rules.parse_cards(["B3", "B4"]))}

    def test_a_seat_that_presses_instead_of_playing_lacks_what_it_could_play(self) -> None:
        game = table(["R5 R3 B4", "Y1 Y2 G3"], "R2")
        memory = watching(game)
        acts(memory, game, "0 play R5")
        game.apply(Action.parse("1 press"), fired=2)  # nothing red, no 5, no wild; R1 R1
        memory.observe(game)
        [(held, lacked)] = memory.lacks[1]
        assert held == 3
        assert {"R1", "Y5", "W", "WA"} <= {c.code for c in lacked}
        assert not {"Y1", "B4", "RT"} & {c.code for c in lacked}  # a trade may be kept
        for i in range(20):
            oldest = sample_world(game, 0, random.Random(i), lacks=memory.lacks).hands[1][:3]
            assert not set(oldest) & lacked
        acts(memory, game, "0 play R3")
        game.apply(Action.parse("1 play R1"))
        memory.observe(game)
        assert memory.lacks[1] == [(2, lacked)]  # one of those cards may have gone

    def test_a_world_agrees_when_a_sensible_player_holding_it_chose_the_same(self) -> None:
        game = table(["R5 B3 B4", "R3 Y1 Y2"], "R2", rules="classic")
        memory = watching(game)
        acts(memory, game, "0 play R5")
        game.apply(Action.parse("1 play R3", rules=game.rules))
        memory.observe(game)
        choose = BasicBot("model").choose
        world = game.copy()
        world.hands[1][:] = game.rules.parse_cards(["Y1", "Y7"])
        assert memory.agrees(world, choose)  # R3 was its one play
        world.hands[1][:] = game.rules.parse_cards(["RS", "Y7"])
        assert not memory.agrees(world, choose)  # it would have skipped the bot
        world.hands[1][:] = game.rules.parse_cards(["R9", "Y7"])
        assert not memory.agrees(world, choose)  # it would have shed the 9
        assert game.hands[1] == game.rules.parse_cards(["Y1", "Y2"])  # the real hand unread

    def test_a_choice_after_taking_cards_is_not_gone_by(self) -> None:
        game = table(["R5 B3 B4", "Y1 Y2 G3"], "R2", rules="classic")
        memory = watching(game)
        acts(memory, game, "0 play R5")
        game.apply(Action.parse("1 draw", rules=game.rules))
        memory.observe(game)
        assert memory.choice is None

    def test_a_penalty_taken_says_nothing(self) -> None:
        game = table(["RH B3 B4", "Y1 Y2 G3"], "R2")
        memory = watching(game)
        acts(memory, game, "0 play RH")
        game.apply(Action.parse("1 press"), fired=1)
        game.apply(Action.parse("1 press"), fired=1)
        memory.observe(game)
        assert memory.lacks == {}

    def test_a_penalty_its_challenge_brings_says_nothing(self) -> None:
        game = table(["W+4 R5 Y1", "B1 B2 G3"], "R2", rules="classic")
        game.apply(Action.parse("0 play W+4 blue", rules=game.rules))
        memory = watching(game, 1)
        acts(memory, game, "1 challenge")  # a bluff: seat 0 held R5
        while game.owed:
            game.apply(Action.parse("0 draw", rules=game.rules))
        memory.observe(game)
        assert memory.lacks == {}

    def test_forgets_when_hands_move_between_others(self) -> None:
        game = table(["RT B3 B4 B5", "Y1 Y2", "GT G1 G2"], "R5")
        memory = watching(game)
        acts(memory, game, "0 play RT 1")
        memory.observe(game)
        assert 1 in memory.known
        game.apply(Action.parse("1 press"), fired=0)
        game.apply(Action.parse("2 play GT 1"))  # seat 2 takes seat 1's hand
        memory.observe(game)
        assert memory.known == {}


class TestSearch:
    def test_deterministic_for_a_seed_and_a_playout_budget(self) -> None:
        game = played(11, 2, Options(), 6)
        seat = game.to_act
        assert seat is not None
        choices = []
        for _ in range(2):
            bot = SmartBot("s", seed=7, playouts=40, budget_ms=60_000)
            action = bot.choose(game.copy(), seat, game.legal_actions())
            assert bot.last is not None
            choices.append((action, bot.last.playouts, bot.last.visits))
        assert choices[0] == choices[1]

    def test_makes_exactly_its_playouts(self) -> None:
        game = table(["R1 R2 B3 G4 Y5 WF", "Y1 Y2 Y3 Y4"], "R5")
        frozen = SmartBot("s", seed=1, playouts=37, budget_ms=1, clock=lambda: 0.0)
        frozen.choose(game, 0, game.legal_actions())
        assert frozen.last is not None
        assert frozen.last.playouts == 37
        assert sum(frozen.last.visits.values()) == 37

    @pytest.mark.parametrize(("rules", "playouts"), [("attack", 200), ("classic", 800)])
    def test_its_default_budget_is_the_rule_sets(self, rules: str, playouts: int) -> None:
        """Classic UNO gets four times UNO Attack's playouts: its moves differ by less."""
        game = table(["R1 R2 B3 G4 Y5", "Y1 Y2 Y3 Y4"], "R5", rules=rules)
        frozen = SmartBot("s", seed=1, budget_ms=1, clock=lambda: 0.0)
        frozen.choose(game, 0, game.legal_actions())
        assert frozen.last is not None
        assert frozen.last.playouts == playouts

    def test_stops_at_its_time_cap(self) -> None:
        """A fake clock that moves 1 ms each time it is read: a 20 ms cap stops the search
        after a handful of playouts, whatever the playout budget."""
        ticks = count()
        game = table(["R1 R2 B3 G4 Y5 WF", "Y1 Y2 Y3 Y4"], "R5")
        bot = SmartBot("s", seed=1, playouts=10_000, budget_ms=20,
                       clock=lambda: next(ticks) / 1000)
        action = bot.choose(game, 0, game.legal_actions())
        assert game.is_legal(action)
        assert bot.last is not None
        assert 1 <= bot.last.playouts <= 20

    def test_in_classic_two_player_worlds_deal_the_other_seat_a_guessed_hand(
            self, mocker: MockerFixture) -> None:
        """Once it has followed a turn of the other seat, every world it searches deals that
        seat one of the hands its belief holds; it holds no more than its playouts."""
        match = Match(["smart", "basic"], Options(rules="classic"), seed=5)
        game, record = match.deal_round()
        bot = SmartBot("smart", seed=5, playouts=8)
        dealt: list[bool] = []

        def checked(*args: object, **kwargs: object) -> Round:
            belief = bot.memory.belief if bot.memory is not None else None
            if belief is not None and belief.guesses:
                known = kwargs["known"]
                assert isinstance(known, dict)
                dealt.append(known[1] in [Counter(g.hand) for g in belief.guesses])
            return sample_world(*args, **kwargs)  # type: ignore[arg-type]

        mocker.patch("uno_attack.bots.smart.sample_world", side_effect=checked)
        Table(game, [bot, make_bot("basic", "basic")], open_launcher("sim", seed=5), record,
              reload_rng=match.reload_rng()).play_round()
        assert len(dealt) > 20
        assert all(dealt)
        assert bot.memory is not None
        assert bot.memory.belief is not None
        assert 0 < len(bot.memory.belief.guesses) <= 8  # no more hands than worlds a move

    def test_refuses_an_empty_budget(self) -> None:
        with pytest.raises(ValueError, match="playouts=0"):
            SmartBot(playouts=0)
        with pytest.raises(ValueError, match="budget_ms=0"):
            SmartBot(budget_ms=0)

    def test_a_forced_move_needs_no_search(self) -> None:
        game = table(["R1 B3", "RH Y1 Y2"], "R5")
        game.apply(Action.parse("0 play R1 uno"))
        game.apply(Action.parse("1 play RH"))
        bot = SmartBot("s", seed=1)
        assert bot.choose(game, 0, game.legal_actions()) == Action.press(0)
        assert bot.last is None

    def test_never_a_false_call(self) -> None:
        game = table(["R2 B3 B4", "Y1 Y2"], "R5", false_uno_penalty=2, false_catch_penalty=2)
        bot = SmartBot("s", seed=1, playouts=20)
        assert all(a.verb not in (Verb.UNO, Verb.CATCH)
                   for a in bot.candidates(game, 0, game.legal_actions()))


def coin_needs(rounds: int, chance: float) -> int:
    """The fewest wins in ``rounds`` that a fair coin reaches with less than ``chance``."""
    return next(wins for wins in range(rounds + 1)
                if sum(math.comb(rounds, k) for k in range(wins, rounds + 1))
                < chance * 2 ** rounds)


def test_beats_random_play() -> None:
    """20 two-player rounds of classic UNO against the random bot, seats rotating: a bot no
    better than random would win about half (16 wins or more by coin: under 1 %)."""
    rounds = 20
    needs = coin_needs(rounds, 0.01)
    assert needs == 16
    wins = 0
    for i in range(rounds):
        names = ["smart", "random"] if i % 2 == 0 else ["random", "smart"]
        match = Match(names, Options(rules="classic", match="single", first_dealer="random"),
                      seed=f"duel:{i}")
        game, record = match.deal_round()
        bots = [make_bot(name, name, seed=i, playouts=8) for name in names]
        table = Table(game, bots, open_launcher("sim", seed=i), record,
                      reload_rng=match.reload_rng())
        result = table.play_round()
        wins += names[result.winner] == "smart"
    assert wins >= needs, f"smart won {wins} of {rounds}"
