"""NETWORK.md held against the real ``uno-attack host``, by a client written from the spec.

Nothing of the project is imported: the host runs as a subprocess, as a user starts it,
and is reached only through what it prints (settled point 1), HTTP and WebSockets. The
client (aiohttp's, and a raw one for frames aiohttp will not send) checks every message it
gets against NETWORK.md as it arrives: the ``hello`` and ``view`` fields and their types,
``seq`` without a gap, one-line errors, no hand or ``legal`` for the watch. Each test then
checks the sentence it is named for. Card codes, points and the legal actions of an Attack
turn are restated here from RULES.md, so the host's rule code is checked, not trusted.

Tests that leave the table as they found it (or read whatever state they find) share one
host, ``lobby``; the others start a table of their own.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import math
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

EXE = Path(sys.executable).parent / "uno-attack"
URL_LINE = re.compile(r"^(?:join (?P<name>.+) \(seat (?P<seat>\d+)\)|watch): (?P<url>\S+)$")
View = dict[str, Any]

# -- the game, from RULES.md and VARIANTS.md -----------------------------------------------

COLORS = ("red", "yellow", "green", "blue")
LETTER = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
ATTACK_CARDS = frozenset({f"{c}{s}" for c in "RYGB" for s in "123456789SRHDT"}
                         | {"W", "WA", "WF"})
CLASSIC_CARDS = frozenset({f"{c}{s}" for c in "RYGB" for s in [*"0123456789", "S", "R", "+2"]}
                          | {"W", "W+4"})
WILDS = frozenset({"W", "WA", "WF", "W+4"})
#: RULES.md 9 and VARIANTS.md B: every option a transcript's ``options`` may hold.
OPTIONS = frozenset({
    "rules", "hand_size", "target", "match", "play_after_press", "trade_hands_last",
    "first_dealer", "next_dealer", "stacking", "jump_in", "multi_play", "seven_zero",
    "until_playable", "deflect", "last_card", "uno_penalty", "false_uno_penalty",
    "false_catch_penalty", "sum_out", "teams", "rounds", "forced_play", "wild_draw_four"})


def points(card: str) -> int:
    """A card's points at the end of a round (RULES.md 1, VARIANTS.md A1)."""
    if card in WILDS:
        return 50
    symbol = card[1:]
    if symbol.isdigit():
        return int(symbol)
    return 30 if symbol in ("D", "T") else 20


def attack_legal_on_turn(view: View, players: int) -> set[str]:
    """RULES.md 4 restated: what the seat to act may do in an Attack game with the default
    options, as a transcript's ``legal`` writes it (``uno`` and ``catch N`` left out)."""
    if view["owed"]:
        return {"press"}  # a penalty is never answered (RULES.md 5)
    if view["color"] is None:
        return {f"choose {color}" for color in COLORS}
    hand, top = view["hand"], view["top"]
    legal = {"press"}
    for card in set(hand):
        if card in WILDS:
            legal |= {f"play {card} {color}" for color in COLORS}
        elif LETTER[card[0]] == view["color"] or (top not in WILDS and card[1:] == top[1:]):
            if card[1:] != "T":
                legal.add(f"play {card}")
            elif len(hand) > 1:  # never a Trade Hands as the last card
                legal |= {f"play {card} {seat}" for seat in range(players)
                          if seat != view["turn"]}
    return legal


SYMBOL_NAMES = {"S": "Skip", "R": "Reverse", "H": "Hit 2", "D": "Discard All",
                "T": "Trade Hands", "+2": "Draw Two"}
WILD_NAMES = {"W": "Wild", "WA": "Wild All Hit", "WF": "Wild Hit-Fire", "W+4": "Wild Draw Four"}
CODE_WORD = re.compile(r"(?<![A-Za-z0-9+])(?<!\.md )(W\+4|WA|WF|W|[RYGB](?:\+2|[0-9SRHDT]))"
                       r"(?![A-Za-z0-9+])")  # not a section: "VARIANTS.md B8"
NAMED_CARD = re.compile(r"\b(red|yellow|green|blue) (Hit 2|Discard All|Trade Hands|Draw Two|"
                        r"Skip|Reverse|[0-9])\b|\bWild(?: All Hit| Hit-Fire| Draw Four)?\b")


def cards_named(text: str) -> list[str]:
    """Every card a string names, by its code (``R5``) or in words (``red 5``, ``Wild``)."""
    symbols = {name: symbol for symbol, name in SYMBOL_NAMES.items()}
    wilds = {name: code for code, name in WILD_NAMES.items()}
    found = [m.group(1) for m in CODE_WORD.finditer(text)]
    for m in NAMED_CARD.finditer(text):
        if m.group(1) is None:
            found.append(wilds[m.group(0)])
        else:
            found.append(m.group(1)[0].upper() + symbols.get(m.group(2), m.group(2)))
    return found


def strings_in(value: Any, skip: Callable[[str], bool] = lambda key: False) -> Iterator[str]:
    """Every string in a JSON value, but those under a top-level key ``skip`` accepts."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not skip(key):
                yield key
                yield from strings_in(item)


# -- the host, as a user runs it ----------------------------------------------------------


@dataclass
class Seat:
    name: str
    url: str
    token: str


def token_of(url: str) -> str:
    tokens = parse_qs(urlsplit(url).query).get("token", [])
    assert len(tokens) == 1, url
    return tokens[0]


class HostProcess:
    """``uno-attack host`` on a port it picks, known by the URL lines it prints; its output
    is read all along (a host must never stall on its own log)."""

    def __init__(self, tmp: Path, *args: str, save: Path | None = None) -> None:
        env = {**os.environ, "XDG_STATE_HOME": str(tmp / "state"),
               "XDG_DATA_HOME": str(tmp / "data")}
        self.proc = subprocess.Popen(
            [str(EXE), "host", "--port", "0", "--no-qr",
             "--save", str(save or tmp / "journal.json"), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=env)
        self.out: list[str] = []
        self.err: list[str] = []
        self.stopped = False
        printed = threading.Event()
        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, lines, printed),
                             daemon=True).start()
        if not printed.wait(30) or not any(line.startswith("watch: ") for line in self.out):
            self.kill()
            raise AssertionError(f"the host printed no watch URL: {self.out} {self.err}")
        self.url_lines = [line for line in self.out if URL_LINE.match(line)]
        self.seats: dict[int, Seat] = {}
        for line in self.url_lines:
            m = URL_LINE.match(line)
            assert m is not None
            if m.group("seat") is None:
                self.watch_url = m.group("url")
            else:
                self.seats[int(m.group("seat"))] = Seat(m.group("name"), m.group("url"),
                                                        token_of(m.group("url")))
        self.watch_token = token_of(self.watch_url)
        parts = urlsplit(self.watch_url)
        self.address, self.port = parts.hostname or "", parts.port or 80

    @staticmethod
    def _read(stream: Any, lines: list[str], printed: threading.Event) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))
            if line.startswith("watch: "):
                printed.set()
        printed.set()  # the host ended

    def ws(self, token: str, address: str = "127.0.0.1") -> str:
        return f"ws://{address}:{self.port}/ws?token={token}"

    def http(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait_output(self, what: Callable[[list[str]], bool], timeout: float = 10) -> None:
        end = time.monotonic() + timeout
        while not what(self.out):
            assert time.monotonic() < end, f"the host did not print it: {self.out}"
            time.sleep(0.02)

    def operator(self, line: str) -> None:
        """A line typed at the host's own terminal."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stop(self, signum: int) -> int:
        self.stopped = True
        self.proc.send_signal(signum)
        return self.proc.wait(15)

    def kill(self) -> None:
        self.stopped = True
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(15)


@contextlib.contextmanager
def running(tmp: Path, *args: str, save: Path | None = None) -> Iterator[HostProcess]:
    host = HostProcess(tmp, *args, save=save)
    try:
        yield host
    finally:
        host.kill()


def listening(pid: int) -> list[str]:
    """The local addresses (``ip:port``) the process listens on over TCP, from /proc."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    found = []
    for name in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{name}").read_text().splitlines()[1:]:
            cols = line.split()
            if cols[3] == "0A" and cols[9] in inodes:  # 0A: LISTEN
                address, port = cols[1].split(":")
                if len(address) == 8:
                    address = ".".join(str(int(address[i:i + 2], 16)) for i in (6, 4, 2, 0))
                found.append(f"{address}:{int(port, 16)}")
    return found


def lan_ip() -> str | None:
    """This machine's IPv4 address other than loopback, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # sends nothing: only picks the outgoing address
        except OSError:
            return None
        address = s.getsockname()[0]
    return None if address.startswith("127.") else address


# -- the client, written from NETWORK.md --------------------------------------------------

PUBLIC_KEYS = ("turn", "top", "color", "direction", "hand_sizes", "owed", "scores", "winner",
               "log", "tension")


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def public(view: View) -> View:
    """What a view shows every connection alike."""
    return {key: view[key] for key in PUBLIC_KEYS}


def game(view: View) -> tuple[Any, ...]:
    """The game a view shows: what a refused message must leave as it was."""
    return (view["turn"], view["top"], view["color"], view["direction"], view["hand_sizes"],
            view["owed"], view["scores"], view["winner"], view.get("hand"))


def over(view: View) -> bool:
    return view["turn"] is None and view["winner"] is not None


class Conn:
    """One WebSocket to the host. Each message is checked against NETWORK.md as it comes;
    whatever does not hold goes to :attr:`problems`, which every test asserts empty."""

    def __init__(self, label: str, ws: aiohttp.ClientWebSocketResponse, *,
                 seat: int | None, on_message: Callable[[], None]) -> None:
        self.label = label
        self.ws = ws
        self.seat = seat  # the seat of its token; None for the watch
        self.pace = True  # stay under the rate limit
        self.on_message = on_message
        self.messages: list[dict[str, Any]] = []
        self.arrived: list[float] = []  # the event loop's time each message came
        self.problems: list[str] = []
        self.players = 0
        self.cards = ATTACK_CARDS
        self.seq = 0
        self.close_code: int | None = None
        self.close_frame = False  # whether the host closed with a close frame
        self.closed = asyncio.Event()
        self._new = asyncio.Event()
        self._sent: deque[float] = deque()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                msg = await self.ws.receive()
                if msg.type is aiohttp.WSMsgType.TEXT:
                    self._take(msg.data)
                elif msg.type is aiohttp.WSMsgType.BINARY:
                    self.problem("a binary frame from the host (settled point 2)")
                else:
                    self.close_frame = msg.type is aiohttp.WSMsgType.CLOSE
                    break
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()
            self._arrival()

    def _arrival(self) -> None:
        self._new.set()
        self._new = asyncio.Event()
        self.on_message()

    def _take(self, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            self.problem(f"not a JSON object: {text[:80]!r}")
            return
        kind = message.get("type")
        if not self.messages and kind != "hello":
            self.problem(f"the first message is a {kind!r}, not a hello")
        check = {"hello": self._hello, "view": self._view, "error": self._error}.get(kind)
        if check is None:
            self.problem(f"a message of an unknown type {kind!r}")
        else:
            check(message)
        self.messages.append(message)
        self.arrived.append(asyncio.get_running_loop().time())
        self._arrival()

    def problem(self, text: str) -> None:
        self.problems.append(f"{self.label}: {text}")

    def _hello(self, m: dict[str, Any]) -> None:
        players = m.get("players")
        if not (isinstance(players, list) and players
                and all(isinstance(p, str) for p in players)):
            self.problem(f"hello: players {players!r} is not a list of names")
            return
        self.players = len(players)
        if m.get("seat") != self.seat or (self.seat is not None and not is_int(m["seat"])):
            self.problem(f"hello: seat {m.get('seat')!r}, the token is for {self.seat!r}")
        name = players[self.seat] if self.seat is not None else None
        if m.get("name") != name:
            self.problem(f"hello: name {m.get('name')!r}, not {name!r}")
        options = m.get("options")
        if not (isinstance(options, dict) and set(options) <= OPTIONS):
            self.problem(f"hello: options {options!r} are not a transcript's options")
        elif options.get("rules") == "classic":
            self.cards = CLASSIC_CARDS

    def _view(self, v: View) -> None:
        bad = self.problem
        n = self.players
        if v.get("seq") != self.seq + 1:
            bad(f"view seq {v.get('seq')!r} after {self.seq}: not 1, 2, 3 … without a gap")
        self.seq = v.get("seq") if is_int(v.get("seq")) else self.seq + 1
        missing = [key for key in PUBLIC_KEYS if key not in v]
        if missing:
            bad(f"a view without {missing}")
            return
        turn, owed, sizes = v["turn"], v["owed"], v["hand_sizes"]
        if not (turn is None or (is_int(turn) and 0 <= turn < n)):
            bad(f"turn {turn!r}")
        if v["top"] not in self.cards:
            bad(f"top {v['top']!r} is not a card")
        if v["color"] not in (*COLORS, None):
            bad(f"color {v['color']!r}")
        if v["direction"] not in ("clockwise", "counterclockwise"):
            bad(f"direction {v['direction']!r}")
        if not (isinstance(sizes, list) and len(sizes) == n
                and all(is_int(s) and s >= 0 for s in sizes)):
            bad(f"hand_sizes {sizes!r} for {n} players")
            sizes = None
        if not (isinstance(owed, list) and all(
                isinstance(o, list) and len(o) == 2 and is_int(o[0]) and 0 <= o[0] < n
                and (o[1] == "fire" or (is_int(o[1]) and o[1] > 0)) for o in owed)):
            bad(f"owed {owed!r}")
        elif owed and turn != owed[0][0]:
            bad(f"turn {turn} while seat {owed[0][0]} owes a press (TRANSCRIPTS.md)")
        if not (isinstance(v["scores"], list) and len(v["scores"]) == n
                and all(map(is_int, v["scores"]))):
            bad(f"scores {v['scores']!r}: not a total per seat (settled point 6)")
        if not (v["winner"] is None or (is_int(v["winner"]) and 0 <= v["winner"] < n)):
            bad(f"winner {v['winner']!r}")
        if not (isinstance(v["log"], list) and len(v["log"]) <= 10
                and all(isinstance(line, str) for line in v["log"])):
            bad(f"log {v['log']!r}: not at most 10 strings (settled point 5)")
        if not (is_int(v["tension"]) and v["tension"] >= 0):
            bad(f"tension {v['tension']!r}")
        if "revealed" in v and not (
                isinstance(v["revealed"], dict) and is_int(v["revealed"].get("seat"))
                and isinstance(v["revealed"].get("hand"), list)):
            bad(f"revealed {v['revealed']!r} (settled point 9)")
        if self.seat is None:
            if "hand" in v or "legal" in v or "revealed" in v:
                bad("the watch got a hand, legal or revealed (settled point 7)")
            return
        hand, legal = v.get("hand"), v.get("legal")
        if not (isinstance(hand, list) and all(card in self.cards for card in hand)):
            bad(f"hand {hand!r}")
        elif sizes is not None and len(hand) != sizes[self.seat]:
            bad(f"a hand of {len(hand)} cards, hand_sizes says {sizes[self.seat]}")
        if not (isinstance(legal, list) and all(isinstance(a, str) and a for a in legal)):
            bad(f"legal {legal!r}")
        elif any(a.split()[0].isdigit() or (a != "uno" and a.endswith(" uno")) for a in legal):
            bad(f"legal {legal!r}: not a transcript's (no seat, no uno suffix)")

    def _error(self, m: dict[str, Any]) -> None:
        text = m.get("message")
        if not (isinstance(text, str) and text.strip() and not set(text) & set("\r\n")):
            self.problem(f"error message {text!r} is not one line")

    # what came ----------------------------------------------------------------------
    @property
    def view(self) -> View:
        return next(m for m in reversed(self.messages) if m["type"] == "view")

    def of(self, kind: str, after: int = 0) -> list[dict[str, Any]]:
        return [m for m in self.messages[after:] if m.get("type") == kind]

    def mark(self) -> int:
        """Where the messages are now; :meth:`next` looks only after it."""
        return len(self.messages)

    async def _until(self, test: Callable[[], Any], timeout: float, what: str) -> Any:
        async def wait() -> Any:
            while not (found := test()):
                if self.closed.is_set():
                    raise AssertionError(f"{self.label} closed ({self.close_code}) "
                                         f"while waiting for {what}")
                await self._new.wait()
            return found
        try:
            return await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"{self.label}: no {what} in {timeout} s") from None

    async def next(self, kind: str, after: int, pred: Callable[[View], bool] = lambda m: True,
                   timeout: float = 10) -> View:
        """The first message of ``kind`` after ``after`` for which ``pred`` holds."""
        return await self._until(
            lambda: next((m for m in self.of(kind, after) if pred(m)), None), timeout, kind)

    async def count(self, kind: str, after: int, n: int, timeout: float = 10) -> None:
        """Wait for ``n`` messages of ``kind`` after ``after``."""
        await self._until(lambda: len(self.of(kind, after)) >= n, timeout, f"{n} {kind}s")

    # sending ------------------------------------------------------------------------
    async def _paced(self) -> None:
        """At most 18 messages in any 1.05 s (NETWORK.md allows 20 a second)."""
        loop = asyncio.get_running_loop()
        if self.pace and len(self._sent) == 18:
            await asyncio.sleep(max(0.0, self._sent.popleft() + 1.05 - loop.time()))
        self._sent.append(loop.time())

    async def act(self, action: Any) -> int:
        """Send an act; return the mark before it."""
        return await self.send_str(json.dumps({"type": "act", "action": action}))

    async def send_str(self, text: str) -> int:
        await self._paced()
        mark = self.mark()
        await self.ws.send_str(text)
        return mark

    async def send_bytes(self, data: bytes) -> int:
        await self._paced()
        mark = self.mark()
        await self.ws.send_bytes(data)
        return mark

    async def close(self) -> None:
        await self.ws.close()
        await self.closed.wait()


class Client:
    """The connections of one test, and waiting on all of them."""

    def __init__(self, host: HostProcess, session: aiohttp.ClientSession) -> None:
        self.host = host
        self.session = session
        self.conns: list[Conn] = []
        self.changed = asyncio.Event()

    async def open(self, token: str, *, seat: int | None, label: str = "",
                   address: str = "127.0.0.1", compress: int = 0) -> Conn:
        """A connection that has had its ``hello`` and first ``view`` (``compress``: the
        window bits of permessage-deflate, as browsers and most clients offer it)."""
        ws = await self.session.ws_connect(self.host.ws(token, address), autoclose=False,
                                           max_msg_size=0, heartbeat=None, compress=compress)
        conn = Conn(label or ("watch" if seat is None else f"seat {seat}"), ws, seat=seat,
                    on_message=self.changed.set)
        self.conns.append(conn)
        await conn.next("view", 0)
        return conn

    async def seat(self, seat: int, **kw: Any) -> Conn:
        return await self.open(self.host.seats[seat].token, seat=seat, **kw)

    async def watch(self, **kw: Any) -> Conn:
        return await self.open(self.host.watch_token, seat=None, **kw)

    async def table(self) -> Table:
        """Every person's seat and a watch, connected."""
        seats = {s: await self.seat(s) for s in sorted(self.host.seats)}
        return Table(self, seats, await self.watch())

    async def until(self, what: Callable[[], Any], timeout: float = 10,
                    why: str = "the table to get there") -> Any:
        """Wait, message by message, until ``what()`` is true; return what it gave."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            self.changed.clear()
            if result := what():
                return result
            if loop.time() >= end:
                raise AssertionError(f"waited {timeout} s for {why}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), end - loop.time())

    @property
    def problems(self) -> list[str]:
        return [p for conn in self.conns for p in conn.problems]


@dataclass
class Table:
    """The seats of the people at a table and a watch, all of this test's."""

    client: Client
    seats: dict[int, Conn]
    watch: Conn

    def settled(self) -> bool:
        """Whether every connection shows the same table as the watch."""
        v = self.watch.view
        return all(public(conn.view) == public(v) for conn in self.seats.values())

    def _turn(self, *, end: bool) -> Conn | str | None:
        if not self.settled():
            return None
        v = self.watch.view
        if end and over(v):
            return "over"
        conn = self.seats.get(v["turn"]) if v["turn"] is not None else None
        return conn if conn is not None and conn.view["legal"] else None

    async def to_act(self) -> Conn:
        """The connection of the seat to act, once every connection shows the same table."""
        return await self.client.until(lambda: self._turn(end=False), why="a person's turn")

    async def turn_or_end(self) -> Conn | None:
        """As :meth:`to_act`, or None once the round is over."""
        found = await self.client.until(lambda: self._turn(end=True),
                                        why="a person's turn or the end of the round")
        return found if isinstance(found, Conn) else None

    async def move(self, actor: Conn, action: str | None = None) -> View:
        """Make an action (by default one that moves the game on); return the actor's
        first view that shows a change."""
        before = actor.view
        mark = await actor.act(action or moving_on(before["legal"]))
        return await actor.next("view", mark, lambda v: game(v) != game(before))


@contextlib.asynccontextmanager
async def client(host: HostProcess) -> AsyncIterator[Client]:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        c = Client(host, session)
        try:
            yield c
        finally:
            for conn in c.conns:
                if not conn.closed.is_set():
                    await conn.ws.close()
    assert host.stopped or host.alive(), f"the host ended: {host.err[-5:]}"


def moving_on(legal: list[str]) -> str:
    """A legal action that moves the game on and changes as little else as it can."""
    for action in ("press", "pass", "choose red", "draw"):
        if action in legal:
            return action
    return next(a for a in legal if a != "uno" and not a.startswith("catch"))


# -- raw HTTP and WebSocket, for what aiohttp's client will not send ----------------------


def get(path: str, port: int, *, upgrade: bool = False) -> bytes:
    headers = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    if upgrade:
        key = base64.b64encode(os.urandom(16)).decode()
        headers[2:] = ["Connection: Upgrade", "Upgrade: websocket",
                       f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    return ("\r\n".join(headers) + "\r\n\r\n").encode()


async def raw_http(port: int, request: bytes) -> tuple[int, bytes, bytes]:
    """Send a request; return the answer's status, its body, and whatever else the host
    sent in the next moment."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        status = int(head.split(b" ", 2)[1])
        length = re.search(rb"\r\ncontent-length: *(\d+)", head.lower())
        assert length is not None, head  # every answer of the host says how long it is
        body = await asyncio.wait_for(reader.readexactly(int(length.group(1))), 10)
        try:
            more = await asyncio.wait_for(reader.read(1 << 16), 0.1)
        except TimeoutError:
            more = b""
    finally:
        writer.close()
    return status, body, more


TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA


def frame(opcode: int, payload: bytes, *, fin: bool = True, rsv: int = 0,
          masked: bool = True) -> bytes:
    """One WebSocket frame as a client sends it (RFC 6455 5.2), or breaks it."""
    n = len(payload)
    head = bytes([(0x80 if fin else 0) | rsv << 4 | opcode])
    mask_bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([mask_bit | n])
    elif n < 1 << 16:
        head += bytes([mask_bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


class RawSocket:
    """A WebSocket by hand: any bytes at all can be sent."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, token: str) -> RawSocket:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(get(f"/ws?token={token}", port, upgrade=True))
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(reader, writer)

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def frame(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next frame from the host, as (opcode, payload); pings are answered."""
        while True:
            b0, b1 = await asyncio.wait_for(self.reader.readexactly(2), timeout)
            n = b1 & 0x7F
            if n >= 126:
                size = 2 if n == 126 else 8
                n = int.from_bytes(await self.reader.readexactly(size), "big")
            payload = await asyncio.wait_for(self.reader.readexactly(n), timeout)
            if b0 & 0x0F != PING:
                return b0 & 0x0F, payload
            await self.send(frame(PONG, payload))

    async def json(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next message of ``kind`` (text frames of other kinds are skipped)."""
        while True:
            opcode, payload = await self.frame(timeout)
            assert opcode == TEXT, (opcode, payload[:100])
            message = json.loads(payload)
            if message["type"] == kind:
                return message

    def abort(self) -> None:
        """Drop the TCP connection at once, with no close frame."""
        transport = self.writer.transport
        assert isinstance(transport, asyncio.WriteTransport)
        transport.abort()


# -- the table most tests share: two people and a bot -------------------------------------

LOBBY = ("--players", "3", "--humans", "Ann,Bob", "--bot-delay", "0", "--catch-delay", "0",
         "--launcher", "fixed:1", "--seed", "5", "--option", "hand_size=5",
         "--option", "play_after_press=true", "--option", "target=300")


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running(tmp_path_factory.mktemp("lobby"), *LOBBY) as host:
        yield host


def bits_of(token: str) -> float:
    """The bits a token can hold: its length times the bits per character of the smallest
    usual alphabet (hex, base64url, printable ASCII) that has all its characters."""
    for alphabet in ("0123456789abcdef", "0123456789ABCDEF",
                     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
                     "".join(map(chr, range(33, 127)))):
        if set(token) <= set(alphabet):
            return len(token) * math.log2(len(alphabet))
    return 0.0


def test_host_prints_a_join_line_per_person_and_a_watch_line(lobby: HostProcess) -> None:
    assert len(lobby.url_lines) == 3, lobby.out
    assert {s: seat.name for s, seat in lobby.seats.items()} == {0: "Ann", 1: "Bob"}
    for url in [seat.url for seat in lobby.seats.values()] + [lobby.watch_url]:
        parts = urlsplit(url)
        assert (parts.scheme, parts.hostname, parts.port, parts.path) == (
            "http", "127.0.0.1", lobby.port, "/"), url


def test_tokens_are_distinct_random_and_at_least_128_bits(
        lobby: HostProcess, tmp_path: Path) -> None:
    tokens = [seat.token for seat in lobby.seats.values()] + [lobby.watch_token]
    assert len(set(tokens)) == 3
    assert all(bits_of(token) >= 128 for token in tokens), tokens
    with running(tmp_path, *LOBBY) as same_seed:  # random: not made from the seed
        again = [seat.token for seat in same_seed.seats.values()] + [same_seed.watch_token]
    assert not set(again) & set(tokens)


@pytest.mark.parametrize("path", ["/", "/ws"])
async def test_a_missing_wrong_or_wrong_length_token_gets_403_and_nothing_else(
        lobby: HostProcess, path: str) -> None:
    """The socket gets nothing but its 403; a person who opened the link gets a 403 page
    saying what to do, one page for every wrong token, naming no one at the table."""
    good = lobby.seats[0].token
    wrong = "".join(random.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in good)
    pages = set()
    for query in ["", "?token=", f"?token={wrong}", f"?token={good[:-1]}",
                  f"?token={good}A", f"?token={good[:16]}", f"?token={good.swapcase()}",
                  f"?token={good[:-1]}{'B' if good[-1] == 'A' else 'A'}",
                  f"?tokens={good}", f"?token=%00{good}", f"?token={good}%00"]:
        status, body, more = await raw_http(lobby.port, get(path + query, lobby.port,
                                                            upgrade=path == "/ws"))
        assert (status, more) == (403, b""), (query, status, body[:200], more)
        pages.add(body)
    if path == "/ws":
        assert pages == {b""}
    else:
        [page] = pages
        assert b"Ask the host for your link again" in page
        assert b"Ann" not in page
        assert good[:8].encode() not in page
    assert lobby.alive()


async def test_a_valid_token_gets_the_table_page(lobby: HostProcess) -> None:
    async with aiohttp.ClientSession() as session:
        for token in (lobby.seats[0].token, lobby.watch_token):
            async with session.get(lobby.http(f"/?token={token}")) as response:
                assert response.status == 200
                assert response.content_type == "text/html"
                assert "<html" in (await response.text()).lower()


async def test_a_seats_hello_names_it_and_carries_the_options_as_a_transcript(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        ann = await c.seat(0)
        hello, first = ann.messages[:2]
        assert (hello["type"], hello["seat"], hello["name"]) == ("hello", 0, "Ann")
        assert hello["players"][:2] == ["Ann", "Bob"]
        assert len(hello["players"]) == 3
        options = hello["options"]
        assert is_int(options["hand_size"])
        assert (options["hand_size"], options["target"]) == (5, 300)
        assert options["play_after_press"] is True
        assert (first["type"], first["seq"]) == ("view", 1)
        assert {"hand", "legal"} <= set(first)
        assert c.problems == []


async def test_the_watch_has_no_seat_no_name_and_no_hand_or_legal(lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        hello = t.watch.messages[0]
        assert (hello["type"], hello["seat"], hello["name"]) == ("hello", None, None)
        assert len(hello["players"]) == 3
        mark = t.watch.mark()
        await t.move(await t.to_act())
        for v in [*t.watch.of("view"), await t.watch.next("view", mark)]:
            assert not {"hand", "legal"} & set(v)
        assert c.problems == []


async def test_scores_are_a_zero_per_seat_before_any_round_is_scored(lobby: HostProcess) -> None:
    async with client(lobby) as c:
        watch = await c.watch()
        assert watch.view["winner"] is None
        assert watch.view["scores"] == [0, 0, 0]


async def test_every_connection_gets_a_view_of_every_change_and_the_same_log(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        marks = {conn: conn.mark() for conn in c.conns}
        before = actor.view
        await actor.act(moving_on(before["legal"]))
        for conn, mark in marks.items():
            await conn.next("view", mark, lambda v: public(v) != public(before))
        await c.until(lambda: len({json.dumps(public(conn.view)) for conn in c.conns}) == 1,
                      why="every connection to show the same game and log")
        assert c.problems == []


NOT_UNDERSTOOD = [
    "not json", "{", '{"type": "act", "action": "press"', "[]", "42", "null", '"act"',
    '[{"type": "act", "action": "press"}]', '{"action": "press"}',
    '{"type": "play", "action": "press"}', '{"type": "ACT", "action": "press"}',
    '{"type": "hello"}', '{"type": "view", "seq": 1}', '{"type": null}', '{"type": "act"}',
    '{"type": "act", "action": 5}', '{"type": "act", "action": null}',
    '{"type": "act", "action": ["press"]}', '{"type": "act", "action": {"verb": "press"}}',
    '{"type": "act", "action": true}', '{"type": "act", "action": ""}',
    '{"type": "act", "action": "fly away"}', '{"type": "act", "action": "play Q9"}',
    '{"type": "act", "action": "play R5 R5 R5 R5 R5 R5 R5 R5 R5 R5 R5 R5"}',
    '{"type": "act", "action": "press\\u0000"}', '\ufeff{"type": "act", "action": "press"}',
]


async def test_each_message_not_understood_gets_one_error_and_changes_nothing(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        before, watched = actor.view, t.watch.mark()
        for i, text in enumerate(NOT_UNDERSTOOD):
            mark = await actor.send_str(text)
            await actor.next("error", mark)
            assert len(actor.of("error")) == i + 1, text
        mark = await actor.send_bytes(b'{"type": "act", "action": "press"}')  # settled point 2
        await actor.next("error", mark)
        assert len(actor.of("error")) == len(NOT_UNDERSTOOD) + 1  # one each, no more
        assert not t.watch.of("view", watched)  # nothing changed: no view went out
        assert actor.view is before
        assert game((await c.seat(actor.seat)).view) == game(before)  # a fresh look
        v = await t.move(actor)  # the connection stays: its next act is read
        assert v["seq"] == before["seq"] + 1
        assert c.problems == []


def padded(action: str, size: int, *, pad: str = " ") -> str:
    """An act of exactly ``size`` bytes of UTF-8: spaces before the closing brace, or
    ``pad`` characters in a key the host has no use for."""
    if pad == " ":
        text = json.dumps({"type": "act", "action": action})
        return text[:-1] + " " * (size - len(text.encode())) + "}"
    bare = json.dumps({"type": "act", "action": action, "note": ""}, ensure_ascii=False)
    room = size - len(bare.encode())
    text = bare[:-2] + pad * (room // len(pad.encode())) + "x" * (room % len(pad.encode()))
    return text + '"}'


async def test_a_message_of_4096_bytes_is_read_and_one_byte_more_is_refused(
        lobby: HostProcess) -> None:
    """Settled point 3, in bytes: 4097 bytes in fewer than 4096 characters are refused."""
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        refused = [padded("press", 4097), padded("press", 4097, pad="é"),
                   padded("press", 4098, pad="€"), padded("press", 64 * 1024)]
        assert [len(text.encode()) for text in refused[:3]] == [4097, 4097, 4098]
        assert all(len(text) < 4096 for text in refused[1:3])
        before = actor.view
        for i, text in enumerate(refused):
            mark = await actor.send_str(text)
            await actor.next("error", mark)
            assert len(actor.of("error")) == i + 1
        assert actor.view is before  # ignored
        for pad in (" ", "é", "€"):
            actor = await t.to_act()
            before = actor.view
            text = padded(moving_on(before["legal"]), 4096, pad=pad)
            assert len(text.encode()) == 4096
            mark = await actor.send_str(text)
            v = await actor.next("view", mark, lambda v, b=before: game(v) != game(b))
            assert v["seq"] == before["seq"] + 1
            assert not actor.of("error", mark)
        assert c.problems == []


async def test_a_compressed_socket_is_held_to_the_same_limits(lobby: HostProcess) -> None:
    """With permessage-deflate the limit is on the message, not on the compressed frame."""
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        deflated = await c.open(lobby.seats[actor.seat].token, seat=actor.seat,
                                label="deflate", compress=15)
        assert deflated.ws.compress == 15
        before = deflated.view
        for text in (padded("press", 4097), " " * (10 << 20)):  # 10 MiB in a few KiB
            mark = await deflated.send_str(text)
            await deflated.next("error", mark, timeout=20)
        assert deflated.view is before
        mark = await deflated.send_str(padded(moving_on(before["legal"]), 4096))
        await deflated.next("view", mark, lambda v: game(v) != game(before))
        assert c.problems == []


async def test_each_message_beyond_the_twentieth_in_a_sliding_second_is_refused(
        lobby: HostProcess) -> None:
    """Settled point 4. Ten messages at 0 s, ten at 0.5 s, then at 1.25 s ten more and an
    act: the second before it holds 21, so the act is refused (a window fixed to whole
    seconds, or a bucket refilled at 20 a second, would let it through). At 1.75 s nine
    and an act: refused too, as the refused messages count (11 + 10)."""
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        actor.pace = False
        before = actor.view
        loop = asyncio.get_running_loop()
        start, mark = loop.time(), actor.mark()
        for at, junk in ((0.0, 10), (0.5, 10), (1.25, 10), (1.75, 9)):
            await asyncio.sleep(max(0.0, start + at - loop.time()))
            for _ in range(junk):
                await actor.act("fly")
            if at > 1:
                await actor.act(moving_on(before["legal"]))
        await actor.count("error", mark, 41)
        assert actor.view is before, "an act beyond the 20th in a second was made"
        await asyncio.sleep(max(0.0, start + 2.8 - loop.time()))  # a second with none
        v = await t.move(actor)  # and the connection stays
        assert v["seq"] == before["seq"] + 1
        assert c.problems == []


async def test_twenty_messages_within_a_second_are_all_read(lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        actor.pace = False
        before, mark = actor.view, actor.mark()
        for _ in range(19):
            await actor.act("fly")
        await actor.act(moving_on(before["legal"]))  # the 20th: read and made
        v = await actor.next("view", mark, lambda v: game(v) != game(before))
        assert v["seq"] == before["seq"] + 1
        assert len(actor.of("error", mark)) == 19


@pytest.mark.parametrize("then", ["illegal", "press", "not json", "binary", "oversized"])
async def test_an_error_never_overtakes_the_view_of_a_change_made_before_it(
        lobby: HostProcess, then: str) -> None:
    """Settled point 10: an act, and at once a message that is refused; the act's view
    comes first (also while the launcher fires the act's press)."""
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        before = actor.view
        second: bytes | str = {"illegal": json.dumps({"type": "act", "action": "fly away"}),
                               "press": json.dumps({"type": "act", "action": "press"}),
                               "not json": "{{", "binary": b"\x00\x01",
                               "oversized": " " * 5000}[then]
        mark = actor.mark()
        await actor.ws.send_str(json.dumps({"type": "act",
                                            "action": moving_on(before["legal"])}))
        if isinstance(second, bytes):
            await actor.ws.send_bytes(second)
        else:
            await actor.ws.send_str(second)
        error = await actor.next("error", mark)
        changed = await actor.next("view", mark, lambda v: game(v) != game(before))
        assert actor.messages.index(changed) < actor.messages.index(error)
        assert c.problems == []


async def test_one_token_on_several_devices_each_gets_the_seats_views(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        token = lobby.seats[actor.seat].token
        devices = [actor, await c.open(token, seat=actor.seat, label="device 2"),
                   await c.open(token, seat=actor.seat, label="device 3")]
        assert devices[1].view["hand"] == actor.view["hand"]
        before = actor.view
        marks = [d.mark() for d in devices]
        await devices[1].act(moving_on(before["legal"]))  # the second device acts
        for device, mark in zip(devices, marks, strict=True):
            await device.next("view", mark, lambda v: game(v) != game(before))
        await c.until(lambda: len({json.dumps((d.view["hand"], d.view["legal"], public(d.view)))
                                   for d in devices}) == 1, why="the same view on each device")
        assert c.problems == []


async def test_a_hundred_watchers_each_see_the_change(lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        watchers = await asyncio.gather(*(c.watch(label=f"watcher {i}") for i in range(100)))
        changed = await t.move(actor)
        for w in watchers:
            await w.next("view", 0, lambda v: v["log"] == changed["log"]
                         and v["turn"] == changed["turn"])
        assert c.problems == []


async def test_a_seat_acts_only_for_itself_and_the_watch_not_at_all(lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        other = t.seats[1 - actor.seat]
        before, watched = actor.view, t.watch.mark()
        legal = moving_on(before["legal"])
        for conn, action in [(actor, f"{actor.seat} {legal}"), (actor, f"{other.seat} press"),
                             (other, "press"), (other, f"{actor.seat} {legal}"),
                             (t.watch, legal), (t.watch, f"{actor.seat} {legal}")]:
            mark = await conn.act(action)
            await conn.next("error", mark)
        assert not t.watch.of("view", watched)
        assert actor.view is before
        assert game((await c.seat(actor.seat)).view) == game(before)
        assert c.problems == []


async def test_a_device_that_reconnects_gets_hello_a_fresh_view_and_the_game_waits(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        seat, before = actor.seat, actor.view
        await actor.close()
        mark = t.watch.mark()
        await asyncio.sleep(1.0)  # gone a moment, at their turn: nobody moves for them
        assert all(game(v)[:-1] == game(before)[:-1] for v in t.watch.of("view", mark))
        back = await c.seat(seat, label="back")
        hello = back.messages[0]
        assert (hello["type"], hello["seat"], hello["name"]) == ("hello", seat,
                                                                 lobby.seats[seat].name)
        assert back.view["seq"] == 1
        assert game(back.view) == game(before)
        await t.move(back)
        assert c.problems == []


async def test_a_press_typed_at_the_hosts_terminal_is_the_press_of_the_person_to_act(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        actor = await t.to_act()
        while "press" not in actor.view["legal"]:
            await t.move(actor)
            actor = await t.to_act()
        before, mark = actor.view, actor.mark()
        lobby.operator("press")
        v = await actor.next("view", mark, lambda v: game(v) != game(before))
        assert len(v["hand"]) == len(before["hand"]) + 1  # fixed:1 fires one card
        assert v["top"] == before["top"]
        assert c.problems == []


def test_without_lan_the_host_listens_on_loopback_only(lobby: HostProcess) -> None:
    assert listening(lobby.proc.pid) == [f"127.0.0.1:{lobby.port}"]
    address = lan_ip()
    if address is not None:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((address, lobby.port), timeout=5).close()


# -- adversarial: the host never crashes, never changes the game on a refused message,
#    and keeps serving everyone else -------------------------------------------------


async def still_serving(c: Client, t: Table, before: View) -> None:
    """The game is as it was, a new connection is served, and the seat to act acts."""
    assert c.host.alive(), c.host.err[-5:]
    fresh = await c.seat(before["turn"], label="fresh")
    assert game(fresh.view) == game(before)
    await t.move(await t.to_act())
    assert c.problems == []


async def lobby_turn(c: Client) -> tuple[Table, View]:
    t = await c.table()
    return t, (await t.to_act()).view


GARBAGE = [
    os.urandom(3000),
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(200),  # a TLS hello
    b"GET / HTTP/1.1\r\n",  # and never the end of the headers
    b"GET /ws?token=" + b"A" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Junk: " + b"y" * 70000 + b"\r\n\r\n",
    b"POST /ws HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\nabc",
    b"\r\n\r\n\r\n",
    "GET /?token=é HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
    b"GET /ws?token=%ff%fe HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: x\r\n\r\n",
]


async def test_garbage_bytes_on_the_port_leave_the_host_serving(lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t, before = await lobby_turn(c)
        for junk in GARBAGE:
            reader, writer = await asyncio.open_connection("127.0.0.1", lobby.port)
            writer.write(junk)
            with contextlib.suppress(TimeoutError, ConnectionError):
                await writer.drain()
                answer = await asyncio.wait_for(reader.read(1 << 16), 0.5)
                assert lobby.seats[0].token.encode() not in answer
            writer.close()
        await still_serving(c, t, before)


async def test_bad_frames_end_their_own_socket_at_most(lobby: HostProcess) -> None:
    """Frames no client should send: each gets an ``error`` or ends that socket, and the
    game and everyone else go on."""
    async with client(lobby) as c:
        t, before = await lobby_turn(c)
        fly = json.dumps({"type": "act", "action": "fly"}).encode()  # refused if read
        for data in [frame(TEXT, fly, rsv=0b100),         # a reserved bit
                     frame(0x3, fly),                     # an opcode that does not exist
                     frame(TEXT, fly, masked=False),      # a client frame without a mask
                     frame(PING, b"x" * 126),             # a control frame too long
                     frame(TEXT, fly[:10], fin=False) + frame(BINARY, fly[10:]),
                     frame(CLOSE, b"\x03\xe7"),           # close code 999
                     struct.pack("!BBQ", 0x81, 0xFF, 1 << 62) + os.urandom(4)]:
            raw = await RawSocket.open(lobby.port, lobby.seats[before["turn"]].token)
            await raw.json("view")
            await raw.send(data)
            with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
                while (answer := await raw.frame())[0] != CLOSE:  # an error, or the end
                    assert answer[0] == TEXT
                    if json.loads(answer[1])["type"] == "error":
                        break
            raw.abort()
        await still_serving(c, t, before)


async def test_a_text_frame_that_is_not_utf8_gets_an_error_and_the_socket_stays(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t, before = await lobby_turn(c)
        raw = await RawSocket.open(lobby.port, lobby.seats[before["turn"]].token)
        await raw.json("view")
        for junk in (b'{"type": "act", "action": "press\xff"}', b"\xc3\x28", b"\xed\xa0\x80",
                     b'{"type": "act", "action": "pr' + "é".encode()[:1] + b'"}'):
            await raw.send(frame(TEXT, junk))
            assert (await raw.json("error"))["message"]
        await raw.send(frame(TEXT, b'{"type": "act", "action": "fly"}'))
        assert (await raw.json("error"))["message"]  # still there, still answered
        raw.abort()
        await still_serving(c, t, before)


async def test_deeply_nested_json_gets_an_error(lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t, before = await lobby_turn(c)
        actor = t.seats[before["turn"]]
        for text in ["[" * 2040 + "]" * 2040, '{"a":' * 600 + "1" + "}" * 600,
                     '{"type": "act", "action": "press", "x": ' + "[" * 2000 + "]" * 2000 + "}",
                     '{"type": "act", "action": ' + "[" * 2000 + "]" * 2000 + "}"]:
            assert len(text.encode()) <= 4096
            mark = await actor.send_str(text)
            await actor.next("error", mark)
        assert actor.view is before
        await still_serving(c, t, before)


async def test_huge_messages_get_an_error_and_the_socket_stays(lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t, before = await lobby_turn(c)
        actor = t.seats[before["turn"]]
        for size in (100_000, 1 << 20, 8 << 20):
            mark = await actor.send_str(padded("press", size))
            await actor.next("error", mark, timeout=20)
        mark = await actor.send_bytes(os.urandom(2 << 20))
        await actor.next("error", mark, timeout=20)
        assert actor.view is before
        await still_serving(c, t, before)


async def test_a_flood_from_many_sockets_is_refused_message_by_message(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t, before = await lobby_turn(c)
        flooders = [await c.open(lobby.seats[i % 2].token if i % 3 else lobby.watch_token,
                                 seat=i % 2 if i % 3 else None, label=f"flood {i}")
                    for i in range(24)]
        marks = [f.mark() for f in flooders]
        junk = ["{", "[]", json.dumps({"type": "act", "action": f"{before['turn']} press"}),
                json.dumps({"type": "act", "action": "fly"})]

        async def flood(conn: Conn) -> None:
            for i in range(60):
                await conn.ws.send_str(junk[i % len(junk)])
        await asyncio.gather(*(flood(f) for f in flooders))
        for f, mark in zip(flooders, marks, strict=True):
            await f.count("error", mark, 60, timeout=30)
            assert not f.of("view", mark)
        await still_serving(c, t, before)


async def test_a_socket_that_floods_and_never_reads_does_not_hold_up_the_others(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t = await c.table()
        slow = await RawSocket.open(lobby.port, lobby.watch_token)
        slow.writer.write(frame(TEXT, b"{}") * 40_000)  # 40 000 errors it never reads
        for _ in range(6):  # meanwhile the game goes on for everyone else
            await t.move(await t.to_act())
        slow.abort()
        assert c.problems == []


async def test_sockets_dropped_at_any_moment_leave_the_table_as_it_was(
        lobby: HostProcess) -> None:
    async with client(lobby) as c:
        t, before = await lobby_turn(c)
        tokens = [lobby.seats[0].token, lobby.seats[1].token, lobby.watch_token]
        for i in range(30):
            token = tokens[i % 3]
            if i % 5 == 0:  # in the middle of the handshake
                _, writer = await asyncio.open_connection("127.0.0.1", lobby.port)
                writer.write(get(f"/ws?token={token}", lobby.port, upgrade=True)[:30])
                await writer.drain()
                writer.transport.abort()
                continue
            raw = await RawSocket.open(lobby.port, token)
            if i % 5 == 2:
                await raw.send(frame(TEXT, b'{"type": "act", "action": "press"}')[:12])
            elif i % 5 == 3:
                await raw.send(frame(TEXT, b'{"type": "act", "action": "fly"}'))
            raw.abort()  # no close frame
        await still_serving(c, t, before)


# -- three people play two rounds: legal, hidden hands, the end of a round ---------------


@dataclass
class Rounds:
    """Per round: the cards it made public, and each seat's cards, ever."""

    public: list[set[str]] = field(default_factory=lambda: [set()])
    held: list[dict[int, set[str]]] = field(default_factory=lambda: [{}])

    def note(self, t: Table) -> None:
        for seat, conn in t.seats.items():
            self.held[-1].setdefault(seat, set()).update(conn.view["hand"])
        self.public[-1].add(t.watch.view["top"])

    def new_round(self) -> None:
        self.public.append(set())
        self.held.append({})


def new_lines(before: list[str], log: list[str]) -> list[str]:
    """The lines of ``log`` that were not yet in ``before`` (the log moves on by lines)."""
    k = next(k for k in range(min(len(before), len(log)), -1, -1)
             if before[len(before) - k:] == log[:k])
    return log[k:]


def leaks(conn: Any, rounds: Rounds, own_keys: tuple[str, ...] = ()) -> list[str]:
    """Cards of another seat's hand, never public, that a message to ``conn`` names outside
    its own ``hand``, ``legal`` and ``own_keys`` (a log line is read in the view that adds
    it); once a round is over everything may be shown (settled point 8)."""
    found = []
    r, was_over, log = 0, False, []
    skip = ("hand", "legal", "log", *own_keys) if conn.seat is not None else ("log",)
    for m in conn.messages:
        texts = list(strings_in(m, skip=lambda key: key in skip))
        if m["type"] == "view":
            r += was_over and not over(m)
            was_over = over(m)
            texts += new_lines(log, m.get("log", []))
            log = m.get("log", [])
            if was_over:
                continue
        if r >= len(rounds.public):
            break  # a round the test did not follow
        seen, held = rounds.public[r] | rounds.held[r].get(conn.seat, set()), rounds.held[r]
        for text in texts:
            for card in cards_named(text):
                if card not in seen and any(card in cards for seat, cards in held.items()
                                            if seat != conn.seat):
                    found.append(f"{conn.label}, round {r + 1}: {card} in {text!r}")
    return found


PLAY = ("--players", "3", "--humans", "Ann,Bob,Cy", "--launcher", "fixed:1", "--seed", "9",
        "--bot-delay", "0", "--catch-delay", "0", "--round-pause", "1.5",
        "--option", "hand_size=3")


async def test_three_people_play_two_rounds_and_every_message_keeps_the_rules(
        tmp_path: Path) -> None:
    """Random legal play, checked at every turn: each seat's ``legal`` is RULES.md's (with
    UNO and catch out of turn), no message names a card of another hand that is not public,
    a round that is over refuses every act and is scored by RULES.md 8, and two seats that
    act at the same instant get one change and one error."""
    rng = random.Random(4)
    rounds = Rounds()
    with running(tmp_path, *PLAY) as host:
        async with client(host) as c:
            t = await c.table()
            window: int | None = None  # the seat that has not called UNO and may be caught
            raced = {"uno": False, "press": False}
            totals, played = [0, 0, 0], 0
            for _ in range(600):
                actor = await t.turn_or_end()
                rounds.note(t)
                if actor is None:
                    totals = await round_is_over(t, totals)
                    played += 1
                    if played == 2:
                        break
                    window = None
                    rounds.new_round()
                    await c.until(lambda: not over(t.watch.view), why="the next round")
                    assert t.watch.view["scores"] == totals
                    continue
                v = actor.view
                for seat, conn in t.seats.items():
                    extras = set() if window is None or v["winner"] is not None else (
                        {"uno"} if seat == window else {f"catch {window}"})
                    expected = attack_legal_on_turn(v, 3) if seat == v["turn"] else set()
                    assert set(conn.view["legal"]) == expected | extras, (seat, conn.view)
                if window is not None and not raced["uno"]:
                    raced["uno"] = True
                    await race_call_and_catch(t, window)
                    window = None
                    continue
                if not raced["press"] and not v["owed"] and "press" in v["legal"]:
                    raced["press"] = True
                    await race_press(t, actor)
                    window = None
                    continue
                if window is not None and rng.random() < 0.5:
                    by, action = rng.choice([(window, "uno"), ((window + 1) % 3,
                                                               f"catch {window}")])
                    was = t.seats[by].view
                    mark = await t.seats[by].act(action)
                    await t.seats[by].next("view", mark, lambda m, was=was: m["log"] != was["log"])
                    window = None
                    continue
                plays = [a for a in v["legal"] if a.startswith("play")]
                action = (rng.choice(plays) if plays and rng.random() < 0.9
                          else moving_on(v["legal"]))
                card = action.split()[1] if action.startswith("play") else None
                call = (card is not None and card[1:] not in ("D", "T")  # one card left
                        and len(v["hand"]) == 2 and rng.random() < 0.4)
                if card is not None:
                    rounds.public[-1].add(card)
                    if card[1:] == "D":  # a Discard All takes its colour along (RULES.md 5)
                        rounds.public[-1].update(x for x in v["hand"] if x[0] == card[0])
                await t.move(actor, action + " uno" * call)
                window = None
                if card is not None and not call:
                    after = await c.until(lambda a=actor: t.settled() and a.view,
                                          why="every connection to see the play")
                    if after["hand_sizes"][actor.seat] == 1 and after["winner"] is None:
                        window = actor.seat
            assert played == 2, "two rounds were not played out"
            assert raced == {"uno": True, "press": True}
            for conn in c.conns:
                assert leaks(conn, rounds) == []
            assert c.problems == []


async def test_a_seat_that_may_jump_in_has_it_in_legal_and_may_make_it(
        tmp_path: Path) -> None:
    """``legal`` holds a seat's out-of-turn actions (NETWORK.md): with ``jump_in =
    numbers`` (VARIANTS.md B2), every seat but the one to act that holds the top card's
    twin may play it, the one who played it too (E13), and the jump-in is made."""
    with running(tmp_path, "--players", "3", "--humans", "Ann,Bob,Cy", "--launcher",
                 "fixed:1", "--seed", "2", "--bot-delay", "0", "--catch-delay", "0",
                 "--round-pause", "0.2", "--option", "jump_in=numbers") as host:
        async with client(host) as c:
            t = await c.table()
            for _ in range(300):
                actor = await t.to_act()
                v = actor.view
                plain = not v["owed"] and v["color"] is not None and v["top"][1:].isdigit()
                jumpers = []
                for seat, conn in t.seats.items():
                    if seat != v["turn"]:
                        may = plain and v["top"] in conn.view["hand"]
                        assert set(conn.view["legal"]) - {"uno", *(
                            f"catch {s}" for s in range(3))} == ({f"play {v['top']}"}
                                                                 if may else set())
                        if may:
                            jumpers.append(conn)
                if jumpers:
                    break
                numbers = [a for a in v["legal"] if a.startswith("play") and a[6:].isdigit()]
                await t.move(actor, numbers[0] if numbers and len(v["hand"]) > 2 else None)
            assert jumpers, "no seat ever held the top card's twin"
            jumper = jumpers[0]
            before = jumper.view
            after = await t.move(jumper, f"play {before['top']}")
            assert len(after["hand"]) == len(before["hand"]) - 1
            step = 1 if after["direction"] == "clockwise" else -1
            assert after["turn"] == (jumper.seat + step) % 3  # on from the jumper
            assert c.problems == []


async def round_is_over(t: Table, totals: list[int]) -> list[int]:
    """The round is over: nothing is legal, every act is refused and changes nothing, and
    the winner scored the others' hands (RULES.md 8, points). Returns the new totals."""
    v = t.watch.view
    winner = v["winner"]
    for conn in t.seats.values():
        before, start = conn.view, conn.mark()
        assert before["legal"] == []
        card = before["hand"][0] if before["hand"] else v["top"]  # a card it may name
        for action in ("press", "uno", f"catch {winner}", f"play {card} red", "pass"):
            mark = await conn.act(action)
            await conn.next("error", mark)
        assert all(game(m) == game(before) for m in conn.of("view", start))
    hands = {seat: conn.view["hand"] for seat, conn in t.seats.items()}
    assert hands[winner] == []
    expected = list(totals)
    expected[winner] += sum(points(card) for hand in hands.values() for card in hand)
    assert v["scores"] == expected, hands
    return expected


async def race_call_and_catch(t: Table, window: int) -> None:
    """The seat without UNO calls it as another seat catches it: exactly one counts, the
    other gets an ``error``."""
    caller, catcher = t.seats[window], t.seats[(window + 1) % 3]
    marks = (caller.mark(), catcher.mark())
    before = caller.view
    await asyncio.gather(caller.act("uno"), catcher.act(f"catch {window}"))
    for conn, mark in zip((caller, catcher), marks, strict=True):
        await conn.next("view", mark, lambda m: m["log"] != before["log"])
    await t.client.until(lambda: len(caller.of("error", marks[0])) +
                         len(catcher.of("error", marks[1])) >= 1, why="one refusal")
    refused = [conn for conn, mark in zip((caller, catcher), marks, strict=True)
               if conn.of("error", mark)]
    assert len(refused) == 1
    after = caller.view
    if refused == [caller]:  # caught: two presses owed before anything else (RULES.md 7)
        assert after["owed"][0] == [window, 2]
    else:
        assert "uno" not in after["legal"]
        assert after["owed"][:1] != [[window, 2]]


async def race_press(t: Table, actor: Conn) -> None:
    """The seat to act and the seat that acted before it press at the same instant: one
    press and one error (the seat after it could press once the first press is made)."""
    before = actor.view
    step = 1 if before["direction"] == "clockwise" else -1
    other = t.seats[(actor.seat - step) % 3]
    marks = (actor.mark(), other.mark())
    await asyncio.gather(actor.act("press"), other.act("press"))
    await other.next("error", marks[1])
    v = await actor.next("view", marks[0], lambda m: game(m) != game(before))
    assert v["hand_sizes"][actor.seat] == before["hand_sizes"][actor.seat] + 1  # fixed:1
    assert not actor.of("error", marks[0])


def test_the_hidden_hand_check_finds_a_card_named_in_a_code_or_in_words() -> None:
    """The check the game tests rely on: another seat's card, named either way in any
    field, is found; public cards, the seat's own and a finished round are not."""
    rounds = Rounds(public=[{"R5"}], held=[{0: {"G7", "WA"}, 1: {"B2", "YS", "R5", "B8"}}])

    def to(seat: int | None, *messages: dict[str, Any]) -> Any:
        return type("Conn", (), {"seat": seat, "label": "test", "messages": list(messages)})
    live = {"type": "view", "turn": 0, "winner": None}
    assert leaks(to(0, {**live, "log": ["Ann played red 5"], "hand": ["G7"]}), rounds) == []
    assert leaks(to(0, {**live, "log": ["Bob drew blue 2"]}), rounds)
    assert leaks(to(0, {**live, "extra": {"cards": ["YS"]}}), rounds)
    assert leaks(to(None, {**live, "log": ["a Wild All Hit is coming"]}), rounds)
    assert leaks(to(0, {"type": "error", "message": "(VARIANTS.md B8)"}), rounds) == []
    assert leaks(to(1, {**live, "hand": ["B2", "YS"], "legal": ["play YS"]}), rounds) == []
    assert leaks(to(None, {"type": "view", "turn": None, "winner": 1,
                           "hands": [["G7"], []]}), rounds) == []


# -- the challenged hand of a Wild Draw Four (classic UNO, settled point 9) -------------


async def test_a_challenged_hand_goes_to_the_challenger_only_and_until_the_next_action(
        tmp_path: Path) -> None:
    rounds = Rounds()
    with running(tmp_path, "--players", "2", "--humans", "Ann,Bob", "--option",
                 "rules=classic", "--seed", "8", "--bot-delay", "0",
                 "--round-pause", "60") as host:
        async with client(host) as c:
            t = await c.table()
            for _ in range(500):
                actor = await t.turn_or_end()
                assert actor is not None, "the round ended before a Wild Draw Four came"
                rounds.note(t)
                legal = actor.view["legal"]
                if "challenge" in legal:
                    break
                wild4 = [a for a in legal if a.startswith("play W+4")]
                action = wild4[0] if wild4 else moving_on(legal)
                if action.startswith("play"):
                    rounds.public[-1].add(action.split()[1])
                await t.move(actor, action)
            challenger, bluffer = actor, t.seats[1 - actor.seat]
            hand = bluffer.view["hand"]
            marks = {conn: conn.mark() for conn in c.conns}
            before = challenger.view
            await challenger.act("challenge")
            shown = await challenger.next("view", marks[challenger],
                                          lambda m: m["log"] != before["log"])
            assert shown["revealed"] == {"seat": bluffer.seat, "hand": hand}
            nxt = await t.to_act()
            mark = challenger.mark()
            await nxt.act(moving_on(nxt.view["legal"]))  # the next action ends the showing
            later = await challenger.next("view", mark, lambda m: m["log"] != shown["log"])
            assert "revealed" not in later
            for conn in (bluffer, t.watch):
                assert not [m for m in conn.messages[marks[conn]:] if "revealed" in m]
            for conn in c.conns:
                assert leaks(conn, rounds, ("revealed",) if conn is challenger else ()) == []
            assert c.problems == []


# -- acting while the launcher fires ----------------------------------------------------


async def test_acts_sent_while_the_launcher_fires_never_make_a_second_press(
        tmp_path: Path) -> None:
    """An emulated GPIO launcher takes about a quarter of a second to fire three cards:
    the acts that arrive meanwhile are refused (or read once the press is made), never a
    second press, and each ``error`` comes after the press's view (settled point 10)."""
    with running(tmp_path, "--players", "3", "--humans", "Ann,Bob,Cy", "--launcher",
                 "gpio:emulated,scale=2,jams=0", "--policy", "fixed:3",
                 "--bot-delay", "0") as host:
        async with client(host) as c:
            t = await c.table()
            for _ in range(2):
                actor = await t.to_act()
                while actor.view["owed"] or "press" not in actor.view["legal"]:
                    await t.move(actor)  # to a plain turn: after an owed press, another
                    actor = await t.to_act()
                before = actor.view
                step = 1 if before["direction"] == "clockwise" else -1
                last = t.seats[(actor.seat - step) % 3]  # the seat before it
                marks = {conn: conn.mark() for conn in c.conns}
                await actor.act("press")
                await asyncio.gather(actor.act("press"), actor.send_str("{"),
                                     last.act("press"), last.act("fly"), t.watch.act("press"))
                pressed = await actor.next("view", marks[actor],
                                           lambda v, b=before: game(v) != game(b))
                assert pressed["hand_sizes"][actor.seat] == before["hand_sizes"][actor.seat] + 3
                for conn, errors in ((actor, 2), (last, 2), (t.watch, 1)):
                    await conn.count("error", marks[conn], errors)
                first_error = actor.of("error", marks[actor])[0]
                assert actor.messages.index(pressed) < actor.messages.index(first_error)
                assert game(actor.view) == game(pressed)  # nothing else was made
                assert c.problems == []
            await (await t.to_act()).act("press")
            await asyncio.sleep(0.1)  # into the quarter of a second the press takes
            assert host.stop(signal.SIGTERM) == 0  # stopped while firing: a clean end
            for conn in c.conns:
                await asyncio.wait_for(conn.closed.wait(), 10)
                assert conn.close_frame, conn.label


# -- the turn timer and the away rule (VARIANTS.md C, NETWORK.md Reconnect) ------------


async def test_the_turn_timer_presses_for_a_person_and_passes_after_a_press(
        tmp_path: Path) -> None:
    with running(tmp_path, "--players", "2", "--humans", "Ann,Bob", "--launcher", "fixed:1",
                 "--turn-seconds", "1", "--option", "play_after_press=true",
                 "--option", "hand_size=1", "--seed", "3", "--bot-delay", "0") as host:
        async with client(host) as c:
            t = await c.table()
            seen = {"press": False, "pass": False}
            began = None  # when the turn now waiting began, if an act of this test began it
            for _ in range(60):
                actor = await t.to_act()
                before = actor.view
                legal = before["legal"]
                timed = ("pass" if "pass" in legal and not seen["pass"] else
                         "press" if "pass" not in legal and not seen["press"] else None)
                if timed is None or began is None:  # act at once, before the timer does
                    plays = [a for a in legal if a.startswith("play")]
                    action = "pass" if "pass" in legal else "press"
                    if plays and len(before["hand"]) > 1:  # keep hands small, never out
                        action = plays[0] + " uno" * (len(before["hand"]) == 2)
                    v = await t.move(actor, action)
                    began = actor.arrived[actor.messages.index(v)]
                    continue
                after = actor.messages.index(before) + 1
                v = await actor.next("view", after, lambda v, b=before: game(v) != game(b),
                                     timeout=5)
                at = actor.arrived[actor.messages.index(v)]
                assert at - began >= 0.6, f"the timer acted {at - began:.2f} s into the turn"
                began = at
                assert v["top"] == before["top"]  # no play
                assert len(v["hand"]) == len(before["hand"]) + (timed == "press")
                seen[timed] = True
                if all(seen.values()):
                    break
            assert seen == {"press": True, "pass": True}
            assert c.problems == []


async def test_the_turn_timer_names_red_for_a_wild_starter(tmp_path: Path) -> None:
    """A round whose starter is a Wild (the host's own journal, a transcript, with its
    starter swapped for a Wild of its launcher): the timer names red, the first colour."""
    save = tmp_path / "table.json"
    args = ("--players", "2", "--humans", "Ann,Bob", "--seed", "7", "--turn-seconds", "1")
    with running(tmp_path, *args, save=save):
        pass  # dealt and journalled, and stopped before anyone acted
    journal = json.loads(save.read_text())
    assert journal["steps"] == []
    wild = journal["launcher"].index("W")
    journal["launcher"][wild], journal["starter"] = journal["starter"], "W"
    save.write_text(json.dumps(journal))
    with running(tmp_path, "--resume", *args[-2:], save=save) as host:
        async with client(host) as c:
            t = await c.table()
            first = t.watch.view
            assert (first["top"], first["color"]) == ("W", None)
            assert set(t.seats[first["turn"]].view["legal"]) == {
                f"choose {color}" for color in COLORS}
            named = await t.watch.next("view", 0, lambda v: v["color"] is not None, timeout=5)
            assert (named["color"], named["top"]) == ("red", "W")
            assert c.problems == []


async def test_a_bot_plays_for_a_person_away_at_their_turn_and_not_once_they_are_back(
        tmp_path: Path) -> None:
    with running(tmp_path, "--players", "2", "--humans", "Ann,Bob", "--launcher", "fixed:1",
                 "--away-seconds", "1", "--seed", "4", "--bot-delay", "0") as host:
        async with client(host) as c:
            loop = asyncio.get_running_loop()
            t = await c.table()
            actor = await t.to_act()
            away, name = actor.seat, host.seats[actor.seat].name
            here = t.seats[1 - away]
            before = t.watch.view
            await actor.close()
            del t.seats[away]
            gone = loop.time()
            v = await t.watch.next("view", 0, lambda v: game(v)[:-1] != game(before)[:-1])
            assert loop.time() - gone >= 0.6, "a bot stood in before --away-seconds"
            added = [line for line in v["log"] if line not in before["log"]]
            assert any(name in line and ("away" in line or "bot" in line) for line in added)
            for _ in range(6):  # away until back: at each turn of theirs a bot moves
                await t.move(await t.to_act())
                turn_of_away = await c.until(lambda: t.settled() and (
                    t.watch.view["turn"] == away or here.view["legal"]) and t.watch.view)
                if turn_of_away["turn"] == away:
                    mark = t.watch.mark()
                    await t.watch.next("view", mark, lambda v, b=turn_of_away: (
                        game(v)[:-1] != game(b)[:-1]), timeout=5)
                    break
            t.seats[away] = back = await c.seat(away, label="back")
            assert (back.messages[0]["seat"], back.messages[0]["name"]) == (away, name)
            for _ in range(6):
                actor = await t.to_act()
                if actor is back:
                    break
                await t.move(actor)
            assert actor is back
            waiting = back.view
            second = await c.seat(away, label="a second device")
            await second.close()  # one device of theirs stays: they are here
            await asyncio.sleep(1.6)  # past --away-seconds: nobody moves for a person here
            assert game(back.view) == game(waiting)
            await t.move(back)
            assert c.problems == []


# -- the journal, and how a host ends --------------------------------------------------


async def test_a_killed_host_resumes_from_its_journal_with_the_same_tokens_and_game(
        tmp_path: Path) -> None:
    save = tmp_path / "table.json"
    with running(tmp_path, "--players", "2", "--humans", "Ann,Bob", "--launcher", "fixed:1",
                 "--seed", "6", "--bot-delay", "0", save=save) as first:
        async with client(first) as c:
            t = await c.table()
            for _ in range(5):
                actor = await t.to_act()
                plays = [a for a in actor.view["legal"] if a.startswith("play")]
                last = await t.move(actor, plays[0] if plays else None)
            first.kill()  # at once: no time to write anything after the view went out
            hands = {seat: conn.view["hand"] for seat, conn in t.seats.items()}
    with running(tmp_path, "--resume", save=save) as second:
        assert {s: (seat.name, seat.token) for s, seat in second.seats.items()} == {
            s: (seat.name, seat.token) for s, seat in first.seats.items()}
        assert second.watch_token == first.watch_token
        async with client(second) as c:
            t = await c.table()
            assert game(t.seats[actor.seat].view) == game(last)
            assert {seat: conn.view["hand"] for seat, conn in t.seats.items()} == hands
            await t.move(await t.to_act())  # and it goes on
            assert c.problems == []
            assert second.stop(signal.SIGTERM) == 0
            replay = subprocess.run([str(EXE), "replay", str(save)], capture_output=True,
                                    text=True, timeout=60)  # the journal is a transcript
            assert replay.returncode == 0, replay.stdout + replay.stderr
            for conn in c.conns:
                await asyncio.wait_for(conn.closed.wait(), 10)
                assert conn.close_frame, conn.label
                assert conn.close_code in (1000, 1001)


async def test_ctrl_c_closes_every_connection_with_a_close_frame_and_exits_0(
        tmp_path: Path) -> None:
    with running(tmp_path, "--players", "2", "--humans", "Ann,Bob") as host:
        async with client(host) as c:
            conns = [await c.seat(0), await c.seat(1), await c.watch(), await c.watch()]
            assert host.stop(signal.SIGINT) == 0
            for conn in conns:
                await asyncio.wait_for(conn.closed.wait(), 10)
                assert conn.close_frame, conn.label
                assert conn.close_code in (1000, 1001)
            assert not [line for line in host.err if "Traceback" in line], host.err


async def test_with_lan_it_listens_everywhere_and_prints_its_lan_address_and_qr_codes(
        tmp_path: Path) -> None:
    with running(tmp_path, "--lan", "--qr", "--humans", "Ann,Bob") as host:
        def qr_row(line: str) -> bool:
            return "█" in line and set(line) <= set("█▀▄ ")
        host.wait_output(lambda out: sum(map(qr_row, out)) >= 20)  # two codes
        assert listening(host.proc.pid) == [f"0.0.0.0:{host.port}"]
        assert not host.address.startswith("127.")
        labels = [i for i, line in enumerate(host.out) if line in ("join Ann (seat 0)",
                                                                    "join Bob (seat 1)")]
        assert len(labels) == 2
        assert all(qr_row(host.out[i + 1]) for i in labels)  # a code under each join line
        async with client(host) as c:
            ann = await c.open(host.seats[0].token, seat=0, address=host.address)
            assert ann.messages[0]["name"] == "Ann"
            assert c.problems == []
