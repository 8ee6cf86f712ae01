"""The simulated randomised launcher: a seeded policy and an ideal ejector.

Backend specs: ``sim`` (the policy given by ``--policy``, ``attack`` by default),
``sim:NAME`` (a named policy) and ``fixed:N`` (every press fires N).
"""

from __future__ import annotations

from uno_attack.launcher import (
    EjectResult,
    EjectStatus,
    LauncherSettings,
    PolicyLauncher,
    PressResult,
    empty_press,
    full_press,
)

RAN_OUT = "the launcher ran out"


class IdealEjector:
    """Cards come out exactly as asked, never more than the game says are inside."""

    def eject(self, count: int, *, available: int | None = None) -> EjectResult:
        if available is not None and available < count:
            return EjectResult(max(available, 0), EjectStatus.EMPTY, RAN_OUT)
        return EjectResult(count)

    def stop(self) -> None:
        pass  # an ideal eject is over at once

    def close(self) -> None:
        pass


class SimulatedLauncher(PolicyLauncher):
    """The policy and the ideal ejector; a press is the policy's draw and the ideal
    ejector's count, made at once (self-play makes millions of them).

    A press takes no lock: a real launcher's lock holds a second press back while a motor
    runs, and here nothing runs. Presses come one at a time, as a table makes them (the
    flow's one launcher thread, or self-play's loop)."""

    def press(self, *, available: int | None = None) -> PressResult:
        if self._closed:
            self._check_open()  # raises
        policy = self.policy
        asked = policy.next_burst()
        if asked == 0:
            return empty_press(policy.tension)
        if available is not None and available < asked:
            return self._eject(asked, available)  # the ideal ejector says how it ran out
        return full_press(asked)


def from_spec(arg: str | None, settings: LauncherSettings) -> SimulatedLauncher:
    policy = settings.make_policy(arg)
    return SimulatedLauncher(policy, IdealEjector(), name="simulated launcher")


def fixed_from_spec(arg: str | None, settings: LauncherSettings) -> SimulatedLauncher:
    return from_spec(f"fixed:{arg if arg is not None else ''}", settings)
