"""The ``--db`` option of the commands that read the player store (``stats``, ``history``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from uno_attack.store import PlayerStore, default_db_path


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=None, metavar="FILE",
                        help="the player store (default $XDG_DATA_HOME/uno-attack/players.db)")


def open_store(args: argparse.Namespace) -> PlayerStore:
    """The store named by ``--db`` (or the default), which must exist already."""
    return PlayerStore.open(args.db or default_db_path(), create=False)
