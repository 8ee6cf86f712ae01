"""Game transcripts (TRANSCRIPTS.md): load and check them, build their round, save them.

One format serves as the rule conformance suite, the saved game, the crash journal and
the bug report. Loading checks everything before anything is played, and every error
names the file, the key and the value.

Two optional keys extend the format for saved games; a transcript without them is
exactly the format of TRANSCRIPTS.md:

- ``reloads``: for each time the launcher was reloaded, the cards in the order they were
  loaded (a shuffled reload); without it a reload keeps the order of discarding.
- ``meta``: free-form data a front end keeps with a saved game (player names, seed,
  round number); replay ignores it.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uno_attack.actions import Action
from uno_attack.cards import COLORS, Card
from uno_attack.engine import Round
from uno_attack.errors import InvalidActionError, InvalidCardError, OptionError, TranscriptError
from uno_attack.journal import write_atomic
from uno_attack.jsonfile import read_json
from uno_attack.options import Options
from uno_attack.penalties import Unit
from uno_attack.rules import RuleSet, rule_set
from uno_attack.scoring import RoundResult, score_round, team_of

REQUIRED_KEYS = ("name", "players", "dealer", "hands", "starter", "steps")
OPTIONAL_KEYS = ("options", "launcher", "rest", "fires", "match", "reloads", "meta")
EXPECT_KEYS = (
    "turn", "top", "color", "direction", "hands", "hand_sizes", "launcher_size",
    "discard_size", "owed", "legal", "winner", "round_points", "scores", "match_winner",
)


@dataclass(frozen=True, slots=True)
class ActionStep:
    action: Action
    raw: str | None = None  # the text as written in the file, if read from one

    @property
    def text(self) -> str:
        return self.raw if self.raw is not None else str(self.action)


@dataclass(frozen=True)
class RejectStep:
    action: Action | None  # None: the text is not even a well-formed action
    text: str


@dataclass(frozen=True)
class ExpectStep:
    expect: Mapping[str, Any]
    text: str


Step = ActionStep | RejectStep | ExpectStep


@dataclass
class Transcript:
    """A transcript in memory; :meth:`new_round` builds its round as dealt."""

    name: str
    players: int
    dealer: int
    hands: list[list[Card]]
    starter: list[Card]
    launcher: list[Card] = field(default_factory=list)
    rest: str = "canonical"
    options: Options = field(default_factory=Options)
    fires: list[int] = field(default_factory=list)
    scores: list[int] | None = None
    round_no: int = 1  # this round's number in its match (VARIANTS.md E21)
    steps: list[Step] = field(default_factory=list)
    reloads: list[list[Card]] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    source: str = "<transcript>"

    # -- building the round ---------------------------------------------------------
    @property
    def rules(self) -> RuleSet:
        return rule_set(self.options.rules)

    def launcher_cards(self) -> list[Card]:
        """The launcher (or draw pile) from first to fire to last, before starters are
        put back."""
        cards = list(self.launcher)
        if self.rest == "canonical":
            left = self.rules.counts.copy()
            left.subtract(self.named_cards())
            cards += [c for c in _canonical_remainder(self.rules, left)]
        return cards

    def named_cards(self) -> Counter[Card]:
        named: Counter[Card] = Counter()
        for hand in self.hands:
            named.update(hand)
        named.update(self.starter)
        named.update(self.launcher)
        return named

    def new_round(self) -> Round:
        try:
            return Round.setup(
                hands=self.hands, dealer=self.dealer, starter=self.starter,
                stock=self.launcher_cards(), options=self.options,
            )
        except ValueError as exc:
            raise TranscriptError(f"{self.source}: {exc}") from None

    def score(self, game: Round) -> RoundResult | None:
        """The round's score by this transcript's match (``options``, ``match``), once the
        round is over."""
        if not game.over or game.winner is None:
            return None
        return score_round(game.hands, game.winner, rules=game.rules, options=self.options,
                           scores=self.scores, round_no=self.round_no)

    def reload_shuffler(self) -> _RecordedReloads:
        return _RecordedReloads(self.reloads or [], self.source)

    # -- text -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "players": self.players,
            "dealer": self.dealer,
            "options": self.options.to_dict(),
            "hands": [[c.code for c in hand] for hand in self.hands],
            "starter": self.starter[0].code if len(self.starter) == 1
            else [c.code for c in self.starter],
            "launcher": [c.code for c in self.launcher],
            "rest": self.rest,
            "fires": list(self.fires),
        }
        if self.scores is not None or self.round_no != 1:
            data["match"] = {"scores": list(self.scores or [0] * self.players)}
            if self.round_no != 1:
                data["match"]["round"] = self.round_no
        if self.reloads:
            data["reloads"] = [[c.code for c in cards] for cards in self.reloads]
        if self.meta:
            data["meta"] = self.meta
        data["steps"] = [_step_json(step) for step in self.steps]
        return data

    def dumps(self) -> str:
        return dumps(self.to_dict())

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a crash mid-write leaves the previous file whole."""
        write_atomic(Path(path), self.dumps())


class _RecordedReloads:
    """Reorders each reload as the transcript's ``reloads`` recorded it."""

    def __init__(self, orders: list[list[Card]], source: str) -> None:
        self.orders = orders
        self.used = 0
        self.source = source

    def __call__(self, cards: list[Card]) -> None:
        if self.used >= len(self.orders):
            return  # no record: the order of discarding, as TRANSCRIPTS.md says
        order = self.orders[self.used]
        self.used += 1
        if Counter(order) != Counter(cards):
            raise TranscriptError(
                f"{self.source}: key 'reloads'[{self.used - 1}]: {[c.code for c in order]} "
                f"is not the discard pile being reloaded {[c.code for c in cards]}")
        cards[:] = order


def _canonical_remainder(rules: RuleSet, left: Counter[Card]) -> Iterator[Card]:
    for card in rules.deck:
        if left[card] > 0:
            left[card] -= 1
            yield card


def _step_json(step: Step) -> Any:
    if isinstance(step, ActionStep):
        return step.text
    if isinstance(step, RejectStep):
        return {"reject": step.text}
    return {"expect": dict(step.expect)}


# ---------------------------------------------------------------------- loading
class _Checker:
    """Type checks that name the file and key of every bad value; cards are read in the
    context of the transcript's rule set."""

    def __init__(self, source: str, rules: RuleSet | None = None) -> None:
        self.source = source
        self.rules = rules

    def fail(self, key: str, value: object, why: str) -> TranscriptError:
        return TranscriptError(f"{self.source}: key '{key}': {why} (got {_short(value)})")

    def integer(self, key: str, value: object, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(key, value, f"expected a whole number {lo}…{hi}")
        return value

    def card(self, key: str, value: object) -> Card:
        if not isinstance(value, str):
            raise self.fail(key, value, "expected a card code such as 'R5'")
        try:
            return self.rules.parse_card(value) if self.rules else Card.parse(value)
        except InvalidCardError:
            where = f" of {self.rules.title}" if self.rules else ""
            raise self.fail(key, value, f"unknown card code{where}") from None

    def cards(self, key: str, value: object) -> list[Card]:
        if not isinstance(value, list):
            raise self.fail(key, value, "expected a list of card codes")
        return [self.card(f"{key}[{i}]", v) for i, v in enumerate(value)]


def _short(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def load(path: str | os.PathLike[str]) -> Transcript:
    """Read and check a transcript file; raise :class:`TranscriptError` naming what is wrong."""
    return from_dict(read_json(path, TranscriptError), source=os.fspath(path))


def from_dict(data: object, *, source: str = "<transcript>") -> Transcript:
    check = _Checker(source)
    if not isinstance(data, dict):
        raise TranscriptError(f"{source}: a transcript is a JSON object, not {_short(data)}")
    for key in REQUIRED_KEYS:
        if key not in data:
            raise TranscriptError(f"{source}: key '{key}' is missing")
    for key in data:
        if key not in REQUIRED_KEYS and key not in OPTIONAL_KEYS:
            raise check.fail(key, data[key], "unknown key")
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise check.fail("name", name, "expected a one-line description")
    players = check.integer("players", data["players"], 2, 10)
    dealer = check.integer("dealer", data["dealer"], 0, players - 1)
    try:
        options = Options.from_mapping(data.get("options", {}), where=f"{source}: key 'options'")
        options.check_players(players, where=f"{source}: key 'options'")
    except OptionError as exc:
        raise TranscriptError(str(exc)) from None
    rules = rule_set(options.rules)
    check.rules = rules
    hands_raw = data["hands"]
    if not isinstance(hands_raw, list) or len(hands_raw) != players:
        raise check.fail("hands", hands_raw, f"expected a list of {players} hands, one per seat")
    hands = [check.cards(f"hands[{i}]", h) for i, h in enumerate(hands_raw)]
    starter_raw = data["starter"]
    if isinstance(starter_raw, list):
        if not starter_raw:
            raise check.fail("starter", starter_raw, "expected a card or a list of cards")
        starter = check.cards("starter", starter_raw)
    else:
        starter = [check.card("starter", starter_raw)]
    for i, card in enumerate(starter[:-1]):
        if not rules.kind(card).put_back:
            raise check.fail(f"starter[{i}]", card.code, "only a card that is put back "
                             f"({rules.refs['setup']}) may be followed by another starter")
    if rules.kind(starter[-1]).put_back:
        raise check.fail("starter", starter_raw, "the last starter may not be a "
                         f"{rules.kind(starter[-1]).name}: it goes back into the stock and "
                         "the next card is turned")
    launcher = check.cards("launcher", data.get("launcher", []))
    rest = data.get("rest", "canonical")
    if rest not in ("canonical", "none"):
        raise check.fail("rest", rest, "expected \"canonical\" or \"none\"")
    fires_raw = data.get("fires", [])
    if not isinstance(fires_raw, list):
        raise check.fail("fires", fires_raw, "expected a list of counts")
    fires = [check.integer(f"fires[{i}]", v, 0, 2**31 - 1) for i, v in enumerate(fires_raw)]
    if fires and rules.unit is not Unit.PRESS:
        raise check.fail("fires", fires_raw, f"{rules.title} has no launcher: 'fires' must be "
                         "absent or empty (VARIANTS.md E2)")
    scores, round_no = _match(check, data.get("match"), players, options)
    reloads = None
    if "reloads" in data:
        reloads_raw = data["reloads"]
        if not isinstance(reloads_raw, list):
            raise check.fail("reloads", reloads_raw, "expected a list of card lists")
        reloads = [check.cards(f"reloads[{i}]", r) for i, r in enumerate(reloads_raw)]
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise check.fail("meta", meta, "expected an object")
    transcript = Transcript(
        name=name, players=players, dealer=dealer, hands=hands, starter=starter,
        launcher=launcher, rest=rest, options=options, fires=fires, scores=scores,
        round_no=round_no, reloads=reloads, meta=meta, source=source,
    )
    over = [c.code for c, k in transcript.named_cards().items() if k > rules.counts[c]]
    if over:
        raise TranscriptError(f"{source}: keys 'hands', 'starter', 'launcher': "
                              f"{', '.join(sorted(over))} named more often than the deck holds")
    steps_raw = data["steps"]
    if not isinstance(steps_raw, list):
        raise check.fail("steps", steps_raw, "expected a list of steps")
    transcript.steps = [_step(check, i, s, rules, players) for i, s in enumerate(steps_raw)]
    return transcript


def _match(check: _Checker, match: object, players: int,
           options: Options) -> tuple[list[int] | None, int]:
    """``match``: the totals before this round and its number (TRANSCRIPTS.md, E20, E21)."""
    if match is None:
        return None, 1
    if not isinstance(match, dict) or not match or not set(match) <= {"scores", "round"}:
        raise check.fail("match", match, 'expected {"scores": [...], "round": N}')
    round_no = 1
    if "round" in match:
        last = options.rounds if options.match == "net" else 10**6
        round_no = check.integer("match.round", match["round"], 1, last)
    if "scores" not in match:
        return None, round_no
    scores = match["scores"]
    if not isinstance(scores, list) or len(scores) != players:
        raise check.fail("match.scores", scores, f"expected {players} totals, one per seat")
    low = -(10**9) if options.match == "net" else 0  # net totals may be negative (B11)
    totals = [check.integer(f"match.scores[{i}]", v, low, 10**9) for i, v in enumerate(scores)]
    for seat, total in enumerate(totals):
        mate = team_of(seat, options.teams)
        if totals[mate] != total:
            raise check.fail("match.scores", scores, f"seats {mate} and {seat} are team-mates "
                             "and must have equal scores (VARIANTS.md E20)")
    return totals, round_no


def _step(check: _Checker, i: int, raw: object, rules: RuleSet, players: int) -> Step:
    key = f"steps[{i}]"
    if isinstance(raw, str):
        try:
            return ActionStep(Action.parse(raw, rules=rules), raw)
        except InvalidActionError as exc:
            raise check.fail(key, raw, str(exc)) from None
    if isinstance(raw, dict) and set(raw) == {"reject"}:
        text = raw["reject"]
        if not isinstance(text, str):
            raise check.fail(f"{key}.reject", text, "expected an action string")
        try:
            return RejectStep(Action.parse(text, rules=rules), text)
        except InvalidActionError:
            return RejectStep(None, text)
    if isinstance(raw, dict) and set(raw) == {"expect"}:
        expect = raw["expect"]
        if not isinstance(expect, dict):
            raise check.fail(f"{key}.expect", expect, "expected an object of checks")
        for name, value in expect.items():
            if name not in EXPECT_KEYS:
                raise check.fail(f"{key}.expect.{name}", value, "unknown expectation")
            why = _EXPECT_SHAPES[name](value) or _impossible(name, value, rules, players)
            if why is not None:
                raise check.fail(f"{key}.expect.{name}", value, f"expected {why}")
        return ExpectStep(expect, json.dumps(raw))
    raise check.fail(key, raw, 'expected an action string, {"reject": ...} or {"expect": {...}}')


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(value: object) -> bool:
    return isinstance(value, list) and all(map(_is_int, value))


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _shape(test: Any, what: str) -> Any:
    return lambda value: None if test(value) else what


def _owed_entry(entry: object) -> bool:
    return (isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0])
            and (_is_int(entry[1]) or entry[1] == "fire"))


def _hands_shape(value: object) -> str | None:
    if not isinstance(value, dict) or not all(
            isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) <= 2
            and _strings(cards) for seat, cards in value.items()):
        return 'an object {"SEAT": [card codes]}'
    return None


#: The shape of each expectation's value (TRANSCRIPTS.md, Steps): a wrong one is an error
#: of the transcript, reported when it is loaded, not a crash half-way through a replay.
_EXPECT_SHAPES: dict[str, Any] = {
    "turn": _shape(lambda v: v is None or _is_int(v), "a seat number or null"),
    "top": _shape(lambda v: isinstance(v, str), "a card code"),
    "color": _shape(lambda v: v is None or isinstance(v, str), "a colour name or null"),
    "direction": _shape(lambda v: isinstance(v, str), '"clockwise" or "counterclockwise"'),
    "hands": _hands_shape,
    "hand_sizes": _shape(_ints, "a list of numbers, one per seat"),
    "launcher_size": _shape(_is_int, "a number"),
    "discard_size": _shape(_is_int, "a number"),
    "owed": _shape(lambda v: isinstance(v, list) and all(map(_owed_entry, v)),
                   'a list of [seat, n or "fire"]'),
    "legal": _shape(_strings, "a list of action strings"),
    "winner": _shape(lambda v: v is None or _is_int(v), "a seat number or null"),
    "round_points": _shape(lambda v: v is None or _ints(v), "a list of numbers or null"),
    "scores": _shape(lambda v: v is None or _ints(v), "a list of numbers or null"),
    "match_winner": _shape(lambda v: v is None or _is_int(v) or _ints(v),
                           "a seat number, a list of seats or null"),
}
assert set(_EXPECT_SHAPES) == set(EXPECT_KEYS)

_DIRECTIONS = ("clockwise", "counterclockwise")


def _impossible(name: str, value: Any, rules: RuleSet, players: int) -> str | None:
    """What an expectation of the right shape needs to be able to hold at all (a seat of
    the table, a card of the deck, one entry per seat), or None when it can."""
    seats = f"seats 0…{players - 1}"
    if name in ("turn", "winner"):
        return None if value is None or 0 <= value < players else f"one of {seats}, or null"
    if name == "match_winner":
        listed = value if isinstance(value, list) else [] if value is None else [value]
        return None if all(0 <= s < players for s in listed) else f"{seats}, a list or null"
    if name in ("hand_sizes", "round_points", "scores"):
        return (None if value is None or len(value) == players
                else f"{players} numbers, one per seat")
    if name == "owed":
        return None if all(0 <= s < players for s, _ in value) else f"presses owed by {seats}"
    if name == "direction":
        return None if value in _DIRECTIONS else '"clockwise" or "counterclockwise"'
    if name == "color":
        return None if value is None or value in [c.label for c in COLORS] else \
            "red, yellow, green, blue or null"
    if name == "top":
        return None if _is_card(rules, value) else f"a card code of {rules.title}"
    if name == "hands":
        if any(int(seat) >= players for seat in value):
            return f"hands of {seats}"
        if not all(_is_card(rules, code) for cards in value.values() for code in cards):
            return f"card codes of {rules.title}"
        return None
    if name == "legal":
        for text in value:
            try:
                Action.parse_move(text, 0, rules=rules)
            except InvalidActionError as exc:
                return f"action strings without the seat ({text!r}: {exc})"
    return None


def _is_card(rules: RuleSet, code: str) -> bool:
    try:
        rules.parse_card(code)
    except InvalidCardError:
        return False
    return True


# ---------------------------------------------------------------------- writing
def dumps(data: Mapping[str, Any]) -> str:
    """JSON with one key per line and one step per line: easy to read and to diff."""
    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if key == "steps" and value:
            lines.append('  "steps": [')
            lines += [f"    {json.dumps(s)}{',' if j < len(value) - 1 else ''}"
                      for j, s in enumerate(value)]
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


