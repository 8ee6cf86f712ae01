"""The first run: it asks who plays at this keyboard, deals two presses later, and the
names are remembered (and changed from the new-game screen); a broken settings file is
one line naming it."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from tests.one_line import assert_one_line
from tests.tui.helpers import run, settle, table
from tests.tui.ptygame import PtyGame, game_env
from uno_attack.cli.play import build_app
from uno_attack.config import Settings, load_settings, settings_path
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.screens.names import NamesScreen
from uno_attack.tui.screens.newgame import NewGameScreen
from uno_attack.tui.screens.table import TableScreen


def _play(tmp_path: Path, *args: str) -> UnoAttackApp:
    return build_app(["--save", str(tmp_path / "game.json"), "--no-record", "--pace", "instant",
                      "--bot-delay", "0",
                      "--seed", "4", *args])


def test_a_first_run_asks_a_name_and_deals_two_presses_later(tmp_path: Path) -> None:
    settings_path().unlink()
    app = _play(tmp_path)

    async def body(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, NamesScreen)
        await pilot.press("enter")  # no name: asked again
        assert isinstance(app.screen, NamesScreen)
        assert "type at least one name" in str(app.screen.query_one("#names-problem").content)
        await pilot.press("A", "n", "n")
        presses = ["enter", "enter"]  # the name, then Start on the new-game screen
        await pilot.press(presses[0])
        await settle(pilot, lambda: isinstance(app.screen, NewGameScreen))
        assert app.screen.query_one("#people", Input).value == "Ann"
        await pilot.press(presses[1])
        await settle(pilot, lambda: isinstance(app.screen, TableScreen))
        assert table(app).session.names[0] == "Ann"
        assert len(presses) <= 3

    run(body, app, settled=False)
    assert load_settings() == Settings(names=("Ann",))


def test_the_names_are_remembered_and_changed_on_the_new_game_screen(tmp_path: Path) -> None:
    settings_path().write_text('names = ["Ann"]\n')
    app = _play(tmp_path)

    async def body(pilot: Pilot[Any]) -> None:
        top = app.screen
        assert isinstance(top, NewGameScreen)  # not asked again
        people = top.query_one("#people", Input)
        assert people.value == "Ann"
        people.value = "Ann, Bob"
        await settle(pilot, lambda: top.problem is None)
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.table is not None)
        assert table(app).session.config.humans == ["Ann", "Bob"]

    run(body, app, settled=False)
    assert load_settings().names == ("Ann", "Bob")


def test_humans_on_the_command_line_are_not_asked_nor_remembered(tmp_path: Path) -> None:
    settings_path().unlink()
    app = _play(tmp_path, "--humans", "Cleo")

    async def body(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("enter")
        await settle(pilot, lambda: app.table is not None)
        assert table(app).session.names[0] == "Cleo"

    run(body, app, settled=False)
    assert not settings_path().exists()


def test_a_first_run_in_a_real_terminal(tmp_path: Path) -> None:
    settings_path().unlink()
    game = PtyGame(["--save", str(tmp_path / "game.json"), "--no-record", "--seed", "2",
                    "--bot-delay", "60"], game_env(tmp_path))
    try:
        game.wait_for_text("Who plays at this keyboard?")
        game.send("Dana\r")
        game.wait_for_text("A new game")
        game.send("\r")
        game.wait_for_text("Your hand")
        game.proc.send_signal(signal.SIGTERM)
        assert game.wait_exit(timeout=10) == 0
    finally:
        if game.proc.poll() is None:
            game.kill()
    assert load_settings().names == ("Dana",)


def test_a_broken_settings_file_is_one_line_naming_it(tmp_path: Path) -> None:
    path = settings_path()
    path.write_text('names = ["Ann"]\nhand_order = "shuffled"\n')
    result = subprocess.run([sys.executable, "-m", "uno_attack", "play", "--save",
                             str(tmp_path / "game.json")], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60, check=False)
    assert_one_line(result, str(path), "'hand_order'", "'shuffled'")
