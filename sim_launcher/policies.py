"""Ejection policies: how many cards a press of the launcher fires.

A policy decides in two steps (LAUNCHER.md): first whether the press fires at all,
from the number of empty presses since the last fire (the *tension*), then how many
cards a fire sends, from a table of weights. Every policy draws from its own seeded
``random.Random``, so the same seed gives the same presses on any machine.

Named policies: ``attack`` (the default, fitted to the real toy), ``gentle``, ``brutal``,
``fixed:N``, and tables a user defines in the config file.
"""

from __future__ import annotations

import math
import random
import reprlib
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from sim_launcher.dispenser import CARDS

__all__ = [
    "BUILTIN_POLICIES",
    "BurstPolicy",
    "PolicyError",
    "PolicyTable",
    "make_policy",
    "policy_names",
    "tables_from_config",
]


class PolicyError(ValueError):
    """A policy name or a user policy table that cannot be used."""


@dataclass(frozen=True)
class PolicyTable:
    """The numbers that define a policy.

    ``fire[m]`` is the chance that a press fires after ``m`` empty presses in a row
    (the last entry holds for any longer run); ``weights[k-1]`` is the weight of a
    burst of ``k`` cards.
    """

    name: str
    fire: tuple[float, ...]
    weights: tuple[float, ...]
    description: str = ""

    def __post_init__(self) -> None:
        where = f"policy {self.name!r}"
        if not self.fire:
            raise PolicyError(f"{where}: 'fire' must list at least one probability")
        for i, p in enumerate(self.fire):
            if not isinstance(p, int | float) or isinstance(p, bool) or not 0 <= p <= 1:
                raise PolicyError(f"{where}: fire[{i}] = {reprlib.repr(p)} is not a "
                                  "probability in 0…1")
        if self.max_empty_run is None and self.fire[-1] <= 0:
            raise PolicyError(f"{where}: fire[{len(self.fire) - 1}] = {self.fire[-1]!r}: "
                              "once the empty presses reach it, no press ever fires again "
                              "(a Wild Hit-Fire would press for ever); the last chance must "
                              "be above 0")
        if not self.weights:
            raise PolicyError(f"{where}: 'weights' must list at least one weight")
        for i, w in enumerate(self.weights):
            if not isinstance(w, int | float) or isinstance(w, bool) or not 0 <= w < math.inf:
                raise PolicyError(f"{where}: weights[{i}] = {reprlib.repr(w)} is not a "
                                  "weight ≥ 0")
        if sum(self.weights) <= 0:
            raise PolicyError(f"{where}: 'weights' must not all be zero")
        if len(self.weights) > CARDS:
            raise PolicyError(f"{where}: bursts of more than {CARDS} cards "
                              f"({len(self.weights)}) exceed what the launcher fires at once")

    @property
    def max_empty_run(self) -> int | None:
        """The longest run of empty presses this table allows, or ``None`` if unbounded."""
        for m, p in enumerate(self.fire):
            if p >= 1:
                return m
        return None

    @property
    def mean_burst(self) -> float:
        total = sum(self.weights)
        return sum(k * w for k, w in enumerate(self.weights, start=1)) / total


BUILTIN_POLICIES: dict[str, PolicyTable] = {
    "attack": PolicyTable(
        "attack",
        fire=(0.20, 0.10, 0.55, 1.00),
        weights=(24, 20, 16, 12, 9, 7, 5, 3, 2, 1, 0.6, 0.4),
        description="the real toy: fires on about 35 % of presses, bursts of 1–12 (mean 3.5)",
    ),
    "gentle": PolicyTable(
        "gentle",
        fire=(0.15, 0.15, 0.30, 0.50, 1.00),
        weights=(45, 30, 15, 7, 3),
        description="fewer and smaller bursts: about 30 % of presses, 1–5 cards (mean 1.9)",
    ),
    "brutal": PolicyTable(
        "brutal",
        fire=(0.35, 0.45, 1.00),
        weights=(8, 10, 12, 12, 12, 11, 10, 8, 7, 5, 3, 2),
        description="more and larger bursts: about 50 % of presses, 1–12 cards (mean 5.4)",
    ),
}


def _fixed_table(text: str) -> PolicyTable:
    if not (text.isascii() and text.isdigit()):
        raise PolicyError(f"invalid policy 'fixed:{text}': N must be a whole number "
                          f"1…{CARDS} (in the digits 0-9)")
    n = int(text)
    if n == 0:
        raise PolicyError("invalid policy 'fixed:0': it never fires, so a Wild Hit-Fire "
                          f"would press for ever; N must be 1…{CARDS}")
    if n > CARDS:
        raise PolicyError(f"invalid policy 'fixed:{text}': N must be 1…{CARDS}")
    weights = tuple(1.0 if k == n else 0.0 for k in range(1, n + 1))
    return PolicyTable(f"fixed:{n}", fire=(1.0,), weights=weights,
                       description=f"every press fires {n} card{'s' if n != 1 else ''}")


@dataclass
class BurstPolicy:
    """A seeded policy in play: ``next_burst()`` gives the cards the next press fires."""

    table: PolicyTable
    seed: int | str | None = None  # a word seeds as random.Random takes it
    tension: int = 0
    presses: int = field(default=0, init=False)  # presses decided since it was seeded
    _rng: random.Random = field(init=False, repr=False)
    _cumulative: list[float] = field(init=False, repr=False)
    _first_tension: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._first_tension = self.tension
        self._cumulative = list(accumulate(self.table.weights))

    @property
    def name(self) -> str:
        return self.table.name

    def replay_to(self, presses: int) -> None:
        """Be as after ``presses`` presses from its seed (and its first tension): what
        a press decides depends on every draw before it, so they are drawn again."""
        if isinstance(presses, bool) or not isinstance(presses, int) or presses < 0:
            raise PolicyError(f"policy {self.name!r}: presses = {presses!r} is not a "
                              "count ≥ 0")
        self._rng = random.Random(self.seed)
        self.tension = self._first_tension
        self.presses = 0
        for _ in range(presses):
            self.next_burst()

    def next_burst(self) -> int:
        """Decide the next press: 0 for an empty press, else the burst size 1…CARDS."""
        self.presses += 1
        fire = self.table.fire
        p = fire[self.tension] if self.tension < len(fire) else fire[-1]
        if p < 1 and (p <= 0 or self._rng.random() >= p):
            self.tension += 1
            return 0
        self.tension = 0
        total = self._cumulative[-1]
        k = bisect_right(self._cumulative, self._rng.random() * total) + 1
        return min(k, len(self._cumulative))


def tables_from_config(sections: Mapping[str, object], source: str) -> dict[str, PolicyTable]:
    """User policy tables from the ``[policies.NAME]`` sections of a config file.

    Each section has ``fire`` (list of probabilities) and ``weights`` (list of weights);
    unknown keys are rejected so a typo never passes silently. ``source`` (the file)
    begins every error message.
    """
    tables: dict[str, PolicyTable] = {}
    for name, section in sections.items():
        where = f"{source}: [policies.{name if name.isidentifier() else reprlib.repr(name)}]"
        if not isinstance(section, Mapping):
            raise PolicyError(f"{where} must be a table, not {reprlib.repr(section)}")
        if name in BUILTIN_POLICIES or name.startswith("fixed"):
            raise PolicyError(f"{where}: name {name!r} is taken by a built-in policy")
        unknown = set(section) - {"fire", "weights", "description"}
        if unknown:
            raise PolicyError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        for key in ("fire", "weights"):
            value = section.get(key)
            if not isinstance(value, Sequence) or isinstance(value, str):
                raise PolicyError(f"{where}: key {key!r} must be a list of numbers, not "
                                  f"{reprlib.repr(value)}")
        description = section.get("description", "user table")
        if not isinstance(description, str):
            raise PolicyError(f"{where}: key 'description' must be text, not "
                              f"{reprlib.repr(description)}")
        try:
            tables[name] = PolicyTable(name, fire=tuple(section["fire"]),
                                       weights=tuple(section["weights"]),
                                       description=description)
        except PolicyError as exc:
            raise PolicyError(f"{where}: {exc}") from None
    return tables


def policy_names(user_tables: Mapping[str, PolicyTable] | None = None) -> list[str]:
    """The names a user can pass as ``--policy``."""
    return [*BUILTIN_POLICIES, "fixed:N", *(user_tables or {})]


def make_policy(
    name: str,
    *,
    seed: int | str | None = None,
    user_tables: Mapping[str, PolicyTable] | None = None,
) -> BurstPolicy:
    """The policy called ``name`` (``attack``, ``fixed:3``, a user table …), seeded."""
    if name.startswith("fixed:"):
        return BurstPolicy(_fixed_table(name.partition(":")[2]), seed=seed)
    table = BUILTIN_POLICIES.get(name) or (user_tables or {}).get(name)
    if table is None:
        known = ", ".join(policy_names(user_tables))
        raise PolicyError(f"unknown policy {name!r} (known: {known})")
    return BurstPolicy(table, seed=seed)
