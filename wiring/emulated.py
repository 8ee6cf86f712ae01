"""Emulated hardware: the real GPIO driver on gpiozero's MockFactory, in the emulated world.

The pins are the GPIO driver's view of :class:`sim_launcher.world.DispenserWorld`: every
change of IN1, IN2 or PWM sets the world's motor at that moment of model time, the LED
and buzzer pins drive the world's LED and buzzer (which may be broken), and after every
step of the world the beam, hopper-switch and button pins follow it. The world runs
``time_scale`` times faster than real time, and the pin factory's clock is the world's,
so a test sees in milliseconds what takes seconds on the bench.

Faults (``gpio:emulated,fault=NAME``) are the world's: :data:`sim_launcher.world.FAULTS`.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from sim_launcher.physical import DispenserParams
from sim_launcher.world import FAULTS, DispenserWorld, WorldRunner
from uno_attack.launcher import EjectResult
from wiring.devices import DispenserDevices
from wiring.driver import GpioEjector, LoopClock
from wiring.pinmap import PinMap

DEFAULT_TIME_SCALE = 10.0
# A timer "after ms" fires this much later (a nanosecond): past any rounding in the loop's
# own sums of float ms, so at max_ms the loop's own stop comes first, the watchdog second.
AFTER_MS = 1e-6
MOTOR_ROLES = ("motor_in1", "motor_in2", "motor_pwm")

__all__ = ["DEFAULT_TIME_SCALE", "FAULTS", "EmulatedEjector", "EmulatedHardware",
           "open_emulated"]


class EmulatedPin(MockPWMPin):  # type: ignore[misc]  # gpiozero ships no types
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


class EmulatedFactory(MockFactory):  # type: ignore[misc]  # gpiozero ships no types
    """Mock pins whose clock is the emulated world's (seconds of model time)."""

    def __init__(self, world: DispenserWorld) -> None:
        super().__init__(pin_class=EmulatedPin)
        self.world = world

    def ticks(self) -> float:
        return self.world.now_ms() / 1000.0

    def ticks_ms(self) -> float:
        """The world's time in ms, exactly (``ticks() * 1000`` may round)."""
        return self.world.now_ms()

    def ticks_diff(self, later: float, earlier: float) -> float:
        return later - earlier


class EmulatedHardware:
    """The emulated world behind the pins of one pin map, and the thread that runs it."""

    def __init__(self, pin_map: PinMap, *, faults: Iterable[str] = (),
                 time_scale: float = DEFAULT_TIME_SCALE, seed: int | None = None,
                 params: DispenserParams | None = None) -> None:
        if params is None:
            params = DispenserParams(hopper_sensor="hopper_empty" in pin_map.pins)
        self.pin_map = pin_map
        self.world = DispenserWorld(params, faults=faults, seed=seed, time_scale=time_scale)
        self.factory = EmulatedFactory(self.world)
        self.runner = WorldRunner(self.world, on_step=self.drive_inputs)
        self.pins: dict[str, EmulatedPin] = {
            role: self.factory.pin(bcm) for role, bcm in pin_map.pins.items()}

    def attach(self) -> None:
        """Start the world once the driver's devices own the pins."""
        for role in MOTOR_ROLES:
            self.pins[role].listener = self._motor_changed
        if "led" in self.pins:
            self.pins["led"].listener = lambda: self.world.drive_led(self._high("led"))
        if "buzzer" in self.pins:
            self.pins["buzzer"].listener = lambda: self.world.drive_buzzer(self._high("buzzer"))
        self.drive_inputs()
        self.runner.start()

    def close(self) -> None:
        self.runner.stop()
        for pin in self.pins.values():
            pin.listener = None

    def _high(self, role: str) -> bool:
        return bool(self.pins[role].state)

    # -- the world watching the motor pins, and driving the inputs --------------------
    def _motor_changed(self) -> None:
        way = int(self._high("motor_in1")) - int(self._high("motor_in2"))
        self.world.set_motor(way * float(self.pins["motor_pwm"].state))

    def drive_inputs(self) -> None:
        self._drive("beam", low=self.world.model.beam_blocked)
        self._drive("button", low=self.world.button_down)
        if "hopper_empty" in self.pins:
            self._drive("hopper_empty", low=bool(self.world.model.hopper_empty))

    def _drive(self, role: str, *, low: bool) -> None:
        pin = self.pins[role]
        if pin.function != "input" or bool(pin.state) != low:
            return
        if low:
            pin.drive_low()
        else:
            pin.drive_high()


class WorldClock(LoopClock):
    """The eject loop on the emulated world's time: during an eject the world is stepped
    by the loop's own thread, only while it waits (:meth:`DispenserWorld.driven`), and
    its watchdog is an action of the world at that very model time."""

    def __init__(self, hardware: EmulatedHardware) -> None:
        self.hardware = hardware

    @contextlib.contextmanager
    def closed_loop(self) -> Iterator[None]:
        with self.hardware.world.driven():
            yield

    def wait(self, woken: threading.Event, ms: float | None) -> None:
        self.hardware.world.run_for(ms, until=woken, on_step=self.hardware.drive_inputs)

    def call_later(self, ms: float, action: Callable[[], None]) -> Callable[[], None]:
        world = self.hardware.world
        posted = world.post(action, delay_ms=ms + AFTER_MS)
        return lambda: world.cancel(posted)


class EmulatedEjector(GpioEjector):
    """The real closed loop, with the emulated hopper loaded before each eject and topped
    up after it, as a person at the table would."""

    def __init__(self, devices: DispenserDevices, hardware: EmulatedHardware) -> None:
        super().__init__(devices, time_scale=hardware.world.time_scale,
                         clock=WorldClock(hardware))
        self.hardware = hardware

    def eject(self, count: int, *, available: int | None = None,
              duty: float | None = None) -> EjectResult:
        self.hardware.world.load(available)
        try:
            return super().eject(count, available=available, duty=duty)
        finally:
            self.hardware.world.eject_ended()

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
