"""``uno-attack host``: one process that owns a table and serves it to every device.

It builds the session (match, launcher, journal), the flow (bots, timers, prompts) and
the web server, listens on 127.0.0.1 (every interface with ``lan``), prints a join URL per
human seat and a watch URL, holds the deal in a lobby while the people sit down (when
asked), reads the operator's lines (``start``, ``press``, ``retry``, ``fired N``) from its
terminal, and on Ctrl-C or SIGTERM closes every connection with a close frame and
the launcher, then returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import ipaddress
import logging
import os
import re
import signal
import socket
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from aiohttp import web

from uno_attack import thinker
from uno_attack.errors import UnoAttackError
from uno_attack.flow import Clock, FlowSettings, TableFlow
from uno_attack.journal import SaveError, SaveLock, check_save_file, keep_previous
from uno_attack.launcher import Launcher
from uno_attack.net.lobby import Lobby
from uno_attack.net.server import HEARTBEAT_SECONDS, TableServer, new_token
from uno_attack.saved_game import HOST_KEY, HostTokens, ResumeError, read_saved_game
from uno_attack.session import GameConfig, Session
from uno_attack.store.background import Background, write_in_background

#: An HTTP connection that has not sent a whole request this long after it opened (or
#: after its last one) is closed: slow or half-open requests hold nothing for long.
HTTP_IDLE_SECONDS = 20.0


@dataclass
class HostConfig:
    """What ``uno-attack host`` was asked for, besides the game itself."""

    game: GameConfig
    flow: FlowSettings = field(default_factory=FlowSettings)
    port: int = 8765
    lan: bool = False
    resume: bool = False
    qr: bool = False
    #: hold the deal until every person's seat is taken or the operator starts it
    lobby: bool = False
    #: with the lobby: start the round this many seconds after the host opened, at the latest
    start_after: float | None = None
    #: the limits on idle connections (shorter in tests)
    heartbeat: float = HEARTBEAT_SECONDS
    http_idle: float = HTTP_IDLE_SECONDS


def open_session(config: HostConfig, *, launcher: Launcher | None = None) -> Session:
    """A new match with fresh tokens, or the journal's match with its own tokens (the
    journal checked whole, tokens included, before anything listens)."""
    game = config.game
    assert game.save is not None
    if config.resume:
        saved = read_saved_game(game.save)
        if saved.tokens is None:
            raise ResumeError(f"{game.save} was not written by 'uno-attack host' (key "
                              f"'meta.{HOST_KEY}', its tokens, is missing); 'uno-attack "
                              f"play --resume --save FILE' goes on with it")
        return Session.resume(game, launcher=launcher, saved=saved)
    try:
        check_save_file(game.save, flag="--save", make_folder=True)
    except SaveError as exc:
        raise UnoAttackError(f"--save {game.save}: cannot write the journal there: "
                             f"{exc.reason}") from None
    lock = SaveLock(game.save)  # before the last journal is moved aside
    try:
        keep_previous(game.save)  # a new table keeps the last journal, once, beside it
        # the people sit first (Session): players 0 … len(humans)-1
        tokens = HostTokens({p: new_token() for p in range(len(game.humans))}, new_token())
        session = Session(game, launcher=launcher, tokens=tokens)
    finally:
        lock.release()  # the session's journal holds it now
    session.start_round()
    failure = session.journal.failure if session.journal is not None else None
    if failure is not None:
        session.close()
        raise UnoAttackError(f"--save {game.save}: cannot write the journal there: "
                             f"{failure.reason}")
    return session


def lan_address() -> str:
    """This machine's address on its local network (the first private IPv4 address of an
    interface that is up), for URLs a phone on the same network can open."""
    found = []
    for _, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address on this interface
        address = ipaddress.IPv4Address(packed[20:24])
        if not address.is_loopback:
            found.append(address)
    private = [a for a in found if a.is_private]
    if private or found:
        return str((private or found)[0])
    raise UnoAttackError("--lan: this machine has no network address besides 127.0.0.1")


class _OneLine(logging.Handler):
    """aiohttp's report of a request it refused (a malformed one gets its 400) as one line
    of the host's log: no traceback, and no token even when the request line carried one."""

    def __init__(self, say: Callable[[str], None]) -> None:
        super().__init__(logging.INFO)
        self.say = say

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            reason = record.getMessage()
        else:
            reason = getattr(exc, "message", "") or f"{type(exc).__name__}: {exc}"
        remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        self.say(f"refused a bad HTTP request from {remote}: {secret_free(str(reason))}")


def secret_free(text: str, limit: int = 160) -> str:
    """``text`` as one printable line, its tokens hidden (``token=…``), at most ``limit``
    characters."""
    text = re.sub(r"token(=|%3[dD])[^\s&#'\"]*", "token=…", text)
    line = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


def http_logger(say: Callable[[str], None]) -> logging.Logger:
    """The logger aiohttp's HTTP server reports to, for one host (not in the global tree)."""
    logger = logging.Logger("uno_attack.host.http", logging.INFO)
    logger.addHandler(_OneLine(say))
    return logger


def join_lines(flow: TableFlow, tokens: HostTokens, base: str) -> list[tuple[str, str]]:
    """(label, URL) for every human seat and the watch, as settled point 1 prints them."""
    out = []
    for player, token in tokens.seats.items():
        seat = flow.seat_of(player)
        if seat is not None:
            out.append((f"join {flow.name(seat)} (seat {seat})", f"{base}/?token={token}"))
    out.append(("watch", f"{base}/?token={tokens.watch}"))
    return out


def draw_qr(url: str, out: TextIO) -> None:
    """The URL as a QR code in the terminal, for a phone's camera."""
    import segno

    segno.make(url, error="m").terminal(out=out, compact=True, border=2)


class Host:
    """The running host: session, flow, server, listener; see the module docstring."""

    def __init__(self, config: HostConfig, *, out: TextIO = sys.stdout,
                 launcher: Launcher | None = None, clock: Clock | None = None) -> None:
        self.config = config
        self.out = out
        self.session = open_session(config, launcher=launcher)
        # the bots' fork server (for a table whose bots, or people's stand-ins, search)
        # is ready before the host listens: its start no longer lands on the first moves
        thinker.prepare([*self.session.kinds, self.session.config.bots])
        if self.session.journal is not None:  # a save that fails is said in the log at once
            self.session.journal.listener = lambda failure: self.say(
                f"⚠ {failure}; the table goes on" if failure else "saved again")
        self.lobby: Lobby | None = None  # the seats filling before the deal (start())
        self.flow = TableFlow(self.session, config.flow, clock=clock,
                              button_for=lambda seat: self.lobby is None or not self.lobby.open)
        tokens = self.session.tokens
        assert tokens is not None  # open_session made or read them
        self.tokens: HostTokens = tokens
        self.server = TableServer(self.flow, dict(self.tokens.seats), self.tokens.watch,
                                  log=self.say, heartbeat=config.heartbeat)
        self.runner: web.AppRunner | None = None
        self.writes: Background | None = None  # the journal's and the store's writes, once started
        self.failure = ""  # why the table loop ended by itself, if it did
        self.stopping = asyncio.Event()
        self.port = config.port

    def say(self, line: str) -> None:
        """One line of the host's log: who joined or left, what happened."""
        with contextlib.suppress(OSError):  # a closed log pipe must not stop the table
            print(f"{time.strftime('%H:%M:%S')} {line}", file=self.out, flush=True)

    async def start(self) -> list[tuple[str, str]]:
        """Listen, start the table, and return the URLs to print."""
        self.runner = web.AppRunner(self.server.app, handle_signals=False,
                                    shutdown_timeout=2.0, access_log=None,
                                    keepalive_timeout=self.config.http_idle,
                                    logger=http_logger(self.say))
        await self.runner.setup()
        bind = "0.0.0.0" if self.config.lan else "127.0.0.1"
        site = web.TCPSite(self.runner, bind, self.config.port, reuse_address=True)
        try:
            await site.start()
        except OSError as exc:
            await self.runner.cleanup()
            raise UnoAttackError(f"--port {self.config.port}: cannot listen on {bind}: "
                                 f"{exc.strerror or exc}") from None
        self.port = self.runner.addresses[0][1]
        address = lan_address() if self.config.lan else "127.0.0.1"
        self.writes = write_in_background(self.session, asyncio.get_running_loop(),
                                          self.flow.note)  # the loop never waits on a disk
        self.server.after_saves = self.writes.after_saves
        if self.config.lobby and not self.config.resume:  # a resumed round goes on at once
            self.lobby = Lobby(self.flow, start_after=self.config.start_after)
            self.server.lobby = self.lobby
            self.lobby_task = asyncio.create_task(self.lobby.run())
        self.task = asyncio.create_task(self.flow.run())
        self.task.add_done_callback(self._table_ended)
        # What the host built to start (the modules, the app, the session: some 50,000
        # objects) is left out of the collector's full passes, each of which walked it
        # again: at a tenth of a core one such pass held the loop for 350 ms mid-round.
        gc.collect()
        gc.freeze()
        return join_lines(self.flow, self.tokens, f"http://{address}:{self.port}")

    def _table_ended(self, task: asyncio.Task[None]) -> None:
        """The table loop ended by itself: a fault. Say what it was, and close the host."""
        if task.cancelled() or task.exception() is None:
            return
        exc = task.exception()
        self.failure = f"the table stopped: {type(exc).__name__}: {exc}"
        self.say(self.failure)
        self.stopping.set()

    async def stop(self) -> None:
        """Close every connection (close frames), stop the table, make the writes still
        queued (off the loop: a locked store may hold them), close the launcher."""
        self.flow.stop()
        if self.writes is not None:
            await asyncio.to_thread(self.writes.close)
        self.flow.close()
        if self.runner is not None:
            await self.runner.cleanup()
        for name in ("lobby_task", "task"):
            task = getattr(self, name, None)
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        gc.unfreeze()  # for a process that goes on (a test, a program hosting tables)

    def operator_line(self, line: str) -> None:
        """A line typed at the host's terminal; in the lobby, Enter or ``start`` deals."""
        if self.lobby is not None and self.lobby.open:
            if line.strip() in ("", "start"):
                self.lobby.start("the host started it")
            else:
                self.say(f"operator: {line.strip()!r}: the round has not started; "
                         "press Enter (or type start) to deal now")
            return
        refused = self.flow.operator(line)
        if refused:
            self.say(f"operator: {refused}")


async def serve(config: HostConfig, *, out: TextIO = sys.stdout,
                stdin: TextIO | None = None) -> int:
    """Run the host until Ctrl-C or SIGTERM; return the exit status."""
    host = Host(config, out=out)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):  # before the URLs: a stop is never lost
        loop.add_signal_handler(signum, host.stopping.set)
    try:
        urls = await host.start()
    except BaseException:
        host.flow.close()
        raise
    for label, url in urls:
        print(f"{label}: {url}", file=out, flush=True)
    if host.lobby is not None:
        print(lobby_line(config, stdin is not None), file=out, flush=True)
    if config.qr:
        for label, url in urls[:-1]:
            print(f"\n{label}", file=out)
            draw_qr(url, out)
        out.flush()
    reading = _read_lines(stdin, host.operator_line) if stdin is not None else None
    try:
        await host.stopping.wait()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        if reading is not None:
            reading()
        host.say("closing the table")
        await host.stop()
    if host.failure:
        print(f"uno-attack host: error: {host.failure} (the journal is kept: --resume)",
              file=sys.stderr)
        return 1
    return 0


def lobby_line(config: HostConfig, reading: bool) -> str:
    """What the host says while the seats fill: when the round will start."""
    ways = ["when every person has joined"]
    if reading:
        ways.append("when you press Enter (or type start)")
    if config.start_after is not None:
        ways.append(f"{config.start_after:g} s from now at the latest")
    return "lobby: the round starts " + ", or ".join(ways)


#: The longest line the operator may type; the rest of a longer one is ignored.
MAX_OPERATOR_LINE = 4096


def _read_lines(stdin: TextIO, handle: Callable[[str], None]) -> Callable[[], None]:
    """Call ``handle`` with each line typed at the host's terminal; returns the undo.

    Only what has arrived is read (``os.read`` of a readable descriptor never waits), and
    a line is handled once its newline comes: a partial line on a pipe holds nothing up.
    """
    loop = asyncio.get_running_loop()
    fd = stdin.fileno()
    pending = bytearray()

    def readable() -> None:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # end of input (no terminal): the last line, then stop listening
            loop.remove_reader(fd)
            if pending.strip():
                handle(pending.decode(errors="replace"))
            return
        pending.extend(data)
        *lines, rest = pending.split(b"\n")
        pending[:] = rest[:MAX_OPERATOR_LINE]
        for line in lines:
            handle(line[:MAX_OPERATOR_LINE].decode(errors="replace") + "\n")

    def undo() -> None:
        loop.remove_reader(fd)

    try:
        loop.add_reader(fd, readable)
    except (OSError, ValueError, NotImplementedError):
        return lambda: None  # a regular file or no stdin: nothing to read
    return undo
