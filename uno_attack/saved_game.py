"""A game saved by ``uno-attack play`` or ``host``: written here, read back for
``--resume`` and checked whole.

A save is a transcript (TRANSCRIPTS.md) whose ``meta`` holds the match around the round
(:func:`save_meta`): the players' names and kinds, the seed, the scores, who is still in,
the launcher's presses so far, and for a hosted table its secret tokens. Everything a
resume needs is a value in it: bots draw their randomness from (seed, round, step, seat)
and are never asked again, and the launcher's state follows from the presses recorded
(:attr:`SavedGame.launcher_state`). A save may come from anywhere (a bug report, a
download), so every value is checked before it is used, and each fault is one
:class:`ResumeError` naming the file, the key and the value. Nothing in a save chooses
hardware: the launcher it was played with is only *suggested* (:attr:`SavedGame.launcher`);
the game opens the launcher of the command line or the config.

Every save written since the first (December 2026) has the format
:data:`SAVE_FORMAT`; keys added since are optional (``match_key``, ``started_at``,
``points_by_round``, ``host``), so an older save still loads.
"""

from __future__ import annotations

import itertools
import json
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from uno_attack.actions import Verb
from uno_attack.bots import BOT_KINDS
from uno_attack.errors import LauncherError, TranscriptError, UnoAttackError
from uno_attack.launcher import LauncherSettings, LauncherState
from uno_attack.match import Match
from uno_attack.replay import replay
from uno_attack.transcript import ActionStep, Transcript, load

SAVE_FORMAT = "uno-attack play 1"
KINDS = ("human", *BOT_KINDS)
#: Presses of a whole match, far beyond any real one; a resume replays the launcher's
#: dice this many times at most (a quarter of a second), so a save cannot stall it.
MAX_PRESSES = 1_000_000
MAX_ROUNDS = 100_000
MAX_SCORE = 10**9
MAX_NAME = 24     # what a seat's badge shows
MAX_TEXT = 200    # a seed or launcher spec
HOST_KEY = "host"  # the meta key of a hosted table's tokens
#: What a token is made of (``secrets.token_urlsafe``), and the fewest characters that
#: hold 128 bits of it (6 bits each).
TOKEN_ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")
MIN_TOKEN = 22


class ResumeError(UnoAttackError):
    """There is no saved game to resume, or the file is not one ``uno-attack play`` wrote."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (it must show on one line of a badge)."""
    if not name.strip():
        return "a name must not be empty"
    if len(name) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters"
    if not name.isprintable():
        return "a name must be printable text (no control characters)"
    return None


@dataclass(frozen=True)
class HostTokens:
    """A hosted table's secrets: the join token of each human player (by match player)
    and the watch token. A journal keeps them so that ``host --resume`` opens the same
    seats to the same links."""

    seats: dict[int, str]
    watch: str

    def to_json(self) -> dict[str, Any]:
        return {"seats": {str(p): t for p, t in self.seats.items()}, "watch": self.watch}


def save_meta(match: Match, kinds: Sequence[str], *, seed: int | str | None, launcher: str,
              policy: str, presses_before: int, match_key: str, started_at: datetime,
              points_by_round: Sequence[Sequence[int | None]],
              tokens: HostTokens | None = None) -> dict[str, Any]:
    """The ``meta`` of a save: the match around the round being played, as
    :func:`read_saved_game` reads it back."""
    meta: dict[str, Any] = {
        "format": SAVE_FORMAT, "names": list(match.names), "kinds": list(kinds),
        "seed": seed, "launcher": launcher, "policy": policy, "round": match.round_no,
        "match": {"scores": list(match.scores), "active": list(match.active),
                  "dealer": match.dealer, "round_no": match.round_no},
        "presses_before": presses_before,
        "match_key": match_key, "started_at": started_at.isoformat(),
        "points_by_round": [list(row) for row in points_by_round],
    }
    if tokens is not None:
        meta[HOST_KEY] = tokens.to_json()
    return meta


@dataclass(frozen=True)
class SavedGame:
    """A save's round and match, every value checked."""

    path: Path
    record: Transcript
    names: list[str]
    kinds: list[str]
    seed: int | str | None
    policy: str
    launcher: str | None  # what it was played with: a suggestion, never opened from here
    scores: list[int]
    active: list[int]
    dealer: int
    round_no: int
    presses_before: int
    match_key: str | None = None        # the match's record in the player store
    started_at: datetime | None = None  # when the match began (an older save has neither)
    points_by_round: list[list[int | None]] = field(default_factory=list)
    tokens: HostTokens | None = None  # a hosted table's (``host`` wrote the save)

    @property
    def launcher_state(self) -> LauncherState:
        """The launcher's state when the save was written, from the presses recorded:
        those of the earlier rounds and of this one (a save keeps no launcher's own
        state, so it goes on with any launcher, and a save of any version has it)."""
        presses = sum(isinstance(s, ActionStep) and s.action.verb is Verb.PRESS
                      for s in self.record.steps)
        return {"presses": self.presses_before + presses}

    @property
    def humans(self) -> list[str]:
        return [n for n, k in zip(self.names, self.kinds, strict=True) if k == "human"]

    @property
    def bots(self) -> str | None:
        return next((k for k in self.kinds if k != "human"), None)

    def summary(self) -> str:
        """One line about the game, for a screen that offers to resume it: the scores as
        they stand, with the saved round's points once it is over (a quit at the
        scoreboard), while the save's match holds those before the round."""
        actions = sum(isinstance(s, ActionStep) for s in self.record.steps)
        now = list(self.scores)
        result = self.record.score(replay(self.record).round)
        if result is not None:
            for seat, total in enumerate(result.scores):
                now[self.active[seat]] = total
        scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, now, strict=True))
        over = " (over)" if result is not None else ""
        return (f"round {self.round_no}{over}, {actions} action{'s' if actions != 1 else ''} "
                f"in; scores {scores}")


def read_saved_game(path: Path) -> SavedGame:
    """The game saved at ``path``; :class:`ResumeError` names what is wrong with it."""
    if not path.exists():
        raise ResumeError(f"no saved game to resume at {path}")
    try:
        record = load(path)
    except TranscriptError as exc:
        raise ResumeError(str(exc)) from None
    return _check(path, record)


class _Check:
    """Type checks on a save's ``meta`` that name the file, the key and the value."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, value: object, why: str) -> ResumeError:
        text = json.dumps(value, ensure_ascii=True, default=str)
        text = text if len(text) <= 60 else text[:57] + "..."
        return ResumeError(f"{self.path}: key '{key}': {why} (got {text})")

    def field(self, data: dict[str, Any], key: str, where: str) -> Any:
        if key not in data:
            raise ResumeError(f"{self.path}: key '{where}.{key}' is missing")
        return data[key]

    def integer(self, key: str, value: object, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(key, value, f"expected a whole number {lo}…{hi}")
        return value

    def integers(self, key: str, value: object, size: int, lo: int, hi: int) -> list[int]:
        if not isinstance(value, list) or len(value) != size:
            raise self.fail(key, value, f"expected a list of {size} numbers")
        return [self.integer(f"{key}[{i}]", v, lo, hi) for i, v in enumerate(value)]

    def text(self, key: str, value: object) -> str:
        if not isinstance(value, str) or not value.isprintable() or not 0 < len(value) <= MAX_TEXT:
            raise self.fail(key, value, f"expected printable text of 1 to {MAX_TEXT} characters")
        return value


def _check(path: Path, record: Transcript) -> SavedGame:
    check = _Check(path)
    meta = record.meta
    if meta.get("format") != SAVE_FORMAT:
        raise ResumeError(f"{path}: not a game saved by 'uno-attack play' "
                          f"(key 'meta.format' is not {SAVE_FORMAT!r})")
    names = _names(check, check.field(meta, "names", "meta"))
    kinds_raw = check.field(meta, "kinds", "meta")
    if not isinstance(kinds_raw, list) or len(kinds_raw) != len(names):
        raise check.fail("meta.kinds", kinds_raw, f"expected {len(names)} kinds, one per name")
    for i, kind in enumerate(kinds_raw):
        if kind not in KINDS:
            raise check.fail(f"meta.kinds[{i}]", kind, f"expected one of {', '.join(KINDS)}")
    kinds: list[str] = list(kinds_raw)
    seed = check.field(meta, "seed", "meta")
    if seed is not None and (not isinstance(seed, int | str) or isinstance(seed, bool)):
        raise check.fail("meta.seed", seed, "expected a number, a text or null")
    if isinstance(seed, str):
        check.text("meta.seed", seed)
    policy = check.text("meta.policy", check.field(meta, "policy", "meta"))
    try:
        LauncherSettings(policy=policy).make_policy()
    except LauncherError as exc:
        raise check.fail("meta.policy", policy, str(exc)) from None
    launcher = meta.get("launcher")
    if launcher is not None:
        check.text("meta.launcher", launcher)

    match = check.field(meta, "match", "meta")
    if not isinstance(match, dict):
        raise check.fail("meta.match", match, "expected an object")
    scores = check.integers("meta.match.scores", check.field(match, "scores", "meta.match"),
                            len(names), 0, MAX_SCORE)
    active = _active(check, check.field(match, "active", "meta.match"), len(names),
                     record.players)
    round_no = check.integer("meta.match.round_no",
                             check.field(match, "round_no", "meta.match"), 1, MAX_ROUNDS)
    dealer = check.field(match, "dealer", "meta.match")
    if dealer != active[record.dealer]:
        raise check.fail("meta.match.dealer", dealer,
                         f"expected {active[record.dealer]}, the player in the dealer's seat "
                         f"{record.dealer}")
    if "round" in meta and meta["round"] != round_no:
        raise check.fail("meta.round", meta["round"], f"expected {round_no}, as meta.match")
    seated = [names[p] for p in active]
    if "players" in meta and meta["players"] != seated:
        raise check.fail("meta.players", meta["players"],
                         "expected the names of the players in the round's seats")
    seat_scores = [scores[p] for p in active]
    if (record.scores or [0] * len(active)) != seat_scores:  # absent: all 0 (TRANSCRIPTS.md)
        raise check.fail("match.scores", record.scores,
                         f"expected {seat_scores}, the totals of meta.match.scores")
    presses_before = check.integer("meta.presses_before", meta.get("presses_before", 0),
                                   0, MAX_PRESSES)
    presses = sum(isinstance(s, ActionStep) and s.action.verb is Verb.PRESS
                  for s in record.steps)
    if len(record.fires) != presses:
        raise check.fail("fires", record.fires,
                         f"expected {presses} counts, one per press of the steps")
    if presses_before + presses > MAX_PRESSES:
        raise check.fail("meta.presses_before", presses_before,
                         f"more than {MAX_PRESSES} presses in one match")
    match_key = meta.get("match_key")
    if match_key is not None:
        check.text("meta.match_key", match_key)
    tokens = _tokens(check, meta[HOST_KEY], kinds) if HOST_KEY in meta else None
    return SavedGame(path=path, record=record, names=names, kinds=kinds, seed=seed,
                     policy=policy, launcher=launcher, scores=scores, active=active,
                     dealer=dealer, round_no=round_no, presses_before=presses_before,
                     match_key=match_key, started_at=_moment(check, meta.get("started_at")),
                     points_by_round=_points_by_round(check, meta.get("points_by_round", []),
                                                      len(names), round_no),
                     tokens=tokens)


def _tokens(check: _Check, raw: object, kinds: Sequence[str]) -> HostTokens:
    """A hosted table's tokens: one per human player, each at least 128 bits of the
    token alphabet, every one different (the watch token too)."""
    where = f"meta.{HOST_KEY}"
    if not isinstance(raw, dict):
        raise check.fail(where, raw, "expected an object with 'seats' and 'watch'")
    seats_raw = check.field(raw, "seats", where)
    if not isinstance(seats_raw, dict):
        raise check.fail(f"{where}.seats", seats_raw, "expected an object: player → token")
    humans = {p for p, kind in enumerate(kinds) if kind == "human"}
    seats: dict[int, str] = {}
    for key, token in seats_raw.items():
        at = f"{where}.seats.{key}"
        if not (key.isascii() and key.isdigit()) or int(key) >= len(kinds):
            raise check.fail(at, key, f"expected a player number 0…{len(kinds) - 1} as the key")
        if int(key) not in humans:
            raise check.fail(at, key, f"expected a human player (player {int(key)} is a "
                                      f"{kinds[int(key)]} bot)")
        seats[int(key)] = _token(check, at, token)
    missing = sorted(humans - set(seats))
    if missing:
        raise check.fail(f"{where}.seats", seats_raw,
                         f"expected a token for every human player (none for {missing[0]})")
    watch = _token(check, f"{where}.watch", check.field(raw, "watch", where))
    owners: dict[str, str] = {}
    for key, token in [*((f"{where}.seats.{p}", t) for p, t in seats.items()),
                       (f"{where}.watch", watch)]:
        if token in owners:
            raise check.fail(key, token, f"expected a token of its own ({owners[token]} "
                                         "has the same)")
        owners[token] = key
    return HostTokens(seats, watch)


def _token(check: _Check, key: str, raw: object) -> str:
    if not isinstance(raw, str) or len(raw) < MIN_TOKEN or len(raw) > MAX_TEXT or \
            not TOKEN_ALPHABET.issuperset(raw):
        raise check.fail(key, raw, f"expected a secret token: {MIN_TOKEN} to {MAX_TEXT} "
                                   "characters of A-Z, a-z, 0-9, - and _ (128 bits or more)")
    return raw


def _moment(check: _Check, raw: object) -> datetime | None:
    """When the match began: an ISO time with its zone, or absent."""
    if raw is None:
        return None
    text = check.text("meta.started_at", raw)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise check.fail("meta.started_at", raw, "expected a time such as "
                         "2026-05-01T18:30:00+00:00")
    return moment


def _points_by_round(check: _Check, raw: object, players: int,
                     round_no: int) -> list[list[int | None]]:
    """Each finished round's points by player (null: out of the match by then)."""
    if not isinstance(raw, list) or len(raw) >= round_no:
        raise check.fail("meta.points_by_round", raw,
                         f"expected a list of fewer than {round_no} rounds")
    rows: list[list[int | None]] = []
    for i, row in enumerate(raw):
        key = f"meta.points_by_round[{i}]"
        if not isinstance(row, list) or len(row) != players:
            raise check.fail(key, row, f"expected {players} entries, one per player")
        rows.append([None if v is None else check.integer(f"{key}[{j}]", v, 0, MAX_SCORE)
                     for j, v in enumerate(row)])
    return rows


def _names(check: _Check, raw: object) -> list[str]:
    if not isinstance(raw, list) or not 2 <= len(raw) <= 10:
        raise check.fail("meta.names", raw, "expected a list of 2 to 10 names")
    for i, name in enumerate(raw):
        why = name_problem(name) if isinstance(name, str) else "expected a name"
        if why is not None:
            raise check.fail(f"meta.names[{i}]", name, why)
    if len(set(raw)) != len(raw):
        raise check.fail("meta.names", raw, "every name must differ")
    return list(raw)


def _active(check: _Check, raw: object, players: int, seats: int) -> list[int]:
    """The players in the round's seats: distinct, in the order of the names."""
    if not isinstance(raw, list) or len(raw) != seats:
        raise check.fail("meta.match.active", raw,
                         f"expected {seats} players, one per seat of the round")
    active = [check.integer(f"meta.match.active[{i}]", p, 0, players - 1)
              for i, p in enumerate(raw)]
    if any(a >= b for a, b in itertools.pairwise(active)):
        raise check.fail("meta.match.active", raw, "expected players in increasing order")
    return active
