"""``uno-attack join`` against a host that breaks NETWORK.md: a real WebSocket server
(aiohttp, on 127.0.0.1) sends what a malicious or broken host might. Each kind of bad
message ends the client with one line naming what the host sent wrong (and ``join`` with a
non-zero exit), never a traceback; what is safe to pass over is passed over."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType, web
from textual.widgets import Label

from tests.tui.ptygame import PtyGame, game_env
from uno_attack.net.client import TableClient
from uno_attack.net.join_app import JoinApp, RemoteTable

EXE = Path(sys.executable).parent / "uno-attack"
Frame = str | bytes | Callable[[web.WebSocketResponse], Any]


def hello(**change: Any) -> dict[str, Any]:
    return {"type": "hello", "seat": 0, "name": "Ann", "players": ["Ann", "Bob"],
            "options": {}, **change}


def view(seq: int = 1, **change: Any) -> dict[str, Any]:
    message = {"type": "view", "seq": seq, "turn": 0, "top": "R3", "color": "red",
               "direction": "clockwise", "hand_sizes": [2, 2], "owed": [], "scores": [0, 0],
               "winner": None, "log": ["Bob played red 3"], "tension": 0, "round": 1,
               "step": seq, "hand": ["R5", "G7"], "legal": ["play R5", "press"]}
    message.update(change)
    return {k: v for k, v in message.items() if v is not DROP}


DROP = object()  # a field left out


def text(*messages: dict[str, Any]) -> list[Frame]:
    return [json.dumps(m) for m in messages]


def bad_utf8(ws: web.WebSocketResponse) -> Any:
    return ws._writer.send_frame(b'{"type": "\xff"}', WSMsgType.TEXT)  # type: ignore[union-attr]


#: (what the host sends, words of the one line that ends the client)
BAD: dict[str, tuple[list[Frame], str]] = {
    "seq-gap": (text(hello(), view(1), view(3)), "seq is 3 after 1"),
    "not-json": ([*text(hello()), "{nope"], "not JSON: '{nope'"),
    "binary": ([*text(hello()), b"\x00\x01"], "a binary frame"),
    "not-an-object": ([*text(hello()), "[1, 2]"], "[1, 2], not a JSON object"),
    "no-hello-first": (text(view(1)), "sent a view before its hello"),
    "error-first": (text({"type": "error", "message": "x"}), "first, not a hello"),
    "string-seq": (text(hello(), view("1")), "seq is '1' after 0"),  # type: ignore[arg-type]
    "bool-seq": (text(hello(), view(True)), "seq is True after 0"),  # type: ignore[arg-type]
    "deep-nesting": ([*text(hello()), "[" * 100_000 + "]" * 100_000], "not JSON"),
    "nan": ([*text(hello()), json.dumps(view(deadline=float("nan")))], "not JSON"),
    "bad-utf8": ([*text(hello()), bad_utf8], "broke the WebSocket protocol"),
    "too-big": ([*text(hello()), "x" * (5 << 20)], "broke the WebSocket protocol"),
    "unknown-card": (text(hello(), view(hand=["Z9", "G7"])), "'hand' is ['Z9', 'G7']"),
    "unknown-top": (text(hello(), view(top="R99")), "'top' is 'R99'"),
    "hello-players": (text(hello(players="Ann")), "hello whose 'players' is 'Ann'"),
    "hello-seat": (text(hello(seat=2)), "hello whose 'seat' is 2"),
    "hello-options": (text(hello(options={"rules": "chess"})), "option 'rules'"),
    "view-turn": (text(hello(), view(turn=5)), "'turn' is 5"),
    "view-direction": (text(hello(), view(direction=1)), "'direction' is 1"),
    "no-hand-sizes": (text(hello(), view(hand_sizes=DROP)), "view without 'hand_sizes'"),
    "short-scores": (text(hello(), view(scores=[0])), "'scores' is [0]"),
    "round-over-mid-turn": (text(hello(), view(winner=1)), "'turn' is 0: a seat to act"),
    "round-points-short": (text(hello(), view(turn=None, winner=1, round_points=[5])),
                           "'round_points' is [5]"),
    "hands-out-of-shape": (text(hello(), view(turn=None, winner=1, hands=[["R5"]])),
                           "'hands' is [['R5']]"),
    "winner-out-of-range": (text(hello(), view(turn=None, winner=7)), "'winner' is 7"),
    "log-too-long": (text(hello(), view(log=["x"] * 11)), "'log'"),
    "log-escape": (text(hello(), view(log=["\x1b]0;owned\x07"])), "'log' is ['\\x1b]0;owned"),
    "name-escape": (text(hello(players=["Ann", "\x1b[2J"])), "'players'"),
    "name-too-long": (text(hello(players=["Ann", "B" * 100_000])), "'players'"),
    "prompt": (text(hello(), view(prompt={"seat": 0})), "'prompt'"),
    "hand-not-its-size": (text(hello(), view(hand=["R5"])), "'hand' is ['R5']"),
    "negative-count": (text(hello(), view(hand_sizes=[2, -1])), "'hand_sizes'"),
    "error-seat": (text(hello(), view(), {"type": "error", "message": "x",
                                          "parts": [{"seat": 5, "form": "owes"}]}),
                   "error whose 'parts' is [{'seat': 5"),
    "error-escape": (text(hello(), view(), {"type": "error", "message": "x",
                                            "parts": ["\x1b[2J"]}), "error whose 'parts'"),
}


@asynccontextmanager
async def bad_host(frames: list[Frame], *, status: int = 101) -> AsyncIterator[str]:
    """A host on 127.0.0.1 that sends ``frames`` to each connection (or refuses it with
    ``status``); yields its join URL."""
    async def handle(request: web.Request) -> web.StreamResponse:
        if status != 101:
            return web.Response(status=status)
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        for frame in frames:
            if isinstance(frame, bytes):
                await ws.send_bytes(frame)
            elif isinstance(frame, str):
                await ws.send_str(frame)
            else:
                await frame(ws)
        async for _ in ws:  # until the client goes
            pass
        return ws

    app = web.Application()
    app.router.add_get("/ws", handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/?token=T"
    finally:
        await runner.cleanup()


async def ending(url: str) -> tuple[RemoteTable, list[str]]:
    """Run a join client's connection until it ends by itself; return it and why."""
    why: list[str] = []
    remote = RemoteTable(url, ended=why.append)
    await asyncio.wait_for(remote.run(), 20)
    return remote, why


@pytest.mark.parametrize("kind", list(BAD))
async def test_a_bad_message_ends_the_client_with_one_line_naming_it(kind: str) -> None:
    frames, words = BAD[kind]
    async with bad_host(frames) as url:
        _, why = await ending(url)
    assert len(why) == 1
    assert words in why[0], why[0]
    assert why[0].startswith("the host ")
    assert "\n" not in why[0]
    assert len(why[0]) < 300


async def test_what_is_safe_to_pass_over_is_passed_over() -> None:
    """A kind of message or a field the client does not know, and an error whose message
    (or plain words) is not one line of text, leave the client at the table."""
    frames = text(hello(extra=1), view(1, later_field={"x": 1}), {"type": "chat"},
                  {"type": "error", "message": {"a": 1}},
                  {"type": "error", "message": "two\nlines\x1b[2J"},
                  {"type": "error", "message": "m", "plain": "plain\x1b[2J\nwords"},
                  {"type": "error", "message": "n", "plain": ["not", "text"]}, view(2))
    async with bad_host(frames) as url:
        remote = RemoteTable(url, ended=lambda why: pytest.fail(why))
        seen: list[str] = []
        remote.listen(lambda: None, seen.append)
        task = asyncio.create_task(remote.run())
        try:
            for _ in range(500):
                if remote.view is not None and remote.view["seq"] == 2:
                    break
                await asyncio.sleep(0.01)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    assert remote.view is not None
    assert remote.view["seq"] == 2
    assert remote.client.errors == ["{'a': 1}", "two lines [2J", "m", "n"]
    # a player's words one line of text; words that are not text are passed over
    assert seen == ["{'a': 1}", "two lines [2J", "plain [2J words", "n"]
    assert remote.seen() is not None


@pytest.mark.parametrize(("status", "words"), [
    (403, "does not know this link (HTTP 403)"), (500, "answered HTTP 500")])
async def test_a_host_that_refuses_the_link_ends_the_client(status: int, words: str) -> None:
    async with bad_host([], status=status) as url:
        _, why = await ending(url)
    assert len(why) == 1
    assert words in why[0]


async def test_a_host_that_cannot_be_reached_at_first_ends_the_client() -> None:
    async with bad_host([]) as url:
        pass  # closed: nothing listens on its port now
    _, why = await ending(url)
    assert why[0].startswith("cannot reach the host at ws://127.0.0.1:")
    assert "token" not in why[0]


async def test_a_host_that_never_says_hello_ends_the_client_after_the_timeout() -> None:
    async with bad_host([]) as url:  # takes the WebSocket, then sends nothing
        why: list[str] = []
        remote = RemoteTable(url, client=TableClient(url, hello_timeout=0.2),
                             ended=why.append)
        await asyncio.wait_for(remote.run(), 5)
    assert len(why) == 1
    assert why[0].startswith("the host at ws://127.0.0.1:")
    assert "sent no hello within 0.2 s" in why[0]
    assert "token" not in why[0]


async def test_the_screens_show_nothing_of_a_bad_view_and_the_app_ends() -> None:
    frames, words = BAD["unknown-card"]
    async with bad_host(frames) as url:
        app = JoinApp(url)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(500):
                if app.failure is not None:
                    break
                await pilot.pause(0.01)
    assert app.failure is not None
    assert words in app.failure
    assert app.return_code == 2
    assert app.view is None


async def test_join_ends_with_one_line_and_exit_2_on_a_bad_message(tmp_path: Path) -> None:
    """The real command in a pseudo-terminal: the screen closes, one line names what the
    host sent wrong, exit 2, no traceback."""
    frames, words = BAD["no-hand-sizes"]
    async with bad_host(frames) as url:
        game = PtyGame([url], game_env(tmp_path), size=(100, 30),
                       command=("-m", "uno_attack", "join"))
        try:
            code = await asyncio.to_thread(game.wait_exit)
        finally:
            if game.proc.poll() is None:
                game.kill()
    out = game.text().replace("\r\n", "")
    assert code == 2
    line = out[out.index("uno-attack join: error: the host sent "):]
    assert words in line
    assert "Traceback" not in out


@pytest.mark.parametrize("url", ["http://[::1/?token=a", "http://h:99999/?token=a"])
def test_join_refuses_a_url_that_is_not_one_in_one_line(url: str) -> None:
    done = subprocess.run([str(EXE), "join", url], capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("uno-attack join: error: ")
    assert f"{url!r} is not a join URL" in done.stderr


MARKUP = {  # a view whose names and words look like Textual markup, and the screen it opens
    "table": (view(1, turn=1, log=["[/] played [red]x"]), "TableScreen"),
    "board": (view(1, turn=None, winner=1, hand=[], hand_sizes=[0, 0], round_points=[5, 0],
                   match_winner=[1], hands=[[], []], next_round_in=3), "ScoreboardScreen"),
    "prompt": (view(1, prompt={"seat": 0, "message": "[/] jammed", "actions": ["retry"]},
                    legal=["retry"]), "LauncherProblemScreen"),
    "reveal": (view(1, turn=1, revealed={"seat": 1, "hand": ["R5"]}, log=["[b] [/]"]),
               "RevealScreen"),
}


@pytest.mark.parametrize("kind", list(MARKUP))
async def test_names_and_words_from_the_host_are_shown_as_text_not_markup(kind: str) -> None:
    shown_view, screen = MARKUP[kind]
    frames = text(hello(name="[/]", players=["[/]", "[/b]Bob"]), shown_view)
    async with bad_host(frames) as url:
        app = JoinApp(url)
        async with app.run_test(size=(100, 30)) as pilot:  # a markup error would raise here
            for _ in range(500):
                if type(app.screen).__name__ == screen and app.view is not None:
                    break
                await pilot.pause(0.01)
            await pilot.pause()  # the view's drawing, done
            assert type(app.screen).__name__ == screen
            app.export_screenshot()  # every widget drawn now: a markup error raises
            assert app.table_screen is not None
            title = str(app.table_screen.query_one("#hand-title", Label).render())
    assert app.failure is None
    assert title.startswith("Your hand")
