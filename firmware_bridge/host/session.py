"""The host's session with a board: its token, its request ids, and the board's boot.

PROTOCOL.md: every request carries an id new within the session; a ``HELLO`` with a new
session makes the board forget the ids it remembers; a new ``boot`` means the board
restarted. :class:`Session` hands out the ids and turns every new boot it hears of into a
new *epoch*, which makes any job without its ``DONE`` an unknown outcome.

Ids run out after 65535 requests (nine hours of idle pinging). A new session is started
only between jobs, while at least ``HEADROOM`` ids are left: a job re-asked under a new
session would fire again, since the board forgets the old session's ids. A job that
needed more than that many ids on its own ends unknown, never re-asked.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from firmware_bridge.firmware import ulp
from firmware_bridge.host.asking import Inbox
from uno_attack.errors import LauncherError

HEADROOM = 1000   # ids one job may need for its re-asks, and the pings meanwhile


class IdsRunOut(LauncherError):
    """A job needed more ids than its session had left: it cannot be re-asked."""


@dataclass
class BoardInfo:
    """What the board said in its ``HELLO`` reply."""

    boot: str
    fw: str
    cards: int
    max_ms: int


def _token() -> str:
    return f"{secrets.randbits(32):08X}"


class Session:
    """Ids, the session token and the board's boot, all under the inbox's condition."""

    def __init__(self, inbox: Inbox, *, first_id: int = 1) -> None:
        self.inbox = inbox
        self.token = _token()
        self.info: BoardInfo | None = None
        self.boot: str | None = None      # the boot last heard of, from BOOT or HELLO
        self.need_hello = True
        self.reboots = 0
        self._next_id = first_id

    def fresh(self, *, jobs_running: bool) -> None:
        """Before a request of its own: a new session if ids run low and no job runs."""
        with self.inbox.cond:
            if self._next_id > ulp.MAX_ID - HEADROOM and not jobs_running:
                self._next_id = 1
                self.token = _token()
                self.need_hello = True
                self.inbox.clear()

    def take_id(self) -> int:
        """A new id of this session, with its place in the inbox; never one used before."""
        with self.inbox.cond:
            if self._next_id > ulp.MAX_ID:
                raise IdsRunOut(f"the session's ids ran out ({ulp.MAX_ID}) in the middle of "
                                "a job")
            rid = self._next_id
            self._next_id += 1
        self.inbox.open(rid)
        return rid

    def hello_seen(self, msg: ulp.Message) -> bool:
        """A HELLO reply (called with the condition held); True when its boot is new."""
        fields = msg.fields
        self.info = BoardInfo(fields["boot"], fields["fw"], fields["cards"], fields["max_ms"])
        return self.boot_seen(fields["boot"])

    def boot_seen(self, boot: str) -> bool:
        """A boot id from a BOOT event or a HELLO reply; True when it is a new one."""
        if self.boot is None:
            self.boot = boot
            return False
        if boot.upper() == self.boot.upper():
            return False
        self.boot = boot
        self.inbox.epoch += 1
        self.reboots += 1
        self.need_hello = True
        return True
