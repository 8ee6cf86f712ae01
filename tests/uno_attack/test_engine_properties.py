"""Invariants of the rules engine, checked with hypothesis over random games.

- all 112 cards are always accounted for;
- an illegal action raises, names the rule, and changes nothing; and an action is
  legal exactly when ``legal_actions`` lists it (generation and checking agree);
- the same seed gives the same game;
- save → load → replay gives the identical state.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_attack.actions import Action, Verb
from uno_attack.bots import make_bot
from uno_attack.cards import COLORS
from uno_attack.engine import Round
from uno_attack.errors import IllegalActionError
from uno_attack.journal import Journal
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import MATCH_MODES, Options
from uno_attack.replay import replay
from uno_attack.rules import ATTACK
from uno_attack.table import Table
from uno_attack.transcript import load

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def options(draw: st.DrawFn, players: int) -> Options:
    return Options(
        hand_size=draw(st.integers(1, min(9, 111 // players))),
        match=draw(st.sampled_from(MATCH_MODES)),
        target=draw(st.sampled_from([50, 200, 500])),
        play_after_press=draw(st.booleans()),
        trade_hands_last=draw(st.booleans()),
        first_dealer="random",
    )


@st.composite
def dealt_rounds(draw: st.DrawFn) -> tuple[Round, random.Random]:
    players = draw(st.integers(2, 10))
    seed = draw(st.integers(0, 2**32 - 1))
    match = Match([f"p{i}" for i in range(players)], draw(options(players)), seed=seed)
    game, _ = match.deal_round()
    return game, random.Random(seed)


def all_cards(game: Round) -> Counter:
    cards: Counter = Counter(game.stock)
    cards.update(game.discard)
    for hand in game.hands:
        cards.update(hand)
    return cards


def random_step(game: Round, rng: random.Random) -> None:
    """One random legal action, by the seat to act or, sometimes, a catch/UNO out of turn."""
    seat = game.to_act
    assert seat is not None
    if game.uno_seat is not None and rng.random() < 0.3:
        seat = rng.randrange(game.players)
    legal = game.legal_actions(seat) or game.legal_actions()
    action = rng.choice(legal)
    if action.verb is Verb.PLAY and game.hand_after(action) == 1 and rng.random() < 0.5:
        action = action.with_uno()
    game.apply(action, fired=rng.choice([0, 0, 1, 2, 3, 12]), shuffle=rng.shuffle)


any_action = st.builds(
    Action,
    seat=st.integers(-1, 10),
    verb=st.sampled_from(list(Verb)),
    cards=st.one_of(st.just(()), st.sampled_from(ATTACK.cards).map(lambda c: (c,))),
    color=st.one_of(st.none(), st.sampled_from(COLORS)),
    target=st.one_of(st.none(), st.integers(-1, 10)),
    uno=st.booleans(),
)


class TestCardsAccountedFor:
    @SETTINGS
    @given(dealt_rounds())
    def test_112_cards_at_every_step(self, dealt: tuple[Round, random.Random]) -> None:
        game, rng = dealt
        assert all_cards(game) == ATTACK.counts
        for _ in range(400):
            if game.over:
                break
            random_step(game, rng)
            assert all_cards(game) == ATTACK.counts
            assert game.card_count() == 112


class TestIllegalActions:
    @SETTINGS
    @given(dealt_rounds(), st.data())
    def test_illegal_raises_and_changes_nothing(
        self, dealt: tuple[Round, random.Random], data: st.DataObject
    ) -> None:
        game, rng = dealt
        for _ in range(data.draw(st.integers(0, 150))):
            if game.over:
                break
            random_step(game, rng)
        for _ in range(25):
            action = data.draw(any_action)
            listed = (0 <= action.seat < game.players and
                      Action(action.seat, action.verb, action.cards, action.color,
                             action.target) in game.legal_actions(action.seat))
            uno_ok = (not action.uno) or (action.verb is Verb.PLAY and listed
                                         and game.hand_after(action) == 1)
            before = game.snapshot()
            reason = game.illegal_reason(action)
            assert (reason is None) == (listed and uno_ok), (action, reason)
            if reason is None:
                continue
            with pytest.raises(IllegalActionError) as info:
                game.apply(action, fired=1)
            assert str(action) in str(info.value)
            assert game.snapshot() == before

    def test_error_names_the_rule(self) -> None:
        game = Round.setup(hands=[[], []], dealer=0, starter=ATTACK.cards[0], stock=[])
        game.hands = [[ATTACK.cards[30]], [ATTACK.cards[31]]]
        with pytest.raises(IllegalActionError, match=r"it is seat 1's turn.*RULES.md 4"):
            game.apply(Action.parse("0 press"), fired=0)


def play_table(seed: int, players: int, tmp: Path | None = None) -> Table:
    match = Match([f"p{i}" for i in range(players)],
                  Options(match="single", first_dealer="random"), seed=seed)
    game, record = match.deal_round()
    bots = [make_bot("random" if i % 2 else "basic", f"p{i}", seed=f"{seed}:{i}")
            for i in range(players)]
    table = Table(game, bots, open_launcher("sim", seed=seed), record,
                  reload_rng=match.reload_rng(), journal=Journal(tmp) if tmp else None)
    table.play_round()
    return table


class TestDeterminism:
    @settings(max_examples=15, deadline=None)
    @given(st.integers(0, 2**32 - 1), st.integers(2, 10))
    def test_same_seed_same_game(self, seed: int, players: int) -> None:
        first, second = play_table(seed, players), play_table(seed, players)
        assert first.record.dumps() == second.record.dumps()
        assert first.game == second.game

    def test_other_seed_other_game(self) -> None:
        assert play_table(1, 4).record.dumps() != play_table(2, 4).record.dumps()


class TestSaveLoadReplay:
    @settings(max_examples=15, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10))
    def test_round_trip(self, tmp_path: Path, seed: int, players: int) -> None:
        path = tmp_path / f"game-{seed}-{players}.json"
        table = play_table(seed, players, path)
        loaded = load(path)
        assert loaded.dumps() == table.record.dumps()
        result = replay(loaded)
        assert result.passed, result.failure
        assert result.round == table.game

    def test_shuffled_reloads_are_recorded_and_replayed(self, tmp_path: Path) -> None:
        # ten players pressing at random empty the launcher; find a seed that reloads
        for seed in range(50):
            path = tmp_path / "reload.json"
            table = play_table(seed, 10, path)
            if table.record.reloads:
                break
        else:
            pytest.fail("no seed in 0..49 reloaded the launcher")
        result = replay(load(path))
        assert result.passed, result.failure
        assert result.round == table.game
