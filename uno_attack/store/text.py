"""The player store's reports as text, for ``stats``, ``history`` and the game's screens.

Card codes become card names here (the store itself keeps codes only).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from uno_attack.cards import Card
from uno_attack.errors import InvalidCardError
from uno_attack.rules import RULE_SETS
from uno_attack.store.reports import CardCount, PlayerStats, Tally
from uno_attack.wording import YOU


def when(moment: datetime) -> str:
    """A time stamp in the local time zone, to the minute."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def card_text(count: CardCount | None, verb: str) -> str:
    """``blue Hit 2 (BH), played 12 times``; ``—`` when there is none."""
    if count is None:
        return "—"
    name = f"{card_name(count.card)} ({count.card})"
    return f"{name}, {verb} {count.times} time{'s' if count.times != 1 else ''}"


def fired_to(name: str) -> str:
    """``fired to them``; ``fired to you`` said of the player called "You"."""
    return "fired to you" if name == YOU else "fired to them"


def card_name(code: str) -> str:
    """``blue Hit 2`` for ``BH``: a code means the same card in every rule set that has it."""
    try:
        card = Card.parse(code)
    except InvalidCardError:  # a card of a rule set this version does not know
        return code
    return next((rules.card_name(card) for rules in RULE_SETS.values() if card in rules), code)


def tally_text(tally: Tally) -> str:
    """``3/6 (50 %)``: won of played."""
    if tally.rate is None:
        return "—"
    return f"{tally.won}/{tally.played} ({100 * tally.rate:.0f} %)"


def options_text(rules: str, options: Mapping[str, Any]) -> str:
    """``attack, match=lowest target=300``; ``attack, official rules`` without options."""
    shown = " ".join(f"{k}={v}" for k, v in sorted(options.items()) if k != "rules")
    return f"{rules}, {shown or 'official rules'}"


def summary_lines(stats: PlayerStats) -> list[str]:
    """A person's record in four short lines, for the game's stats screen."""
    level = stats.level
    head = f"{stats.name} · {level} · {stats.career_points} career points"
    if level.to_next is not None:
        head += f" · {level.to_next} to level {level.number + 1}"
    return [
        head,
        f"  rounds won {tally_text(stats.rounds)} · matches won {tally_text(stats.matches)}"
        f" · longest streak {stats.longest_streak}",
        f"  favourite card: {card_text(stats.favourite_card, 'played')}",
        f"  luckiest card: {card_text(stats.luckiest_card, fired_to(stats.name))}",
    ]
