"""What the player store answers: plain values for ``stats``, ``history`` and the screens.

Each has ``to_json()`` giving the object ``--json`` prints (times as ISO 8601 text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from uno_attack.store.levels import Level


@dataclass(frozen=True)
class Tally:
    """Games played and won (rounds, or matches)."""

    played: int = 0
    won: int = 0

    @property
    def rate(self) -> float | None:
        """The share won, 0–1; ``None`` when nothing was played."""
        return self.won / self.played if self.played else None

    def plus(self, won: bool) -> Tally:
        return Tally(self.played + 1, self.won + int(won))

    def __str__(self) -> str:
        rate = "" if self.rate is None else f" ({100 * self.rate:.0f} %)"
        return f"{self.won} won of {self.played}{rate}"

    def to_json(self) -> dict[str, Any]:
        return {"played": self.played, "won": self.won, "rate": self.rate}


@dataclass(frozen=True)
class RoundsAndMatches:
    """A player's rounds and (finished) matches, for one rule set or one table size."""

    rounds: Tally = Tally()
    matches: Tally = Tally()

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds.to_json(), "matches": self.matches.to_json()}


@dataclass(frozen=True)
class CardCount:
    """A card code and how many times it counted."""

    card: str
    times: int

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "times": self.times}


@dataclass(frozen=True)
class LevelUp:
    """A person went up one level or more with a round."""

    name: str
    before: Level
    after: Level

    def __str__(self) -> str:
        verb = "are" if self.name == "You" else "is"  # play's default name for its person
        return f"{self.name} {verb} now level {self.after.number}, {self.after.title}!"


@dataclass(frozen=True)
class RoundSaved:
    """What recording a round did: its id, whether it was new, and who went up a level.

    A round recorded before (the same match and number, as after a resumed crash) is not
    written twice: ``new`` is false and nobody goes up.
    """

    round_id: int
    new: bool
    level_ups: tuple[LevelUp, ...] = ()


@dataclass(frozen=True)
class PlayerStats:
    """A person's record over every round and match in the store.

    ``matches`` counts finished matches; ``unfinished`` those left before their end.
    ``longest_streak`` is the most rounds won one after another, in the order they were
    played, across matches. ``favourite_card`` is the card code played most often;
    ``luckiest_card`` the card code the launcher fired into their hand most often (in
    classic rules, drawn most often); ties go to the code first in alphabetical order.
    """

    name: str
    since: datetime
    rounds: Tally
    matches: Tally
    unfinished: int
    by_rules: Mapping[str, RoundsAndMatches]
    by_players: Mapping[int, RoundsAndMatches]
    career_points: int
    level: Level
    longest_streak: int
    favourite_card: CardCount | None
    luckiest_card: CardCount | None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "since": self.since.isoformat(),
            "rounds": self.rounds.to_json(),
            "matches": self.matches.to_json(),
            "unfinished_matches": self.unfinished,
            "by_rules": {k: v.to_json() for k, v in self.by_rules.items()},
            "by_players": {str(k): v.to_json() for k, v in self.by_players.items()},
            "career_points": self.career_points,
            "level": level_json(self.level),
            "longest_winning_streak": self.longest_streak,
            "favourite_card": _card_json(self.favourite_card),
            "luckiest_card": _card_json(self.luckiest_card),
        }


@dataclass(frozen=True)
class LeaderboardRow:
    """One person on the leaderboard, ranked by career points."""

    rank: int
    name: str
    career_points: int
    level: Level
    rounds: Tally
    matches: Tally

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "career_points": self.career_points,
                "level": level_json(self.level), "rounds": self.rounds.to_json(),
                "matches": self.matches.to_json()}


@dataclass(frozen=True)
class SeatSummary:
    """A player of a past match: name, kind (``human`` or the bot's), final score, won."""

    name: str
    kind: str
    score: int | None
    won: bool

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "score": self.score, "won": self.won}


@dataclass(frozen=True)
class RoundSummary:
    """A past round: its id (for ``history --export``), number, winners and points."""

    id: int
    number: int
    finished_at: datetime
    names: tuple[str, ...]
    winners: tuple[str, ...]
    round_points: tuple[int, ...]
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "number": self.number,
                "finished_at": self.finished_at.isoformat(), "players": list(self.names),
                "winners": list(self.winners), "round_points": list(self.round_points),
                "scores": list(self.scores)}


@dataclass(frozen=True)
class MatchSummary:
    """A past match with its rounds; ``finished_at`` is ``None`` for one left unfinished."""

    id: int
    started_at: datetime
    finished_at: datetime | None
    rules: str
    options: Mapping[str, Any]
    source: str
    seats: tuple[SeatSummary, ...]
    rounds: tuple[RoundSummary, ...] = field(default=())

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if s.won)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
            "rules": self.rules, "options": dict(self.options), "source": self.source,
            "players": [s.to_json() for s in self.seats], "winners": list(self.winners),
            "rounds": [r.to_json() for r in self.rounds],
        }


def level_json(level: Level) -> dict[str, Any]:
    return {"number": level.number, "title": level.title, "points_to_next": level.to_next}


def _card_json(count: CardCount | None) -> dict[str, Any] | None:
    return None if count is None else count.to_json()
