"""The host's session with a board: its token, its request ids, and the board's boot.

PROTOCOL.md: every request carries an id new within the session; a ``HELLO`` with a new
session makes the board forget the ids it remembers; a new ``boot`` means the board
restarted. :class:`Session` hands out the ids, starts a new session when they run out,
and turns every new boot it hears of into a new *epoch*, which makes any job without its
``DONE`` an unknown outcome.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from firmware_bridge.firmware import ulp
from firmware_bridge.host.asking import Inbox


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

    def take_id(self) -> int:
        """A new id of this session, with its place in the inbox."""
        with self.inbox.cond:
            if self._next_id > ulp.MAX_ID:  # ids must be new within a session: start another
                self._next_id = 1
                self.token = _token()
                self.need_hello = True
                self.inbox.clear()
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
