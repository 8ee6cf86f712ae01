"""How ``players-v1.db`` was made: a player database of schema version 1, as the first
version of the store wrote it, kept so the tests upgrade a real old file.

Run once (``python tests/store/data/make_players_v1.py``); the file is committed and the
tests never rebuild it. Two matches of real bot rounds: one finished (Vera, two bots, to
200 points), one left unfinished after a round (Vera and Walt against a bot).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

from uno_attack.bots import make_bot
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.store.from_table import round_record
from uno_attack.store.records import MatchRecord, Seat
from uno_attack.store.schema import connect
from uno_attack.table import Table

HERE = Path(__file__).parent


def main() -> None:
    path = HERE / "players-v1.db"
    path.unlink(missing_ok=True)
    db = connect(path, upgrade_to=1)
    db.execute("BEGIN")
    db.execute("INSERT INTO players (id, name, created_at) VALUES "
               "(1, 'Vera', '2025-03-01T18:00:00+00:00'), "
               "(2, 'Walt', '2025-03-02T18:00:00+00:00')")
    play(db, 1, "4d1c0a6e", [("Vera", "human"), ("Ada", "basic"), ("Ben", "random")],
         Options(target=200), rounds=None, day="2025-03-01")
    play(db, 2, "9b77f3c2", [("Vera", "human"), ("Walt", "human"), ("Cleo", "basic")],
         Options(), rounds=1, day="2025-03-02")
    db.execute("COMMIT")
    db.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    db.close()


def play(db: sqlite3.Connection, match_id: int, key: str, seats: list[tuple[str, str]],
         options: Options, *, rounds: int | None, day: str) -> None:
    names = [n for n, _ in seats]
    profile = {"Vera": 1, "Walt": 2}
    match = Match(names, options=options, seed=match_id)
    db.execute("INSERT INTO matches (id, key, started_at, rules, options) VALUES "
               "(?, ?, ?, 'attack', ?)",
               (match_id, key, f"{day}T18:00:00+00:00", json.dumps(options.to_dict())))
    for seat, (name, kind) in enumerate(seats):
        db.execute("INSERT INTO match_seats (match_id, seat, name, kind, player_id) "
                   "VALUES (?, ?, ?, ?, ?)", (match_id, seat, name, kind, profile.get(name)))
    launcher = open_launcher("sim", seed=match_id)
    record = MatchRecord(key, tuple(Seat(n, k) for n, k in seats), "attack")
    while not match.over and (rounds is None or match.round_no < rounds):
        game, transcript = match.deal_round()
        players = [make_bot("basic", names[p], seed=f"{match_id}:{match.round_no}:{p}")
                   for p in match.active]
        table = Table(game, players, launcher, transcript, reload_rng=match.reload_rng())
        result = table.play_round()
        seat_players = list(match.active)
        match.end_round(result)
        done = round_record(table, result, record, number=match.round_no,
                            players=seat_players)
        cur = db.execute(
            "INSERT INTO rounds (match_id, number, finished_at, transcript) VALUES "
            "(?, ?, ?, ?)", (match_id, match.round_no,
                             f"{day}T18:{10 * match.round_no:02d}:00+00:00",
                             json.dumps(done.transcript)))
        credit = done.career_credit()
        for i, s in enumerate(done.seats):
            db.execute("INSERT INTO round_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (cur.lastrowid, i, s.player, s.round_points, s.score, s.hand_points,
                        int(i in done.winners), credit[i]))
            for card in sorted(set(s.played) | set(s.gained)):
                db.execute("INSERT INTO round_cards VALUES (?, ?, ?, ?, ?)",
                           (cur.lastrowid, i, card, s.played.get(card, 0),
                            s.gained.get(card, 0)))
    if match.over:
        winner = match.winner
        winners = list(winner) if isinstance(winner, tuple) else [winner]
        db.execute("UPDATE matches SET finished_at = ?, winners = ? WHERE id = ?",
                   (f"{day}T19:00:00+00:00", json.dumps(winners), match_id))
        for seat, score in enumerate(match.scores):
            db.execute("UPDATE match_seats SET score = ?, won = ? WHERE match_id = ? AND "
                       "seat = ?", (score, int(seat in winners), match_id, seat))


if __name__ == "__main__":
    sys.exit(main())
