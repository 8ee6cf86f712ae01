"""Records for store tests: real bot rounds, or small hand-made ones."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from uno_attack.bots import make_bot
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.store import MatchRecord, RoundRecord, RoundSeat, Seat
from uno_attack.store.from_table import match_record, round_record
from uno_attack.table import Table

START = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def a_match(*seats: str, key: str | None = None, rules: str = "attack",
            options: dict[str, object] | None = None) -> MatchRecord:
    """A match of these players: ``"Ann"`` is a person, ``"Ada:basic"`` a bot."""
    return MatchRecord(key=key or uuid.uuid4().hex,
                       seats=tuple(Seat(*s.split(":")) for s in seats), rules=rules,
                       options=options or {}, started_at=START)


def a_round(match: MatchRecord, number: int, *, winner: int, hands: Sequence[int],
            players: Sequence[int] | None = None, played: dict[int, dict[str, int]] | None = None,
            gained: dict[int, dict[str, int]] | None = None,
            minute: int | None = None, transcript: dict[str, Any] | None = None
            ) -> RoundRecord:
    """A hand-made round: ``hands`` are the points left in each seat's hand."""
    players = list(players if players is not None else range(len(hands)))
    pot = sum(h for i, h in enumerate(hands) if i != winner)
    seats = tuple(RoundSeat(player=p, round_points=pot if i == winner else 0,
                            score=pot if i == winner else 0, hand_points=hands[i],
                            played=(played or {}).get(i, {}), gained=(gained or {}).get(i, {}))
                  for i, p in enumerate(players))
    at = START + timedelta(minutes=number if minute is None else minute)
    return RoundRecord(match=match, number=number, seats=seats, winners=(winner,),
                       transcript=transcript or {"name": f"round {number}"}, finished_at=at)


def bot_match(names: Sequence[str], kinds: Sequence[str], *, seed: int, key: str,
              options: Options | None = None) -> Iterator[tuple[Match, RoundRecord]]:
    """A whole match of real bot rounds (people played by bots), round by round."""
    match = Match(list(names), options=options or Options(), seed=seed)
    launcher = open_launcher("sim", seed=seed)
    while not match.over:
        game, transcript = match.deal_round()
        players = [make_bot("basic", match.names[p], seed=f"{seed}:{match.round_no}:{p}")
                   for p in match.active]
        table = Table(game, players, launcher, transcript, reload_rng=match.reload_rng())
        result = table.play_round()
        seats = list(match.active)
        match.end_round(result)
        record = match_record(match, kinds, key=key, started_at=START)
        yield match, round_record(table, result, record, number=match.round_no, players=seats)


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``uno-attack ARGS`` as a real subprocess."""
    return subprocess.run([sys.executable, "-m", "uno_attack", *args], capture_output=True,
                          text=True, timeout=120, env=env)


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make ``path`` a file the OS refuses to write, also for root (who ignores modes)."""
    if os.geteuid() == 0:
        chattr = shutil.which("chattr")
        assert chattr is not None, "root needs chattr to make a file read-only"
        subprocess.run([chattr, "+i", str(path)], check=True)
        try:
            yield
        finally:
            subprocess.run([chattr, "-i", str(path)], check=True)
    else:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
