"""The table page calls its person and explains itself, in a real browser (the project's
Chromium through Playwright): "Your turn" in the title of a hidden page, with a sound and
a buzz; sounds made through Web Audio and a mute switch that silences them (and is
remembered); the help panel with the table's rules from the host; the colour-blind mode;
a 25-card hand at 360×740. ``UNO_ATTACK_HELP_SHOT`` keeps a screenshot of the help."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.async_api import Page, async_playwright

from tests.net.helpers import NOTHING_FIRES, deal, host_config, running_host, url_of
from tests.net.test_page_in_browser import launch
from uno_attack.net.host import Host
from uno_attack.rules import ATTACK
from uno_attack.wording import OPTION_WORDS, VALUE_WORDS

PHONE = {"width": 360, "height": 740}

#: Installed before the page's own scripts: every AudioContext made and the pitch each of
#: its tones starts at, and every vibration asked for.
SPIES = """
window.__audio = { contexts: 0, tones: [] };
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) { super(...args); window.__audio.contexts += 1; }
  createOscillator() {
    const osc = super.createOscillator();
    const set = osc.frequency.setValueAtTime.bind(osc.frequency);
    osc.frequency.setValueAtTime = (value, at) => {
      window.__audio.tones.push(Math.round(value));
      return set(value, at);
    };
    return osc;
  }
};
window.__vibrations = [];
Object.defineProperty(navigator, "vibrate", { configurable: true,
  value: (pattern) => { window.__vibrations.push(pattern); return true; } });
"""

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", { configurable: true,
    get: () => (hidden ? "hidden" : "visible") });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

TURN = [523, 659, 784]  # the your-turn chime
CARD = 320  # a card laid down
WHIR = 70  # the launcher spinning up


async def poll(page: Page, expression: str, expected: Any, timeout: float = 10.0) -> None:
    """Wait until ``expression`` gives ``expected`` in the page (its CSP forbids the eval
    that ``wait_for_function`` needs, so this asks from outside)."""
    got = None
    for _ in range(int(timeout / 0.02)):
        got = await page.evaluate(expression)
        if got == expected:
            return
        await page.wait_for_timeout(20)
    raise AssertionError(f"{expression} is {got!r}, not {expected!r}")


async def open_page(browser: Any, host: Host, name: str | None) -> Page:
    context = await browser.new_context(viewport=PHONE)
    await context.add_init_script(SPIES)
    page = await context.new_page()
    await page.goto(url_of(host, name))
    await page.wait_for_selector("body[data-seq]")
    return page


async def test_a_hidden_page_is_called_at_its_turn_and_mute_silences_the_sounds(
        tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=3,
                         launcher="scripted:0,3," + ",".join(["0"] * 50))
    async with running_host(config) as host, async_playwright() as pw:
        deal(host, ["R1 R2 R3", "G1 B2 B3", "Y2 Y3 Y4"], "G5", dealer=0)  # Bob first
        browser = await launch(pw)
        ann = await open_page(browser, host, "Ann")
        await poll(ann, "document.title", "Ann · UNO Attack")
        await ann.evaluate(HIDE, True)  # Ann looks at another app
        host.flow.act(1, "play G1")  # Bob plays; Ada presses (nothing fires); Ann's turn
        await poll(ann, "document.title", "▶ Your turn! · Ann · UNO Attack")
        assert await ann.evaluate("window.__audio.contexts") == 1
        assert await ann.evaluate("window.__audio.tones") == [CARD, *TURN]
        assert await ann.evaluate("window.__vibrations") == [[200, 100, 200]]
        await ann.evaluate(HIDE, False)  # she comes back: the title is plain again
        await poll(ann, "document.title", "Ann · UNO Attack")

        await ann.locator("#mute").click()
        assert await ann.locator("#mute").get_attribute("aria-pressed") == "true"
        await ann.locator("#launcher").click()  # 3 cards fly at Ann: a buzz, no sound
        await poll(ann, "document.querySelectorAll('#hand button.card').length", 6)
        assert await ann.evaluate("window.__audio.tones") == [CARD, *TURN]  # no whir, no burst
        assert await ann.evaluate("window.__vibrations") == [[200, 100, 200],
                                                             [80, 40, 80, 40, 160]]
        await ann.reload()  # the switch is remembered
        await ann.wait_for_selector("body[data-seq]")
        assert await ann.locator("#mute").get_attribute("aria-pressed") == "true"
        await ann.locator("#mute").click()  # on again: a press whirs
        await browser.close()


async def test_a_press_whirs_and_the_page_makes_no_sound_for_a_watcher_turn(
        tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=3, launcher=NOTHING_FIRES)
    async with running_host(config) as host, async_playwright() as pw:
        deal(host, ["R1 R2 R3", "B1 B2 B3", "Y1 Y2 Y3"], "G5", dealer=2)  # Ann first
        browser = await launch(pw)
        ann = await open_page(browser, host, "Ann")
        watch = await open_page(browser, host, None)
        await poll(ann, "window.__audio.tones", TURN)
        await ann.locator("#launcher").click()
        await poll(ann, "window.__audio.tones.includes(70)", True)
        assert await watch.evaluate("window.__audio.tones") == []  # no one's turn to call
        assert await watch.evaluate("window.__vibrations") == []
        await browser.close()


async def test_the_help_panel_lists_the_tables_house_rules_and_cards(tmp_path: Path) -> None:
    config = host_config(tmp_path, options=["stacking=same", "jump_in=numbers",
                                            "target=200"])
    async with running_host(config) as host, async_playwright() as pw:
        browser = await launch(pw)
        ann = await open_page(browser, host, "Ann")
        await ann.locator("#help-open").click()
        await ann.wait_for_selector("#help[open]")
        assert await ann.locator("#help-rules").inner_text() == (
            "UNO Attack, a points match to 200.")
        assert await ann.locator("#help-house li").all_inner_texts() == [  # as declared
            f"{OPTION_WORDS[key][0]}: {VALUE_WORDS[key, value]} — {OPTION_WORDS[key][1]}"
            for key, value in (("stacking", "same"), ("jump_in", "numbers"))]
        cards = await ann.locator("#help-cards li").all_inner_texts()
        assert cards == ["1–9Numbers — number cards, no effect"] + [
            f"{kind['sign'] or symbol}{kind['name']} — {kind['effect']}"
            for symbol, kind in ATTACK.card_kinds.items() if kind["effect"]]
        shot = os.environ.get("UNO_ATTACK_HELP_SHOT")
        if shot:
            await ann.screenshot(path=shot)
        await ann.locator("#help-close").click()
        assert not await ann.locator("#help").is_visible()
        await browser.close()


async def test_colour_blind_mode_marks_colours_by_shape_and_letter_and_is_remembered(
        tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host, async_playwright() as pw:
        deal(host, ["R1 Y2 G3 B4 W", "B1 B2 B3", "Y1 Y2 Y3"], "G5", dealer=2)
        browser = await launch(pw)
        ann = await open_page(browser, host, "Ann")
        await ann.wait_for_selector("#hand button.card")
        mark = ann.locator('#hand button.card[data-code="R1"] .mark')
        assert not await mark.is_visible()
        await ann.locator("#colourblind").click()
        assert await ann.locator("#colourblind").get_attribute("aria-pressed") == "true"
        marks = await ann.locator("#hand button.card .mark").all_inner_texts()
        assert marks == ["■", "▲", "●", "◆", "✱"]  # a shape for each colour, and wild
        corners = await ann.locator("#hand button.card .code").all_inner_texts()
        assert corners == ["R1", "Y2", "G3", "B4", "W"]  # and its letter
        patterns = await ann.locator("#hand button.card").evaluate_all(
            "cs => cs.map(c => getComputedStyle(c).backgroundImage.split('(')[0])")
        assert patterns[:4] == ["repeating-linear-gradient", "radial-gradient",
                                "repeating-linear-gradient", "repeating-linear-gradient"]
        await ann.reload()
        await ann.wait_for_selector("#hand button.card")
        assert await ann.locator("body.colourblind").count() == 1
        assert await mark.is_visible()
        await browser.close()


async def test_a_25_card_hand_is_sorted_and_every_card_reachable_at_360_by_740(
        tmp_path: Path) -> None:
    hand = [f"{c}{n}" for c in "RYG" for n in range(1, 10)][:25]
    dealt = hand[::2] + hand[1::2]  # not in order
    config = host_config(tmp_path, launcher=NOTHING_FIRES)
    async with running_host(config) as host, async_playwright() as pw:
        deal(host, [" ".join(dealt), "B1 B2 B3", "B4 B5 B6"], "B7", dealer=2)  # Ann first
        browser = await launch(pw)
        ann = await open_page(browser, host, "Ann")
        await ann.wait_for_selector("#hand button.card.playable")
        codes = await ann.locator("#hand button.card").evaluate_all(
            "cs => cs.map(c => c.dataset.code)")
        assert codes == hand  # by colour, then by number
        assert await ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        sizes = await ann.locator("#hand button.card").evaluate_all(
            "cs => cs.map(c => [c.offsetWidth, c.offsetHeight])")
        assert all(w >= 48 and h >= 48 for w, h in sizes)  # each big enough to tap
        box = await ann.locator("#hand").bounding_box()
        assert box is not None
        assert await ann.evaluate(
            "document.getElementById('hand').scrollHeight"
            " > document.getElementById('hand').clientHeight")  # the hand scrolls in its box
        assert box["height"] <= 0.5 * PHONE["height"]
        last = ann.locator('#hand button.card[data-code="G7"]')
        await last.click()  # the last card is reached by scrolling the hand, and played
        await poll(ann, "document.getElementById('top').getAttribute('aria-label')",
                   "Top card: green 7")
        assert host.flow.game.top.code == "G7"
        await browser.close()
