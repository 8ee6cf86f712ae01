"""Where a bot at a table thinks, so that the event loop (every phone, every screen)
never waits for it.

A ``smart`` bot searches for up to half a second of a fast core a move; in a thread of
the table's process it would hold the GIL against the event loop, which on a small board
then gets about half of the core. It searches in a process of its own instead, at the
lowest priority (the table's process comes first whenever it has work), on a copy of the
round; the bot's copy comes back with what it learned (what it saw the other seats do),
and the bot at the table takes it on, so its next choices are those it would have made
in this process. The process is forked on the first such move (a table of ``basic``
bots never starts one) from a fork server, and the start, the pickling and the waiting
run in a thread of their own. A host starts the fork server, and waits for it, before
it listens (:func:`prepare`): the server's start (an interpreter importing the game, a
tenth of a second of a fast core, which a tenth of a core makes a second) is over before
anyone plays, at the lowest priority from its first import on.

A ``basic`` or ``random`` bot chooses in microseconds: at once, on the caller's thread,
which costs less than handing the work to another thread.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from collections.abc import Iterable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import resource_tracker
from typing import Any

from uno_attack.actions import Action
from uno_attack.bots import Player, SmartBot
from uno_attack.engine import Round

#: What the fork server imports once, in order: first what lowers its priority, then
#: what each thinking process needs, so that it starts ready.
PRELOAD = ["uno_attack.lowest_priority", "uno_attack.thinker"]


class Thinker:
    """One table's bots' thinking; :meth:`close` stops it (and its process)."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    @property
    def started(self) -> bool:
        """Whether a thinking process was started (a bot that searches moved)."""
        return self._pool is not None

    def think(self, bot: Player, game: Round, seat: int) -> Future[Action]:
        """The choice of ``bot`` for ``seat`` in ``game`` (a copy nobody else changes),
        done at once or later (see the module docstring)."""
        if not searches(bot):
            done: Future[Action] = Future()
            try:
                done.set_result(bot.choose(game, seat, game.legal_actions()))
            except Exception as exc:  # the caller's future carries it, as a thread's does
                done.set_exception(exc)
            return done
        if self._closed:
            stopped: Future[Action] = Future()
            stopped.cancel()
            return stopped
        return self._thread.submit(self._in_process, bot, game, seat)

    def _in_process(self, bot: Player, game: Round, seat: int) -> Action:
        with self._lock:
            if self._closed:
                raise CancelledError
            if self._pool is None:
                context = _fork_server()
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
            pool = self._pool
        try:
            thought = pool.submit(choose, bot, game, seat)
        except RuntimeError:  # closed meanwhile: the pool takes no more work
            raise CancelledError from None
        action, learned = thought.result()
        # the table's loop reads the bot only once this future is done
        vars(bot).update(vars(learned))
        return action

    def close(self) -> None:
        """Stop thinking: a search under way is dropped, the process ends after it."""
        with self._lock:
            self._closed = True
            pool = self._pool
        self._thread.shutdown(wait=False, cancel_futures=True)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def searches(bot: Player) -> bool:
    """Whether ``bot`` thinks long enough to be worth a process of its own."""
    return isinstance(bot, SmartBot)


def prepare(kinds: Iterable[str]) -> bool:
    """If a bot of one of these kinds searches, start the fork server and return once it
    is ready (it forked a first process, which ends at once); whether it did. Calling it
    again only forks that process again."""
    if SmartBot.kind not in kinds:
        return False
    ready = _fork_server().Process(target=_ready, name="uno-attack-fork-server-ready")
    ready.start()  # once the server has imported the game: it forks only after that
    ready.join()
    return True


def _ready() -> None:
    """In the fork server's first process: nothing (it started, so the server is ready)."""


def _fork_server() -> multiprocessing.context.ForkServerContext:
    """The fork server's context, with its preload set and the resource tracker (which
    the server needs) started."""
    _start_resource_tracker()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def choose(bot: Player, game: Round, seat: int) -> tuple[Action, Any]:
    """In the thinking process: the bot's choice, and the bot as it is after it."""
    return bot.choose(game, seat, game.legal_actions()), bot


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with the process's own standard error:
    it passes on ``sys.stderr`` by its descriptor, and a full-screen app (Textual, in
    ``play``) puts an object there whose descriptor is -1, so the tracker, and with it
    the thinking process, could not start."""
    try:
        usable = sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable:
        return
    captured, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = captured
