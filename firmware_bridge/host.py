"""The host's end of a ULP/1 link, with pyserial: a reader thread, requests, liveness.

What makes it safe on a noisy wire (PROTOCOL.md, "Rules that keep it safe"):

- every request has an id and is re-sent with the *same* id when no reply comes
  (``retry_s``, doubling, ``tries`` times), so a repeat never fires twice;
- before re-sending an EJECT, the host re-checks the board's ``boot`` with a ``HELLO``: a
  board that restarted has forgotten its ids, and an EJECT sent again to it would fire again;
- ``PRESS`` numbers with gaps and ``STATUS`` counts above the last ``PRESS`` seen are
  counted as presses, repeats are not: every press once;
- a new ``boot`` (a ``BOOT`` event, or a ``HELLO`` reply) turns any eject without its ``DONE``
  into an unknown outcome, never a guess;
- an idle link is pinged about once a second; three pings unanswered mean the board is gone.

A lost port (a USB cable pulled, the emulator's disconnect) is reopened by the reader
thread; the next request says ``HELLO`` again with the same session, so the board keeps
its id memory.
"""

from __future__ import annotations

import contextlib
import queue
import secrets
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from firmware_bridge.firmware import dispenser, ulp
from uno_attack.errors import LauncherError
from uno_attack.launcher import LauncherNotResponding

BAUD = 115200
RETRY_S = 0.1        # first re-send after this long without a reply (then doubling)
TRIES = 5
PING_S = 1.0         # an idle host pings this often
POLL_S = 0.5         # a running EJECT is re-asked after this long without a line
EJECT_GRACE_S = 10.0  # past max_ms plus this, a board still "running" is not believed
PING_MISSES = 3      # this many unanswered pings in a row: the board is gone
MAX_TRIES = 4 * TRIES   # re-sends to a board that answers, but only with damaged lines
READ_TIMEOUT_S = 0.02
REOPEN_S = 0.05      # a lost port is retried this often


class PortError(LauncherError):
    """The serial port cannot be opened (missing, busy, no permission)."""


@dataclass
class BoardInfo:
    """What the board said in its ``HELLO`` reply."""

    boot: str
    fw: str
    cards: int
    max_ms: int


@dataclass
class LinkStats:
    """Counters a test or a status line can show."""

    sent: int = 0
    resent: int = 0
    received: int = 0
    bad_lines: int = 0       # lines that failed framing or CRC here
    crc_errors: int = 0      # ``ERR - crc``: the board dropped one of our lines
    reconnects: int = 0
    reboots: int = 0
    presses_recovered: int = 0  # presses counted from a gap or a STATUS, not a PRESS
    faults: list[str] = field(default_factory=list)


PressHandler = Callable[[int], None]


class UlpLink:
    """One open ULP/1 link to a board: thread-safe requests, events to callbacks.

    ``on_press(n)`` is called from the reader thread with the number of new presses.
    """

    def __init__(
        self,
        port: str,
        *,
        retry_s: float = RETRY_S,
        tries: int = TRIES,
        ping_s: float = PING_S,
        poll_s: float = POLL_S,
        reconnect: bool = True,
    ) -> None:
        self.port = port
        self.retry_s = retry_s
        self.tries = tries
        self.ping_s = ping_s
        self.poll_s = poll_s
        self.reconnect = reconnect
        self.session = _token()
        self.info: BoardInfo | None = None
        self.stats = LinkStats()
        self.on_press: PressHandler | None = None
        self.gone = False
        self.epoch = 0                 # bumped on every new boot seen
        self.presses = 0               # presses counted on this link
        self._last_press = 0           # the board's press number last accounted for
        self._baseline = False         # True once open() has read the board's press count
        self._cond = threading.Condition()
        self._inbox: dict[int, list[ulp.Message]] = {}
        self._cards: dict[int, int] = {}
        self._activity: dict[int, int] = {}
        self._next_id = 1
        self._need_hello = True
        self._serial: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._last_request = 0.0
        self._misses = 0
        self._threads: list[threading.Thread] = []
        self._events: queue.Queue[int | None] = queue.Queue()
        self._ejecting: int | None = None
        self.last_eject_id: int | None = None
        self._heard = 0                # every line received, damaged ones too
        self._damaged = 0              # damaged lines here, and ``ERR - crc`` from the board
        self._closed = False

    # -- open and close -------------------------------------------------------------------
    def open(self) -> BoardInfo:
        """Open the port, greet the board, take its press count as the baseline."""
        self._serial = self._open_port()
        self._send_flush()
        self._threads = [
            threading.Thread(target=self._reader, name=f"ulp-reader {self.port}", daemon=True),
            threading.Thread(target=self._pinger, name=f"ulp-pinger {self.port}", daemon=True),
            threading.Thread(target=self._deliver, name=f"ulp-events {self.port}", daemon=True),
        ]
        self._threads[0].start()
        self._threads[2].start()
        try:
            info = self.hello()
            status = self.request(ulp.build_request("STATUS", self._take_id()), {"STATUS"})
        except BaseException:
            self.close()
            raise
        with self._cond:
            self._last_press = max(self._last_press, status.fields["presses"])
            self._baseline = True
        self._threads[1].start()
        return info

    def close(self) -> None:
        """Stop the motor if a job may run, stop the threads, close the port. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._serial is not None and self._ejecting is not None:
            with contextlib.suppress(Exception):  # never leave a motor running behind us
                self._write(ulp.frame(ulp.build_request("STOP", self._take_id())))
        self._stop.set()
        self._events.put(None)
        with self._cond:
            self._cond.notify_all()
        for thread in self._threads:
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(timeout=2)
        ser, self._serial = self._serial, None
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def _open_port(self) -> serial.SerialBase:
        try:
            return serial.serial_for_url(self.port, baudrate=BAUD, timeout=READ_TIMEOUT_S,
                                         write_timeout=1.0, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise PortError(f"cannot open serial port {self.port}: {exc}") from None

    def _send_flush(self) -> None:
        ser = self._serial
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.reset_input_buffer()
            self._write(b"\n")  # ends whatever half line the board holds

    # -- requests -------------------------------------------------------------------------
    def _take_id(self) -> int:
        with self._cond:
            if self._next_id > ulp.MAX_ID:  # ids must be new within a session: start another
                self._next_id = 1
                self.session = _token()
                self._need_hello = True
                self._inbox.clear()
                self._cards.clear()
                self._activity.clear()
            rid = self._next_id
            self._next_id += 1
            self._inbox[rid] = []
            self._activity[rid] = 0
            return rid

    def _forget(self, rid: int) -> None:
        with self._cond:
            self._inbox.pop(rid, None)
            self._activity.pop(rid, None)
            self._cards.pop(rid, None)

    def request(self, payload: str, accept: set[str], *, keep: bool = False) -> ulp.Message:
        """Send ``payload`` until a reply with its id and one of the ``accept`` verbs (or
        ``ERR``) comes; re-sent with the same id. Raises :class:`LauncherNotResponding`.

        ``keep`` leaves later replies to the same id for the caller to wait for."""
        rid = ulp.parse_request(payload).rid
        assert rid is not None
        delay = self.retry_s
        answered = False
        silent = 0
        try:
            for attempt in range(MAX_TRIES):
                heard, damaged = self._heard, self._damaged
                self._write(ulp.frame(payload), resend=attempt > 0)
                reply = self._wait(rid, accept | {"ERR"}, delay, damaged)
                if reply is not None:
                    answered = True
                    return reply
                if self._damaged != damaged:
                    continue  # our line or its reply was damaged: ask again at once
                if self._heard == heard:
                    silent += 1  # not a line, not even a damaged one: count it
                    if silent >= self.tries:
                        break
                delay = min(delay * 2, self.retry_s * 16)
        finally:
            if not (keep and answered):
                self._forget(rid)
        self.gone = True
        raise LauncherNotResponding(f"launcher on {self.port} is not answering "
                                    f"({payload.split(' ')[0]} unanswered {self.tries} times)")

    def hello(self) -> BoardInfo:
        """Greet the board with our session (it keeps its id memory for the same one)."""
        with self._cond:
            self._need_hello = False
        reply = self.request(ulp.build_request("HELLO", self._take_id(), self.session), {"HELLO"})
        if reply.verb == "ERR":
            raise LauncherError(f"board on {self.port} refused HELLO: {reply.fields['code']}")
        if reply.fields.get("protocol") != ulp.VERSION:
            raise LauncherError(f"board on {self.port} speaks {reply.fields.get('protocol')},"
                                f" not {ulp.VERSION}")
        assert self.info is not None
        return self.info

    def ensure_hello(self) -> None:
        """Say HELLO if the board may not know our session (new boot, reconnect)."""
        if self._need_hello or self.info is None:
            self.hello()

    def _wait(self, rid: int, verbs: set[str], timeout: float,
              damaged: int | None = None) -> ulp.Message | None:
        """Take the first reply to ``rid`` with one of ``verbs``; None on timeout, or as soon
        as a damaged line comes when ``damaged`` (the count before) is given."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._stop.is_set():
                if damaged is not None and self._damaged != damaged:
                    return None
                for msg in self._inbox.get(rid, ()):
                    if msg.verb in verbs:
                        self._inbox[rid].remove(msg)
                        return msg
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
        return None

    # -- the eject, as the protocol wants it ---------------------------------------------
    def eject(self, count: int, max_ms: int) -> tuple[int, str, str]:
        """Run one EJECT: ``(ejected, status, detail)``; status ``unknown`` when the board
        restarted or stopped answering before its ``DONE``."""
        self.ensure_hello()
        epoch = self.epoch
        rid = self._take_id()
        self._ejecting = self.last_eject_id = rid
        payload = ulp.build_request("EJECT", rid, count, max_ms)
        delay = self.retry_s
        unanswered = busy = seen = tries = 0
        deadline = time.monotonic() + max_ms / 1000 + EJECT_GRACE_S
        try:
            heard, damaged = self._heard, self._damaged
            self._write(ulp.frame(payload))
            while True:
                if time.monotonic() > deadline:
                    with contextlib.suppress(LauncherError):
                        self.stop()
                    return (self._cards.get(rid, 0), "unknown",
                            f"the board did not finish the eject in {max_ms} ms: "
                            "how many came out is not known")
                with self._cond:
                    self._cond.wait_for(
                        lambda: self._stop.is_set() or self.epoch != epoch
                        or self._has(rid, ("DONE", "ERR")) or self._damaged != damaged  # noqa: B023
                        or self._activity.get(rid, 0) != seen, delay)  # noqa: B023
                    if self.epoch != epoch:
                        return self._cards.get(rid, 0), "unknown", self._reboot_detail(rid)
                    done = self._take(rid, "DONE")
                    if done is not None:
                        return done.fields["ejected"], done.fields["status"], ""
                    error = self._take(rid, "ERR")
                    active = self._activity.get(rid, 0) != seen
                    seen = self._activity.get(rid, 0)
                if self._stop.is_set():
                    return self._cards.get(rid, 0), "unknown", "the launcher was closed"
                if error is not None:
                    if error.fields["code"] != "busy" or busy >= self.tries:
                        raise LauncherError(f"board on {self.port} refused EJECT {count} "
                                            f"{max_ms}: {error.fields['code']}")
                    busy += 1  # refused, so not remembered: asking again is safe
                    self._stop.wait(delay)
                elif active:  # OK or CARD: it runs; wait on, re-asking only after silence
                    unanswered, tries, delay = 0, 0, max(self.retry_s, self.poll_s)
                    continue
                elif self._damaged != damaged:
                    tries += 1  # a line was damaged, maybe the DONE: re-ask at once
                else:
                    if self._heard == heard:
                        unanswered += 1  # a board sending damaged lines is still there
                    tries += 1
                    delay = min(delay * 2, self.retry_s * 16)
                    if unanswered >= self.tries or tries >= MAX_TRIES:
                        self.gone = True
                        return self._cards.get(rid, 0), "unknown", self._lost_detail(rid)
                try:  # a re-ask: only to the very board that took the first ask
                    self.hello()
                except LauncherNotResponding:
                    return self._cards.get(rid, 0), "unknown", self._lost_detail(rid)
                if self.epoch != epoch:
                    return self._cards.get(rid, 0), "unknown", self._reboot_detail(rid)
                heard, damaged = self._heard, self._damaged
                self._write(ulp.frame(payload), resend=True)
        finally:
            self._ejecting = None
            self._forget(rid)

    def _has(self, rid: int, verbs: tuple[str, ...]) -> bool:
        return any(m.verb in verbs for m in self._inbox.get(rid, ()))

    def _take(self, rid: int, verb: str) -> ulp.Message | None:
        for msg in self._inbox.get(rid, ()):
            if msg.verb == verb:
                self._inbox[rid].remove(msg)
                return msg
        return None

    def _reboot_detail(self, rid: int) -> str:
        return (f"the board restarted during the eject after {self._cards.get(rid, 0)} "
                "card(s) were counted: how many came out is not known")

    def _lost_detail(self, rid: int) -> str:
        return (f"the board stopped answering during the eject after "
                f"{self._cards.get(rid, 0)} card(s) were counted: how many came out is not known")

    def status(self) -> ulp.Message:
        """Ask STATUS (it also recovers presses whose PRESS line was lost)."""
        self.ensure_hello()
        return self.request(ulp.build_request("STATUS", self._take_id()), {"STATUS"})

    def ping(self) -> None:
        self.request(ulp.build_request("PING", self._take_id()), {"PONG"})

    def stop(self) -> None:
        self.request(ulp.build_request("STOP", self._take_id()), {"OK"})

    def motor(self, duty: int, ms: int) -> ulp.Message:
        """A MOTOR run (wiring tests): waits for its ``DONE``; at most 2 s."""
        self.ensure_hello()
        rid = self._take_id()
        reply = self.request(ulp.build_request("MOTOR", rid, duty, ms), {"OK", "DONE"}, keep=True)
        try:
            if reply.verb == "ERR":
                raise LauncherError(f"board refused MOTOR {duty} {ms}: {reply.fields['code']}")
            if reply.verb == "OK":
                done = self._wait(rid, {"DONE"}, ms / 1000 + 2.0)
                if done is None:
                    raise LauncherNotResponding(f"launcher on {self.port}: MOTOR sent no DONE")
                reply = done
            return reply
        finally:
            self._forget(rid)

    # -- writing --------------------------------------------------------------------------
    def _write(self, data: bytes, *, resend: bool = False) -> None:
        self._last_request = time.monotonic()
        self.stats.sent += 1
        if resend:
            self.stats.resent += 1
        with self._write_lock:
            ser = self._serial
            if ser is None:
                return  # lost: the retries will try again once the reader has reopened
            try:
                ser.write(data)
                return
            except (serial.SerialException, OSError):
                pass
        self._lost(ser)  # outside the lock, which _lost takes

    # -- reading (the reader thread) -----------------------------------------------------
    def _reader(self) -> None:
        buffer = bytearray()
        while not self._stop.is_set():
            ser = self._serial
            if ser is None:
                if self._stop.wait(REOPEN_S) or not self.reconnect:
                    continue
                self._reopen()
                buffer.clear()
                continue
            try:
                data = ser.read(ser.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError):
                self._lost(ser)
                continue
            if not data:
                continue
            buffer += data
            while b"\n" in buffer:
                line, _, rest = bytes(buffer).partition(b"\n")
                buffer = bytearray(rest)
                self._line(line)
            if len(buffer) > 4 * ulp.MAX_PAYLOAD:
                buffer.clear()
                self.stats.bad_lines += 1

    def _lost(self, ser: serial.SerialBase) -> None:
        with self._write_lock:
            if self._serial is ser:
                self._serial = None
                with self._cond:
                    self._need_hello = True
                with contextlib.suppress(Exception):
                    ser.close()

    def _reopen(self) -> None:
        try:
            ser = self._open_port()
        except PortError:
            return
        with self._write_lock:
            self._serial = ser
        self.stats.reconnects += 1
        self._send_flush()

    def _line(self, line: bytes) -> None:
        self._heard += 1
        try:
            payload = ulp.unframe(line)
            if payload is None:
                return
            msg = ulp.parse_device(payload)
        except ulp.ProtocolError:
            self.stats.bad_lines += 1
            with self._cond:
                self._damaged += 1
                self._cond.notify_all()
            return
        self.stats.received += 1
        with self._cond:
            self._misses = 0
            self.gone = False
            self._dispatch(msg)
            self._cond.notify_all()

    def _dispatch(self, msg: ulp.Message) -> None:
        """Called with the lock held."""
        verb, rid = msg.verb, msg.rid
        if verb == "BOOT":
            self._boot_seen(msg.fields["boot"])
            self._need_hello = True
        elif verb == "PRESS":
            self._presses_seen(msg.fields["n"], from_status=False)
        elif verb == "FAULT":
            self.stats.faults.append(msg.fields["code"])
        elif verb == "ERR" and rid is None:
            if msg.fields["code"] == "crc":
                self.stats.crc_errors += 1
                self._damaged += 1
        elif rid is not None and rid in self._inbox:
            if verb == "CARD":
                self._cards[rid] = max(self._cards.get(rid, 0), msg.fields["n"])
            if verb in ("OK", "CARD", "DONE"):
                self._activity[rid] = self._activity.get(rid, 0) + 1
            if verb == "HELLO":
                self._hello_seen(msg)
            if verb == "STATUS":
                self._presses_seen(msg.fields["presses"], from_status=True)
            if verb != "CARD":
                self._inbox[rid].append(msg)
        elif verb == "STATUS":  # a late reply to a ping-time STATUS: still worth its count
            self._presses_seen(msg.fields["presses"], from_status=True)

    def _hello_seen(self, msg: ulp.Message) -> None:
        fields = msg.fields
        self._boot_seen(fields["boot"])
        self.info = BoardInfo(fields["boot"], fields["fw"], fields["cards"], fields["max_ms"])

    def _boot_seen(self, boot: str) -> None:
        if self.info is None:
            self.info = BoardInfo(boot, "?", dispenser.CARDS, dispenser.MAX_MS)
            return
        if boot.upper() != self.info.boot.upper():
            self.info = BoardInfo(boot, self.info.fw, self.info.cards, self.info.max_ms)
            self.epoch += 1
            self.stats.reboots += 1
            self._last_press = 0   # a new power-up counts its presses from 0
            self._need_hello = True

    def _presses_seen(self, n: int, *, from_status: bool) -> None:
        if not self._baseline:  # opening: presses from before we came are not ours
            if n > self._last_press and not from_status:
                self.presses += 1  # this PRESS, not the ones before it
                self._events.put(1)
            self._last_press = max(self._last_press, n)
            return
        if n > self._last_press:
            new = n - self._last_press
            recovered = new if from_status else new - 1
            self.stats.presses_recovered += recovered
            self._last_press = n
            self.presses += new
            self._events.put(new)
        elif n < self._last_press:
            self._need_hello = True  # fewer than before: the board may have restarted

    def _deliver(self) -> None:
        """Hands presses to ``on_press`` outside the reader, which a handler may wait on."""
        while (new := self._events.get()) is not None:
            handler = self.on_press
            if handler is not None:
                try:
                    handler(new)
                except Exception:  # a front end's bug must not stop press delivery
                    traceback.print_exc()

    # -- liveness (the pinger thread) ----------------------------------------------------
    def _pinger(self) -> None:
        while not self._stop.wait(self.ping_s / 2):
            if time.monotonic() - self._last_request < self.ping_s:
                continue  # not idle: requests in flight prove liveness themselves
            try:
                if self._need_hello:
                    self.hello()
                rid = self._take_id()
                self._write(ulp.frame(ulp.build_request("PING", rid)))
                pong = self._wait(rid, {"PONG"}, min(self.ping_s, 0.5))
                self._forget(rid)
                if pong is None:
                    self._misses += 1
                    if self._misses >= PING_MISSES:
                        self.gone = True
                    continue
                rid = self._take_id()
                self._write(ulp.frame(ulp.build_request("STATUS", rid)))
                self._wait(rid, {"STATUS"}, min(self.ping_s, 0.5))
                self._forget(rid)
            except LauncherError:
                continue


def _token() -> str:
    return f"{secrets.randbits(32):08X}"
