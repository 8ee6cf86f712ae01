"""Building the game app for a test and waiting for it without sleeping."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from uno_attack.actions import Action, Verb
from uno_attack.launcher import Launcher
from uno_attack.options import Options
from uno_attack.rules import ATTACK
from uno_attack.session import GameConfig, Session
from uno_attack.transcript import Transcript
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.screens.start import StartScreen


def deal(hands: Sequence[str], starter: str, *, dealer: int | None = None,
         launcher: str = "") -> Transcript:
    """A hand-made deal: hands as card codes separated by spaces, seat 0 first."""
    players = len(hands)
    return Transcript(
        name="test deal", players=players,
        dealer=players - 1 if dealer is None else dealer,  # seat 0 acts first
        hands=[ATTACK.parse_cards(h.split()) for h in hands],
        starter=ATTACK.parse_cards([starter]), launcher=ATTACK.parse_cards(launcher.split()))


def make_app(tmp_path: Path, *, humans: Sequence[str] = ("You",), players: int = 4,
             bots: str = "basic", launcher: str = "fixed:1", seed: int = 1,
             the_deal: Transcript | None = None, launcher_object: Launcher | None = None,
             catch_delay: float = 0.0, options: Options | None = None,
             db: Path | None = None) -> UnoAttackApp:
    """The app as ``uno-attack play`` builds it, with no delays and no animation
    (recording in the player store ``db`` if one is given)."""
    config = GameConfig(humans=list(humans), players=players, bots=bots, launcher=launcher,
                        seed=seed, save=tmp_path / "game.json", db=db, bot_delay=0.0,
                        catch_delay=catch_delay, animate=False, options=options or Options())
    session = Session(config, launcher=launcher_object)
    if the_deal is not None:
        session.use_deal(the_deal)
    else:
        session.start_round()
    return UnoAttackApp(session)


async def settle(pilot: Pilot[Any], until: Callable[[], bool] | None = None,
                 *, rounds: int = 100) -> None:
    """Let timers, workers and screens run until ``until()`` holds (or all is quiet)."""
    app = pilot.app
    assert isinstance(app, UnoAttackApp)
    check = until or (lambda: waiting_for_person(app))
    for _ in range(rounds):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if check():
            await pilot.pause()
            return
    raise AssertionError(f"condition never held: {check}")


def waiting_for_person(app: UnoAttackApp) -> bool:
    """True when only a person can move the game on (or a dialog is up)."""
    if app.table_screen is None:
        return isinstance(app.screen, StartScreen)  # resume the saved game, or a new one?
    if app.busy:
        return False
    if app.screen is not app.table_screen:
        return True
    game = app.session.game
    if game.over:
        return False  # the scoreboard is about to open
    seat = game.to_act
    return seat is not None and app.session.is_human(seat)


def run(test: Callable[[Pilot[Any]], Awaitable[None]], app: UnoAttackApp,
        size: tuple[int, int] = (80, 24)) -> None:
    """Run an async test body against the app (no pytest-asyncio needed)."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await test(pilot)

    asyncio.run(main())


def log_text(app: UnoAttackApp) -> str:
    return "\n".join(app.log_lines)


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
