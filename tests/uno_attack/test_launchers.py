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


@pytest.mark.parametrize("spec", ["sim", "sim:brutal", "gpio:emulated,scale=50",
                                  "scripted:0,0,3,0,1,0,0"])
def test_a_launcher_goes_on_from_its_state_as_json(spec: str) -> None:
    """state() is plain JSON; restore() of it on a launcher opened anew gives the presses
    (and the tension) the first one goes on with."""
    import json

    first = open_launcher(spec, seed=3)
    for _ in range(5):
        first.press(available=50)
    state = json.loads(json.dumps(first.state()))
    assert state == {"presses": 5}
    again = open_launcher(spec, seed=3)
    again.restore(state)
    assert again.tension == first.tension
    assert [again.press(available=50) for _ in range(2)] == \
        [first.press(available=50) for _ in range(2)]
    first.close()
    again.close()


def test_a_state_a_launcher_cannot_take_names_its_key_and_value() -> None:
    for spec in ("sim", "scripted:1"):
        with pytest.raises(LauncherError, match=r"state key 'presses' = -1 is not a count"):
            open_launcher(spec).restore({"presses": -1})


def test_a_launcher_that_remembers_nothing_takes_any_state() -> None:
    from uno_attack.launcher import Launcher, PressResult

    class Plain(Launcher):  # a backend that ejects what it is told, with no policy
        tension = 0

        def press(self, *, available: int | None = None) -> PressResult:
            return PressResult(1, 1)

        def eject(self, count: int, *, available: int | None = None) -> PressResult:
            return PressResult(count, count)

    plain = Plain()
    assert plain.state() == {}
    plain.restore({"presses": 12})
    assert plain.press() == PressResult(1, 1)
