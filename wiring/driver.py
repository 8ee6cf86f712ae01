"""The GPIO closed loop that ejects cards: the dispenser's own loop, on gpiozero's pins.

The loop itself is :class:`sim_launcher.dispenser.Eject`, the very one the board's
firmware runs: motor on, count the beam, stop at the count, and on a jam (no card for
``jam_ms``) a reverse pulse and a new try before giving up; it stops early, saying why,
on an empty hopper (the sensor) or ``max_ms``, and reports what the beam counted, never
what was asked. This module feeds it the beam's edges (from gpiozero's callbacks, which
also stop the motor the instant the last card clears) and the time, from the pin
factory's clock (the emulated world's own on emulated pins).

The motor is stopped in a ``finally`` on every way out of an eject, by :meth:`close`, and
by a watchdog timer at ``max_ms`` that does not depend on the eject loop running at all.

The loop waits and sets its watchdog through a :class:`LoopClock`: real time on a Pi, the
emulated world's time on emulated pins (``wiring.emulated``), where the world's time then
runs only while the loop waits, so a late thread cannot change what an eject does.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator

from sim_launcher.dispenser import Eject
from uno_attack.launcher import EjectResult, EjectStatus
from wiring.devices import DispenserDevices

log = logging.getLogger(__name__)

CLOSE_WAIT_S = 5.0  # how long a close waits for a stopped eject's loop to end


class LoopClock:
    """How the eject loop waits and sets its watchdog: in real time, as on a Pi."""

    @contextlib.contextmanager
    def closed_loop(self) -> Iterator[None]:
        """Around one eject (emulated pins: the world's time then waits for the loop)."""
        yield

    def wait(self, woken: threading.Event, ms: float | None) -> None:
        """Wait ``ms`` (None: with no end), or until ``woken`` is set."""
        woken.wait(ms / 1000.0 if ms is not None else None)

    def call_later(self, ms: float, action: Callable[[], None]) -> Callable[[], None]:
        """Run ``action`` ``ms`` from now, from another thread; returns its cancel."""
        timer = threading.Timer(ms / 1000.0, action)
        timer.daemon = True
        timer.start()
        return timer.cancel


class GpioEjector:
    """The :class:`~uno_attack.launcher.Ejector` of a GPIO dispenser.

    ``time_scale`` is how much faster than real time the pins' clock runs (1 on a Pi; the
    emulated world's scale on emulated pins): the real waits of others (the LED's blinking,
    ``wiring check``) are divided by it; ``clock`` is what the loop waits on.
    ``trace`` holds the beam's edges of the last eject, (ms since the motor was switched
    on, blocked), and ``reverses`` its reverse pulses (jams freed), for ``wiring check``
    and ``wiring calibrate``.
    """

    def __init__(self, devices: DispenserDevices, *, time_scale: float = 1.0,
                 clock: LoopClock | None = None) -> None:
        self.devices = devices
        self.settings = devices.pin_map.settings
        self.time_scale = time_scale
        self.clock = clock or LoopClock()
        self.trace: list[tuple[float, bool]] = []
        self.reverses = 0
        self._job: Eject | None = None
        self._started = 0.0
        self._closed = False
        self._overrun = False          # the watchdog stopped the motor: it stays off
        self._driven = 0.0             # the duty the motor was last set to
        self._stop_request = threading.Event()
        self._changed = threading.Event()
        self._lock = threading.Lock()      # one eject at a time
        self._state = threading.Lock()     # the running job, shared with the callbacks
        self._motor_lock = threading.Lock()  # the motor, shared with the watchdog
        assert devices.beam is not None
        devices.beam.when_activated = lambda: self._beam(True)
        devices.beam.when_deactivated = lambda: self._beam(False)
        if devices.hopper_empty is not None:
            devices.hopper_empty.when_activated = self._changed.set

    def seconds(self, ms: float) -> float:
        """Real seconds for ``ms`` of dispenser time."""
        return ms / 1000.0 / self.time_scale

    # -- the closed loop --------------------------------------------------------------
    def eject(self, count: int, *, available: int | None = None,
              duty: float | None = None) -> EjectResult:
        """Run the motor (at ``duty``, else the pin map's) until ``count`` cards have
        passed the beam, or a reason to stop."""
        with self._lock, self.clock.closed_loop():
            if self._closed:
                return EjectResult(0, EjectStatus.STOPPED, "the launcher is closed")
            self._stop_request.clear()
            now = self.devices.ticks_ms()
            beam = self.devices.beam
            assert beam is not None
            empty = self._hopper_says_empty()
            with self._state:
                job = Eject(self.settings, count, self.settings.max_ms, now, duty=duty,
                            beam_blocked=bool(beam.is_active), hopper_empty=empty)
                self._job, self.trace = job, []
                self._overrun = False
            cancel_watchdog = None
            try:
                with self._state:
                    self._drive(job)
                self._started = self.devices.ticks_ms()  # the trace's zero: the motor is on
                # a second line of defence: even if this thread stalls (a hung read, a
                # stuck callback), the motor stops at max_ms
                cancel_watchdog = self.clock.call_later(self.settings.max_ms,
                                                        lambda: self._watchdog(job))
                self._run(job)
            finally:
                if cancel_watchdog is not None:
                    cancel_watchdog()
                with self._state:
                    self._job = None
                    self.reverses = job.reverses
                self._motor(0.0)
            status, detail = self._outcome(job)
            log.debug("eject %d: %d counted, %s %s", count, job.count, status, detail)
            return EjectResult(job.count, status, detail)

    def stop(self) -> None:
        """Stop an eject in progress (from another thread); it reports ``stopped``."""
        self._stop_request.set()
        self._changed.set()
        now = self.devices.ticks_ms()   # before the lock: a callback holding it may need time
        with self._state:
            job = self._job
            if job is not None:
                job.stop(now)
                self._drive(job)

    def _run(self, job: Eject) -> None:
        """Poll the loop at its deadlines (the callbacks wake it) until its count is final."""
        while True:
            self._changed.clear()
            now = self.devices.ticks_ms()   # not under the lock: a callback may need it
            empty = self._hopper_says_empty()
            with self._state:
                if self._stop_request.is_set():
                    job.stop(now)
                job.poll(now, empty)
                self._drive(job)
                if job.finished:
                    return
                wait = job.wait_ms(now)
            self.clock.wait(self._changed, wait)

    def _outcome(self, job: Eject) -> tuple[EjectStatus, str]:
        settings = self.settings
        status = EjectStatus(job.status)
        detail = {
            EjectStatus.OK: "",
            EjectStatus.JAM: f"no card through the beam for {settings.jam_ms:g} ms, after "
                             f"{settings.reverse_tries} reverse pulse(s): jammed or empty",
            EjectStatus.EMPTY: "the hopper sensor says empty",
            EjectStatus.TIMEOUT: f"max_ms ({settings.max_ms:g} ms) ran out",
            EjectStatus.STOPPED: "stopped on request",
        }.get(status, "")
        return status, detail

    def _beam(self, blocked: bool) -> None:
        """The beam changed (called from the pin's thread)."""
        now = self.devices.ticks_ms()
        with self._state:
            job = self._job
            if job is None:
                if not blocked:
                    log.info("the beam cleared while no eject was running (a finger, or a "
                             "card the roller pushed back)")
                return
            self.trace.append((now - self._started, blocked))
            if job.beam(now, blocked):
                log.debug("card %d out", job.count)
            self._drive(job)
        self._changed.set()

    def _watchdog(self, job: Eject) -> None:
        """``max_ms`` is up: the motor goes off, and stays off for the rest of this eject."""
        if self._job is job:
            with self._motor_lock:
                self._overrun = True
                running = self._driven != 0
                if running:
                    self._set(0.0)
            if running:  # the loop had not stopped it (else the count is only settling)
                log.warning("watchdog: motor stopped at max_ms")
            self._changed.set()

    # -- the motor and the sensors ----------------------------------------------------
    def _drive(self, job: Eject) -> None:
        """Set the motor to what the loop wants (called with the job's lock held)."""
        self._motor(job.duty)

    def _motor(self, duty: float) -> None:
        with self._motor_lock:
            if self._overrun or self._closed:
                duty = 0.0
            if duty != self._driven:
                self._set(duty)

    def _set(self, duty: float) -> None:
        motor = self.devices.motor
        self._driven = duty
        if motor is None or motor.closed:
            return
        if duty > 0:
            motor.forward(duty)
            log.debug("motor forward at duty %.2f", duty)
        elif duty < 0:
            motor.backward(-duty)
            log.debug("motor backward at duty %.2f, to free a jam", -duty)
        else:
            motor.stop()
            log.debug("motor stopped")

    def _hopper_says_empty(self) -> bool:
        sensor = self.devices.hopper_empty
        return sensor is not None and bool(sensor.is_active)

    def close(self) -> None:
        """Stop the motor and release every device; safe to call twice, from any thread.

        An eject in progress is stopped and its loop let finish (it settles in a few
        hundred milliseconds at most) before the devices close under it; a loop that does
        not finish in :data:`CLOSE_WAIT_S` finds them closed, the motor off all the same."""
        if self._closed:
            return
        self.stop()
        finished = self._lock.acquire(timeout=CLOSE_WAIT_S)
        try:
            with self._motor_lock:
                self._closed = True
                self._set(0.0)
            self.devices.close()
        finally:
            if finished:
                self._lock.release()
