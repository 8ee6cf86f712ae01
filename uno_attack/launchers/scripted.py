"""A launcher that fires exactly the numbers of a script (a transcript's ``fires``).

Spec ``scripted:1,0,2``. When the script runs out, a press raises
:class:`ScriptExhausted`, which a replay reports as "fires ran out".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sim_launcher.numbers import parse_int
from uno_attack.errors import LauncherError
from uno_attack.launcher import (
    EjectResult,
    EjectStatus,
    Launcher,
    LauncherSettings,
    LauncherState,
    PressResult,
    presses_of,
)


class ScriptExhausted(LauncherError):
    """A press was made after the script's last number."""


class ScriptedLauncher(Launcher):
    """Fires the scripted counts in order; tension counts empty presses as usual."""

    def __init__(self, fires: Iterable[int]) -> None:
        super().__init__()
        self.fires = list(fires)
        for i, k in enumerate(self.fires):
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                raise LauncherError(f"scripted launcher: fires[{i}] = {k!r} is not a count ≥ 0")
        self.position = 0
        self._tension = 0

    @property
    def description(self) -> str:
        return f"scripted launcher ({len(self.fires) - self.position} presses left)"

    @property
    def tension(self) -> int:
        return self._tension

    def state(self) -> LauncherState:
        return {"presses": self.position}

    def restore(self, state: Mapping[str, int]) -> None:
        """Go on after ``presses`` of the script (past its end: at its end), the tension
        its empty presses left."""
        self.position = min(presses_of(state, self.description), len(self.fires))
        self._tension = 0
        for asked in self.fires[:self.position]:
            self._tension = self._tension + 1 if asked == 0 else 0

    def press(self, *, available: int | None = None) -> PressResult:
        self._check_open()
        if self.position >= len(self.fires):
            raise ScriptExhausted(f"fires ran out: the script has {len(self.fires)} presses")
        asked = self.fires[self.position]
        self.position += 1
        self._tension = self._tension + 1 if asked == 0 else 0
        return self._result(asked, available)

    def eject(self, count: int, *, available: int | None = None) -> PressResult:
        self._check_open()
        return self._result(count, available)

    def _result(self, asked: int, available: int | None) -> PressResult:
        result = EjectResult(asked)
        if available is not None and available < asked:
            result = EjectResult(max(available, 0), EjectStatus.EMPTY)
        return PressResult(result.count, asked, result.status, self._tension)


def from_spec(arg: str | None, settings: LauncherSettings) -> ScriptedLauncher:
    text = arg or ""
    try:
        fires = [parse_int(part.strip(), low=0) for part in text.split(",") if part.strip()]
    except ValueError:
        raise LauncherError(f"invalid launcher 'scripted:{text}': expected numbers "
                            "separated by commas, such as scripted:1,0,2") from None
    return ScriptedLauncher(fires)
