"""Saving in the game: a failing save is said at once and holds the game on a choice, the
last good save stays whole, and a new game never overwrites an unfinished one unasked."""

from __future__ import annotations

import json
import os
import resource
import socket
import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import (
    deal,
    game,
    log_text,
    make_app,
    run,
    screen,
    screen_lines,
    settle,
    steps,
    table,
)
from tests.tui.ptygame import PtyGame, game_env
from uno_attack.cli.play import build_app
from uno_attack.journal import SaveFailure
from uno_attack.replay import replay
from uno_attack.transcript import load
from uno_attack.tui.screens.dialogs import SaveProblemScreen
from uno_attack.tui.screens.newgame import NewGameScreen
from uno_attack.tui.screens.scoreboard import ScoreboardScreen
from uno_attack.tui.screens.start import StartScreen


def _block_writes(save: Path) -> Path:
    """Make the save's next writes fail for real, for any user: a folder sits where the
    temporary file must go."""
    block = save.with_name(f".{save.name}.{os.getpid()}.tmp")
    block.mkdir()
    (block / "keep").write_text("")
    return block


def _unblock(block: Path) -> None:
    (block / "keep").unlink()
    block.rmdir()


def test_a_failing_save_is_said_at_once_and_the_game_goes_on(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=3, launcher="fixed:1",
                   the_deal=deal(["R5 R6 R7 G1", "B1 B2 B3", "Y1 Y2 Y3"], "R3"))
    save = tmp_path / "game.json"

    async def body(pilot: Pilot[Any]) -> None:
        saved_before = save.read_text()
        block = _block_writes(save)
        await pilot.press("1")  # my play cannot be saved
        await settle(pilot, lambda: isinstance(app.screen, SaveProblemScreen))
        made = steps(app)
        assert "Could not save the game to" in log_text(app)
        assert save.read_text() == saved_before  # the last save, whole
        await settle(pilot, lambda: True)
        assert steps(app) == made  # the bots wait while the dialog is up
        await pilot.press("k")  # keep playing
        await settle(pilot, lambda: steps(app) > made + 1)
        assert "not saved" in str(screen(app).query_one("#hand-title").render())
        await settle(pilot)  # my turn again
        _unblock(block)
        await pilot.press("space")  # the next action saves, everything
        await settle(pilot, lambda: "Saved again" in log_text(app))
        assert len(load(save).steps) == steps(app)  # everything, also the unsaved moves

    run(body, app)


def test_try_again_saves_once_the_folder_is_mended(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["R5 R6 G1", "B1 B2 B3"], "R3"))
    save = tmp_path / "game.json"

    async def body(pilot: Pilot[Any]) -> None:
        block = _block_writes(save)
        await pilot.press("1")
        await settle(pilot, lambda: isinstance(app.screen, SaveProblemScreen))
        await pilot.press("r")  # still failing: the dialog comes back
        await settle(pilot, lambda: isinstance(app.screen, SaveProblemScreen))
        _unblock(block)
        await pilot.press("r")
        await settle(pilot)
        assert not isinstance(app.screen, SaveProblemScreen)
        assert "Saved again" in log_text(app)
        assert load(save).steps[0].text == "0 play R5"

    run(body, app)


def _file_size_limit(limit: int) -> Any:
    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # the disk is "full"

    return set_limit


def _long_save_path(tmp_path: Path, length: int) -> Path:
    """A save at least ``length`` characters long, in folders that exist."""
    folder = tmp_path
    while len(str(folder / "game.json")) < length:
        folder = folder / ("a-long-folder-name-" * 10)[: min(190, length)]
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "game.json"


def test_a_full_disk_in_a_real_terminal(tmp_path: Path) -> None:
    """The save grows with each action until the file-size limit refuses it (EFBIG, as
    a full disk refuses with ENOSPC): the screen says why, whatever the length of the
    save's path, and the last save stays whole."""
    save = _long_save_path(tmp_path, 1200)
    game = PtyGame(["--quick", "--seed", "5", "--pace", "instant", "--bot-delay", "0",
                    "--no-animation", "--save",
                    str(save),
                    "--launcher", "fixed:2"], game_env(tmp_path),
                   preexec=_file_size_limit(1500))
    try:
        game.wait_for(b"Your hand")
        size = save.stat().st_size  # the first saves fit
        deadline = time.monotonic() + 60  # presses until the save outgrows the limit
        while b"could not be saved" not in game.output and time.monotonic() < deadline:
            game.send(" ")  # refused while a bot's turn runs; taken at ours
            game.read(0.3)
        game.wait_for(b"could not be saved")
        game.wait_for_text("File too large")  # the reason, drawn with the dialog
        assert replay(load(save)).passed  # the last good save, whole
        assert size <= save.stat().st_size <= 1500
        game.send("k")
        game.read(0.5)
        assert game.proc.poll() is None  # still playing
    finally:
        game.kill()


def test_the_reason_shows_whatever_the_length_of_the_path(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["R5 R6 G1", "B1 B2 B3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        for length in (10, 60, 125, 190, 260, 400, 1000, 4000):
            path = Path(("/a-folder" * length)[:length] + "/game.json")
            app.push_screen(SaveProblemScreen(SaveFailure(path, "No space left on device")))
            await pilot.pause()
            lines = screen_lines(app)
            for words in ("The game could not be saved", "No space left on device.",
                          "Try again (r)", "Keep playing (k)", "Quit (q)"):
                assert any(words in line for line in lines), (length, words, lines)
            app.pop_screen()
            await pilot.pause()

    run(body, app)


def _unfinished_save(tmp_path: Path) -> Path:
    """A game saved a move in, its app gone as after a quit."""
    first = make_app(tmp_path, the_deal=deal(["R5 G1 G2", "B1 B2", "Y1 Y2", "G3 G4"], "R3"))

    async def one_move(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        await settle(pilot)

    run(one_move, first)
    return tmp_path / "game.json"


def test_a_new_game_asks_first_and_keeps_the_unfinished_one(tmp_path: Path) -> None:
    save = _unfinished_save(tmp_path)
    old = save.read_text()
    app = build_app(["--save", str(save), "--pace", "instant", "--bot-delay", "0", "--seed", "8"])

    async def body(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, StartScreen)
        assert save.read_text() == old  # nothing written before the answer
        summary = str(app.screen.query_one("#saved-summary").render())
        assert "round 1" in summary
        await pilot.press("n")
        await settle(pilot, lambda: isinstance(app.screen, NewGameScreen))
        assert save.read_text() == old  # still nothing written: the new game is chosen first
        await pilot.press("enter")
        await settle(pilot)
        assert (tmp_path / "game.previous.json").read_text() == old
        assert load(save).meta["seed"] == 8
        assert "resumed after" not in log_text(app)

    run(body, app)


def test_the_first_screen_shows_the_scores_after_a_round_that_is_over(
        tmp_path: Path) -> None:
    """Quit at the scoreboard: the save holds a round that is over, and the offer to
    resume it shows the scores with that round's points, as they stand now."""
    first = make_app(tmp_path, players=2, the_deal=deal(["R5", "G1 G2 WF"], "R3"))

    async def win(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        await settle(pilot, lambda: isinstance(first.screen, ScoreboardScreen))

    run(win, first)
    save = tmp_path / "game.json"
    assert replay(load(save)).round.over
    app = build_app(["--save", str(save), "--pace", "instant", "--bot-delay", "0"])

    async def body(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, StartScreen)
        summary = str(app.screen.query_one("#saved-summary").render())
        assert "round 1 (over), 1 action in; scores You 53, Ada 0" in summary  # G1 G2 WF

    run(body, app)


def test_the_first_screen_can_resume_the_unfinished_game(tmp_path: Path) -> None:
    save = _unfinished_save(tmp_path)
    expected = replay(load(save)).round.snapshot()
    app = build_app(["--save", str(save), "--pace", "instant", "--bot-delay", "0"])

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("r")
        await settle(pilot)
        assert game(app).snapshot() == expected
        assert "Round 1 resumed after 4 actions" in log_text(app)  # mine and the bots
        assert not (tmp_path / "game.previous.json").exists()

    run(body, app)


def test_a_stale_temp_file_is_cleaned_when_a_game_starts(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    stale = tmp_path / ".game.json.4194303999.tmp"  # left by a writer killed with -9
    stale.write_text('{"name": ')
    app = build_app(["--quick", "--save", str(save), "--pace", "instant", "--bot-delay", "0"])
    app.close_table()
    assert not stale.exists()
    assert load(save).steps == []


def test_a_resumed_save_never_chooses_the_launcher(tmp_path: Path) -> None:
    save = _unfinished_save(tmp_path)
    data = json.loads(save.read_text())
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0.3)
        spec = f"serial:socket://127.0.0.1:{server.getsockname()[1]}"
        data["meta"]["launcher"] = spec  # a save shared by someone else
        save.write_text(json.dumps(data))
        app = build_app(["--resume", "--save", str(save), "--pace", "instant", "--bot-delay", "0"])

        async def body(pilot: Pilot[Any]) -> None:
            assert table(app).session.config.launcher == "sim"
            assert f"This game was played with launcher {spec!r}" in log_text(app)
            assert f"Pass --launcher {spec} to use that one." in log_text(app)

        run(body, app)
        try:
            server.accept()
        except TimeoutError:
            pass
        else:
            raise AssertionError("the game connected to the launcher the save named")
