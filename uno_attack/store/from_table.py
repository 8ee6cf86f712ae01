"""A match and its finished round, as the store's records: what a front end calls.

This is the one module of the store that reads the engine's objects (a
:class:`~uno_attack.match.Match`, a :class:`~uno_attack.table.Table` and its events); the
store itself keeps plain values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from uno_attack.actions import Verb
from uno_attack.match import Match
from uno_attack.scoring import RoundResult
from uno_attack.store.records import MatchRecord, RoundRecord, RoundSeat, Seat, now
from uno_attack.table import Table, TableEvent


def match_record(match: Match, kinds: Sequence[str], *, key: str, started_at: datetime,
                 source: str = "play") -> MatchRecord:
    """The match as the store keeps it; with its end once ``match`` is over.

    ``kinds`` gives each player's kind: ``"human"`` or the bot's kind.
    """
    seats = tuple(Seat(name, kind) for name, kind in zip(match.names, kinds, strict=True))
    record = MatchRecord(key=key, seats=seats, rules=match.options.rules,
                         options=match.options.to_dict(), started_at=started_at, source=source)
    if not match.over:
        return record
    winner = match.winner
    assert winner is not None
    return replace(record, finished_at=now(), scores=tuple(match.scores),
                   winners=winner if isinstance(winner, tuple) else (winner,))


def round_record(table: Table, result: RoundResult, match: MatchRecord, *, number: int,
                 players: Sequence[int]) -> RoundRecord:
    """The finished round of ``table``, scored ``result``: round ``number`` of ``match``.

    ``players`` gives the match player in each seat of the round. The transcript is the
    table's, with a last step that expects the round's outcome, so a replay of it checks
    that the recorded round ends as it did.
    """
    game = table.game
    played, gained = tally_cards(table.events, game.players)
    seats = tuple(
        RoundSeat(player=players[seat], round_points=result.round_points[seat],
                  score=result.scores[seat], hand_points=game.rules.hand_points(game.hands[seat]),
                  played=dict(played[seat]), gained=dict(gained[seat]))
        for seat in range(game.players))
    transcript = table.record.to_dict()
    winner = result.match_winner
    outcome: dict[str, Any] = {
        "winner": result.winner, "round_points": list(result.round_points),
        "scores": list(result.scores),
        "match_winner": list(winner) if isinstance(winner, tuple) else winner,
    }
    transcript["steps"].append({"expect": outcome})
    return RoundRecord(match=match, number=number, seats=seats, winners=(result.winner,),
                       transcript=transcript)


def tally_cards(events: Sequence[TableEvent], seats: int
                ) -> tuple[list[Counter[str]], list[Counter[str]]]:
    """Per seat, the card codes it played (every card of a play it chose; not the cards a
    Discard All lays down with it) and the codes it took from the launcher (or drew)."""
    played: list[Counter[str]] = [Counter() for _ in range(seats)]
    gained: list[Counter[str]] = [Counter() for _ in range(seats)]
    for event in events:
        action = event.action
        if action.verb is Verb.PLAY:
            played[action.seat].update(card.code for card in action.cards)
        gained[action.seat].update(card.code for card in event.applied.gained)
    return played, gained
