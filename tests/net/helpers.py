"""Hosts on ephemeral ports of 127.0.0.1, clients that play, and a clock tests turn by hand."""

from __future__ import annotations

import asyncio
import io
import json
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from uno_attack.flow import FlowSettings
from uno_attack.launcher import Launcher
from uno_attack.net.client import Message, TableClient
from uno_attack.net.host import Host, HostConfig
from uno_attack.options import Options
from uno_attack.rules import ATTACK
from uno_attack.session import GameConfig
from uno_attack.transcript import Transcript


class ManualClock:
    """A clock that moves only when the test says so (:meth:`advance`)."""

    def __init__(self) -> None:
        self.t = 1000.0
        self._tick = asyncio.Event()

    def now(self) -> float:
        return self.t

    async def wait(self, event: asyncio.Event, deadline: float | None) -> None:
        while not event.is_set() and (deadline is None or self.t < deadline):
            tick = self._tick
            waiters = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(tick.wait())]
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    def advance(self, seconds: float) -> None:
        self.t += seconds
        self._tick.set()
        self._tick = asyncio.Event()


#: A launcher whose presses fire nothing: ``fixed:0`` is refused (a policy that never fires
#: would press for ever on a Wild Hit-Fire), so a script of empty presses, longer than any
#: test needs.
NOTHING_FIRES = "scripted:" + ",".join(["0"] * 300)


def host_config(tmp_path: Path, *, humans: Sequence[str] = ("Ann", "Bob"), players: int = 3,
                launcher: str = "sim", seed: int = 1, options: Sequence[str] = (),
                bots: str = "basic", resume: bool = False, **flow: Any) -> HostConfig:
    pacing = {"bot_delay": 0.0, "catch_delay": 0.0, "round_pause": 3600.0, **flow}
    game = GameConfig(humans=list(humans), players=players, bots=bots, launcher=launcher,
                      seed=seed, options=Options.from_assignments(options),
                      save=tmp_path / "host.json")
    return HostConfig(game=game, flow=FlowSettings(**pacing), port=0, resume=resume)


@asynccontextmanager
async def running_host(config: HostConfig, *, launcher: Launcher | None = None,
                       clock: Any = None) -> AsyncIterator[Host]:
    """A host listening on an ephemeral port of 127.0.0.1, stopped (cleanly) at the end."""
    host = Host(config, out=io.StringIO(), launcher=launcher, clock=clock)
    host.urls = dict(await host.start())  # type: ignore[attr-defined]
    try:
        yield host
    finally:
        await host.stop()


def deal(host: Host, hands: Sequence[str], starter: str, *, dealer: int,
         launcher: str = "") -> None:
    """Play this deal next (cards as space-separated codes; the rest of the deck follows
    the launcher's first cards in canonical order)."""
    record = Transcript(name="a test's deal", players=len(hands), dealer=dealer,
                        hands=[ATTACK.parse_cards(h.split()) for h in hands],
                        starter=ATTACK.parse_cards([starter]),
                        launcher=ATTACK.parse_cards(launcher.split()))
    host.flow.use_deal(record)


def url_of(host: Host, name: str | None) -> str:
    """The join URL of a person by name, or the watch URL for ``None``."""
    urls: dict[str, str] = host.urls  # type: ignore[attr-defined]
    if name is None:
        return urls["watch"]
    return next(url for label, url in urls.items() if label.startswith(f"join {name} "))


def log_of(host: Host) -> str:
    return host.out.getvalue()  # type: ignore[attr-defined, no-any-return]


async def connect(url: str) -> TableClient:
    """A client past its ``hello`` and first ``view``."""
    client = TableClient(url)
    await client.connect()
    await next_of(client, "view")
    return client


async def next_of(client: TableClient, kind: str, timeout: float = 10.0) -> Message:
    """The next message of this type (messages of other types are passed over)."""
    async def find() -> Message:
        while True:
            message = await client.receive()
            if message["type"] == kind:
                return message

    return await asyncio.wait_for(find(), timeout)


async def until(client: TableClient, check: Callable[[Message], bool],
                timeout: float = 10.0) -> Message:
    """The first view (the latest one, or a coming one) for which ``check`` holds."""
    if client.view is not None and check(client.view):
        return client.view

    async def find() -> Message:
        while True:
            message = await client.receive()
            if message["type"] == "view" and check(message):
                return message

    return await asyncio.wait_for(find(), timeout)


def round_over(view: Message) -> bool:
    return view["turn"] is None and view["winner"] is not None


def state_key(view: Message) -> str:
    """What a view says about the game, without its ``seq``: equal views, equal keys."""
    return json.dumps({k: v for k, v in view.items() if k not in ("seq", "deadline",
                                                                  "next_round_in")},
                      sort_keys=True)


class Pacer:
    """Keeps a client within 20 messages in any one second (NETWORK.md's limit)."""

    def __init__(self, limit: int = 18) -> None:
        self.limit = limit
        self.sent: deque[float] = deque()

    async def wait(self) -> None:
        now = time.monotonic()
        while self.sent and self.sent[0] <= now - 1.0:
            self.sent.popleft()
        if len(self.sent) >= self.limit:
            await asyncio.sleep(self.sent[0] + 1.0 - now)  # the protocol's rate, not a race
        self.sent.append(time.monotonic())


def choose(view: Message, rng: random.Random) -> str:
    """A legal action: mostly the first play, calling UNO with a second-last card."""
    legal = view["legal"]
    for must in ("uno", "choose red"):
        if must in legal:
            return must
    catches = [a for a in legal if a.startswith("catch")]
    if catches:
        return catches[0]
    plays = [a for a in legal if a.startswith("play")]
    if plays and rng.random() < 0.85:
        action = plays[0]
        return f"{action} uno" if len(view["hand"]) == 2 else action
    return rng.choice(legal)


async def play_round(client: TableClient, *, seed: int = 0,
                     on_act: Callable[[str], None] | None = None) -> Message:
    """Act on every view that asks this seat for something, until the round is over."""
    rng = random.Random(seed)
    pacer = Pacer()
    acted = ""
    while True:
        view = client.view
        if view is not None and round_over(view):
            return view
        if view is not None and view.get("legal") and (
                view["turn"] == client.hello["seat"] or "uno" in view["legal"]):  # type: ignore[index]
            key = state_key(view)
            if key != acted:
                acted = key
                await pacer.wait()
                action = choose(view, rng)
                if on_act is not None:
                    on_act(action)
                await client.act(action)
        message = await asyncio.wait_for(client.receive(), 20)
        if message["type"] == "error":
            acted = ""  # the table moved on before the act arrived: choose again
