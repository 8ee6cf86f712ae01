"""A game's disk writes off the event loop: the journal after every action, and the player
store after every round, each on its own thread in the order they were asked for.

A store locked by another program (SQLite waits up to its busy timeout), a slow SD card or
a stalled USB stick then holds up only its thread; every view, timer and key goes on, and
a locked store never holds up the journal. Nothing is dropped: :meth:`Background.close`
waits for every write already asked for. A host sends a change's views once its journal
is written (:meth:`Background.after_saves`): a crash never loses what a phone was shown.
The host and the terminal game install it (:func:`write_in_background`) once their loop
runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from uno_attack.journal import Journal, SaveFailure, write_atomic

if TYPE_CHECKING:
    from uno_attack.session import Recorded, Session

T = TypeVar("T")


class Writer:
    """One thread for the writes; each job's ``then`` runs on ``loop`` once it is done."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uno-attack-writes")
        self._closed = False
        self._pending = 0  # jobs asked for whose outcome the loop has not had yet

    def submit(self, job: Callable[[], T], then: Callable[[T], None] | None = None) -> None:
        if self._closed:  # the game is ending: the last writes are made here and now
            outcome = job()
            if then is not None:
                then(outcome)
            return
        self._pending += 1
        context = contextvars.copy_context()  # the outcome is met where it was asked for
        self._pool.submit(job).add_done_callback(partial(self._deliver, then, context))

    @property
    def idle(self) -> bool:
        """Every write asked for is made and its outcome delivered."""
        return self._pending == 0

    def _deliver(self, then: Callable[[T], None] | None, context: contextvars.Context,
                 future: Future[T]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: the game has ended
            self._loop.call_soon_threadsafe(self._done, then, future, context=context)

    def _done(self, then: Callable[[T], None] | None, future: Future[T]) -> None:
        self._pending -= 1
        if then is not None:
            then(future.result())

    def close(self) -> None:
        """Wait for every write asked for (none is lost), then end the thread."""
        self._closed = True
        self._pool.shutdown(wait=True)


class BackgroundJournal(Journal):
    """A journal whose writes go to a :class:`Writer`: :attr:`failure` (kept on the
    loop) is what the last write that ended found, and the listener is told there."""

    def __init__(self, path: Path, writer: Writer) -> None:
        super().__init__(path)
        self.writer = writer

    def write(self, text: str, *,
              then: Callable[[SaveFailure | None], None] | None = None) -> SaveFailure | None:
        """Queue the write; ``then`` is told its outcome on the loop (a retry waits for it)."""
        def written(failure: SaveFailure | None) -> None:
            self._written(failure)
            if then is not None:
                then(failure)

        self.writer.submit(partial(self._write, text), written)
        return self.failure

    def _write(self, text: str) -> SaveFailure | None:
        try:
            write_atomic(self.path, text)
        except OSError as exc:
            return SaveFailure(self.path, exc.strerror or str(exc))
        return None

    def _written(self, failure: SaveFailure | None) -> None:
        before, self.failure = self.failure, failure
        if (before is None) != (failure is None) and self.listener is not None:
            self.listener(failure)


class Background:
    """The journal's writer and the player store's, as one."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.saves = Writer(loop)
        self.records = Writer(loop)

    def after_saves(self, then: Callable[[], None]) -> None:
        """Call ``then`` on the loop once the journal writes asked for so far are made
        (now, when none is waiting: nothing asked for earlier is left to overtake)."""
        if self.saves.idle:
            then()
        else:
            self.saves.submit(lambda: None, lambda _: then())

    @property
    def idle(self) -> bool:
        return self.saves.idle and self.records.idle

    def close(self) -> None:
        """Make every write asked for (see :meth:`Writer.close`)."""
        self.saves.close()
        self.records.close()


def write_in_background(session: Session, loop: asyncio.AbstractEventLoop,
                        say: Callable[[str], None],
                        recorded: Callable[[], None] = lambda: None) -> Background:
    """Move ``session``'s journal and player-store writes to a new :class:`Background`.

    Once a round's records are written, the session's :attr:`~Session.saved` and
    :attr:`~Session.levels` are current, its level-ups (or why it was not recorded) go
    to ``say`` (the table's log) and ``recorded`` is called, all on the loop.
    """
    background = Background(loop)
    old = session.journal
    if old is not None:
        journal = BackgroundJournal(old.path, background.saves)  # takes the lock once more
        journal.failure, journal.listener = old.failure, old.listener
        old.close()
        session.journal = journal
        if session.table is not None:
            session.table.journal = journal

    def announce() -> None:
        recorder = session.recorder
        if session.saved is None and recorder.recording and recorder.problem is not None:
            say(f"⚠ {recorder.problem}")
            recorder.problem = None  # said once; the next round's end finds it afresh
        for up in session.saved.level_ups if session.saved is not None else ():
            say(f"★ {up}")
        recorded()

    def write_records(job: Callable[[], Recorded], then: Callable[[Recorded], None]) -> None:
        def done(outcome: Recorded) -> None:
            then(outcome)
            announce()

        # after the change that scored the round, which may say a problem found before
        loop.call_soon(background.records.submit, job, done)

    session.write_records = write_records
    return background
