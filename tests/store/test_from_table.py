"""What a table's round becomes in the store: the cards each seat played and gained, the
points left in hand, and a transcript that replays to the same outcome."""

from __future__ import annotations

from tests.store.helpers import START
from tests.tui.helpers import deal
from uno_attack.actions import Action
from uno_attack.bots import BasicBot
from uno_attack.cards import Card
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.replay import replay
from uno_attack.store.from_table import match_record, round_record, tally_cards
from uno_attack.table import Table
from uno_attack.transcript import from_dict

RD = Card.parse("RD")


def a_table() -> Table:
    """Ann lays down a Discard All with her reds; Bob presses and two cards fire."""
    record = deal(["RD R5 R7 G2", "B1 B2 B3", "Y4 Y5"], "R3", launcher="Y1 G9 B9")
    players = [BasicBot(name) for name in ("Ann", "Bob", "Cy")]
    table = Table(record.new_round(), players, open_launcher("fixed:1"), record)
    table.perform(Action.play(0, RD))
    table.perform(Action.press(1), fired=2)
    return table


def test_a_discard_all_counts_as_the_card_played_and_a_press_as_the_cards_gained() -> None:
    played, gained = tally_cards(a_table().events, 3)
    assert played == [{"RD": 1}, {}, {}]
    assert gained == [{}, {"Y1": 1, "G9": 1}, {}]


def test_a_finished_round_with_its_hands_points_and_a_transcript_that_replays() -> None:
    match = Match(["Ann", "Bob", "Cy"], seed=4)
    game, record = match.deal_round()
    table = Table(game, [BasicBot(n, seed=i) for i, n in enumerate(match.names)],
                  open_launcher("sim", seed=4), record, reload_rng=match.reload_rng())
    result = table.play_round()
    match.end_round(result)
    kinds = ["human", "basic", "basic"]
    done = round_record(table, result, match_record(match, kinds, key="k", started_at=START),
                        number=1, players=[0, 1, 2])
    assert done.winners == (result.winner,)
    assert [s.round_points for s in done.seats] == list(result.round_points)
    assert [s.hand_points for s in done.seats] == [game.rules.hand_points(h)
                                                   for h in game.hands]
    assert done.career_credit()[result.winner] == sum(s.hand_points for s in done.seats)
    assert sum(sum(s.gained.values()) for s in done.seats) == table.cards_taken
    assert done.transcript["steps"][-1] == {"expect": {
        "winner": result.winner, "round_points": list(result.round_points),
        "scores": list(result.scores), "match_winner": None}}
    assert replay(from_dict(done.transcript)).passed
