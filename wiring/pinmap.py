"""Pin maps: which BCM GPIO each part of the dispenser hangs off, and its timings.

A pin map is a TOML file with a ``[pins]`` table (role = BCM number) and optional
``[motor]``, ``[timing]`` and ``[calibration]`` tables (the last one written by ``uno-attack
wiring calibrate``). Like Klipper's config, every value is checked as it is read and
unknown keys are rejected, so a typo never passes silently; every error names the file,
the key and the bad value, and all of it happens before any pin is touched.

Where the map comes from: ``--pins FILE``; else ``$UNO_ATTACK_PINS``; else
``pins.toml`` beside the user's config file (``~/.config/uno-attack/pins.toml``); else the
default map of LAUNCHER.md shipped with this package.
"""

from __future__ import annotations

import math
import os
import re
import reprlib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from sim_launcher import dispenser
from uno_attack.config import ConfigError, config_path, parse_toml, read_toml
from uno_attack.errors import UnoAttackError
from wiring.header import HARDWARE_PWM, PHYSICAL, RESERVED

PINS_ENV = "UNO_ATTACK_PINS"
DEFAULT_NAME = "default_pins.toml"

REQUIRED_ROLES = ("button", "motor_in1", "motor_in2", "motor_pwm", "beam")
OPTIONAL_ROLES = ("led", "buzzer", "hopper_empty")
ROLES = REQUIRED_ROLES + OPTIONAL_ROLES
PWM_ROLES = frozenset({"motor_pwm"})
TABLES = ("pins", "motor", "timing", "calibration")


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
class Calibration:
    """What ``wiring calibrate`` measured of this machine (LAUNCHER.md's figures if not)."""

    spin_up_ms: float = dispenser.SPIN_UP_MS
    beam_ms: float = dispenser.BEAM_MS                    # one card, at full duty
    duties: tuple[float, ...] = (1.0,)
    cards_per_second: tuple[float, ...] = (dispenser.CARDS_PER_SECOND,)
    measured: bool = False   # from a [calibration] table, not LAUNCHER.md's figures

    def to_toml(self) -> str:
        """The ``[calibration]`` table, as ``wiring calibrate`` writes it."""
        duties = ", ".join(f"{d:g}" for d in self.duties)
        rates = ", ".join(f"{r:.3f}" for r in self.cards_per_second)
        return ("[calibration]   # measured by `uno-attack wiring calibrate`\n"
                f"spin_up_ms = {self.spin_up_ms:.1f}   # from standstill to speed\n"
                f"beam_ms = {self.beam_ms:.1f}      # one card blocks the beam, at full duty\n"
                f"duties = [{duties}]\n"
                f"cards_per_second = [{rates}]   # at each of those duties\n")


@dataclass(frozen=True)
class PinMap:
    """A checked pin map: role -> BCM number, plus motor settings, timings, calibration."""

    pins: dict[str, int]
    motor: MotorSettings = field(default_factory=MotorSettings)
    timing: Timing = field(default_factory=Timing)
    calibration: Calibration = field(default_factory=Calibration)
    source: str = "<defaults>"

    @property
    def settings(self) -> dispenser.Settings:
        """The dispenser timings this map gives the closed loop."""
        motor, timing, calibration = self.motor, self.timing, self.calibration
        return dispenser.Settings(
            duty=motor.duty, max_ms=timing.max_ms, jam_ms=timing.jam_ms,
            reverse_duty=motor.reverse_duty, reverse_ms=motor.reverse_ms,
            reverse_tries=motor.reverse_tries, debounce_ms=timing.debounce_ms,
            spin_up_ms=calibration.spin_up_ms, beam_ms=calibration.beam_ms,
            duties=calibration.duties, rates=calibration.cards_per_second)

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
            data = parse_toml(text, source=source)
        except ConfigError as exc:
            raise PinMapError(str(exc)) from None
        return _parse(data, source)


def default_pin_map_path() -> Path:
    return Path(str(files("wiring").joinpath(DEFAULT_NAME)))


def user_pin_map_path() -> Path:
    """Where a user's own pin map lives when none is given: beside the config file."""
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
        data = read_toml(where, what="pin map file")
    except ConfigError as exc:
        raise PinMapError(str(exc)) from None
    return _parse(data, str(where))


def write_calibration(path: Path, calibration: Calibration) -> PinMap:
    """Put ``calibration`` into the pin map at ``path`` (its ``[calibration]`` replaced,
    the rest kept as it was), or into a copy of the default map when there is none yet.

    The new text is checked like any pin map before it replaces the old one, atomically.
    """
    base = path if path.exists() else default_pin_map_path()
    try:
        read_toml(base, what="pin map file")
        text = base.read_text(encoding="utf-8")
    except (ConfigError, OSError) as exc:
        raise PinMapError(str(exc)) from None
    kept = _without_table(text, "calibration").rstrip("\n")
    new = f"{kept}\n\n{calibration.to_toml()}"
    pin_map = PinMap.from_toml(new, source=str(path))
    tmp = path.with_name(path.name + ".new")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(new, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        raise PinMapError(f"{path}: cannot write the pin map: {exc.strerror}") from None
    return pin_map


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?$")


def _without_table(text: str, name: str) -> str:
    """``text`` without the table ``[name]`` (its header line up to the next header)."""
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        header = _HEADER.match(line)
        if header:
            skipping = header.group(1) == name
        if not skipping:
            out.append(line)
    return "".join(out)


# -- checks at the read ------------------------------------------------------------------
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])?$")


def _key(name: str) -> str:
    """A key as a message shows it: plain when it is a plain word (or ``word[n]``)."""
    return name if _PLAIN_KEY.match(name) else reprlib.repr(name)


def _parse(data: dict[str, Any], source: str) -> PinMap:
    unknown = sorted(set(data) - set(TABLES))
    if unknown:
        raise PinMapError(f"{source}: unknown table [{_key(unknown[0])}] "
                          f"(tables: {', '.join(f'[{t}]' for t in TABLES)})")
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
    return PinMap(pins, motor_settings, timing_settings, _parse_calibration(data, source),
                  source)


def _parse_calibration(data: dict[str, Any], source: str) -> Calibration:
    section = _Section(data, "calibration", source)
    defaults = Calibration()
    spin_up = section.number("spin_up_ms", defaults.spin_up_ms, low=0, high=5000)
    beam = section.number("beam_ms", defaults.beam_ms, low=0, high=5000, low_open=True)
    duties = section.numbers("duties", defaults.duties, low=0, high=1, low_open=True)
    rates = section.numbers("cards_per_second", defaults.cards_per_second, low=0,
                            high=1000, low_open=True)
    section.reject_unknown()
    if "calibration" not in data:
        return defaults
    if len(duties) != len(rates):
        raise PinMapError(f"{source}: [calibration] duties has {len(duties)} values and "
                          f"cards_per_second {len(rates)}: one rate for each duty")
    if list(duties) != sorted(set(duties)):
        raise PinMapError(f"{source}: [calibration] duties = {list(duties)}: each duty once, "
                          "from the lowest up")
    return Calibration(spin_up, beam, duties, rates, measured=True)


def _table(data: dict[str, Any], name: str, source: str) -> dict[str, Any]:
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise PinMapError(f"{source}: {name} = {reprlib.repr(table)}: expected a table "
                          f"[{name}]")
    return table


def _parse_pins(table: dict[str, Any], source: str) -> dict[str, int]:
    pins: dict[str, int] = {}
    used: dict[int, str] = {}
    for role, value in table.items():
        key = f"{source}: [pins] {_key(role)} = {reprlib.repr(value)}"
        if role not in ROLES:
            raise PinMapError(f"{key}: unknown role (roles: {', '.join(ROLES)})")
        if isinstance(value, bool) or not isinstance(value, int):
            raise PinMapError(f"{key}: expected a BCM GPIO number (an integer such as 17)")
        if value in RESERVED:
            raise PinMapError(f"{key}: GPIO{value} is reserved for {RESERVED[value]}")
        if value not in PHYSICAL:
            raise PinMapError(f"{key}: not on the 40-pin header (BCM 2…27)"
                              if abs(value) > 999 else
                              f"{key}: GPIO{value} is not on the 40-pin header (BCM 2…27)")
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

    def _where(self, key: str, value: object) -> str:
        return f"{self.source}: [{self.name}] {_key(key)} = {reprlib.repr(value)}"

    def _check(self, key: str, value: object, *, low: float, high: float,
               low_open: bool = False, integer: bool = False) -> float:
        where = self._where(key, value)
        kind = int if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kind):
            raise PinMapError(f"{where}: expected {'an integer' if integer else 'a number'}")
        if (isinstance(value, float) and not math.isfinite(value)) or value < low or value > high \
                or (low_open and value == low):
            lower = f"above {low:g}" if low_open else f"at least {low:g}"
            raise PinMapError(f"{where}: must be {lower} and at most {high:g}")
        return float(value)

    def number(self, key: str, default: float, *, low: float, high: float,
               low_open: bool = False, integer: bool = False) -> float:
        self.read.add(key)
        if key not in self.table:
            return default
        return self._check(key, self.table[key], low=low, high=high, low_open=low_open,
                           integer=integer)

    def optional(self, key: str, *, low: float, high: float) -> float | None:
        """A number that may be left out (``None``: worked out by whoever uses it)."""
        self.read.add(key)
        if key not in self.table:
            return None
        return self._check(key, self.table[key], low=low, high=high)

    def numbers(self, key: str, default: tuple[float, ...], *, low: float, high: float,
                low_open: bool = False) -> tuple[float, ...]:
        """A list of 1 to 16 numbers, each checked."""
        self.read.add(key)
        if key not in self.table:
            return default
        values = self.table[key]
        if not isinstance(values, list) or not 1 <= len(values) <= 16:
            raise PinMapError(f"{self._where(key, values)}: expected a list of 1 to 16 "
                              "numbers")
        return tuple(self._check(f"{key}[{i}]", value, low=low, high=high,
                                 low_open=low_open) for i, value in enumerate(values))

    def reject_unknown(self) -> None:
        for key in self.table:
            if key not in self.read:
                known = ", ".join(sorted(self.read))
                raise PinMapError(f"{self._where(key, self.table[key])}: unknown key "
                                  f"(keys: {known})")
