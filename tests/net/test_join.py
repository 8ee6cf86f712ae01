"""``uno-attack join``: the terminal game as a client of a hosted table (the same screens as
``play``, drawn from the host's views), under Textual's pilot against a real host."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Label

from tests.net.helpers import (
    NOTHING_FIRES,
    connect,
    deal,
    host_config,
    log_of,
    running_host,
    url_of,
)
from tests.tui.test_new_game import BluffingBot
from uno_attack.actions import Verb
from uno_attack.cards import Card
from uno_attack.net.client import Message, TableClient
from uno_attack.net.join_app import JoinApp, RemoteTable
from uno_attack.rules import CLASSIC
from uno_attack.transcript import Transcript
from uno_attack.tui.arrivals import in_order
from uno_attack.tui.screens.dialogs import QuitScreen, RevealScreen
from uno_attack.tui.screens.pickers import ChoiceScreen
from uno_attack.tui.screens.scoreboard import ScoreboardScreen
from uno_attack.tui.widgets.hand import HandView

EXE = Path(sys.executable).parent / "uno-attack"


async def wait_for(check: Callable[[], bool], pilot: Pilot[Any], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await pilot.pause(0.02)
    raise AssertionError("the screen never showed it")


def status(app: JoinApp) -> str:
    assert app.table_screen is not None
    return app.table_screen.status


def hand_title(app: JoinApp) -> str:
    assert app.table_screen is not None
    return str(app.table_screen.query_one("#hand-title", Label).content)


async def test_join_shows_the_seat_and_sends_what_is_chosen(tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann",), players=2, launcher=NOTHING_FIRES)
    async with running_host(config) as host:
        deal(host, ["R5 G7 B2", "Y1 Y2 Y3"], "R3", dealer=1)
        flow = host.flow
        app = JoinApp(url_of(host, "Ann"))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(lambda: app.view is not None and app.view["turn"] == 0, pilot)
            assert hand_title(app).startswith("Your hand · 3 cards · 0 pts")
            assert [c.code for c in app.table_screen.query_one(HandView).cards] == [
                "R5", "G7", "B2"]
            assert app.table_screen.query_one(HandView).playable == frozenset({0})
            await pilot.press("2")  # G7 does not match R3: the host says why
            await wait_for(lambda: "G7 does not match the top card R3" in status(app), pilot)
            assert flow.game.hands[0][1].code == "G7"
            await pilot.press("1")
            await wait_for(lambda: "Ann played red 5" in app.table_screen.log_lines, pilot)
            assert "R5" in [card.code for card in flow.game.discard]
            await wait_for(lambda: app.view["turn"] == 0 and "press" in app.view["legal"],
                           pilot)
            await pilot.press("space")
            await wait_for(lambda: "Ann pressed the launcher: nothing fired"
                           in app.table_screen.log_lines, pilot)


async def test_join_sorts_the_hand_as_play_does_and_t_keeps_the_choice(tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann",), players=2, launcher=NOTHING_FIRES)
    async with running_host(config) as host:
        deal(host, ["W G7 R5 B2 R1", "Y1 Y2 Y3 Y4 Y5"], "R3", dealer=1)
        kept: list[bool] = []
        app = JoinApp(url_of(host, "Ann"), sorted_hand=True,
                      keep_order=lambda sorted_hand: kept.append(sorted_hand))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(lambda: app.view is not None, pilot)
            hand = app.table_screen.query_one(HandView)
            dealt = [Card.parse(code) for code in ("W", "G7", "R5", "B2", "R1")]
            assert list(hand.cards) == list(in_order(dealt, sorted_hand=True)) != dealt
            await pilot.press("t")
            await wait_for(lambda: list(hand.cards) == dealt, pilot)
            assert kept == [False]


async def test_a_refusal_is_said_in_plain_words_with_the_players_names(tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=2, launcher=NOTHING_FIRES)
    async with running_host(config) as host:
        deal(host, ["R5 G7 B2", "Y1 Y2 Y3"], "R3", dealer=1)
        names = host.flow.seat_names()
        turn = host.flow.game.turn
        other = 1 - turn
        app = JoinApp(url_of(host, names[other]))
        async with app.run_test(size=(120, 30)) as pilot:
            await wait_for(lambda: app.view is not None, pilot)
            await pilot.press("space")  # a press out of turn: the host's error, in names
            await wait_for(lambda: "turn, not yours" in status(app), pilot)
            assert f"it is {names[turn]}'s turn, not yours" in status(app)
            assert ".md" not in status(app)  # no rule book cited to a player


async def test_join_watching_shows_no_hand_and_reports_a_refusal(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        app = JoinApp(url_of(host, None))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(lambda: app.view is not None, pilot)
            assert hand_title(app) == "watching: no hand"
            assert app.table_screen.query_one(HandView).hidden
            await pilot.press("space")
            await wait_for(lambda: "a watcher cannot act" in status(app), pilot)
            await pilot.press("q")
            assert isinstance(app.screen, QuitScreen)
            assert "the same URL" in app.screen.save_hint


async def test_join_reconnects_after_the_connection_drops(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        app = JoinApp(url_of(host, "Ann"))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(lambda: app.view is not None, pilot)
            for conn in list(host.server.connections):
                await conn.ws.close()
            await wait_for(lambda: "connected again after 1 drop" in hand_title(app), pilot)
            assert app.view is not None
            assert app.remote.client.seq == app.view["seq"] >= 1
            assert log_of(host).count("Ann (seat 0) joined") == 2


async def test_after_a_reconnect_the_action_not_sent_is_no_longer_said(
        tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        app = JoinApp(url_of(host, "Ann"))
        client = app.remote.client
        connect, back = client.connect, asyncio.Event()

        async def reconnect_once_allowed() -> Message:
            if client.hello is not None:  # a reconnect: only once the action was refused
                await back.wait()
            return await connect()

        client.connect = reconnect_once_allowed  # type: ignore[method-assign]
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(lambda: app.view is not None, pilot)
            for conn in list(host.server.connections):
                await conn.ws.close()
            await wait_for(lambda: "connection lost" in hand_title(app), pilot)
            await pilot.press("space")
            await wait_for(lambda: "not connected: the action was not sent" in status(app),
                           pilot)
            back.set()
            await wait_for(lambda: "connected again after 1 drop" in hand_title(app), pilot)
            assert "not connected" not in status(app)


class Outage(TableClient):
    """A connection that drops once and takes ``tries`` attempts to come back."""

    def __init__(self, tries: int) -> None:
        super().__init__("http://127.0.0.1:1/?token=t")
        self.tries = tries

    async def stay_connected(self, *, first_delay: float = 0.5, max_delay: float = 10.0,
                             ) -> AsyncIterator[Message]:
        hello = {"type": "hello", "seat": None, "name": None, "players": ["Ann", "Bob"],
                 "options": {}}
        yield hello
        for attempt in range(self.tries):
            yield {"type": "disconnected", "retry_in": 0.5 * 2 ** attempt}
        yield hello


async def test_one_outage_is_one_drop_however_many_tries_it_takes() -> None:
    remote = RemoteTable("http://127.0.0.1:1/?token=t", client=Outage(5))
    await remote.run()
    assert remote.connection == "connected again after 1 drop"
    assert remote.drops == 1


async def test_a_person_who_never_joined_is_waited_for_not_thinking(tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=2, launcher=NOTHING_FIRES)
    async with running_host(config) as host:
        deal(host, ["R5 G7 B2", "Y1 Y2 Y3"], "R3", dealer=0)  # Bob, who never joined, acts
        app = JoinApp(url_of(host, "Ann"))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(lambda: app.view is not None and app.view["turn"] == 1, pilot)
            assert status(app) == "Waiting for Bob to connect."
            bob = await connect(url_of(host, "Bob"))
            await wait_for(lambda: status(app) == "Bob is thinking…", pilot)
            await bob.close()


async def test_a_whole_round_at_a_host_from_the_terminal(tmp_path: Path) -> None:
    """A person plays a round against a bot through ``join``'s screens, by keys, to the
    scoreboard (which names the round's winner and the host's next deal)."""
    config = host_config(tmp_path, humans=("Ann",), players=2, launcher="fixed:1")
    async with running_host(config) as host:
        deal(host, ["R5 R6 R7", "B1 B2 G3 G4 B9"], "R3", dealer=1, launcher="Y1 Y2 Y3 Y4")
        app = JoinApp(url_of(host, "Ann"))
        async with app.run_test(size=(100, 30)) as pilot:
            acted: tuple[int, int] | None = None
            for _ in range(3000):
                top = app.screen
                if isinstance(top, ScoreboardScreen):
                    break
                if isinstance(top, ChoiceScreen):
                    await pilot.press("1")
                    continue
                seen = app.table_screen.seen
                if seen is None or not seen.legal or seen.step == acted \
                        or seen.view.get("busy") is not None:
                    await pilot.pause(0.01)
                    continue
                acted = seen.step
                plays = seen.listed(Verb.PLAY)
                if seen.listed(Verb.UNO):
                    await pilot.press("u")
                elif plays and seen.my_turn:
                    index = seen.hand.index(plays[0].cards[0])
                    if len(seen.hand) == 2 and not app.table_screen.uno_armed:
                        await pilot.press("u")
                    hand = app.table_screen.query_one(HandView)
                    await pilot.press(*["left"] * hand.cursor, *["right"] * index, "enter")
                elif seen.my_turn:
                    await pilot.press("space")
                await pilot.pause(0.01)
            board = app.screen
            assert isinstance(board, ScoreboardScreen)
            assert host.flow.game.winner == 0
            assert board.board.title == "Ann wins round 2!"  # the test's deal was round 2
            points = host.flow.round_points
            assert points is not None
            assert points[0] > 0
            assert [line.by_round for line in board.board.lines] == [(points[0],), (0,)]
            assert board.board.next_round == "The host deals the next round in 3600 s."
            log = app.table_screen.log_lines
            assert "Ann played red 6 and called UNO!" in log
            assert "Ann played red 7" in log


async def test_a_challenge_and_a_play_of_several_cards_from_the_terminal(
        tmp_path: Path) -> None:
    """Classic rules with stacking and multi_play at a host: the status says what is owed
    and why, x challenges the bot's bluff and shows its hand, a and Enter play two cards at
    once; the host's views alone drive the screens."""
    config = host_config(tmp_path, humans=("Ann",), players=2,
                         options=("rules=classic", "stacking=same", "multi_play=numbers"))
    async with running_host(config) as host:
        host.flow.use_deal(Transcript(
            name="a bluff", players=2, dealer=0, hands=[CLASSIC.parse_cards(h.split())
                                                         for h in ("B5 G5 Y7 R1", "W+4 R9 G9")],
            starter=CLASSIC.parse_cards(["R3"]),
            launcher=CLASSIC.parse_cards(["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y8", "Y9"])))
        host.flow.session.players[1] = BluffingBot("Ada")  # (the deal seats the bots)
        app = JoinApp(url_of(host, "Ann"))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(lambda: app.view is not None and "challenge" in app.view["legal"],
                           pilot)
            assert status(app).startswith(
                "You owe 4 draws (Ada played Wild Draw Four): draw (Space), challenge it (x)")
            await pilot.press("x")
            await wait_for(lambda: isinstance(app.screen, RevealScreen), pilot)
            reveal = app.screen
            assert isinstance(reveal, RevealScreen)
            assert [card.code for card in reveal.hand] == ["R9", "G9"]
            assert "a bluff: Ada draws 4 cards" in reveal.outcome
            await pilot.press("enter")
            await wait_for(lambda: app.view is not None and app.view["turn"] == 0
                           and "play B5" in app.view["legal"], pilot)
            await pilot.press("a", "right", "a", "enter")  # blue 5 and green 5 together
            await wait_for(lambda: len(host.flow.game.hands[0]) == 2, pilot)
            assert [c.code for c in host.flow.game.hands[0]] == ["Y7", "R1"]
            pile = [c.code for c in host.flow.game.discard]
            assert pile[pile.index("B5") + 1] == "G5"  # one play, in the order picked


def test_join_refuses_a_url_without_a_token_in_one_line() -> None:
    done = subprocess.run([str(EXE), "join", "http://127.0.0.1:8765/"], capture_output=True,
                          text=True, timeout=30, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "has no ?token=" in done.stderr
