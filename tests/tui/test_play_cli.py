"""``uno-attack play`` as a process: how it ends, and what it says when it cannot start."""

from __future__ import annotations

from pathlib import Path

from tests.tui.ptygame import PtyGame, game_env

#: Runs ``uno-attack play`` with the first bot move raising, as an unforeseen bug would,
#: and marks the launcher's closing in a file.
CRASHING = """
import sys
from pathlib import Path
from uno_attack.cli import main
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.session import Session

def crash(self, key):
    raise RuntimeError("an unforeseen bug")

def close(self, _close=Session.close):
    _close(self)
    Path(sys.argv[1]).write_text("closed")

UnoAttackApp._bot_turn = crash
Session.close = close
sys.exit(main(["play", *sys.argv[2:]]))
"""


def test_a_crash_of_the_game_exits_non_zero_and_closes_the_launcher(tmp_path: Path) -> None:
    marker = tmp_path / "closed"
    save = tmp_path / "game.json"
    game = PtyGame([str(marker), "--save", str(save), "--bot-delay", "0", "--seed", "2",
                    "--players", "2", "--humans", "Ann"], game_env(tmp_path),
                   command=("-c", CRASHING))
    try:
        game.wait_for(b"an unforeseen bug")
        assert game.proc.wait(30) != 0
    finally:
        if game.proc.poll() is None:
            game.kill()
    game.read()
    assert marker.read_text() == "closed"
    assert f"--resume --save {save}".encode() in game.output.replace(b"\r\n", b"")
