"""The emulated board: the real firmware logic in the emulated dispenser world, behind a pty.

One thread owns everything (pty, firmware, world), as the board's main loop would: it
reads what the host wrote, steps the world (:class:`sim_launcher.world.DispenserWorld`)
from one sensor change or firmware timer (``Firmware.next_tick``) to the next, up to
``time_scale × real time``, and polls the firmware after each step. Any serial program
can open the pty's slave end (or the ``link`` symlink).

Faults: on the wire, line noise, dropped bytes, repeated and lost lines
(:mod:`firmware_bridge.faults`), a disconnect and reconnect of the port; of the board, a
reboot (also in the middle of an eject: the motor stops, and for ``BOOT_MS`` the board
hears nothing, as a real one booting); of the dispenser, the world's named faults
(:data:`sim_launcher.world.FAULTS`), the same as the emulated GPIO pins have.

The hopper: a person tops it up after every eject that leaves it holding less than one
full burst, so a long game never runs it dry (the game keeps its own count of the
cards); ``refill=False`` (or the ``empty`` fault) lets it run out.
"""

from __future__ import annotations

import collections
import contextlib
import math
import os
import random
import select
import threading
import time
import tty
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge.faults import FaultCounts, LineMangler, LinkFaults
from firmware_bridge.firmware import board, dispenser
from firmware_bridge.firmware.hal import Hal
from sim_launcher.physical import DispenserParams
from sim_launcher.world import DispenserWorld

BOOT_MS = 300.0            # a board that restarts is deaf this long (MicroPython boots)


class ModelHal(Hal):
    """The HAL of the emulated board: its pins are the emulated world, its link the pty."""

    def __init__(self, emulator: EmulatedBoard, boot: str) -> None:
        self.emulator = emulator
        self.world = emulator.world
        self._boot = boot
        self.motor_calls = 0

    def ticks_ms(self) -> int:
        return int(self.world.model.now_ms)

    def set_motor(self, duty: int) -> None:
        self.motor_calls += 1
        self.world.set_motor(duty / 100.0)

    def set_led(self, on: bool) -> None:
        self.world.drive_led(on)

    def set_buzzer(self, on: bool) -> None:
        self.world.drive_buzzer(on)

    def beam_blocked(self) -> bool:
        return self.world.model.beam_blocked

    def button_down(self) -> bool:
        return self.world.button_down

    def hopper_empty(self) -> bool | None:
        return self.world.model.hopper_empty

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
    presses: int = 0           # pushes of the emulated finger
    reboots: int = 0
    disconnects: int = 0
    to_device: FaultCounts = field(default_factory=FaultCounts)
    to_host: FaultCounts = field(default_factory=FaultCounts)


class EmulatedBoard:
    """A dispenser board behind a pty, run by a thread; a context manager.

    ``link`` makes a symlink to the pty's slave (needed to survive a disconnect, since a
    new pty gets a new name); :attr:`port` is the path a host should open. ``wire`` is how
    badly the serial line behaves, ``faults`` the dispenser's named faults, ``settings``
    the board's dispenser timings (``dispenser.Settings``, the defaults when left out).
    """

    def __init__(
        self,
        *,
        link: str | os.PathLike[str] | None = None,
        params: DispenserParams | None = None,
        seed: int | None = None,
        time_scale: float = 1.0,
        wire: LinkFaults | None = None,
        faults: Iterable[str] = (),
        refill: bool = True,
        settings: dispenser.Settings | None = None,
        limit_ms: int = board.LIMIT_MS,
        log: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.world = DispenserWorld(params, seed=self.rng.randrange(2**32),
                                    time_scale=time_scale, refill=refill, faults=faults)
        self.wire = wire or LinkFaults()
        self.stats = EmulatorStats()
        self._to_device = LineMangler(self.wire, random.Random(self.rng.random()),
                                      self.stats.to_device)
        self._to_host = LineMangler(self.wire, random.Random(self.rng.random()),
                                    self.stats.to_host)
        self.settings = settings
        self.limit_ms = limit_ms
        self.log: list[tuple[str, str]] | None = [] if log else None
        self.link = Path(link) if link is not None else None
        self.records: list[EjectRecord] = []
        self.rx = bytearray()
        self._commands: collections.deque[tuple[str, object]] = collections.deque()
        self._commands_done = threading.Condition()
        self._reboot_after: int | None = None
        self._booting_until: float | None = None   # model ms: the board is starting up
        self._reconnect_at: float | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_name = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._open_pty()
        self._job: board.Job | None = None  # the job the books are open for
        self._power_up()

    # -- life -----------------------------------------------------------------------------
    @property
    def port(self) -> str:
        """What a host opens: the link when there is one, else the pty's slave."""
        return str(self.link) if self.link is not None else self._slave_name

    def start(self) -> EmulatedBoard:
        if self._thread is None:
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
        self.world.set_motor(0)
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
        self.stats.presses += times
        for _ in range(times):
            self.world.push_button()

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
        """Jam the card now (``stuck``: one no reverse pulse frees, the ``jam`` fault)."""
        self.world.call(lambda: self.world.model.force_jam(stuck=stuck))

    def empty(self) -> None:
        """Take every card out of the hopper and stop refilling it (the ``empty`` fault)."""
        self.world.inject("empty")

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until the queued presses and commands have all been done."""
        deadline = time.monotonic() + timeout
        with self._commands_done:
            if not self._commands_done.wait_for(lambda: not self._commands, timeout):
                return False
        return self.world.wait_idle(max(deadline - time.monotonic(), 0.0))

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
        """The firmware writes a line to the host: the books are right before it leaves."""
        self._keep_books()
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
        data = self._to_device(data)
        if self._booting_until is None:
            self.rx += data   # a board booting hears nothing: its UART is not yet set up

    # -- the main loop --------------------------------------------------------------------
    def _run(self) -> None:
        world = self.world
        world.own()
        try:
            while not self._stop.is_set():
                active = self.firmware.busy or world.pending or world.model.duty != 0
                wait = 0.001 if active else 0.01
                if self._master is None:
                    time.sleep(wait)
                else:
                    ready, _, _ = select.select([self._master], [], [], wait)
                    if ready:
                        self._receive()
                self._do_commands()
                self._poll()
                world.advance_to(world.clock.now(), on_step=self._poll, bound=self._bound)
        finally:
            world.set_motor(0)
            world.release()

    def _poll(self) -> None:
        if self._stop.is_set():
            return
        if self._booting_until is not None:
            if self.world.model.now_ms < self._booting_until:
                return
            self._booting_until = None
            self._power_up()
        if self.firmware.leaving:  # at its REPL (a REPL request): silent until a restart
            self.rx = bytearray()
            return
        self.firmware.poll()
        self._keep_books()
        job = self.firmware.job
        if self._reboot_after is not None and job is not None and job.verb == "EJECT" \
                and job.count >= self._reboot_after:
            self._reboot_after = None
            self._reboot()

    def _bound(self) -> float:
        """How far the world may step before the firmware must look again."""
        if self._booting_until is not None:
            return max(self._booting_until - self.world.model.now_ms, 0.0)
        tick = self.firmware.next_tick()
        now = self.world.model.now_ms
        if tick is None:
            return math.inf   # only a sensor change or an action can make it act
        due = math.ceil(tick)   # the first whole tick (what the HAL reads) at or past it
        if due <= now:
            return 1.0        # due, and the poll just made did not clear it: the next tick
        return due - now      # exactly to its next timer: never past a motor limit

    def _keep_books(self) -> None:
        """Which job started, what it really put out, how it ended."""
        firmware = getattr(self, "firmware", None)  # none yet while the first one boots
        job = firmware.job if firmware is not None else None
        if job is self._job:
            return
        if self._job is not None:
            self._close_record()
        self._job = job
        if job is not None and firmware is not None:
            self.records.append(EjectRecord(
                boot=firmware.boot, session=firmware.session, rid=job.rid,
                verb=job.verb, asked=job.want, cards_before=self.world.model.cards_out))

    def _close_record(self) -> None:
        """Write down what the job that just ended really put out and how it ended."""
        assert self._job is not None
        if self.records:
            record = self.records[-1]
            record.cards = self.world.model.cards_out - record.cards_before
            record.status = self._job.status
        self._job = None
        if self.firmware.job is None:
            self.world.eject_ended()

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
        with self._commands_done:
            self._commands_done.notify_all()
        if self._reconnect_at is not None and time.monotonic() >= self._reconnect_at:
            self._reconnect_at = None
            self._open_pty()

    def _reboot(self) -> None:
        self.stats.reboots += 1
        self.world.set_motor(0)
        if self._job is not None and self.records:
            record = self.records[-1]
            record.cards = self.world.model.cards_out - record.cards_before
            record.status = "reboot"
        self._job = None
        self._power_off()
        self.rx = bytearray()
        self._booting_until = self.world.model.now_ms + BOOT_MS

    def _power_up(self) -> None:
        """The board starts: the firmware logic on a new HAL, with a new boot id."""
        self.hal = ModelHal(self, self._new_boot())
        self.firmware = board.Firmware(self.hal, self.settings, self.limit_ms)

    def _power_off(self) -> None:
        self.firmware.job = None  # the old power-up is gone, with its job

    def _new_boot(self) -> str:
        return f"{self.rng.randrange(1 << 32):08X}"


__all__ = ["EjectRecord", "EmulatedBoard", "EmulatorStats", "ModelHal"]
