"""``uno-attack wiring`` and ``uno-attack launcher run`` as a user runs them: subprocesses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from sim_launcher.world import FAULTS

FAULT_BREAKS = {
    "jam": "feed",
    "empty": "feed",
    "beam-stuck": "beam",
    "button-dead": "button",
    "motor-dead": "motor",
    "bouncy-button": "button",
    "led-dead": "led",
    "buzzer-broken": "buzzer",
    "roller-slipping": "feed",
}


def uno_attack(*args: str, timeout: float = 60, **kwargs: object
               ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", *args], capture_output=True,
                          text=True, timeout=timeout, check=False, **kwargs)  # type: ignore


def verdicts(stdout: str) -> dict[str, str]:
    """Part -> verdict from the table ``wiring check`` prints."""
    rows = stdout.split("what to look at", 1)[1].splitlines()[2:]
    return {row.split()[0]: row.split()[1] for row in rows if row.strip()
            and not row.startswith(("every", "failed"))}


class TestWiringCheck:
    def test_emulated_auto_passes_every_part(self) -> None:
        run = uno_attack("wiring", "check", "--emulated", "--auto", "--seed", "1")
        assert run.returncode == 0, run.stderr
        assert verdicts(run.stdout) == {part: "pass" for part in
                                        ("button", "beam", "motor", "feed", "led", "buzzer")}
        assert "every part passed" in run.stdout

    def test_every_fault_of_the_world_is_checked(self) -> None:
        assert set(FAULT_BREAKS) == set(FAULTS)

    @pytest.mark.parametrize("fault", sorted(FAULT_BREAKS))
    def test_each_fault_fails_exactly_its_part(self, fault: str) -> None:
        run = uno_attack("wiring", "check", "--emulated", "--auto", "--fault", fault,
                         "--seed", "1")
        broken = FAULT_BREAKS[fault]
        assert run.returncode == 1
        table = verdicts(run.stdout)
        assert [part for part, verdict in table.items() if verdict == "FAIL"] == [broken]
        assert f"failed: {broken}" in run.stderr
        assert all(v in ("pass", "skipped") for p, v in table.items() if p != broken)

    def test_bad_pin_map_is_one_clean_line(self, tmp_path: Path) -> None:
        pins = tmp_path / "pins.toml"
        pins.write_text("[pins]\nbutton = 17\nmotor_in1 = 23\nmotor_in2 = 24\n"
                        "motor_pwm = 17\nbeam = 27\n", encoding="utf-8")
        run = uno_attack("wiring", "check", "--emulated", "--auto", "--pins", str(pins))
        assert run.returncode == 2
        assert run.stderr.strip() == (f"uno-attack wiring: error: {pins}: [pins] motor_pwm = "
                                      "17: GPIO17 is already used by button")
        assert "checking" not in run.stdout  # nothing was touched


class TestWiringShow:
    def test_terminal_and_svg(self, tmp_path: Path) -> None:
        out = tmp_path / "wiring.svg"
        run = uno_attack("wiring", "show", "--svg", str(out))
        assert run.returncode == 0, run.stderr
        assert "button GPIO17 11 ● ● 12 GPIO18 motor_pwm" in run.stdout
        assert "beam GPIO27 13 ●" in run.stdout
        texts = [t.text or "" for t in ET.parse(out).getroot().iter()
                 if t.tag.endswith("text")]
        assert "button — GPIO17 (11)" in texts
        assert "GPIO18 (12) — motor_pwm" in texts
        assert len([t for t in texts if "GPIO" in t and "—" in t]) == 8  # one per used pin


class Daemon:
    """``uno-attack launcher run`` in a subprocess, its log read line by line in a thread."""

    def __init__(self, *args: str, on_line: Callable[[Daemon, str], None] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uno_attack", "launcher", "run", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.lines: list[str] = []
        self.on_line = on_line
        self._seen = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._seen:
                self.lines.append(line)
                self._seen.notify_all()
            if self.on_line is not None:
                self.on_line(self, line)

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def wait_for(self, text: str, timeout: float = 30) -> None:
        with self._seen:
            found = self._seen.wait_for(lambda: text in self.log, timeout)
        assert found, self.log

    def stop(self, signum: signal.Signals) -> int:
        """Send a signal and wait for the exit code; kill it if it does not stop."""
        try:
            self.proc.send_signal(signum)
            return self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._reader.join(10)

    @property
    def log(self) -> str:
        return "".join(self.lines)


def push_when_ready(daemon: Daemon, line: str) -> None:
    """Push the launcher's button as soon as the daemon says it is ready."""
    if "ready:" in line:
        daemon.send("push\n")


class TestLauncherRun:
    def test_runs_takes_presses_and_stops_on_sigterm(self) -> None:
        daemon = Daemon("--launcher", "gpio:emulated", "--policy", "fixed:2", "--seed", "4")
        daemon.send("push\npush\npush\n")
        daemon.wait_for("press 3:")
        assert daemon.stop(signal.SIGTERM) == 0
        log = daemon.log
        assert "ready: emulated GPIO launcher (fixed:2 policy)" in log
        for n in (1, 2, 3):
            assert f"press {n}: fired 2 of 2 (ok)" in log
        assert "stopping: SIGTERM" in log
        assert "stopped: motor off, pins released (closed)" in log
        assert "Traceback" not in log

    def test_stops_cleanly_on_ctrl_c_during_an_eject(self) -> None:
        """SIGINT mid-burst: the eject reports stopped and the motor goes off."""

        daemon = Daemon("--launcher", "gpio:emulated,scale=1", "--policy", "fixed:12", "-v",
                        on_line=push_when_ready)
        daemon.wait_for("motor forward")
        assert daemon.stop(signal.SIGINT) == 0
        log = daemon.log
        assert "stopping: SIGINT" in log
        assert "press 1: fired" in log
        assert "(stopped)" in log
        assert "stopped: motor off, pins released (closed)" in log

    def test_ctrl_c_stops_the_serial_launcher_mid_eject(self, tmp_path: Path) -> None:
        """A board in another process, its dispenser 20 times slower than real time, so
        that the eject of 12 is still running however late the signal arrives."""
        link = tmp_path / "board"
        board = subprocess.Popen(
            [sys.executable, "-m", "uno_attack", "firmware", "emulate", "--link", str(link),
             "--seed", "3", "--time-scale", "0.05", "--jam-rate", "0",
             "--press-every", "0.2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert board.stdout is not None
            assert "emulated board on" in board.stdout.readline()
            daemon = Daemon("--launcher", f"serial:{link}", "--policy", "fixed:12", "-v")
            daemon.wait_for("asking the board to eject 12")
            assert daemon.stop(signal.SIGINT) == 0
            log = daemon.log
            assert "stopping: SIGINT" in log
            assert "(stopped)" in log                 # the board ended it DONE … stopped
            assert "fired 12 of 12" not in log
            assert "stopped: motor off, pins released (closed)" in log
            assert "Traceback" not in log
        finally:
            board.kill()
            board.wait()

    def test_standalone_mode_drives_the_serial_launcher(self) -> None:
        """Regression: ``launcher run --launcher serial:…`` said "not a GPIO launcher"."""
        daemon = Daemon("--launcher", "serial:emulated", "--policy", "fixed:2", "--seed", "4",
                        "--presses", "3")
        daemon.send("push\npush\npush\n")
        assert daemon.proc.wait(60) == 0, daemon.log
        daemon.stop(signal.SIGTERM)
        log = daemon.log
        assert "ready: serial launcher on" in log
        for n in (1, 2, 3):
            assert f"press {n}: fired 2 of 2 (ok)" in log
        assert "stopping: 3 presses done" in log
        assert "stopped: motor off, pins released (closed)" in log
        assert "Traceback" not in log


class TestLauncherRunRefuses:
    @pytest.mark.parametrize(("args", "names"), [
        (["--presses", "0"], "--presses: '0'"),
        (["--presses", "-1"], "--presses: '-1'"),
        (["--presses", "３"], "--presses: '３'"),
        (["--press-every", "0"], "--press-every: '0'"),
        (["--press-every", "-1"], "--press-every: '-1'"),
        (["--press-every", "nan"], "--press-every: 'nan'"),
        (["--press-every", "inf"], "--press-every: 'inf'"),
        (["--seed", "٣"], "--seed: '٣'"),
        (["--launcher", "gpio:emulated", "--policy", "fixed:0"], "'fixed:0'"),
        (["--launcher", "gpio:emulated", "--policy", "fixed:１２"], "'fixed:１２'"),
        (["--launcher", "gpio:emulated,scale=nan"], "scale=nan"),
        (["--launcher", "sim"], "'sim' has no dispenser button"),
        (["--launcher", "serial:emulated", "--pins", "pins.toml"], "--pins pins.toml"),
    ])
    def test_bad_arguments_are_one_clean_error(self, args: list[str], names: str) -> None:
        run = subprocess.run([sys.executable, "-m", "uno_attack", "launcher", "run", *args],
                             capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
                             check=False)
        assert run.returncode == 2, run.stderr
        assert names in run.stderr.splitlines()[-1]
        assert "Traceback" not in run.stderr

    @pytest.mark.parametrize("where", ["file", "folder", "missing", "proc", "fifo"])
    def test_a_serial_port_that_is_no_port(self, tmp_path: Path, where: str) -> None:
        path = {"file": tmp_path / "file", "folder": tmp_path, "missing": tmp_path / "no" / "x",
                "proc": Path("/proc/self/status"), "fifo": tmp_path / "fifo"}[where]
        if where == "file":
            path.write_text("not a port")
        if where == "fifo":
            os.mkfifo(path)
        run = subprocess.run([sys.executable, "-m", "uno_attack", "launcher", "run",
                              "--launcher", f"serial:{path}"], capture_output=True, text=True,
                             timeout=30, stdin=subprocess.DEVNULL, check=False)
        assert run.returncode == 2
        assert f"cannot open serial port {path}" in run.stderr.splitlines()[-1]
        assert "Traceback" not in run.stderr
