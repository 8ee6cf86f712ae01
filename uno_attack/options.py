"""Rule options (house rules) of RULES.md section 9.

Each option is declared once in :data:`OPTION_SPECS` with its default and its parser, so a
new house rule is one line here plus its effect in the engine. Unknown options and bad
values are rejected with the option's name and the value, never ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from uno_attack.errors import OptionError

MATCH_MODES = ("points", "lowest", "elimination", "single")


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "on", "off"):
        return value.lower() in ("true", "yes", "on")
    raise ValueError("expected true or false")


def _int(minimum: int) -> Callable[[object], int]:
    def parse(value: object) -> int:
        if isinstance(value, bool):
            raise ValueError("expected a whole number")
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        if not isinstance(value, int):
            raise ValueError("expected a whole number")
        if value < minimum:
            raise ValueError(f"must be at least {minimum}")
        return value

    return parse


def _choice(*choices: str) -> Callable[[object], str]:
    def parse(value: object) -> str:
        if value not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}")
        return str(value)

    return parse


def _dealer(value: object) -> str | int:
    if value in ("draw", "random"):
        return str(value)
    try:
        return _int(0)(value)
    except ValueError:
        raise ValueError("expected draw, random or a seat number") from None


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    parse: Callable[[object], Any]
    help: str


OPTION_SPECS: dict[str, OptionSpec] = {
    spec.name: spec
    for spec in (
        OptionSpec("hand_size", 7, _int(1), "cards dealt to each player"),
        OptionSpec("target", 500, _int(1), "points that end a match"),
        OptionSpec("match", "points", _choice(*MATCH_MODES),
                   "match mode: " + ", ".join(MATCH_MODES)),
        OptionSpec("play_after_press", False, _bool,
                   "a player with no playable card may play a playable card just fired, or pass"),
        OptionSpec("trade_hands_last", False, _bool, "Trade Hands may be played as the last card"),
        OptionSpec("first_dealer", "draw", _dealer, "draw, random, or a seat number"),
        OptionSpec("next_dealer", "winner", _choice("winner", "left"),
                   "winner, or left (the deal passes to the left)"),
    )
}


@dataclass(frozen=True, slots=True)
class Options:
    """The options a game is played with; the defaults are the official rules."""

    hand_size: int = 7
    target: int = 500
    match: str = "points"
    play_after_press: bool = False
    trade_hands_last: bool = False
    first_dealer: str | int = "draw"
    next_dealer: str = "winner"

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, where: str = "options") -> Options:
        """Options from a mapping such as a transcript's ``options``; absent keys default."""
        if not isinstance(data, Mapping):
            raise OptionError(f"{where}: must be an object of options, not {data!r}")
        values: dict[str, Any] = {}
        for key, raw in data.items():
            spec = OPTION_SPECS.get(key)
            if spec is None:
                known = ", ".join(OPTION_SPECS)
                raise OptionError(f"{where}: unknown option {key!r} (known: {known})")
            try:
                values[key] = spec.parse(raw)
            except ValueError as exc:
                raise OptionError(f"{where}: option {key!r} = {raw!r}: {exc}") from None
        return cls(**values)

    @classmethod
    def from_assignments(
        cls, assignments: Iterable[str], *, base: Options | None = None
    ) -> Options:
        """Options from ``key=value`` words, as given with ``--option`` on the command line."""
        data: dict[str, object] = {}
        for text in assignments:
            key, sep, value = text.partition("=")
            if not sep or not key:
                raise OptionError(f"invalid option {text!r}: expected key=value, as in target=300")
            data[key.strip()] = value.strip()
        parsed = cls.from_mapping(data, where="--option")
        return replace(base or cls(), **{k: getattr(parsed, k) for k in data})

    def to_dict(self, *, all_keys: bool = False) -> dict[str, object]:
        """The options as a transcript records them (only those that differ from the default)."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if all_keys or value != OPTION_SPECS[f.name].default:
                out[f.name] = value
        return out
