"""The lobby before the deal: the seats fill, nothing moves, and the round starts when
every person is here, when the operator says so, or at ``--start-after``; a person who
comes late is played by a bot until they come."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import pty
import subprocess
from pathlib import Path

from playwright.async_api import async_playwright

from tests.net.helpers import (
    ManualClock,
    connect,
    host_config,
    log_of,
    next_of,
    running_host,
    until,
    url_of,
)
from tests.net.test_host_command import host_process
from tests.net.test_page_in_browser import launch
from uno_attack.net.client import TableClient
from uno_attack.net.join_app import JoinApp

PHONE_TALL = {"width": 360, "height": 740}


def lobby_config(tmp_path: Path, start_after: float | None = None):  # type: ignore[no-untyped-def]
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=3, turn_seconds=20)
    return dataclasses.replace(config, lobby=True, start_after=start_after)


async def settle() -> None:
    """Let the host's loop run what is due (no time passes on a manual clock)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_the_round_waits_for_every_person_then_starts_by_itself(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_host(lobby_config(tmp_path), clock=clock) as host:
        ann = await connect(url_of(host, "Ann"))
        view = ann.view
        assert view is not None
        assert view["lobby"] == {"starts_in": None}
        assert view["legal"] == []
        assert view["connected"] == [0]
        assert view["deadline"] is None  # no turn timer runs before the deal
        clock.advance(3600)  # however long: no bot moves, no timer fires
        await settle()
        await ann.act("press")
        error = await next_of(ann, "error")
        assert error["message"] == ("the round has not started yet: waiting for Bob "
                                    "(the host can start it now)")
        assert host.flow.facts().step == 0
        bob = await connect(url_of(host, "Bob"))
        started = await until(ann, lambda v: "lobby" not in v)
        assert started["connected"] == [0, 1]
        assert started["log"][-1] == "the round starts: everyone is here"
        assert started["deadline"] == 20  # the timer of the person to act starts now
        assert bob.view is not None
        assert "lobby" not in bob.view
        await ann.close()
        await bob.close()


async def test_a_late_person_is_played_by_a_bot_until_they_come(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_host(lobby_config(tmp_path, start_after=30), clock=clock) as host:
        ann = await connect(url_of(host, "Ann"))
        assert ann.view is not None
        assert ann.view["lobby"] == {"starts_in": 30}
        clock.advance(29)
        await settle()
        assert host.lobby is not None
        assert host.lobby.open
        clock.advance(1)
        started = await until(ann, lambda v: "lobby" not in v)
        assert started["log"][-1] == ("the round starts: its start time came; a bot plays "
                                      "for Bob until they come")
        assert started["away"] == [1]
        bob = await connect(url_of(host, "Bob"))
        back = await until(bob, lambda v: v["away"] == [])
        assert "Bob is back" in back["log"]
        await ann.close()
        await bob.close()


async def test_the_operator_starts_the_round_with_enter_and_nothing_else(
        tmp_path: Path) -> None:
    async with running_host(lobby_config(tmp_path)) as host:
        ann = await connect(url_of(host, "Ann"))
        host.operator_line("press\n")
        assert "operator: 'press': the round has not started; press Enter (or type start) " \
               "to deal now" in log_of(host)
        assert host.lobby is not None
        assert host.lobby.open
        host.operator_line("\n")
        started = await until(ann, lambda v: "lobby" not in v)
        assert started["log"][-1] == ("the round starts: the host started it; a bot plays "
                                      "for Bob until they come")
        await ann.close()


async def test_join_shows_who_is_here_while_the_seats_fill(tmp_path: Path) -> None:
    async with running_host(lobby_config(tmp_path)) as host:
        app = JoinApp(url_of(host, "Ann"))
        async with app.run_test(size=(100, 40)) as pilot:
            for _ in range(200):
                seen = app.remote.seen()
                if seen is not None:
                    break
                await pilot.pause(0.02)
            assert seen is not None
            assert seen.note == "waiting for the deal: here Ann; not yet Bob"
            bob = await connect(url_of(host, "Bob"))
            for _ in range(200):
                seen = app.remote.seen()
                if seen is not None and not seen.note:
                    break
                await pilot.pause(0.02)
            assert seen is not None
            assert seen.note == ""
            await bob.close()


def test_start_when_full_opens_a_lobby_and_enter_on_the_hosts_input_deals(
        tmp_path: Path) -> None:
    with host_process(tmp_path, "--humans", "Ann,Bob", "--players", "3", "--no-qr",
                      "--no-record", "--start-when-full", stdin=subprocess.PIPE) as (
            proc, lines):
        assert proc.stdout is not None
        assert proc.stdout.readline() == (
            "lobby: the round starts when every person has joined, or when you press Enter "
            "(or type start)\n")
        url = lines[0].split(": ", 1)[1]

        async def lobby_then_enter() -> tuple[dict[str, object], dict[str, object]]:
            client = TableClient(url)
            await client.connect()
            first = await next_of(client, "view")
            assert proc.stdin is not None
            proc.stdin.write("\n")
            proc.stdin.flush()
            started = await until(client, lambda v: "lobby" not in v)
            await client.close()
            return first, started

        first, started = asyncio.run(lobby_then_enter())
        assert first["lobby"] == {"starts_in": None}
        assert started["away"] == [1]


def test_on_a_terminal_the_host_opens_a_lobby_and_enter_deals(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    try:
        with host_process(tmp_path, "--humans", "Ann,Bob", "--players", "3", "--no-qr",
                          "--no-record", "--start-after", "600", stdin=follower) as (
                proc, lines):
            assert proc.stdout is not None
            assert proc.stdout.readline() == (
                "lobby: the round starts when every person has joined, or when you press "
                "Enter (or type start), or 600 s from now at the latest\n")
            url = lines[1].split(": ", 1)[1]  # Bob's

            async def enter_deals() -> dict[str, object]:
                client = TableClient(url)
                await client.connect()
                first = await next_of(client, "view")
                assert first["lobby"]["starts_in"] <= 600  # type: ignore[index]
                os.write(leader, b"\n")  # the host's own key
                started = await until(client, lambda v: "lobby" not in v)
                await client.close()
                return started

            started = asyncio.run(enter_deals())
            assert started["away"] == [0]  # Ann is not here: a bot plays for her
    finally:
        os.close(follower)
        os.close(leader)


def test_without_a_terminal_or_a_start_option_the_round_is_dealt_at_once(
        tmp_path: Path) -> None:
    with host_process(tmp_path, "--humans", "Ann", "--players", "2", "--bot-delay", "0",
                      "--no-qr", "--no-record") as (_, lines):
        url = lines[0].split(": ", 1)[1]

        async def views() -> tuple[dict[str, object], dict[str, object]]:
            client = TableClient(url)
            await client.connect()
            first = await next_of(client, "view")
            moving = await until(client, lambda v: bool(v["legal"]) or v["step"] > 0)
            await client.close()
            return first, moving

        first, moving = asyncio.run(views())
        assert "lobby" not in first
        assert "lobby" not in moving  # Ann may act, or the bot has


async def test_the_page_shows_the_lobby_filling_and_the_round_starting(tmp_path: Path) -> None:
    """At 360×740: Ann's page lists who is here and who is waited for; when Bob's page
    opens, both leave the lobby for the table and Ann's hand. ``UNO_ATTACK_LOBBY_SHOT``
    keeps a screenshot of the lobby."""
    async with running_host(lobby_config(tmp_path)) as host, async_playwright() as pw:
        browser = await launch(pw)
        ann, bob = [await (await browser.new_context(viewport=PHONE_TALL)).new_page()
                    for _ in range(2)]
        await ann.goto(url_of(host, "Ann"))
        await ann.wait_for_selector("body[data-phase=lobby]")
        seats = await ann.locator("#lobby-seats li").all_inner_texts()
        assert seats == ["Ann (you) — here", "Bob — not here yet", "Ada — a bot"]
        assert await ann.locator("#lobby-when").inner_text() == (
            "The round starts when one more person joins, or when the host starts it.")
        assert not await ann.locator("#table").is_visible()
        shot = os.environ.get("UNO_ATTACK_LOBBY_SHOT")
        if shot:
            await ann.screenshot(path=shot)
        await bob.goto(url_of(host, "Bob"))
        for page in (ann, bob):
            await page.wait_for_selector("body[data-phase=play]")
            assert not await page.locator("#lobby").is_visible()
        await ann.wait_for_selector("#hand button.card")
        shown = await ann.locator("#hand button.card").count()
        assert shown == len(host.flow.game.hands[0])
        await browser.close()
