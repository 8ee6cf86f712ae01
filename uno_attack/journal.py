"""The save file: checked before a game starts, rewritten whole after every action.

A save is written to a temporary file beside it and renamed over it, so a reader (or a
resume after a crash) finds the old file or the new one, whole, never half of one. A
write that fails (a full disk, a folder made read-only, a removed USB stick) leaves the
last good save exactly as it was, and is *reported*, not raised: the game goes on in
memory and says so, and the next write that succeeds saves everything again.

The temporary file is named ``.NAME.PID.tmp`` after the save and the writing process. A
``kill -9`` between writing and renaming leaves it behind; :func:`clean_stale_temps`,
run when a game or a simulation starts writing, removes those whose process is gone.
(No scheme of writing can avoid the leftover: the data must exist under some name
before the rename, and a killed process cannot remove it.)
"""

from __future__ import annotations

import contextlib
import glob
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
    write that succeeds), so the game goes on and the screen can say so at once.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
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
