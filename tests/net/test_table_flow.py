"""The host's game flow over real connections: reconnect, the away rule, the turn timer,
launcher prompts (from the acting seat, the operator and the hardware button), resume."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from tests.net.helpers import (
    NOTHING_FIRES,
    ManualClock,
    connect,
    deal,
    host_config,
    log_of,
    next_of,
    play_round,
    running_host,
    state_key,
    until,
    url_of,
)
from tests.tui.test_launcher import TroubledLauncher
from uno_attack.launcher import EjectStatus, PressResult
from uno_attack.net.client import TableClient
from uno_attack.replay import replay
from uno_attack.rules import ATTACK
from uno_attack.transcript import load
from uno_attack.wording import count


async def settle() -> None:
    """Let the host's loop run what is due (no time passes on a manual clock)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_reconnecting_gets_the_seat_a_hello_and_a_fresh_view(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        ann = await connect(url_of(host, "Ann"))
        first = ann.view
        await ann.close()
        again = await connect(url_of(host, "Ann"))
        assert again.hello["seat"] == 0
        assert again.hello["name"] == "Ann"
        assert again.view["seq"] == 1  # a new connection counts from 1 again  # type: ignore[index]
        assert again.view["hand"] == first["hand"]  # type: ignore[index]
        assert "Ann (seat 0) left" in log_of(host)
        assert log_of(host).count("Ann (seat 0) joined") == 2
        await again.close()


async def test_the_game_waits_for_an_away_seat_then_a_bot_stands_in_until_it_is_back(
        tmp_path: Path) -> None:
    clock = ManualClock()
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=2, away_seconds=60,
                         launcher=NOTHING_FIRES)
    async with running_host(config, clock=clock) as host:
        game = host.flow.game
        seat = game.to_act
        name, other = (("Ann", "Bob") if seat == 0 else ("Bob", "Ann"))
        watcher = await connect(url_of(host, other))  # the other person, not the one to act
        clock.advance(59)
        await settle()
        assert game.to_act == seat
        assert game.hands[seat] != []
        assert len(host.flow.session.table.record.steps) == 0  # type: ignore[union-attr]
        clock.advance(1)
        view = await until(watcher, lambda v: v["away"] == [seat] and any(
            "(a bot for" in line for line in v["log"]))
        assert f"{name} is away: a bot plays for them until they are back" in view["log"]
        assert any(line.startswith(name) and f"(a bot for {name}, away)" in line
                   for line in view["log"])
        assert host.flow.session.table.record.steps  # type: ignore[union-attr]
        back = await connect(url_of(host, name))
        assert back.view["away"] == []  # type: ignore[index]
        assert f"{name} is back" in back.view["log"]  # type: ignore[index]
        if host.flow.game.to_act != seat:
            await until(watcher, lambda v: v["busy"] is None and bool(v["legal"]))
            await watcher.act("press")
        await until(back, lambda v: v["turn"] == seat and v["busy"] is None)
        steps = len(host.flow.session.table.record.steps)  # type: ignore[union-attr]
        clock.advance(3600)
        await settle()
        assert len(host.flow.session.table.record.steps) == steps  # type: ignore[union-attr]
        for client in (watcher, back):
            await client.close()


async def test_a_seat_that_leaves_at_its_turn_waits_the_away_time_from_then(
        tmp_path: Path) -> None:
    clock = ManualClock()
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=2, away_seconds=30,
                         launcher=NOTHING_FIRES)
    async with running_host(config, clock=clock) as host:
        seat = host.flow.game.to_act
        name = ["Ann", "Bob"][seat]  # type: ignore[index]
        client = await connect(url_of(host, name))
        clock.advance(100)  # present: no bot, however long
        await settle()
        assert host.flow.session.table.record.steps == []  # type: ignore[union-attr]
        await client.close()
        await settle()
        clock.advance(29)
        await settle()
        assert host.flow.session.table.record.steps == []  # type: ignore[union-attr]
        clock.advance(1)
        for _ in range(50):
            await settle()
        assert host.flow.session.table.record.steps  # type: ignore[union-attr]


async def test_the_turn_timer_presses_for_a_slow_person(tmp_path: Path) -> None:
    clock = ManualClock()
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=2, turn_seconds=20,
                         launcher=NOTHING_FIRES)
    async with running_host(config, clock=clock) as host:
        seat = host.flow.game.to_act
        name = ["Ann", "Bob"][seat]  # type: ignore[index]
        client = await connect(url_of(host, name))
        assert client.view["deadline"] == 20  # type: ignore[index]
        clock.advance(19.5)
        await settle()
        assert host.flow.session.table.record.steps == []  # type: ignore[union-attr]
        clock.advance(0.5)
        view = await until(client, lambda v: any("(time ran out)" in line for line in v["log"]))
        assert f"{name} pressed the launcher: nothing fired (time ran out)" in view["log"]
        await client.close()


async def test_the_turn_timer_names_red_for_a_wild_starter_then_presses_then_passes(
        tmp_path: Path) -> None:
    clock = ManualClock()
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=2, turn_seconds=5,
                         launcher="fixed:1", options=["play_after_press=true"])
    async with running_host(config, clock=clock) as host:
        deal(host, ["G7 Y8", "B2"], "W", dealer=1, launcher="R9")
        ann = await connect(url_of(host, "Ann"))
        assert ann.view["legal"] == ["choose red", "choose yellow", "choose green",  # type: ignore[index]
                                     "choose blue"]
        clock.advance(5)
        view = await until(ann, lambda v: v["color"] == "red")
        assert "Ann named red for the starter (time ran out)" in view["log"]
        assert view["deadline"] == 5  # a new turn, a new timer
        clock.advance(5)
        view = await until(ann, lambda v: v["legal"] == ["play R9", "pass"])
        assert "Ann pressed the launcher: 1 card fired! (time ran out)" in view["log"]
        clock.advance(5)
        view = await until(ann, lambda v: v["turn"] == 1)
        assert view["log"][-1] == "Ann passed (time ran out)"
        assert view["hand"] == ["G7", "Y8", "R9"]


def jamming_launcher(presses: int = 3, gate: threading.Event | None = None) -> TroubledLauncher:
    """A launcher whose presses ask for 3 cards and jam after 1; an eject gives what it is
    asked."""
    jam = PressResult(1, 3, EjectStatus.JAM, detail="no card passed the beam")
    return TroubledLauncher([jam] * presses, gate=gate)


async def test_a_jam_prompts_the_acting_seat_which_retries(tmp_path: Path) -> None:
    launcher = jamming_launcher()
    async with running_host(host_config(tmp_path, humans=("Ann", "Bob"), players=2),
                            launcher=launcher) as host:
        seat = host.flow.game.to_act
        name, other = ("Ann", "Bob") if seat == 0 else ("Bob", "Ann")
        actor, them = await connect(url_of(host, name)), await connect(url_of(host, other))
        hand = len(host.flow.game.hands[seat])  # type: ignore[index]
        await actor.act("press")
        view = await until(actor, lambda v: "prompt" in v)
        assert view["prompt"]["seat"] == seat
        assert "stopped after 1 of 3 cards (no card passed the beam)" in view["prompt"]["message"]
        assert view["legal"] == ["retry", "fired 0", "fired 1", "fired 2", "fired 3"]
        other_view = await until(them, lambda v: any("says how many" in x for x in v["log"]))
        assert "prompt" not in other_view
        assert other_view["legal"] == []
        await them.act("pass")
        assert "wait: the launcher is firing" in (await next_of(them, "error"))["message"]
        await actor.act("press")  # not an answer
        assert "needs an answer first: retry, or fired N" in (
            await next_of(actor, "error"))["message"]
        await actor.act("retry")
        done = await until(actor, lambda v: "prompt" not in v and v["busy"] is None
                           and v["turn"] != seat)
        assert launcher.ejected == [2]
        assert len(done["hand"]) == hand + 3
        for client in (actor, them):
            await client.close()


async def test_the_operator_and_the_hardware_button_answer_the_launcher(tmp_path: Path) -> None:
    launcher = jamming_launcher()
    async with running_host(host_config(tmp_path, humans=("Ann", "Bob"), players=2),
                            launcher=launcher) as host:
        seat = host.flow.game.to_act
        name = ["Ann", "Bob"][seat]  # type: ignore[index]
        client = await connect(url_of(host, name))
        await asyncio.to_thread(launcher.button_pressed)  # the big button: the seat's press
        await until(client, lambda v: "prompt" in v)
        assert host.flow.operator("dance") == "the launcher needs an answer first: " \
            "retry, or fired N (how many cards came out), not 'dance'"
        hand = len(host.flow.game.hands[seat])  # type: ignore[index]
        assert host.flow.operator("fired 2") is None
        view = await until(client, lambda v: "prompt" not in v and v["turn"] != seat)
        assert len(view["hand"]) == hand + 2
        assert launcher.ejected == []
        await client.close()


async def test_nothing_stalls_while_the_launcher_runs(tmp_path: Path) -> None:
    gate = threading.Event()
    launcher = jamming_launcher(gate=gate)
    async with running_host(host_config(tmp_path, humans=("Ann", "Bob"), players=2),
                            launcher=launcher) as host:
        seat = host.flow.game.to_act
        name, other = ("Ann", "Bob") if seat == 0 else ("Bob", "Ann")
        actor = await connect(url_of(host, name))
        await actor.act("press")
        while host.flow.busy != seat:  # the act is read; the press starts in its thread
            await asyncio.sleep(0.01)
        late = await connect(url_of(host, other))  # served while the motor "runs"
        assert late.view["busy"] == seat  # type: ignore[index]
        await late.act("press")  # read once the press is made: its view comes first
        gate.set()
        await until(late, lambda v: v["busy"] is None
                    and v["log"][-1].endswith("says how many came out"))
        assert "wait" in (await next_of(late, "error"))["message"]  # the prompt is open
        await until(actor, lambda v: "prompt" in v)
        for client in (actor, late):
            await client.close()


async def test_resume_goes_on_from_the_journal_with_the_same_tokens(tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=3, seed=7)
    async with running_host(config) as host:
        urls = dict(host.urls)  # type: ignore[attr-defined]
        clients = [await connect(url_of(host, n)) for n in ("Ann", "Bob")]
        for _ in range(6):  # a few moves by the people (the bot moves by itself)
            for c in clients:
                view = c.view
                if view and view["turn"] == c.hello["seat"] and view["legal"]:  # type: ignore[index]
                    old = state_key(view)
                    await c.act(view["legal"][0])
                    await until(c, lambda v, old=old: state_key(v) != old)
        steps = len(host.flow.session.table.record.steps)  # type: ignore[union-attr]
        before = host.flow.game.snapshot()
        for c in clients:
            await c.close()
    assert steps > 0
    assert replay(load(config.game.save)).passed  # type: ignore[arg-type]
    config.resume = True
    async with running_host(config) as again:
        def tokens(urls: dict[str, str]) -> dict[str, str]:
            return {label: url.split("?token=")[1] for label, url in urls.items()}

        assert tokens(again.urls) == tokens(urls)  # type: ignore[attr-defined]
        assert again.flow.game.snapshot() == before
        ann = await connect(url_of(again, "Ann"))
        assert ann.view["hand"] == [c.code for c in again.flow.game.hands[0]]  # type: ignore[index]
        assert f"Round 1 resumed after {count(steps, 'action')}" in ann.view["log"]  # type: ignore[index]
        await ann.close()


async def test_a_whole_round_by_two_people_and_a_bot_is_scored_and_the_next_is_dealt(
        tmp_path: Path) -> None:
    clock = ManualClock()
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=3, seed=3, round_pause=8)
    async with running_host(config, clock=clock) as host:
        ann, bob = await connect(url_of(host, "Ann")), await connect(url_of(host, "Bob"))
        watch = await connect(url_of(host, None))
        done = await asyncio.gather(play_round(ann, seed=1), play_round(bob, seed=2))
        final = await until(watch, lambda v: v["round_points"] is not None)
        assert final["hands"] == [[c.code for c in h] for h in host.flow.game.hands]
        assert final["scores"] == list(host.flow.session.match.scores)
        assert sum(final["round_points"]) > 0
        assert final["next_round_in"] == 8
        assert all(d["winner"] == final["winner"] for d in done)
        assert replay(load(config.game.save)).passed  # type: ignore[arg-type]
        clock.advance(8)
        second = await until(watch, lambda v: v["round"] == 2)
        assert second["winner"] is None
        assert second["scores"] == final["scores"]
        for client in (ann, bob, watch):
            await client.close()


async def test_stopping_the_host_closes_every_connection_and_the_launcher(
        tmp_path: Path) -> None:
    launcher = jamming_launcher()
    async def read_to_the_end(client: TableClient) -> int | None:
        async for _ in client.messages():
            pass
        return client._ws.close_code if client._ws is not None else None

    async with running_host(host_config(tmp_path), launcher=launcher) as host:
        clients = [await connect(url_of(host, n)) for n in ("Ann", "Bob", None)]
        reading = [asyncio.create_task(read_to_the_end(c)) for c in clients]
        assert not launcher.closed
    assert launcher.closed
    assert await asyncio.gather(*reading) == [1001, 1001, 1001]  # close frames: going away
    for client in clients:
        await client.close()


async def test_a_fault_in_the_table_loop_is_said_and_closes_the_host(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        def broken() -> None:
            raise RuntimeError("a bug")

        host.flow._next = broken  # type: ignore[method-assign]
        await connect(url_of(host, "Ann"))  # a change wakes the loop
        await asyncio.wait_for(host.stopping.wait(), 5)
        assert host.failure == "the table stopped: RuntimeError: a bug"
        assert "the table stopped: RuntimeError: a bug" in log_of(host)


async def test_an_elimination_reseats_the_players_with_a_new_hello(tmp_path: Path) -> None:
    clock = ManualClock()
    config = host_config(tmp_path, humans=("Ann", "Bob", "Cleo"), players=3, round_pause=5,
                         options=["match=elimination", "target=50"])
    async with running_host(config, clock=clock) as host:
        deal(host, ["R5", "G1 G2", "W W"], "R3", dealer=2)
        ann, bob, cleo = [await connect(url_of(host, n)) for n in ("Ann", "Bob", "Cleo")]
        await ann.act("play R5")
        over = await until(cleo, lambda v: v["round_points"] is not None)
        assert over["scores"] == [0, 3, 100]
        assert over["hands"] == [[], ["G1", "G2"], ["W", "W"]]
        clock.advance(5)
        assert await next_of(cleo, "hello") == {"type": "hello", "seat": None, "name": None,
                                               "players": ["Ann", "Bob"], "options": {
                                                   "match": "elimination", "target": 50},
                                               "people": [0, 1],
                                               "cards": ATTACK.card_kinds,
                                               "table": {"title": "UNO Attack",
                                                         "match": "elimination match to 50",
                                                         "house_rules": []}}
        assert (await next_of(bob, "hello"))["players"] == ["Ann", "Bob"]
        view = await next_of(cleo, "view")
        assert view["round"] == over["round"] + 1
        assert "hand" not in view
        assert len(view["hand_sizes"]) == 2
        await cleo.act("press")
        assert "out of the match" in (await next_of(cleo, "error"))["message"]
        for client in (ann, bob, cleo):
            await client.close()
