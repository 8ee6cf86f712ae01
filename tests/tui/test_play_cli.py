"""``uno-attack play`` as a process: how it ends, and what it says when it cannot start."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.one_line import assert_one_line
from tests.tui.helpers import save_a_game
from tests.tui.ptygame import PtyGame, game_env

#: Runs ``uno-attack play`` with the first bot move raising, as an unforeseen bug would,
#: and marks the launcher's closing in a file.
CRASHING = """
import sys
from pathlib import Path
from uno_attack.cli import main
from uno_attack.flow import TableFlow
from uno_attack.session import Session

def crash(self, seat, key):
    raise RuntimeError("an unforeseen bug")

def close(self, _close=Session.close):
    _close(self)
    Path(sys.argv[1]).write_text("closed")

TableFlow._bot_choice = crash
Session.close = close
sys.exit(main(["play", *sys.argv[2:]]))
"""


def test_a_crash_of_the_game_exits_non_zero_and_closes_the_launcher(tmp_path: Path) -> None:
    marker = tmp_path / "closed"
    save = tmp_path / "game.json"
    game = PtyGame([str(marker), "--quick", "--save", str(save), "--bot-delay", "0", "--seed", "2",
                    "--players", "2", "--humans", "Ann"], game_env(tmp_path),
                   command=("-c", CRASHING))
    try:
        game.wait_for(b"an unforeseen bug")
        assert game.wait_exit() != 0
    finally:
        if game.proc.poll() is None:
            game.kill()
    game.read()
    assert marker.read_text() == "closed"
    assert f"--resume --save {save}".encode() in game.output.replace(b"\r\n", b"")


#: Runs ``uno-attack play`` and marks the launcher's closing in a file.
CLOSING = """
import sys
from pathlib import Path
from uno_attack.cli import main
from uno_attack.session import Session

def close(self, _close=Session.close):
    _close(self)
    Path(sys.argv[1]).write_text("closed")

Session.close = close
sys.exit(main(["play", *sys.argv[2:]]))
"""


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_a_closed_terminal_or_a_stop_ends_the_game_and_closes_the_launcher(
        tmp_path: Path, signum: signal.Signals) -> None:
    """A terminal window closed under the game sends SIGHUP, a service stop SIGTERM: either
    ends the game as 'q' does, the launcher closed (a motor stops), and the game saved."""
    marker = tmp_path / "closed"
    save = tmp_path / "game.json"
    game = PtyGame([str(marker), "--quick", "--save", str(save), "--seed", "2",
                    "--players", "2", "--humans", "Ann"], game_env(tmp_path),
                   command=("-c", CLOSING))
    try:
        game.wait_for(b"Your hand")
        game.proc.send_signal(signum)
        assert game.wait_exit() == 0
    finally:
        if game.proc.poll() is None:
            game.kill()
    assert marker.read_text() == "closed"
    assert save.is_file()


@pytest.mark.parametrize(("screen", "keys", "shown"), [
    ("quit dialog", "q", "Quit the game?"),
    ("help", "?", "Close (Esc)"),
], ids=["quit-dialog", "help"])
def test_a_stop_ends_the_game_with_a_dialog_open(tmp_path: Path, screen: str, keys: str,
                                                 shown: str) -> None:
    marker = tmp_path / "closed"
    save = tmp_path / "game.json"
    game = PtyGame([str(marker), "--quick", "--save", str(save), "--seed", "2",
                    "--players", "2", "--humans", "Ann", "--bot-delay", "60"],
                   game_env(tmp_path), command=("-c", CLOSING))
    try:
        game.wait_for(b"Your hand")
        game.send(keys)
        game.wait_for_text(shown)
        game.proc.send_signal(signal.SIGTERM)
        assert game.wait_exit(timeout=10) == 0, screen
    finally:
        if game.proc.poll() is None:
            game.kill()
    assert marker.read_text() == "closed"
    assert save.is_file()


def test_a_stop_ends_play_on_the_new_game_screen(tmp_path: Path) -> None:
    game = PtyGame(["--save", str(tmp_path / "game.json"), "--no-record"], game_env(tmp_path))
    try:
        game.wait_for_text("A new game")
        game.proc.send_signal(signal.SIGHUP)
        assert game.wait_exit(timeout=10) == 0
    finally:
        if game.proc.poll() is None:
            game.kill()


def test_a_stop_ends_play_on_the_offer_to_resume_and_keeps_the_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = PtyGame(["--quick", "--save", str(save), "--seed", "2", "--players", "2",
                     "--no-record"], game_env(tmp_path))
    try:
        first.wait_for(b"Your hand")
        first.proc.send_signal(signal.SIGTERM)
        assert first.wait_exit(timeout=10) == 0
    finally:
        if first.proc.poll() is None:
            first.kill()
    kept = save.read_bytes()
    game = PtyGame(["--save", str(save), "--no-record"], game_env(tmp_path))
    try:
        game.wait_for_text("A saved game was not finished")
        game.proc.send_signal(signal.SIGTERM)
        assert game.wait_exit(timeout=10) == 0
    finally:
        if game.proc.poll() is None:
            game.kill()
    assert save.read_bytes() == kept  # nothing chosen: the game waits to be resumed


def play(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``uno-attack play`` that must stop before its screen opens (stdin is no terminal)."""
    return subprocess.run([sys.executable, "-m", "uno_attack", "play", *args],
                          capture_output=True, text=True, errors="backslashreplace",
                          timeout=60, env=game_env(tmp_path), stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("args", "fragments"), [
    (["--bot-delay", "inf"], ("argument --bot-delay: 'inf' is not a number of seconds",)),
    (["--bot-delay", "nan"], ("argument --bot-delay: 'nan'",)),
    (["--bot-delay", "-1"], ("argument --bot-delay: '-1'",)),
    (["--catch-delay", "-5"], ("argument --catch-delay: '-5' is not a number of seconds",)),
    (["--seed", "\x1b[2J"], ("argument --seed", "is not a seed")),
    (["--players", "٣"], ("argument --players: '٣' is not a whole number",)),
    (["--target", "１２"], ("argument --target: '１２' is not a whole number",)),
    (["--humans", ""], ("--humans '': name at least one person, or 'none'",)),
    (["--humans", " , "], ("--humans ' , ': name at least one person",)),
    (["--humans", "Ann,none"], ("'none' means no people at all",)),
    (["--humans", "Ann,Ann"], ("every name must differ",)),
    (["--humans", "A\x07nn"], ("must be printable",)),
    (["--humans", "N" * 30], ("at most 24 characters",)),
    (["--players", "11"], ("--players 11: must be 2 to 10",)),
    (["--launcher", "nonsense"], ("unknown launcher 'nonsense' (backends: ",)),
    (["--launcher", "gpio"], ("gpio: cannot open the Raspberry Pi's pins",)),
    (["--launcher", "serial:/nonexistent"], ("cannot open serial port /nonexistent",)),
    (["--launcher", "scripted:x"], ("invalid launcher 'scripted:x'",)),
    (["--launcher", "fixed:-3"], ("invalid policy 'fixed:-3'",)),
    (["--policy", "fixed:99"], ("invalid policy 'fixed:99'",)),
    (["--launcher", "scripted:1", "--policy", "fixed:99"], ("invalid policy 'fixed:99'",)),
    (["--option", "hand_size=30"], ("option 'hand_size' = 30: 4 players × 30 cards",)),
    ([], ("the game needs a terminal",)),
], ids=["delay-inf", "delay-nan", "delay-negative", "catch-negative", "seed-escape",
        "players-arabic-digit", "target-full-width", "humans-empty", "humans-blank",
        "humans-none-and-names", "humans-twice", "humans-control", "humans-long",
        "players-11", "launcher-unknown", "gpio-off-a-pi", "serial-missing",
        "scripted-text", "fixed-negative", "policy-99", "policy-99-scripted", "hand-size-30",
        "no-terminal"])
def test_bad_arguments_are_one_line(tmp_path: Path, args: list[str],
                                    fragments: tuple[str, ...]) -> None:
    assert_one_line(play(tmp_path, *args), "uno-attack play: error: ", *fragments)


def test_save_paths_that_cannot_hold_a_game(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert_one_line(play(tmp_path, "--save", str(folder)),
                    f"--save {folder}: is a folder; name a file in it")
    assert (folder / "notes.txt").read_text() == "mine"  # the folder was not moved away
    assert not (tmp_path / "games.previous.json").exists()
    assert_one_line(play(tmp_path, "--save", str(tmp_path / "no" / "g.json")),
                    f"the folder {tmp_path / 'no'} does not exist")
    assert_one_line(play(tmp_path, "--save", str(folder / "notes.txt" / "g.json")),
                    "notes.txt is not a folder")
    assert_one_line(play(tmp_path, "--save", "/proc/g.json"), "cannot write in /proc")
    assert_one_line(play(tmp_path, "--resume", "--save", str(folder)),
                    f"{folder}: is a folder, not a file")
    assert_one_line(play(tmp_path, "--resume", "--save", "/dev/zero"),
                    "/dev/zero: is not a regular file")
    assert_one_line(play(tmp_path, "--resume", "--save", str(tmp_path / "none.json")),
                    "no saved game to resume at")


def _drop_scores(d: dict[str, Any]) -> None:
    del d["meta"]["match"]["scores"]


def _set(*keys: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        for key in keys[:-1]:
            d = d[key]
        d[keys[-1]] = value

    return change


@pytest.mark.parametrize(("change", "fragments"), [
    (lambda d: d["fires"].pop(), ("key 'fires'", "expected 3 counts, one per press")),
    (_drop_scores, ("key 'meta.match.scores' is missing",)),
    (_set("meta", "names", value="Ann"), ("key 'meta.names'", "list of 2 to 10 names")),
    (_set("meta", "names", value=["You", "Ada", 7]), ("key 'meta.names[2]'",)),
    (_set("meta", "players", value=["You", "Zed", "Ben"]), ("key 'meta.players'",)),
    (_set("meta", "kinds", value=["human", "dragon", "basic"]), ("key 'meta.kinds[1]'",)),
    (_set("meta", "presses_before", value=-1), ("key 'meta.presses_before'", "0…")),
    (_set("meta", "presses_before", value=10**9), ("key 'meta.presses_before'",)),
    (_set("meta", "presses_before", value="3"), ("key 'meta.presses_before'",)),
    (_set("meta", "match", "active", value=[0, 0, 1]), ("key 'meta.match.active'",)),
    (_set("meta", "match", "active", value=[0, 1, 5]), ("key 'meta.match.active[2]'",)),
    (_set("meta", "match", "scores", value=[0, -4, 0]), ("key 'meta.match.scores[1]'",)),
    (_set("meta", "match", "round_no", value=0), ("key 'meta.match.round_no'",)),
    (_set("meta", "match", "dealer", value=None), ("key 'meta.match.dealer'",)),
    (_set("meta", "match", value=[]), ("key 'meta.match'", "expected an object")),
    (_set("meta", "seed", value=[1]), ("key 'meta.seed'",)),
    (_set("meta", "policy", value="nope"), ("key 'meta.policy'", "unknown policy 'nope'")),
    (_set("meta", "launcher", value=5), ("key 'meta.launcher'",)),
    (_set("meta", "format", value="other"), ("not a game saved by 'uno-attack play'",)),
    (_set("match", "scores", value=[1, 0, 0]), ("key 'match.scores'",)),
    (_set("options", "first_dealer", value=7), ("option 'first_dealer' = 7",)),
    (lambda d: d["steps"].append("0 pass"), ("key 'steps[", "illegal action '0 pass'")),
    (_set("meta", "started_at", value="yesterday"), ("key 'meta.started_at'",)),
    (_set("meta", "points_by_round", value=[[1, 2]]), ("key 'meta.points_by_round'",)),
    (_set("meta", "match_key", value=["k"]), ("key 'meta.match_key'",)),
], ids=["fires-missing", "no-scores", "names-text", "name-number", "players-other",
        "kind-unknown", "presses-negative", "presses-huge", "presses-text", "active-twice",
        "active-range", "score-negative", "round-0", "dealer-null", "match-list",
        "seed-list", "policy-unknown", "launcher-number", "format", "seat-scores",
        "first-dealer", "illegal-step", "started-at", "points-by-round", "match-key"])
def test_a_bad_save_is_one_line_naming_file_and_key(
        tmp_path: Path, change: Callable[[dict[str, Any]], None],
        fragments: tuple[str, ...]) -> None:
    path = tmp_path / "game.json"
    save_a_game(path)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    assert_one_line(play(tmp_path, "--resume", "--save", str(path)),
                    f"uno-attack play: error: {path}: ", *fragments)
