"""The rules of PROTOCOL.md that make a noisy wire safe, in one place: asking and re-asking.

- Rule 2: a request with no reply in time is sent again *with the same id* (``retry_s``,
  doubling, ``tries`` times), then the launcher is not answering. Only silence counts: a
  damaged line (or ``ERR - crc``) shows the board is there, and the request is sent again
  at once.
- Rule 1 and 4, for the requests that move the motor (EJECT, MOTOR: the board remembers
  their ids): a job is re-asked only after a ``HELLO`` has shown the very same ``boot``,
  since a board that restarted has forgotten the id and would fire again. A new boot
  makes the outcome unknown, and an unknown outcome is reported, never re-asked.

:class:`Inbox` holds the replies by id and what the wire did meanwhile; one condition
guards it, and the link's reader fills it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from firmware_bridge.firmware import ulp
from uno_attack.errors import LauncherError
from uno_attack.launcher import LauncherNotResponding

RETRY_S = 0.1        # first re-send after this long without a reply (then doubling)
TRIES = 5            # silent tries before the launcher is not answering
POLL_S = 0.5         # a running job is re-asked after this long without a line
JOB_GRACE_S = 10.0   # past max_ms plus this, a board still "running" is not believed
MAX_TRIES = 4 * TRIES   # re-sends to a board that answers, but only with damaged lines


class Inbox:
    """Replies by request id, and the wire's counters; :attr:`cond` guards it all."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.replies: dict[int, list[ulp.Message]] = {}
        self.activity: dict[int, int] = {}   # OK, CARD and DONE lines seen per id
        self.cards: dict[int, int] = {}      # the highest CARD number seen per id
        self.heard = 0                       # every line received, damaged ones too
        self.damaged = 0                     # damaged lines here, and ERR - crc from there
        self.epoch = 0                       # bumped on every new boot seen
        self.stopping = False

    def open(self, rid: int) -> None:
        with self.cond:
            self.replies[rid] = []
            self.activity[rid] = 0

    def forget(self, rid: int) -> None:
        with self.cond:
            self.replies.pop(rid, None)
            self.activity.pop(rid, None)
            self.cards.pop(rid, None)

    def clear(self) -> None:
        with self.cond:
            self.replies.clear()
            self.activity.clear()
            self.cards.clear()

    def waiting_for(self, rid: int | None) -> bool:
        return rid is not None and rid in self.replies

    def put(self, msg: ulp.Message) -> None:
        """A reply to a request we wait for (called with the condition held)."""
        assert msg.rid is not None
        if msg.verb == "CARD":
            self.cards[msg.rid] = max(self.cards.get(msg.rid, 0), msg.fields["n"])
        if msg.verb in ("OK", "CARD", "DONE"):
            self.activity[msg.rid] = self.activity.get(msg.rid, 0) + 1
        if msg.verb != "CARD":
            self.replies[msg.rid].append(msg)

    def take(self, rid: int, verbs: set[str] | tuple[str, ...]) -> ulp.Message | None:
        """The first reply to ``rid`` with one of ``verbs`` (called with the condition held)."""
        for msg in self.replies.get(rid, ()):
            if msg.verb in verbs:
                self.replies[rid].remove(msg)
                return msg
        return None

    def wait(self, rid: int, verbs: set[str], timeout: float,
             damaged: int | None = None) -> ulp.Message | None:
        """Take the first reply to ``rid`` with one of ``verbs``; None on timeout, or as
        soon as a damaged line comes when ``damaged`` (the count before) is given."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not self.stopping:
                if damaged is not None and self.damaged != damaged:
                    return None
                reply = self.take(rid, verbs)
                if reply is not None:
                    return reply
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)
        return None


class Asker:
    """Sends requests and re-sends them by the rules above; one per link."""

    def __init__(self, inbox: Inbox, write: Callable[[bytes, bool], None], port: str, *,
                 retry_s: float = RETRY_S, tries: int = TRIES, poll_s: float = POLL_S,
                 on_gone: Callable[[], None]) -> None:
        self.inbox = inbox
        self.write = write
        self.port = port
        self.retry_s = retry_s
        self.tries = tries
        self.poll_s = poll_s
        self.on_gone = on_gone

    def ask(self, payload: str, accept: set[str], *, keep: bool = False) -> ulp.Message:
        """Send ``payload`` until a reply with its id and one of the ``accept`` verbs (or
        ``ERR``) comes; raises :class:`LauncherNotResponding` (rule 2).

        ``keep`` leaves later replies to the same id for the caller to wait for."""
        inbox = self.inbox
        rid = ulp.parse_request(payload).rid
        assert rid is not None
        if not inbox.waiting_for(rid):
            inbox.open(rid)
        delay = self.retry_s
        answered = False
        silent = 0
        try:
            for attempt in range(MAX_TRIES):
                heard, damaged = inbox.heard, inbox.damaged
                self.write(ulp.frame(payload), attempt > 0)
                reply = inbox.wait(rid, accept | {"ERR"}, delay, damaged)
                if reply is not None:
                    answered = True
                    return reply
                if inbox.damaged != damaged:
                    continue  # our line or its reply was damaged: ask again at once
                if inbox.heard == heard:
                    silent += 1  # not a line, not even a damaged one: count it
                    if silent >= self.tries:
                        break
                delay = min(delay * 2, self.retry_s * 16)
        finally:
            if not (keep and answered):
                inbox.forget(rid)
        self.on_gone()
        raise LauncherNotResponding(f"launcher on {self.port} is not answering "
                                    f"({payload.split(' ')[0]} unanswered {self.tries} times)")

    def run_job(self, payload: str, max_ms: int, *,
                recheck: Callable[[], None]) -> tuple[int, str, str]:
        """Run one EJECT or MOTOR to its ``DONE``: ``(counted, status, detail)``; status
        ``unknown`` when the board restarted or stopped answering before its ``DONE``.

        ``recheck`` says ``HELLO`` with the same session before every re-ask (rule 1):
        the epoch moves if the board restarted, and the job is then never sent again."""
        inbox = self.inbox
        rid = ulp.parse_request(payload).rid
        assert rid is not None
        verb = payload.split(" ")[0]
        epoch = inbox.epoch
        delay = self.retry_s
        unanswered = busy = seen = tries = 0
        deadline = time.monotonic() + max_ms / 1000 + JOB_GRACE_S
        try:
            heard, damaged = inbox.heard, inbox.damaged
            self.write(ulp.frame(payload), False)
            while True:
                if time.monotonic() > deadline:
                    return (inbox.cards.get(rid, 0), "unknown",
                            f"the board did not finish the {verb} in {max_ms} ms: "
                            "how many came out is not known")
                with inbox.cond:
                    inbox.cond.wait_for(
                        lambda: inbox.stopping or inbox.epoch != epoch
                        or bool(inbox.replies.get(rid)) or inbox.damaged != damaged  # noqa: B023
                        or inbox.activity.get(rid, 0) != seen, delay)  # noqa: B023
                    if inbox.epoch != epoch:
                        return inbox.cards.get(rid, 0), "unknown", self._rebooted(rid)
                    done = inbox.take(rid, ("DONE",))
                    if done is not None:
                        return done.fields["ejected"], done.fields["status"], ""
                    error = inbox.take(rid, ("ERR",))
                    inbox.take(rid, ("OK",))
                    active = inbox.activity.get(rid, 0) != seen
                    seen = inbox.activity.get(rid, 0)
                if inbox.stopping:
                    return inbox.cards.get(rid, 0), "unknown", "the launcher was closed"
                if error is not None:
                    if error.fields["code"] != "busy" or busy >= self.tries:
                        raise LauncherError(f"board on {self.port} refused {payload}: "
                                            f"{error.fields['code']}")
                    busy += 1  # refused, so not remembered: asking again is safe
                    with inbox.cond:
                        inbox.cond.wait_for(lambda: inbox.stopping, delay)
                elif active:  # OK or CARD: it runs; wait on, re-asking only after silence
                    unanswered, tries, delay = 0, 0, max(self.retry_s, self.poll_s)
                    continue
                elif inbox.damaged != damaged:
                    tries += 1  # a line was damaged, maybe the DONE: re-ask at once
                else:
                    if inbox.heard == heard:
                        unanswered += 1  # a board sending damaged lines is still there
                    tries += 1
                    delay = min(delay * 2, self.retry_s * 16)
                    if unanswered >= self.tries or tries >= MAX_TRIES:
                        self.on_gone()
                        return inbox.cards.get(rid, 0), "unknown", self._lost(rid)
                try:  # a re-ask: only to the very board that took the first ask
                    recheck()
                except LauncherError:  # not answering, or no id left to greet it with
                    return inbox.cards.get(rid, 0), "unknown", self._lost(rid)
                if inbox.epoch != epoch:
                    return inbox.cards.get(rid, 0), "unknown", self._rebooted(rid)
                heard, damaged = inbox.heard, inbox.damaged
                self.write(ulp.frame(payload), True)
        finally:
            inbox.forget(rid)

    def _rebooted(self, rid: int) -> str:
        return (f"the board restarted during the eject after {self.inbox.cards.get(rid, 0)} "
                "card(s) were counted: how many came out is not known")

    def _lost(self, rid: int) -> str:
        return (f"the board stopped answering during the eject after "
                f"{self.inbox.cards.get(rid, 0)} card(s) were counted: how many came out "
                "is not known")
