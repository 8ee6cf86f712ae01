"""Every push of the board's button counted once (PROTOCOL.md rule 4, "Nothing lost").

``PRESS n`` numbers count since the board's power-up: a gap counts the presses whose lines
were lost, a repeat counts nothing, and ``STATUS presses=N`` above the last number seen
counts the rest. The board's count when the host opens the link is its baseline: presses
from before are not the game's. New presses go to ``on_press(new)`` from a thread of
their own, so a handler may wait on the link.

Presses are counted per power-up, never across. A board's count only rises, it sends
``PRESS n`` before any ``STATUS`` that counts it, and the wire keeps the order of its
lines, repeating a line (if ever) only right after it: so a number below the last one,
or a ``PRESS`` of the last number that is not the copy of the line just before, is a new
power-up's whose ``BOOT`` line was lost (or, rarely, a damaged line that passed the
CRC). What comes from then on is held until a ``HELLO`` names the board's boot: a new one
counts it from 0, the same one against the old count. So the same presses never count
twice, across power-ups or by a damaged number.
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
        self._just_heard: int | None = None  # n if the last line was PRESS n: a copy may come
        # since a number only a new power-up sends: the numbers heard, until a HELLO
        self._held: list[tuple[int, bool]] | None = None
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

    @property
    def doubtful(self) -> bool:
        """Numbers are held: the board's boot must be asked before they count."""
        return self._held is not None

    def rebooted(self) -> None:
        """A ``BOOT`` line: the new power-up counts its presses from 0.

        Numbers held then count against the old count: whose they were, no HELLO said."""
        self.boot_heard(new=False)
        self._last = 0

    def boot_heard(self, *, new: bool) -> None:
        """A ``HELLO`` reply named the board's boot (``new``: not the one heard before)."""
        held, self._held = self._held or [], None
        if new:
            self._last = 0
        for n, from_status in held:
            self._take(n, from_status)

    def seen(self, n: int, *, from_status: bool) -> bool:
        """The board says it has counted ``n`` presses (a PRESS event, or a STATUS).

        True when a HELLO must name the board's boot before the number counts."""
        just, self._just_heard = self._just_heard, None if from_status else n
        if not self._baseline:  # opening: presses from before we came are not ours
            if n > self._last and not from_status:
                self._count(1)  # this PRESS, not the ones before it
            self._last = max(self._last, n)
            return False
        again = not from_status and n == self._last and n != just  # not a copy: anew
        if self._held is None and (n < self._last or again):
            self._held = []     # a new power-up's, or a damaged line: the boot will say
        if self._held is not None:
            self._held.append((n, from_status))
            return True
        self._take(n, from_status)
        return False

    def other_line(self) -> None:
        """A line that is not a ``PRESS``: one that comes after it is no copy of the last."""
        self._just_heard = None

    def _take(self, n: int, from_status: bool) -> None:
        if n > self._last:
            new = n - self._last
            self.stats.presses_recovered += new if from_status else new - 1
            self._count(new)
            self._last = n

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
