"""Bots against bots: win rates and the time each kind takes per move.

``python -m benchmarks.duel smart basic --games 1000 --option rules=classic`` plays
single rounds through the table loop with the simulated launcher, one bot kind per seat,
the seats rotating each round (so every kind deals and starts as often as the others),
and prints each kind's share of the rounds won and its time per move (mean, 99th
percentile, max). Round ``i`` of seed ``S`` draws everything from ``(S, i)``, so a run
gives the same wins on any machine; ``--workers N`` spreads the rounds over processes
without changing them. The times are the machine's and its load's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

from uno_attack.actions import Action
from uno_attack.bots import BOT_KINDS, Player, make_bot
from uno_attack.cli import rule_options
from uno_attack.engine import Round
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.table import Table


class Timed:
    """A player whose every choice is timed (out-of-turn reactions are not)."""

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


@dataclass
class Tally:
    """Rounds won and move times (seconds) per kind."""

    rounds: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.rounds += other.rounds
        self.wins.update(other.wins)
        for kind, times in other.times.items():
            self.times.setdefault(kind, []).extend(times)


def play_round(kinds: Sequence[str], options: Options, seed: int, i: int,
               policy: str = "attack") -> Tally:
    """Round ``i``: kind ``k`` sits in seat ``(k + i) mod players``."""
    n = len(kinds)
    seated = [kinds[(s - i) % n] for s in range(n)]
    names = [f"{kind}@{s}" for s, kind in enumerate(seated)]
    match = Match(names, replace(options, match="single", first_dealer="random"),
                  seed=f"{seed}:{i}")
    game, record = match.deal_round()
    players = [Timed(make_bot(kind, name, seed=f"{seed}:{i}:{s}"))
               for s, (kind, name) in enumerate(zip(seated, names, strict=True))]
    launcher = open_launcher("sim", seed=(seed * 1_000_003 + i) & 0xFFFFFFFF, policy=policy)
    table = Table(game, players, launcher, record, reload_rng=match.reload_rng())
    result = table.play_round()
    tally = Tally(rounds=1)
    tally.wins[seated[result.winner]] += 1
    for kind, player in zip(seated, players, strict=True):
        tally.times.setdefault(kind, []).extend(player.times)
    return tally


def _batch(args: tuple[Sequence[str], Options, int, range, str]) -> Tally:
    kinds, options, seed, rounds, policy = args
    total = Tally()
    for i in rounds:
        total.add(play_round(kinds, options, seed, i, policy))
    return total


def duel(kinds: Sequence[str], games: int, *, options: Options | None = None, seed: int = 1,
         workers: int = 1, policy: str = "attack") -> Tally:
    """Play ``games`` rounds; the same rounds whatever ``workers`` is."""
    options = options or Options()
    chunks = [range(w, games, workers) for w in range(workers)]
    jobs = [(tuple(kinds), options, seed, chunk, policy) for chunk in chunks]
    total = Tally()
    if workers == 1:
        total.add(_batch(jobs[0]))
        return total
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_batch, jobs):
            total.add(part)
    return total


def report(tally: Tally) -> list[str]:
    lines = [f"rounds {tally.rounds}"]
    for kind in dict.fromkeys(tally.times):
        wins = tally.wins[kind]
        times = sorted(tally.times[kind]) or [0.0]
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        lines.append(f"{kind:<8} wins {wins:>5} ({100 * wins / tally.rounds:5.1f} %)  "
                     f"moves {len(times):>6}  mean {1000 * statistics.fmean(times):7.1f} ms  "
                     f"p99 {1000 * p99:7.1f} ms  max {1000 * times[-1]:7.1f} ms")
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.duel", description=__doc__)
    parser.add_argument("kinds", nargs="+", choices=BOT_KINDS, help="one bot kind per seat")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--policy", default="attack")
    rule_options.add_arguments(parser)
    args = parser.parse_args(argv)
    if not 2 <= len(args.kinds) <= 10:
        parser.error("name 2 to 10 kinds, one per seat")
    tally = duel(args.kinds, args.games, options=rule_options.options_from(args),
                 seed=args.seed, workers=args.workers, policy=args.policy)
    print("\n".join(report(tally)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
