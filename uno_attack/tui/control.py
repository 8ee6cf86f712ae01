"""What the table screen drives: a table played here, one hosted elsewhere, or a replay.

The screens draw from :meth:`TableControl.seen` and send :class:`~uno_attack.actions.Action`
values (the launcher's question alone is answered in text). Three implementations:
:class:`~uno_attack.tui.local.LocalTable` (the session and its
:class:`~uno_attack.flow.TableFlow` in this app's event loop: hot-seat, the launcher's
button, the operator's answers), :class:`~uno_attack.net.join_app.RemoteTable` (a
:class:`~uno_attack.net.client.TableClient` of a host) and
:class:`~uno_attack.tui.watch.ReplayTable` (a saved round, stepped through). Each tells the
screens listening to it through one :class:`Listeners`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from uno_attack.actions import Action
from uno_attack.journal import SaveFailure
from uno_attack.store import PlayerStats
from uno_attack.tui.seen import Seen


class Listeners:
    """The screens listening to a table: each told of every change and every refusal."""

    def __init__(self) -> None:
        self._listening: list[tuple[Callable[[], None], Callable[[str], None]]] = []

    def listen(self, changed: Callable[[], None],
               refused: Callable[[str], None]) -> Callable[[], None]:
        """Add a listener; returns the function that takes it away again."""
        listener = (changed, refused)
        self._listening.append(listener)
        return lambda: self._listening.remove(listener)

    def changed(self) -> None:
        for changed, _ in list(self._listening):
            changed()

    def refused(self, reason: str) -> None:
        for _, refused in list(self._listening):
            refused(reason)


@dataclass(frozen=True)
class ScoreLine:
    """One player of the match: ``by_round`` holds their points of each round so far
    (``None`` for a round they were out of); ``cards_left`` is ``None`` when they did not
    sit in this round."""

    name: str
    cards_left: int | None
    by_round: tuple[int | None, ...]
    total: int
    out: bool = False
    level: str = ""


@dataclass(frozen=True)
class Scoreboard:
    """The scores after a round: ``winner`` names the match's winner(s) once it is over;
    ``news`` are lines to announce (who went up a level); ``next_round`` says how the
    next round comes (``None``: Enter deals it here)."""

    title: str
    lines: tuple[ScoreLine, ...]
    round_no: int
    target: int
    mode: str
    winner: str | None = None
    news: tuple[str, ...] = ()
    next_round: str | None = None


class TableControl(Protocol):
    """A table as a screen sees it; see the module docstring."""

    #: whether the burst animation plays
    animate: bool
    #: whether the last scoreboard offers a new match here (a host deals its own)
    can_start_new: bool
    #: why this end has no seat to act for when the screen shows none (a watcher, nobody
    #: at the keyboard yet)
    seatless: str

    def listen(self, changed: Callable[[], None],
               refused: Callable[[str], None]) -> Callable[[], None]:
        """Call ``changed()`` after every change, ``refused(reason)`` for a refused act
        (both in the event loop), until the returned function is called."""
        ...

    async def run(self) -> None:
        """Play (or stay connected) until :meth:`close`."""
        ...

    def seen(self) -> Seen | None:
        """The table now, or ``None`` before there is one to show (connecting)."""
        ...

    def act(self, move: Action | str, seat: int | None = None) -> None:
        """Send an action of ``seat`` (default: the seat on the screen), or a text answer
        to the launcher's question (``retry``, ``fired N``). A refusal comes back through
        ``refused``."""
        ...

    def check(self, action: Action) -> str | None:
        """Why the engine would refuse this action of the seat on the screen, if this end
        can tell before sending it (``None``: allowed, or only the host can say)."""
        ...

    def take_keyboard(self) -> None:
        """The person a hand-off asked for has the keyboard now."""
        ...

    def next_round(self) -> None:
        """The scoreboard's "next round"."""
        ...

    def scoreboard(self) -> Scoreboard:
        """The scores of the round just scored."""
        ...

    def records(self) -> tuple[dict[str, PlayerStats | None], str | None]:
        """The people's records from the player store, and a note when there are none."""
        ...

    def save_failure(self) -> SaveFailure | None:
        """A save that failed and waits for the person's answer (the table is held)."""
        ...

    def after_save_failure(self, choice: str) -> None:
        """The answer: ``retry`` or ``play`` (on, unsaved)."""
        ...

    def leave_hint(self) -> str:
        """What the quit dialog says about coming back."""
        ...

    def close(self) -> None:
        """Stop; a local table closes its launcher."""
        ...
