"""The dispenser's parts as gpiozero devices, built from a checked pin map.

Composed the gpiozero way: :class:`HBridgeMotor` is two digital outputs (direction) and
one PWM output (speed), as gpiozero's ``Motor`` is two PWM outputs; every device takes an
injectable ``pin_factory`` so the same code runs on a Pi (lgpio) and on ``MockFactory``.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, Self

from gpiozero import (
    LED,
    Button,
    Buzzer,
    CompositeDevice,
    DigitalInputDevice,
    DigitalOutputDevice,
    PWMOutputDevice,
)

from wiring.pinmap import PinMap


class HBridgeMotor(CompositeDevice):  # type: ignore[misc]  # gpiozero ships no types
    """A DC motor on an H-bridge (TB6612FNG, L298N): IN1/IN2 set the way, PWM the speed.

    ``value`` is -1…1 like gpiozero's ``Motor``. ``stop()`` drops the PWM first, then
    both direction inputs, so the motor coasts to a halt whatever state it was in.
    """

    def __init__(self, in1: int, in2: int, pwm: int, *, pwm_frequency: int = 1000,
                 pin_factory: Any = None) -> None:
        super().__init__(
            pwm=PWMOutputDevice(pwm, frequency=pwm_frequency, pin_factory=pin_factory),
            in1=DigitalOutputDevice(in1, pin_factory=pin_factory),
            in2=DigitalOutputDevice(in2, pin_factory=pin_factory),
            _order=("pwm", "in1", "in2"),
            pin_factory=pin_factory,
        )

    @property
    def value(self) -> float:
        way = int(self.in1.value) - int(self.in2.value)
        return float(way * self.pwm.value)

    @value.setter
    def value(self, value: float) -> None:
        if not -1 <= value <= 1:
            raise ValueError(f"motor value {value!r} is outside -1…1")
        if value > 0:
            self.forward(value)
        elif value < 0:
            self.backward(-value)
        else:
            self.stop()

    @property
    def is_active(self) -> bool:
        return self.value != 0

    def forward(self, speed: float = 1.0) -> None:
        """Turn forward at ``speed`` 0…1 (refused otherwise, as gpiozero's ``Motor`` does)."""
        self._check(speed, "forward")
        self.pwm.off()
        self.in2.off()
        self.in1.on()
        self.pwm.value = speed

    def backward(self, speed: float = 1.0) -> None:
        """Turn backward at ``speed`` 0…1."""
        self._check(speed, "backward")
        self.pwm.off()
        self.in1.off()
        self.in2.on()
        self.pwm.value = speed

    @staticmethod
    def _check(speed: float, way: str) -> None:
        if not 0 <= speed <= 1:  # also refuses nan
            raise ValueError(f"{way} speed must be between 0 and 1, not {speed!r}")

    def stop(self) -> None:
        self.pwm.off()
        self.in1.off()
        self.in2.off()

    def close(self) -> None:
        # Stop before releasing the pins: a closed pin may float, never run the motor.
        try:
            closed = self.closed
        except AttributeError:  # __init__ failed before the parts existed
            return
        if not closed:
            try:
                self.stop()
            finally:
                super().close()


class DispenserDevices:
    """Every gpiozero device of one dispenser; optional parts are ``None`` when unwired.

    Built all or nothing: if one device cannot be opened, the ones already open are
    closed again (motor stopped first) before the error goes on. Like the devices it
    holds, it has an idempotent :meth:`close`, :attr:`closed`, and ``with`` support.
    """

    def __init__(self, pin_map: PinMap, *, pin_factory: Any = None) -> None:
        self.pin_map = pin_map
        self._closed = False
        self.motor: HBridgeMotor | None = None
        self.button: Button | None = None
        self.beam: DigitalInputDevice | None = None
        self.led: LED | None = None
        self.buzzer: Buzzer | None = None
        self.hopper_empty: DigitalInputDevice | None = None
        pins = pin_map.pins
        try:
            self.motor = HBridgeMotor(pins["motor_in1"], pins["motor_in2"], pins["motor_pwm"],
                                      pwm_frequency=pin_map.motor.pwm_frequency,
                                      pin_factory=pin_factory)
            self.button = Button(pins["button"], pull_up=True, bounce_time=None,
                                 pin_factory=pin_factory)
            self.beam = DigitalInputDevice(pins["beam"], pull_up=True, pin_factory=pin_factory)
            if "led" in pins:
                self.led = LED(pins["led"], pin_factory=pin_factory)
            if "buzzer" in pins:
                self.buzzer = Buzzer(pins["buzzer"], pin_factory=pin_factory)
            if "hopper_empty" in pins:
                self.hopper_empty = DigitalInputDevice(pins["hopper_empty"], pull_up=True,
                                                       pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise
        self.pin_factory = self.motor.pin_factory

    def ticks_ms(self) -> float:
        """The pins' clock in ms: the pin factory's ticks (the emulated world's, emulated)."""
        exact = getattr(self.pin_factory, "ticks_ms", None)
        if exact is not None:
            return float(exact())
        return float(self.pin_factory.ticks()) * 1000.0

    def close(self) -> None:
        """Motor first (stopped before its pins are let go), then everything else."""
        if self._closed:
            return
        self._closed = True
        for device in (self.motor, self.button, self.beam, self.led, self.buzzer,
                       self.hopper_empty):
            if device is not None:
                device.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
