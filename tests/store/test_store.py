"""Recording rounds and matches, and what the reports make of them (a real SQLite file)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.store.helpers import START, a_match, a_round, bot_match
from uno_attack.cli.stats import player_text
from uno_attack.options import Options
from uno_attack.replay import replay
from uno_attack.store import (
    MatchRecord,
    PlayerStore,
    Recorder,
    RoundRecord,
    RoundSeat,
    StoreError,
    career_credit,
)
from uno_attack.store.from_table import match_record
from uno_attack.store.records import now
from uno_attack.store.text import summary_lines
from uno_attack.transcript import ActionStep, from_dict


@pytest.fixture
def store(tmp_path: Path) -> Iterator[PlayerStore]:
    with PlayerStore.open(tmp_path / "players.db") as opened:
        yield opened


def ended(match: MatchRecord, *, winners: tuple[int, ...]) -> MatchRecord:
    return replace(match, finished_at=now(), winners=winners,
                   scores=tuple(0 for _ in match.seats))


class TestCareerPoints:
    def test_the_winner_is_credited_the_other_hands(self) -> None:
        assert career_credit([0, 12, 30], [0]) == [42, 0, 0]

    def test_a_winning_team_is_credited_the_other_teams_hands_each(self) -> None:
        assert career_credit([0, 5, 7, 9], [0, 2]) == [14, 0, 14, 0]

    def test_penalty_points_of_a_lowest_match_credit_nobody_but_the_winner(
            self, store: PlayerStore) -> None:
        match = a_match("Ann", "Bob", options={"match": "lowest"})
        # lowest: each adds their own hand, so Ann's 25 round points are her penalty
        seats = (RoundSeat(player=0, round_points=25, score=25, hand_points=25),
                 RoundSeat(player=1, round_points=0, score=0, hand_points=0))
        store.record_round(RoundRecord(match, 1, seats, winners=(1,), transcript={}))
        assert store.player_stats("Ann").career_points == 0
        assert store.player_stats("Bob").career_points == 25


class TestRecording:
    def test_a_round_recorded_twice_counts_once(self, store: PlayerStore) -> None:
        match = a_match("Ann", "Ada:basic")
        first = store.record_round(a_round(match, 1, winner=0, hands=[0, 40]))
        again = store.record_round(a_round(match, 1, winner=0, hands=[0, 40]))
        assert first.new
        assert not again.new
        assert again.round_id == first.round_id
        assert again.level_ups == ()
        stats = store.player_stats("Ann")
        assert (stats.rounds.played, stats.career_points) == (1, 40)

    def test_going_up_a_level_is_reported_once_with_both_levels(
            self, store: PlayerStore) -> None:
        match = a_match("Ann", "Bob", "Ada:basic")
        saved = store.record_round(a_round(match, 1, winner=0, hands=[0, 4, 10]))
        assert saved.level_ups == ()  # 14 points: still an Intern
        saved = store.record_round(a_round(match, 2, winner=0, hands=[0, 1, 0]))
        assert [(u.name, u.before.number, u.after.number) for u in saved.level_ups] == [
            ("Ann", 1, 2)]
        assert str(saved.level_ups[0]) == "Ann is now level 2, Staff!"
        saved = store.record_round(a_round(match, 3, winner=1, hands=[60, 0, 60]))
        assert [(u.name, u.before.number, u.after.number) for u in saved.level_ups] == [
            ("Bob", 1, 4)]  # 120 points at once: three levels in one round

    def test_bots_are_kept_by_kind_without_a_profile(self, store: PlayerStore) -> None:
        store.record_round(a_round(a_match("Ann", "Ada:random"), 1, winner=1, hands=[9, 0]))
        (match,) = store.matches()
        assert [(s.name, s.kind) for s in match.seats] == [("Ann", "human"), ("Ada", "random")]
        assert match.rounds[0].winners == ("Ada",)
        assert [row.name for row in store.leaderboard()] == ["Ann"]
        with pytest.raises(StoreError, match="no player named 'Ada' \\(bots have no profile\\)"):
            store.player_stats("Ada")

    def test_profiles_are_by_name_in_any_case(self, store: PlayerStore) -> None:
        store.record_round(a_round(a_match("Ann", "Ada:basic"), 1, winner=0, hands=[0, 5]))
        store.record_round(a_round(a_match("ANN", "Ada:basic"), 1, winner=0, hands=[0, 6]))
        stats = store.player_stats("ann")
        assert (stats.name, stats.rounds.played, stats.career_points) == ("Ann", 2, 11)
        assert stats.since == START  # playing since the start of the first match
        with pytest.raises(StoreError, match="two people with the same name"):
            store.record_round(a_round(a_match("Ann", "ann"), 1, winner=0, hands=[0, 1]))

    def test_a_match_key_cannot_change_its_players(self, store: PlayerStore) -> None:
        store.record_round(a_round(a_match("Ann", "Bob", key="k"), 1, winner=0, hands=[0, 5]))
        with pytest.raises(StoreError, match="recorded with 2 players, not 3"):
            store.record_round(a_round(a_match("Ann", "Bob", "Cy", key="k"), 2, winner=0,
                                       hands=[0, 5, 5]))

    def test_a_match_not_over_cannot_be_recorded_as_ended(self, store: PlayerStore) -> None:
        with pytest.raises(StoreError, match="not over"):
            store.record_match(a_match("Ann", "Bob"))

    def test_a_record_that_does_not_add_up_is_refused_and_nothing_written(
            self, store: PlayerStore) -> None:
        match = a_match("Ann", "Bob")
        with pytest.raises(StoreError, match=r"winners \[2\] are not seats of the round's 2"):
            store.record_round(a_round(match, 1, winner=2, hands=[1, 1]))
        with pytest.raises(StoreError, match="a seat names a player the match does not have"):
            store.record_round(a_round(match, 1, winner=0, hands=[0, 1], players=[0, 5]))
        with pytest.raises(StoreError, match="1 final scores for 2 players"):
            store.record_match(replace(match, finished_at=now(), winners=(0,), scores=(3,)))
        assert store.matches() == []

    def test_a_recorder_never_raises(self, tmp_path: Path) -> None:
        recorder = Recorder(tmp_path / "players.db")
        bad = a_round(a_match("Ann", "ann"), 1, winner=0, hands=[0, 1])
        assert recorder.round_finished(bad) is None
        assert recorder.problem is not None
        assert recorder.problem.startswith("round 1 was not recorded: match ")
        assert not recorder.match_finished(replace(bad.match, finished_at=now(), scores=(0, 0)))
        recorder.close()

    def test_an_unknown_round(self, store: PlayerStore) -> None:
        with pytest.raises(StoreError, match="no round with id 7"):
            store.round_transcript(7)


class TestPlayerStats:
    def test_the_longest_streak_counts_rounds_in_the_order_played(
            self, store: PlayerStore) -> None:
        match = a_match("Ann", "Bob")
        # recorded out of order: the streak follows the time each round finished
        outcome = {1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 0, 7: 1, 8: 0}
        for number in (5, 1, 8, 3, 2, 7, 4, 6):
            store.record_round(a_round(match, number, winner=outcome[number], hands=[1, 1]))
        other = a_match("Ann", "Cy:basic")  # a streak goes on from one match into the next
        store.record_round(a_round(other, 1, winner=0, hands=[0, 1], minute=9))
        assert store.player_stats("Ann").longest_streak == 3
        assert store.player_stats("Bob").longest_streak == 1

    def test_rounds_and_matches_by_rule_set_and_table_size(self, store: PlayerStore) -> None:
        three = a_match("Ann", "Bob", "Ada:basic")
        store.record_round(a_round(three, 1, winner=0, hands=[0, 3, 3]))
        store.record_round(a_round(three, 2, winner=1, hands=[3, 0, 3]))
        store.record_match(ended(three, winners=(0,)))
        duel = a_match("Ann", "Ada:basic", rules="classic")
        store.record_round(a_round(duel, 1, winner=1, hands=[8, 0]))
        store.record_match(ended(duel, winners=(1,)))
        store.record_round(a_round(a_match("Ann", "Ben:basic"), 1, winner=0, hands=[0, 2]))
        stats = store.player_stats("Ann")
        assert (stats.rounds.played, stats.rounds.won) == (4, 2)
        assert (stats.matches.played, stats.matches.won, stats.unfinished) == (2, 1, 1)
        assert stats.rounds.rate == 0.5
        by_rules = {k: (v.rounds.won, v.rounds.played, v.matches.won, v.matches.played)
                    for k, v in stats.by_rules.items()}
        assert by_rules == {"attack": (2, 3, 1, 1), "classic": (0, 1, 0, 1)}
        by_players = {k: (v.rounds.won, v.rounds.played, v.matches.won, v.matches.played)
                      for k, v in stats.by_players.items()}
        assert by_players == {2: (1, 2, 0, 1), 3: (1, 2, 1, 1)}

    def test_an_eliminated_player_counts_only_the_rounds_they_sat_in(
            self, store: PlayerStore) -> None:
        match = a_match("Ann", "Bob", "Cy")
        store.record_round(a_round(match, 1, winner=0, hands=[0, 9, 99]))
        store.record_round(a_round(match, 2, winner=1, hands=[9, 0], players=[0, 1]))
        assert store.player_stats("Cy").rounds.played == 1
        bob = store.player_stats("Bob")
        assert bob.rounds.played == 2
        assert {n: r.rounds.played for n, r in bob.by_players.items()} == {2: 1, 3: 1}
        (summary,) = store.matches()
        assert summary.rounds[1].names == ("Ann", "Bob")

    def test_favourite_and_luckiest_cards_with_ties_to_the_first_code(
            self, store: PlayerStore) -> None:
        match = a_match("Ann", "Bob")
        store.record_round(a_round(match, 1, winner=0, hands=[0, 1],
                                   played={0: {"R5": 2, "WA": 3}, 1: {"G1": 9}},
                                   gained={0: {"BH": 4, "Y2": 1}}))
        store.record_round(a_round(match, 2, winner=0, hands=[0, 1],
                                   played={0: {"R5": 1}}, gained={0: {"B9": 4}}))
        stats = store.player_stats("Ann")
        assert stats.favourite_card is not None
        assert (stats.favourite_card.card, stats.favourite_card.times) == ("R5", 3)
        assert stats.luckiest_card is not None
        assert (stats.luckiest_card.card, stats.luckiest_card.times) == ("B9", 4)
        bob = store.player_stats("Bob")
        assert bob.favourite_card is not None
        assert bob.favourite_card.card == "G1"
        assert bob.luckiest_card is None

    def test_a_real_bot_match(self, store: PlayerStore) -> None:
        names, kinds = ["Ann", "Ada", "Ben"], ["human", "basic", "basic"]
        won = points = 0
        plays: Counter[str] = Counter()
        last = None
        for match, record in bot_match(names, kinds, seed=5, key="m",
                                       options=Options(target=150)):
            saved = store.record_round(record)
            assert saved.new
            ann = next(i for i, s in enumerate(record.seats) if s.player == 0)
            won += ann in record.winners
            points += record.seats[ann].round_points  # a points match: only winners score
            transcript = from_dict(record.transcript)
            plays.update(str(step.action.card) for step in transcript.steps
                         if isinstance(step, ActionStep) and step.action.seat == ann
                         and step.action.card is not None)
            last = match
        assert last is not None
        assert last.over
        store.record_match(match_record(last, kinds, key="m", started_at=START))
        stats = store.player_stats("Ann")
        assert stats.rounds.played == last.round_no
        assert stats.rounds.won == won
        assert stats.career_points == points
        assert stats.matches.played == 1
        assert stats.matches.won == int(last.winner == 0)
        assert stats.favourite_card is not None
        assert stats.favourite_card.times == max(plays.values())
        assert plays[stats.favourite_card.card] == stats.favourite_card.times
        assert stats.by_rules.keys() == {"attack"}
        (summary,) = store.matches("Ann")
        assert [s.score for s in summary.seats] == last.scores
        for round_summary in summary.rounds:
            assert replay(from_dict(store.round_transcript(round_summary.id))).passed


class TestLeaderboardAndHistory:
    def test_the_leaderboard_ranks_by_career_points_then_name(self, store: PlayerStore) -> None:
        match = a_match("Cy", "Bob", "Ann", "Ada:basic")
        store.record_round(a_round(match, 1, winner=0, hands=[0, 10, 10, 10]))
        store.record_round(a_round(match, 2, winner=1, hands=[10, 0, 10, 10]))
        store.record_round(a_round(match, 3, winner=1, hands=[5, 0, 0, 0]))
        store.record_match(ended(match, winners=(1,)))
        board = store.leaderboard()
        assert [(r.rank, r.name, r.career_points) for r in board] == [
            (1, "Bob", 35), (2, "Cy", 30), (3, "Ann", 0)]
        bob = board[0]
        assert (bob.rounds.won, bob.rounds.played, bob.matches.won, bob.matches.played) == (
            2, 3, 1, 1)
        assert str(bob.level) == "L2 Staff"

    def test_history_lists_matches_oldest_first_and_by_person(self, store: PlayerStore) -> None:
        first, second = a_match("Ann", "Ada:basic"), a_match("Bob", "Ada:basic")
        store.record_round(a_round(first, 1, winner=0, hands=[0, 3]))
        store.record_round(a_round(second, 1, winner=1, hands=[3, 0]))
        store.record_round(a_round(first, 2, winner=1, hands=[3, 0]))
        assert [len(m.rounds) for m in store.matches()] == [2, 1]
        (bobs,) = store.matches("bob")
        assert bobs.seats[0].name == "Bob"
        assert bobs.finished_at is None
        assert bobs.winners == ()
        with pytest.raises(StoreError, match="no player named 'Zed'"):
            store.matches("Zed")



def test_the_luckiest_card_is_fired_to_you_when_you_are_you(store: PlayerStore) -> None:
    match = a_match("You", "Bob")
    store.record_round(a_round(match, 1, winner=0, hands=[0, 1], gained={0: {"BH": 2},
                                                                         1: {"Y2": 2}}))
    you, bob = store.player_stats("You"), store.player_stats("Bob")
    assert "blue Hit 2 (BH), fired to you 2 times" in player_text(you)
    assert summary_lines(you)[-1].endswith("fired to you 2 times")
    assert "fired to them 2 times" in player_text(bob)
    assert summary_lines(bob)[-1].endswith("fired to them 2 times")
