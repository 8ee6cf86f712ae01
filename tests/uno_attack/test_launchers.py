"""The launcher interface with the backends that need no hardware."""

from __future__ import annotations

import pytest

from uno_attack.errors import LauncherError
from uno_attack.launcher import EjectStatus, open_launcher
from uno_attack.launchers.scripted import ScriptedLauncher, ScriptExhausted


def test_sim_is_seeded_and_reports_tension() -> None:
    first = open_launcher("sim", seed=7)
    second = open_launcher("sim:attack", seed=7)
    results = [first.press() for _ in range(200)]
    assert [r.fired for r in results] == [second.press().fired for _ in range(200)]
    empty_run = 0
    for result in results:
        empty_run = empty_run + 1 if result.fired == 0 else 0
        assert result.tension == empty_run
        assert result.fired == result.asked
        assert result.complete


def test_sim_never_fires_more_than_inside() -> None:
    launcher = open_launcher("fixed:5")
    result = launcher.press(available=2)
    assert (result.fired, result.asked, result.status) == (2, 5, EjectStatus.EMPTY)


def test_scripted_fires_the_script_then_says_so() -> None:
    launcher = open_launcher("scripted:1,0,2")
    assert isinstance(launcher, ScriptedLauncher)
    assert [launcher.press().fired for _ in range(3)] == [1, 0, 2]
    with pytest.raises(ScriptExhausted, match="fires ran out"):
        launcher.press()


def test_close_is_idempotent_and_final() -> None:
    with open_launcher("sim") as launcher:
        pass
    assert launcher.closed
    launcher.close()
    with pytest.raises(LauncherError, match="closed"):
        launcher.press()


@pytest.mark.parametrize(("spec", "fragment"), [
    ("laser", "unknown launcher 'laser'"),
    ("sim:wild", "unknown policy 'wild'"),
    ("fixed:99", "fixed:99"),
    ("scripted:1,x", "scripted:1,x"),
])
def test_bad_specs(spec: str, fragment: str) -> None:
    with pytest.raises(LauncherError, match=fragment):
        open_launcher(spec)


def test_button_events_reach_the_handler() -> None:
    launcher = open_launcher("sim")
    seen: list[int] = []
    launcher.when_button_pressed = lambda: seen.append(launcher.button_presses)
    launcher.button_pressed()
    launcher.button_pressed()
    assert seen == [1, 2]
    assert launcher.wait_for_button(timeout=0)
