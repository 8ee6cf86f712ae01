"""A hosted table under load: one ``uno-attack host`` subprocess, 10 seats played by clients
as fast as the protocol lets them (20 messages a second each), 100 watchers.

Reported: actions per second over whole rounds, and the 99th-percentile time from an
``act`` to the first ``view`` it causes on the acting connection. :func:`drive` is also
what the load test runs (with correctness checks and no timing claims).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import Row
from uno_attack.net.client import Message, TableClient

SEATS, WATCHERS = 10, 100
PUBLIC = ("turn", "top", "color", "direction", "hand_sizes", "owed", "scores", "winner", "log",
          "tension", "round", "round_points", "hands")


@dataclass
class LoadResult:
    """What the clients saw: actions made, act-to-view latencies, each one's final view."""

    seconds: float = 0.0
    acts: int = 0
    latencies: list[float] = field(default_factory=list)
    finals: list[dict[str, object]] = field(default_factory=list)
    messages: int = 0

    @property
    def p99(self) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _public(view: Message) -> dict[str, object]:
    return {k: view.get(k) for k in PUBLIC}


async def _seat(client: TableClient, result: LoadResult, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    sent: deque[float] = deque()
    acted, pending, seen = "", None, 0
    while True:
        message = await asyncio.wait_for(client.receive(), 60)
        result.messages += 1
        if message["type"] == "error":
            acted = ""  # another seat was quicker (a catch): choose again
        elif message["type"] == "view":
            if pending is not None:
                result.latencies.append(time.perf_counter() - pending)
                pending = None
            if message["turn"] is None and message["round_points"] is not None:
                seen += 1
                if seen == rounds or message["match_winner"] is not None:
                    result.finals.append(_public(message))
                    return
                continue
        view = client.view
        if view is None or view["turn"] is None:
            continue
        legal = view["legal"]
        key = json.dumps([view[k] for k in ("round", "step", "busy")] + [legal])
        if not legal or key == acted:
            continue
        acted = key
        now = time.perf_counter()
        while sent and sent[0] <= now - 1.0:
            sent.popleft()
        if len(sent) >= 19:  # the host refuses a 21st message within one second
            await asyncio.sleep(sent[0] + 1.0 - now)
        plays = [a for a in legal if a.startswith("play")]
        action = "uno" if "uno" in legal else (plays[0] if plays and rng.random() < 0.9
                                               else rng.choice(legal))
        if action.startswith("play") and len(view["hand"]) == 2:
            action += " uno"
        sent.append(time.perf_counter())
        pending = time.perf_counter()
        result.acts += 1
        await client.act(action)


async def _watch(client: TableClient, result: LoadResult, rounds: int) -> None:
    seen = 0
    async for message in client.messages():
        result.messages += 1
        if message["type"] == "view" and message["turn"] is None \
                and message["round_points"] is not None:
            seen += 1
            if seen == rounds or message["match_winner"] is not None:
                result.finals.append(_public(message))
                return


async def drive(seat_urls: list[str], watch_url: str, *, watchers: int = WATCHERS,
                rounds: int = 1) -> LoadResult:
    """Connect every seat and ``watchers`` watchers, play ``rounds`` whole rounds (fewer if
    the match ends first)."""
    result = LoadResult()
    seats = [TableClient(url) for url in seat_urls]
    watching = [TableClient(watch_url) for _ in range(watchers)]
    for client in watching:
        await client.connect()
    for client in seats:
        await client.connect()
    started = time.perf_counter()
    try:
        await asyncio.gather(*(_seat(c, result, rounds, i) for i, c in enumerate(seats)),
                             *(_watch(c, result, rounds) for c in watching))
    finally:
        result.seconds = time.perf_counter() - started
        for client in (*seats, *watching):
            await client.close()
    return result


def run() -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        names = ",".join(f"P{i}" for i in range(SEATS))
        proc = subprocess.Popen(
            [sys.executable, "-m", "uno_attack", "host", "--port", "0", "--players", str(SEATS),
             "--humans", names, "--bot-delay", "0", "--round-pause", "0", "--seed", "1",
             "--option", "target=100000",
             "--no-qr", "--save", str(Path(tmp) / "host.json")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
            text=True)
        try:
            urls: list[str] = []
            while True:
                line = proc.stdout.readline()  # type: ignore[union-attr]
                match = re.match(r"(join .+|watch): (\S+)$", line.strip())
                if match:
                    urls.append(match[2])
                if line.startswith("watch:") or not line:
                    break
            result = asyncio.run(drive(urls[:-1], urls[-1], rounds=3))
        finally:
            proc.terminate()
            proc.wait(10)
    same = all(f == result.finals[0] for f in result.finals)
    return [
        Row("host: actions per second", f"{result.acts / result.seconds:.0f}",
            f"{SEATS} seats, {WATCHERS} watchers, 3 rounds, {result.acts} acts, "
            f"{result.messages} messages received; every client saw the same end: {same}"),
        Row("host: act → view p99", f"{result.p99 * 1000:.1f} ms",
            f"median {statistics.median(result.latencies) * 1000:.1f} ms over "
            f"{len(result.latencies)} acts (clients and host on this machine)"),
    ]
