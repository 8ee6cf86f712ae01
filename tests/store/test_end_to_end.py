"""Two matches of ``uno-attack play``, then ``stats``, ``history`` and ``history --export``
as a user runs them (real subprocesses), and the export passes ``replay``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.store.helpers import cli
from tests.tui.helpers import run, settle
from tests.tui.test_rounds import play_round_by_keys
from uno_attack.cli.play import build_app


def test_two_matches_of_play_show_in_stats_and_history_and_replay(tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    app = build_app(["--quick", "--humans", "Ann", "--players", "2", "--pace", "instant",
                     "--bot-delay", "0",
                     "--seed", "3", "--target", "60", "--no-animation", "--db", str(db),
                     "--save", str(tmp_path / "game.json")])
    # the next match gets a fixed seed too (play draws one at random): 3 rounds, then 1
    assert app.new_game is not None
    app.new_game.next_seed = lambda: 26
    rounds: list[int] = []  # rounds of each match, as the scoreboards showed them

    async def body(pilot: Pilot[Any]) -> None:
        while len(rounds) < 2:
            board = await play_round_by_keys(pilot, app)
            if board.board.winner is not None:
                rounds.append(board.board.round_no)
                await pilot.press("enter" if len(rounds) < 2 else "q")
            else:
                await pilot.press("enter")
            await settle(pilot, lambda: True)

    run(body, app)

    board = cli("stats", "--db", str(db))
    assert board.returncode == 0, board.stderr
    assert board.stdout.splitlines()[1].split()[:2] == ["1", "Ann"]

    stats = cli("stats", "ann", "--json", "--db", str(db))
    assert stats.returncode == 0, stats.stderr
    record = json.loads(stats.stdout)
    assert record["rounds"]["played"] == sum(rounds)
    assert record["matches"]["played"] == 2
    assert record["level"]["number"] >= 1
    text = cli("stats", "Ann", "--db", str(db)).stdout
    assert text.startswith(f"Ann: level {record['level']['number']}, {record['level']['title']}")

    history = cli("history", "Ann", "--json", "--db", str(db))
    assert history.returncode == 0, history.stderr
    matches = json.loads(history.stdout)
    assert [len(m["rounds"]) for m in matches] == rounds
    assert max(rounds) > 1
    assert all(m["finished_at"] is not None for m in matches)
    listing = cli("history", "--db", str(db)).stdout
    assert listing.count("match ") == 2

    last = matches[-1]["rounds"][-1]["id"]
    out = tmp_path / "round.json"
    export = cli("history", "--export", str(last), str(out), "--db", str(db))
    assert export.returncode == 0, export.stderr
    check = cli("replay", str(out))
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.strip().endswith("1 passed, 0 failed")
