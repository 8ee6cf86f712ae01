"""Pin maps: which BCM GPIO each part of the dispenser hangs off, and its timings.

A pin map is a TOML file with a ``[pins]`` table (role = BCM number), a ``[motor]`` table
and a ``[timing]`` table. Like Klipper's config, every value is checked as it is read and
unknown keys are rejected, so a typo never passes silently; every error names the file,
the key and the bad value, and all of it happens before any pin is touched.

Where the map comes from: ``--pins FILE``; else ``$UNO_ATTACK_PINS``; else
``pins.toml`` beside the user's config file (``~/.config/uno-attack/pins.toml``); else the
default map of LAUNCHER.md shipped with this package.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from sim_launcher import dispenser
from uno_attack.errors import UnoAttackError
from wiring.header import HARDWARE_PWM, PHYSICAL, RESERVED

PINS_ENV = "UNO_ATTACK_PINS"
DEFAULT_NAME = "default_pins.toml"

REQUIRED_ROLES = ("button", "motor_in1", "motor_in2", "motor_pwm", "beam")
OPTIONAL_ROLES = ("led", "buzzer", "hopper_empty")
ROLES = REQUIRED_ROLES + OPTIONAL_ROLES
PWM_ROLES = frozenset({"motor_pwm"})


class PinMapError(UnoAttackError):
    """A pin map that cannot be used; the message names the file, key and value."""


@dataclass(frozen=True)
class MotorSettings:
    """How the motor is driven while ejecting and when freeing a jam."""

    duty: float = dispenser.DUTY
    pwm_frequency: int = 1000
    reverse_duty: float = dispenser.REVERSE_DUTY
    reverse_ms: float = dispenser.REVERSE_MS
    reverse_tries: int = dispenser.REVERSE_TRIES


@dataclass(frozen=True)
class Timing:
    """When the closed loop gives up, and how the button is debounced.

    ``jam_ms = None`` (the default) works it out from the calibration (see
    :class:`sim_launcher.dispenser.Settings`).
    """

    jam_ms: float | None = None
    max_ms: float = dispenser.EJECT_MS
    debounce_ms: float = dispenser.DEBOUNCE_MS


@dataclass(frozen=True)
class PinMap:
    """A checked pin map: role -> BCM number, plus motor settings and timings."""

    pins: dict[str, int]
    motor: MotorSettings = field(default_factory=MotorSettings)
    timing: Timing = field(default_factory=Timing)
    source: str = "<defaults>"

    @property
    def settings(self) -> dispenser.Settings:
        """The dispenser timings this map gives the closed loop."""
        return dispenser.Settings(
            duty=self.motor.duty, max_ms=self.timing.max_ms, jam_ms=self.timing.jam_ms,
            reverse_duty=self.motor.reverse_duty, reverse_ms=self.motor.reverse_ms,
            reverse_tries=self.motor.reverse_tries, debounce_ms=self.timing.debounce_ms)

    def __getitem__(self, role: str) -> int:
        return self.pins[role]

    def get(self, role: str) -> int | None:
        return self.pins.get(role)

    @classmethod
    def default(cls) -> PinMap:
        return load_pin_map(None)

    @classmethod
    def from_toml(cls, text: str, *, source: str = "<text>") -> PinMap:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise PinMapError(f"{source}: not valid TOML: {exc}") from None
        return _parse(data, source)


def default_pin_map_path() -> Path:
    return Path(str(files("wiring").joinpath(DEFAULT_NAME)))


def user_pin_map_path() -> Path:
    """Where a user's own pin map lives when none is given: beside the config file."""
    from uno_attack.config import config_path

    return config_path().with_name("pins.toml")


def find_pin_map(path: str | os.PathLike[str] | None = None) -> Path:
    """The pin map to use: the one given, ``$UNO_ATTACK_PINS``, the user's, the default."""
    if path is not None:
        return Path(path)
    if os.environ.get(PINS_ENV):
        return Path(os.environ[PINS_ENV])
    user = user_pin_map_path()
    return user if user.exists() else default_pin_map_path()


def load_pin_map(path: str | os.PathLike[str] | None = None) -> PinMap:
    """Read and check a pin map file (see :func:`find_pin_map` for which one)."""
    where = find_pin_map(path)
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PinMapError(f"{where}: no such pin map file") from None
    except OSError as exc:
        raise PinMapError(f"{where}: cannot read the pin map: {exc.strerror}") from None
    return PinMap.from_toml(text, source=str(where))


# -- checks at the read ------------------------------------------------------------------
def _parse(data: dict[str, Any], source: str) -> PinMap:
    unknown = sorted(set(data) - {"pins", "motor", "timing"})
    if unknown:
        raise PinMapError(f"{source}: unknown table [{unknown[0]}] "
                          "(tables: [pins], [motor], [timing])")
    if "pins" not in data:
        raise PinMapError(f"{source}: no [pins] table")
    pins = _parse_pins(_table(data, "pins", source), source)
    motor = _Section(data, "motor", source)
    defaults = MotorSettings()
    motor_settings = MotorSettings(
        duty=motor.number("duty", defaults.duty, low=0.0, high=1.0, low_open=True),
        pwm_frequency=int(motor.number("pwm_frequency", defaults.pwm_frequency, low=1,
                                       high=100_000, integer=True)),
        reverse_duty=motor.number("reverse_duty", defaults.reverse_duty, low=0.0, high=1.0,
                                  low_open=True),
        reverse_ms=motor.number("reverse_ms", defaults.reverse_ms, low=0, high=10_000),
        reverse_tries=int(motor.number("reverse_tries", defaults.reverse_tries, low=0,
                                       high=10, integer=True)),
    )
    motor.reject_unknown()
    timing = _Section(data, "timing", source)
    times = Timing()
    timing_settings = Timing(
        jam_ms=timing.optional("jam_ms", low=10, high=60_000),
        max_ms=timing.number("max_ms", times.max_ms, low=10, high=dispenser.MAX_MS),
        debounce_ms=timing.number("debounce_ms", times.debounce_ms, low=0, high=1000),
    )
    timing.reject_unknown()
    if timing_settings.jam_ms is not None and timing_settings.jam_ms > timing_settings.max_ms:
        raise PinMapError(f"{source}: [timing] jam_ms = {timing_settings.jam_ms:g} is longer "
                          f"than max_ms = {timing_settings.max_ms:g}")
    return PinMap(pins, motor_settings, timing_settings, source)


def _table(data: dict[str, Any], name: str, source: str) -> dict[str, Any]:
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise PinMapError(f"{source}: {name} = {table!r}: expected a table [{name}]")
    return table


def _parse_pins(table: dict[str, Any], source: str) -> dict[str, int]:
    pins: dict[str, int] = {}
    used: dict[int, str] = {}
    for role, value in table.items():
        key = f"{source}: [pins] {role} = {value!r}"
        if role not in ROLES:
            raise PinMapError(f"{key}: unknown role (roles: {', '.join(ROLES)})")
        if isinstance(value, bool) or not isinstance(value, int):
            raise PinMapError(f"{key}: expected a BCM GPIO number (an integer such as 17)")
        if value in RESERVED:
            raise PinMapError(f"{key}: GPIO{value} is reserved for {RESERVED[value]}")
        if value not in PHYSICAL:
            raise PinMapError(f"{key}: GPIO{value} is not on the 40-pin header "
                              "(BCM 2…27)")
        if value in used:
            raise PinMapError(f"{key}: GPIO{value} is already used by {used[value]}")
        if role in PWM_ROLES and value not in HARDWARE_PWM:
            pwm = ", ".join(str(p) for p in sorted(HARDWARE_PWM))
            raise PinMapError(f"{key}: {role} needs a hardware PWM pin (BCM {pwm})")
        used[value] = role
        pins[role] = value
    missing = [role for role in REQUIRED_ROLES if role not in pins]
    if missing:
        raise PinMapError(f"{source}: [pins] has no {missing[0]} (required roles: "
                          f"{', '.join(REQUIRED_ROLES)})")
    return pins


class _Section:
    """One optional table, read key by key with its checks (Klipper's getfloat)."""

    def __init__(self, data: dict[str, Any], name: str, source: str) -> None:
        self.name = name
        self.source = source
        self.table = _table(data, name, source)
        self.read: set[str] = set()

    def number(self, key: str, default: float, *, low: float, high: float,
               low_open: bool = False, integer: bool = False) -> float:
        self.read.add(key)
        if key not in self.table:
            return default
        value = self.table[key]
        where = f"{self.source}: [{self.name}] {key} = {value!r}"
        kind = int if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kind):
            raise PinMapError(f"{where}: expected {'an integer' if integer else 'a number'}")
        if value < low or value > high or (low_open and value == low):
            lower = f"above {low:g}" if low_open else f"at least {low:g}"
            raise PinMapError(f"{where}: must be {lower} and at most {high:g}")
        return float(value)

    def optional(self, key: str, *, low: float, high: float) -> float | None:
        """A number that may be left out (``None``: worked out by whoever uses it)."""
        if key not in self.table:
            self.read.add(key)
            return None
        return self.number(key, 0.0, low=low, high=high)

    def reject_unknown(self) -> None:
        for key in self.table:
            if key not in self.read:
                known = ", ".join(sorted(self.read))
                raise PinMapError(f"{self.source}: [{self.name}] {key} = "
                                  f"{self.table[key]!r}: unknown key (keys: {known})")
