"""A client of a hosted table (NETWORK.md): connect with a token, read ``hello`` and
``view`` messages, send acts, and reconnect with backoff when the connection drops.

Used by ``uno-attack join``, the tests and the load benchmark. It checks what NETWORK.md
promises a client: every message is one JSON object, and each connection's ``seq`` runs
1, 2, 3 … with no gap.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import aiohttp

from uno_attack.errors import UnoAttackError

Message = dict[str, Any]


class JoinError(UnoAttackError):
    """A join URL that is not one, or a host that refused or could not be reached."""


class ProtocolError(UnoAttackError):
    """The host broke NETWORK.md (a gap in ``seq``, a message that is not JSON …)."""


def socket_url(url: str) -> str:
    """The WebSocket URL of a join or watch URL: ``http://h:p/?token=T`` →
    ``ws://h:p/ws?token=T``."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise JoinError(f"{url!r} is not a join URL (expected http://HOST:PORT/?token=...)")
    token = parse_qs(parts.query).get("token")
    if not token or not token[0]:
        raise JoinError(f"{url!r} has no ?token=...: copy the whole join URL the host printed")
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, "/ws", urlencode({"token": token[0]}), ""))


class TableClient:
    """One connection to a table; :meth:`connect` again after a drop (a new ``seq`` run).

    ``hello`` and ``view`` hold the latest of each; ``errors`` every error's message.
    """

    def __init__(self, url: str, *, http: aiohttp.ClientSession | None = None) -> None:
        self.url = socket_url(url)
        self._http = http
        self._own_http = http is None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self.hello: Message | None = None
        self.view: Message | None = None
        self.errors: list[str] = []
        self.seq = 0

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
                raise JoinError("the host refused this token (HTTP 403): check the URL") from None
            raise JoinError(f"the host answered HTTP {exc.status}") from None
        except (aiohttp.ClientError, OSError) as exc:
            raise JoinError(f"cannot reach the host at {self.url.split('?')[0]}: {exc}") from None
        self.seq = 0
        message = await self.receive()
        if message.get("type") != "hello":
            raise ProtocolError(f"the first message was not a hello: {message}")
        return message

    async def receive(self, timeout: float | None = None) -> Message:
        """The next message; raises :class:`ConnectionError` when the connection closed."""
        ws = self._ws
        if ws is None:
            raise ConnectionError("not connected")
        msg = await ws.receive(timeout=timeout)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING,
                        aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            raise ConnectionError(f"the host closed the connection ({ws.close_code})")
        if msg.type is not aiohttp.WSMsgType.TEXT:
            raise ProtocolError(f"the host sent a {msg.type.name} frame")
        try:
            message = json.loads(msg.data)
        except ValueError:
            raise ProtocolError(
                f"the host sent something that is not JSON: {msg.data[:80]!r}") from None
        if not isinstance(message, dict):
            raise ProtocolError(f"the host sent {message!r}, not a JSON object")
        kind = message.get("type")
        if kind == "hello":
            self.hello = message
        elif kind == "view":
            if message.get("seq") != self.seq + 1:
                raise ProtocolError(f"seq {message.get('seq')} after {self.seq}: a gap")
            self.seq += 1
            self.view = message
        elif kind == "error":
            self.errors.append(str(message.get("message")))
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

        A refused token ends it with :class:`JoinError`: trying again would not help.
        """
        delay = first_delay
        while True:
            try:
                yield await self.connect()
                delay = first_delay
                async for message in self.messages():
                    yield message
            except JoinError as exc:
                if "403" in str(exc):
                    raise
            yield {"type": "disconnected", "retry_in": delay}
            await asyncio.sleep(delay)
            delay = min(delay * 2, max_delay)
