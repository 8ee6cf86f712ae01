"""The emulated board: the real firmware logic on the physical model, behind a pty.

One thread owns everything (pty, firmware, model), so nothing here needs a lock: it reads
what the host wrote, advances the model from one sensor change to the next up to
``time_scale × real time``, and polls the firmware after each step, as the board's main
loop would. Any serial program can open the pty's slave end (or the ``link`` symlink).

Faults a test or ``uno-attack firmware emulate`` can inject: line noise, dropped bytes,
repeated lines (:mod:`firmware_bridge.faults`), a disconnect and reconnect of the port,
a reboot of the board (also in the middle of an eject), a jam, an empty hopper.

The hopper: by default the emulated hopper is topped up whenever it holds fewer than
``CARDS`` cards and no eject runs, as if a helper reloads it, so a long game never runs it
dry (the game keeps its own count of the cards); ``refill=False`` lets it run out.
"""

from __future__ import annotations

import collections
import contextlib
import os
import random
import select
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge.faults import FaultCounts, LineMangler, LinkFaults
from firmware_bridge.firmware import board
from firmware_bridge.firmware.hal import Hal
from sim_launcher.physical import DispenserModel, DispenserParams

ACTIVE_STEP_MS = 5.0       # the longest model step while the firmware has a timer running
BUTTON_HOLD_MS = 60.0      # an emulated finger holds the button this long
BUTTON_GAP_MS = 60.0       # and waits this long before the next press
BOUNCE = (0.0, 1.5, 3.0)   # the contact bounces at the start of a press (ms)


class ModelHal(Hal):
    """The HAL of the emulated board: pins are the physical model, the link is the pty."""

    def __init__(self, emulator: EmulatedBoard, boot: str) -> None:
        self.emulator = emulator
        self.model = emulator.model
        self._boot = boot
        self.motor_calls = 0

    def ticks_ms(self) -> int:
        return int(self.model.now_ms)

    def set_motor(self, duty: int) -> None:
        self.motor_calls += 1
        self.model.set_motor(duty / 100.0)

    def beam_blocked(self) -> bool:
        return self.model.beam_blocked

    def button_down(self) -> bool:
        return self.emulator.button_is_down

    def hopper_empty(self) -> bool | None:
        return self.model.hopper_empty

    def read(self) -> bytes:
        data, self.emulator.rx = bytes(self.emulator.rx), bytearray()
        return data

    def write(self, data: bytes) -> None:
        self.emulator.transmit(data)

    def boot_id(self) -> str:
        return self._boot


@dataclass
class EjectRecord:
    """The emulator's own books on one EJECT/MOTOR the firmware ran: the ground truth."""

    boot: str
    session: str | None
    rid: int
    verb: str
    asked: int | None
    cards_before: int
    cards: int = 0
    status: str | None = None   # the DONE status, or "reboot" when the board restarted


@dataclass
class EmulatorStats:
    """Figures for a soak test."""

    lines_in: int = 0
    lines_out: int = 0
    bytes_lost: int = 0        # device output nobody could read (disconnected, full)
    reboots: int = 0
    disconnects: int = 0
    presses: int = 0
    to_device: FaultCounts = field(default_factory=FaultCounts)
    to_host: FaultCounts = field(default_factory=FaultCounts)


class EmulatedBoard:
    """A dispenser board behind a pty, run by a thread; a context manager.

    ``link`` makes a symlink to the pty's slave (needed to survive a disconnect, since a
    new pty gets a new name); :attr:`port` is the path a host should open.
    """

    def __init__(
        self,
        *,
        link: str | os.PathLike[str] | None = None,
        params: DispenserParams | None = None,
        seed: int | None = None,
        time_scale: float = 1.0,
        faults: LinkFaults | None = None,
        refill: bool = True,
        jam_ms: int = board.JAM_MS,
        limit_ms: int = board.LIMIT_MS,
        log: bool = False,
    ) -> None:
        if time_scale <= 0:
            raise ValueError(f"time_scale {time_scale!r} must be positive")
        self.rng = random.Random(seed)
        self.model = DispenserModel(params, seed=self.rng.randrange(2**32))
        self.time_scale = time_scale
        self.faults = faults or LinkFaults()
        self.stats = EmulatorStats()
        self._to_device = LineMangler(self.faults, random.Random(self.rng.random()),
                                      self.stats.to_device)
        self._to_host = LineMangler(self.faults, random.Random(self.rng.random()),
                                    self.stats.to_host)
        self.refill = refill
        self.jam_ms = jam_ms
        self.limit_ms = limit_ms
        self.log: list[tuple[str, str]] | None = [] if log else None
        self.link = Path(link) if link is not None else None
        self.records: list[EjectRecord] = []
        self.rx = bytearray()
        self.button_is_down = False
        self._button_edges: collections.deque[tuple[float, bool]] = collections.deque()
        self._press_requests = 0
        self._press_lock = threading.Lock()
        self._commands: collections.deque[tuple[str, object]] = collections.deque()
        self._reboot_after: int | None = None
        self._reconnect_at: float | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_name = ""
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._thread: threading.Thread | None = None
        self._real0 = time.monotonic()
        self._model0 = 0.0
        self._open_pty()
        self._job: board.Job | None = None  # the job the books are open for
        self.hal: ModelHal = ModelHal(self, self._new_boot())
        self.firmware = board.Firmware(self.hal, jam_ms=jam_ms, limit_ms=limit_ms)

    # -- life -----------------------------------------------------------------------------
    @property
    def port(self) -> str:
        """What a host opens: the link when there is one, else the pty's slave."""
        return str(self.link) if self.link is not None else self._slave_name

    def start(self) -> EmulatedBoard:
        if self._thread is None:
            self._real0 = time.monotonic()
            self._model0 = self.model.now_ms
            self._thread = threading.Thread(target=self._run, name="emulated-board",
                                            daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread, turn the motor off, close the pty and remove the link."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        self.model.set_motor(0)
        self._close_pty()
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()

    def __enter__(self) -> EmulatedBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what a person or a test does ---------------------------------------------------
    def press_button(self, times: int = 1) -> None:
        """An emulated finger presses the button ``times`` times (queued, one by one)."""
        with self._press_lock:
            self._press_requests += times

    def reboot(self) -> None:
        """Power-cycle the board now: a new boot id, the motor off, memory gone."""
        self._commands.append(("reboot", None))

    def reboot_during_next_eject(self, after_cards: int = 1) -> None:
        """Reboot when the next EJECT has counted ``after_cards`` cards."""
        self._commands.append(("reboot_after", after_cards))

    def disconnect(self, seconds: float = 0.2) -> None:
        """Unplug the port for ``seconds`` (real time); the board keeps running."""
        self._commands.append(("disconnect", seconds))

    def jam(self, *, stuck: bool = False) -> None:
        self._commands.append(("jam", stuck))

    def empty(self) -> None:
        """Take every card out of the hopper and stop refilling it."""
        self._commands.append(("empty", None))

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until the queued presses and commands have all been done."""
        with self._idle:
            return self._idle.wait_for(self._is_idle, timeout)

    def _is_idle(self) -> bool:
        return not (self._press_requests or self._button_edges or self._commands
                    or self.button_is_down)

    # -- the pty --------------------------------------------------------------------------
    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._slave_name = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self._slave_name)
            tmp.replace(self.link)

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def transmit(self, data: bytes) -> None:
        """The firmware writes a line to the host."""
        if self._job is not None and self.firmware.job is not self._job:
            self._close_record()  # the books are right before the host can read a DONE
        self.stats.lines_out += 1
        if self.log is not None:
            self.log.append(("device", data.decode(errors="replace").rstrip("\n")))
        data = self._to_host(data)
        if self._master is None:
            self.stats.bytes_lost += len(data)
            return
        try:
            os.write(self._master, data)
        except (BlockingIOError, OSError):
            self.stats.bytes_lost += len(data)

    def _receive(self) -> None:
        assert self._master is not None
        try:
            data = os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            return
        if self.log is not None:
            for line in data.split(b"\n")[:-1]:
                self.log.append(("host", line.decode(errors="replace")))
        self.stats.lines_in += data.count(b"\n")
        self.rx += self._to_device(data)

    # -- the main loop --------------------------------------------------------------------
    def model_time_now(self) -> float:
        return self._model0 + (time.monotonic() - self._real0) * 1000.0 * self.time_scale

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                active = (self.firmware.busy or self._button_edges or self._press_requests
                          or self.model.duty != 0)
                wait = 0.001 if active else 0.01
                if self._master is None:
                    time.sleep(wait)
                else:
                    ready, _, _ = select.select([self._master], [], [], wait)
                    if ready:
                        self._receive()
                self._do_commands()
                self._advance(self.model_time_now())
                with self._idle:
                    if self._is_idle():
                        self._idle.notify_all()
        finally:
            self.model.set_motor(0)

    def _advance(self, target: float) -> None:
        """Step model and firmware up to model time ``target``, stopping at every edge."""
        model = self.model
        self.firmware.poll()
        self._watch_job()
        while model.now_ms < target and not self._stop.is_set():
            self._schedule_press()
            step = min(target - model.now_ms, model.ms_to_next_change())
            if self._button_edges:
                step = min(step, max(self._button_edges[0][0] - model.now_ms, 0.0))
            if self.firmware.busy:
                step = min(step, ACTIVE_STEP_MS)
            deadline = self.firmware.motor_deadline()
            if deadline is not None and deadline > model.now_ms:
                step = min(step, deadline - model.now_ms)  # never past a motor limit
            model.advance(max(step, 0.0))
            while self._button_edges and self._button_edges[0][0] <= model.now_ms:
                self.button_is_down = self._button_edges.popleft()[1]
            self.firmware.poll()
            self._watch_job()
            if self._stop.is_set():
                break

    def _schedule_press(self) -> None:
        if self._button_edges or not self._press_requests:
            return
        with self._press_lock:
            self._press_requests -= 1
        t = self.model.now_ms + 1.0
        for i, offset in enumerate(BOUNCE):
            self._button_edges.append((t + offset, i % 2 == 0))
        self._button_edges.append((t + BUTTON_HOLD_MS, False))
        self._button_edges.append((t + BUTTON_HOLD_MS + BUTTON_GAP_MS, False))
        self.stats.presses += 1

    def _watch_job(self) -> None:
        """Keep the books: which job started, what it really put out, how it ended."""
        job = self.firmware.job
        if job is self._job:
            if job is not None and self._reboot_after is not None \
                    and job.verb == "EJECT" and job.count >= self._reboot_after:
                self._reboot_after = None
                self._reboot()
            return
        if self._job is not None:
            self._close_record()
        self._job = job
        if job is not None:
            self.records.append(EjectRecord(
                boot=self.firmware.boot, session=self.firmware.session, rid=job.rid,
                verb=job.verb, asked=job.want, cards_before=self.model.cards_out))

    def _close_record(self) -> None:
        """Write down what the job that just ended really put out and how it ended."""
        assert self._job is not None
        if self.records:
            record = self.records[-1]
            record.cards = self.model.cards_out - record.cards_before
            record.status = self._job.status
        self._job = None
        if self.refill and self.firmware.job is None and self.model.hopper < board.CARDS:
            self.model.refill()  # between ejects: a long game never runs the hopper dry

    def _do_commands(self) -> None:
        while self._commands:
            what, arg = self._commands.popleft()
            if what == "reboot":
                self._reboot()
            elif what == "reboot_after":
                self._reboot_after = int(arg)  # type: ignore[call-overload]
            elif what == "disconnect":
                self.stats.disconnects += 1
                self._close_pty()
                if self.link is not None:
                    with contextlib.suppress(FileNotFoundError):
                        self.link.unlink()
                self._reconnect_at = time.monotonic() + float(arg)  # type: ignore[arg-type]
            elif what == "jam":
                self.model.force_jam(stuck=bool(arg))
            elif what == "empty":
                self.refill = False
                self.model.refill(0)
        if self._reconnect_at is not None and time.monotonic() >= self._reconnect_at:
            self._reconnect_at = None
            self._open_pty()

    def _reboot(self) -> None:
        self.stats.reboots += 1
        self.model.set_motor(0)
        if self._job is not None and self.records:
            record = self.records[-1]
            record.cards = self.model.cards_out - record.cards_before
            record.status = "reboot"
        self._job = None
        self.rx = bytearray()
        self.hal = ModelHal(self, self._new_boot())
        self.firmware = board.Firmware(self.hal, jam_ms=self.jam_ms, limit_ms=self.limit_ms)

    def _new_boot(self) -> str:
        return f"{self.rng.randrange(1 << 32):08X}"


def frame_log(log: list[tuple[str, str]]) -> str:
    """A session log as the transcript of docs/protocol.md."""
    return "\n".join(f"{who:<6} {line}" for who, line in log)


__all__ = ["EjectRecord", "EmulatedBoard", "EmulatorStats", "ModelHal", "frame_log"]
