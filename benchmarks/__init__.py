"""Benchmarks run by ``make bench``: every ``bench_*.py`` module here adds rows to one table.

A module defines ``run() -> list[Row]``. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One line of the benchmark table."""

    name: str
    value: str
    note: str = ""


def interleaved_best(measures: Mapping[str, Callable[[], float | None]],
                     repeats: int = 5) -> dict[str, float | None]:
    """Each measure's best over ``repeats`` rounds that run every measure once in turn
    (load on the machine only ever slows a run down, so the best is the least disturbed
    one); ``None`` for a measure that has nothing to measure (a peer not installed)."""
    runs: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(repeats):
        for name, measure in measures.items():
            value = measure()
            if value is not None:
                runs[name].append(value)
    return {name: max(values) if values else None for name, values in runs.items()}
