"""The host's end of a ULP/1 link: the parts put together, and what comes back dispatched.

:class:`UlpLink` owns a :class:`~firmware_bridge.host.transport.Transport` (the port and
its reader thread), a :class:`~firmware_bridge.host.session.Session` (ids, the session
token, the board's boot), an :class:`~firmware_bridge.host.asking.Asker` (the retry and
idempotence rules), a :class:`~firmware_bridge.host.presses.PressCounter` and a
:class:`~firmware_bridge.host.liveness.Pinger`. Requests are built from the board's
declarations (``ulp.REQUESTS``), and each line that comes back is dispatched by its
verb: events to ``_on_<verb>``, replies to whoever waits for their id.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from firmware_bridge.firmware import ulp
from firmware_bridge.host.asking import (
    OPENING_PATIENCE_S,
    PATIENCE_S,
    POLL_S,
    RETRY_S,
    TRIES,
    Asker,
    Inbox,
)
from firmware_bridge.host.liveness import PING_S, Pinger
from firmware_bridge.host.presses import PressCounter, PressHandler
from firmware_bridge.host.session import BoardInfo, Session
from firmware_bridge.host.transport import LinkStats, Transport
from uno_attack.errors import LauncherError


class UlpLink:
    """One open ULP/1 link to a board: thread-safe requests, events to callbacks.

    ``on_press(n)`` is called from a thread of its own with the number of new presses.
    """

    def __init__(self, port: str, *, retry_s: float = RETRY_S, tries: int = TRIES,
                 ping_s: float = PING_S, poll_s: float = POLL_S, reconnect: bool = True,
                 first_id: int = 1) -> None:
        self.port = port
        self.stats = LinkStats()
        self.gone = False
        self.last_eject_id: int | None = None
        self._inbox = Inbox()
        self._session = Session(self._inbox, first_id=first_id)
        self._transport = Transport(port, on_line=self._line, on_lost=self._lost,
                                    stats=self.stats, reconnect=reconnect)
        self._asker = Asker(self._inbox, self._write, port, retry_s=retry_s, tries=tries,
                            poll_s=poll_s, on_gone=self._gone)
        self._presses = PressCounter(self.stats, port)
        self._pinger = Pinger(self, ping_s)
        self._jobs = 0                  # EJECT/MOTOR in flight
        self._closed = False
        # what comes back, by verb: every event the board declares has its handler here
        self._on_event: dict[str, Callable[[ulp.Message], None]] = {
            verb: getattr(self, f"_on_{verb.lower()}") for verb in ulp.EVENTS}
        self._on_answer: dict[str, Callable[[ulp.Message], None]] = {
            "HELLO": self._hello_reply, "STATUS": self._status_reply}

    # -- what the rest of the link reads ------------------------------------------------
    @property
    def session(self) -> str:
        return self._session.token

    @property
    def info(self) -> BoardInfo | None:
        return self._session.info

    @property
    def presses(self) -> int:
        return self._presses.presses

    @property
    def on_press(self) -> PressHandler | None:
        return self._presses.on_press

    @on_press.setter
    def on_press(self, handler: PressHandler | None) -> None:
        self._presses.on_press = handler

    @property
    def last_write(self) -> float:
        return self._transport.last_write

    @property
    def closed(self) -> bool:
        return self._closed

    # -- open and close -------------------------------------------------------------------
    def open(self) -> BoardInfo:
        """Open the port, greet the board, take its press count as the baseline."""
        self._transport.open()
        self._presses.start()
        try:
            info = self.hello(patience=OPENING_PATIENCE_S)  # is a ULP/1 board there at all?
            status = self.call("STATUS")
        except BaseException:
            self.close()
            raise
        with self._inbox.cond:
            self._presses.baseline(status.fields["presses"])
        self._pinger.start()
        return info

    def close(self) -> None:
        """Stop the motor if a job may run, stop the threads, close the port. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._jobs and self._transport.is_open:
            with contextlib.suppress(Exception):  # never leave a motor running behind us
                self._write(ulp.frame(ulp.build_request("STOP", self._session.take_id())))
        with self._inbox.cond:
            self._inbox.stopping = True
            self._inbox.cond.notify_all()
        self._pinger.stop()
        self._presses.stop()
        self._transport.close()

    # -- requests -------------------------------------------------------------------------
    def request(self, payload: str, accept: set[str]) -> ulp.Message:
        """Send a ready-made request until a reply with its id (one of ``accept``, or ERR)."""
        return self._asker.ask(payload, accept)

    def call(self, verb: str, *args: object, patience: float = PATIENCE_S) -> ulp.Message:
        """Ask request ``verb`` (with its arguments after the id) and return its first
        reply, as the board's declaration of ``verb`` says it answers."""
        fmt = ulp.REQUESTS[verb]
        if "DONE" in fmt.replies:
            raise ValueError(f"{verb} runs a job: use eject() or motor()")
        self._session.fresh(jobs_running=self._jobs > 0)
        if verb != "HELLO":
            self.ensure_hello()
        rid = self._session.take_id()
        return self._asker.ask(fmt.build(rid, *args), {fmt.replies[0]}, patience=patience)

    def once(self, verb: str, *args: object, timeout: float) -> ulp.Message | None:
        """Send request ``verb`` one time and wait ``timeout`` for its first reply."""
        fmt = ulp.REQUESTS[verb]
        self._session.fresh(jobs_running=self._jobs > 0)
        rid = self._session.take_id()
        try:
            self._write(ulp.frame(fmt.build(rid, *args)))
            return self._inbox.wait(rid, {fmt.replies[0]}, timeout)
        finally:
            self._inbox.forget(rid)

    def hello(self, *, patience: float = PATIENCE_S) -> BoardInfo:
        """Greet the board with our session (it keeps its id memory for the same one)."""
        with self._inbox.cond:
            self._session.need_hello = False
        reply = self.call("HELLO", self._session.token, patience=patience)
        if reply.verb == "ERR":
            raise LauncherError(f"board on {self.port} refused HELLO: {reply.fields['code']}")
        if reply.fields.get("protocol") != ulp.VERSION:
            raise LauncherError(f"board on {self.port} speaks {reply.fields.get('protocol')},"
                                f" not {ulp.VERSION}")
        assert self._session.info is not None
        return self._session.info

    def ensure_hello(self) -> None:
        """Say HELLO if the board may not know our session (new boot, reconnect), or
        held press numbers wait for its boot."""
        if self._session.need_hello or self._session.info is None or self._presses.doubtful:
            self.hello()

    def status(self) -> ulp.Message:
        """Ask STATUS (it also recovers presses whose PRESS line was lost)."""
        return self.call("STATUS")

    def ping(self) -> None:
        self.call("PING")

    def stop(self, *, cancel: Callable[[], None] | None = None) -> None:
        """``STOP``: a running EJECT or MOTOR ends ``stopped``. ``cancel`` runs first, in
        one order with every job's first send: a job its mark reaches before it went out
        is never sent (its ``cancelled`` says so), any other is on the wire before STOP."""
        if cancel is not None:
            with self._asker.starting:
                cancel()
        self.call("STOP")

    def eject(self, count: int, max_ms: int, *,
              cancelled: Callable[[], bool] = lambda: False) -> tuple[int, str, str]:
        """Run one EJECT: ``(ejected, status, detail)``; status ``unknown`` when the board
        restarted or stopped answering before its ``DONE``, ``stopped`` when ``cancelled``
        (see :meth:`stop`) before it was sent."""
        return self._job("EJECT", max_ms, count, max_ms, cancelled=cancelled)

    def motor(self, duty: int, ms: int) -> tuple[int, str, str]:
        """A MOTOR run (wiring tests): ``(cards counted, status, detail)``; at most 2 s."""
        return self._job("MOTOR", ms, duty, ms)

    def _job(self, verb: str, max_ms: int, *args: object,
             cancelled: Callable[[], bool] = lambda: False) -> tuple[int, str, str]:
        with self._inbox.cond:  # a new session, if one is due, before the job, never in it
            self._session.fresh(jobs_running=self._jobs > 0)
            self._jobs += 1
        try:
            self.ensure_hello()
            rid = self._session.take_id()
            if verb == "EJECT":
                self.last_eject_id = rid
            return self._asker.run_job(ulp.build_request(verb, rid, *args), max_ms,
                                       recheck=self.hello, cancelled=cancelled)
        finally:
            with self._inbox.cond:
                self._jobs -= 1

    # -- the wire -------------------------------------------------------------------------
    def _write(self, data: bytes, resend: bool = False) -> None:
        self._transport.write(data, resend=resend)

    def _line(self, line: bytes) -> None:
        """One line from the board (the reader thread)."""
        inbox = self._inbox
        inbox.heard += 1
        try:
            payload = ulp.unframe(line)
            if payload is None:
                return
            msg = ulp.parse_device(payload)
        except ulp.ProtocolError:
            self.stats.bad_lines += 1
            with inbox.cond:
                inbox.damaged += 1
                inbox.cond.notify_all()
            return
        self.stats.received += 1
        with inbox.cond:
            self._pinger.misses = 0
            self.gone = False
            if msg.verb in ulp.EVENTS:
                self._on_event[msg.verb](msg)
            else:
                self._on_reply(msg)
            if msg.verb != "PRESS":
                self._presses.other_line()
            inbox.cond.notify_all()

    def _lost(self) -> None:
        with self._inbox.cond:
            self._session.need_hello = True

    def _gone(self) -> None:
        self.gone = True

    # -- dispatch (with the inbox's lock held) -------------------------------------------
    def _on_boot(self, msg: ulp.Message) -> None:
        if self._session.boot_seen(msg.fields["boot"]):
            self.stats.reboots = self._session.reboots
            self._presses.rebooted()
        self._session.need_hello = True

    def _on_press(self, msg: ulp.Message) -> None:
        if self._presses.seen(msg.fields["n"], from_status=False):
            self._session.need_hello = True

    def _on_fault(self, msg: ulp.Message) -> None:
        self.stats.faults.append(msg.fields["code"])

    def _on_reply(self, msg: ulp.Message) -> None:
        if msg.rid is None:  # ERR - crc: the board dropped one of our lines
            if msg.fields["code"] == "crc":
                self.stats.crc_errors += 1
                self._inbox.damaged += 1
            return
        waited = self._inbox.waiting_for(msg.rid)
        answer = self._on_answer.get(msg.verb)
        if answer is not None and (waited or msg.verb == "STATUS"):
            answer(msg)  # (a late STATUS is still worth its count)
        if waited:
            self._inbox.put(msg)

    def _hello_reply(self, msg: ulp.Message) -> None:
        new = self._session.hello_seen(msg)
        if new:
            self.stats.reboots = self._session.reboots
        self._presses.boot_heard(new=new)

    def _status_reply(self, msg: ulp.Message) -> None:
        if self._presses.seen(msg.fields["presses"], from_status=True):
            self._session.need_hello = True

