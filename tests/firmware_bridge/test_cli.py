"""``uno-attack firmware emulate --link PATH`` driven from another process."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.cli import main
from firmware_bridge.host import UlpLink

COMMAND = [sys.executable, "-m", "uno_attack", "firmware", "emulate"]


def test_emulate_in_a_subprocess_is_driven_from_here(tmp_path: Path) -> None:
    link_path = tmp_path / "board"
    proc = subprocess.Popen([*COMMAND, "--link", str(link_path), "--seed", "3",
                             "--time-scale", "20", "--jam-rate", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert f"emulated board on {link_path}" in first
        assert link_path.is_symlink()
        link = UlpLink(str(link_path), retry_s=0.05, poll_s=0.05)
        info = link.open()
        assert (info.cards, info.max_ms) == (12, 10000)
        assert link.eject(4, 4000) == (4, "ok", "")
        link.close()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert "1 ejects, 4 cards out" in out
        assert not link_path.exists()          # the link goes with the board
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_disconnect_needs_a_link() -> None:
    proc = subprocess.run([*COMMAND, "--disconnect-every", "1"], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 2
    assert "needs --link" in proc.stderr
    assert proc.stderr.count("\n") == 1        # one clean line, no traceback


def test_bad_rate_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["emulate", "--noise", "150%"])
    assert info.value.code == 2
    assert "not a rate" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "names"), [
    (["--time-scale", "inf"], "--time-scale: 'inf'"),
    (["--time-scale", "nan"], "--time-scale: 'nan'"),
    (["--time-scale", "0"], "--time-scale: '0'"),
    (["--time-scale", "２"], "--time-scale: '２'"),
    (["--reboot-mid-eject", "-1"], "--reboot-mid-eject: '-1'"),
    (["--reboot-every", "nan"], "--reboot-every: 'nan'"),
    (["--disconnect-for", "-2"], "--disconnect-for: '-2'"),
    (["--press-every", "0"], "--press-every: '0'"),
    (["--noise", "nan"], "--noise: 'nan'"),
    (["--jam-rate", "150%"], "--jam-rate: '150%' is not a rate"),
    (["--hopper", "-1"], "--hopper: '-1'"),
    (["--seed", "٣"], "--seed: '٣'"),
    (["--fault", "fire"], "--fault: invalid choice: 'fire'"),
])
def test_bad_options_are_one_clean_error(args: list[str], names: str) -> None:
    proc = subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=30,
                          check=False)
    assert proc.returncode == 2
    assert names in proc.stderr.splitlines()[-1]
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("where", ["file", "folder", "missing-parent", "proc"])
def test_a_link_that_cannot_be_made_is_refused(tmp_path: Path, where: str) -> None:
    link = {"file": tmp_path / "file", "folder": tmp_path,
            "missing-parent": tmp_path / "none" / "board", "proc": Path("/proc/board")}[where]
    if where == "file":
        link.write_text("a file")
    proc = subprocess.run([*COMMAND, "--link", str(link)], capture_output=True, text=True,
                          timeout=30, check=False)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"uno-attack firmware: error: --link {link}: ")
    assert proc.stderr.count("\n") == 1
    assert "emulated board on" not in proc.stdout   # refused before any board ran
    if where == "file":
        assert link.read_text() == "a file"         # and nothing was overwritten
