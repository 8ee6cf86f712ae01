"""Programs (a game and a host) open and write one player store at once: nothing is lost
and no "database is locked" escapes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from uno_attack.store import PlayerStore

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 150


def start_writer(db: Path, tag: str, rounds: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.store.writer", str(db), tag,
                             str(rounds)], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def say(writer: subprocess.Popen[str], line: str) -> None:
    assert writer.stdin is not None
    writer.stdin.write(line + "\n")
    writer.stdin.flush()


def wait_for(writer: subprocess.Popen[str], word: str) -> None:
    assert writer.stdout is not None
    assert writer.stderr is not None
    if writer.stdout.readline().strip() != word:
        writer.wait(timeout=30)
        raise AssertionError(f"a writer did not say {word!r}: {writer.stderr.read()}")


def open_together(writers: list[subprocess.Popen[str]]) -> None:
    """Let every writer open its store at the same moment, and wait until all have."""
    for writer in writers:
        wait_for(writer, "started")
    for writer in writers:
        say(writer, "open")
    for writer in writers:
        wait_for(writer, "ready")


def test_programs_creating_one_new_file_at_once_all_open_it(tmp_path: Path) -> None:
    """A new file is switched to WAL and given its schema by whichever program comes
    first; the others wait for it instead of failing as busy or as "another program's
    database". Four programs on each of four new files make that race every time."""
    writers = [start_writer(tmp_path / f"players-{n}.db", f"w{k}", 0)
               for n in range(4) for k in range(4)]
    try:
        open_together(writers)
        results = [writer.communicate("go\n", timeout=60) for writer in writers]
    finally:
        for writer in writers:
            writer.kill()
    for writer, (_, err) in zip(writers, results, strict=True):
        assert writer.returncode == 0, err
    for n in range(4):
        with PlayerStore.open(tmp_path / f"players-{n}.db", create=False) as store:
            assert store.matches() == []


def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    writers = [start_writer(db, tag, ROUNDS) for tag in ("game", "host")]
    try:
        open_together(writers)  # both have the file open before either writes
        for writer in writers:
            say(writer, "go")
        with PlayerStore.open(db) as reader:  # a reader meanwhile is never blocked either
            reader.leaderboard()
        results = [writer.communicate(timeout=100) for writer in writers]
    finally:
        for writer in writers:
            writer.kill()
    for writer, (_, err) in zip(writers, results, strict=True):
        assert writer.returncode == 0, err
        assert "locked" not in err
    spans = [tuple(map(float, out.split())) for out, _ in results]
    (a_began, a_ended), (b_began, b_ended) = spans
    assert a_began < b_ended, f"the writers did not overlap: {spans}"
    assert b_began < a_ended, f"the writers did not overlap: {spans}"
    with PlayerStore.open(db) as store:
        matches = store.matches()
        ann = store.player_stats("Ann")
    assert len(matches) == 2 * ROUNDS // 10
    assert sum(len(m.rounds) for m in matches) == 2 * ROUNDS
    assert ann.rounds.played == 2 * ROUNDS
    assert ann.rounds.won == 2 * len(range(0, ROUNDS, 3))
