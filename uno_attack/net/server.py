"""The host's web server: the table page and the WebSocket protocol of NETWORK.md.

One aiohttp application in the host's asyncio process. ``GET /?token=T`` serves the page,
``/ws?token=T`` speaks JSON: a ``hello`` and a ``view`` on connecting, a ``view`` to every
connection after every change, an ``error`` for anything refused. Each connection has one
ordered outgoing queue and its own ``seq``, and a message that arrives while the launcher
fires a press waits for that press's view, so an ``error`` never overtakes the ``view`` of
an earlier change. What a connection may see is decided in :mod:`uno_attack.views` only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import deque
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMessage, WSMsgType, web

from uno_attack import views
from uno_attack.errors import ActRefused
from uno_attack.flow import TableFlow
from uno_attack.net.lobby import Lobby
from uno_attack.net.table_rules import table_rules
from uno_attack.refusal import parts_json, say
from uno_attack.wording import YOU

STATIC_DIR = Path(__file__).parent / "static"
#: The page for a link with no valid token: what happened and what to do, the same for
#: every wrong token (it never says whether a table is here).
REFUSED_PAGE = (STATIC_DIR / "refused.html").read_text(encoding="utf-8")
_PAGE_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                 "Content-Security-Policy": "default-src 'self'; connect-src 'self'"}
#: Limits of NETWORK.md: message size (bytes) and rate (messages in any one second).
MAX_MESSAGE_BYTES = 4096
MAX_MESSAGES_PER_SECOND = 20
#: A frame above this is refused by aiohttp with the connection (1009) before it is read
#: (protects memory); a message between MAX_MESSAGE_BYTES and this gets an ``error`` and
#: the connection stays. Only its size is kept once it has arrived.
MAX_FRAME_BYTES = 16 << 20
#: Messages of one connection waiting for a press to be fired; past this it is closed.
MAX_WAITING = 2000
#: Messages waiting for a connection that does not read them; past this it is cut off (it
#: can reconnect and gets a fresh view). A view waiting shares its text with every other
#: connection of its seat, so a backlog costs little more than its count.
MAX_BACKLOG = 5000
#: Every connection is pinged this often; one that does not answer within half of it is
#: cut off (a phone that vanished).
HEARTBEAT_SECONDS = 10.0
#: How long a close handshake may take before the connection is cut off instead.
CLOSE_SECONDS = 5.0

_JSON = {"separators": (",", ":"), "ensure_ascii": False}


def new_token() -> str:
    """A secret token: 144 random bits, URL-safe."""
    return secrets.token_urlsafe(18)


def wire_text(item: str | tuple[int, str]) -> str:
    """The text sent for a queued message: its JSON, or a view's body with its seq."""
    if isinstance(item, str):
        return item
    seq, body = item
    return f'{{"seq":{seq},{body[1:]}'


class Connection:
    """One WebSocket: who it is, its ``seq``, its outgoing queue and its rate window."""

    def __init__(self, ws: web.WebSocketResponse, player: int | None, peer: str,
                 transport: asyncio.Transport | None = None, *,
                 after_saves: Callable[[Callable[[], None]], None] = lambda send: send(),
                 ) -> None:
        self.ws = ws
        self.after_saves = after_saves  # see TableServer.after_saves
        self.player = player  # the match player, None for a watcher
        self.peer = peer
        self.transport = transport
        self.seq = 0
        self.hello = ""
        #: what to send, in order: a message's JSON, or a view's seq and shared body
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.too_slow = False
        self.recent: deque[float] = deque()
        #: messages behind a press being fired: the error each gets, or the message
        self.waiting: deque[str | bytes] = deque()
        self.drainer: asyncio.Task[None] | None = None
        self.writer = asyncio.create_task(self._write())

    def next_view(self, body: str) -> tuple[int, str]:
        """A view to :meth:`deliver` (``body`` is its JSON without the connection's
        ``seq``), with the connection's next ``seq``."""
        self.seq += 1
        return self.seq, body

    def send(self, message: Mapping[str, Any]) -> None:
        self._put(json.dumps(message, **_JSON))  # type: ignore[arg-type]

    def error(self, text: str, refused: ActRefused | None = None,
              plain: str | None = None) -> None:
        """An ``error``: one line; for a refused act also its parts (the seats it names, for
        a client to name them) and, when the rules refused it, the rule, the seats and the
        sentence in plain words (``plain``: the rule not cited, for a player)."""
        message: dict[str, Any] = {"type": "error", "message": " ".join(text.split())}
        if refused is not None:
            message["parts"] = parts_json(refused.parts)
            if refused.refusal is not None:
                message["rule"] = refused.refusal.rule
                message["seats"] = list(refused.refusal.seats)
        if plain is not None:
            message["plain"] = plain
        self.send(message)

    def _put(self, item: str | tuple[int, str]) -> None:
        self.after_saves(partial(self.deliver, item))

    def deliver(self, item: str | tuple[int, str]) -> None:
        """Queue a message for the peer now (see :attr:`TableServer.after_saves`)."""
        if self.too_slow:
            return
        if self.queue.qsize() >= MAX_BACKLOG:  # a reader this far behind is let go
            self.too_slow = True
            self.cut_off()
            return
        self.queue.put_nowait(item)

    def cut_off(self) -> None:
        """End the connection at once, without a close handshake: a peer that does not
        read would never take a close frame, and waiting for it would hold its backlog
        (and stop the heartbeat) for good."""
        self.writer.cancel()
        if self.transport is not None:
            self.transport.abort()

    def allowed(self, now: float) -> bool:
        """Whether one more message now stays within the rate limit (sliding window)."""
        recent = self.recent
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        recent.append(now)
        return len(recent) <= MAX_MESSAGES_PER_SECOND

    async def _write(self) -> None:
        while True:
            item = await self.queue.get()
            try:
                await self.ws.send_str(wire_text(item))
            except (ConnectionError, RuntimeError):
                return  # the peer is gone; the reader sees the close

    async def close(self, code: int, message: bytes) -> None:
        """A close handshake, or a cut-off for a peer that does not take it in time."""
        if self.drainer is not None:
            self.drainer.cancel()
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer
        try:
            await asyncio.wait_for(self.ws.close(code=code, message=message), CLOSE_SECONDS)
        except TimeoutError:
            self.cut_off()


class TableServer:
    """The page and the WebSocket endpoint of one table; broadcasts the flow's changes."""

    def __init__(self, flow: TableFlow, seat_tokens: Mapping[int, str], watch_token: str, *,
                 log: Callable[[str], None] = print,
                 heartbeat: float = HEARTBEAT_SECONDS) -> None:
        self.flow = flow
        self.heartbeat = heartbeat
        self.seat_tokens = dict(seat_tokens)  # match player -> token
        self.watch_token = watch_token
        self.log = log
        self.connections: list[Connection] = []
        #: the seats filling before the deal, while the host holds one (see Host.start)
        self.lobby: Lobby | None = None
        self._round = -1
        self._change = asyncio.Event()  # set (and renewed) after every change
        #: sends each message once the journal holds what it shows (a host's journal is
        #: written off the loop), in the order asked; at once by default
        self.after_saves: Callable[[Callable[[], None]], None] = lambda send: send()
        flow.on_change = self.changed
        self.app = web.Application()
        self.app.router.add_get("/", self.page)
        self.app.router.add_get("/ws", self.websocket)
        self.app.router.add_static("/static/", STATIC_DIR)
        self.app.on_shutdown.append(self._close_all)

    # -- who is who ---------------------------------------------------------------------
    def who(self, token: str | None) -> tuple[bool, int | None]:
        """(known, match player or None for the watch) for a token."""
        if not token:
            return False, None
        found: tuple[bool, int | None] = (False, None)
        for player, secret in self.seat_tokens.items():
            if secrets.compare_digest(token.encode(), secret.encode()):
                found = (True, player)
        if secrets.compare_digest(token.encode(), self.watch_token.encode()):
            found = (True, None)
        return found

    def _hello(self, player: int | None) -> str:
        flow = self.flow
        seat = flow.seat_of(player) if player is not None else None
        names = flow.seat_names()
        people = [s for s in range(len(names)) if flow.is_human(s)]
        options = flow.session.match.options
        message: dict[str, Any] = dict(views.hello(seat, names, options, people))
        message["table"] = table_rules(options)
        return json.dumps(message, **_JSON)  # type: ignore[arg-type]

    # -- HTTP -----------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.StreamResponse:
        known, _ = self.who(request.query.get("token"))
        if not known:  # a person followed a wrong or old link: say so, and what to do
            return web.Response(status=403, text=REFUSED_PAGE, content_type="text/html",
                                headers=_PAGE_HEADERS)
        return web.FileResponse(STATIC_DIR / "index.html", headers=_PAGE_HEADERS)

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        known, player = self.who(request.query.get("token"))
        if not known:
            return web.Response(status=403)
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME_BYTES, heartbeat=self.heartbeat,
                                   decode_text=False)  # bad UTF-8 gets an error, not a close
        await ws.prepare(request)
        conn = Connection(ws, player, request.remote or "?", request.transport,
                          after_saves=self.after_saves)
        conn.hello = self._hello(player)
        conn.send(json.loads(conn.hello))
        arrived = player is not None and not self._connected(player)
        self.connections.append(conn)
        self.log(f"{self._label(conn)} joined from {conn.peer}")
        if player is not None:
            self.flow.present(player, True)
            if self.lobby is not None:
                self.lobby.seat_taken()
        if conn.seq == 0:  # no change was sent: this one still gets its view, and the others
            self._send_views(self.connections if arrived else [conn])  # see the seat come
        try:
            await self._read(conn)
        finally:
            self.connections.remove(conn)
            self.log(f"{self._label(conn)} left")
            if player is not None and not self._connected(player):
                self.flow.present(player, False)
                self._send_views(self.connections)  # the others see the seat go
            if conn.drainer is not None:
                conn.drainer.cancel()
            conn.writer.cancel()
            transport = request.transport
            if transport is not None and transport.get_write_buffer_size() > 0:
                transport.abort()  # what is left would wait for a peer that does not read
        return ws

    def _connected(self, player: int) -> bool:
        return any(c.player == player for c in self.connections)

    def _label(self, conn: Connection) -> str:
        if conn.player is None:
            return "a watcher"
        seat = self.flow.seat_of(conn.player)
        return f"{self.flow.session.names[conn.player]} (seat {seat})"

    async def _read(self, conn: Connection) -> None:
        loop = asyncio.get_running_loop()
        async for msg in conn.ws:
            if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                continue
            # refused (rate, kind, size) as it arrives: a waiting message keeps only its error
            item = self._refusal(conn, loop.time(), msg) or msg.data
            if conn.drainer is None and self.flow.busy is None:
                self._take(conn, item)
            elif len(conn.waiting) >= MAX_WAITING:
                await conn.close(WSCloseCode.POLICY_VIOLATION, b"too many messages")
                return
            else:  # the press being fired is a change decided before this message
                conn.waiting.append(item)
                if conn.drainer is None:
                    conn.drainer = loop.create_task(self._drain(conn))

    async def _drain(self, conn: Connection) -> None:
        """Take a connection's waiting messages in order, each once no press is firing."""
        try:
            while conn.waiting:
                while self.flow.busy is not None:
                    await self._change.wait()
                self._take(conn, conn.waiting.popleft())
        finally:
            conn.drainer = None

    @staticmethod
    def _refusal(conn: Connection, received: float, msg: WSMessage) -> str:
        """The error a message gets whatever the table's state, or "" for none."""
        if not conn.allowed(received):
            return (f"too many messages: at most {MAX_MESSAGES_PER_SECOND} in any one "
                    "second; this one was ignored")
        if msg.type is WSMsgType.BINARY:
            return ("not understood: binary frames are not accepted; send a JSON text "
                    "frame such as {\"type\": \"act\", \"action\": \"press\"}")
        size = len(msg.data)
        if size > MAX_MESSAGE_BYTES:
            return f"message too long: {size} bytes, at most {MAX_MESSAGE_BYTES}; it was ignored"
        return ""

    def _take(self, conn: Connection, item: str | bytes) -> None:
        """Answer a message: its error (a ``str``) or what it asks for (its ``bytes``)."""
        if isinstance(item, str):
            conn.error(item)
        else:
            self._message(conn, item)

    def _message(self, conn: Connection, data: bytes) -> None:
        try:
            message = json.loads(data.decode())
        except UnicodeDecodeError:
            conn.error("not understood: a text frame must be UTF-8")
            return
        except (ValueError, RecursionError):  # nesting deep enough to exhaust the parser
            conn.error("not understood: not a JSON object")
            return
        if not isinstance(message, dict) or message.get("type") != "act":
            conn.error('not understood: expected {"type": "act", "action": "..."}')
            return
        action = message.get("action")
        if not isinstance(action, str):
            conn.error("not understood: 'action' must be a string such as \"play R5\"")
            return
        if conn.player is None:
            conn.error("a watcher cannot act")
            return
        seat = self.flow.seat_of(conn.player)
        if seat is None:
            conn.error("you are out of the match: watching only")
            return
        if self.lobby is not None and self.lobby.open:
            conn.error(self.lobby.refusal())
            return
        try:
            self.flow.act(seat, action)
        except ActRefused as exc:  # worded for its person: "not yours", by the others' names
            names = self.flow.seat_names()
            names[seat] = YOU
            conn.error(say(exc.parts, names), exc,
                       exc.refusal.plainly(names) if exc.refusal is not None else None)

    # -- broadcasting ---------------------------------------------------------------------
    def changed(self, lines: list[str]) -> None:
        """The flow changed something: every connection gets its view, in order (each
        message goes out once the journal holds what it shows: :attr:`after_saves`)."""
        for line in lines:
            self.log(line)
        round_no = self.flow.session.match.round_no
        if round_no != self._round:  # a new round may seat the players anew (elimination)
            self._round = round_no
            for conn in self.connections:
                hello = self._hello(conn.player)
                if hello != conn.hello:
                    conn.hello = hello
                    conn.send(json.loads(hello))
        self._send_views(self.connections)
        self._change.set()  # messages waiting for a press to be fired may go on
        self._change = asyncio.Event()

    def _send_views(self, connections: list[Connection]) -> None:
        """Each connection's view, its JSON made once per seat; all of them go out at once
        when the journal holds the change (one wait, not one per watcher), the people at
        the table first (a watcher does nothing with it)."""
        flow = self.flow
        game = flow.game
        facts = flow.facts()
        lobby = self.lobby.fields() if self.lobby is not None and self.lobby.open else None
        bodies: dict[int | None, str] = {}
        ready: list[tuple[Connection, tuple[int, str]]] = []
        for conn in sorted(connections, key=lambda c: c.player is None):
            seat = flow.seat_of(conn.player) if conn.player is not None else None
            body = bodies.get(seat)
            if body is None:
                view: dict[str, Any] = dict(views.view(game, facts, seat))
                if lobby is not None:  # nothing may be done before the deal
                    view["lobby"] = lobby
                    if "legal" in view:
                        view["legal"] = []
                body = json.dumps(view, **_JSON)  # type: ignore[arg-type]
                bodies[seat] = body
            ready.append((conn, conn.next_view(body)))
        self.after_saves(partial(_deliver_all, ready))

    async def _close_all(self, app: web.Application) -> None:
        """Shutting down: every connection gets a close frame (1001, going away)."""
        await asyncio.gather(*(conn.close(WSCloseCode.GOING_AWAY, b"the host is closing")
                               for conn in list(self.connections)), return_exceptions=True)


def _deliver_all(ready: list[tuple[Connection, tuple[int, str]]]) -> None:
    for conn, item in ready:
        conn.deliver(item)
