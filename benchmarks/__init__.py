"""Benchmarks run by ``make bench``: every ``bench_*.py`` module here adds rows to one table.

A module defines ``run() -> list[Row]``. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One line of the benchmark table."""

    name: str
    value: str
    note: str = ""
