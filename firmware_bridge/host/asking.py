"""The rules of PROTOCOL.md that make a noisy wire safe, in one place: asking and re-asking.

- Rule 2: a request with no reply in time is sent again *with the same id* (``retry_s``,
  doubling, ``tries`` times), then the launcher is not answering. Only silence counts,
  and only silence in a row: a damaged line (or ``ERR - crc``) shows the board is there,
  and the request is sent again at once. On a noisy line the host never gives up while
  the board answers (up to ``PATIENCE_S``): a noisy cable slows the game, never stops
  it. Requests that change nothing on a board that knows them (every re-ask) go in
  growing bursts of copies while the answers come back damaged, so that one gets through
  sooner; a board answers each copy with the same line or from its memory.
- Rule 1 and 4, for the requests that move the motor (EJECT, MOTOR: the board remembers
  their ids): a job is re-asked only after a ``HELLO`` has shown the very same ``boot``,
  since a board that restarted has forgotten the id and would fire again. A new boot
  makes the outcome unknown, and an unknown outcome is reported, never re-asked. A job
  seen running is re-asked only after a silence, never because of a damaged line, so
  that the host re-asks, and so risks meeting a board that has just restarted, as
  seldom as it can.

:class:`Inbox` holds the replies by id and what the wire did meanwhile; one condition
guards it, and the link's reader fills it. Every wait of the rules above goes through its
:class:`HostClock`: real time, or a test's own that makes the schedule exact.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from firmware_bridge.firmware import ulp
from uno_attack.errors import LauncherError
from uno_attack.launcher import LauncherNotResponding

RETRY_S = 0.1        # first re-send after this long without a reply (then doubling)
TRIES = 5            # silent tries in a row before the launcher is not answering
POLL_S = 0.5         # a running job is re-asked after this long without a line
JOB_GRACE_S = 30.0   # past max_ms plus this, a board still "running" is not believed
PATIENCE_S = 60.0    # a board that answers only with damaged lines is given this long …
OPENING_PATIENCE_S = 15.0  # … and a port that may hold no ULP/1 board at all, this long
MAX_COPIES = 4       # the largest burst of one re-ask on a noisy line


class HostClock:
    """How the host tells time and waits: real time, as a serial line runs."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, cond: threading.Condition, timeout: float) -> None:
        """Wait on ``cond`` (held) for a notification, at most ``timeout`` seconds."""
        cond.wait(timeout)

    def wait_for(self, cond: threading.Condition, predicate: Callable[[], object],
                 timeout: float) -> None:
        """Wait on ``cond`` (held) until ``predicate()``, at most ``timeout`` seconds."""
        deadline = self.now() + timeout
        while not predicate():
            left = deadline - self.now()
            if left <= 0:
                return
            self.wait(cond, left)


class Inbox:
    """Replies by request id, and the wire's counters; :attr:`cond` guards it all."""

    def __init__(self, clock: HostClock | None = None) -> None:
        self.clock = clock or HostClock()
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
        clock = self.clock
        deadline = clock.now() + timeout
        with self.cond:
            while not self.stopping:
                if damaged is not None and self.damaged != damaged:
                    return None
                reply = self.take(rid, verbs)
                if reply is not None:
                    return reply
                left = deadline - clock.now()
                if left <= 0:
                    return None
                clock.wait(self.cond, left)
        return None


class _Tries:
    """How one request is being re-sent: the wait, the burst, the silences in a row."""

    def __init__(self, asker: Asker, patience: float = PATIENCE_S) -> None:
        self.asker = asker
        self.patience = patience
        self.delay = asker.retry_s
        self.copies = 1
        self.silent = 0
        self.sends = 0
        self.started = asker.inbox.clock.now()

    def heard_back(self, damaged: bool) -> None:
        """Something came back, but not the reply: ask again at once, in a larger burst
        when it was damaged."""
        self.silent = 0
        self.delay = self.asker.retry_s
        if damaged:
            self.copies = min(self.copies * 2, MAX_COPIES)

    def silence(self) -> None:
        self.silent += 1
        self.copies = 1
        self.delay = min(self.delay * 2, self.asker.retry_s * 16)

    @property
    def spent(self) -> bool:
        return (self.silent >= self.asker.tries
                or self.asker.inbox.clock.now() - self.started > self.patience)

    def why(self, verb: str) -> str:
        if self.silent >= self.asker.tries:
            return f"{verb} unanswered {self.silent} times"
        return f"only damaged answers to {verb} for {self.patience:g} s"


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
        # a job's first line and a stop's mark on it go out in one order: a stop either
        # follows the job on the wire, or the job sees the mark and is never sent
        self.starting = threading.Lock()

    def _send(self, payload: str, tries: _Tries) -> tuple[int, int]:
        """Send ``payload`` (a burst of ``tries.copies``); the wire's counters before."""
        mark = self.inbox.heard, self.inbox.damaged
        line = ulp.frame(payload)
        for _ in range(tries.copies):
            self.write(line, tries.sends > 0)
            tries.sends += 1
        return mark

    def _came_back(self, tries: _Tries, mark: tuple[int, int]) -> None:
        heard, damaged = mark
        if self.inbox.damaged != damaged:
            tries.heard_back(damaged=True)
        elif self.inbox.heard != heard:
            tries.heard_back(damaged=False)
        else:
            tries.silence()

    def ask(self, payload: str, accept: set[str], *,
            patience: float = PATIENCE_S) -> ulp.Message:
        """Send ``payload`` until a reply with its id and one of the ``accept`` verbs (or
        ``ERR``) comes; raises :class:`LauncherNotResponding` (rule 2)."""
        inbox = self.inbox
        rid = ulp.parse_request(payload).rid
        assert rid is not None
        if not inbox.waiting_for(rid):
            inbox.open(rid)
        tries = _Tries(self, patience)
        try:
            while not tries.spent:
                mark = self._send(payload, tries)
                reply = inbox.wait(rid, accept | {"ERR"}, tries.delay, mark[1])
                if reply is not None:
                    return reply
                if inbox.stopping:
                    raise LauncherError(f"the link to {self.port} was closed")
                self._came_back(tries, mark)
        finally:
            inbox.forget(rid)
        self.on_gone()
        raise LauncherNotResponding(f"launcher on {self.port} is not answering "
                                    f"({tries.why(payload.split(' ')[0])})")

    def run_job(self, payload: str, max_ms: int, *, recheck: Callable[[], object],
                cancelled: Callable[[], bool] = lambda: False) -> tuple[int, str, str]:
        """Run one EJECT or MOTOR to its ``DONE``: ``(counted, status, detail)``; status
        ``unknown`` when the board restarted or stopped answering before its ``DONE``.

        ``recheck`` says ``HELLO`` with the same session before every re-ask (rule 1):
        the epoch moves if the board restarted, and the job is then never sent again.
        Once the job is seen running (its ``OK`` or a ``CARD``), a damaged line is no
        reason to re-ask: the host waits for the ``DONE`` and re-asks only after
        ``poll_s`` without a line of the job, so it re-asks as seldom as it can."""
        inbox = self.inbox
        rid = ulp.parse_request(payload).rid
        assert rid is not None
        epoch = inbox.epoch
        tries = _Tries(self)
        clock = inbox.clock
        deadline = clock.now() + max_ms / 1000 + JOB_GRACE_S
        seen = busy = 0              # OK and CARD lines of this job; busy refusals
        try:
            with self.starting:
                if cancelled():
                    return 0, "stopped", "stopped before the board was asked"
                mark = self._send(payload, tries)
            while True:
                news, reply = self._news(rid, epoch, mark, seen, tries.delay)
                if news == "restarted":
                    return self._unknown(rid, "restarted")
                if news == "done":
                    assert reply is not None
                    return reply.fields["ejected"], reply.fields["status"], ""
                if news == "closed":
                    return inbox.cards.get(rid, 0), "unknown", "the launcher was closed"
                if clock.now() > deadline:
                    return self._unknown(rid, f"did not finish in {max_ms} ms")
                if news == "running":
                    seen = inbox.activity.get(rid, 0)
                    tries = _Tries(self)
                    tries.delay = max(self.retry_s, self.poll_s)
                    continue
                if news == "refused":
                    assert reply is not None
                    if reply.fields["code"] != "busy" or busy >= self.tries:
                        raise LauncherError(f"board on {self.port} refused {payload}: "
                                            f"{reply.fields['code']}")
                    busy += 1  # refused, so not remembered: asking again is safe
                    with inbox.cond:
                        clock.wait_for(inbox.cond, lambda: inbox.stopping, tries.delay)
                else:
                    self._came_back(tries, mark)
                    if tries.spent:
                        self.on_gone()
                        return self._unknown(rid, "stopped answering")
                try:  # a re-ask: only to the very board that took the first ask
                    recheck()
                except LauncherError:  # not answering, or no id left to greet it with
                    return self._unknown(rid, "stopped answering")
                if inbox.epoch != epoch:
                    return self._unknown(rid, "restarted")
                mark = self._send(payload, tries)
        finally:
            inbox.forget(rid)

    def _news(self, rid: int, epoch: int, mark: tuple[int, int], seen: int,
              timeout: float) -> tuple[str, ulp.Message | None]:
        """Wait for what a running job may bring: ``restarted``, ``done``, ``refused``,
        ``running`` (a new OK or CARD), ``closed``, or ``nothing`` (silence, or damage
        before the job was seen running)."""
        inbox = self.inbox
        running = seen > 0
        with inbox.cond:
            inbox.clock.wait_for(
                inbox.cond,
                lambda: inbox.stopping or inbox.epoch != epoch
                or any(m.verb in ("DONE", "ERR") for m in inbox.replies.get(rid, ()))
                or inbox.activity.get(rid, 0) != seen
                or (not running and inbox.damaged != mark[1]), timeout)
            if inbox.epoch != epoch:
                return "restarted", None
            done = inbox.take(rid, ("DONE",))
            if done is not None:
                return "done", done
            error = inbox.take(rid, ("ERR",))
            while inbox.take(rid, ("OK",)) is not None:
                pass
            if inbox.stopping:
                return "closed", None
            if error is not None:
                return "refused", error
            if inbox.activity.get(rid, 0) != seen:
                return "running", None
        return "nothing", None

    def _unknown(self, rid: int, what: str) -> tuple[int, str, str]:
        counted = self.inbox.cards.get(rid, 0)
        return (counted, "unknown", f"the board {what} during the eject after {counted} "
                "card(s) were counted: how many came out is not known")
