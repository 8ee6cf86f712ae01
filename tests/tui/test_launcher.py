"""The launcher in the game: thread workers, problems with a way on, the hardware button."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import deal, game, log_text, make_app, run, screen, settle, table
from uno_attack.launcher import EjectStatus, Launcher, LauncherNotResponding, PressResult
from uno_attack.transcript import load
from uno_attack.tui.screens.dialogs import HelpScreen, LauncherProblemScreen, QuitScreen
from uno_attack.tui.widgets.launcher import LauncherView

Outcome = PressResult | Exception


class TroubledLauncher(Launcher):
    """Answers presses from a list; a retry ejects what is asked; may block until released."""

    def __init__(self, outcomes: list[Outcome], *, gate: threading.Event | None = None) -> None:
        super().__init__()
        self.outcomes = outcomes
        self.ejected: list[int] = []
        self.gate = gate

    @property
    def tension(self) -> int:
        return 0

    def press(self, *, available: int | None = None) -> PressResult:
        if self.gate is not None:
            self.gate.wait(5)
        outcome = self.outcomes.pop(0) if self.outcomes else PressResult(0, 0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def eject(self, count: int, *, available: int | None = None) -> PressResult:
        self.ejected.append(count)
        return PressResult(count, count)


def _app(tmp_path: Path, launcher: Launcher) -> Any:
    return make_app(tmp_path, players=2, launcher_object=launcher,
                    the_deal=deal(["R5 B7", "G1 G2 G3"], "Y3", launcher="B1 B2 B3 B4 B5"))


def test_a_jam_offers_a_retry_that_ejects_the_rest(tmp_path: Path) -> None:
    launcher = TroubledLauncher([PressResult(1, 3, EjectStatus.JAM, detail="jammed")])
    app = _app(tmp_path, launcher)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("space")
        await settle(pilot, lambda: isinstance(app.screen, LauncherProblemScreen))
        assert "stopped after 1 of 3 cards (jammed)" in app.screen.message
        await pilot.press("r")
        await settle(pilot, lambda: "3 cards fired" in log_text(app))
        assert launcher.ejected == [2]
        assert load(tmp_path / "game.json").fires == [3]

    run(body, app)


def test_the_launcher_s_own_button_retries_and_closes_the_jam_dialog(tmp_path: Path) -> None:
    launcher = TroubledLauncher([PressResult(1, 3, EjectStatus.JAM, detail="jammed")])
    app = _app(tmp_path, launcher)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("space")
        await settle(pilot, lambda: isinstance(app.screen, LauncherProblemScreen))
        # at this keyboard the person reading answers, nobody else ("or the host")
        assert "(jammed): say how many came out" in log_text(app)
        assert "host" not in log_text(app)
        await pilot.press("2")  # a count begun in the dialog …
        await asyncio.to_thread(launcher.button_pressed)  # … when the board's button retries
        await settle(pilot, lambda: "3 cards fired" in log_text(app))
        await settle(pilot, lambda: not isinstance(app.screen, LauncherProblemScreen))
        await pilot.press("enter")
        await pilot.pause()
        assert "fired" not in screen(app).message  # no count answers a problem now gone
        assert "unknown verb" not in log_text(app) + screen(app).message
        assert launcher.ejected == [2]
        assert load(tmp_path / "game.json").fires == [3]

    run(body, app)


def test_a_launcher_not_answering_takes_the_count_by_hand(tmp_path: Path) -> None:
    launcher = TroubledLauncher([LauncherNotResponding("no answer on /dev/ttyACM0")])
    app = _app(tmp_path, launcher)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("space")
        await settle(pilot, lambda: isinstance(app.screen, LauncherProblemScreen))
        assert "not answering" in app.screen.message
        await pilot.press("2", "enter")
        await settle(pilot, lambda: "2 cards fired" in log_text(app))
        assert len(game(app).hands[0]) == 4

    run(body, app)


def test_an_unknown_outcome_asks_how_many_came_out(tmp_path: Path) -> None:
    launcher = TroubledLauncher([PressResult(1, 4, EjectStatus.UNKNOWN, detail="board reset")])
    app = _app(tmp_path, launcher)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("space")
        await settle(pilot, lambda: isinstance(app.screen, LauncherProblemScreen))
        assert "lost count" in app.screen.message
        await pilot.press("enter")  # the counted 1 is right
        await settle(pilot, lambda: "1 card fired" in log_text(app))

    run(body, app)


def test_the_screen_stays_alive_while_the_motor_runs(tmp_path: Path) -> None:
    gate = threading.Event()
    launcher = TroubledLauncher([PressResult(2, 2)], gate=gate)
    app = _app(tmp_path, launcher)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("space")
        await settle(pilot, lambda: table(app).flow.busy is not None)
        assert screen(app).query_one(LauncherView).busy
        await pilot.press("question_mark")  # the UI still answers keys
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        gate.set()
        await settle(pilot, lambda: "2 cards fired" in log_text(app))
        assert table(app).flow.busy is None

    run(body, app)


def test_the_hardware_button_is_the_acting_players_press(tmp_path: Path) -> None:
    launcher = TroubledLauncher([PressResult(1, 1)])
    app = _app(tmp_path, launcher)

    async def body(pilot: Pilot[Any]) -> None:
        await asyncio.to_thread(launcher.button_pressed)  # from the hardware's own thread
        await settle(pilot, lambda: "You pressed the launcher: 1 card fired" in log_text(app))

    run(body, app)


def test_quit_asks_first(tmp_path: Path) -> None:
    app = _app(tmp_path, TroubledLauncher([]))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        assert "--resume" in app.screen.save_hint
        await pilot.press("n")
        assert not isinstance(app.screen, QuitScreen)
        await pilot.press("q", "y")
        await pilot.pause()
        assert app._exit

    run(body, app)


def test_a_burst_right_after_another_ends_on_its_count(tmp_path: Path) -> None:
    """Two presses that fire one after the other (a bot's after mine): the second burst
    plays out and the launcher then says what fired, not a frozen first frame."""
    app = _app(tmp_path, TroubledLauncher([]))

    async def body(pilot: Pilot[Any]) -> None:
        launcher = screen(app).query_one(LauncherView)
        launcher.animate_bursts = True
        launcher.fire(2)
        await pilot.pause(0.2)  # the first burst mid-way
        launcher.fire(3)
        await settle(pilot, lambda: launcher.frame == -1)
        await pilot.pause(0.3)  # longer than a frame: a stray tick would show now
        assert launcher.frame == -1
        assert "3 CARDS FIRED!" in str(launcher.render())

    run(body, app)
