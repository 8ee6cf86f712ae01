"""Self-play: a table that keeps no events plays exactly the moves of one that does, and
``simulate``'s line-ups seat and count the bot kinds as documented."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest_mock import MockerFixture

import uno_attack.simulate
from tests.uno_attack.test_engine_properties import options
from uno_attack.actions import Action
from uno_attack.bots import make_bot
from uno_attack.engine import Round
from uno_attack.errors import IllegalActionError, UnoAttackError
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.simulate import line_up, simulate
from uno_attack.table import RoundTooLong, Table, TableEvent

MAX_ACTIONS = 1500  # random play under until_playable need not end


def seated_table(seed: int, players: int, chosen: Options, **table: object) -> Table:
    match = Match([f"p{i}" for i in range(players)], chosen, seed=seed)
    game, record = match.deal_round()
    # basic bots that forget UNO half the time, so calls and catches come out of turn
    bots = [make_bot("basic" if i % 2 else "random", f"p{i}", seed=f"{seed}:{i}",
                     forget_uno=0.5) for i in range(players)]
    return Table(game, bots, open_launcher("sim", seed=seed), record,
                 reload_rng=match.reload_rng(), **table)  # type: ignore[arg-type]


def finish(table: Table) -> str:
    """Play the round out; what ended it."""
    try:
        table.play_round(max_actions=MAX_ACTIONS)
    except RoundTooLong:
        return "too long"
    return "over"


class TestUnwatchedTable:
    @settings(max_examples=60, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10), data=st.data())
    def test_the_same_moves_as_the_loop_of_events(self, seed: int, players: int,
                                                  data: st.DataObject) -> None:
        chosen = data.draw(options(players))
        events: list[TableEvent] = []
        watched = seated_table(seed, players, chosen, on_event=events.append)
        # as simulate plays: a simulated launcher's draw pile is the engine's, nothing to eject
        lean = seated_table(seed, players, chosen, recording=False, ejects_draws=False)
        assert finish(lean) == finish(watched)
        assert lean.game == watched.game  # hands, stock and the discard pile in its order
        assert (lean.actions, lean.takes, lean.cards_taken) == (
            watched.actions, watched.takes, watched.cards_taken)
        assert len(events) == watched.actions == len(watched.record.steps)
        assert lean.events == []  # it kept nothing: no event was made
        assert lean.record.steps == []

    def test_one_out_of_turn_action_after_another_as_the_loop_of_events(self) -> None:
        """In this round (found by the property test above) a second out-of-turn action is
        open right after the first: both tables ask again after it."""
        watched = seated_table(0, 7, Options(jump_in="numbers"), on_event=lambda _: None)
        lean = seated_table(0, 7, Options(jump_in="numbers"), recording=False)
        watched.play_round()
        lean.play_round()
        assert lean.game == watched.game
        assert lean.actions == watched.actions

    def test_a_recording_table_keeps_every_action_without_a_listener(self) -> None:
        recorded = seated_table(5, 4, Options(jump_in="any"))
        bare = seated_table(5, 4, Options(jump_in="any"), recording=False)
        assert recorded.play_round() == bare.play_round()
        assert len(recorded.events) == len(recorded.record.steps) == recorded.actions > 0
        assert bare.record.steps == []
        assert bare.record.fires == []
        assert bare.record.reloads is None
        assert bare.actions == recorded.actions

    def test_an_action_not_from_the_legal_list_is_checked(self) -> None:
        class Copier:
            """Hands back an equal copy of a legal action, then one that is not legal."""

            name = "copier"

            def __init__(self) -> None:
                self.turns = 0

            def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
                self.turns += 1
                if self.turns == 3:
                    return Action.catch(seat, seat)  # nobody may catch themselves
                first = legal[0]
                return Action(first.seat, first.verb, first.cards, first.color, first.target)

            def react(self, game: Round, seat: int) -> Action | None:
                return None

        table = seated_table(2, 2, Options(), recording=False)
        copier = Copier()
        table.players = [copier, copier]
        with pytest.raises(IllegalActionError, match="cannot catch themselves"):
            table.play_round()
        assert table.actions == 2  # the two equal copies were played


class TestLineUps:
    def test_one_word_seats_one_kind_and_does_not_rotate(self) -> None:
        seats, rotates = line_up("random", 3)
        assert [(s.name, s.kind) for s in seats] == [
            ("random-1", "random"), ("random-2", "random"), ("random-3", "random")]
        assert not rotates

    def test_a_list_names_each_seat_and_rotates(self) -> None:
        seats, rotates = line_up("basic,random,basic", 3)
        assert [(s.name, s.kind) for s in seats] == [
            ("basic-1", "basic"), ("random-2", "random"), ("basic-3", "basic")]
        assert rotates

    @pytest.mark.parametrize(("bots", "fragment"), [
        ("smrt", "unknown bot kind 'smrt' (known: random, basic"),
        ("basic,", "unknown bot kind ''"),
        ("basic,mixed", "unknown bot kind 'mixed'"),
        ("basic,random", "2 kinds for 3 players"),
    ])
    def test_bad_line_ups_are_refused(self, bots: str, fragment: str) -> None:
        with pytest.raises(UnoAttackError, match=fragment.replace("(", r"\(")):
            line_up(bots, 3)

    def test_round_i_seats_the_list_rotated_by_i(self, tmp_path: Path) -> None:
        kinds = ["basic", "random", "random"]
        simulate(4, 3, ",".join(kinds), 9, save_dir=tmp_path)
        names = [f"{kind}-{j}" for j, kind in enumerate(kinds, start=1)]
        for i in range(4):
            saved = json.loads((tmp_path / f"round-{i + 1:05d}.json").read_text())
            seated = saved["meta"]["players"]
            assert [seated[(j + i) % 3] for j in range(3)] == names

    def test_each_kind_wins_what_its_players_won(self) -> None:
        stats = simulate(60, 3, "basic,random,random", 4)
        wins = stats.to_json()["wins"]
        assert stats.wins_by_kind == {"basic": wins["basic-1"],
                                      "random": wins["random-2"] + wins["random-3"]}
        assert sum(stats.wins_by_kind.values()) == 60
        assert stats.wins_by_kind["basic"] > 30  # the sensible bot beats two random ones


def test_search_bots_model_the_run_s_ejection_policy(mocker: MockerFixture) -> None:
    made = mocker.spy(uno_attack.simulate, "make_bot")
    simulate(1, 2, "smart,basic", seed=3, policy="gentle")
    assert {call.kwargs["policy"] for call in made.call_args_list} == {"gentle"}


def test_search_bots_get_the_run_s_budget(mocker: MockerFixture) -> None:
    made = mocker.spy(uno_attack.simulate, "make_bot")
    simulate(1, 2, "smart,basic", seed=3, playouts=7, budget_ms=120)
    assert {(call.kwargs["playouts"], call.kwargs["budget_ms"])
            for call in made.call_args_list} == {(7, 120)}
