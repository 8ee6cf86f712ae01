"""Snapshots of every screen (pytest-textual-snapshot); update with ``--snapshot-update``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import deal, make_app, save_a_game, settle
from tests.tui.test_sorted_hand import BIG
from tests.tui.test_watch import _bot_round
from uno_attack.cli.play import build_app
from uno_attack.cli.watch import watch_app
from uno_attack.config import settings_path
from uno_attack.journal import SaveFailure
from uno_attack.options import Options
from uno_attack.rules import CLASSIC
from uno_attack.saved_game import read_saved_game
from uno_attack.session import GameConfig, Session
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.local import LocalTable
from uno_attack.tui.screens.dialogs import SaveProblemScreen
from uno_attack.tui.screens.start import SavedGameOffer

HANDS_4 = ["WA RT R5 B7 G2 YS Y9 RH", "G1 G2 G3 G4 G5", "Y1 Y2 Y3 Y4", "B1 B2 B3"]


def _settled(*keys: str) -> Callable[[Pilot[Any]], Any]:
    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return before


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_table(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, the_deal=deal(HANDS_4, "R3"))
    assert snap_compare(app, terminal_size=size, run_before=_settled())


def test_a_sorted_30_card_hand(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, sorted_hand=True,
                   the_deal=deal([" ".join(BIG), "Y1 Y2 " + " ".join(["G1"] * 10)], "R3"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled("end"))


def test_first_run(snap_compare: Any, tmp_path: Path) -> None:
    settings_path().unlink()
    app = build_app(["--save", str(tmp_path / "game.json"), "--no-record"])
    assert snap_compare(app, terminal_size=(80, 24), press=["A", "n", "n"])


def test_watching_a_round(snap_compare: Any) -> None:
    assert snap_compare(watch_app(_bot_round(), source="round"), terminal_size=(80, 24),
                        press=["right"] * 5)


def test_colour_picker(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(tmp_path, the_deal=deal(HANDS_4, "R3"))
    assert snap_compare(app, run_before=_settled("1"))


def test_seat_picker(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(tmp_path, the_deal=deal(HANDS_4, "R3"))
    assert snap_compare(app, run_before=_settled("2"))


def test_handoff(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(tmp_path, humans=("Ann", "Bob"), players=3,
                   the_deal=deal(["R5 G7 G8", "R6 B7 B8", "Y1 Y2 Y3"], "R3"))
    assert snap_compare(app, run_before=_settled())


def test_scoreboard(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(tmp_path, options=Options(target=100),
                   the_deal=deal(["R5", "G1 G2 WF", "Y1 RT Y3 Y4", "B1 B2 BD"], "R3"))
    assert snap_compare(app, run_before=_settled("1"))


def test_help(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(tmp_path, the_deal=deal(HANDS_4, "R3"))
    assert snap_compare(app, terminal_size=(100, 40), run_before=_settled("question_mark"))


def test_save_problem(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(tmp_path, the_deal=deal(HANDS_4, "R3"))
    failure = SaveFailure(Path("/home/ann/.local/state/uno-attack/game.json"),
                          "No space left on device")

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        app.push_screen(SaveProblemScreen(failure))
        await pilot.pause()

    assert snap_compare(app, run_before=before)


def test_start_screen_offers_the_unfinished_game(snap_compare: Any, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save_a_game(save)
    saved = replace(read_saved_game(save), path=Path("/home/ann/.local/state/uno-attack/game.json"))
    config = GameConfig(save=save)
    offer = SavedGameOffer(saved, resume=lambda: LocalTable(Session(config)))
    assert snap_compare(UnoAttackApp(offer=offer))


def test_new_game_screen(snap_compare: Any, tmp_path: Path) -> None:
    from uno_attack.cli.play import build_app

    app = build_app(["--save", str(tmp_path / "game.json"), "--no-record", "--seed", "1",
                     "--preset", "party"])
    assert snap_compare(app, terminal_size=(80, 24))


def test_classic_table_with_a_stack_owed(snap_compare: Any, tmp_path: Path) -> None:
    """The draw pile (no tension), what is owed and why, the ✓ card that may answer, and
    the footer's Draw."""
    app = make_app(tmp_path, players=3, launcher="sim",
                   options=Options(rules="classic", stacking="same", multi_play="numbers"),
                   the_deal=deal(["B+2 Y4 Y5 G4", "R+2 G9", "G+2 B8"], "R3", dealer=0,
                                 rules=CLASSIC, launcher="Y1 Y2 Y3 Y6 Y7 Y8 Y9 G1"))
    assert snap_compare(app, terminal_size=(100, 30), run_before=_settled())
