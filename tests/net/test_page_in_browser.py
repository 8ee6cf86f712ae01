"""The table page in a real browser: Debian's Chromium, driven by Playwright, plays a whole
round for two people in two isolated browser contexts against a bot, by tapping.

The browser must be there (``make test`` installs Debian's ``chromium``); without it the
test fails. ``UNO_ATTACK_SCREENSHOT=docs/table-page.png`` keeps a phone-sized screenshot.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.net.helpers import NOTHING_FIRES, deal, host_config, running_host, url_of
from uno_attack.net.host import Host
from uno_attack.net.join_app import JoinApp
from uno_attack.rules import ATTACK
from uno_attack.tui.screens.scoreboard import ScoreboardScreen

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-dev-shm-usage"]
PHONE = {"width": 360, "height": 640}


async def launch(pw) -> Browser:  # type: ignore[no-untyped-def]
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install chromium"
    return await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)


async def next_view(page: Page, seq: str, timeout: float = 10.0) -> bool:
    """Wait until the page has drawn a newer view, opened a picker or shown the host's
    refusal (a tap on a view that was already out of date when it reached the host:
    the catch window had closed, the bot had moved); True for a refusal. (The page's
    CSP forbids the eval that ``wait_for_function`` needs, so this polls from outside.)"""
    check = ("[document.body.dataset.seq, document.getElementById('picker').open,"
             " !document.getElementById('toast').hidden]")
    for _ in range(int(timeout / 0.02)):
        now, picking, refused = await page.evaluate(check)
        if now != seq or picking:  # a new view, or a colour or seat to pick first
            return False
        if refused:
            return True
        await page.wait_for_timeout(20)
    raise AssertionError(f"no new view after seq {seq}")


async def tap_something(page: Page) -> str | None:
    """Tap what a person would: an open choice, UNO or a catch, a colour, a playable card
    (arming UNO first with a second-last card), the launcher, or pass. Returns what
    (``refused <what> at <seq>`` when the host said no)."""
    for selector in ("#picker[open] #picker-choices button",
                     '#actions button[data-action="uno"]',
                     '#actions button[data-action^="catch"]',
                     '#actions button[data-action^="choose"]',
                     '#actions button.uno-toggle:not(.armed)',
                     "#hand button.card.playable",
                     "#launcher:not([disabled])",
                     '#actions button[data-action="pass"]'):
        target = page.locator(selector).first
        if await target.count():
            try:
                what = (await target.get_attribute("data-action", timeout=3000)
                        or await target.get_attribute("data-code", timeout=3000) or selector)
            except PlaywrightTimeout:
                continue  # it went away as a new view came: look again
            seq = await page.evaluate("document.body.dataset.seq")
            await page.evaluate("document.getElementById('toast').hidden = true")
            try:
                await target.click(timeout=3000)
            except PlaywrightTimeout:
                continue  # it went away first (the bot caught, a view came): a missed tap
            if "uno-toggle" not in selector and await next_view(page, seq):
                return f"refused {what} at {seq}"
            return what
    return None


async def play_by_tapping(host: Host, ann: Page, bob: Page, taps: list[str],
                          screenshot: Path) -> None:
    """Both people tap until the round is scored; a screenshot is taken mid-round."""
    refused: set[tuple[str, str]] = set()
    for _ in range(600):
        if host.flow.round_points is not None:
            return
        for who, page in (("Ann", ann), ("Bob", bob)):
            if len(taps) >= 10 and not screenshot.exists() \
                    and await page.locator("#hand button.card.playable").count():
                await page.screenshot(path=str(screenshot))  # a turn, mid-round
            what = await tap_something(page)
            if what:
                # a refusal of a view out of date is over once the newer view comes; the
                # same one again at the same view is a page offering what the host forbids
                if what.startswith("refused"):
                    assert (who, what) not in refused, taps[-10:]
                    refused.add((who, what))
                taps.append(what)
        if host.flow.busy is not None or host.flow.game.to_act == 2:
            await ann.wait_for_timeout(20)  # the bot's move or the launcher's thread
    pytest.fail(f"the round did not end; taps: {taps[-20:]}")


async def test_two_people_play_a_whole_round_against_a_bot_by_tapping(tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=3, seed=3,  # a round of 22 taps
                         bot_delay=0.05, catch_delay=0.3)
    async with running_host(config) as host, async_playwright() as pw:
        browser = await launch(pw)
        pages = {}
        errors: list[str] = []
        for name in ("Ann", "Bob"):
            context = await browser.new_context(viewport=PHONE, device_scale_factor=2,
                                                has_touch=True)
            page = await context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            await page.goto(url_of(host, name))
            await page.wait_for_selector("#hand button.card")
            pages[name] = page
        ann, bob = pages["Ann"], pages["Bob"]
        assert await ann.locator("#me").inner_text() == "Ann · seat 0"
        assert await bob.locator("#me").inner_text() == "Bob · seat 1"
        own = [c.code for c in host.flow.game.hands[0]]
        shown = await ann.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.code)")
        assert sorted(shown) == sorted(own)  # all of them (sorted by colour on the page)
        bob_cards = {c.code for c in host.flow.game.hands[1]} - set(own)
        html = await ann.content()
        assert not any(f'data-code="{code}"' in html for code in bob_cards)
        names = await ann.locator("#players .pname").all_inner_texts()
        assert [n.lstrip("▶ ") for n in names] == ["Ann", "Bob", "Ada"]
        label = await ann.locator("#launcher").get_attribute("aria-label")
        assert label is not None
        assert label.startswith("Press the launcher")

        taps: list[str] = []
        screenshot = tmp_path / "table-page.png"
        terminal = JoinApp(url_of(host, None))  # `uno-attack join` watches the same game
        async with terminal.run_test(size=(100, 40)) as pilot:
            await play_by_tapping(host, ann, bob, taps, screenshot)
            winner = ['Ann', 'Bob', 'Ada'][host.flow.game.winner]  # type: ignore[index]
            for _ in range(100):  # the terminal shows the same game's scores
                if isinstance(terminal.screen, ScoreboardScreen):
                    break
                await pilot.pause(0.02)
            assert terminal.view is not None
            assert terminal.view["round_points"] is not None
            board = terminal.screen
            assert isinstance(board, ScoreboardScreen)
            assert board.board.title == f"{winner} wins round 1!"
            assert terminal.table_screen is not None
            assert any(line.startswith(f"{winner} went out and wins round 1")
                       for line in terminal.table_screen.log_lines)
        for page in (ann, bob):
            await page.wait_for_selector("#scores[open]")
            rows = await page.locator("#scores-body tr").count()
            assert rows == 3
        winner = host.flow.game.winner
        title = await ann.locator("#scores-title").inner_text()
        assert title.startswith(f"{['Ann', 'Bob', 'Ada'][winner]} won round 1")  # type: ignore[index]
        assert any(t.startswith(("R", "Y", "G", "B", "W")) for t in taps)  # cards were tapped
        assert "press" in taps
        assert errors == []
        assert screenshot.exists()
        keep = os.environ.get("UNO_ATTACK_SCREENSHOT")
        if keep:
            shutil.copy(screenshot, keep)
        await browser.close()


async def test_the_page_says_when_the_connection_drops_and_comes_back(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host, async_playwright() as pw:
        browser = await launch(pw)
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        await page.goto(url_of(host, "Ann"))
        await page.wait_for_selector("#hand button.card")
        for conn in list(host.server.connections):
            await conn.ws.close()  # the network drops
        banner = page.locator("#banner")
        await page.wait_for_selector("#banner.lost")
        assert (await banner.inner_text()).startswith("Connection lost — reconnecting in")
        await page.wait_for_selector("#banner.back", timeout=10_000)
        assert await banner.inner_text() == "Reconnected: you are back at your seat."
        assert await page.locator("#me").inner_text() == "Ann · seat 0"
        await browser.close()


async def test_a_link_the_host_does_not_know_says_to_ask_for_it_again(tmp_path: Path) -> None:
    """Opened, a wrong link shows a page saying what to do; a page open at the table when
    the host stops knowing its link (a new table) says so, and stops trying."""
    async with running_host(host_config(tmp_path)) as host, async_playwright() as pw:
        browser = await launch(pw)
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        answer = await page.goto(url_of(host, "Ann").replace("token=", "token=x"))
        assert answer is not None
        assert answer.status == 403
        assert await page.locator("h1").inner_text() == "This link does not open a table"
        assert "Ask the host for your link again" in await page.locator("main").inner_text()
        await page.goto(url_of(host, "Ann"))
        await page.wait_for_selector("#hand button.card")
        host.server.seat_tokens = {}  # the host no longer knows Ann's link
        for conn in list(host.server.connections):
            await conn.ws.close()
        await page.wait_for_selector("body[data-connection=refused]")
        assert (await page.locator("#banner").inner_text()).endswith(
            "ask the host for your link again.")
        await browser.close()


async def test_the_watch_page_shows_the_table_without_a_hand(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host, async_playwright() as pw:
        browser = await launch(pw)
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        await page.goto(url_of(host, None))
        await page.wait_for_selector("#players .player")
        assert await page.locator("#me").inner_text() == "Watching"
        assert await page.locator("#hand button.card").count() == 0
        assert await page.locator("#launcher").is_disabled()
        top = await page.locator("#top").get_attribute("aria-label")
        assert top is not None
        assert top.startswith("Top card: ")
        await browser.close()


async def test_the_page_names_and_signs_cards_as_the_host_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page keeps no copy of the cards' names: a rule set that calls the 5 otherwise
    (and signs it otherwise) is drawn so."""
    kinds = {**ATTACK.card_kinds, "5": {"name": "Five", "short": "5", "sign": "V",
                                        "effect": None}}
    monkeypatch.setitem(ATTACK.__dict__, "card_kinds", kinds)
    async with running_host(host_config(tmp_path)) as host, async_playwright() as pw:
        deal(host, ["R1 R2", "B1 B2", "Y1 Y2"], "R5", dealer=2)
        browser = await launch(pw)
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        await page.goto(url_of(host, None))
        await page.wait_for_selector("#top .sign")
        assert await page.locator("#top").get_attribute("aria-label") == "Top card: red Five"
        assert await page.locator("#top .sign").inner_text() == "V"
        assert await page.locator("#top .label").inner_text() == "red Five"
        await browser.close()


async def test_a_wild_asks_for_a_colour_and_a_trade_hands_for_a_seat(tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=3, launcher=NOTHING_FIRES)
    async with running_host(config) as host, async_playwright() as pw:
        deal(host, ["W GT R5 G2", "B1 B2 B3", "Y1 Y2 Y3"], "R3", dealer=2)
        browser = await launch(pw)
        ann, bob = [await (await browser.new_context(viewport=PHONE)).new_page()
                    for _ in range(2)]
        await ann.goto(url_of(host, "Ann"))
        await bob.goto(url_of(host, "Bob"))
        await ann.wait_for_selector("#hand button.card.playable")
        assert await ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        unnamed = await ann.locator("button").evaluate_all(
            "bs => bs.filter(b => !(b.getAttribute('aria-label') || b.textContent.trim()))"
            ".map(b => b.outerHTML)")
        assert unnamed == []  # every button has a name a screen reader can say
        wild = ann.locator('#hand button.card[data-code="W"]')
        assert await wild.get_attribute("aria-label") == "Wild, playable"
        assert await ann.locator('#hand button.card[data-code="G2"]').is_disabled()
        await wild.click()
        await ann.wait_for_selector("#picker[open]")
        assert await ann.locator("#picker-title").inner_text() == "Name a colour (Wild)"
        choices = await ann.locator("#picker-choices button").all_inner_texts()
        assert choices == ["red", "yellow", "green", "blue"]
        await ann.locator('#picker-choices button[data-action="play W green"]').click()
        await bob.wait_for_selector("#launcher:not([disabled])")
        assert host.flow.game.top.code == "W"
        assert host.flow.game.color.label == "green"  # type: ignore[union-attr]
        await bob.locator("#launcher").click()  # Bob has no green: he presses; Ada presses
        await ann.wait_for_selector('#hand button.card.playable[data-code="GT"]')
        await ann.locator('#hand button.card[data-code="GT"]').click()
        await ann.wait_for_selector("#picker[open]")
        seats = await ann.locator("#picker-choices button").all_inner_texts()
        assert seats == ["Bob (3 cards)", "Ada (3 cards)"]
        await ann.locator('#picker-choices button[data-action="play GT 1"]').click()
        await ann.wait_for_selector('#hand button.card[data-code="B1"]')
        assert sorted(c.code for c in host.flow.game.hands[1]) == ["G2", "R5"]
        await browser.close()
