"""Emulated hardware: the real GPIO driver on gpiozero's MockFactory, in a simulated world.

The physical model of ``sim_launcher.physical`` watches the motor pins (every change of
IN1, IN2 or PWM sets its motor at that moment of model time) and drives the beam and
hopper-sensor pins; an emulated person pushes the button and puts a finger in the beam.
The world runs ``time_scale`` times faster than real time, and the driver's timings are
scaled to match, so a test sees in milliseconds what takes seconds on the bench.

Faults (``gpio:emulated,fault=NAME``): ``jam`` (a card stuck for good), ``empty`` (no
cards, never reloaded), ``beam-stuck`` (the receiver reads blocked all the time, as when
misaligned), ``button-dead`` (pushes never reach the pin), ``motor-dead`` (the roller never
turns), ``bouncy-button`` (each push and release chatters).

The hopper: when the game says how many cards are inside (``available``), the emulated
hopper holds exactly that many (the players load the reshuffled pile back in); otherwise
it is reloaded to full whenever it runs dry, so a long standalone session never starves
(except with the ``empty`` fault).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from sim_launcher.physical import DispenserModel, DispenserParams, ModelRunner
from uno_attack.launcher import EjectResult
from wiring.devices import DispenserDevices
from wiring.driver import GpioEjector
from wiring.pinmap import PinMap

log = logging.getLogger(__name__)

FAULTS = ("jam", "empty", "beam-stuck", "button-dead", "motor-dead", "bouncy-button")
DEFAULT_TIME_SCALE = 10.0
BOUNCES = 4         # extra edge pairs of a bouncy push or release
RELEASE_MS = 120.0  # the least rest between two pushes of the emulated finger


class EmulatedPin(MockPWMPin):
    """A mock pin that tells the emulated world when the driver changes its output.

    ``events`` keeps (monotonic time, state) of the latest changes, for benchmarks; the
    mock pin's own ``states`` (time since the previous change, state) are kept as well.
    """

    def __init__(self, factory: Any, info: Any) -> None:
        self.listener: Any = None
        self.events: deque[tuple[float, float]] = deque(maxlen=4096)
        super().__init__(factory, info)

    def _change_state(self, value: Any) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            self.events.append((self._last_change, float(value)))
            if self.listener is not None and self._function == "output":
                self.listener()
        return changed


class EmulatedHardware:
    """The world around the emulated pins: dispenser model, runner, person, faults."""

    def __init__(self, pin_map: PinMap, *, faults: Iterable[str] = (),
                 time_scale: float = DEFAULT_TIME_SCALE, seed: int | None = None,
                 params: DispenserParams | None = None) -> None:
        self.faults = frozenset(faults)
        unknown = sorted(self.faults - set(FAULTS))
        if unknown:
            raise ValueError(f"unknown fault {unknown[0]!r} (faults: {', '.join(FAULTS)})")
        self.pin_map = pin_map
        self.factory = MockFactory(pin_class=EmulatedPin)
        if params is None:
            params = DispenserParams(hopper_sensor="hopper_empty" in pin_map.pins)
        self.model = DispenserModel(params, seed=seed)
        self.runner = ModelRunner(self.model, time_scale=time_scale,
                                  on_change=self._drive_inputs)
        self.pins: dict[str, EmulatedPin] = {
            role: self.factory.pin(bcm) for role, bcm in pin_map.pins.items()}
        self.refill = "empty" not in self.faults
        self._button_free_at = 0.0
        if "jam" in self.faults:
            self.model.force_jam(stuck=True)
        if "empty" in self.faults:
            self.model.hopper = 0
        if "beam-stuck" in self.faults:
            self.model.beam_stuck = True
        if "motor-dead" in self.faults:
            self.model.motor_dead = True

    @property
    def time_scale(self) -> float:
        return self.runner.time_scale

    def attach(self) -> None:
        """Start the world once the driver's devices own the pins."""
        for role in ("motor_in1", "motor_in2", "motor_pwm"):
            self.pins[role].listener = self._motor_changed
        with self.runner.lock:
            self._drive_inputs()
        self.runner.start()

    def close(self) -> None:
        self.runner.stop()
        for pin in self.pins.values():
            pin.listener = None

    # -- the model watching the motor pins, and driving the inputs --------------------
    def _motor_changed(self) -> None:
        way = int(bool(self.pins["motor_in1"].state)) - int(bool(self.pins["motor_in2"].state))
        self.runner.set_motor(way * float(self.pins["motor_pwm"].state))

    def _drive_inputs(self) -> None:
        self._drive("beam", low=self.model.beam_blocked)
        if "hopper_empty" in self.pins:
            self._drive("hopper_empty", low=bool(self.model.hopper_empty))

    def _drive(self, role: str, *, low: bool) -> None:
        pin = self.pins[role]
        if pin.function != "input" or bool(pin.state) != low:
            return
        if low:
            pin.drive_low()
        else:
            pin.drive_high()

    # -- the emulated person ------------------------------------------------------------
    def push_button(self, *, hold_ms: float = 80.0, delay_ms: float = 0.0) -> None:
        """Push the big button for ``hold_ms`` of model time (``delay_ms`` from now)."""
        if "button-dead" in self.faults:
            return
        pin = self.pins["button"]
        chatter = BOUNCES if "bouncy-button" in self.faults else 0

        def down() -> None:
            if pin.function == "input":
                pin.drive_low()
                for _ in range(chatter):
                    pin.drive_high()
                    pin.drive_low()

        def up() -> None:
            if pin.function == "input":
                pin.drive_high()
                for _ in range(chatter):
                    pin.drive_low()
                    pin.drive_high()

        with self.runner.lock:  # pushes queue up: a finger cannot push twice at once
            now = max(self.runner.model_time_now(), self.model.now_ms)
            delay_ms = max(delay_ms, self._button_free_at - now)
            self._button_free_at = now + delay_ms + hold_ms + RELEASE_MS
            self.runner.schedule(delay_ms, down)
            self.runner.schedule(delay_ms + hold_ms, up)

    def block_beam(self, blocked: bool) -> None:
        """Put a finger in the beam (or take it out)."""
        with self.runner.lock:
            self.runner.sync()
            self.model.finger_in_beam = blocked
            self._drive_inputs()

    def load(self, available: int | None) -> None:
        """Before an eject: the hopper holds what the game says, or is reloaded when dry."""
        with self.runner.lock:
            self.runner.sync()
            if not self.refill:
                return
            if available is not None:
                self.model.refill(available)
            elif self.model.hopper == 0:
                log.info("emulated hopper ran dry: reloaded with %d cards",
                         self.model.params.hopper)
                self.model.refill()
            self._drive_inputs()

    def saw(self, role: str, *, since: float, state: float | None = None) -> bool:
        """Did the driver set ``role``'s output (to ``state``, if given) after ``since``?"""
        return any(t >= since and (state is None or value == state)
                   for t, value in list(self.pins[role].events))

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every scheduled action of the person has happened."""
        return self.runner.wait_idle(timeout)


class EmulatedEjector(GpioEjector):
    """The real closed loop, with the emulated hopper loaded before each eject."""

    def __init__(self, devices: DispenserDevices, hardware: EmulatedHardware) -> None:
        super().__init__(devices, time_scale=hardware.time_scale)
        self.hardware = hardware

    def eject(self, count: int, *, available: int | None = None) -> EjectResult:
        self.hardware.load(available)
        return super().eject(count, available=available)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.hardware.close()


def open_emulated(pin_map: PinMap, *, faults: Iterable[str] = (),
                  time_scale: float = DEFAULT_TIME_SCALE, seed: int | None = None,
                  params: DispenserParams | None = None,
                  ) -> tuple[DispenserDevices, EmulatedEjector, EmulatedHardware]:
    """Build the world, the devices on its pins and the closed loop, and start the world."""
    hardware = EmulatedHardware(pin_map, faults=faults, time_scale=time_scale, seed=seed,
                                params=params)
    devices = DispenserDevices(pin_map, pin_factory=hardware.factory)
    ejector = EmulatedEjector(devices, hardware)
    hardware.attach()
    return devices, ejector, hardware
