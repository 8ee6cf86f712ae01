"""The simulated launcher at the toy's pace: a press whirs, then takes as long as its
burst or the click of nothing, while the screen stays live; ``--pace instant`` keeps
presses at once. No test waits: the sleep is handed in."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import deal, game, make_app, run, screen, settle
from uno_attack.cli.play import build_app
from uno_attack.launcher import open_launcher
from uno_attack.launchers.scripted import ScriptedLauncher
from uno_attack.launchers.simulated import SimulatedLauncher
from uno_attack.tui.local import LocalTable
from uno_attack.tui.pace import PACES, Pace, PacedLauncher, paced
from uno_attack.tui.widgets.hand import HandView
from uno_attack.tui.widgets.launcher import LauncherView

TOY = PACES["toy"]
assert TOY is not None


def test_a_press_takes_the_whir_and_then_its_burst_or_the_click() -> None:
    waits: list[float] = []
    inner = open_launcher("sim", seed=3, policy="attack")
    assert isinstance(inner, SimulatedLauncher)
    launcher = PacedLauncher(inner, Pace(spin_up=0.8, per_card=0.125, click=0.3),
                             sleep=waits.append)
    results = [launcher.press() for _ in range(30)]
    assert {r.fired == 0 for r in results} == {True, False}  # bursts and empty presses
    assert waits == [0.8 + (0.125 * r.fired if r.fired else 0.3) for r in results]
    plain = open_launcher("sim", seed=3, policy="attack")
    assert [r.fired for r in results] == [plain.press().fired for _ in range(30)]


def test_only_a_simulated_launcher_is_paced() -> None:
    scripted = ScriptedLauncher([1, 0])
    assert paced(scripted, TOY) is scripted
    sim = open_launcher("fixed:2")
    assert paced(sim, None) is sim
    assert isinstance(paced(sim, TOY), PacedLauncher)


def test_play_is_at_the_toys_pace_unless_instant(tmp_path: Path) -> None:
    def launcher(*words: str) -> object:
        app = build_app(["--quick", "--save", str(tmp_path / f"{len(words)}.json"),
                         "--no-record", *words])
        assert isinstance(app.table, LocalTable)
        found = app.table.session.launcher
        app.close_table()
        return found

    assert isinstance(launcher(), PacedLauncher)
    assert not isinstance(launcher("--pace", "instant"), PacedLauncher)


def test_the_screen_stays_live_while_the_launcher_whirs(tmp_path: Path) -> None:
    gate = threading.Event()
    asked: list[float] = []

    def sleep(seconds: float) -> None:  # the whir lasts until the test lets it end
        asked.append(seconds)
        assert gate.wait(20)

    inner = open_launcher("fixed:1")
    assert isinstance(inner, SimulatedLauncher)
    app = make_app(tmp_path, players=2, launcher_object=PacedLauncher(inner, TOY, sleep=sleep),
                   the_deal=deal(["B7 B8", "G1 G2 G3"], "R3", launcher="Y1 Y2 Y3 Y4"))

    async def body(pilot: Pilot[Any]) -> None:
        view = screen(app).query_one(LauncherView)
        view.animate_bursts = True
        hand = screen(app).query_one(HandView)
        await pilot.press("space")
        await settle(pilot, lambda: view.busy and view.whir >= 1)
        assert "WHIRR" in view.render().plain
        assert screen(app).status == "The launcher is running (your press)…"
        await pilot.press("right")  # keys still work while it whirs
        assert hand.cursor == 1
        assert len(game(app).hands[0]) == 2
        gate.set()
        await settle(pilot, lambda: not view.busy)
        assert view.whir == -1
        assert len(game(app).hands[0]) == 3
        assert asked == [TOY.spin_up + TOY.per_card]  # the whir, and one card

    run(body, app)
