"""A damaged player store costs the recording, never the game: one damaged byte of the
schema or one damaged cell is one line naming what is damaged, for ``stats`` and
``history`` (exit 2) and for the game, which plays on unrecorded."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.store.helpers import START, a_match, a_round, bot_match, cli
from tests.store.test_cli import one_error_line
from tests.store.test_recording import bots_only, play_match
from uno_attack.options import Options
from uno_attack.store import PlayerStore, StoreError
from uno_attack.store.from_table import match_record


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished match of real rounds: Ann and Bob with a bot."""
    path = tmp_path_factory.mktemp("store") / "players.db"
    kinds = ["human", "human", "basic"]
    with PlayerStore.open(path) as store:
        played = list(bot_match(["Ann", "Bob", "Ada"], kinds, seed=3, key="m1",
                                options=Options(target=60)))
        for _, record in played:
            store.record_round(record)
        store.record_match(match_record(played[-1][0], kinds, key="m1", started_at=START))
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")  # one file, to copy and to damage
    return path


def copy(good: Path, tmp_path: Path) -> Path:
    path = tmp_path / "players.db"
    shutil.copy(good, path)
    return path


def every_report(store: PlayerStore) -> None:
    store.leaderboard()
    store.matches()
    for name in ("Ann", "Bob"):
        store.player_stats(name)
        store.matches(name)
        store.levels([name])
    store.round_transcript(1)


class TestOneByteOfTheSchema:
    """Python's sqlite3 cannot decode SQLite's message quoting a damaged name of the
    schema: it raised UnicodeDecodeError, which nothing took for a store's error."""

    @pytest.fixture
    def damaged(self, good: Path, tmp_path: Path) -> Path:
        path = copy(good, tmp_path)
        data = bytearray(path.read_bytes())
        at = data.index(b"sqlite_autoindex_match_seats_1") + len("sqlite_autoindex")
        data[at] = 0xFF
        path.write_bytes(bytes(data))
        return path

    def test_opening_it_is_a_store_error(self, damaged: Path) -> None:
        with pytest.raises(StoreError, match="damaged or not a player database"):
            PlayerStore.open(damaged)

    def test_the_game_plays_on_unrecorded(self, damaged: Path) -> None:
        data = damaged.read_bytes()
        session = bots_only(damaged, humans=("Ann",))
        assert session.recorder.problem is not None
        assert "damaged or not a player database" in session.recorder.problem
        assert play_match(session) >= 1
        assert damaged.read_bytes() == data

    @pytest.mark.parametrize("command", ["stats", "history"])
    def test_stats_and_history_say_so_in_one_line(self, damaged: Path, command: str) -> None:
        one_error_line(cli(command, "--db", str(damaged)), str(damaged),
                       "damaged or not a player database")

    def test_a_negative_schema_version(self, good: Path, tmp_path: Path) -> None:
        path = copy(good, tmp_path)
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA user_version = -16777214")
        with pytest.raises(StoreError, match=r"damaged .*schema version -16777214"):
            PlayerStore.open(path)


DEEP = "[" * 5000 + "]" * 5000

#: (table, column, value, what the error names): damage no program of ours writes.
DAMAGE = [
    ("rounds", "transcript", "{", "round 1: transcript: not valid JSON"),
    ("rounds", "transcript", DEEP, "round 1: transcript: not valid JSON"),
    ("rounds", "transcript", "[1]", "round 1: transcript holds"),
    ("round_seats", "round_points", "abc", "round 1 (match 1): round_points holds 'abc'"),
    ("round_seats", "career_points", "abc", "round 1: career_points holds 'abc'"),
    ("round_seats", "won", 7, "round 1"),
    ("rounds", "finished_at", "2025-13-01T00:00:00+00:00", "round 1 (match 1): finished_at"),
    ("matches", "started_at", "yesterday", "match 1: started_at holds 'yesterday'"),
    ("matches", "options", "{bad", "match 1: options: not valid JSON"),
    ("matches", "options", "1.5", "match 1: options holds '1.5', not a JSON object"),
    ("players", "name", b"\xff\xfe", "player 1: name holds b'\\xff\\xfe', not text"),
    ("match_seats", "name", b"Ann", "match 1, seat 0: name"),
    ("players", "created_at", "2025-06-01T12:00:00", "player 1: created_at"),
]


def damage(path: Path, table: str, column: str, value: object, *, row: int = 1) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (value, row))


class TestDamagedCells:
    @pytest.mark.parametrize(("table", "column", "value", "named"), DAMAGE,
                             ids=[f"{t}.{c}={str(v)[:12]}" for t, c, v, _ in DAMAGE])
    def test_a_report_that_reads_it_names_it(self, good: Path, tmp_path: Path, table: str,
                                             column: str, value: object, named: str) -> None:
        path = copy(good, tmp_path)
        damage(path, table, column, value)
        with PlayerStore.open(path) as store, pytest.raises(StoreError) as caught:
            every_report(store)
        assert str(caught.value).startswith(f"{path}: damaged: ")
        assert named in str(caught.value)

    def test_undecodable_text_is_named_too(self, good: Path, tmp_path: Path) -> None:
        path = copy(good, tmp_path)
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE matches SET rules = CAST(? AS TEXT)", (b"att\xffck",))
        with PlayerStore.open(path) as store, pytest.raises(
                StoreError, match=r"match 1: rules holds 'att\\udcffck', not UTF-8 text"):
            store.matches()

    @pytest.mark.parametrize("args", [["history"], ["history", "--export", "1", "-"],
                                      ["stats", "Ann"], ["stats", "--json"]])
    def test_stats_and_history_say_it_in_one_line(self, good: Path, tmp_path: Path,
                                                  args: list[str]) -> None:
        path = copy(good, tmp_path)
        damage(path, "round_seats", "career_points", "abc")
        damage(path, "round_seats", "round_points", "abc")
        damage(path, "rounds", "transcript", DEEP)
        one_error_line(cli(*args, "--db", str(path)), f"{path}: damaged: round 1")

    def test_the_game_plays_on_and_says_why_it_did_not_record(
            self, good: Path, tmp_path: Path) -> None:
        path = copy(good, tmp_path)
        damage(path, "round_seats", "career_points", "abc")
        session = bots_only(path, humans=("Ann",))
        assert play_match(session) >= 1
        session.close()
        assert session.recorder.problem is not None
        assert "damaged: round 1: career_points holds 'abc'" in session.recorder.problem


CELLS = [("players", c) for c in ("name", "created_at")] + [
    ("matches", c) for c in ("id", "started_at", "finished_at", "rules", "options", "source")
] + [("match_seats", c) for c in ("match_id", "seat", "name", "kind", "player_id", "score",
                                  "won")] + [
    ("rounds", c) for c in ("match_id", "number", "finished_at", "transcript")
] + [("round_seats", c) for c in ("round_id", "seat", "match_seat", "round_points", "score",
                                  "won", "career_points")] + [
    ("round_cards", c) for c in ("round_id", "seat", "card", "played", "gained")]

VALUES = st.one_of(st.none(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False),
                   st.text(max_size=30), st.binary(max_size=10),
                   st.sampled_from(["{", DEEP, "[]", '{"a": [1]}', "2025-13-01T00:00:00Z",
                                    "0001-01-01T00:00:00+00:00", "abc"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(cell=st.sampled_from(CELLS), value=VALUES, row=st.integers(1, 3))
def test_any_damaged_cell_is_a_store_error_or_nothing(tmp_path: Path, cell: tuple[str, str],
                                                      value: object, row: int) -> None:
    """Whatever one cell holds, every report works or raises a StoreError (no other
    exception, which would end a game or print a traceback)."""
    path = tmp_path / "players.db"
    if not path.exists():
        with PlayerStore.open(path) as store:
            match = a_match("Ann", "Bob", "Ada:basic", key="m")
            for n in (1, 2, 3):
                store.record_round(a_round(match, n, winner=n % 2, hands=[0, 3, 5],
                                           played={0: {"R5": 1}}, gained={1: {"B2": 2}}))
        shutil.copy(path, tmp_path / "good.db")
    shutil.copy(tmp_path / "good.db", path)
    try:
        damage(path, *cell, value, row=row)
    except sqlite3.Error:  # a value a constraint refuses is no damage
        return
    with PlayerStore.open(path) as store, contextlib.suppress(StoreError):
        every_report(store)
