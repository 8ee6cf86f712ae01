"""Each fault of the emulated world means the same thing to the GPIO pins and to the board.

Every fault is put to both emulated launchers, ``gpio:emulated`` (the GPIO driver on
gpiozero's mock pins) and ``serial:emulated`` (the firmware behind a pty, driven over
ULP/1), through the launcher interface the game uses, and must give the same outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from firmware_bridge.backend import SerialLauncher
from sim_launcher.dispenser import Settings
from sim_launcher.physical import DispenserParams
from sim_launcher.world import FAULTS, DispenserWorld
from uno_attack.launcher import EjectStatus, PolicyLauncher, open_launcher

SCALE = 20.0
BACKENDS = ("gpio", "serial")


def open_emulated(backend: str, fault: str | None) -> PolicyLauncher:
    """An emulated launcher with a hopper sensor and no chance jams, and ``fault``."""
    if backend == "gpio":
        spec = f"gpio:emulated,scale={SCALE:g},jams=0" + (f",fault={fault}" if fault else "")
        launcher = open_launcher(spec, seed=3, policy="fixed:1")
    else:
        params = DispenserParams(jam_probability=0.0, hopper_sensor=True)
        launcher = open_launcher("serial:emulated", seed=3, policy="fixed:1", config={
            "time_scale": SCALE, "params": params, "faults": [fault] if fault else [],
            "retry_s": 0.05, "poll_s": 0.05, "ping_s": 5})
    assert isinstance(launcher, PolicyLauncher)
    assert launcher.world is not None
    return launcher


@pytest.fixture
def emulated() -> Iterator[Callable[[str, str | None], PolicyLauncher]]:
    opened: list[PolicyLauncher] = []

    def open_(backend: str, fault: str | None) -> PolicyLauncher:
        opened.append(open_emulated(backend, fault))
        return opened[-1]

    yield open_
    for launcher in opened:
        launcher.close()


def world_of(launcher: PolicyLauncher) -> DispenserWorld:
    assert launcher.world is not None
    return launcher.world


def presses_heard(launcher: PolicyLauncher) -> int:
    """The presses the launcher counted of pushes the world has finished.

    The GPIO driver counts each in the world's own thread, as its edge happens. The serial
    host hears them as lines: once a STATUS has come back its count is final (the board
    sent every PRESS before that reply, and STATUS counts any lost), and the launcher
    then waits only for its own events to be delivered."""
    if isinstance(launcher, SerialLauncher):
        launcher.link.status()
        while launcher.button_presses < launcher.link.presses \
                and launcher.wait_for_button(10):
            pass
    return launcher.button_presses


def outcome(launcher: PolicyLauncher, fault: str) -> object:
    """What a person at the table sees of ``fault``, the same words for either launcher."""
    world = world_of(launcher)
    if fault in ("jam", "beam-stuck", "motor-dead"):
        result = launcher.eject(3)
        return result.status, result.fired, world.model.duty
    if fault == "empty":
        result = launcher.eject(3)
        return result.status, result.fired, world.model.cards_out
    if fault in ("button-dead", "bouncy-button"):
        for _ in range(3):
            world.push_button()
        assert world.wait_idle(10)
        return "presses", presses_heard(launcher)
    if fault in ("led-dead", "buzzer-broken"):
        part = world.led if fault == "led-dead" else world.buzzer
        result = launcher.eject(2)
        world.now_ms()
        driven = any(on for _, on in part.changes)
        return (result.status, result.fired, "driven" if driven else "never driven",
                "noticed" if part.noticed else "never noticed", "off now" if not part.on
                else "still on")
    if fault == "roller-slipping":
        rolled = world.model.roller_ms
        result = launcher.eject(3)
        world.now_ms()
        nominal = 3 * Settings().card_ms(Settings().duty)
        slow = world.model.roller_ms - rolled >= 2 * nominal
        return result.status, result.fired, "slow" if slow else "at speed"
    raise AssertionError(f"no outcome written for fault {fault!r}")


EXPECTED = {
    "jam": (EjectStatus.JAM, 0, 0.0),
    "beam-stuck": (EjectStatus.JAM, 0, 0.0),
    "motor-dead": (EjectStatus.JAM, 0, 0.0),
    "empty": (EjectStatus.EMPTY, 0, 0),
    "button-dead": ("presses", 0),
    "bouncy-button": ("presses", 3),
    "led-dead": (EjectStatus.OK, 2, "driven", "never noticed", "off now"),
    "buzzer-broken": (EjectStatus.OK, 2, "driven", "never noticed", "off now"),
    "roller-slipping": (EjectStatus.OK, 3, "slow"),
}


def test_every_fault_has_its_outcome() -> None:
    assert set(EXPECTED) == set(FAULTS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_fault_means_the_same_on_both(emulated: Callable[[str, str | None], PolicyLauncher],
                                        backend: str, fault: str) -> None:
    assert outcome(emulated(backend, fault), fault) == EXPECTED[fault]


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_the_faults_each_check_comes_out_the_other_way(
        emulated: Callable[[str, str | None], PolicyLauncher], backend: str) -> None:
    """The same questions of a sound dispenser: so the outcomes above are the faults'."""
    assert outcome(emulated(backend, None), "jam") == (EjectStatus.OK, 3, 0.0)
    assert outcome(emulated(backend, None), "bouncy-button") == ("presses", 3)
    assert outcome(emulated(backend, None), "led-dead") == (EjectStatus.OK, 2, "driven",
                                                              "noticed", "off now")
    assert outcome(emulated(backend, None), "buzzer-broken") == (EjectStatus.OK, 2, "driven",
                                                                   "noticed", "off now")
    assert outcome(emulated(backend, None), "roller-slipping") == (EjectStatus.OK, 3,
                                                                     "at speed")
