"""Liveness (PROTOCOL.md rule 5): an idle host pings about once a second.

Three unanswered ``PING`` in a row mean the launcher is gone (a ``PING`` is never re-sent:
the next one, a second later, has a new id). After each answered one a ``STATUS``, asked
as any request is, recovers presses whose ``PRESS`` lines were lost; so does a ``PING``
answered only with damaged lines (the board is there), so that on a noisy line a lost
press is found at the next ping, not after the rare one whose answer comes through whole.
Requests in flight prove liveness themselves, so nothing is pinged while the link is busy.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from uno_attack.errors import LauncherError

if TYPE_CHECKING:
    from firmware_bridge.host.link import UlpLink

PING_S = 1.0         # an idle host pings this often
PING_MISSES = 3      # this many unanswered pings in a row: the board is gone


class Pinger:
    """A thread that pings an idle link."""

    def __init__(self, link: UlpLink, ping_s: float = PING_S) -> None:
        self.link = link
        self.ping_s = ping_s
        self.misses = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"ulp-pinger {link.port}",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def _run(self) -> None:
        link = self.link
        while not self._stop.wait(self.ping_s / 2):
            if time.monotonic() - link.last_write < self.ping_s:
                continue  # not idle: requests in flight prove liveness themselves
            try:
                link.ensure_hello()
                stats = link.stats
                damaged = stats.bad_lines + stats.crc_errors
                if link.once("PING", timeout=min(self.ping_s, 0.5)) is None \
                        and stats.bad_lines + stats.crc_errors == damaged:
                    self.misses += 1   # silence: only that counts toward gone
                    if self.misses >= PING_MISSES:
                        link.gone = True
                    continue
                link.call("STATUS")  # also after a damaged answer: the board is there
            except LauncherError:
                continue
