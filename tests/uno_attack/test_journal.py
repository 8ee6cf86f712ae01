"""The save file: atomic rewrites, failures that keep the last save, stale temp files,
and paths refused before a game starts."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from uno_attack.journal import (
    Journal,
    SaveError,
    check_save_file,
    check_save_folder,
    keep_previous,
)


def _blocked(path: Path) -> Path:
    """Make the next write of ``path`` fail for real, for any user (root too): a folder
    sits where its temporary file must go."""
    block = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    block.mkdir()
    (block / "inside").write_text("keeps the folder from being removed")
    return block


def test_a_failed_write_keeps_the_last_save_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    journal = Journal(path)
    assert journal.write("first") is None
    block = _blocked(path)
    failure = journal.write("second")
    assert failure is not None
    assert journal.failure == failure
    assert failure.path == path
    assert "Could not save the game to" in str(failure)
    assert path.read_text() == "first"
    (block / "inside").unlink()
    block.rmdir()
    assert journal.write("third") is None
    assert journal.failure is None
    assert path.read_text() == "third"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".game.json.lock", "game.json"]
    journal.close()


def test_stale_temp_files_of_dead_writers_are_removed_on_start(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    stale = tmp_path / f".game.json.{dead.stdout.strip()}.tmp"  # a kill -9 mid-write
    old_style = tmp_path / ".game.json.k2j4x8.tmp"                # an older version's name
    live = tmp_path / f".game.json.{os.getppid()}.tmp"            # a writer still running
    other = tmp_path / ".notes.txt.123.tmp"                       # not this save's
    for leftover in (stale, old_style, live, other):
        leftover.write_text("{")
    Journal(path)
    assert not stale.exists()
    assert not old_style.exists()
    assert live.exists()
    assert other.exists()


def _folder_at_the_path(path: Path) -> None:
    path.mkdir(parents=True)


def _no_folder(path: Path) -> None:
    pass


def _file_for_the_folder(path: Path) -> None:
    path.parent.write_text("a file")


@pytest.mark.parametrize(("make", "fragment"), [
    (_folder_at_the_path, "is a folder; name a file in it, such as"),
    (_no_folder, "the folder .*games does not exist"),
    (_file_for_the_folder, "games is not a folder"),
])
def test_save_paths_that_cannot_hold_a_game(tmp_path: Path, make: Callable[[Path], None],
                                            fragment: str) -> None:
    path = tmp_path / "games" / "game.json"
    make(path)
    with pytest.raises(SaveError, match=fragment):
        check_save_file(path, flag="--save")
    assert not path.with_suffix(".previous.json").exists()  # nothing was moved aside


def test_proc_takes_no_save() -> None:
    with pytest.raises(SaveError, match=r"--save /proc/game\.json: cannot write in /proc"):
        check_save_file(Path("/proc/game.json"), flag="--save")
    with pytest.raises(SaveError, match="--save /proc/rounds: cannot write in /proc"):
        check_save_folder(Path("/proc/rounds"), flag="--save")


def test_the_default_folder_is_made(tmp_path: Path) -> None:
    path = tmp_path / "state" / "uno-attack" / "game.json"
    check_save_file(path, flag="--save", make_folder=True)
    assert path.parent.is_dir()
    assert list(path.parent.iterdir()) == []  # the probe is gone


def test_a_folder_for_saved_rounds(tmp_path: Path) -> None:
    check_save_folder(tmp_path / "rounds", flag="--save")
    assert (tmp_path / "rounds").is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(SaveError, match="is a file, not a folder"):
        check_save_folder(tmp_path / "file", flag="--save")
    with pytest.raises(SaveError, match="does not exist"):
        check_save_folder(tmp_path / "missing" / "rounds", flag="--save")


def test_keep_previous_moves_the_last_game_aside(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")
    keep_previous(path)
    assert (tmp_path / "game.previous.json").read_text() == "old"
    assert not path.exists()


def test_the_listener_hears_when_saving_fails_and_when_it_works_again(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    journal = Journal(path)
    heard: list[object] = []
    journal.listener = heard.append
    journal.write("one")
    block = _blocked(path)
    journal.write("two")
    journal.write("three")  # still failing: told once
    (block / "inside").unlink()
    block.rmdir()
    journal.write("four")
    assert [None if h is None else str(h) for h in heard] == [
        f"Could not save the game to {path}: Is a directory", None]
