"""The player database file: opening it, and creating or upgrading its schema.

The schema's version is kept in the file (``PRAGMA user_version``) beside an application
id that marks the file as ours (``PRAGMA application_id``). :data:`MIGRATIONS` is the
ordered list of steps from an empty file to the current schema; opening a file runs the
steps it lacks, each in its own transaction, so an old file is upgraded in place and an
interrupted upgrade leaves it at its last whole version. A file from a newer program, or
an SQLite file of another program, is refused, never touched.

Every connection uses WAL mode and a busy timeout, so a game and a host can write to the
same file at once: a writer waits for the other's transaction instead of failing.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from uno_attack.store.cells import decode
from uno_attack.store.records import StoreError

#: "UNOA": marks the file as a player database of uno-attack.
APPLICATION_ID = 0x554E4F41

#: How long a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_S = 5.0

#: How long to wait before trying again to switch a file that another program is
#: opening to WAL mode.
WAL_RETRY_S = 0.005

#: The steps from an empty file to each version: ``MIGRATIONS[n]`` upgrades version ``n``
#: to ``n + 1``. Never edit a released step; add one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: profiles, matches, rounds with their transcripts, and what each seat played
    (
        """CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            created_at TEXT NOT NULL)""",
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            rules TEXT NOT NULL,
            options TEXT NOT NULL,
            winners TEXT)""",
        """CREATE TABLE match_seats (
            match_id INTEGER NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            player_id INTEGER REFERENCES players(id),
            score INTEGER,
            won INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (match_id, seat))""",
        """CREATE TABLE rounds (
            id INTEGER PRIMARY KEY,
            match_id INTEGER NOT NULL REFERENCES matches(id),
            number INTEGER NOT NULL,
            finished_at TEXT NOT NULL,
            transcript TEXT NOT NULL,
            UNIQUE (match_id, number))""",
        """CREATE TABLE round_seats (
            round_id INTEGER NOT NULL REFERENCES rounds(id),
            seat INTEGER NOT NULL,
            match_seat INTEGER NOT NULL,
            round_points INTEGER NOT NULL,
            score INTEGER NOT NULL,
            hand_points INTEGER NOT NULL,
            won INTEGER NOT NULL,
            career_points INTEGER NOT NULL,
            PRIMARY KEY (round_id, seat))""",
        """CREATE TABLE round_cards (
            round_id INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            card TEXT NOT NULL,
            played INTEGER NOT NULL,
            gained INTEGER NOT NULL,
            PRIMARY KEY (round_id, seat, card),
            FOREIGN KEY (round_id, seat) REFERENCES round_seats(round_id, seat))""",
    ),
    # 2: where a match was played (the network host records matches too; every match of a
    # version-1 file came from 'play'), and an index for a player's records, which every
    # stats and history query starts from
    (
        "ALTER TABLE matches ADD COLUMN source TEXT NOT NULL DEFAULT 'play'",
        "CREATE INDEX match_seats_by_player ON match_seats(player_id)",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)


def connect(path: Path, *, create: bool = True, upgrade_to: int | None = None
            ) -> sqlite3.Connection:
    """Open the player database at ``path``, creating or upgrading its schema.

    With ``create=False`` a missing file is an error instead of a new database.
    ``upgrade_to`` stops the upgrade at an older version (to build a test's old file).
    Raises :class:`StoreError` naming the file for everything that goes wrong.
    """
    if path.is_dir():
        raise StoreError(f"{path}: is a directory, not a player database")
    if not path.exists():
        if not create:
            raise StoreError(f"{path}: no player database here (nothing recorded yet?)")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{path}: cannot create its folder: {exc.strerror}") from None
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                               check_same_thread=False)
    except sqlite3.Error as exc:
        raise explain(exc, path) from None
    conn.text_factory = decode
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        _check_ours(conn, path)
        _use_wal(conn)
        _upgrade(conn, path, len(MIGRATIONS) if upgrade_to is None else upgrade_to)
    except sqlite3.Error as exc:
        conn.close()
        raise explain(exc, path) from None
    except UnicodeDecodeError:
        conn.close()
        raise unreadable(path) from None
    except StoreError:
        conn.close()
        raise
    return conn


def _use_wal(conn: sqlite3.Connection) -> None:
    """WAL lets readers and a writer work at once; NORMAL sync is WAL's own advice: a
    commit survives a crash of the program, and the file is never corrupted. A read-only
    file keeps the mode it has: it can still be read.

    Switching a new file to WAL needs it to itself, and SQLite answers "busy" at once,
    without its busy handler, while another program is switching or opening the same
    file; so the switch is tried again until the busy timeout runs out.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            break
        except sqlite3.OperationalError as exc:
            name = getattr(exc, "sqlite_errorname", "")
            if name.startswith("SQLITE_READONLY"):
                break
            if not name.startswith("SQLITE_BUSY") or time.monotonic() >= deadline:
                raise
            time.sleep(WAL_RETRY_S)
    conn.execute("PRAGMA synchronous = NORMAL")


def version_of(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _check_ours(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a file that is not a player database, or of a newer schema.

    The reads are one transaction: another program creating the schema at this moment
    is seen either before its first step or after it, never as tables without our id.
    """
    conn.execute("BEGIN")
    try:
        _check_snapshot(conn, path)
    finally:
        conn.execute("COMMIT")


def _check_snapshot(conn: sqlite3.Connection, path: Path) -> None:
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    if app_id not in (0, APPLICATION_ID):
        raise StoreError(f"{path}: an SQLite database of another program "
                         f"(application id {app_id:#x}), not a player database")
    if app_id == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise StoreError(f"{path}: an SQLite database of another program, "
                         "not a player database")
    version = version_of(conn)
    if version < 0:
        raise StoreError(f"{path}: damaged or not a player database (schema version "
                         f"{version})")
    if version > len(MIGRATIONS):
        raise StoreError(f"{path}: written by a newer uno-attack (schema version {version}; "
                         f"this one reads up to {len(MIGRATIONS)}): upgrade uno-attack to "
                         "use it")


def _upgrade(conn: sqlite3.Connection, path: Path, target: int) -> None:
    """Run the missing migration steps, one transaction each.

    Each step re-reads the version inside its write transaction, so two programs opening
    an old file at once upgrade it once.
    """
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = version_of(conn)
            if version >= target:
                conn.execute("COMMIT")
                return
            if version == 0:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
                raise StoreError(f"{path}: read-only, and of schema version {version}: this "
                                 f"uno-attack reads it once upgraded to version {target}, "
                                 "which needs write access") from None
            raise
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


def unreadable(path: Path) -> StoreError:
    """For the UnicodeDecodeError Python's sqlite3 raises instead of SQLite's error when
    the message quotes damaged bytes of the file (a name in a damaged schema)."""
    return StoreError(f"{path}: damaged or not a player database (SQLite's message about "
                      "it is not even text)")


def explain(exc: sqlite3.Error, path: Path) -> StoreError:
    """One line a person understands for an SQLite error on the file at ``path``."""
    name = getattr(exc, "sqlite_errorname", "")
    if name in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
        return StoreError(f"{path}: damaged or not a player database ({exc})")
    if name.startswith("SQLITE_CANTOPEN"):
        return StoreError(f"{path}: cannot be opened ({exc}; check the path and its "
                          "permissions)")
    if name.startswith("SQLITE_READONLY"):
        return StoreError(f"{path}: read-only, nothing can be recorded in it")
    if name in ("SQLITE_BUSY", "SQLITE_LOCKED"):
        return StoreError(f"{path}: locked by another program for more than "
                          f"{BUSY_TIMEOUT_S:g} s")
    if name == "SQLITE_FULL":
        return StoreError(f"{path}: the disk is full")
    return StoreError(f"{path}: {exc}")
