"""The engine behaves as recorded: legal actions, refusals and outcomes of seeded random
games under random house rules (:mod:`tests.uno_attack.engine_trace`) hash to the digests
recorded before its house rules became hooks, re-recorded only where a change meant to alter
behaviour did (the refusal of a second press under ``until_playable`` no longer offers a pass)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.uno_attack.engine_trace import CASES, trace

RECORDED = json.loads((Path(__file__).parent / "data" / "engine_trace.json").read_text())


def test_every_case_is_recorded() -> None:
    assert sorted(map(int, RECORDED)) == list(range(CASES))


@pytest.mark.parametrize("case", range(CASES))
def test_same_game_as_recorded(case: int) -> None:
    assert trace(case) == RECORDED[str(case)]
