"""Every push of the board's button counted once (PROTOCOL.md rule 4, "Nothing lost").

``PRESS n`` numbers count since the board's power-up: a gap counts the presses whose lines
were lost, a repeat counts nothing, and ``STATUS presses=N`` above the last number seen
counts the rest. The board's count when the host opens the link is its baseline: presses
from before are not the game's. New presses go to ``on_press(new)`` from a thread of
their own, so a handler may wait on the link.
"""

from __future__ import annotations

import queue
import threading
import traceback
from collections.abc import Callable

from firmware_bridge.host.transport import LinkStats

PressHandler = Callable[[int], None]


class PressCounter:
    """Counts the board's presses; its methods are called with the link's lock held."""

    def __init__(self, stats: LinkStats, name: str) -> None:
        self.stats = stats
        self.presses = 0               # presses counted on this link
        self.on_press: PressHandler | None = None
        self._last = 0                 # the board's press number last accounted for
        self._baseline = False         # True once the opening STATUS has been read
        self._events: queue.Queue[int | None] = queue.Queue()
        self._thread = threading.Thread(target=self._deliver, name=f"ulp-events {name}",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._events.put(None)
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def baseline(self, n: int) -> None:
        """The board's count as the link opens: presses up to it are not ours."""
        self._last = max(self._last, n)
        self._baseline = True

    def rebooted(self) -> None:
        """A new power-up counts its presses from 0."""
        self._last = 0

    def seen(self, n: int, *, from_status: bool) -> bool:
        """The board says it has counted ``n`` presses (a PRESS event, or a STATUS).

        True when that is fewer than before: the board may have restarted unheard."""
        if not self._baseline:  # opening: presses from before we came are not ours
            if n > self._last and not from_status:
                self._count(1)  # this PRESS, not the ones before it
            self._last = max(self._last, n)
            return False
        if n > self._last:
            new = n - self._last
            self.stats.presses_recovered += new if from_status else new - 1
            self._last = n
            self._count(new)
        return n < self._last

    def _count(self, new: int) -> None:
        self.presses += new
        self._events.put(new)

    def _deliver(self) -> None:
        while (new := self._events.get()) is not None:
            handler = self.on_press
            if handler is not None:
                try:
                    handler(new)
                except Exception:  # a front end's bug must not stop press delivery
                    traceback.print_exc()
