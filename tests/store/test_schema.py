"""The database file: created, upgraded from an old version kept here, refused when it is
not ours or too new — all on real SQLite files."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.store.helpers import a_match, a_round
from uno_attack.replay import replay
from uno_attack.store import SCHEMA_VERSION, PlayerStore, StoreError, schema
from uno_attack.store.schema import APPLICATION_ID, MIGRATIONS
from uno_attack.transcript import from_dict

V1_FILE = Path(__file__).parent / "data" / "players-v1.db"


def pragma(path: Path, name: str) -> object:
    with sqlite3.connect(path) as db:
        return db.execute(f"PRAGMA {name}").fetchone()[0]


class TestCreation:
    def test_a_new_file_gets_the_whole_schema_its_version_and_wal(self, tmp_path: Path) -> None:
        path = tmp_path / "deep" / "er" / "players.db"
        PlayerStore.open(path).close()
        assert pragma(path, "user_version") == SCHEMA_VERSION == len(MIGRATIONS)
        assert pragma(path, "application_id") == APPLICATION_ID
        assert pragma(path, "journal_mode") == "wal"
        with sqlite3.connect(path) as db:
            tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master "
                                               "WHERE type = 'table'")}
            columns = {c[1] for c in db.execute("PRAGMA table_info(matches)")}
        assert tables == {"players", "matches", "match_seats", "rounds", "round_seats",
                          "round_cards"}
        assert "source" in columns

    def test_opening_again_changes_nothing(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        with PlayerStore.open(path) as store:
            store.record_round(a_round(a_match("Ann", "Ada:basic"), 1, winner=0, hands=[0, 9]))
        with PlayerStore.open(path) as store:
            assert store.player_stats("Ann").career_points == 9
        assert pragma(path, "user_version") == SCHEMA_VERSION

    def test_a_missing_file_is_refused_when_it_should_exist(self, tmp_path: Path) -> None:
        with pytest.raises(StoreError, match="no player database here"):
            PlayerStore.open(tmp_path / "nothing.db", create=False)
        assert not (tmp_path / "nothing.db").exists()


class TestUpgrade:
    def test_the_kept_file_is_version_1(self) -> None:
        assert pragma(V1_FILE, "user_version") == 1
        with sqlite3.connect(V1_FILE) as db:
            columns = {c[1] for c in db.execute("PRAGMA table_info(matches)")}
        assert "source" not in columns

    def test_a_version_1_file_is_upgraded_with_every_row_kept(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        shutil.copy(V1_FILE, path)
        with sqlite3.connect(path) as db:  # what the old file holds, read the old way
            before = {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                      for t in ("players", "match_seats", "rounds", "round_seats",
                                "round_cards")}
            vera_points = db.execute(
                "SELECT sum(rs.career_points) FROM round_seats rs JOIN rounds r ON "
                "r.id = rs.round_id JOIN match_seats ms ON ms.match_id = r.match_id AND "
                "ms.seat = rs.match_seat WHERE ms.player_id = 1").fetchone()[0]
            vera_rounds = db.execute(
                "SELECT count(*), sum(rs.won) FROM round_seats rs JOIN rounds r ON "
                "r.id = rs.round_id JOIN match_seats ms ON ms.match_id = r.match_id AND "
                "ms.seat = rs.match_seat WHERE ms.player_id = 1").fetchone()
        assert before["rounds"], "the old file has rounds to keep"

        with PlayerStore.open(path) as store:
            stats = store.player_stats("vera")
            history = store.matches()
            old_round = store.round_transcript(before["rounds"][0][0])
        assert pragma(path, "user_version") == SCHEMA_VERSION
        with sqlite3.connect(path) as db:
            after = {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                     for t in before}
            sources = {s for (s,) in db.execute("SELECT source FROM matches")}
            indexes = {n for (n,) in db.execute("SELECT name FROM sqlite_master "
                                                "WHERE type = 'index'")}
        assert after == before
        assert sources == {"play"}  # version 1 knew only 'play'
        assert "match_seats_by_player" in indexes
        assert stats.career_points == vera_points > 0
        assert (stats.rounds.played, stats.rounds.won) == vera_rounds
        assert (stats.matches.played, stats.matches.won, stats.unfinished) == (1, 1, 1)
        assert [m.finished_at is not None for m in history] == [True, False]
        assert replay(from_dict(old_round)).passed

    def test_an_upgraded_file_takes_new_rounds(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        shutil.copy(V1_FILE, path)
        with PlayerStore.open(path) as store:
            before = store.player_stats("Vera").career_points
            store.record_round(a_round(a_match("Vera", "Zed:basic"), 1, winner=0, hands=[0, 7]))
            assert store.player_stats("Vera").career_points == before + 7

    def test_a_failing_step_leaves_the_file_at_its_last_whole_version(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        path = tmp_path / "players.db"
        shutil.copy(V1_FILE, path)
        broken = (*MIGRATIONS, ("CREATE TABLE extra (x)", "THIS IS NOT SQL"))
        monkeypatch.setattr(schema, "MIGRATIONS", broken)
        with pytest.raises(StoreError, match=r'players\.db: near "THIS": syntax error$'):
            schema.connect(path)
        assert pragma(path, "user_version") == len(MIGRATIONS)  # version 2 was whole
        with sqlite3.connect(path) as db:
            assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'extra'"
                                  ).fetchall()
            assert db.execute("SELECT count(*) FROM rounds").fetchone()[0] > 0

    def test_a_file_from_a_newer_program_is_refused_untouched(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        PlayerStore.open(path).close()
        with sqlite3.connect(path) as db:
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        data = path.read_bytes()
        with pytest.raises(StoreError, match=rf"newer uno-attack \(schema version "
                                             rf"{SCHEMA_VERSION + 1}; this one reads up to "
                                             rf"{SCHEMA_VERSION}\)"):
            PlayerStore.open(path)
        assert path.read_bytes() == data


class TestNotOurs:
    def test_another_programs_database_is_refused_untouched(self, tmp_path: Path) -> None:
        path = tmp_path / "other.db"
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE notes (text)")
        data = path.read_bytes()
        with pytest.raises(StoreError, match="another program"):
            PlayerStore.open(path)
        assert path.read_bytes() == data
        assert pragma(path, "journal_mode") == "delete"

    def test_a_file_that_is_not_sqlite(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        path.write_bytes(b"these are my notes, not a database\n" * 200)
        with pytest.raises(StoreError, match=r"players\.db: damaged or not a player database"):
            PlayerStore.open(path)

    def test_a_damaged_database(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        with PlayerStore.open(path) as store:
            for n in range(1, 30):
                store.record_round(a_round(a_match("Ann", "Ada:basic"), n, winner=0,
                                           hands=[0, n]))
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA journal_mode = DELETE")
        data = bytearray(path.read_bytes())
        data[4096:] = b"\xff" * (len(data) - 4096)  # every page after the first
        path.write_bytes(bytes(data))
        with pytest.raises(StoreError, match="damaged or not a player database"):
            PlayerStore.open(path).leaderboard()

    def test_a_folder(self, tmp_path: Path) -> None:
        with pytest.raises(StoreError, match="is a directory"):
            PlayerStore.open(tmp_path)
