"""What a front end hands the player store: plain values, independent of the engine.

A front end (``play``, ``host``) fills a :class:`MatchRecord` when a match starts and a
:class:`RoundRecord` when each round ends (:mod:`uno_attack.store.from_table` fills both
from a table loop); the store keeps them. Nothing here imports the rules engine, so the
store's file format does not move when the engine's insides do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from uno_attack.errors import UnoAttackError

HUMAN = "human"


class StoreError(UnoAttackError):
    """The player store cannot be opened, read or written; the message names the file."""


def now() -> datetime:
    """The time stamps the store keeps: aware, in UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Seat:
    """A player of a match: a person (``kind="human"``, a profile by name) or a bot (its kind)."""

    name: str
    kind: str = HUMAN

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN


@dataclass(frozen=True)
class MatchRecord:
    """A match: who plays, under which rules, and (once it is over) how it ended.

    ``key`` is chosen by the front end (a UUID) and kept with its saved game, so a match
    resumed after a crash adds its rounds to the same record. ``options`` are the
    transcript's ``options`` (only those that differ from the default); ``winners`` and
    ``scores`` are indexes into and totals of ``seats``, set when the match is over.
    """

    key: str
    seats: tuple[Seat, ...]
    rules: str
    options: Mapping[str, Any] = field(default_factory=dict)
    started_at: datetime = field(default_factory=now)
    source: str = "play"
    finished_at: datetime | None = None
    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()

    def check(self) -> None:
        """Raise :class:`StoreError` if the store cannot keep this match as it is."""
        humans = [s.name.casefold() for s in self.seats if s.is_human]
        if len(set(humans)) != len(humans):
            raise StoreError(f"match {self.key}: two people with the same name "
                             f"({', '.join(s.name for s in self.seats if s.is_human)}); "
                             "profiles are by name, case aside")
        if any(not s.name.strip() for s in self.seats):
            raise StoreError(f"match {self.key}: a player without a name")
        if self.finished_at is not None and len(self.scores) != len(self.seats):
            raise StoreError(f"match {self.key}: {len(self.scores)} final scores for "
                             f"{len(self.seats)} players")


@dataclass(frozen=True)
class RoundSeat:
    """One seat of a finished round.

    ``player`` is the index of the match's :class:`Seat` sitting here (seats of a round are
    the players still in the match). ``hand_points`` are the points of the cards left in
    the seat's hand; ``played`` and ``gained`` count card codes: cards this seat played, and
    cards the launcher fired into its hand (in classic rules: cards it drew).
    """

    player: int
    round_points: int
    score: int
    hand_points: int
    played: Mapping[str, int] = field(default_factory=dict)
    gained: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RoundRecord:
    """A finished round of a match: its seats, who won, and its transcript.

    ``winners`` are round seats: the player who went out, or their whole team.
    ``transcript`` is the round as a transcript (TRANSCRIPTS.md) as a JSON object, so any
    recorded round can be replayed.
    """

    match: MatchRecord
    number: int
    seats: tuple[RoundSeat, ...]
    winners: tuple[int, ...]
    transcript: Mapping[str, Any]
    finished_at: datetime = field(default_factory=now)

    def check(self) -> None:
        """Raise :class:`StoreError` if the store cannot keep this round as it is."""
        self.match.check()
        where = f"match {self.match.key} round {self.number}"
        if not self.winners or any(not 0 <= w < len(self.seats) for w in self.winners):
            raise StoreError(f"{where}: winners {list(self.winners)} are not seats of the "
                             f"round's {len(self.seats)}")
        if any(not 0 <= s.player < len(self.match.seats) for s in self.seats):
            raise StoreError(f"{where}: a seat names a player the match does not have")

    def career_credit(self) -> list[int]:
        """Career points this round gives each seat (see :func:`career_credit`)."""
        return career_credit([s.hand_points for s in self.seats], self.winners)


def career_credit(hand_points: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Career points of a round for each seat: what the winner scores in the classic app.

    Every seat among the round's winners (the player who went out, and their team-mates)
    is credited the total of the cards left in the hands of the other seats; every other
    seat is credited nothing. The credit is the same whatever the match mode, so
    penalties of a ``lowest`` match never raise anyone's level.
    """
    won = set(winners)
    pot = sum(points for seat, points in enumerate(hand_points) if seat not in won)
    return [pot if seat in won else 0 for seat in range(len(hand_points))]
