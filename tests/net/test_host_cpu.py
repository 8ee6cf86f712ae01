"""The host's own work first, for a board that gives it a tenth of a core: nothing it can
do before anyone plays is left to land on a move (the bots' fork server, ready and at the
lowest priority, once the URLs are printed), the collector's full passes do not walk
again, mid-round, what the host built to start, and a change's views wait for the journal
once for all the connections, the people's first."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.net.helpers import connect, host_config, running_host, until, url_of
from tests.net.test_host_command import host_process
from uno_attack.net.server import Connection

FORK_SERVER = "from multiprocessing.forkserver import main"


def children(pid: int) -> dict[int, str]:
    """The command line of each process whose parent is ``pid`` (from /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # ended meanwhile
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            found[int(entry.name)] = command
    return found


def test_a_host_whose_bots_search_has_its_fork_server_ready_and_niced_before_its_urls(
        tmp_path: Path) -> None:
    with host_process(tmp_path, "--humans", "Ann", "--players", "3", "--bots", "smart",
                      "--no-qr") as (proc, lines):
        assert lines[-1].startswith("watch: ")
        servers = [pid for pid, command in children(proc.pid).items()
                   if FORK_SERVER in command]
        assert len(servers) == 1, children(proc.pid)
        assert os.getpriority(os.PRIO_PROCESS, servers[0]) == 19
        assert os.getpriority(os.PRIO_PROCESS, proc.pid) < 19  # the table itself is not


def test_a_host_of_basic_bots_starts_no_fork_server(tmp_path: Path) -> None:
    with host_process(tmp_path, "--humans", "Ann", "--players", "3", "--bots", "basic",
                      "--no-qr") as (proc, _):
        assert not [c for c in children(proc.pid).values() if FORK_SERVER in c]


async def test_what_the_host_built_to_start_is_out_of_the_collectors_sight_until_it_stops(
        tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        tracked = gc.get_objects()
        assert not any(o is host.session for o in tracked)
        assert not any(o is host.server for o in tracked)
        assert gc.get_freeze_count() > 10_000
        del tracked
    assert any(o is host.session for o in gc.get_objects())


async def test_a_change_waits_for_the_journal_once_for_every_connection_people_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_host(host_config(tmp_path, humans=("Ann", "Bob"))) as host:
        waits: list[Callable[[], None]] = []
        saves = host.server.after_saves

        def counted(then: Callable[[], None]) -> None:
            waits.append(then)
            saves(then)

        host.server.after_saves = counted  # before anyone connects: each connection too
        watchers = [await connect(url_of(host, None)) for _ in range(5)]
        ann = await connect(url_of(host, "Ann"))
        await until(watchers[0], lambda view: view["seq"] == 2)  # the watchers saw Ann come
        delivered: list[int | None] = []
        deliver = Connection.deliver

        def recording(conn: Connection, item: str | tuple[int, str]) -> None:
            delivered.append(conn.player)
            deliver(conn, item)

        monkeypatch.setattr(Connection, "deliver", recording)
        waits.clear()
        host.server.changed([])
        assert len(waits) == 1
        assert delivered == [0, None, None, None, None, None]
        for client, conn in zip([*watchers, ann], host.server.connections, strict=True):
            assert (await until(client, lambda v, c=conn: v["seq"] == c.seq))["type"] == "view"
        for client in (*watchers, ann):
            await client.close()
