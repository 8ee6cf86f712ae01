"""Building the game app for a test and waiting for it without sleeping."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from uno_attack.actions import Action, Verb
from uno_attack.engine import Round
from uno_attack.launcher import Launcher
from uno_attack.options import Options
from uno_attack.rules import ATTACK, RuleSet
from uno_attack.session import GameConfig, Session
from uno_attack.transcript import Transcript
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.local import LocalTable
from uno_attack.tui.screens.table import TableScreen


def deal(hands: Sequence[str], starter: str, *, dealer: int | None = None,
         launcher: str = "", rules: RuleSet = ATTACK) -> Transcript:
    """A hand-made deal: hands as card codes separated by spaces, seat 0 first."""
    players = len(hands)
    return Transcript(
        name="test deal", players=players,
        dealer=players - 1 if dealer is None else dealer,  # seat 0 acts first
        hands=[rules.parse_cards(h.split()) for h in hands],
        starter=rules.parse_cards([starter]), launcher=rules.parse_cards(launcher.split()))


def game_config(tmp_path: Path, *, humans: Sequence[str] = ("You",), players: int = 4,
                bots: str = "basic", launcher: str = "fixed:1", seed: int = 1,
                catch_delay: float = 0.0, options: Options | None = None,
                db: Path | None = None, bot_delay: float = 0.0) -> GameConfig:
    """A game as ``uno-attack play`` would be asked for it, with no delays (unless
    ``bot_delay``) and no animation (recording in the player store ``db`` if one is given)."""
    return GameConfig(humans=list(humans), players=players, bots=bots, launcher=launcher,
                      seed=seed, save=tmp_path / "game.json", db=db, bot_delay=bot_delay,
                      catch_delay=catch_delay, animate=False, options=options or Options())


def make_app(tmp_path: Path, *, the_deal: Transcript | None = None,
             launcher_object: Launcher | None = None, sorted_hand: bool = False,
             **config: Any) -> UnoAttackApp:
    """The app at a table as ``uno-attack play --quick`` opens it (see :func:`game_config`),
    dealt ``the_deal`` if one is given, the hand shown as dealt unless ``sorted_hand``
    (tests place cards by where they were dealt)."""
    session = Session(game_config(tmp_path, **config), launcher=launcher_object)
    if the_deal is not None:
        session.use_deal(the_deal)
    else:
        session.start_round()
    return UnoAttackApp(LocalTable(session), sorted_hand=sorted_hand)


def table(app: UnoAttackApp) -> LocalTable:
    local = app.table
    assert isinstance(local, LocalTable)
    return local


def game(app: UnoAttackApp) -> Round:
    return table(app).flow.game


def screen(app: UnoAttackApp) -> TableScreen:
    assert app.table_screen is not None
    return app.table_screen


def quiet(app: UnoAttackApp) -> bool:
    """True when only a person (or the scoreboard's Enter) can move the game on, or it is
    a person's turn and the launcher is still (bots may look at an UNO window later)."""
    local = app.table
    if not isinstance(local, LocalTable):
        return True
    flow = local.flow
    seat = flow.game.to_act if flow.session.table is not None else None
    if local.writes is not None and not local.writes.idle:
        return False  # a save or a round's records are still being written
    return flow.idle or (seat is not None and flow.is_human(seat) and flow.busy is None)


async def settle(pilot: Pilot[Any], until: Callable[[], bool] | None = None,
                 *, seconds: float = 20.0) -> None:
    """Let the table's loop, its threads and the screens run until ``until()`` holds (by
    default: until only a person can move the game on); fail after ``seconds``."""
    app = pilot.app
    assert isinstance(app, UnoAttackApp)
    check = until or (lambda: quiet(app))
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        await pilot.pause()
        if check():
            await pilot.pause()
            return
        await asyncio.sleep(0.001)  # a bot's or the launcher's thread may be at work
    raise AssertionError(f"condition never held: {check}")


def run(test: Callable[[Pilot[Any]], Awaitable[None]], app: UnoAttackApp,
        size: tuple[int, int] = (80, 24), *, settled: bool = True) -> None:
    """Run an async test body against the app (no pytest-asyncio needed), once only a
    person can move the game on (``settled=False``: at once)."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            if settled:
                await settle(pilot)
            await test(pilot)

    asyncio.run(main())


def screen_lines(app: App[Any]) -> list[str]:
    """The screen's rows as a person reads them, from Textual's SVG screenshot."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, text in re.findall(r'<text[^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>',
                                 app.export_screenshot()):
        rows.setdefault(float(y), []).append((float(x), html.unescape(text)))
    return ["".join(text for _, text in sorted(row)).replace("\xa0", " ")
            for _, row in sorted(rows.items())]


def footer_keys(app: UnoAttackApp) -> set[str]:
    """The keys the table screen's footer shows now."""
    return {key for key, active in screen(app).active_bindings.items()
            if active.binding.show and active.enabled}


def log_text(app: UnoAttackApp) -> str:
    return "\n".join(screen(app).log_lines)


def save_a_game(path: Path, presses: int = 3) -> None:
    """Write a real save at ``path``: a game of three, some presses in (the person
    presses on each turn; the bots play), as ``uno-attack play`` writes it."""
    session = Session(GameConfig(players=3, seed=3, launcher="fixed:1", save=path))
    session.start_round()
    while len(session.table.record.fires) < presses:
        seat = session.game.to_act
        assert seat is not None
        action = Action.press(seat) if session.is_human(seat) else session.bot_choice(seat)
        session.perform(action, fired=1 if action.verb is Verb.PRESS else None)
    session.close()


def steps(app: UnoAttackApp) -> int:
    """Actions made in the round at the table so far."""
    record = table(app).session.table
    return len(record.record.steps) if record is not None else 0
