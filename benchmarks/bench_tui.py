"""The terminal game's speed, as a player feels it: ``uno-attack play`` runs as a real
subprocess in a pseudo-terminal (80×24), and we time what reaches the screen.

- time to first screen: from starting the process until the table screen has been drawn
  (the text "Your hand" written to the terminal), median of 3 starts;
- key to screen: from writing a key to the terminal until its effect is drawn (the help
  opening or closing with ``?``, the hand's cursor moving with an arrow), median of 40.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable

from benchmarks import Row


class _Pty:
    def __init__(self, args: list[str], env: dict[str, str],
                 preexec: Callable[[], None] | None = None) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen([sys.executable, "-m", "uno_attack", "play", *args],
                                     stdin=slave, stdout=slave, stderr=slave, env=env,
                                     close_fds=True, start_new_session=True,
                                     preexec_fn=preexec)
        os.close(slave)
        self.output = b""

    def until(self, needle: bytes, start: int = 0, timeout: float = 15.0) -> float:
        """Read until ``needle`` appears after offset ``start``; the time it appeared."""
        deadline = time.perf_counter() + timeout
        while needle not in self.output[start:]:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{needle!r} not drawn within {timeout} s")
            if select.select([self.master], [], [], 0.5)[0]:
                self.output += os.read(self.master, 65536)
        return time.perf_counter()

    def key(self, keys: str, needle: bytes, timeout: float = 15.0, quiet: float = 0.05) -> float:
        """Seconds from writing ``keys`` until ``needle`` is drawn, once the screen has
        been still for ``quiet`` seconds (so the time is this key's, not the end of the
        last one's redraw or a bot's move)."""
        self.drain(quiet)
        start = len(self.output)
        sent = time.perf_counter()
        os.write(self.master, keys.encode())
        return self.until(needle, start, timeout) - sent

    def drain(self, quiet: float = 0.05) -> None:
        """Read until nothing more is written for ``quiet`` seconds."""
        while select.select([self.master], [], [], quiet)[0]:
            self.output += os.read(self.master, 65536)

    def close(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(5)
        os.close(self.master)


def run() -> list[Row]:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home, XDG_STATE_HOME=home, TERM="xterm-256color")
        args = ["--quick", "--seed", "3", "--bot-delay", "0", "--no-animation"]
        starts = []
        for i in range(3):  # each start a new game: a game saved before would be offered
            began = time.perf_counter()
            game = _Pty([*args, "--save", f"{home}/start-{i}.json"], env)
            try:
                starts.append(game.until(b"Your hand") - began)
            finally:
                game.close()
        game = _Pty(args, env)
        keys: list[float] = []
        try:
            game.until(b"Your hand")
            time.sleep(0.5)  # let the bots finish their moves
            for _ in range(10):
                keys.append(game.key("?", b"Close (Esc)"))
                keys.append(game.key("?", b"Your hand"))
                keys.append(game.key("\x1b[C", "▶".encode()))  # right arrow
                keys.append(game.key("\x1b[D", "▶".encode()))  # left arrow
        finally:
            game.close()
    return [
        Row("play: time to first screen", f"{statistics.median(starts):.2f} s",
            "real subprocess in an 80x24 pty until the table is drawn; median of 3"),
        Row("play: key to updated screen", f"{1000 * statistics.median(keys):.0f} ms",
            "pty: '?' help open/close and arrow keys until drawn; median of 40"),
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
