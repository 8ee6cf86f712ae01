"""An elimination match goes on after a round that knocks a player out, also after a resume."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import deal, make_app, run, settle, table
from uno_attack.cli.play import build_app
from uno_attack.options import Options
from uno_attack.session import GameConfig, Session
from uno_attack.transcript import Transcript
from uno_attack.tui.screens.scoreboard import ScoreboardScreen

ELIMINATION = Options(match="elimination", target=10)


def knockout() -> Transcript:
    """You go out with R5; Ada keeps 17 points (out at 10); Ben and Cleo stay in with 1."""
    return deal(["R5", "G9 G8", "Y1", "B1"], "R3")


def test_the_session_names_a_finished_rounds_seats_after_an_elimination(tmp_path: Path) -> None:
    session = Session(GameConfig(launcher="fixed:1", seed=1, save=tmp_path / "g.json",
                                 options=ELIMINATION))
    session.use_deal(knockout())
    session.perform(session.game.legal_actions()[0])
    result = session.finish_round()
    assert result.eliminated == (1,)
    assert not session.match.over
    assert [session.seat_name(s) for s in range(4)] == ["You", "Ada", "Ben", "Cleo"]
    session.start_round()
    assert [session.seat_name(s) for s in range(3)] == ["You", "Ben", "Cleo"]
    assert session.human_seats == [0]


def _scoreboard_then_next_round(app: Any) -> Any:
    async def body(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: isinstance(app.screen, ScoreboardScreen))
        board = app.screen
        assert [line.name for line in board.board.lines] == ["You", "Ada", "Ben", "Cleo"]
        assert [line.out for line in board.board.lines] == [False, True, False, False]
        assert board.board.winner is None
        await pilot.press("enter")
        await settle(pilot)
        assert table(app).session.match.round_no == 2
        assert table(app).session.game.players == 3
        names = [table(app).session.seat_name(s) for s in range(3)]
        assert names == ["You", "Ben", "Cleo"]

    return body


def test_the_scoreboard_and_the_next_round_after_an_elimination(tmp_path: Path) -> None:
    app = make_app(tmp_path, options=ELIMINATION, the_deal=knockout())

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        await _scoreboard_then_next_round(app)(pilot)

    run(body, app)


def test_resuming_the_eliminating_round_goes_on_too(tmp_path: Path) -> None:
    first = make_app(tmp_path, options=ELIMINATION, the_deal=knockout())

    async def finish(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        await settle(pilot, lambda: isinstance(first.screen, ScoreboardScreen))

    run(finish, first)  # left at the scoreboard, as after a crash there
    again = build_app(["--resume", "--save", str(tmp_path / "game.json"), "--pace", "instant",
                       "--bot-delay", "0"])
    run(_scoreboard_then_next_round(again), again)
