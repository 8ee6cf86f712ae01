"""Bots: how long a move takes. The ``smart`` bot at its default budget against ``basic``
(whose choice is the search's default policy, its peer here) in the same two-player rounds
of UNO Attack and classic UNO, seats rotating: the median, 99th percentile and longest of
each kind's decisions in wall time (what a player waits for, so the machine's load shows
in it), and the ratio of the medians. Win rates take many rounds:
``uno-attack simulate --players 2 --bots smart,basic --games 1000 --workers 2``.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Sequence

from benchmarks import Row
from uno_attack.actions import Action
from uno_attack.bots import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, Player, make_bot
from uno_attack.engine import Round
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.rules import rule_set
from uno_attack.table import Table

ROUNDS = 4
KINDS = ("smart", "basic")


class Timed:
    """A player whose every decision in turn is timed (reactions out of turn are not)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.times: list[float] = []

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        started = time.perf_counter()
        action = self.player.choose(game, seat, legal)
        self.times.append(time.perf_counter() - started)
        return action

    def react(self, game: Round, seat: int) -> Action | None:
        return self.player.react(game, seat)


def move_times(rules: str, rounds: int = ROUNDS) -> dict[str, list[float]]:
    """Each kind's decision times (seconds) over ``rounds`` rounds, seats rotating."""
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for i in range(rounds):
        seated = KINDS[i % 2:] + KINDS[:i % 2]
        match = Match(list(seated), Options(rules=rules, match="single",
                                            first_dealer="random"), seed=f"bench:{i}")
        game, record = match.deal_round()
        players = [Timed(make_bot(kind, kind, seed=f"bench:{i}")) for kind in seated]
        with open_launcher("sim", seed=i) as launcher:
            Table(game, players, launcher, record, reload_rng=match.reload_rng()).play_round()
        for kind, player in zip(seated, players, strict=True):
            times[kind] += player.times
    return times


def _spread(times: list[float]) -> tuple[float, float, float]:
    """Median, 99th percentile and max."""
    ordered = sorted(times)
    return (statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
            ordered[-1])


def run() -> list[Row]:
    rows = []
    for rules in ("attack", "classic"):
        budget = (f"{DEFAULT_PLAYOUTS[rule_set(rules).unit]} playouts, "
                  f"cap {DEFAULT_BUDGET_MS:.0f} ms")
        load = os.getloadavg()[0]
        times = move_times(rules)
        smart, basic = _spread(times["smart"]), _spread(times["basic"])
        rows += [
            Row(f"smart move, 2p {rules} (median / p99 / max)",
                " / ".join(f"{1e3 * t:.0f}" for t in smart),
                f"ms over {len(times['smart'])} moves; {budget}; load {load:.1f}"),
            Row(f"basic move, 2p {rules} (median / p99 / max)",
                " / ".join(f"{1e6 * t:.0f}" for t in basic),
                f"µs over {len(times['basic'])} moves"),
            Row(f"smart / basic move time, 2p {rules}", f"{smart[0] / basic[0]:,.0f}×",
                "medians, the same rounds"),
        ]
    return rows
