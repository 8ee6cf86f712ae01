"""Levels: a title for a player's career points, as the classic UNO app gave (VARIANTS.md C).

Career points are the points a player scored as the winner of rounds (see
:func:`uno_attack.store.records.career_credit`); the table below turns them into one of
twenty titles, from Intern to Global President.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

#: (career points from which the level starts, title), level 1 first. Level 1 also holds any
#: total below 15.
LEVELS: tuple[tuple[int, str], ...] = (
    (0, "Intern"),
    (15, "Staff"),
    (50, "Salesperson"),
    (100, "Sales Lead"),
    (180, "Operations Manager"),
    (300, "Marketing Director"),
    (500, "Operations Director"),
    (800, "HR Director"),
    (1200, "CIO"),
    (2000, "CFO"),
    (3500, "COO"),
    (6000, "CEO"),
    (9000, "Assistant VP"),
    (13000, "First VP"),
    (18000, "Vice President"),
    (25000, "General Manager"),
    (35000, "President East China"),
    (50000, "President Greater China"),
    (70000, "President Asia"),
    (100000, "Global President"),
)

_STARTS = [start for start, _ in LEVELS]


@dataclass(frozen=True)
class Level:
    """A player's level: its number (1–20), title, and the career points it was read from."""

    number: int
    title: str
    points: int

    @property
    def next_at(self) -> int | None:
        """Career points at which the next level starts; ``None`` at the top level."""
        return LEVELS[self.number][0] if self.number < len(LEVELS) else None

    @property
    def to_next(self) -> int | None:
        """Points still needed for the next level; ``None`` at the top level."""
        return None if self.next_at is None else self.next_at - self.points

    def __str__(self) -> str:
        """The short form shown beside a name: ``L3 Salesperson``."""
        return f"L{self.number} {self.title}"

    def describe(self) -> str:
        """One line for a stats page: ``level 3, Salesperson: 42 points to level 4``."""
        text = f"level {self.number}, {self.title}"
        if self.to_next is None:
            return text + ": the top level"
        return f"{text}: {self.to_next} points to level {self.number + 1}"


def level_for(points: int) -> Level:
    """The level of a player with ``points`` career points."""
    number = max(bisect_right(_STARTS, points), 1)
    return Level(number, LEVELS[number - 1][1], points)
