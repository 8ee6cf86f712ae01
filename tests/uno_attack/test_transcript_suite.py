"""The rule conformance suite: every transcript in tests/transcripts and in the shared examples.

Each transcript is replayed through the engine's Python API (fast, one test per file); one more
test runs the real ``python -m uno_attack replay`` command over all of them. The suite itself is
checked too: enough files, unique names, and every section 1-9 of RULES.md named as "§N".
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
SUITE = PROJECT / "tests" / "transcripts"
SHARED_ROOT = Path(__file__).resolve().parents[3] / "shared"
SHARED = SHARED_ROOT / "transcripts"
RULES = SHARED_ROOT / "RULES.md"

SUITE_FILES = sorted(SUITE.glob("*.json"))
SHARED_FILES = sorted(SHARED.glob("*.json")) if SHARED.is_dir() else []
ALL_FILES = SUITE_FILES + SHARED_FILES


def _id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.name}"


def _names() -> dict[Path, str]:
    return {path: json.loads(path.read_text(encoding="utf-8"))["name"] for path in SUITE_FILES}


def test_shared_transcripts_present() -> None:
    assert SHARED.is_dir(), f"shared transcript folder missing: {SHARED}"
    assert SHARED_FILES, f"no *.json transcripts in {SHARED}"


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_transcript_replays(path: Path) -> None:
    from uno_attack.replay import replay
    from uno_attack.transcript import load

    result = replay(load(path))
    assert result.passed, f"{path}:\n{result.failure}"


def test_replay_command_over_every_transcript() -> None:
    assert SUITE_FILES, f"no transcripts in {SUITE}"
    assert SHARED_FILES, f"no transcripts in {SHARED}"
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
    assert len(SUITE_FILES) >= 40, f"only {len(SUITE_FILES)} transcripts in {SUITE}"
    seen: dict[str, Path] = {}
    for path, name in _names().items():
        assert isinstance(name, str), f"{path}: name is not a string"
        assert name.strip(), f"{path}: empty name"
        assert name not in seen, f"{path} and {seen[name]} share the name {name!r}"
        seen[name] = path


def test_every_rules_section_is_named() -> None:
    assert RULES.is_file(), f"RULES.md missing: {RULES}"
    headings = {
        int(m.group(1))
        for m in re.finditer(r"^## (\d+)\.", RULES.read_text(encoding="utf-8"), re.MULTILINE)
    }
    sections = {n for n in headings if 1 <= n <= 9}
    assert sections == set(range(1, 10)), f"RULES.md section headings found: {sorted(headings)}"
    names = list(_names().values())
    missing = [n for n in sorted(sections) if not any(re.search(rf"§{n}(?!\d)", s) for s in names)]
    assert not missing, f"no transcript name mentions §{', §'.join(map(str, missing))}"
