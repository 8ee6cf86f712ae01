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
from uno_attack.rules import rule_set

MATCH_MODES = ("points", "lowest", "elimination", "single", "net")


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
    """One option as declared: name, default, parser, one-line meaning, and (VARIANTS.md
    E1) the option whose value a non-default value of this one needs."""

    name: str
    default: Any
    parse: Parser
    help: str
    needs: tuple[str, tuple[Any, ...]] | None = None

    def refusal(self, options: Options) -> str | None:
        """Why this option's value is refused with the other options, or ``None``."""
        value = getattr(options, self.name)
        if self.needs is None or value == self.default:
            return None  # a default value written out is always accepted (E1)
        other, allowed = self.needs
        if getattr(options, other) in allowed:
            return None
        return (f"option {self.name!r} = {value!r}: only with {other} = "
                f"{' or '.join(map(str, allowed))}, not {getattr(options, other)!r} "
                "(VARIANTS.md E1)")


def option(default: Any, parse: Parser, help: str, *,
           needs: tuple[str, tuple[Any, ...]] | None = None) -> Any:
    """Declare an option (a field of :class:`Options`); ``needs`` = (other option, values)
    it needs when not at its default."""
    return field(default=default, metadata={"parse": parse, "help": help, "needs": needs})


class Teams(Parser):
    """0 (no teams) or 2…5 teams (VARIANTS.md B10)."""

    samples = (0, 2, 3)

    def __call__(self, value: object) -> int:
        n = Whole(0, ())(value)
        if n == 1 or n > 5:
            raise ValueError("expected 0 (no teams) or 2 to 5 teams")
        return n


_ATTACK, _CLASSIC = ("rules", ("attack",)), ("rules", ("classic",))


@dataclass(frozen=True, slots=True)
class Options:
    """The options a game is played with; the defaults are the official rules.

    Building one refuses a combination VARIANTS.md E1 forbids (:class:`OptionError`);
    what depends on the number of players is checked by :meth:`check_players`.
    """

    rules: str = option("attack", Choice("attack", "classic"),
                        "the rule set: attack (RULES.md) or classic (VARIANTS.md A)")
    hand_size: int = option(7, Whole(1, (1, 3, 7, 9)), "cards dealt to each player")
    target: int = option(500, Whole(1, (50, 200, 500)), "points that end a match")
    match: str = option("points", Choice(*MATCH_MODES),
                        "match mode: " + ", ".join(MATCH_MODES) + " (net: VARIANTS.md B11)")
    rounds: int = option(10, Whole(1, (1, 2, 10)), "rounds of a net match (B11)",
                         needs=("match", ("net",)))
    play_after_press: bool = option(
        False, Flag(),
        "a player with no playable card may play a playable card just fired, or pass",
        needs=_ATTACK)
    trade_hands_last: bool = option(False, Flag(), "Trade Hands may be played as the last card",
                                    needs=_ATTACK)
    first_dealer: str | int = option("draw", Dealer(), "draw, random, or a seat number")
    next_dealer: str = option("winner", Choice("winner", "left", "winner_starts"),
                              "winner, left (the deal passes to the left), or winner_starts "
                              "(the winner plays first, B12)")
    stacking: str = option("off", Choice("off", "same", "up"),
                           "a Draw card may be answered with another, passing on the sum (B1)")
    jump_in: str = option("off", Choice("off", "numbers", "any"),
                          "anyone holding the identical card may play it out of turn (B2)")
    multi_play: str = option("off", Choice("off", "numbers", "symbols"),
                             "several cards of one symbol may be played at once (B3)")
    seven_zero: bool = option(False, Flag(),
                              "a 7 swaps hands with a named seat; a 0 passes every hand on (B4)")
    until_playable: bool = option(False, Flag(),
                                  "press or draw on until a playable card comes, then play it (B5)")
    deflect: bool = option(False, Flag(),
                           "a Skip or Reverse passes a Draw card's penalty on (B6)")
    last_card: str = option("any", Choice("any", "no_action"),
                            "no_action: a last play must be a number or make others take (B7)")
    uno_penalty: int = option(2, Whole(1, (1, 2, 4)), "the penalty of a player caught (B8)")
    false_uno_penalty: int = option(0, Whole(0, (0, 1, 2)),
                                    "0: a false UNO call is refused; n: it costs n (B8)")
    false_catch_penalty: int = option(0, Whole(0, (0, 1, 2)),
                                      "0: a false catch is refused; n: it costs n (B8)")
    sum_out: bool = option(False, Flag(),
                           "go out at once when your numbers add up to the number played (B9)")
    teams: int = option(0, Teams(), "play in 2 to 5 teams; seat s is in team s mod teams (B10)",
                        needs=("match", ("points", "lowest", "single")))
    forced_play: bool = option(False, Flag(),
                               "a player holding a playable card must play one (B13)")
    wild_draw_four: str = option("challenge", Choice("challenge", "fair_only", "free"),
                                 "challenge, fair_only or free (B14)", needs=_CLASSIC)

    def __post_init__(self) -> None:
        for spec in OPTION_SPECS.values():
            why = spec.refusal(self)
            if why is not None:
                raise OptionError(why)

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
        try:
            return cls(**values)
        except OptionError as exc:
            raise OptionError(f"{where}: {exc}") from None

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
        try:
            return replace(base or cls(), **{k: getattr(parsed, k) for k in data})
        except OptionError as exc:
            raise OptionError(f"--option: {exc}") from None

    def check_players(self, players: int, *, where: str = "options") -> None:
        """Refuse what does not fit this number of players, naming option and value."""
        first = self.first_dealer
        if isinstance(first, int) and first >= players:
            raise OptionError(f"{where}: option 'first_dealer' = {first}: no such seat "
                              f"among {players} players", option="first_dealer",
                              plain=f"there is no seat {first} among {players} players")
        if self.teams and players % self.teams:
            raise OptionError(f"{where}: option 'teams' = {self.teams}: {players} players do "
                              "not divide into teams of equal size (VARIANTS.md B10)",
                              option="teams", plain=f"{players} players do not make "
                              f"{self.teams} teams of the same size")
        self.check_deal(players, where=where)

    def check_deal(self, players: int, *, where: str = "options") -> None:
        """Refuse hands that leave no card of the deck to start the round on."""
        deck = len(rule_set(self.rules).deck)
        if players * self.hand_size + 1 > deck:
            raise OptionError(f"{where}: option 'hand_size' = {self.hand_size}: {players} "
                              f"players × {self.hand_size} cards leaves no starter in a deck "
                              f"of {deck}", option="hand_size",
                              plain=f"{players} players × {self.hand_size} cards leave no card "
                              f"of the {deck} to start on")

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
    f.name: OptionSpec(f.name, f.default, f.metadata["parse"], f.metadata["help"],
                       f.metadata["needs"])
    for f in fields(Options)
}


@dataclass(frozen=True)
class Preset:
    """A named set of options for people who do not want to pick every switch."""

    name: str
    meaning: str
    options: Mapping[str, object]


#: The presets of ``--preset NAME``; a game records the options they expand to.
PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("party", "stack Draw cards, jump in, 7-0 swaps, press or draw until playable",
               {"stacking": "up", "jump_in": "any", "seven_zero": True,
                "until_playable": True}),
        Preset("classic", "classic 108-card UNO with no house rules", {"rules": "classic"}),
        Preset("house", "the usual table: stack Draw cards, jump in and shed pairs of numbers",
               {"stacking": "same", "jump_in": "numbers", "multi_play": "numbers"}),
        Preset("no-mercy", "stack up, deflect, play sets, 7-0, take until playable, no passing",
               {"stacking": "up", "deflect": True, "multi_play": "symbols", "seven_zero": True,
                "until_playable": True, "forced_play": True}),
        Preset("strict", "play when you can, end on a number or a hit, false calls cost 2",
               {"forced_play": True, "last_card": "no_action", "false_uno_penalty": 2,
                "false_catch_penalty": 2}),
    )
}


def preset_options(name: str) -> Options:
    """The options a preset expands to; an unknown name is refused listing the known ones."""
    preset = PRESETS.get(name)
    if preset is None:
        raise OptionError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
    return Options.from_mapping(preset.options, where=f"preset {name!r}")


def options_from_cli(preset: str | None, assignments: Iterable[str]) -> Options:
    """The options of ``--preset NAME`` and ``--option key=value`` words together: the
    words override the preset (``play``, ``simulate`` and a network host use this)."""
    base = preset_options(preset) if preset is not None else None
    return Options.from_assignments(assignments, base=base)
