"""The rule conformance suite: every transcript in tests/transcripts and in the shared examples
(../shared/transcripts and its variants/).

Each transcript is replayed through the engine's Python API (fast, one test per file); one more
test runs the real ``python -m uno_attack replay`` command over all of them. The suite itself is
checked too: enough files, unique names, and coverage of every section of RULES.md and
VARIANTS.md that can fail: each section needs transcripts (named after it) whose steps really
exercise its rule, found by replaying them and looking at what happened, and a refused action
whose reason cites the section where the rule forbids something.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from uno_attack.actions import Action, Verb
from uno_attack.engine import Applied, Phase, Round
from uno_attack.options import OPTION_SPECS, Options
from uno_attack.penalties import Why
from uno_attack.transcript import ActionStep, ExpectStep, RejectStep, Transcript, load

PROJECT = Path(__file__).resolve().parents[2]
SUITE = PROJECT / "tests" / "transcripts"
SHARED_ROOT = Path(__file__).resolve().parents[3] / "shared"
SHARED = SHARED_ROOT / "transcripts"
SHARED_VARIANTS = SHARED / "variants"
RULES = SHARED_ROOT / "RULES.md"
VARIANTS = SHARED_ROOT / "VARIANTS.md"

SUITE_FILES = sorted(SUITE.glob("*.json"))
SHARED_FILES = sorted(SHARED.glob("*.json")) if SHARED.is_dir() else []
VARIANT_FILES = sorted(SHARED_VARIANTS.glob("*.json")) if SHARED_VARIANTS.is_dir() else []
ALL_FILES = SUITE_FILES + SHARED_FILES + VARIANT_FILES


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _names() -> dict[Path, str]:
    return {path: json.loads(path.read_text(encoding="utf-8"))["name"] for path in SUITE_FILES}


def test_shared_transcripts_present() -> None:
    assert SHARED.is_dir(), f"shared transcript folder missing: {SHARED}"
    assert SHARED_FILES, f"no *.json transcripts in {SHARED}"
    assert VARIANT_FILES, f"no *.json transcripts in {SHARED_VARIANTS}"


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_transcript_replays(path: Path) -> None:
    from uno_attack.replay import replay

    result = replay(load(path))
    assert result.passed, f"{path}:\n{result.failure}"


def test_replay_command_over_every_transcript() -> None:
    assert SUITE_FILES, f"no transcripts in {SUITE}"
    paths = [str(p) for p in ALL_FILES]
    done = subprocess.run(
        [sys.executable, "-m", "uno_attack", "replay", *paths],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    assert lines, f"replay printed nothing; stderr:\n{done.stderr}"
    assert lines[-1] == f"{len(paths)} passed, 0 failed", done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr


def test_suite_size_and_unique_names() -> None:
    assert len(SUITE_FILES) >= 200, f"only {len(SUITE_FILES)} transcripts in {SUITE}"
    seen: dict[str, Path] = {}
    for path, name in _names().items():
        assert isinstance(name, str), f"{path}: name is not a string"
        assert name.strip(), f"{path}: empty name"
        assert name not in seen, f"{path} and {seen[name]} share the name {name!r}"
        seen[name] = path


# -- coverage: what each transcript's steps really do -----------------------------------
@dataclass(frozen=True)
class Done:
    """One action as it was applied, with what the round looked like just before."""

    action: Action
    applied: Applied
    turn: int              # the seat in turn before it
    owed_by: int | None    # who owed the first penalty before it
    after: Phase           # the phase after it


@dataclass
class Trace:
    transcript: Transcript
    done: list[Done] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)  # the reasons rejected actions got
    scored: bool = False     # an expectation checked the round's points or the match
    game: Round | None = None

    @property
    def options(self) -> Options:
        return self.transcript.options

    def kinds(self, pick: Callable[[Done], bool]) -> bool:
        return any(pick(d) for d in self.done)


@cache
def trace(path: Path) -> Trace:
    """Replay a transcript step by step, noting every action and every refusal's reason."""
    transcript = load(path)
    game = transcript.new_round()
    fires = iter(transcript.fires)
    shuffle = transcript.reload_shuffler()
    result = Trace(transcript, game=game)
    for step in transcript.steps:
        if isinstance(step, ActionStep):
            owed_by = game.owed[0].seat if game.owed else None
            turn = game.turn
            fired = next(fires) if step.action.verb is Verb.PRESS else None
            applied = game.apply(step.action, fired=fired, shuffle=shuffle)
            result.done.append(Done(step.action, applied, turn, owed_by, game.phase))
        elif isinstance(step, RejectStep):
            reason = (game.illegal_reason(step.action) if step.action is not None
                      else f"invalid: {step.text}")
            assert reason is not None, f"{path}: {step.text} was not refused"
            result.refusals.append(reason)
        elif isinstance(step, ExpectStep):
            keys = set(step.expect)
            result.scored |= bool(keys & {"round_points", "scores", "match_winner"})
    return result


def _is_answer(t: Trace, d: Done, *, stack: bool) -> bool:
    if d.action.verb is not Verb.PLAY or d.owed_by != d.action.seat or t.game is None:
        return False
    kind = t.game.kind(d.action.cards[0])
    return kind.penalty is not None if stack else kind.deflects


def _classic(t: Trace) -> bool:
    return t.options.rules == "classic"


#: What a transcript of each VARIANTS.md section must show it did (beyond setting the
#: section's options, checked from its heading).
EXERCISES: dict[str, Callable[[Trace], bool]] = {
    "A1": lambda t: _classic(t) or any("classic" in r or "Attack" in r for r in t.refusals)
    or t.transcript.rest == "canonical",
    "A2": lambda t: _classic(t) and t.kinds(lambda d: d.action.verb is Verb.DRAW),
    "A3": lambda t: _classic(t) and (len(t.transcript.starter) > 1 or t.transcript.starter[-1]
                                     .code[1:] in ("S", "R", "+2", "") or t.transcript.starter[-1]
                                     .code == "W"),
    "A4": lambda t: _classic(t) and t.kinds(lambda d: d.action.verb in (Verb.PLAY, Verb.DRAW)),
    "A5": lambda t: _classic(t) and t.kinds(
        lambda d: d.action.verb is Verb.PLAY and d.action.cards[0].code == "W+4"),
    "A6": lambda t: _classic(t) and (t.scored or t.kinds(lambda d: d.action.verb is Verb.CATCH)),
    "B1": lambda t: t.kinds(lambda d: _is_answer(t, d, stack=True)) or bool(t.refusals),
    "B2": lambda t: t.kinds(lambda d: d.action.verb is Verb.PLAY and d.owed_by is None
                            and d.action.seat != d.turn),
    "B3": lambda t: t.kinds(lambda d: len(d.action.cards) > 1)
    or any("B3" in r for r in t.refusals),
    "B4": lambda t: t.kinds(lambda d: bool(d.applied.hands) and d.action.verb is Verb.PLAY)
    or any("B4" in r for r in t.refusals),
    "B5": lambda t: t.kinds(lambda d: d.after in (Phase.CHAIN, Phase.AFTER))
    or any("B5" in r for r in t.refusals),
    "B6": lambda t: t.kinds(lambda d: _is_answer(t, d, stack=False))
    or any("B6" in r for r in t.refusals),
    "B7": lambda t: any("B7" in r for r in t.refusals) or t.kinds(lambda d: d.applied.winner
                                                                    is not None),
    "B8": lambda t: t.kinds(lambda d: any(o.cause.why in (Why.FALSE_UNO, Why.FALSE_CATCH) or (
        o.cause.why is Why.CATCH and o.count != 2) for o in d.applied.owed))
    or any("B8" in r for r in t.refusals),
    "B9": lambda t: t.kinds(lambda d: d.action.verb is Verb.OUT)
    or any("B9" in r for r in t.refusals),
    "B10": lambda t: t.scored,
    "B11": lambda t: t.scored,
    "B12": lambda t: bool(t.done or t.refusals),
    "B13": lambda t: any(re.search(r"B13|E17", r) for r in t.refusals)
    or t.kinds(lambda d: d.action.verb in (Verb.PRESS, Verb.DRAW)),
    "B14": lambda t: t.kinds(lambda d: d.action.verb is Verb.PLAY
                             and d.action.cards[0].code == "W+4")
    or any("B14" in r for r in t.refusals),
}
#: Sections whose rule forbids something: one of their refusals must cite them.
FORBIDDING = {"A1", "A2", "A3", "A4", "A5", "A6", *(f"B{n}" for n in range(1, 15))} - {
    "B10", "B11", "B12"}


def _variant_sections() -> dict[str, list[tuple[str, str | None]]]:
    """VARIANTS.md's A and B sections with the options each heading names, and the value
    where it names one (`match = net`)."""
    text = VARIANTS.read_text(encoding="utf-8")
    sections: dict[str, list[tuple[str, str | None]]] = {}
    for match in re.finditer(r"^### ([AB]\d+)\. (.*)$", text, re.MULTILINE):
        named = re.findall(r"`(\w+)(?: = (\w+))?`", match.group(2))
        sections[match.group(1)] = [(n, v or None) for n, v in named if n in OPTION_SPECS]
    return sections


def _sets_options(t: Trace, names: list[tuple[str, str | None]]) -> bool:
    """A transcript of the section uses one of its options (at the value it names)."""
    if not names:
        return True
    return any(getattr(t.options, n) == v if v is not None
               else getattr(t.options, n) != OPTION_SPECS[n].default for n, v in names)


@pytest.mark.parametrize("section", list(_variant_sections()))
def test_every_variants_section_is_exercised(section: str) -> None:
    names = _variant_sections()[section]
    files = [p for p in ALL_FILES if p.name.startswith(f"{section}-")]
    traces = [trace(p) for p in files]
    doing = [p.name for p, t in zip(files, traces, strict=True)
             if _sets_options(t, names) and EXERCISES[section](t)]
    assert len(doing) >= 3, (f"{section}: only {doing} of {[p.name for p in files]} set "
                             f"{names or 'rules=classic'} and exercise the rule")
    if section in FORBIDDING:
        cite = re.compile(rf"\b{section}\b|invalid: ")
        assert any(cite.search(r) for t in traces for r in t.refusals), (
            f"{section}: no refused action whose reason cites {section}")


def test_the_sections_found_are_all_of_variants() -> None:
    assert list(_variant_sections()) == [*(f"A{n}" for n in range(1, 7)),
                                         *(f"B{n}" for n in range(1, 15))]
    assert _variant_sections()["B1"] == [("stacking", None)]
    assert _variant_sections()["B11"] == [("match", "net"), ("rounds", None)]
    assert {n for n, _ in _variant_sections()["B8"]} == {"uno_penalty", "false_uno_penalty",
                                                          "false_catch_penalty"}


#: What a transcript of each RULES.md section must show it did.
RULE_EXERCISES: dict[int, Callable[[Trace], bool]] = {
    1: lambda t: t.transcript.rest == "canonical" or t.scored,
    2: lambda t: len({d.turn for d in t.done}) >= 2,
    3: lambda t: not t.done or t.transcript.starter[-1].code[1:] != t.transcript.starter[-1].code,
    4: lambda t: t.kinds(lambda d: d.action.verb in (Verb.PLAY, Verb.PRESS)),
    5: lambda t: t.kinds(lambda d: d.action.verb is Verb.PLAY and t.game is not None
                         and not t.game.kind(d.action.cards[0]).plain),
    6: lambda t: t.kinds(lambda d: d.action.verb is Verb.PRESS),
    7: lambda t: t.kinds(lambda d: d.action.verb in (Verb.UNO, Verb.CATCH) or d.action.uno)
    or any("RULES.md 7" in r for r in t.refusals),
    8: lambda t: t.scored,
    9: lambda t: bool(t.options.to_dict()),
}


@pytest.mark.parametrize("section", list(RULE_EXERCISES))
def test_every_rules_section_is_exercised(section: int) -> None:
    headings = {int(m.group(1)) for m in re.finditer(r"^## (\d+)\.", RULES.read_text("utf-8"),
                                                     re.MULTILINE)}
    assert section in headings
    files = [p for p in SUITE_FILES if p.name.startswith(f"s{section}-")]
    doing = [p.name for p in files if RULE_EXERCISES[section](trace(p))]
    assert len(doing) >= 3, f"§{section}: only {doing} of {[p.name for p in files]} exercise it"
    if section in (3, 4, 5, 7):
        cite = re.compile(rf"RULES\.md {section}\b")
        assert any(cite.search(r) for p in files for r in trace(p).refusals), (
            f"§{section}: no refused action whose reason cites RULES.md {section}")
