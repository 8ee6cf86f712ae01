"""A tournament: every bot against every other, at each table size, with 95 % intervals.

A match-up of ``bot`` against ``rival`` at ``players`` seats is one ``bot`` and
``players - 1`` of ``rival`` (heads-up: one each), for ``games`` rounds of
:func:`~uno_attack.simulate.simulate` with the line-up rotating, so each plays from every
seat equally often. Its figure is the share of rounds ``bot`` won, with the Wilson score
interval at 95 % (it stays inside 0–100 % and is honest near either end, where the normal
approximation is not), beside the fair share ``1 / players``. Heads-up, ``bot`` against
``rival`` is the same match-up as ``rival`` against ``bot`` and is played once; at more
seats both are played, since one against three is not three against one.

Every match-up has its own seed, drawn from the tournament's seed and its names, so adding
a bot or a table size does not change the figures of the others.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from uno_attack.bots import DEFAULT_BUDGET_MS
from uno_attack.options import Options
from uno_attack.simulate import simulate

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile


@dataclass(frozen=True)
class MatchUp:
    """One bot against the rest of a table of one rival kind, and how often it won."""

    players: int
    bot: str
    rival: str
    games: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def fair_share(self) -> float:
        return 1 / self.players

    def to_json(self) -> dict[str, object]:
        low, high = self.interval
        return {"players": self.players, "bot": self.bot, "against": self.rival,
                "games": self.games, "wins": self.wins, "rate": self.rate,
                "interval_95": [low, high], "fair_share": self.fair_share}


def wilson(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / games``."""
    if games < 1:
        raise ValueError("an interval needs at least one game")
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def match_ups(bots: Sequence[str], table_sizes: Sequence[int]) -> list[tuple[int, str, str]]:
    """Every (players, bot, rival) to play, in order: see the module docstring."""
    out: list[tuple[int, str, str]] = []
    for players in table_sizes:
        pairs = combinations(bots, 2) if players == 2 else permutations(bots, 2)
        out += [(players, bot, rival) for bot, rival in pairs]
    return out


def play_tournament(
    bots: Sequence[str],
    table_sizes: Sequence[int],
    games: int,
    seed: int,
    *,
    options: Options | None = None,
    policy: str = "attack",
    workers: int = 1,
    playouts: int | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
    on_match_up: Callable[[MatchUp], None] | None = None,
) -> list[MatchUp]:
    """Play every match-up (``on_match_up`` after each) and return them in order."""
    results = []
    for players, bot, rival in match_ups(bots, table_sizes):
        line_up = ",".join([bot, *[rival] * (players - 1)])
        stats = simulate(games, players, line_up, _seed(seed, players, bot, rival),
                         policy=policy, options=options, workers=workers,
                         playouts=playouts, budget_ms=budget_ms)
        result = MatchUp(players, bot, rival, stats.games, stats.wins_by_kind[bot])
        results.append(result)
        if on_match_up is not None:
            on_match_up(result)
    return results


def _seed(seed: int, players: int, bot: str, rival: str) -> int:
    """A match-up's own seed, the same on every machine (``hash`` of a str is not)."""
    return zlib.crc32(f"{seed}:{players}:{bot}:{rival}".encode())
