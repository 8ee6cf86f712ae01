"""Who is at the table: a person away at their turn gets a stand-in until they are back."""

from __future__ import annotations

from uno_attack.bots import Player, make_bot
from uno_attack.presence import Presence


def test_a_person_gone_counts_as_away_only_after_their_turn_began_and_the_wait() -> None:
    presence = Presence(60.0, lambda player: make_bot("basic", f"for {player}"))
    presence.start([0, 1], now=0.0)
    assert presence.arrive(0) is False  # connected: never away
    assert presence.away_at(0, turn_since=5.0, now=10.0) is None
    assert presence.away_at(1, turn_since=30.0, now=40.0) == 90.0  # from the turn's start
    presence.leave(0, now=100.0)
    assert presence.away_at(0, turn_since=20.0, now=120.0) == 160.0  # from when they left


def test_the_stand_in_is_one_bot_per_person_and_coming_back_ends_it() -> None:
    made: list[int] = []

    def stand_in(player: int) -> Player:
        made.append(player)
        return make_bot("basic", f"for {player}")

    presence = Presence(60.0, stand_in)
    presence.start([1], now=0.0)
    presence.go_away(1)
    assert presence.away(1)
    assert presence.stand_in(1) is presence.stand_in(1)
    assert made == [1]
    assert presence.arrive(1) is True  # they were away: the flow says they are back
    assert not presence.away(1)
    assert presence.arrive(1) is False  # a second connection of someone present
