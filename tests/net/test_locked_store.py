"""A player store locked by another program holds up no view: its writes wait off the loop."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import time
from pathlib import Path

from tests.net.helpers import connect, deal, host_config, round_over, running_host, url_of
from uno_attack.store import PlayerStore


async def test_a_locked_store_freezes_no_view_and_records_the_round_once_free(
        tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann",), players=2, launcher="fixed:1")
    db = tmp_path / "players.db"
    config.game.db = db
    PlayerStore.open(db).close()  # the store exists; another program then locks it
    other = sqlite3.connect(db, isolation_level=None)
    async with running_host(config) as host:
        ann = await connect(url_of(host, "Ann"))
        other.execute("BEGIN EXCLUSIVE")
        # Ann plays her last card: the round ends and is recorded, in the same change
        deal(host, ["R5", "B1 B2 G3"], "R3", dealer=1)
        arrivals = [time.monotonic()]
        while not round_over(ann.view or {"turn": 0}):
            view = await asyncio.wait_for(ann.receive(), 10)
            arrivals.append(time.monotonic())
            if view["type"] == "view" and view["turn"] == 0 and "play R5" in view["legal"]:
                await ann.act("play R5")
        asked = time.monotonic()
        await ann.act("uno")  # refused, but answered: the loop is free
        await asyncio.wait_for(ann.receive(), 10)
        arrivals += [asked, time.monotonic()]
        gaps = [b - a for a, b in itertools.pairwise(arrivals)]
        assert max(gaps) < 1.0, gaps
        assert host.session.saved is None  # still waiting on the lock
        other.execute("ROLLBACK")
        writes = host.writes
        assert writes is not None
        await asyncio.to_thread(writes.close)  # the queued writes, made once the lock goes
        await ann.close()
    other.close()
    with PlayerStore.open(db) as store:
        assert store.player_stats("Ann").rounds.won == 1
