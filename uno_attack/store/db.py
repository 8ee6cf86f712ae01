"""The player store: profiles, matches and rounds in one SQLite file.

Every write is one transaction (``BEGIN IMMEDIATE``: it waits for another process's write
instead of failing halfway); every report reads one consistent snapshot. One
:class:`PlayerStore` may be used from several threads, one call at a time.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from uno_attack.store.levels import Level, level_for
from uno_attack.store.records import MatchRecord, RoundRecord, StoreError
from uno_attack.store.reports import (
    CardCount,
    LeaderboardRow,
    LevelUp,
    MatchSummary,
    PlayerStats,
    RoundsAndMatches,
    RoundSaved,
    RoundSummary,
    SeatSummary,
    Tally,
)
from uno_attack.store.schema import connect, explain


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/uno-attack/players.db`` (``~/.local/share`` when unset)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "uno-attack" / "players.db"


# a person's round seats (rs) with their rounds (r): reports about one person start here
_PLAYER_ROUNDS = """
    FROM round_seats rs
    JOIN rounds r ON r.id = rs.round_id
    JOIN match_seats ms ON ms.match_id = r.match_id AND ms.seat = rs.match_seat
    WHERE ms.player_id = ?"""


class PlayerStore:
    """An open player database. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, create: bool = True
             ) -> PlayerStore:
        """Open (creating or upgrading) the database at ``path``, by default
        :func:`default_db_path`; ``create=False`` refuses a missing file."""
        where = Path(path) if path is not None else default_db_path()
        return cls(connect(where, create=create), where)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> PlayerStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions ------------------------------------------------------------------
    @contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._conn.execute(begin)
                try:
                    yield self._conn
                    self._conn.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:
                        self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise explain(exc, self.path) from None

    def _writing(self) -> Any:
        return self._transaction("BEGIN IMMEDIATE")

    def _reading(self) -> Any:
        return self._transaction("BEGIN")

    # -- writing -------------------------------------------------------------------------
    def record_round(self, record: RoundRecord) -> RoundSaved:
        """Keep a finished round (and its match, the first time); say who went up a level.

        A round already recorded (same match key and number) is left as it was.
        """
        record.check()
        transcript = json.dumps(record.transcript, separators=(",", ":"))
        with self._writing() as db:
            match_id, player_ids = self._match_row(db, record.match)
            cur = db.execute(
                "INSERT INTO rounds (match_id, number, finished_at, transcript) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id, number) DO NOTHING",
                (match_id, record.number, _stamp(record.finished_at), transcript))
            if cur.rowcount == 0:
                (round_id,) = db.execute("SELECT id FROM rounds WHERE match_id = ? AND "
                                         "number = ?", (match_id, record.number)).fetchone()
                return RoundSaved(round_id, new=False)
            round_id = cur.lastrowid
            assert round_id is not None
            credit = record.career_credit()
            won = set(record.winners)
            people = {pid: credit[i] for i, s in enumerate(record.seats)
                      if (pid := player_ids[s.player]) is not None}
            before = {pid: _career_points(db, pid) for pid in people}
            db.executemany(
                "INSERT INTO round_seats (round_id, seat, match_seat, round_points, score, "
                "hand_points, won, career_points) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(round_id, i, s.player, s.round_points, s.score, s.hand_points,
                  int(i in won), credit[i]) for i, s in enumerate(record.seats)])
            db.executemany(
                "INSERT INTO round_cards (round_id, seat, card, played, gained) "
                "VALUES (?, ?, ?, ?, ?)",
                [(round_id, i, card, s.played.get(card, 0), s.gained.get(card, 0))
                 for i, s in enumerate(record.seats)
                 for card in sorted(set(s.played) | set(s.gained))])
        names = {player_ids[s.player]: record.match.seats[s.player].name for s in record.seats}
        ups = []
        for pid, points in people.items():
            old, new = level_for(before[pid]), level_for(before[pid] + points)
            if new.number > old.number:
                ups.append(LevelUp(names[pid], old, new))
        return RoundSaved(round_id, new=True, level_ups=tuple(ups))

    def record_match(self, match: MatchRecord) -> int:
        """Keep a match's end (its winners and final scores); returns the match's id."""
        match.check()
        if match.finished_at is None:
            raise StoreError(f"match {match.key}: not over (no finished_at)")
        won = set(match.winners)
        with self._writing() as db:
            match_id, _ = self._match_row(db, match)
            db.execute("UPDATE matches SET finished_at = ?, winners = ? WHERE id = ?",
                       (_stamp(match.finished_at), json.dumps(list(match.winners)), match_id))
            db.executemany("UPDATE match_seats SET score = ?, won = ? WHERE match_id = ? AND "
                           "seat = ?", [(score, int(i in won), match_id, i)
                                        for i, score in enumerate(match.scores)])
        return match_id

    def _match_row(self, db: sqlite3.Connection, match: MatchRecord
                   ) -> tuple[int, list[int | None]]:
        """The match's id and each seat's profile id (``None`` for bots), made if new."""
        row = db.execute("SELECT id FROM matches WHERE key = ?", (match.key,)).fetchone()
        if row is not None:
            match_id = row[0]
            ids = [pid for (pid,) in db.execute(
                "SELECT player_id FROM match_seats WHERE match_id = ? ORDER BY seat",
                (match_id,))]
            if len(ids) != len(match.seats):
                raise StoreError(f"{self.path}: match {match.key} was recorded with "
                                 f"{len(ids)} players, not {len(match.seats)}")
            return match_id, ids
        cur = db.execute(
            "INSERT INTO matches (key, started_at, rules, options, source) "
            "VALUES (?, ?, ?, ?, ?)",
            (match.key, _stamp(match.started_at), match.rules,
             json.dumps(dict(match.options), sort_keys=True), match.source))
        match_id = cur.lastrowid
        assert match_id is not None
        player_ids: list[int | None] = [
            _profile(db, seat.name, since=match.started_at) if seat.is_human else None
            for seat in match.seats]
        db.executemany(
            "INSERT INTO match_seats (match_id, seat, name, kind, player_id) "
            "VALUES (?, ?, ?, ?, ?)",
            [(match_id, i, seat.name, seat.kind, player_ids[i])
             for i, seat in enumerate(match.seats)])
        return match_id, player_ids

    # -- reading ------------------------------------------------------------------------
    def levels(self, names: Iterable[str]) -> dict[str, Level]:
        """The level of each of these people who has a profile (bots and newcomers have none)."""
        out: dict[str, Level] = {}
        with self._reading() as db:
            for name in names:
                pid = _profile_id(db, name)
                if pid is not None:
                    out[name] = level_for(_career_points(db, pid))
        return out

    def player_stats(self, name: str) -> PlayerStats:
        """A person's record; :class:`StoreError` when nobody of that name has played."""
        with self._reading() as db:
            row = db.execute("SELECT id, name, created_at FROM players WHERE name = ?",
                             (name,)).fetchone()
            if row is None:
                raise StoreError(f"{self.path}: no player named {name!r} "
                                 "(bots have no profile)")
            pid, name, since = row
            rounds = db.execute(
                "SELECT (SELECT rules FROM matches WHERE id = r.match_id), rs.won, "
                "rs.career_points, (SELECT count(*) FROM round_seats x WHERE "
                "x.round_id = r.id)" + _PLAYER_ROUNDS + " ORDER BY r.finished_at, r.id",
                (pid,)).fetchall()
            matches = db.execute(
                "SELECT m.rules, ms.won, m.finished_at IS NOT NULL, (SELECT count(*) FROM "
                "match_seats x WHERE x.match_id = m.id) FROM match_seats ms "
                "JOIN matches m ON m.id = ms.match_id WHERE ms.player_id = ?",
                (pid,)).fetchall()
            cards = db.execute(
                "SELECT rc.card, sum(rc.played), sum(rc.gained) FROM round_cards rc "
                "JOIN round_seats rs ON rs.round_id = rc.round_id AND rs.seat = rc.seat "
                "JOIN rounds r ON r.id = rs.round_id "
                "JOIN match_seats ms ON ms.match_id = r.match_id AND ms.seat = rs.match_seat "
                "WHERE ms.player_id = ? GROUP BY rc.card", (pid,)).fetchall()
        round_tally, match_tally, unfinished = Tally(), Tally(), 0
        by_rules: dict[str, list[Tally]] = defaultdict(lambda: [Tally(), Tally()])
        by_players: dict[int, list[Tally]] = defaultdict(lambda: [Tally(), Tally()])
        streak = longest = points = 0
        for rules, won, credit, seats in rounds:
            round_tally = round_tally.plus(won)
            for group in (by_rules[rules], by_players[seats]):
                group[0] = group[0].plus(won)
            points += credit
            streak = streak + 1 if won else 0
            longest = max(longest, streak)
        for rules, won, finished, seats in matches:
            if not finished:
                unfinished += 1
                continue
            match_tally = match_tally.plus(won)
            for group in (by_rules[rules], by_players[seats]):
                group[1] = group[1].plus(won)
        return PlayerStats(
            name=name, since=datetime.fromisoformat(since), rounds=round_tally,
            matches=match_tally, unfinished=unfinished,
            by_rules={k: RoundsAndMatches(*v) for k, v in sorted(by_rules.items())},
            by_players={k: RoundsAndMatches(*v) for k, v in sorted(by_players.items())},
            career_points=points, level=level_for(points), longest_streak=longest,
            favourite_card=_most(cards, 1), luckiest_card=_most(cards, 2))

    def leaderboard(self) -> list[LeaderboardRow]:
        """Every person, most career points first (then by name)."""
        with self._reading() as db:
            people = db.execute(
                "SELECT p.id, p.name, coalesce(sum(rs.career_points), 0) AS points, "
                "count(rs.round_id), coalesce(sum(rs.won), 0) FROM players p "
                "LEFT JOIN match_seats ms ON ms.player_id = p.id "
                "LEFT JOIN rounds r ON r.match_id = ms.match_id "
                "LEFT JOIN round_seats rs ON rs.round_id = r.id AND rs.match_seat = ms.seat "
                "GROUP BY p.id ORDER BY points DESC, p.name").fetchall()
            matches = {pid: Tally(played, won) for pid, played, won in db.execute(
                "SELECT ms.player_id, count(*), sum(ms.won) FROM match_seats ms "
                "JOIN matches m ON m.id = ms.match_id WHERE ms.player_id IS NOT NULL "
                "AND m.finished_at IS NOT NULL GROUP BY ms.player_id")}
        return [LeaderboardRow(rank, name, points, level_for(points), Tally(played, won),
                               matches.get(pid, Tally()))
                for rank, (pid, name, points, played, won) in enumerate(people, start=1)]

    def matches(self, name: str | None = None) -> list[MatchSummary]:
        """Past matches with their rounds, oldest first; with ``name``, only that
        person's (:class:`StoreError` when nobody of that name has played)."""
        with self._reading() as db:
            if name is None:
                ids = [i for (i,) in db.execute("SELECT id FROM matches ORDER BY id")]
            else:
                pid = _profile_id(db, name)
                if pid is None:
                    raise StoreError(f"{self.path}: no player named {name!r} "
                                     "(bots have no profile)")
                ids = [i for (i,) in db.execute(
                    "SELECT match_id FROM match_seats WHERE player_id = ? ORDER BY match_id",
                    (pid,))]
            return [_match_summary(db, i) for i in ids]

    def round_transcript(self, round_id: int) -> dict[str, Any]:
        """A recorded round as a transcript (a JSON object) that ``replay`` accepts."""
        with self._reading() as db:
            row = db.execute("SELECT transcript FROM rounds WHERE id = ?",
                             (round_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no round with id {round_id}")
        data: dict[str, Any] = json.loads(row[0])
        return data


def _stamp(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise StoreError(f"time {moment} has no time zone")
    return moment.isoformat()


def _profile(db: sqlite3.Connection, name: str, *, since: datetime) -> int:
    """The profile of ``name``, made if new: a person plays since their first match."""
    db.execute("INSERT INTO players (name, created_at) VALUES (?, ?) "
               "ON CONFLICT (name) DO NOTHING", (name, _stamp(since)))
    pid = _profile_id(db, name)
    assert pid is not None
    return pid


def _profile_id(db: sqlite3.Connection, name: str) -> int | None:
    row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
    return None if row is None else int(row[0])


def _career_points(db: sqlite3.Connection, pid: int) -> int:
    (points,) = db.execute("SELECT coalesce(sum(rs.career_points), 0)" + _PLAYER_ROUNDS,
                           (pid,)).fetchone()
    return int(points)


def _most(cards: list[tuple[str, int, int]], column: Literal[1, 2]) -> CardCount | None:
    """The card with the highest count in ``column`` (ties: the first code), if any."""
    best = min(cards, key=lambda row: (-row[column], row[0]), default=None)
    if best is None or best[column] == 0:
        return None
    return CardCount(best[0], best[column])


def _match_summary(db: sqlite3.Connection, match_id: int) -> MatchSummary:
    started, finished, rules, options, source = db.execute(
        "SELECT started_at, finished_at, rules, options, source FROM matches WHERE id = ?",
        (match_id,)).fetchone()
    seats = tuple(SeatSummary(name, kind, score, bool(won)) for name, kind, score, won in
                  db.execute("SELECT name, kind, score, won FROM match_seats "
                             "WHERE match_id = ? ORDER BY seat", (match_id,)))
    per_round: Mapping[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    for round_id, match_seat, points, score, won in db.execute(
            "SELECT rs.round_id, rs.match_seat, rs.round_points, rs.score, rs.won "
            "FROM round_seats rs JOIN rounds r ON r.id = rs.round_id "
            "WHERE r.match_id = ? ORDER BY rs.round_id, rs.seat", (match_id,)):
        per_round[round_id].append((match_seat, points, score, won))
    rounds = []
    for round_id, number, at in db.execute(
            "SELECT id, number, finished_at FROM rounds WHERE match_id = ? ORDER BY number",
            (match_id,)):
        rows = per_round[round_id]
        rounds.append(RoundSummary(
            id=round_id, number=number, finished_at=datetime.fromisoformat(at),
            names=tuple(seats[p].name for p, *_ in rows),
            winners=tuple(seats[p].name for p, _, _, won in rows if won),
            round_points=tuple(points for _, points, _, _ in rows),
            scores=tuple(score for _, _, score, _ in rows)))
    return MatchSummary(
        id=match_id, started_at=datetime.fromisoformat(started),
        finished_at=datetime.fromisoformat(finished) if finished else None, rules=rules,
        options=json.loads(options), source=source, seats=seats, rounds=tuple(rounds))
