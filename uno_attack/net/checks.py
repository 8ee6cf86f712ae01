"""What a client takes from a host: a ``hello`` or ``view`` of NETWORK.md and
docs/network.md, checked whole before anything is shown.

A host can be anything at the other end of a URL. The screens read these messages as the
host is meant to write them (a seat is an index into ``players``, a card a code of the
table's deck, ``hand_sizes`` one count per seat), so a message that breaks that is refused
here, in one place, with a :class:`ProtocolError` naming the field and what it held, and
never reaches a screen. Fields a client does not know are passed over (the host may add
some); fields it knows are checked whenever they are present, and the ones NETWORK.md
makes part of every message must be.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from uno_attack.cards import Color
from uno_attack.errors import UnoAttackError
from uno_attack.options import Options
from uno_attack.refusal import Part, SeatWord
from uno_attack.rules import RuleSet, rule_set
from uno_attack.saved_game import name_problem

#: What NETWORK.md allows: 2 to 10 seats, at most 10 log lines (settled point 5).
MAX_SEATS = 10
MAX_LOG_LINES = 10
DIRECTIONS = ("clockwise", "counterclockwise")


class ProtocolError(UnoAttackError):
    """The host broke NETWORK.md (a gap in ``seq``, a message that is not JSON …)."""


def shown(value: object, limit: int = 60) -> str:
    """A value as a message names it: its ``repr``, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass(frozen=True)
class Table:
    """What a ``hello`` fixes for the views that follow it: the seats and the deck."""

    seats: int
    seat: int | None
    rules: RuleSet


def check_hello(message: Mapping[str, Any]) -> Table:
    """The table a ``hello`` announces, or :class:`ProtocolError`."""
    fields = _Fields("hello", message)
    players = fields.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_SEATS \
            or not all(isinstance(name, str) and name_problem(name) is None
                       for name in players):
        fields.wrong("players", f"not a list of 1 to {MAX_SEATS} names")
    seats = len(players)
    seat = fields.seat("seat", seats, none=True)
    fields.seats("people", seats)
    name = fields.get("name")
    if name is not None and not (isinstance(name, str) and name_problem(name) is None):
        fields.wrong("name", "not a name")
    raw_options = message.get("options") or {}
    try:
        options = Options.from_mapping(raw_options, where="options")
        rules = rule_set(options.rules)
    except UnoAttackError as exc:
        raise ProtocolError(f"the host sent a hello whose {exc}") from None
    return Table(seats, seat, rules)


def check_view(message: Mapping[str, Any], table: Table) -> None:
    """Refuse (:class:`ProtocolError`) a ``view`` the table of its ``hello`` cannot hold."""
    fields = _Fields("view", message)
    n, deck = table.seats, table.rules
    turn = fields.seat("turn", n, none=True)
    fields.card("top", deck)
    color = fields.get("color")
    if color is not None:
        try:
            Color.parse(color)
        except UnoAttackError:
            fields.wrong("color", "not a colour")
    if fields.get("direction") not in DIRECTIONS:
        fields.wrong("direction", "neither clockwise nor counterclockwise")
    cards = len(deck.deck)
    fields.counts("hand_sizes", n, cards)
    fields.counts("scores", n, None, low=None)
    winner = fields.seat("winner", n, none=True)
    log = fields.get("log")
    if not isinstance(log, list) or len(log) > MAX_LOG_LINES or not _lines(log):
        fields.wrong("log", f"not a list of at most {MAX_LOG_LINES} lines of text")
    owed = fields.get("owed")
    if not isinstance(owed, list) or not all(
            isinstance(entry, list) and len(entry) == 2 and _seat_of(entry[0], n)
            and (_whole(entry[1]) or isinstance(entry[1], str)) for entry in owed):
        fields.wrong("owed", "not a list of [seat, count] pairs")
    for key in ("owed_what", "owed_why", "legal"):
        if not _lines(message.get(key, [])):
            fields.wrong(key, "not a list of lines of text")
    if not _whole(fields.get("tension")):
        fields.wrong("tension", "not a whole number")
    for key in ("log_start", "stock", "step"):
        fields.whole(key)
    if "round" in message and not (_whole(message["round"]) and message["round"] >= 1):
        fields.wrong("round", "not a round number")
    for key in ("uno_window", "busy"):
        fields.seat(key, n, none=True, required=False)
    for key in ("uno_called", "away", "connected"):
        fields.seats(key, n)
    for key in ("deadline", "next_round_in"):
        value = message.get(key)
        if value is not None and not (isinstance(value, int | float)
                                      and not isinstance(value, bool)
                                      and math.isfinite(value) and value >= 0):
            fields.wrong(key, "not a number of seconds")
    points = message.get("round_points")
    if points is not None:
        fields.counts("round_points", n, None, low=None)
    if message.get("match_winner") is not None:
        fields.seats("match_winner", n)
    if turn is not None and (winner is not None or points is not None):
        fields.wrong("turn", "a seat to act in a round that is over")
    hands = message.get("hands")
    if hands is not None and not (isinstance(hands, list) and len(hands) == n
                                  and all(_cards_of(hand, deck) for hand in hands)):
        fields.wrong("hands", f"not {n} hands of this game's cards")
    taken = message.get("taken")
    if taken is not None and not (isinstance(taken, dict) and _seat_of(taken.get("seat"), n)
                                  and _whole(taken.get("count"))):
        fields.wrong("taken", "not a seat and a count")
    if table.seat is not None:  # a seat's view: its hand and what it may do
        hand = fields.get("hand")
        if not _cards_of(hand, deck) or len(hand) != message["hand_sizes"][table.seat]:
            fields.wrong("hand", "not this seat's hand of this game's cards")
        if "legal" not in message:
            fields.wrong("legal", "missing")
    prompt = message.get("prompt")
    if prompt is not None and not (
            isinstance(prompt, dict) and _seat_of(prompt.get("seat"), n)
            and _lines([prompt.get("message")]) and _lines(prompt.get("actions"))
            and _whole(prompt.get("fired", 0))):
        fields.wrong("prompt", "not a seat, a message and its answers")
    revealed = message.get("revealed")
    if revealed is not None and not (
            isinstance(revealed, dict) and _seat_of(revealed.get("seat"), n)
            and _cards_of(revealed.get("hand"), deck)):
        fields.wrong("revealed", "not a seat and its hand")


def check_error(message: Mapping[str, Any], table: Table | None) -> tuple[Part, ...] | None:
    """The parts of an ``error`` (docs/network.md), to be worded with the players' names,
    or ``None`` where it has none (a host that sends only the ``message``)."""
    fields = _Fields("error", message)
    parts = message.get("parts")
    if parts is None:
        return None
    seats = table.seats if table is not None else 0
    if not isinstance(parts, list):
        fields.wrong("parts", "not a list")
    checked: list[Part] = []
    for part in parts:
        if isinstance(part, str) and part.isprintable():
            checked.append(part)
        elif isinstance(part, dict) and _seat_of(part.get("seat"), seats) \
                and _form(part.get("form")):
            checked.append(SeatWord(part["seat"], part["form"]))
        else:
            fields.wrong("parts", f"holds {shown(part)}: neither text nor a seat of 0 to "
                                  f"{seats - 1} with its form")
    return tuple(checked)


class _Fields:
    """One message's fields, each read and refused the same way."""

    def __init__(self, kind: str, message: Mapping[str, Any]) -> None:
        self.kind = kind
        self.message = message

    def wrong(self, key: str, why: str) -> NoReturn:
        if key not in self.message:
            raise ProtocolError(f"the host sent a {self.kind} without {key!r}")
        raise ProtocolError(f"the host sent a {self.kind} whose {key!r} is "
                            f"{shown(self.message[key])}: {why}")

    def get(self, key: str) -> Any:
        if key not in self.message:
            self.wrong(key, "missing")
        return self.message[key]

    def seat(self, key: str, seats: int, *, none: bool, required: bool = True) -> int | None:
        value = self.get(key) if required else self.message.get(key)
        if value is None and none:
            return None
        if not _seat_of(value, seats):
            self.wrong(key, f"not a seat of 0 to {seats - 1}")
        assert isinstance(value, int)
        return value

    def seats(self, key: str, seats: int) -> None:
        value = self.message.get(key, [])
        if not isinstance(value, list) or not all(_seat_of(v, seats) for v in value):
            self.wrong(key, f"not a list of seats of 0 to {seats - 1}")

    def card(self, key: str, rules: RuleSet) -> None:
        if not _cards_of([self.get(key)], rules):
            self.wrong(key, f"not a card of {rules.title}")

    def counts(self, key: str, seats: int, high: int | None, *, low: int | None = 0) -> None:
        value = self.get(key)
        if not isinstance(value, list) or len(value) != seats or not all(
                _integer(v) and (low is None or v >= low) and (high is None or v <= high)
                for v in value):
            self.wrong(key, f"not {seats} counts, one per seat")

    def whole(self, key: str) -> None:
        if key in self.message and not _whole(self.message[key]):
            self.wrong(key, "not a whole number")


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value: object) -> bool:
    return _integer(value) and value >= 0  # type: ignore[operator]


def _seat_of(value: object, seats: int) -> bool:
    return _integer(value) and 0 <= value < seats  # type: ignore[operator]


def _form(value: object) -> bool:
    """Whether ``value`` is a seat's form in an ``error``'s parts: ``""``, ``"'s"``, or a
    word (``yours``, a verb such as ``owes``)."""
    return isinstance(value, str) and (value in ("", "'s") or (
        len(value) <= 20 and value.isalpha() and value.isascii()))


def _lines(value: object) -> bool:
    """Whether ``value`` is a list of lines a screen may show: text without control
    characters (a terminal would obey an escape sequence)."""
    return isinstance(value, list) and all(isinstance(v, str) and v.isprintable()
                                           for v in value)


def _cards_of(value: object, rules: RuleSet) -> bool:
    """Whether ``value`` is a list of codes of this deck, no longer than the deck."""
    if not isinstance(value, list) or len(value) > len(rules.deck):
        return False
    try:
        rules.parse_cards(value)
    except UnoAttackError:
        return False
    return True
