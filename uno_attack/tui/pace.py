"""The simulated launcher at the toy's pace: a press whirs before it answers, then the
burst takes as long as its cards do, or the click of nothing comes.

Self-play and the tests want presses at once (``--pace instant``); a person at the table
wants the toy's suspense. The wait is made in the press itself, which the table runs in a
worker thread, so the screen stays live (the launcher panel whirs) meanwhile. ``sleep``
is injectable: a test passes one that does not wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from sim_launcher import dispenser
from uno_attack.launcher import Launcher, PressResult
from uno_attack.launchers.simulated import SimulatedLauncher


@dataclass(frozen=True)
class Pace:
    """Seconds of a press: the whir before it answers, each card of a burst, the click
    of an empty press."""

    spin_up: float
    per_card: float
    click: float

    def of(self, result: PressResult) -> float:
        """How long this press takes."""
        return self.spin_up + (self.per_card * result.fired if result.fired else self.click)


#: ``--pace`` words: the toy's (its whir, then cards as fast as the dispenser's model fires
#: them at full duty) or none at all.
PACES: dict[str, Pace | None] = {
    "toy": Pace(spin_up=0.8, per_card=1 / dispenser.CARDS_PER_SECOND, click=0.3),
    "instant": None}


class PacedLauncher(SimulatedLauncher):
    """A simulated launcher (its very policy, so its presses are the same) whose every
    press takes the time ``pace`` says."""

    def __init__(self, inner: SimulatedLauncher, pace: Pace, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(inner.policy, inner.ejector, name=inner.name, world=inner.world)
        self.pace = pace
        self._sleep = sleep

    def press(self, *, available: int | None = None) -> PressResult:
        result = super().press(available=available)
        self._sleep(self.pace.of(result))
        return result


def paced(launcher: Launcher, pace: Pace | None, *,
          sleep: Callable[[float], None] = time.sleep) -> Launcher:
    """``launcher`` at ``pace`` if it is a simulated one (hardware takes its own time)."""
    if pace is None or not isinstance(launcher, SimulatedLauncher):
        return launcher
    return PacedLauncher(launcher, pace, sleep=sleep)
