"""The closed loop that ejects cards: motor on, count the beam, stop.

It runs the motor until the beam has seen the cards asked for, and stops early, saying
why, on a jam (``jam_ms`` with no card; first a short reverse pulse to free it), an empty
hopper (the sensor) or ``max_ms``. It reports what the beam counted, never what was asked.
The motor is stopped in a ``finally`` on every way out of an eject, by the beam callback
the instant the last card clears the beam, by :meth:`GpioEjector.close`, and by a
watchdog timer at ``max_ms`` that does not depend on the eject loop running at all.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from uno_attack.launcher import EjectResult, EjectStatus
from wiring.devices import DispenserDevices

log = logging.getLogger(__name__)


@dataclass
class _Run:
    """One eject in progress, shared with the beam callback."""

    asked: int
    counted: int = 0
    reversing: bool = False          # a card leaving the beam backwards is no card out
    finished: bool = False
    last_card: float = 0.0
    changed: threading.Event = field(default_factory=threading.Event)


class GpioEjector:
    """The :class:`~uno_attack.launcher.Ejector` of a GPIO dispenser.

    ``time_scale`` divides every duration of the pin map (1 on real hardware; the
    emulated hardware runs its world that many times faster than real time).
    """

    def __init__(self, devices: DispenserDevices, *, time_scale: float = 1.0) -> None:
        self.devices = devices
        self.pin_map = devices.pin_map
        self.time_scale = time_scale
        self.stray_cards = 0   # cards the beam saw while no eject was running
        self._run: _Run | None = None
        self._closed = False
        self._stop_request = threading.Event()
        self._lock = threading.Lock()
        assert devices.beam is not None
        devices.beam.when_deactivated = self._beam_cleared
        if devices.hopper_empty is not None:
            devices.hopper_empty.when_activated = self._wake

    def seconds(self, ms: float) -> float:
        """Real seconds for ``ms`` of dispenser time."""
        return ms / 1000.0 / self.time_scale

    # -- the closed loop --------------------------------------------------------------
    def eject(self, count: int, *, available: int | None = None) -> EjectResult:
        """Run the motor until ``count`` cards have passed the beam, or a reason to stop."""
        with self._lock:
            if self._closed:
                return EjectResult(0, EjectStatus.STOPPED, "the launcher is closed")
            self._stop_request.clear()
            if self._hopper_says_empty():
                return EjectResult(0, EjectStatus.EMPTY, "the hopper sensor says empty")
            run = _Run(asked=count)
            # a second line of defence: even if this thread stalls (a hung read, a stuck
            # callback), the motor stops at max_ms
            watchdog = threading.Timer(self.seconds(self.pin_map.timing.max_ms),
                                       self._watchdog, args=(run,))
            watchdog.daemon = True
            try:
                self._run = run
                watchdog.start()
                status, detail = self._drive(run)
            finally:
                watchdog.cancel()
                self._motor_stop(run)
                self._run = None
            log.debug("eject %d: %d counted, %s %s", count, run.counted, status, detail)
            return EjectResult(run.counted, status, detail)

    def stop(self) -> None:
        """Stop an eject in progress (from another thread); it reports ``stopped``."""
        self._stop_request.set()
        run = self._run
        if run is not None:
            self._motor_stop(run)
            run.changed.set()

    def _drive(self, run: _Run) -> tuple[EjectStatus, str]:
        motor, timing = self.pin_map.motor, self.pin_map.timing
        started = time.monotonic()
        deadline = started + self.seconds(timing.max_ms)
        run.last_card = started
        self._motor_forward(run, motor.duty)
        reverses = motor.reverse_tries if motor.reverse_ms > 0 else 0
        while True:
            if run.counted >= run.asked:
                return EjectStatus.OK, ""
            if self._stop_request.is_set():
                return EjectStatus.STOPPED, "stopped on request"
            if self._hopper_says_empty():
                return EjectStatus.EMPTY, "the hopper sensor says empty"
            now = time.monotonic()
            if now >= deadline:
                return EjectStatus.TIMEOUT, f"max_ms ({timing.max_ms:g} ms) ran out"
            jam_at = run.last_card + self.seconds(timing.jam_ms)
            if now >= jam_at:
                if reverses == 0:
                    return EjectStatus.JAM, (f"no card through the beam for "
                                             f"{timing.jam_ms:g} ms: jammed or empty")
                reverses -= 1
                self._reverse_pulse(run, deadline)
                run.last_card = time.monotonic()
                continue
            run.changed.wait(min(deadline, jam_at) - now)
            run.changed.clear()

    def _watchdog(self, run: _Run) -> None:
        """``max_ms`` is up: the motor goes off, and stays off for the rest of this eject."""
        if self._run is run:
            run.finished = True
            self._motor_stop(run)
            log.warning("watchdog: motor stopped at max_ms")
            run.changed.set()

    def _reverse_pulse(self, run: _Run, deadline: float) -> None:
        motor = self.pin_map.motor
        log.info("no card for %g ms: reverse pulse of %g ms", self.pin_map.timing.jam_ms,
                 motor.reverse_ms)
        self._motor_stop(run)
        run.reversing = True
        assert self.devices.motor is not None
        if run.finished:
            return
        try:
            self.devices.motor.backward(motor.reverse_duty)
            pulse_end = min(time.monotonic() + self.seconds(motor.reverse_ms), deadline)
            self._stop_request.wait(max(pulse_end - time.monotonic(), 0.0))
            self._motor_stop(run)
        finally:
            run.reversing = False
        if not self._stop_request.is_set() and time.monotonic() < deadline:
            self._motor_forward(run, motor.duty)

    # -- the motor and the sensors ----------------------------------------------------
    def _motor_forward(self, run: _Run, duty: float) -> None:
        if run.finished:
            return
        assert self.devices.motor is not None
        self.devices.motor.forward(duty)
        log.debug("motor forward at duty %.2f", duty)

    def _motor_stop(self, run: _Run | None) -> None:
        if self.devices.motor is not None and not self.devices.motor.closed:
            self.devices.motor.stop()

    def _beam_cleared(self) -> None:
        """A card has passed the beam (called from the pin's thread)."""
        run = self._run
        if run is None or run.reversing:
            self.stray_cards += 1
            log.warning("a card passed the beam while no eject was running")
            return
        run.counted += 1
        run.last_card = time.monotonic()
        if run.counted >= run.asked:
            run.finished = True
            self._motor_stop(run)
        run.changed.set()

    def _wake(self) -> None:
        run = self._run
        if run is not None:
            run.changed.set()

    def _hopper_says_empty(self) -> bool:
        sensor = self.devices.hopper_empty
        return sensor is not None and bool(sensor.is_active)

    def close(self) -> None:
        """Stop the motor and release every device; safe to call twice, from any thread."""
        if self._closed:
            return
        self._closed = True
        self.stop()
        self.devices.close()
