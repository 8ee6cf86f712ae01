"""Seeded mutation of real transcripts and a real save: every mutant either loads (and
replays, or resumes) or is refused with the project's one error naming the file (and,
inside the data, the key). No traceback, no hang; a sample goes through the real CLI."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tui.helpers import save_a_game
from uno_attack.cli.play import build_app
from uno_attack.errors import UnoAttackError
from uno_attack.replay import replay
from uno_attack.transcript import load

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT.parent / "shared" / "transcripts").glob("*.json")) + sorted(
    (ROOT / "tests" / "transcripts").glob("*.json"))[:20]
#: Faults of the whole file, which have no key to name.
FILE_FAULTS = ("not valid JSON", "not UTF-8 text", "a transcript is a JSON object",
               "is missing", "named more often than the deck", "not a game saved by")

ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 7, 2**31, 10**30, -(10**30), 0.5, 1e308, -1e308, "", " ",
    "R5", "W red", "9 press", "0 play R5 uno", "٣", "²", "１２", "nan", "\u202e", "x" * 5000,
    [], [[]], {}, {"expect": {}}, {"reject": 5}, ["R5", None], [1, 2, 3], {"scores": []},
    [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
]


def _paths(data: Any) -> list[tuple[Any, ...]]:
    """The path of every value inside ``data``, the top first (walked without recursion)."""
    paths: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        paths.append(path)
        if isinstance(value, dict):
            stack.extend((v, (*path, k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(value))
    return paths


def mutate(data: Any, rng: random.Random) -> Any:
    """One to three structural changes at random places of the data."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        paths = list(_paths(data))
        path = rng.choice(paths[1:] or paths)
        if not path:
            return copy.deepcopy(rng.choice(ODD_VALUES))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        kind = rng.random()
        if kind < 0.55:
            parent[last] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif kind < 0.75:
            del parent[last]
        elif kind < 0.85 and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif isinstance(parent, dict):
            parent[rng.choice(["colour", "seat", "meta", "match", "x"])] = copy.deepcopy(
                rng.choice(ODD_VALUES))
        else:
            parent[last] = [parent[last]]  # one level deeper
    return data


def mutate_bytes(raw: bytes, rng: random.Random) -> bytes:
    """A byte-level fault: a cut, a flipped byte, bytes that are not UTF-8, a NUL, a
    number of thousands of digits, nesting deeper than any parser's stack, a lone
    surrogate, a number JSON has no word for."""
    i = rng.randrange(len(raw))
    digit = next((j for j in range(i, len(raw)) if raw[j:j + 1].isdigit()), None)
    quote = raw.find(b'"', i)
    return rng.choice([
        raw[:i], raw[:i] + bytes([raw[i] ^ 0x80]) + raw[i + 1:],
        raw[:i] + b"\xff\xfe" + raw[i:], raw[:i] + b"\x00" + raw[i:],
        raw if digit is None else raw[:digit] + b"9" * 5000 + raw[digit:],
        raw if digit is None else raw[:digit] + b"[" * 50_000 + raw[digit:],
        raw if digit is None else raw[:digit] + b"NaN" + raw[digit + 1:],
        raw if quote < 0 else raw[:quote + 1] + b"\\ud800" + raw[quote + 1:],
    ])


def _mutants(source: bytes, seed: int, count: int) -> Iterator[bytes]:
    rng = random.Random(seed)
    data = json.loads(source)
    for _ in range(count):
        if rng.random() < 0.3:
            yield mutate_bytes(source, rng)
        else:
            yield json.dumps(mutate(data, rng)).encode()


def check_error(exc: UnoAttackError, path: Path) -> None:
    text = str(exc)
    assert text.startswith(f"{path}: ") or f" {path}" in text, text
    assert "key '" in text or any(f in text for f in FILE_FAULTS), text
    assert "\n" not in text, text


def _save(path: Path) -> bytes:
    save_a_game(path, presses=4)
    return path.read_bytes()


def test_mutated_transcripts_load_and_replay_or_say_why(tmp_path: Path) -> None:
    path = tmp_path / "mutant.json"
    loaded = refused = 0
    for n, example in enumerate(EXAMPLES):
        for mutant in _mutants(example.read_bytes(), n, 12):
            path.write_bytes(mutant)
            try:
                replay(load(path))
            except UnoAttackError as exc:
                check_error(exc, path)
                refused += 1
            else:
                loaded += 1
    assert loaded > 20  # the mutations reach both sides
    assert refused > 200


def test_mutated_saves_resume_or_say_why(tmp_path: Path) -> None:
    source = _save(tmp_path / "real.json")
    path = tmp_path / "game.json"
    resumed = refused = 0
    for mutant in _mutants(source, 99, 250):
        path.write_bytes(mutant)
        try:
            app = build_app(["--resume", "--save", str(path), "--bot-delay", "0"])
        except UnoAttackError as exc:
            check_error(exc, path)
            refused += 1
        else:
            app.close_table()
            resumed += 1
    assert resumed > 5
    assert refused > 150


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", *args], capture_output=True,
                          text=True, errors="backslashreplace", timeout=60,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("seed", range(3))
def test_a_sample_through_the_real_commands(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    example = EXAMPLES[rng.randrange(len(EXAMPLES))]
    transcript = tmp_path / "t.json"
    transcript.write_bytes(next(_mutants(example.read_bytes(), 1000 + seed, 1)))
    result = _cli("replay", str(transcript))
    assert result.returncode in (0, 1, 2), result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    if result.returncode == 2:
        assert len(result.stderr.strip().splitlines()) == 1
        assert str(transcript) in result.stderr

    save = tmp_path / "game.json"
    for mutant in _mutants(_save(tmp_path / "real.json"), 2000 + seed, 8):
        save.write_bytes(mutant)
        try:
            build_app(["--resume", "--save", str(save)]).close_session()
        except UnoAttackError:
            break  # a mutant the command refuses: see that it says so in one line
    else:
        raise AssertionError("no mutant of the save was refused: the sample tests nothing")
    result = _cli("play", "--resume", "--save", str(save))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(save) in result.stderr
