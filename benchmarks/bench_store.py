"""The player store where a player could feel it: recording a finished round.

A round's write is :meth:`PlayerStore.record_round` of a real four-player round of bots
(its transcript, seats and card counts), into a file that already holds ``PREFILL``
rounds of the same person, as after a few years of play: the write reads her career
points before and after, to tell a level-up. The peer it is compared with is what the
game already pays after every action: saving the journal of the same round
(``Transcript.save``, atomic, with fsync). Also timed: ``stats NAME``'s query on that file.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from benchmarks import Row
from uno_attack.bots import make_bot
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.store import PlayerStore, RoundRecord
from uno_attack.store.from_table import match_record, round_record
from uno_attack.store.records import now
from uno_attack.table import Table
from uno_attack.transcript import Transcript

PREFILL = 3000
WRITES = 500
SAMPLE_ROUNDS = 20


def sample_rounds() -> list[tuple[RoundRecord, Transcript]]:
    """Finished rounds of real bot play, with their transcripts as the journal holds them."""
    names, kinds = ["Ann", "Ada", "Ben", "Cleo"], ["human", "basic", "basic", "random"]
    out = []
    for seed in range(SAMPLE_ROUNDS):
        match = Match(names, options=Options(match="single"), seed=seed)
        game, transcript = match.deal_round()
        bots = [make_bot("basic", n, seed=f"{seed}:{n}") for n in names]
        table = Table(game, bots, open_launcher("sim", seed=seed), transcript,
                      reload_rng=match.reload_rng())
        result = table.play_round()
        seats = list(match.active)
        match.end_round(result)
        record = match_record(match, kinds, key=f"sample-{seed}", started_at=now())
        out.append((round_record(table, result, record, number=1, players=seats), transcript))
    return out


def _as_new_round(record: RoundRecord, n: int) -> RoundRecord:
    """The same round as round ``n % 100 + 1`` of match ``n // 100``."""
    match = replace(record.match, key=f"bench-{n // 100}", finished_at=None, winners=(),
                    scores=())
    return replace(record, match=match, number=n % 100 + 1)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run() -> list[Row]:
    samples = sample_rounds()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with PlayerStore.open(folder / "players.db") as store:
            for n in range(PREFILL):
                store.record_round(_as_new_round(samples[n % len(samples)][0], n))
            writes, saves, reads = [], [], []
            for n in range(PREFILL, PREFILL + WRITES):
                record, transcript = samples[n % len(samples)]
                started = time.perf_counter()
                transcript.save(folder / "game.json")
                saves.append(time.perf_counter() - started)
                started = time.perf_counter()
                store.record_round(_as_new_round(record, n))
                writes.append(time.perf_counter() - started)
            for _ in range(20):
                started = time.perf_counter()
                store.player_stats("Ann")
                reads.append(time.perf_counter() - started)
            size = sum(len(s[0].transcript["steps"]) for s in samples) / len(samples)
    ms = 1000
    p50, p99 = statistics.median(writes), percentile(writes, 0.99)
    return [
        Row("store: round write, p99", f"{ms * p99:.1f} ms",
            f"p50 {ms * p50:.1f} ms, max {ms * max(writes):.1f} ms; {WRITES} rounds "
            f"(~{size:.0f} steps each) into a file of {PREFILL}; must stay under 20 ms"),
        Row("store: round write / journal save", f"{p50 / statistics.median(saves):.2f}x",
            f"medians; the journal save (fsync) is {ms * statistics.median(saves):.1f} ms, "
            "paid after every action"),
        Row("store: stats of one player", f"{ms * statistics.median(reads):.0f} ms",
            f"median of 20 over her {PREFILL + WRITES} rounds"),
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
