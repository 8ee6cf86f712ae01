"""What ``stats`` and ``history`` share: the ``--db`` option and the player store as text."""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path
from typing import Any

from uno_attack.cards import Card
from uno_attack.errors import InvalidCardError
from uno_attack.store import CardCount, PlayerStore, Tally, default_db_path


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=None, metavar="FILE",
                        help="the player store (default $XDG_DATA_HOME/uno-attack/players.db)")


def open_store(args: argparse.Namespace) -> PlayerStore:
    """The store named by ``--db`` (or the default), which must exist already."""
    return PlayerStore.open(args.db or default_db_path(), create=False)


def when(moment: datetime) -> str:
    """A time stamp in the local time zone, to the minute."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def card_text(count: CardCount | None, verb: str) -> str:
    """``blue Hit 2 (BH), played 12 times``; ``—`` when there is none."""
    if count is None:
        return "—"
    try:
        name = f"{Card.parse(count.card).name} ({count.card})"
    except InvalidCardError:  # a card of a rule set this version does not know
        name = count.card
    return f"{name}, {verb} {count.times} time{'s' if count.times != 1 else ''}"


def tally_text(tally: Tally) -> str:
    """``3/6 (50 %)``: won of played."""
    if tally.rate is None:
        return "—"
    return f"{tally.won}/{tally.played} ({100 * tally.rate:.0f} %)"


def options_text(rules: str, options: dict[str, Any]) -> str:
    """``attack, match=lowest target=300``; ``attack, official rules`` without options."""
    shown = " ".join(f"{k}={v}" for k, v in sorted(options.items()) if k != "rules")
    return f"{rules}, {shown or 'official rules'}"
