"""The simulated randomised launcher: a seeded policy and an ideal ejector.

Backend specs: ``sim`` (the policy given by ``--policy``, ``attack`` by default),
``sim:NAME`` (a named policy) and ``fixed:N`` (every press fires N).
"""

from __future__ import annotations

from uno_attack.launcher import EjectResult, EjectStatus, LauncherSettings, PolicyLauncher


class IdealEjector:
    """Cards come out exactly as asked, never more than the game says are inside."""

    def eject(self, count: int, *, available: int | None = None) -> EjectResult:
        if available is not None and available < count:
            return EjectResult(max(available, 0), EjectStatus.EMPTY, "the launcher ran out")
        return EjectResult(count)

    def stop(self) -> None:
        pass  # an ideal eject is over at once

    def close(self) -> None:
        pass


class SimulatedLauncher(PolicyLauncher):
    """The policy and the ideal ejector."""


def from_spec(arg: str | None, settings: LauncherSettings) -> SimulatedLauncher:
    policy = settings.make_policy(arg)
    return SimulatedLauncher(policy, IdealEjector(), name="simulated launcher")


def fixed_from_spec(arg: str | None, settings: LauncherSettings) -> SimulatedLauncher:
    return from_spec(f"fixed:{arg if arg is not None else ''}", settings)
