"""The save file: checked before a game starts, rewritten whole after every action.

A save is written to a temporary file beside it and renamed over it, so a reader (or a
resume after a crash) finds the old file or the new one, whole, never half of one. A
write that fails (a full disk, a folder made read-only, a removed USB stick) leaves the
last good save exactly as it was, and is *reported*, not raised: the game goes on in
memory and says so, and the next write that succeeds saves everything again.

A save in use is locked (:class:`SaveLock`: ``flock`` on a ``.NAME.lock`` file beside it,
which the system lets go when the process ends, however it ends), so a second game on the
same file is refused before it moves or writes anything.

The temporary file is named ``.NAME.PID.tmp`` after the save and the writing process. A
``kill -9`` between writing and renaming leaves it behind; :func:`clean_stale_temps`,
run when a game or a simulation starts writing, removes those whose process is gone.
(No scheme of writing can avoid the leftover: the data must exist under some name
before the rename, and a killed process cannot remove it.)
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from uno_attack.errors import UnoAttackError


class SaveError(UnoAttackError):
    """A save path that cannot hold a game, or a folder that cannot hold saved rounds:
    ``where`` (the argument and path), and the ``reason``."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.reason = reason


# ---------------------------------------------------------------------- paths
def check_save_file(path: Path, *, flag: str, make_folder: bool = False) -> None:
    """Refuse, before a game starts, a path that cannot hold its save file.

    The folder must exist (``make_folder``: create it, for the default place under
    ``$XDG_STATE_HOME``) and take a new file; the path must not be a folder.
    """
    where = f"{flag} {path}"
    if path.is_dir():
        raise SaveError(where, f"is a folder; name a file in it, such as {path / 'game.json'}")
    if path.exists() and not path.is_file():
        raise SaveError(where, "is not a regular file")
    folder = path.parent
    if make_folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SaveError(where, f"cannot make the folder {folder}: "
                                   f"{exc.strerror or exc}") from None
    _check_folder(folder, where)


def check_save_folder(path: Path, *, flag: str) -> None:
    """Refuse a path that cannot hold saved files: make it if only it is missing."""
    where = f"{flag} {path}"
    if path.exists() and not path.is_dir():
        raise SaveError(where, "is a file, not a folder")
    if not path.exists():
        _check_folder(path.parent, where)
        try:
            path.mkdir()
        except OSError as exc:
            raise SaveError(where, f"cannot make the folder: {exc.strerror or exc}") from None
    _check_folder(path, where)


def _check_folder(folder: Path, where: str) -> None:
    """The folder exists, is a folder, and takes a new file (tried, not guessed: a
    read-only mount, ``/proc`` or a full quota only show when writing)."""
    if not folder.exists():
        raise SaveError(where, f"the folder {folder} does not exist")
    if not folder.is_dir():
        raise SaveError(where, f"{folder} is not a folder")
    probe = _temp_path(folder / ".uno-attack-probe")
    try:
        _write_new(probe, "")
    except OSError as exc:
        raise SaveError(where, f"cannot write in {folder}: {exc.strerror or exc}") from None
    probe.unlink(missing_ok=True)


def previous_path(path: Path) -> Path:
    """Where a new game keeps the save of the last one: ``game.previous.json``."""
    return path.with_suffix(".previous.json")


def keep_previous(path: Path) -> None:
    """Move the last game's save aside to :func:`previous_path` (over an older one)."""
    if not path.exists():
        return
    previous = previous_path(path)
    try:
        os.replace(path, previous)
    except OSError as exc:
        raise SaveError(str(path), f"cannot keep it as {previous}: "
                                   f"{exc.strerror or exc}") from None


# ---------------------------------------------------------------------- writing
def _temp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _write_new(path: Path, text: str) -> None:
    """Write ``text`` to a new file at ``path`` and flush it to the disk.

    Whatever was at ``path`` (a temp file of a dead process with our pid, or a link
    someone put there) is removed first and never followed.
    """
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a reader sees the old or the new file, whole.

    Raises ``OSError``; then the old file is untouched and no temporary file is left.
    """
    tmp = _temp_path(path)
    _write_new(tmp, text)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself survive a power cut (where the file system allows)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def clean_stale_temps(folder: Path, name: str | None = None) -> None:
    """Remove the temporary files a killed writer left in ``folder`` for the file
    ``name`` (or for any file): those of a process that no longer runs."""
    pattern = "*" if name is None else glob.escape(name)
    for tmp in folder.glob(f".{pattern}.*.tmp"):
        pid = tmp.name.removesuffix(".tmp").rpartition(".")[2]
        if pid.isascii() and pid.isdigit() and _running(int(pid)):
            continue
        with contextlib.suppress(OSError):
            tmp.unlink()


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return False  # our own leftover: nothing of ours is writing it now
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # gone, or never a pid
        return False
    except PermissionError:
        return True  # another user's process: leave its file be
    return True


# ---------------------------------------------------------------------- locking
class SaveInUse(SaveError):
    """Another process is playing a game on this save."""


class SaveLock:
    """A save held by this process: an exclusive ``flock`` on ``.NAME.lock`` beside it.

    The lock file is never removed (a file removed while another process opens it would
    let two hold "the" lock); the lock itself ends when the last holder here releases it,
    or with the process. Within one process a save is held once, however many games
    (a session, and the new-game step that keeps the last save aside) take it.
    """

    _held: ClassVar[dict[Path, tuple[int, int]]] = {}  # lock file → (descriptor, holders)

    def __init__(self, path: Path, *, flag: str = "--save") -> None:
        self.lock_path = path.parent.resolve() / f".{path.name}.lock"
        self._released = False
        held = SaveLock._held.get(self.lock_path)
        if held is not None:
            SaveLock._held[self.lock_path] = (held[0], held[1] + 1)
            return
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o600)
        except OSError:
            # no file can be made in its folder: no other game can write the save either
            # (and this one's failing writes are reported as they happen)
            self._released = True
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _read_pid(fd)
            os.close(fd)
            by = f" (process {holder})" if holder else ""
            raise SaveInUse(f"{flag} {path}", f"another game is using it{by}; end that "
                                              f"one, or give this one its own file with "
                                              f"--save FILE") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        SaveLock._held[self.lock_path] = (fd, 1)

    def release(self) -> None:
        """Let go of the save (once; the lock ends with its last holder here)."""
        if self._released:
            return
        self._released = True
        fd, holders = SaveLock._held.pop(self.lock_path)
        if holders > 1:
            SaveLock._held[self.lock_path] = (fd, holders - 1)
        else:
            os.close(fd)  # closing the descriptor ends the flock


def _read_pid(fd: int) -> str:
    with contextlib.suppress(OSError):
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text.isascii() and text.isdigit():
            return text
    return ""


@dataclass(frozen=True)
class SaveFailure:
    """Why the last write of a save failed; the file holds the last good save."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"Could not save the game to {self.path}: {self.reason}"


class Journal:
    """A game's save file, rewritten whole after every action.

    A failing write never raises: it is kept in :attr:`failure` (``None`` again after a
    write that succeeds), so the game goes on and the screen can say so at once. The save
    is locked (:class:`SaveLock`) from here until :meth:`close`: another game on it
    raises :class:`SaveInUse`.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = SaveLock(path)
        self.failure: SaveFailure | None = None
        #: told when saving starts failing (the failure) or works again (None)
        self.listener: Callable[[SaveFailure | None], None] | None = None
        clean_stale_temps(path.parent, path.name)

    def write(self, text: str) -> SaveFailure | None:
        before = self.failure
        try:
            write_atomic(self.path, text)
        except OSError as exc:
            self.failure = SaveFailure(self.path, exc.strerror or str(exc))
        else:
            self.failure = None
        if (before is None) != (self.failure is None) and self.listener is not None:
            self.listener(self.failure)
        return self.failure

    def close(self) -> None:
        """Let another game use the save (the lock also ends with the process)."""
        self.lock.release()
