"""Whole rounds of ``uno-attack play`` on the emulated hardware launchers.

The real GPIO driver on gpiozero's mock pins and the real serial host talking through a
pty to the firmware on a simulated board, both faster than real time; the round is
played by keys to the scoreboard and its journal replays.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import make_app, run, table
from tests.tui.test_rounds import play_round_by_keys
from uno_attack.launcher import open_launcher
from uno_attack.replay import replay
from uno_attack.transcript import load

LAUNCHERS = {
    "gpio:emulated": lambda: open_launcher("gpio:emulated,scale=100", seed=3),
    "serial:emulated": lambda: open_launcher("serial:emulated", seed=3,
                                             config={"time_scale": 100.0}),
}


@pytest.mark.parametrize("spec", sorted(LAUNCHERS))
def test_a_whole_round_on_emulated_hardware(tmp_path: Path, spec: str) -> None:
    launcher = LAUNCHERS[spec]()
    # a short round: 28 actions, 8 of them presses, 3 of which fire cards past the beam
    app = make_app(tmp_path, launcher=spec, seed=2, players=3, launcher_object=launcher)
    fires: list[int] = []

    async def body(pilot: Pilot[Any]) -> None:
        await play_round_by_keys(pilot, app)
        game = table(app).session.game
        assert game.over
        fires.extend(table(app).session.table.record.fires)

    try:
        run(body, app)
    finally:
        launcher.close()
    assert launcher.closed
    assert 0 in fires
    assert any(fired > 0 for fired in fires)  # the closed loop counted cards out
    result = replay(load(tmp_path / "game.json"))
    assert result.passed, result.failure
