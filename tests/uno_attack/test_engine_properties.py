"""Invariants of the rules engine, checked with hypothesis over random games, for random rule
sets and random valid combinations of options (drawn from the option declarations, so a new
option is covered by itself):

- every card of the deck (112 or 108) is always accounted for;
- an illegal action raises, names the rule, and changes nothing;
- an action is legal exactly when ``legal_actions`` lists it (a play's ``uno`` suffix
  aside), and a play of several cards exactly when VARIANTS.md B3, read on its own below,
  allows it;
- the same seed gives the same game;
- save → load → replay gives the identical state.
"""

from __future__ import annotations

import itertools
import pickle
import random
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_attack.actions import Action, Verb
from uno_attack.bots import make_bot
from uno_attack.cards import COLORS
from uno_attack.engine import _STATE, Phase, Round
from uno_attack.errors import IllegalActionError, OptionError
from uno_attack.journal import Journal
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import OPTION_SPECS, Options
from uno_attack.replay import replay
from uno_attack.rules import ATTACK
from uno_attack.table import Table
from uno_attack.transcript import load

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
MEMORY = "/dev/shm" if Path("/dev/shm").is_dir() else None  # a file system in memory
STEPS = 300  # actions per random game: under until_playable random play need not end


@st.composite
def options(draw: st.DrawFn, players: int) -> Options:
    """Any valid options for this many players: each option from its declared samples (its
    default half the time), then every option whose E1 condition fails back to its default."""
    values: dict[str, Any] = {}
    for spec in OPTION_SPECS.values():
        values[spec.name] = draw(st.one_of(st.just(spec.default),
                                           st.sampled_from(spec.parse.samples)))
    for spec in OPTION_SPECS.values():
        if spec.needs is not None and values[spec.needs[0]] not in spec.needs[1]:
            values[spec.name] = spec.default
    if values["hand_size"] * players >= 100:
        values["hand_size"] = 3
    chosen = Options(**values)
    try:
        chosen.check_players(players)
    except OptionError:
        chosen = Options(**{**values, "teams": 0, "first_dealer": "random"})
    return chosen


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


def several(game: Round, seat: int, rng: random.Random, limit: int = 12) -> list[Action]:
    """Candidate plays of several cards from a seat's hand: same symbol or not, held or
    not, with and without a colour and an UNO call."""
    hand = game.hands[seat]
    groups: dict[str, list] = {}
    for card in hand:
        groups.setdefault(card.symbol, []).append(card)
    candidates: list[Action] = []
    for cards in groups.values():
        for n in range(2, min(len(cards), 3) + 1):
            candidates += [Action.play(seat, list(p), rng.choice(COLORS)
                                       if p[0].color is None else None, uno=rng.random() < 0.3)
                           for p in itertools.permutations(cards, n)]
    if len(hand) >= 2:
        mixed = rng.sample(hand, 2)
        candidates.append(Action.play(seat, mixed, rng.choice([None, *COLORS])))
    rng.shuffle(candidates)
    return candidates[:limit]


def several_allowed(game: Round, action: Action) -> bool:
    """VARIANTS.md B3 as its text reads, for a play of two or more cards."""
    options, cards, seat = game.options, action.cards, action.seat
    if options.multi_play == "off" or not 0 <= seat < game.players:
        return False
    if game.phase is not Phase.PLAY or game.owed or seat != game.turn:
        return False  # on a turn: not a jump-in, not after a take, not an answer
    symbol = cards[0].symbol
    if any(card.symbol != symbol for card in cards):
        return False
    number = symbol.isdigit()
    if number and options.seven_zero and symbol in ("0", "7"):
        return False  # with seven_zero 7s and 0s are played alone
    if not number and (options.multi_play == "numbers" or symbol not in ("S", "R", "H", "+2",
                                                                           "W")):
        return False
    hand = game.hands[seat]
    if Counter(cards) - Counter(hand):
        return False
    first = cards[0]
    if not (first.color is None or first.color is game.color or first.symbol == game.top.symbol):
        return False  # the first card must be playable by itself
    if (first.color is None) != (action.color is not None) or action.target is not None:
        return False  # wilds name one colour; none of these names a seat
    left = len(hand) - len(cards)
    if left == 0 and options.last_card == "no_action" and not (number or symbol in ("H", "+2")):
        return False  # B7: a last play is numbers or cards that make others take
    return not action.uno or left == 1


def random_step(game: Round, rng: random.Random) -> None:
    """One random legal action: mostly the seat to act's, sometimes another seat's out of
    turn, sometimes a play of several cards."""
    seat = game.to_act
    assert seat is not None
    if rng.random() < 0.3:
        seat = rng.randrange(game.players)
    legal = game.legal_actions(seat) or game.legal_actions()
    action = rng.choice(legal)
    if game.options.multi_play != "off" and rng.random() < 0.3:
        action = next((a for a in several(game, game.turn, rng) if game.is_legal(a)), action)
    if action.verb is Verb.PLAY and not action.uno and rng.random() < 0.5 \
            and game.hand_after(action) == 1:
        action = action.with_uno()
    game.apply(action, fired=rng.choice([0, 0, 1, 2, 3, 12]), shuffle=rng.shuffle)


def any_action(game: Round) -> st.SearchStrategy[Action]:
    cards = st.lists(st.sampled_from(game.rules.cards), max_size=3).map(tuple)
    return st.builds(Action, seat=st.integers(-1, 10), verb=st.sampled_from(list(Verb)),
                     cards=cards, color=st.one_of(st.none(), st.sampled_from(COLORS)),
                     target=st.one_of(st.none(), st.integers(-1, 10)), uno=st.booleans())


def listed(game: Round, action: Action) -> bool:
    """Legal by the list: ``legal_actions`` names it (its ``uno`` suffix aside, which is
    legal where the play leaves exactly one card)."""
    if not 0 <= action.seat < game.players:
        return False
    bare = Action(action.seat, action.verb, action.cards, action.color, action.target)
    if bare not in game.legal_actions(action.seat):
        return False
    return not action.uno or (action.verb is Verb.PLAY and game.hand_after(bare) == 1)


class TestCardsAccountedFor:
    @SETTINGS
    @given(dealt_rounds())
    def test_every_card_at_every_step(self, dealt: tuple[Round, random.Random]) -> None:
        game, rng = dealt
        deck = game.rules.counts
        assert sum(deck.values()) == (112 if game.rules is ATTACK else 108)
        assert all_cards(game) == deck
        for _ in range(STEPS):
            if game.over:
                break
            random_step(game, rng)
            assert all_cards(game) == deck
            assert game.card_count() == len(game.rules.deck)


class TestPickling:
    @SETTINGS
    @given(dealt_rounds(), st.integers(0, 150))
    def test_a_pickled_round_is_the_same_round_and_plays_on_alike(
        self, dealt: tuple[Round, random.Random], steps: int
    ) -> None:
        """A search bot's process gets the round pickled (its state alone): it must list
        the same moves and play on exactly as the original does, to the end."""
        game, rng = dealt
        for _ in range(steps):
            if game.over:
                break
            random_step(game, rng)
        # the state is every public slot but the rule set; the private ones are built
        assert set(_STATE) == {n for n in Round.__slots__ if not n.startswith("_")} - {"rules"}
        data = pickle.dumps(game)
        assert b"_ways" not in data  # the tables are built again on loading
        assert b"_matching" not in data
        other = pickle.loads(data)
        assert other == game
        twin = random.Random(steps)
        rng = random.Random(steps)
        for _ in range(STEPS):
            assert other.legal_actions() == game.legal_actions()
            if game.over:
                break
            random_step(game, rng)
            random_step(other, twin)
            assert other.snapshot() == game.snapshot()


class TestLegality:
    @SETTINGS
    @given(dealt_rounds(), st.data())
    def test_legal_exactly_when_listed_and_illegal_changes_nothing(
        self, dealt: tuple[Round, random.Random], data: st.DataObject
    ) -> None:
        game, rng = dealt
        for _ in range(data.draw(st.integers(0, 150))):
            if game.over:
                break
            random_step(game, rng)
        if game.to_act is None:
            return
        candidates = [data.draw(any_action(game)) for _ in range(25)]
        candidates += several(game, game.turn, rng)
        for action in candidates:
            multi = len(action.cards) > 1
            expected = several_allowed(game, action) if multi else listed(game, action)
            reason = game.illegal_reason(action)
            assert (reason is None) == expected, (str(game), action, reason)
            if reason is None:
                continue
            assert re.search(r"(RULES|VARIANTS|TRANSCRIPTS)\.md", reason), reason
            before = game.snapshot()
            with pytest.raises(IllegalActionError) as info:
                game.apply(action, fired=1)
            assert str(action) in str(info.value)
            assert game.snapshot() == before

    def test_error_names_the_rule(self) -> None:
        game = Round.setup(hands=[[], []], dealer=0, starter=ATTACK.cards[0], stock=[])
        game.hands = [[ATTACK.cards[30]], [ATTACK.cards[31]]]
        with pytest.raises(IllegalActionError, match=r"it is seat 1's turn.*RULES.md 4"):
            game.apply(Action.parse("0 press"), fired=0)


def play_table(seed: int, players: int, chosen: Options, tmp: Path | None = None) -> Table:
    """Bots (basic and random by turns) play a bounded part of a round at a table."""
    match = Match([f"p{i}" for i in range(players)], chosen, seed=seed)
    game, record = match.deal_round()
    bots = [make_bot("random" if i % 2 else "basic", f"p{i}", seed=f"{seed}:{i}")
            for i in range(players)]
    table = Table(game, bots, open_launcher("sim", seed=seed), record,
                  reload_rng=match.reload_rng(), journal=Journal(tmp) if tmp else None)
    for _ in range(STEPS):
        if game.over:
            break
        table.step()
    return table


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, int, Options]:
    players = draw(st.integers(2, 10))
    return draw(st.integers(0, 2**32 - 1)), players, draw(options(players))


class TestDeterminism:
    @settings(max_examples=15, deadline=None)
    @given(tables())
    def test_same_seed_same_game(self, table: tuple[int, int, Options]) -> None:
        seed, players, chosen = table
        first, second = play_table(seed, players, chosen), play_table(seed, players, chosen)
        assert first.record.dumps() == second.record.dumps()
        assert first.game == second.game

    def test_other_seed_other_game(self) -> None:
        assert (play_table(1, 4, Options()).record.dumps()
                != play_table(2, 4, Options()).record.dumps())


class TestSaveLoadReplay:
    @settings(max_examples=15, deadline=None)
    @given(table=tables())
    def test_round_trip(self, table: tuple[int, int, Options]) -> None:
        seed, players, chosen = table
        # the journal is written (and synced) at every action: in memory, not on a disk
        with tempfile.TemporaryDirectory(dir=MEMORY) as folder:
            path = Path(folder) / f"game-{seed}-{players}.json"
            played = play_table(seed, players, chosen, path)
            loaded = load(path)
        assert loaded.dumps() == played.record.dumps()
        result = replay(loaded)
        assert result.passed, result.failure
        assert result.round == played.game

    @pytest.mark.parametrize("rules", ["attack", "classic"])
    def test_shuffled_reloads_are_recorded_and_replayed(self, tmp_path: Path,
                                                        rules: str) -> None:
        # ten players taking cards at random empty the stock; find a seed that reloads
        for seed in range(50):
            path = tmp_path / "reload.json"
            table = play_table(seed, 10, Options(rules=rules, match="single"), path)
            if table.record.reloads:
                break
        else:
            pytest.fail("no seed in 0..49 reloaded the stock")
        result = replay(load(path))
        assert result.passed, result.failure
        assert result.round == table.game
