"""``uno-attack stats`` and ``history`` as a user runs them: real subprocesses, real files;
every mistake is one line on stderr and a non-zero exit."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.store.helpers import START, a_match, a_round, bot_match, cli, read_only
from uno_attack.options import Options
from uno_attack.store import PlayerStore
from uno_attack.store.from_table import match_record

V1_FILE = Path(__file__).parent / "data" / "players-v1.db"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two matches of real bot rounds: Ann and Bob with a bot, then Ann and a bot."""
    path = tmp_path_factory.mktemp("store") / "players.db"
    with PlayerStore.open(path) as store:
        for key, names, kinds in (("m1", ["Ann", "Bob", "Ada"], ["human", "human", "basic"]),
                                  ("m2", ["Ann", "Ben"], ["human", "random"])):
            played = list(bot_match(names, kinds, seed=len(key + names[1]), key=key,
                                    options=Options(target=100)))
            for _, record in played:
                store.record_round(record)
            match = played[-1][0]
            store.record_match(match_record(match, kinds, key=key, started_at=START))
    return path


def one_error_line(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


class TestStats:
    def test_the_leaderboard(self, db: Path) -> None:
        result = cli("stats", "--db", str(db))
        assert result.returncode == 0, result.stderr
        with PlayerStore.open(db) as store:
            board = store.leaderboard()
        lines = result.stdout.splitlines()
        assert lines[0].split() == ["rank", "player", "level", "points", "rounds", "won",
                                    "matches", "won"]
        assert [line.split()[1] for line in lines[1:]] == [row.name for row in board]
        for line, row in zip(lines[1:], board, strict=True):
            assert str(row.level) in line
            assert f" {row.career_points} " in line

    def test_the_leaderboard_as_json(self, db: Path) -> None:
        result = cli("stats", "--json", "--db", str(db))
        rows = json.loads(result.stdout)
        assert {r["name"] for r in rows} == {"Ann", "Bob"}
        assert [r["rank"] for r in rows] == [1, 2]
        assert rows[0]["career_points"] >= rows[1]["career_points"]

    def test_a_players_page(self, db: Path) -> None:
        result = cli("stats", "ann", "--db", str(db))
        assert result.returncode == 0, result.stderr
        with PlayerStore.open(db) as store:
            stats = store.player_stats("Ann")
        text = result.stdout
        assert text.startswith(f"Ann: {stats.level.describe()}\n")
        assert f"career points    {stats.career_points}\n" in text
        assert f"matches won      {stats.matches.won}/2 " in text
        assert "2 players" in text
        assert "3 players" in text
        assert stats.favourite_card is not None
        assert f"({stats.favourite_card.card}), played {stats.favourite_card.times} time" in text

    def test_a_players_page_as_json(self, db: Path) -> None:
        data = json.loads(cli("stats", "Bob", "--json", "--db", str(db)).stdout)
        assert data["name"] == "Bob"
        assert data["matches"]["played"] == 1
        assert set(data["by_players"]) == {"3"}
        assert data["level"]["points_to_next"] > 0

    def test_nobody_yet(self, tmp_path: Path) -> None:
        PlayerStore.open(tmp_path / "players.db").close()
        result = cli("stats", "--db", str(tmp_path / "players.db"))
        assert result.returncode == 0
        assert result.stdout.startswith("Nobody has played yet")

    def test_the_default_file_is_under_xdg_data_home(self, db: Path, tmp_path: Path) -> None:
        home = tmp_path / "data"
        (home / "uno-attack").mkdir(parents=True)
        (home / "uno-attack" / "players.db").write_bytes(db.read_bytes())
        result = cli("stats", "Ann", env=dict(os.environ, XDG_DATA_HOME=str(home)))
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("Ann: level")

    def test_an_unknown_name(self, db: Path) -> None:
        one_error_line(cli("stats", "Zed", "--db", str(db)), "uno-attack stats: error: ",
                       "no player named 'Zed'")

    def test_a_missing_file_is_not_created(self, tmp_path: Path) -> None:
        path = tmp_path / "typo.db"
        one_error_line(cli("stats", "--db", str(path)), str(path), "no player database here")
        assert not path.exists()

    def test_a_damaged_file(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        path.write_bytes(b"\x00garbage" * 999)
        one_error_line(cli("stats", "--db", str(path)), "damaged or not a player database")

    def test_a_file_from_a_newer_program(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        PlayerStore.open(path).close()
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA user_version = 99")
        one_error_line(cli("stats", "--db", str(path)), "newer uno-attack")

    def test_a_read_only_file_of_an_old_version_says_why_it_cannot_be_read(
            self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        path.write_bytes(V1_FILE.read_bytes())
        with read_only(path):
            one_error_line(cli("stats", "--db", str(path)), "read-only, and of schema "
                           "version 1", "upgraded to version 2, which needs write access")
        assert path.read_bytes() == V1_FILE.read_bytes()

    @pytest.mark.parametrize("journal", ["wal", "delete"])
    def test_a_read_only_file_still_reads(self, db: Path, tmp_path: Path, journal: str) -> None:
        path = tmp_path / "players.db"
        path.write_bytes(db.read_bytes())
        with sqlite3.connect(path) as conn:
            assert conn.execute(f"PRAGMA journal_mode = {journal}").fetchone()[0] == journal
        with read_only(path):
            result = cli("stats", "Ann", "--db", str(path))
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("Ann: level ")


class TestHistory:
    def test_every_match_and_round_with_its_id(self, db: Path) -> None:
        result = cli("history", "--db", str(db))
        assert result.returncode == 0, result.stderr
        with PlayerStore.open(db) as store:
            matches = store.matches()
        for match in matches:
            assert f"match {match.id} · " in result.stdout
            for r in match.rounds:
                assert any(line.split()[:2] == [str(r.number), str(r.id)]
                           for line in result.stdout.splitlines())
        assert result.stdout.count("won by ") == 2

    def test_one_persons_matches_as_json(self, db: Path) -> None:
        bob = json.loads(cli("history", "bob", "--json", "--db", str(db)).stdout)
        assert [m["id"] for m in bob] == [1]
        assert [p["name"] for p in bob[0]["players"]] == ["Ann", "Bob", "Ada"]
        assert [p["kind"] for p in bob[0]["players"]] == ["human", "human", "basic"]
        assert bob[0]["rules"] == "attack"
        assert bob[0]["options"] == {"target": 100}

    def test_an_unfinished_match(self, tmp_path: Path) -> None:
        path = tmp_path / "players.db"
        with PlayerStore.open(path) as store:
            store.record_round(a_round(a_match("Ann", "Ada:basic"), 1, winner=0, hands=[0, 4]))
        result = cli("history", "--db", str(path))
        assert "· unfinished" in result.stdout
        assert "Ann +4 (4), Ada +0 (0)" in result.stdout

    def test_every_exported_round_replays(self, db: Path, tmp_path: Path) -> None:
        with PlayerStore.open(db) as store:
            ids = [r.id for m in store.matches() for r in m.rounds]
        files = []
        for round_id in ids:
            out = tmp_path / f"round-{round_id}.json"
            result = cli("history", "--export", str(round_id), str(out), "--db", str(db))
            assert result.returncode == 0, result.stderr
            assert result.stdout == f"round {round_id} written to {out}\n"
            files.append(str(out))
        check = cli("replay", *files)
        assert check.returncode == 0, check.stdout + check.stderr
        assert check.stdout.strip().endswith(f"{len(ids)} passed, 0 failed")

    def test_an_export_checks_the_recorded_outcome(self, db: Path, tmp_path: Path) -> None:
        result = cli("history", "--export", "1", "-", "--db", str(db))
        data = json.loads(result.stdout)
        assert "winner" in data["steps"][-1]["expect"]
        data["steps"][-1]["expect"]["round_points"][0] += 1  # a record that lies fails
        out = tmp_path / "lie.json"
        out.write_text(json.dumps(data))
        assert cli("replay", str(out)).returncode == 1

    def test_an_unknown_round(self, db: Path, tmp_path: Path) -> None:
        one_error_line(cli("history", "--export", "999", str(tmp_path / "x.json"), "--db",
                           str(db)), "no round with id 999")
        assert not (tmp_path / "x.json").exists()

    def test_a_round_id_that_is_not_a_number(self, db: Path, tmp_path: Path) -> None:
        one_error_line(cli("history", "--export", "R1", str(tmp_path / "x.json"), "--db",
                           str(db)), "'R1'", "a round id is a number")

    def test_a_file_that_cannot_be_written(self, db: Path, tmp_path: Path) -> None:
        target = tmp_path / "no-such-folder" / "x.json"
        one_error_line(cli("history", "--export", "1", str(target), "--db", str(db)),
                       f"cannot write {target}")

    def test_export_with_a_name_is_a_usage_error(self, db: Path) -> None:
        result = cli("history", "Ann", "--export", "1", "x.json", "--db", str(db))
        assert result.returncode == 2
        assert "--export takes a round id and a file" in result.stderr

    def test_an_unknown_name(self, db: Path) -> None:
        one_error_line(cli("history", "Zed", "--db", str(db)), "no player named 'Zed'")


class TestArguments:
    """Every mistake on the command line is one line, as with every other command."""

    @pytest.mark.parametrize("round_id", ["²", "99999999999999999999999", "٣", "-"])
    def test_a_round_id_in_ascii_digits_only(self, db: Path, round_id: str) -> None:
        one_error_line(cli("history", "--export", round_id, "-", "--db", str(db)),
                       f"--export {round_id!r}: a round id is a number in ASCII digits")

    @pytest.mark.parametrize("command", ["stats", "history"])
    def test_a_name_that_is_not_text(self, db: Path, command: str) -> None:
        words = [sys.executable, "-m", "uno_attack", command, os.fsdecode(b"\xff\xfe")]
        result = subprocess.run([*words, "--db", str(db)], capture_output=True, text=True,
                                timeout=60)
        one_error_line(result, "argument NAME: '\\udcff\\udcfe': a name must be printable")

    @pytest.mark.parametrize("command", ["stats", "history", "replay"])
    def test_an_unknown_option(self, command: str) -> None:
        one_error_line(cli(command, "x.json", "--bogus"), "unrecognized arguments: --bogus")
