"""Rule options (house rules) of RULES.md section 9 and VARIANTS.md.

Each option is declared once, as a field of :class:`Options` made with :func:`option`:
its default, its parser (which knows the values it takes), its one-line meaning and, where
VARIANTS.md E1 says so, the other option it needs. :data:`OPTION_SPECS` is read from those
fields, so a new house rule is one field here plus its effect in the engine. Unknown options
and bad values are refused with the option's name and the value, never ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from uno_attack.errors import OptionError

MATCH_MODES = ("points", "lowest", "elimination", "single")


class Parser:
    """Reads one option's value from a transcript, a save or the command line."""

    #: Values that show the option's range, for help texts and property tests.
    samples: tuple[Any, ...] = ()

    def __call__(self, value: object) -> Any:
        raise NotImplementedError


class Flag(Parser):
    samples = (False, True)

    def __call__(self, value: object) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "on",
                                                        "off"):
            return value.lower() in ("true", "yes", "on")
        raise ValueError("expected true or false")


class Whole(Parser):
    """A whole number of at least ``minimum``; ``samples`` for property tests."""

    def __init__(self, minimum: int, samples: tuple[int, ...]) -> None:
        self.minimum = minimum
        self.samples = samples

    def __call__(self, value: object) -> int:
        if isinstance(value, bool):
            raise ValueError("expected a whole number")
        if isinstance(value, str):
            text = value.strip()
            digits = text[1:] if text[:1] == "-" else text
            if digits.isascii() and digits.isdigit() and len(digits) <= 9:
                value = int(text)
        if not isinstance(value, int):
            raise ValueError("expected a whole number")
        if value < self.minimum:
            raise ValueError(f"must be at least {self.minimum}")
        return value


class Choice(Parser):
    def __init__(self, *choices: str) -> None:
        self.samples = choices

    def __call__(self, value: object) -> str:
        if value not in self.samples:
            raise ValueError(f"expected one of {', '.join(self.samples)}")
        return str(value)


class Dealer(Parser):
    samples = ("draw", "random", 0, 1)

    def __call__(self, value: object) -> str | int:
        if value in ("draw", "random"):
            return str(value)
        try:
            return Whole(0, ())(value)
        except ValueError:
            raise ValueError("expected draw, random or a seat number") from None


@dataclass(frozen=True)
class OptionSpec:
    """One option as declared: name, default, parser and one-line meaning."""

    name: str
    default: Any
    parse: Parser
    help: str


def option(default: Any, parse: Parser, help: str) -> Any:
    """Declare an option (a field of :class:`Options`)."""
    return field(default=default, metadata={"parse": parse, "help": help})


@dataclass(frozen=True, slots=True)
class Options:
    """The options a game is played with; the defaults are the official rules."""

    rules: str = option("attack", Choice("attack"), "the rule set: attack (RULES.md)")
    hand_size: int = option(7, Whole(1, (1, 3, 7, 9)), "cards dealt to each player")
    target: int = option(500, Whole(1, (50, 200, 500)), "points that end a match")
    match: str = option("points", Choice(*MATCH_MODES), "match mode: " + ", ".join(MATCH_MODES))
    play_after_press: bool = option(
        False, Flag(),
        "a player with no playable card may play a playable card just fired, or pass")
    trade_hands_last: bool = option(False, Flag(), "Trade Hands may be played as the last card")
    first_dealer: str | int = option("draw", Dealer(), "draw, random, or a seat number")
    next_dealer: str = option("winner", Choice("winner", "left"),
                              "winner, or left (the deal passes to the left)")

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, where: str = "options") -> Options:
        """Options from a mapping such as a transcript's ``options``; absent keys default."""
        if not isinstance(data, Mapping):
            raise OptionError(f"{where}: must be an object of options, not {data!r}")
        values: dict[str, Any] = {}
        for key, raw in data.items():
            spec = OPTION_SPECS.get(key) if isinstance(key, str) else None
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
        """Options from ``key=value`` words, as given with ``--option`` on the command line;
        the keys given override ``base``."""
        data: dict[str, object] = {}
        for text in assignments:
            key, sep, value = text.partition("=")
            if not sep or not key:
                raise OptionError(f"invalid option {text!r}: expected key=value, as in target=300")
            data[key.strip()] = value.strip()
        parsed = cls.from_mapping(data, where="--option")
        return replace(base or cls(), **{k: getattr(parsed, k) for k in data})

    def check_players(self, players: int, *, where: str = "options") -> None:
        """Refuse what does not fit this number of players, naming option and value."""
        first = self.first_dealer
        if isinstance(first, int) and first >= players:
            raise OptionError(f"{where}: option 'first_dealer' = {first}: no such seat "
                              f"among {players} players")

    def to_dict(self, *, all_keys: bool = False) -> dict[str, object]:
        """The options as a transcript records them (only those that differ from the default)."""
        out: dict[str, object] = {}
        for spec in OPTION_SPECS.values():
            value = getattr(self, spec.name)
            if all_keys or value != spec.default:
                out[spec.name] = value
        return out


#: Every option, as declared by the fields of :class:`Options`.
OPTION_SPECS: dict[str, OptionSpec] = {
    f.name: OptionSpec(f.name, f.default, f.metadata["parse"], f.metadata["help"])
    for f in fields(Options)
}
