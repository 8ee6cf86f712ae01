"""Replaying a transcript: play its steps and check every expectation.

Each press fires the transcript's next ``fires`` number and each reload takes its next
``reloads`` order, handed straight to the engine (no launcher object is involved). The
round's points, the match totals and the match winner are scored as the match scores them
(:func:`uno_attack.scoring.score_round`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from uno_attack.actions import Action, Verb
from uno_attack.engine import Applied, Round
from uno_attack.errors import IllegalActionError, TranscriptError
from uno_attack.scoring import RoundResult
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
@dataclass(frozen=True)
class _View:
    """The round under replay, and its score once it is over."""

    game: Round
    result: RoundResult | None


def _legal(view: _View) -> list[str]:
    return sorted({a.text(seat=False, uno=False) for a in view.game.listed_actions()})


def _match_winner(view: _View) -> Any:
    winner = view.result.match_winner if view.result else None
    return list(winner) if isinstance(winner, tuple) else winner


READERS: dict[str, Callable[[_View], Any]] = {
    "turn": lambda v: v.game.to_act,
    "top": lambda v: v.game.top.code,
    "color": lambda v: v.game.color.label if v.game.color else None,
    "direction": lambda v: v.game.direction_name,
    "hand_sizes": lambda v: [len(h) for h in v.game.hands],
    "launcher_size": lambda v: len(v.game.stock),
    "discard_size": lambda v: len(v.game.discard),
    "owed": lambda v: v.game.owed_list(),
    "legal": _legal,
    "winner": lambda v: v.game.winner,
    "round_points": lambda v: list(v.result.round_points) if v.result else None,
    "scores": lambda v: list(v.result.scores) if v.result else None,
    "match_winner": _match_winner,
}


def check_expectations(game: Round, expect: Mapping[str, Any],
                       result: RoundResult | None = None) -> list[tuple[str, Any, Any]]:
    """The (key, expected, found) of every expectation that does not hold; ``result`` is
    the round's score once it is over."""
    view = _View(game, result)
    wrong: list[tuple[str, Any, Any]] = []
    for key, expected in expect.items():
        if key == "hands":
            for seat_text, cards in expected.items():
                seat = int(seat_text) if seat_text.isascii() and seat_text.isdigit() else -1
                found = ([c.code for c in game.hands[seat]]
                         if 0 <= seat < game.players else None)
                if found is None or not isinstance(cards, list) or Counter(cards) != Counter(found):
                    wrong.append((f"hands.{seat_text}", cards, found))
            continue
        found = READERS[key](view)
        if key == "legal" and isinstance(expected, list):
            ok = sorted(set(expected)) == found and len(set(expected)) == len(expected)
        elif key == "match_winner" and isinstance(expected, list) and isinstance(found, list):
            ok = sorted(expected) == sorted(found)
        else:
            ok = expected == found
        if not ok:
            wrong.append((key, expected, found))
    return wrong


#: Told of each action as it is made: the action, the seat that was to act before it,
#: what it did, and the round after it.
OnAction = Callable[[Action, int | None, Applied, Round], None]


def replay(transcript: Transcript, *, on_action: OnAction | None = None) -> ReplayResult:
    """Play a transcript's steps and stop at the first step that does not hold;
    ``on_action`` follows the actions (a screen that shows the round step by step)."""
    game = transcript.new_round()
    result = ReplayResult(transcript, game)
    fires = iter(transcript.fires)
    shuffle = transcript.reload_shuffler()
    for position, step in enumerate(transcript.steps, start=1):
        result.steps_run = position
        failure = _run_step(transcript, game, step, position, fires, shuffle, result,
                            on_action)
        if failure is not None:
            result.failure = failure
            break
    return result


def _run_step(transcript: Transcript, game: Round, step: object, position: int, fires: Any,
              shuffle: Any, result: ReplayResult,
              on_action: OnAction | None = None) -> Failure | None:
    if isinstance(step, ActionStep):
        action = step.action
        reason = game.illegal_reason(action)
        if reason is not None:
            return Failure(position, step.text, f"illegal: {reason}")
        fired: int | None = 0
        if action.verb is Verb.PRESS:
            fired = next(fires, None)
            if fired is None:
                return Failure(position, step.text,
                               f"fires ran out: the transcript lists {result.presses} "
                               "and this press needs one more")
            result.presses += 1
        to_act = game.to_act
        try:
            applied = game.apply(action, fired=fired, shuffle=shuffle)
        except TranscriptError as exc:
            return Failure(position, step.text, str(exc))
        if on_action is not None:
            on_action(action, to_act, applied, game)
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
    wrong = check_expectations(game, step.expect, transcript.score(game))
    if wrong:
        key, expected, found = wrong[0]
        more = f" (and {len(wrong) - 1} more: {', '.join(k for k, _, _ in wrong[1:])})" \
            if len(wrong) > 1 else ""
        return Failure(position, step.text, f"'{key}' does not hold{more}", expected, found)
    return None
