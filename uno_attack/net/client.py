"""A client of a hosted table (NETWORK.md): connect with a token, read ``hello`` and
``view`` messages, send acts, and reconnect with backoff when the connection drops.

Used by ``uno-attack join``, the tests and the load benchmark. It checks what NETWORK.md
promises a client: every message is one JSON object in a text frame, the first a ``hello``,
each connection's ``seq`` runs 1, 2, 3 … with no gap, and every ``hello`` and ``view``
holds what its fields should (:mod:`uno_attack.net.checks`); anything else is a
:class:`ProtocolError`, which ends the client, while a dropped connection is reconnected.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import aiohttp
from aiohttp import WebSocketError

from uno_attack.errors import UnoAttackError
from uno_attack.net.checks import (
    ProtocolError,
    Table,
    check_error,
    check_hello,
    check_view,
    shown,
)

Message = dict[str, Any]
__all__ = ["JoinError", "Message", "ProtocolError", "TableClient", "TokenRefused",
           "socket_url"]


class JoinError(UnoAttackError):
    """A join URL that is not one, or a host that refused or could not be reached."""


class TokenRefused(JoinError):
    """The host does not know this token (HTTP 403): a wrong link, or one of an earlier
    table; trying again would not help."""


def socket_url(url: str) -> str:
    """The WebSocket URL of a join or watch URL: ``http://h:p/?token=T`` →
    ``ws://h:p/ws?token=T``."""
    not_one = JoinError(f"{url!r} is not a join URL (expected http://HOST:PORT/?token=...)")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        raise not_one from None
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        raise not_one
    token = parse_qs(parts.query).get("token")
    if not token or not token[0]:
        raise JoinError(f"{url!r} has no ?token=...: copy the whole join URL the host printed")
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, "/ws", urlencode({"token": token[0]}), ""))


def parse(text: str) -> Message:
    """A host's message: one JSON object (NaN and Infinity are not JSON)."""
    def not_json(constant: str) -> None:
        raise ValueError(constant)

    try:
        message = json.loads(text, parse_constant=not_json)
    except (ValueError, RecursionError):  # RecursionError: nested too deep to read
        raise ProtocolError(f"the host sent something that is not JSON: {shown(text)}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"the host sent {shown(message)}, not a JSON object")
    return message


#: How long a host that took the WebSocket has to send its ``hello`` (it sends it at once).
HELLO_TIMEOUT_S = 10.0


def one_line(text: str) -> str:
    """``text`` as one line of printable characters (a host's words are never markup or
    control sequences on the screen)."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


class TableClient:
    """One connection to a table; :meth:`connect` again after a drop (a new ``seq`` run).

    ``hello`` and ``view`` hold the latest of each; ``errors`` every error's message. An
    error's ``parts`` are checked and handed on as :data:`~uno_attack.refusal.Part` values.
    ``hello_timeout``: see :data:`HELLO_TIMEOUT_S`.
    """

    def __init__(self, url: str, *, http: aiohttp.ClientSession | None = None,
                 hello_timeout: float = HELLO_TIMEOUT_S) -> None:
        self.url = socket_url(url)
        self.hello_timeout = hello_timeout
        self._http = http
        self._own_http = http is None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self.hello: Message | None = None
        self.view: Message | None = None
        self.errors: list[str] = []
        self.seq = 0
        self._table: Table | None = None  # what this connection's hello announced

    @property
    def connected(self) -> bool:
        return self._ws is not None and not self._ws.closed

    async def connect(self) -> Message:
        """Open the connection and return its ``hello``."""
        if self._http is None:
            self._http = aiohttp.ClientSession()
        try:
            self._ws = await self._http.ws_connect(self.url, autoping=True, heartbeat=20)
        except aiohttp.WSServerHandshakeError as exc:
            if exc.status == 403:
                raise TokenRefused("the host does not know this link (HTTP 403): it may be "
                                   "mistyped or from an earlier game; ask the host for the "
                                   "link again") from None
            raise JoinError(f"the host answered HTTP {exc.status}") from None
        except (aiohttp.ClientError, OSError) as exc:
            raise JoinError(f"cannot reach the host at {self.url.split('?')[0]}: {exc}") from None
        self.seq = 0
        self._table = None
        try:
            message = await self.receive(timeout=self.hello_timeout)
        except TimeoutError:
            raise JoinError(f"the host at {self.url.split('?')[0]} took the connection but "
                            f"sent no hello within {self.hello_timeout:g} s: it may not be "
                            "a UNO Attack table") from None
        if message.get("type") != "hello":
            raise ProtocolError(f"the host sent {shown(message)} first, not a hello")
        return message

    async def receive(self, timeout: float | None = None) -> Message:
        """The next message; raises :class:`ConnectionError` when the connection closed."""
        ws = self._ws
        if ws is None:
            raise ConnectionError("not connected")
        msg = await ws.receive(timeout=timeout)
        if msg.type is aiohttp.WSMsgType.ERROR and isinstance(msg.data, WebSocketError):
            raise ProtocolError(f"the host broke the WebSocket protocol: {msg.data}")
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING,
                        aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            raise ConnectionError(f"the host closed the connection ({ws.close_code})")
        if msg.type is not aiohttp.WSMsgType.TEXT:
            raise ProtocolError(f"the host sent a {msg.type.name.lower()} frame, not a JSON "
                                "text frame")
        message = parse(msg.data)
        kind = message.get("type")
        if kind == "hello":
            self._table = check_hello(message)
            self.hello = message
        elif kind == "view":
            if self._table is None:
                raise ProtocolError("the host sent a view before its hello")
            seq = message.get("seq")
            if type(seq) is not int or seq != self.seq + 1:
                raise ProtocolError(f"the host sent a view whose seq is {shown(seq)} after "
                                    f"{self.seq}: seq must run 1, 2, 3 … with no gap")
            check_view(message, self._table)
            self.seq += 1
            self.view = message
        elif kind == "error":  # shown as one line of text, whatever it holds
            text = "" if message.get("message") is None else str(message["message"])
            message["message"] = one_line(text)
            plain = message.get("plain")  # the words for a player, if the host sent them
            message["plain"] = one_line(plain) if isinstance(plain, str) and plain else None
            message["parts"] = check_error(message, self._table)  # checked, as Part values
            self.errors.append(message["message"])
        return message

    async def messages(self) -> AsyncIterator[Message]:
        """Every message until the connection closes."""
        while True:
            try:
                yield await self.receive()
            except ConnectionError:
                return

    async def act(self, action: str) -> None:
        """Send an action of this seat, as TRANSCRIPTS.md writes it without the seat."""
        await self.send({"type": "act", "action": action})

    async def send(self, message: Message) -> None:
        if self._ws is None:
            raise ConnectionError("not connected")
        await self._ws.send_str(json.dumps(message))

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
            self._ws = None
        if self._own_http and self._http is not None:
            await self._http.close()
            self._http = None

    async def stay_connected(self, *, first_delay: float = 0.5, max_delay: float = 10.0,
                             ) -> AsyncIterator[Message]:
        """Every message, reconnecting with backoff (doubling up to ``max_delay``) when the
        connection drops; yields ``{"type": "disconnected", "retry_in": s}`` meanwhile.

        A first connection that fails, or a refused token, ends it with
        :class:`JoinError`, and a host that breaks the protocol with
        :class:`ProtocolError`: trying again would not help.
        """
        delay = first_delay
        connected = False
        while True:
            try:
                yield await self.connect()
                connected = True
                delay = first_delay
                async for message in self.messages():
                    yield message
            except JoinError as exc:
                if isinstance(exc, TokenRefused) or not connected:
                    raise
            yield {"type": "disconnected", "retry_in": delay}
            await asyncio.sleep(delay)
            delay = min(delay * 2, max_delay)
