"""Levels of VARIANTS.md C: every edge of the table, read from the spec's own text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from uno_attack.store import LEVELS, level_for

VARIANTS = Path(__file__).resolve().parents[3] / "shared" / "VARIANTS.md"


def spec_levels() -> list[tuple[int, str, int | None, int | None]]:
    """(number, title, lowest, highest) for each level as VARIANTS.md C writes it."""
    text = VARIANTS.read_text(encoding="utf-8")
    section = text[text.index("- **Levels.**"):text.index("## D.")]
    section = " ".join(section.split())
    found: list[tuple[int, str, int | None, int | None]] = []
    for number, title, span in re.findall(r"(\d+) ([A-Z][A-Za-z ]*?) (≤ \d+|\d+–\d+|≥ \d+)",
                                          section):
        if span.startswith("≤"):
            found.append((int(number), title, None, int(span[1:])))
        elif span.startswith("≥"):
            found.append((int(number), title, int(span[1:]), None))
        else:
            low, high = span.split("–")
            found.append((int(number), title, int(low), int(high)))
    return found


SPEC = spec_levels()


def test_the_spec_has_twenty_levels_in_order() -> None:
    assert [n for n, *_ in SPEC] == list(range(1, 21))
    assert len(LEVELS) == 20


@pytest.mark.parametrize(("number", "title", "low", "high"), SPEC)
def test_each_level_holds_its_range_and_not_one_point_more(
        number: int, title: str, low: int | None, high: int | None) -> None:
    if low is not None:
        assert (level_for(low).number, level_for(low).title) == (number, title)
        assert level_for(low - 1).number == number - 1
    if high is not None:
        assert (level_for(high).number, level_for(high).title) == (number, title)
        assert level_for(high + 1).number == number + 1
        assert level_for(high).to_next == 1


@pytest.mark.parametrize(("points", "number"), [
    (0, 1), (14, 1), (15, 2), (49, 2), (50, 3), (99, 3), (100, 4), (179, 4), (180, 5),
    (299, 5), (300, 6), (499, 6), (500, 7), (799, 7), (800, 8), (1199, 8), (1200, 9),
    (1999, 9), (2000, 10), (3499, 10), (3500, 11), (5999, 11), (6000, 12), (8999, 12),
    (9000, 13), (12999, 13), (13000, 14), (17999, 14), (18000, 15), (24999, 15),
    (25000, 16), (34999, 16), (35000, 17), (49999, 17), (50000, 18), (69999, 18),
    (70000, 19), (99999, 19), (100000, 20), (10**9, 20),
])
def test_the_edges_of_the_table(points: int, number: int) -> None:
    assert level_for(points).number == number


def test_points_to_the_next_level() -> None:
    assert level_for(0).to_next == 15
    assert level_for(14).to_next == 1
    assert level_for(15).to_next == 35
    assert level_for(99999).to_next == 1
    assert level_for(100000).to_next is None
    assert level_for(100000).next_at is None


def test_the_level_as_text() -> None:
    assert str(level_for(60)) == "L3 Salesperson"
    assert level_for(60).describe() == "level 3, Salesperson: 40 points to level 4"
    assert level_for(123456).describe() == "level 20, Global President: the top level"
