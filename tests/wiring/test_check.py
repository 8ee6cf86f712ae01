"""The wiring check in-process: who answers decides what can be checked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wiring.check import FAIL, PASS, SKIP, NobodyHelper, TerminalHelper, WiringCheck
from wiring.emulated import open_emulated
from wiring.pinmap import PinMap


@pytest.fixture
def emulated() -> Iterator[tuple]:  # type: ignore[type-arg]
    devices, ejector, hardware = open_emulated(PinMap.default(), time_scale=20, seed=2)
    yield devices, ejector, hardware
    ejector.close()


def verdicts(check: WiringCheck) -> dict[str, str]:
    return {r.part: r.verdict for r in check.run()}


def test_nobody_there_skips_what_needs_a_person(emulated: tuple) -> None:  # type: ignore[type-arg]
    devices, ejector, _ = emulated
    check = WiringCheck(devices, ejector, NobodyHelper(), say=lambda _: None)
    assert verdicts(check) == {"button": SKIP, "beam": SKIP, "motor": PASS, "feed": PASS,
                               "led": SKIP, "buzzer": SKIP}


def test_a_person_who_sees_no_light_fails_the_led(emulated: tuple) -> None:  # type: ignore[type-arg]
    devices, ejector, hardware = emulated
    said: list[str] = []

    def person(question: str) -> str:
        return "n" if "LED" in question else "y"

    helper = TerminalHelper(ask=person, say=said.append)
    # a person at the terminal does what is asked: here, the emulated world does it
    original = helper.request

    def act(action: str, text: str) -> None:
        original(action, text)
        if action == "push":
            hardware.world.push_button()
        elif action in ("block", "unblock"):
            hardware.world.block_beam(action == "block")

    helper.request = act  # type: ignore[method-assign]
    check = WiringCheck(devices, ejector, helper, say=said.append)
    result = verdicts(check)
    assert result["led"] == FAIL
    assert result["buzzer"] == PASS
    assert result["button"] == PASS
    assert any("push the button" in line for line in said)
    led = next(r for r in check.results.values() if r.part == "led")
    assert "GPIO22" in led.note


class JammingEjector:
    """The feed's ejects, with the first card of the first ``jams`` of them jammed (not
    stuck: a reverse pulse frees it), as the world's 0.5 % chance would now and then."""

    def __init__(self, ejector, hardware, jams: int) -> None:  # type: ignore[no-untyped-def]
        self.ejector, self.hardware, self.jams = ejector, hardware, jams
        self.ejects = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.ejector, name)

    def eject(self, count: int):  # type: ignore[no-untyped-def]
        self.ejects += 1
        if self.ejects <= self.jams:
            self.hardware.world.call(self.hardware.world.model.force_jam)
        return self.ejector.eject(count)


@pytest.mark.parametrize(("jams", "verdict", "says"), [
    (1, PASS, "a jam on the way was freed by a reverse pulse"),
    (2, FAIL, "a card jammed in each of 2 tries"),
])
def test_a_freed_jam_is_not_a_slow_feed(emulated: tuple, jams: int, verdict: str,  # type: ignore[type-arg]
                                        says: str) -> None:
    devices, ejector, hardware = emulated
    jamming = JammingEjector(ejector, hardware, jams)
    check = WiringCheck(devices, jamming, NobodyHelper(), say=lambda _: None)  # type: ignore[arg-type]
    result = check.check_feed()
    assert (result.verdict, jamming.ejects) == (verdict, 2)
    assert says in result.note
