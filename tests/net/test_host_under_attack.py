"""A real ``uno-attack host`` subprocess under attack while two honest seats play a round:
150 watchers that never read, 150 slow-loris HTTP connections, 150 half-open ones that
never send a byte, and 2 clients sending oversized frames through the launcher's bursts.
The honest seats see every ``seq`` with no long gap, the attackers are cut off, and the
host's memory stays bounded and is given back.

The host's idle limits are shortened (the heartbeat to 2 s, an idle HTTP request to 2 s)
so the attack is over in seconds; the limits themselves are the product's.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import aiohttp

from tests.net.helpers import play_round
from uno_attack.net.client import TableClient

WATCHERS, LORIS, HALF_OPEN, FLOODERS = 150, 150, 150, 2
HEARTBEAT, HTTP_IDLE = 2.0, 2.0
MB = 1 << 20

HOST_SCRIPT = """
import asyncio, dataclasses, sys
from uno_attack.cli.host import config_from_args
from uno_attack.net.host import serve
config = config_from_args(sys.argv[1:])
config = dataclasses.replace(config, heartbeat={heartbeat}, http_idle={http_idle})
sys.exit(asyncio.run(serve(config, stdin=None)))
"""


@contextmanager
def attacked_host(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, str]]]:
    script = HOST_SCRIPT.format(heartbeat=HEARTBEAT, http_idle=HTTP_IDLE)
    proc = subprocess.Popen(
        [sys.executable, "-c", script, "--port", "0", "--no-qr", "--no-record",
         "--save", str(tmp_path / "host.json"), "--humans", "Ann,Bob", "--players", "2",
         "--seed", "3", "--bot-delay", "0", "--launcher", "gpio:emulated,scale=4,jams=0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        urls: dict[str, str] = {}
        while "watch" not in urls:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            assert line, f"host ended early: {proc.stderr.read()}"  # type: ignore[union-attr]
            label, _, url = line.strip().partition(": ")
            urls[label.split()[1] if label.startswith("join ") else label] = url
        yield proc, urls
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def rss(pid: int) -> int:
    """The process's resident memory in bytes, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def sockets(pid: int) -> int:
    """How many sockets the process holds open."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with suppress(OSError):
            count += os.readlink(fd).startswith("socket:")
    return count


def raw_connection(port: int, request: bytes) -> socket.socket:
    """A TCP connection with a small receive buffer that sends ``request`` (if any) and
    never reads."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    if request:
        s.sendall(request)
    s.setblocking(False)
    return s


def upgrade(url: str) -> bytes:
    port, token = url.split(":")[2].split("/")[0], url.split("token=")[1]
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET /ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()


async def trickle(loris: list[socket.socket], stop: asyncio.Event) -> None:
    """Slow-loris: one more byte of an unfinished header every half second."""
    while not stop.is_set():
        for s in loris:
            with suppress(OSError):
                s.send(b"a")
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)


async def flood(url: str, stop: asyncio.Event) -> int:
    """Oversized messages of 1 MiB (each gets an error, which it reads), 50 a second,
    until ``stop``; returns how many were sent. The host keeps the connection (NETWORK.md,
    settled point 3)."""
    sent = 0
    ws_url = url.replace("http://", "ws://").replace("/?", "/ws?")
    async with aiohttp.ClientSession() as session, session.ws_connect(ws_url) as ws:
        async def read() -> None:
            async for _ in ws:
                pass

        reading = asyncio.create_task(read())
        big = "x" * (1 << 20)
        while not stop.is_set():
            await ws.send_str(big)
            sent += 1
            with suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.02)
        assert not ws.closed, "the host closed a connection that only sent big messages"
        reading.cancel()
    return sent


async def test_a_round_goes_on_while_the_host_is_attacked(tmp_path: Path) -> None:
    with attacked_host(tmp_path) as (proc, urls):
        port = int(urls["watch"].split(":")[2].split("/")[0])
        pid = proc.pid
        baseline_sockets, start_rss = sockets(pid), rss(pid)
        peak = [start_rss]
        stop_sampling = asyncio.Event()

        async def sample() -> None:
            while not stop_sampling.is_set():
                peak[0] = max(peak[0], rss(pid))
                with suppress(TimeoutError):
                    await asyncio.wait_for(stop_sampling.wait(), 0.05)

        sampler = asyncio.create_task(sample())
        ann, bob = TableClient(urls["Ann"]), TableClient(urls["Bob"])
        await ann.connect()
        await bob.connect()
        arrivals: dict[int, list[float]] = {0: [], 1: []}  # when each seat got a view
        for seat, client in enumerate((ann, bob)):
            receive = client.receive

            async def timed(receive=receive, seat=seat) -> dict[str, object]:  # type: ignore[no-untyped-def]
                message = await receive()
                if message["type"] == "view":
                    arrivals[seat].append(time.monotonic())
                return message  # type: ignore[no-any-return]

            client.receive = timed  # type: ignore[method-assign]

        attack_start = time.monotonic()
        watchers = [raw_connection(port, upgrade(urls["watch"])) for _ in range(WATCHERS)]
        loris = [raw_connection(port, b"GET /?token=x HTTP/1.1\r\nHost: x\r\nX-a: ")
                 for _ in range(LORIS)]
        half_open = [raw_connection(port, b"") for _ in range(HALF_OPEN)]
        stop_attack = asyncio.Event()
        trickling = asyncio.create_task(trickle(loris, stop_attack))
        floods = [asyncio.create_task(flood(urls["watch"], stop_attack))
                  for _ in range(FLOODERS)]


        async def cut_off() -> float:
            """When the host holds only the honest and flooding connections again: the raw
            attackers cut off by the host itself (ping unanswered, request idle)."""
            while sockets(pid) > baseline_sockets + 2 + FLOODERS:
                assert time.monotonic() - attack_start < 60, f"{sockets(pid)} sockets open"
                await asyncio.sleep(0.1)
            return time.monotonic() - attack_start

        closing = asyncio.create_task(cut_off())
        finals = await asyncio.wait_for(
            asyncio.gather(play_round(ann, seed=1), play_round(bob, seed=2)), 60)
        closed_after = await closing
        stop_attack.set()
        flooded = sum(await asyncio.gather(*floods))
        await trickling
        for s in watchers + loris + half_open:
            s.close()
        given_back = time.monotonic() + 10  # the host lets go of what the attack made it hold
        while (after_rss := rss(pid)) - start_rss >= 100 * MB and time.monotonic() < given_back:
            await asyncio.sleep(0.1)
        stop_sampling.set()
        await sampler
        for client in (ann, bob):
            await client.close()

    assert finals[0]["hands"] == finals[1]["hands"]  # both saw the same end, and every seq
    assert finals[0]["seq"] == ann.seq  # (the client refuses a gap)
    assert finals[1]["seq"] == bob.seq
    assert flooded > 50
    gap = max(b - a for times in arrivals.values() for a, b in itertools.pairwise(times))
    print(f"\nattack: start RSS {start_rss / MB:.0f} MB, peak {peak[0] / MB:.0f} MB, after "
          f"{after_rss / MB:.0f} MB; attackers cut off after {closed_after:.1f} s; longest "
          f"gap between views {gap:.2f} s; {flooded} oversized messages")
    assert closed_after < 60
    assert peak[0] - start_rss < 300 * MB
    assert after_rss - start_rss < 100 * MB
    assert gap < 1.0
