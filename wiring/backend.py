"""The ``gpio`` launcher backend: the dispenser on a Raspberry Pi's pins, or emulated.

Specs: ``gpio`` (real pins, gpiozero's default pin factory: lgpio on a Pi 5) and
``gpio:emulated`` with options after commas: ``fault=NAME`` (repeatable; see
:data:`wiring.emulated.FAULTS`), ``scale=X`` (how much faster than real time the emulated
world runs; 10 by default) and ``jams=P`` (the chance that a card jams; LAUNCHER.md's 0.005
by default). The pin map is ``settings.config`` when it is a path, else the one
:func:`wiring.pinmap.find_pin_map` finds.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sim_launcher.dispenser import Debouncer
from sim_launcher.numbers import parse_float
from sim_launcher.physical import DispenserParams
from sim_launcher.policies import BurstPolicy
from uno_attack.errors import LauncherError
from uno_attack.launcher import LauncherSettings, PolicyLauncher, PressResult
from wiring.devices import DispenserDevices, HBridgeMotor
from wiring.driver import CLOSE_WAIT_S, GpioEjector
from wiring.emulated import DEFAULT_TIME_SCALE, FAULTS, EmulatedHardware, open_emulated
from wiring.feedback import Feedback
from wiring.pinmap import PinMap, load_pin_map

T = TypeVar("T")


class GpioLauncher(PolicyLauncher):
    """A policy launcher whose ejector is the GPIO closed loop, with button and feedback.

    Pushes of the big button (debounced) become :meth:`button_pressed` events; LED and
    buzzer follow the tension. ``emulation`` is the emulated world, when there is one.
    """

    has_button = True

    def __init__(self, policy: BurstPolicy, devices: DispenserDevices, ejector: GpioEjector,
                 *, name: str, emulation: EmulatedHardware | None = None) -> None:
        super().__init__(policy, ejector, name=name,
                         world=emulation.world if emulation is not None else None)
        self.devices = devices
        self.gpio = ejector
        self.emulation = emulation
        self.feedback = Feedback(devices.led, devices.buzzer, time_scale=ejector.time_scale)
        self.debouncer = Debouncer(ejector.settings.debounce_ms)
        assert devices.button is not None
        devices.button.when_pressed = self._pressed
        devices.button.when_released = self._released

    def _pressed(self) -> None:
        if self.debouncer.edge(True, self.devices.ticks_ms()):
            self.button_pressed()

    def _released(self) -> None:
        self.debouncer.edge(False, self.devices.ticks_ms())

    def press(self, *, available: int | None = None) -> PressResult:
        result = super().press(available=available)
        if result.asked == 0:
            self.feedback.tension(result.tension)
        return result

    def _eject(self, count: int, available: int | None) -> PressResult:
        """Cards fly, with light and sound, whether a press or a retry asked for them."""
        self.feedback.firing()
        try:
            return super()._eject(count, available)
        finally:
            self.feedback.idle()

    def _close(self) -> None:
        """Stop an eject in progress and let its press end (its light and sound put out)
        before the devices close under it."""
        self.gpio.stop()
        finished = self._lock.acquire(timeout=CLOSE_WAIT_S)
        try:
            self.feedback.idle()
        finally:
            try:
                self.gpio.close()
            finally:
                if finished:
                    self._lock.release()


@dataclass
class GpioSpec:
    """The options of a ``gpio`` spec."""

    emulated: bool = False
    faults: list[str] = field(default_factory=list)
    time_scale: float = DEFAULT_TIME_SCALE
    jam_probability: float | None = None

    @classmethod
    def parse(cls, arg: str | None) -> GpioSpec:
        spec = cls()
        if not arg:
            return spec
        head, *options = [part.strip() for part in arg.split(",")]
        if head != "emulated":
            raise LauncherError(f"gpio:{arg}: expected 'gpio' or 'gpio:emulated[,OPTION=…]'")
        spec.emulated = True
        for option in options:
            key, _, value = option.partition("=")
            try:
                if key == "fault":
                    if value not in FAULTS:
                        raise ValueError(f"unknown fault (faults: {', '.join(FAULTS)})")
                    spec.faults.append(value)
                elif key == "scale":
                    spec.time_scale = _number("the time scale", value, high=1000,
                                              low_open=True)
                elif key == "jams":
                    spec.jam_probability = _number("the chance of a jam", value, high=1)
                else:
                    raise ValueError("unknown option (options: fault=, scale=, jams=)")
            except ValueError as exc:
                raise LauncherError(f"gpio:{arg}: {option!r}: {exc}") from None
        return spec


def _number(what: str, text: str, *, high: float, low_open: bool = False) -> float:
    try:
        return parse_float(text, low=0, high=high, low_open=low_open)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


def _pin_map(settings: LauncherSettings) -> PinMap:
    config = settings.config
    if isinstance(config, PinMap):
        return config
    path = config if isinstance(config, str | os.PathLike) else None
    return load_pin_map(path)


def open_gpio(spec: GpioSpec, pin_map: PinMap, policy: BurstPolicy, *,
              seed: int | None = None) -> GpioLauncher:
    """Open the real or emulated dispenser; the pin map is already checked."""
    if spec.emulated:
        # Only jam_probability (a float) is unpacked, which mypy cannot tell from the dict.
        params = DispenserParams(hopper_sensor="hopper_empty" in pin_map.pins,
                                 **({} if spec.jam_probability is None  # type: ignore[arg-type]
                                    else {"jam_probability": spec.jam_probability}))
        try:
            devices, ejector, hardware = open_emulated(
                pin_map, faults=spec.faults, time_scale=spec.time_scale, seed=seed,
                params=params)
        except ValueError as exc:
            raise LauncherError(f"gpio:emulated: {exc}") from None
        faults = f", faults: {', '.join(spec.faults)}" if spec.faults else ""
        return GpioLauncher(policy, devices, ejector, emulation=hardware,
                            name=f"emulated GPIO launcher{faults}")
    devices = open_real_devices(pin_map)
    return GpioLauncher(policy, devices, GpioEjector(devices), name="GPIO launcher")


def open_real_devices(pin_map: PinMap) -> DispenserDevices:
    """Every device of the pin map on the Pi's pins (gpiozero's default pin factory)."""
    return _on_real_pins(lambda: DispenserDevices(pin_map))


def open_real_motor(pin_map: PinMap, *, pin_factory: Any = None) -> HBridgeMotor:
    """Only the motor's three pins (for ``wiring safe``)."""
    pins = pin_map.pins
    return _on_real_pins(lambda: HBridgeMotor(
        pins["motor_in1"], pins["motor_in2"], pins["motor_pwm"],
        pwm_frequency=pin_map.motor.pwm_frequency, pin_factory=pin_factory))


def _on_real_pins(open_: Callable[[], T]) -> T:
    from gpiozero.exc import GPIOZeroError, PinFactoryFallback

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)
            return open_()
    except (GPIOZeroError, ImportError, OSError, RuntimeError) as exc:
        if not any(_importable(name) for name in PIN_LIBRARIES):
            raise LauncherError(f"gpio: no pin library: gpiozero found none of lgpio, "
                                f"RPi.GPIO or pigpio; on any Raspberry Pi run: "
                                f"{pin_library_command()}") from None
        raise LauncherError(
            f"gpio: cannot open the Raspberry Pi's pins ({type(exc).__name__}: {exc}); on a "
            "Pi, is this user in the gpio group? elsewhere use gpio:emulated") from None


#: The libraries gpiozero drives a Pi's pins with; lgpio works on every model, the Pi 5 too.
PIN_LIBRARIES = ("lgpio", "RPi.GPIO", "pigpio")


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    except Exception:  # present, but it fails here (lgpio wants a writable $LG_WD)
        return True
    return True


def pin_library_command() -> str:
    """The one command that gives this Python lgpio, on every Pi model: Raspberry Pi OS's
    own package where this Python sees the system's packages, else pip into this venv
    (PyPI has lgpio for 64-bit and 32-bit ARM; Raspberry Pi OS's piwheels for the rest)."""
    if sys.prefix == sys.base_prefix or _sees_system_packages():
        return "sudo apt install python3-lgpio"
    return f"{Path(sys.prefix) / 'bin' / 'pip'} install lgpio"


def _sees_system_packages() -> bool:
    """Whether this venv was made with ``--system-site-packages``."""
    try:
        config = (Path(sys.prefix) / "pyvenv.cfg").read_text(encoding="utf-8")
    except OSError:
        return False
    return any(line.replace(" ", "").lower() == "include-system-site-packages=true"
               for line in config.splitlines())


def from_spec(arg: str | None, settings: LauncherSettings) -> GpioLauncher:
    """Entry point of the ``gpio`` backend (see the module docstring for the specs)."""
    spec = GpioSpec.parse(arg)
    pin_map = _pin_map(settings)
    return open_gpio(spec, pin_map, settings.make_policy(), seed=settings.seed)

