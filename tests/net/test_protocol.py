"""NETWORK.md through real WebSocket connections to a host on 127.0.0.1: every message
type, every refusal, the limits, tokens, several devices, many watchers."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from pathlib import Path

import aiohttp
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.net.helpers import (
    NOTHING_FIRES,
    connect,
    host_config,
    next_of,
    running_host,
    until,
    url_of,
)
from uno_attack.net.client import TableClient, socket_url
from uno_attack.net.server import (
    MAX_MESSAGE_BYTES,
    MAX_MESSAGES_PER_SECOND,
    REFUSED_PAGE,
    Connection,
)
from uno_attack.refusal import SeatWord
from uno_attack.rules import ATTACK

VIEW_KEYS = {"type", "seq", "turn", "top", "color", "direction", "hand_sizes", "owed",
             "scores", "winner", "log", "tension"}


async def test_hello_and_first_view_of_a_seat_and_of_the_watch(tmp_path: Path) -> None:
    config = host_config(tmp_path, options=["target=300"])
    async with running_host(config) as host:
        ann = TableClient(url_of(host, "Ann"))
        hello = await ann.connect()
        cards = hello.pop("cards")  # the rule set's card kinds, for the page
        assert hello == {"type": "hello", "seat": 0, "name": "Ann",
                         "players": ["Ann", "Bob", "Ada"], "options": {"target": 300},
                         "people": [0, 1], "table": {"title": "UNO Attack",
                                                     "match": "points match to 300",
                                                     "house_rules": []}}
        assert cards == ATTACK.card_kinds
        assert cards["H"] == {"name": "Hit 2", "short": "Hit2", "sign": "+2",
                              "effect": "the next player presses twice and loses the turn"}
        assert list(cards) == list(dict.fromkeys(card.symbol for card in ATTACK.deck))
        view = await next_of(ann, "view")
        game = host.flow.game
        assert view.keys() >= VIEW_KEYS
        assert view["seq"] == 1
        assert view["hand"] == [c.code for c in game.hands[0]]
        assert view["hand_sizes"] == [len(h) for h in game.hands]
        assert view["top"] == game.top.code
        assert view["turn"] == game.to_act
        assert view["scores"] == [0, 0, 0]
        assert view["winner"] is None
        assert isinstance(view["legal"], list)
        assert len(view["log"]) <= 10
        assert all(isinstance(line, str) for line in view["log"])
        watch = TableClient(url_of(host, None))
        assert await watch.connect() == {"type": "hello", "seat": None, "name": None,
                                         "players": ["Ann", "Bob", "Ada"],
                                         "options": {"target": 300}, "people": [0, 1],
                                         "cards": cards, "table": hello["table"]}
        seen = await next_of(watch, "view")
        assert "hand" not in seen
        assert "legal" not in seen
        assert seen["hand_sizes"] == view["hand_sizes"]
        for client in (ann, watch):
            await client.close()


async def test_an_act_sends_a_view_to_every_connection_with_seq_in_order(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path, humans=("Ann", "Bob"), players=2)) as host:
        clients = {n: await connect(url_of(host, n)) for n in ("Ann", "Bob")}
        watch = await connect(url_of(host, None))
        seat = host.flow.game.to_act
        name = ["Ann", "Bob"][seat]  # type: ignore[index]
        actor = clients[name]
        plays = [a for a in actor.view["legal"] if a.startswith("play")]  # type: ignore[index]
        await actor.act(plays[0] if plays else "press")
        # one change, one view; Bob's arrival was a change for Ann (her view's connected)
        for client, seq in ((clients["Ann"], 3), (clients["Bob"], 2), (watch, 2)):
            view = await until(client, lambda v: v["busy"] is None and any(
                line.startswith(f"{name} p") for line in v["log"]))
            assert view["seq"] == client.seq == seq
            assert view["connected"] == [0, 1]
            assert view["hand_sizes"] == [len(h) for h in host.flow.game.hands]
            assert view["top"] == host.flow.game.top.code
        assert len(host.flow.session.table.record.steps) == 1  # type: ignore[union-attr]
        for client in (*clients.values(), watch):
            await client.close()


async def test_an_illegal_act_gets_an_error_naming_the_rule_and_changes_nothing(
        tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        game = host.flow.game
        seat = game.to_act
        other = 1 if seat == 0 else 0
        name = ["Ann", "Bob"][other]
        client = await connect(url_of(host, name))
        before = game.snapshot()
        await client.act("press")
        error = await next_of(client, "error")
        # worded for its person: the others by name, this one as "you"
        assert error["message"] == (f"illegal action '{other} press': it is "
                                    f"{['Ann', 'Bob'][seat]}'s turn, not yours (RULES.md 4)")
        # in a player's words, citing no rule book
        assert error["plain"] == f"it is {['Ann', 'Bob'][seat]}'s turn, not yours"
        # its facts: the rule, the seats, and the parts a client words with names
        assert error["rule"] == "RULES.md 4"
        assert error["seats"] == [seat, other]
        assert error["parts"] == (f"illegal action '{other} press': it is ", SeatWord(seat, "'s"),
                                  " turn, not ", SeatWord(other, "yours"), " (RULES.md 4)")
        await client.act("play R0")
        error = await next_of(client, "error")
        assert "invalid card" in error["message"]
        assert error["parts"] == (error["message"],)
        assert "rule" not in error
        assert error["plain"] is None  # not understood: the message is all there is
        assert game.snapshot() == before
        assert client.seq == 1  # no view: nothing changed
        await client.close()


@pytest.mark.parametrize(("message", "says"), [
    ("not json", "not a JSON object"),
    ("[1, 2]", "expected"),
    ('{"type": "hello"}', "expected"),
    ('{"type": "act"}', "'action' must be a string"),
    ('{"type": "act", "action": 5}', "'action' must be a string"),
    ('{"type": "act", "action": "dance"}', "unknown verb"),
    ('{"type": "act", "action": ""}', "missing verb"),
    ("[" * 2000 + "]" * 2000, "not a JSON object"),
    ('{"type": "act", "action": "play R5 R5 R5 R5 R5 R5 uno uno"}', "not understood"),
])
async def test_a_message_that_is_not_understood_gets_an_error(tmp_path: Path, message: str,
                                                              says: str) -> None:
    async with running_host(host_config(tmp_path)) as host:
        client = await connect(url_of(host, "Ann"))
        await client._ws.send_str(message)  # type: ignore[union-attr]
        assert says in (await next_of(client, "error"))["message"]
        await client.close()


async def test_a_watcher_cannot_act(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        watch = await connect(url_of(host, None))
        await watch.act("press")
        assert (await next_of(watch, "error"))["message"] == "a watcher cannot act"
        await watch.close()


async def test_binary_and_oversized_messages_get_an_error_and_the_connection_stays(
        tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        client = await connect(url_of(host, "Ann"))
        ws = client._ws
        assert ws is not None
        await ws.send_bytes(b'{"type": "act", "action": "press"}')
        assert "binary" in (await next_of(client, "error"))["message"]
        padding = MAX_MESSAGE_BYTES - len('{"type":"act","action":"x","pad":""}') + 1
        big = json.dumps({"type": "act", "action": "x", "pad": "p" * padding},
                         separators=(",", ":"))
        assert len(big.encode()) == MAX_MESSAGE_BYTES + 1
        await ws.send_str(big)
        assert "too long" in (await next_of(client, "error"))["message"]
        exactly = big[:-3] + '"}'  # 4096 bytes: read, and refused for its content only
        assert len(exactly.encode()) == MAX_MESSAGE_BYTES
        await ws.send_str(exactly)
        assert "unknown verb" in (await next_of(client, "error"))["message"]
        huge = "é" * 3000  # 6000 bytes in 3000 characters: bytes are counted
        await ws.send_str(huge)
        assert "6000 bytes" in (await next_of(client, "error"))["message"]
        assert not ws.closed
        await client.close()


async def test_each_message_beyond_the_twentieth_in_a_second_gets_an_error(
        tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        client = await connect(url_of(host, "Ann"))
        ws = client._ws
        assert ws is not None
        for _ in range(25):  # all within a second: a burst of unknown verbs
            await ws.send_str('{"type": "act", "action": "dance"}')
        messages = [await next_of(client, "error") for _ in range(25)]
        texts = [m["message"] for m in messages]
        assert sum("unknown verb" in t for t in texts) == 20
        assert sum("too many messages" in t for t in texts) == 5
        assert all("too many" in t for t in texts[20:])
        assert not ws.closed
        await client.close()


@given(st.lists(st.floats(min_value=0, max_value=0.2), min_size=1, max_size=80))
def test_the_rate_window_refuses_exactly_the_messages_beyond_the_twentieth_in_a_second(
        gaps: list[float]) -> None:
    times = [sum(gaps[: i + 1]) for i in range(len(gaps))]
    conn = Connection.__new__(Connection)
    conn.recent = deque()
    for i, now in enumerate(times):
        within = sum(1 for t in times[: i + 1] if t > now - 1.0)  # itself included
        assert conn.allowed(now) == (within <= MAX_MESSAGES_PER_SECOND)


async def test_errors_never_overtake_the_view_of_an_earlier_change(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path, humans=("Ann", "Bob"), players=2,
                                        seed=4)) as host:
        seat = host.flow.game.to_act
        name = ["Ann", "Bob"][seat]  # type: ignore[index]
        client = await connect(url_of(host, name))
        play = next(a for a in client.view["legal"] if a.startswith("play"))  # type: ignore[index]
        ws = client._ws
        assert ws is not None
        await ws.send_str(json.dumps({"type": "act", "action": play}))
        await ws.send_str(json.dumps({"type": "act", "action": play}))  # the card is gone now
        kinds = []
        while "error" not in kinds:
            kinds.append((await next_of_any(client))["type"])
        assert kinds == ["view", "error"]
        assert client.view is not None
        assert client.view["top"] == play.split()[1]


async def next_of_any(client: TableClient) -> dict:
    return await asyncio.wait_for(client.receive(), 10)


@pytest.mark.parametrize("path", ["/", "/ws"])
@pytest.mark.parametrize("token", [None, "", "wrong", "x" * 24])
async def test_no_or_a_wrong_token_is_refused_with_403_and_nothing_else(
        tmp_path: Path, path: str, token: str | None) -> None:
    async with running_host(host_config(tmp_path)) as host:
        base = url_of(host, None).split("/?")[0]
        query = "" if token is None else f"?token={token}"
        headers = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="} if path == "/ws" else {}
        async with aiohttp.ClientSession() as http, \
                http.get(f"{base}{path}{query}", headers=headers) as response:
            assert response.status == 403
            body = await response.read()
        assert host.server.connections == []
    if path == "/ws":
        assert body == b""
    else:  # a person followed the link: the same page for every wrong token
        assert body == REFUSED_PAGE.encode()


def test_the_page_for_a_wrong_link_says_what_happened_and_what_to_do() -> None:
    text = " ".join(REFUSED_PAGE.split())
    assert '<html lang="en">' in text  # the table page's language
    assert "This link does not open a table" in text
    assert "earlier game" in text
    assert "Ask the host for your link again" in text


async def test_a_valid_token_gets_the_page(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host, aiohttp.ClientSession() as http:
        for url in (url_of(host, "Ann"), url_of(host, None)):
            async with http.get(url) as response:
                assert response.status == 200
                text = await response.text()
                assert '<script type="module" src="/static/app.js">' in text
        base = url_of(host, None).split("/?")[0]
        for asset in ("app.js", "cards.js", "connection.js", "style.css"):
            async with http.get(f"{base}/static/{asset}") as response:
                assert response.status == 200


def test_tokens_are_long_random_and_distinct(tmp_path: Path) -> None:
    from uno_attack.net.host import open_session
    config = host_config(tmp_path, humans=("Ann", "Bob", "Cy"), players=4)
    session = open_session(config)
    assert session.tokens is not None
    tokens = [*session.tokens.seats.values(), session.tokens.watch]
    assert len(tokens) == len(set(tokens)) == 4
    assert all(len(t) * 6 >= 128 for t in tokens)  # URL-safe base64: 6 bits a character
    assert sorted(session.tokens.seats) == [0, 1, 2]
    session.close()


async def test_one_token_on_several_devices_each_gets_the_seats_views(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path, humans=("Ann", "Bob"), players=2,
                                        launcher=NOTHING_FIRES)) as host:
        seat = host.flow.game.to_act
        name = ["Ann", "Bob"][seat]  # type: ignore[index]
        phone, laptop = await connect(url_of(host, name)), await connect(url_of(host, name))
        assert phone.hello == laptop.hello
        await laptop.act("press")
        for device in (phone, laptop):
            view = await until(device, lambda v: v["turn"] != seat and v["busy"] is None)
            assert view["hand"] == [c.code for c in host.flow.game.hands[seat]]  # type: ignore[index]
        await phone.close()
        await laptop.close()


async def test_a_hundred_watchers_all_see_every_change(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path, humans=("Ann",), players=2,
                                        launcher=NOTHING_FIRES)) as host:
        watchers = [await connect(url_of(host, None)) for _ in range(100)]
        ann = await connect(url_of(host, "Ann"))
        await until(ann, lambda v: v["turn"] == 0 and bool(v["legal"]))
        await ann.act("press")
        for w in watchers:
            view = await until(w, lambda v: (len(v["log"]) >= 2 and "Ann pressed" in v["log"][-1])
                               or any("Ann pressed" in line for line in v["log"]))
            assert view["seq"] == w.seq
        assert len({w.view["log"][-1] for w in watchers}) == 1  # type: ignore[index]
        for client in (*watchers, ann):
            await client.close()


def test_socket_url_of_a_join_url() -> None:
    assert socket_url("http://192.168.1.5:8765/?token=abc") == "ws://192.168.1.5:8765/ws?token=abc"
    assert socket_url("https://table.example/?token=a-b_c") == "wss://table.example/ws?token=a-b_c"
    for bad in ("192.168.1.5:8765", "http://h:1/", "ftp://h/?token=x", "http://[::1/?token=a",
                "http://:80/?token=a", "http://h:x/?token=a", "http://h:99999/?token=a"):
        with pytest.raises(ValueError, match=r"join URL|token"):
            socket_url(bad)


async def test_a_connection_that_stops_reading_is_cut_off_without_a_close_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A close frame would wait for ever on a peer that does not read (holding its backlog
    and stopping its heartbeat): the transport is aborted instead."""
    import uno_attack.net.server as server

    class Transport:
        aborted = False

        def abort(self) -> None:
            self.aborted = True

    class StuckSocket:
        """A peer that never takes what is sent (its network vanished)."""

        def __init__(self) -> None:
            self.closed_with: int | None = None
            self.sent = 0

        async def send_str(self, text: str) -> None:
            self.sent += 1
            await asyncio.Event().wait()

        async def close(self, *, code: int, message: bytes) -> None:
            self.closed_with = code

    monkeypatch.setattr(server, "MAX_BACKLOG", 5)
    ws, transport = StuckSocket(), Transport()
    conn = Connection(ws, None, "test", transport)  # type: ignore[arg-type]
    for _ in range(7):
        conn.deliver(conn.next_view('{"type":"view"}'))
    await asyncio.sleep(0)
    assert transport.aborted
    assert ws.closed_with is None  # no close frame to wait on
    assert conn.too_slow
    assert conn.writer.cancelled()


async def test_a_message_that_arrives_while_the_launcher_fires_keeps_only_its_error(
        tmp_path: Path) -> None:
    """Oversized, binary and over-the-rate messages are refused as they arrive: while a
    press is being fired, what waits for its view is the error, never the message's bytes;
    the errors still come after the press's view, in order."""
    async with running_host(host_config(tmp_path)) as host, aiohttp.ClientSession() as http, \
            http.ws_connect(socket_url(url_of(host, "Ann"))) as ws:
        for _ in range(2):  # the hello and the first view
            await ws.receive(timeout=10)
        host.flow.busy = 0  # a press being fired
        big = "x" * (MAX_MESSAGE_BYTES * 64)
        for _ in range(MAX_MESSAGES_PER_SECOND):
            await ws.send_str(big)
        await ws.send_bytes(b"\x00")
        await ws.send_str('{"type": "act", "action": "press"}')  # beyond the rate
        conn = host.server.connections[-1]
        while len(conn.waiting) < MAX_MESSAGES_PER_SECOND + 2:
            await asyncio.sleep(0.01)
        assert all(isinstance(item, str) for item in conn.waiting)
        host.flow.busy = None
        host.server.changed([])  # the press's view
        assert json.loads((await ws.receive(timeout=10)).data)["type"] == "view"
        errors = [json.loads((await ws.receive(timeout=10)).data)["message"]
                  for _ in range(MAX_MESSAGES_PER_SECOND + 2)]
    assert all(e.startswith("message too long") for e in errors[:-2])
    assert errors[-2].startswith("too many messages")
    assert errors[-1].startswith("too many messages")
