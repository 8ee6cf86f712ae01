"""Dealing, dealers, scoring and match ends (RULES.md sections 3 and 8)."""

from __future__ import annotations

import random
from collections import Counter
from typing import ClassVar

import pytest

from uno_attack.cards import Card
from uno_attack.errors import OptionError
from uno_attack.match import Match, deal, draw_for_dealer, round_rng
from uno_attack.options import Options
from uno_attack.rules import ATTACK, CLASSIC, RuleSet
from uno_attack.scoring import RoundResult, score_round

CANONICAL_DECK = ATTACK.deck


def cards(*codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes]


def scored(mode: str, target: int, hands: list[list[Card]], winner: int,
           scores: list[int]) -> RoundResult:
    return score_round(hands, winner, rules=ATTACK, options=Options(match=mode, target=target),
                       scores=scores)


class TestDeal:
    def test_one_card_at_a_time_clockwise_from_the_dealers_left(self) -> None:
        deck = list(CANONICAL_DECK)
        hands, starters, launcher = deal(ATTACK, deck, 3, dealer=1, hand_size=2)
        # seat 2 (left of dealer 1) gets the 1st and 4th cards, seat 0 the 2nd and 5th …
        assert hands[2] == [deck[0], deck[3]]
        assert hands[0] == [deck[1], deck[4]]
        assert hands[1] == [deck[2], deck[5]]
        assert starters == [deck[6]]
        assert launcher == deck[7:]

    def test_trade_hands_starters_go_under_the_launcher(self) -> None:
        deck = cards("R1", "R2", "YT", "GT", "B5", "B6", "B7")
        _hands, starters, launcher = deal(ATTACK, deck, 2, dealer=0, hand_size=1)
        assert [c.code for c in starters] == ["YT", "GT", "B5"]
        assert [c.code for c in launcher] == ["B6", "B7"]

    @pytest.mark.parametrize(("rules", "players", "hand_size"), [
        ("attack", 10, 12), ("attack", 4, 28), ("classic", 4, 27)])
    def test_hand_size_too_large_for_the_deck(self, rules: str, players: int,
                                              hand_size: int) -> None:
        options = Options(rules=rules, hand_size=hand_size)
        with pytest.raises(OptionError, match=f"'hand_size' = {hand_size}: {players} players"):
            options.check_players(players)  # one rule: the table's check is the deal's
        with pytest.raises(OptionError, match=f"'hand_size' = {hand_size}"):
            Match([str(s) for s in range(players)], options).deal_round()
        Options(rules=rules, hand_size=hand_size - 1).check_players(players)  # it fits

    @pytest.mark.parametrize(("options", "deck"), [
        (Options(hand_size=5), ATTACK), (Options(hand_size=5, rules="classic"), CLASSIC)])
    def test_a_dealt_round_holds_every_card_of_its_deck(self, options: Options,
                                                        deck: RuleSet) -> None:
        match = Match(["a", "b", "c"], options, seed=4)
        game, record = match.deal_round()
        assert [len(h) for h in game.hands] == [5, 5, 5]
        total: Counter = Counter(game.stock)
        total.update(game.discard)
        for hand in game.hands:
            total.update(hand)
        assert total == deck.counts
        assert record.new_round() == game


class TestDealer:
    def test_draw_picks_the_highest_number(self) -> None:
        rng = random.Random(5)
        picks = Counter(draw_for_dealer(ATTACK, 4, rng) for _ in range(400))
        assert set(picks) == {0, 1, 2, 3}  # every seat can win the draw

    def test_first_dealer_option(self) -> None:
        match = Match(["a", "b", "c"], Options(first_dealer=2), seed=1)
        match.deal_round()
        assert match.dealer == 2
        with pytest.raises(OptionError, match="first_dealer"):
            Match(["a", "b"], Options(first_dealer=5))

    @pytest.mark.parametrize(("rule", "expected"), [("winner", 1), ("left", 0)])
    def test_next_dealer(self, rule: str, expected: int) -> None:
        match = Match(["a", "b", "c"], Options(first_dealer=2, next_dealer=rule), seed=1)
        _game, _ = match.deal_round()
        result = scored("points", 500, [cards("R5"), [], cards("G2")], 1, [0, 0, 0])
        match.end_round(result)
        assert match.dealer == expected


class TestScoring:
    hands: ClassVar[list[list[Card]]] = [cards("R5", "WA"), [], cards("GT", "Y2")]

    def test_points_winner_scores_the_others(self) -> None:
        result = scored("points", 500, self.hands, 1, [10, 20, 30])
        assert result.round_points == (0, 87, 0)
        assert result.scores == (10, 107, 30)
        assert result.match_winner is None

    def test_points_match_ends_at_target(self) -> None:
        assert scored("points", 100, self.hands, 1, [0, 20, 0]).match_winner == 1

    def test_lowest_each_adds_own_hand(self) -> None:
        result = scored("lowest", 100, self.hands, 1, [0, 0, 70])
        assert result.round_points == (55, 0, 32)
        assert result.scores == (55, 0, 102)
        assert result.match_winner == 1

    def test_lowest_tie_is_shared(self) -> None:
        result = scored("lowest", 100, self.hands, 1, [0, 55, 70])
        assert result.match_winner == (0, 1)

    def test_elimination(self) -> None:
        result = scored("elimination", 60, self.hands, 1, [10, 0, 0])
        assert result.eliminated == (0,)
        assert result.match_winner is None
        result = scored("elimination", 50, self.hands, 1, [10, 0, 20])
        assert result.eliminated == (0, 2)
        assert result.match_winner == 1

    def test_elimination_two_left_decide_in_one_round(self) -> None:
        result = scored("elimination", 500, [cards("R1"), []], 1, [400, 490])
        assert result.match_winner == 1

    def test_single(self) -> None:
        assert scored("single", 500, self.hands, 1, [0, 0, 0]).match_winner == 1


class TestMatch:
    def test_elimination_removes_players_and_renumbers_seats(self) -> None:
        match = Match(["a", "b", "c"], Options(match="elimination", target=50,
                                               first_dealer=0), seed=3)
        match.deal_round()
        result = scored("elimination", 50, [cards("WA"), [], cards("R1")], 1, [0, 0, 0])
        match.end_round(result)
        assert match.active == [1, 2]
        assert match.scores == [50, 0, 1]
        game, record = match.deal_round()
        assert game.players == 2
        assert record.meta["players"] == ["b", "c"]
        assert record.scores == [0, 1]

    def test_points_match_to_the_end(self) -> None:
        match = Match(["a", "b"], Options(target=60, first_dealer=0), seed=9)
        rounds = 0
        while not match.over:
            match.deal_round()
            match.end_round(scored("points", 60, [[], cards("GT")], 0,
                                        [match.scores[p] for p in match.active]))
            rounds += 1
        assert (rounds, match.winner, match.scores) == (2, 0, [60, 0])


class TestVariantMatches:
    def test_winner_starts_the_next_round(self) -> None:
        match = Match(["a", "b", "c", "d"], Options(first_dealer=0, next_dealer="winner_starts"),
                      seed=1)
        match.deal_round()
        match.end_round(scored("points", 500, [cards("R5"), cards("R1"), [], cards("G2")], 2,
                               [0, 0, 0, 0]))
        assert match.dealer == 1  # the seat before the winner deals (B12) …
        game, record = match.deal_round()
        assert record.dealer == game.dealer == 1
        assert (game.dealer + 1) % 4 == 2  # … so the winner is left of the dealer

    def test_a_net_match_ends_after_its_rounds(self) -> None:
        options = Options(match="net", rounds=2, first_dealer=0, target=1)
        match = Match(["a", "b"], options, seed=5)
        for expected in (None, 0):
            match.deal_round()
            result = score_round([[], cards("R9")], 0, rules=ATTACK, options=options,
                                 scores=list(match.scores), round_no=match.round_no)
            match.end_round(result)
            assert match.winner == expected
        assert match.scores == [18, -18]

    def test_teams_must_divide_the_players(self) -> None:
        with pytest.raises(OptionError, match="option 'teams' = 2: 3 players"):
            Match(["a", "b", "c"], Options(teams=2))

    def test_a_classic_deal_puts_wild_draw_fours_back(self) -> None:
        deck = CLASSIC.parse_cards(["R1", "R2", "W+4", "W+4", "B5", "B6"])
        _hands, starters, stock = deal(CLASSIC, deck, 2, dealer=0, hand_size=1)
        assert [c.code for c in starters] == ["W+4", "W+4", "B5"]
        assert [c.code for c in stock] == ["B6"]


def test_a_starter_put_back_goes_to_a_random_place_of_the_stock() -> None:
    """RULES.md 3.3: a real deal puts a Trade Hands starter back at a random place (only a
    transcript puts it at the bottom); the recorded deal replays to the same round."""
    places = set()
    for seed in range(400):
        match = Match(["a", "b"], Options(first_dealer=0), seed=seed)
        deck = list(ATTACK.deck)
        round_rng(seed, 1, "deck").shuffle(deck)
        _hands, starters, _stock = deal(ATTACK, deck, 2, 0, 7)
        if len(starters) == 1:
            continue
        game, record = match.deal_round()
        assert [c.code for c in record.starter] == [starters[-1].code]
        assert record.new_round() == game
        assert Counter(game.stock) == Counter(_stock) + Counter(starters[:-1])
        places.add(list(game.stock).index(starters[0]))
    assert len(places) > 1
