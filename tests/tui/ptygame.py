"""``uno-attack play`` in a real pseudo-terminal: keys in, screen bytes out."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path


class PtyGame:
    """``uno-attack play`` running in a pseudo-terminal of a given size."""

    def __init__(self, args: list[str], env: dict[str, str], size: tuple[int, int] = (80, 24),
                 *, command: tuple[str, ...] = ("-m", "uno_attack", "play"),
                 preexec: Callable[[], None] | None = None) -> None:
        self.master, slave = pty.openpty()
        cols, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen([sys.executable, *command, *args],
                                     stdin=slave, stdout=slave, stderr=slave, env=env,
                                     close_fds=True, start_new_session=True,
                                     preexec_fn=preexec)
        os.close(slave)
        self.output = b""

    def read(self, timeout: float = 0.05) -> None:
        while select.select([self.master], [], [], timeout)[0]:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk
            timeout = 0

    def wait_for(self, needle: bytes, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.output:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise AssertionError(f"{needle!r} never appeared; exit {self.proc.poll()}")
            self.read()

    def wait_for_text(self, needle: str, timeout: float = 30.0) -> None:
        """Like :meth:`wait_for`, in the text without control sequences (a screen may be
        drawn in several writes, styles between the words)."""
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise AssertionError(f"{needle!r} never appeared; exit {self.proc.poll()}")
            self.read()

    def wait_exit(self, timeout: float = 30.0) -> int:
        """The exit status, reading what it writes meanwhile (a long traceback must not
        fill the terminal's buffer and hold the process)."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError("the game did not exit")
            self.read()
        self.read()
        return self.proc.returncode

    def text(self) -> str:
        """What was written so far, without the terminal's control sequences."""
        return re.sub(rb"\x1b\[[0-9;?<>=$]*[A-Za-z~]", b"", self.output).decode(errors="replace")

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(5)
        os.close(self.master)


def game_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"),
               TERM="xterm-256color", COLUMNS="80", LINES="24")
    return env
