"""Replaying a transcript: play its steps with a scripted launcher and check every expectation."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from uno_attack.actions import Verb
from uno_attack.engine import Round
from uno_attack.errors import IllegalActionError, TranscriptError
from uno_attack.transcript import ActionStep, ExpectStep, RejectStep, Transcript


@dataclass(frozen=True)
class Failure:
    """Where and why a replay failed: the step's position (from 1), its text, and the detail."""

    position: int
    step: str
    detail: str
    expected: Any = None
    found: Any = None

    def __str__(self) -> str:
        text = f"step {self.position}: {self.step}\n    {self.detail}"
        if self.expected is not None or self.found is not None:
            text += f"\n    expected: {_show(self.expected)}\n    found:    {_show(self.found)}"
        return text


@dataclass
class ReplayResult:
    transcript: Transcript
    round: Round
    failure: Failure | None = None
    steps_run: int = 0
    presses: int = 0
    mismatches: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.failure is None


def _show(value: object) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


# -- what each expectation key reads off the round ------------------------------------
def _legal(game: Round) -> list[str]:
    return sorted({a.text(seat=False, uno=False) for a in game.legal_actions()})


def _match_winner(game: Round) -> Any:
    winner = game.result.match_winner if game.result else None
    return list(winner) if isinstance(winner, tuple) else winner


READERS: dict[str, Callable[[Round], Any]] = {
    "turn": lambda g: g.to_act,
    "top": lambda g: g.top.code,
    "color": lambda g: g.color.label if g.color else None,
    "direction": lambda g: g.direction_name,
    "hand_sizes": lambda g: [len(h) for h in g.hands],
    "launcher_size": lambda g: len(g.launcher),
    "discard_size": lambda g: len(g.discard),
    "owed": lambda g: g.owed_list(),
    "legal": _legal,
    "winner": lambda g: g.winner,
    "round_points": lambda g: list(g.result.round_points) if g.result else None,
    "scores": lambda g: list(g.result.scores) if g.result else None,
    "match_winner": _match_winner,
}


def check_expectations(game: Round, expect: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """The (key, expected, found) of every expectation that does not hold."""
    wrong: list[tuple[str, Any, Any]] = []
    for key, expected in expect.items():
        if key == "hands":
            for seat_text, cards in expected.items():
                seat = int(seat_text) if str(seat_text).isdigit() else -1
                found = ([c.code for c in game.hands[seat]]
                         if 0 <= seat < game.players else None)
                if found is None or not isinstance(cards, list) or Counter(cards) != Counter(found):
                    wrong.append((f"hands.{seat_text}", cards, found))
            continue
        found = READERS[key](game)
        if key == "legal" and isinstance(expected, list):
            ok = sorted(set(expected)) == found and len(set(expected)) == len(expected)
        elif key == "match_winner" and isinstance(expected, list) and isinstance(found, list):
            ok = sorted(expected) == sorted(found)
        else:
            ok = expected == found
        if not ok:
            wrong.append((key, expected, found))
    return wrong


def replay(transcript: Transcript) -> ReplayResult:
    """Play a transcript's steps and stop at the first step that does not hold."""
    game = transcript.new_round()
    result = ReplayResult(transcript, game)
    fires = iter(transcript.fires)
    shuffle = transcript.reload_shuffler()
    for position, step in enumerate(transcript.steps, start=1):
        result.steps_run = position
        failure = _run_step(game, step, position, fires, shuffle, result)
        if failure is not None:
            result.failure = failure
            break
    return result


def _run_step(game: Round, step: object, position: int, fires: Any, shuffle: Any,
              result: ReplayResult) -> Failure | None:
    if isinstance(step, ActionStep):
        action = step.action
        reason = game.illegal_reason(action)
        if reason is not None:
            return Failure(position, step.text, f"illegal: {reason}")
        fired = 0
        if action.verb is Verb.PRESS:
            fired = next(fires, None)
            if fired is None:
                return Failure(position, step.text,
                               f"fires ran out: the transcript lists {result.presses} "
                               "and this press needs one more")
            result.presses += 1
        try:
            game.apply(action, fired=fired, shuffle=shuffle)
        except TranscriptError as exc:
            return Failure(position, step.text, str(exc))
        return None
    if isinstance(step, RejectStep):
        if step.action is None:
            return None  # not even a well-formed action: refused
        before = game.snapshot()
        try:
            game.apply(step.action, fired=0)
        except IllegalActionError:
            if game.snapshot() != before:
                return Failure(position, step.text, "the refused action changed the game")
            return None
        return Failure(position, step.text, "the action was accepted, but must be refused")
    assert isinstance(step, ExpectStep)
    wrong = check_expectations(game, step.expect)
    if wrong:
        key, expected, found = wrong[0]
        more = f" (and {len(wrong) - 1} more: {', '.join(k for k, _, _ in wrong[1:])})" \
            if len(wrong) > 1 else ""
        return Failure(position, step.text, f"'{key}' does not hold{more}", expected, found)
    return None
