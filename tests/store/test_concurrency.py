"""Two processes (a game and a host) write to one player store at once: nothing is lost
and no "database is locked" escapes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from uno_attack.store import PlayerStore

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 150


def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    writers = [subprocess.Popen([sys.executable, "-m", "tests.store.writer", str(db), tag,
                                 str(ROUNDS)], cwd=ROOT, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for tag in ("game", "host")]
    try:
        for writer in writers:  # both have the file open before either writes
            assert writer.stdout is not None
            assert writer.stdout.readline().strip() == "ready"
        for writer in writers:
            assert writer.stdin is not None
            writer.stdin.write("go\n")
            writer.stdin.flush()
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
