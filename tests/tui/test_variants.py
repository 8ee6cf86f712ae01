"""The terminal game under other rules: a classic round by keyboard (Space draws)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import log_text, make_app, run
from tests.tui.test_rounds import play_round_by_keys
from uno_attack.options import Options


def test_a_classic_round_by_keyboard(tmp_path: Path) -> None:
    app = make_app(tmp_path, launcher="sim", seed=3, players=3,
                   options=Options(rules="classic", stacking="up"))

    async def body(pilot: Pilot[Any]) -> None:
        board = await play_round_by_keys(pilot, app)
        assert board.lines
        assert " drew " in log_text(app)
        assert app.session.table is not None
        assert app.session.table.record.fires == []  # classic draws use no fires

    run(body, app)
