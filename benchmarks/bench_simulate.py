"""``uno-attack simulate``'s loop beside RLCard's game loop, and its worker processes.

The figure is the whole command's loop: :func:`~uno_attack.simulate.simulate` as the CLI
calls it (4 random bots, the simulated launcher, no ``--save``), every deal, bot, launcher
and table included, in actions per second. RLCard's game loop (``UnoGame``, 4 players, the
same picker over the legal moves) is timed the same way, ``init_game`` (its deal) and
every step included. Their rounds differ in length (ours let a player draw while holding
a playable card, VARIANTS.md A4), so steps per second are compared, not games. The runs
are interleaved and the best of each kept, each timed in its process's CPU time, so that
other work on a shared machine neither slows one side nor the other.

``--workers 2`` against ``--workers 1`` is the same run of rounds spread over two
processes, in wall time; it can reach 2x only on two idle cores, so the note gives the
load average (which counts this benchmark's own process), and a second row the CPU time
both runs took (the workers' included), which load does not change: what spreading adds.
"""

from __future__ import annotations

import os
import random
import resource
import time

from benchmarks import Row, interleaved_best
from uno_attack.options import Options
from uno_attack.simulate import simulate

REPEATS = 5
ROUNDS = {"attack": 400, "classic": 150}  # about a second each on this machine
WORKER_ROUNDS = 2000


def simulate_actions_per_second(rules: str, *, games: int) -> float:
    started = time.process_time()
    stats = simulate(games, 4, "random", 1, options=Options(rules=rules))
    return stats.actions / (time.process_time() - started)


def rlcard_loop_steps_per_second(seconds: float = 1.0) -> float | None:
    """RLCard's classic UNO game loop, deal included, 4 players, random legal moves."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    pick = random.Random(1).random
    steps = game_no = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        game.np_random = np.random.RandomState(game_no)
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(pick() * len(legal))])
            steps += 1
        game_no += 1
    return steps / (time.process_time() - started)


def run() -> list[Row]:
    best = interleaved_best({
        **{rules: lambda rules=rules, games=games: simulate_actions_per_second(
            rules, games=games) for rules, games in ROUNDS.items()},
        "rlcard": rlcard_loop_steps_per_second}, REPEATS)
    runs = f"best of {REPEATS} interleaved runs"
    ours = {rules: best[rules] or 0.0 for rules in ROUNDS}
    rows = [Row(f"simulate: 4 random bots, {rules}", f"{value:,.0f}",
                f"actions/s (CPU time), the whole loop: deals, bots, launcher, table; {runs}")
            for rules, value in ours.items()]
    rl = best["rlcard"]
    if rl is None:
        rows.append(Row("RLCard UnoGame game loop", "n/a", "rlcard not installed (make bench)"))
    else:
        rows.append(Row("RLCard UnoGame game loop, 4p random", f"{rl:,.0f}",
                        f"steps/s (CPU time), init_game and steps, {runs}"))
        rows += [Row(f"simulate {rules} / RLCard game loop", f"{value / rl:.2f}x",
                     "target ≥ 2x") for rules, value in ours.items()]
    load = os.getloadavg()[0]
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(2):
        for workers in (1, 2):
            wall, cpu = simulate_seconds(WORKER_ROUNDS, workers)
            walls[workers].append(wall)
            cpus[workers].append(cpu)
    speedup = min(walls[1]) / min(walls[2])
    cost = min(cpus[2]) / min(cpus[1])
    rows.append(Row("simulate --workers 2 / --workers 1", f"{speedup:.2f}x",
                    f"wall time, {WORKER_ROUNDS} attack rounds, best of 2 each; {os.cpu_count()} "
                    f"cores at 1-minute load {load:.1f} (this run's own included); target ≥ "
                    f"1.7x on 2 idle cores"))
    rows.append(Row("simulate --workers 2: CPU time / --workers 1", f"{cost:.2f}x",
                    f"the work the spread adds: on 2 idle cores the speed-up can reach "
                    f"{2 / cost:.2f}x"))
    return rows


def simulate_seconds(games: int, workers: int) -> tuple[float, float]:
    """Wall time, and the CPU time of this process and its workers, of one run."""
    before = _cpu_seconds()
    started = time.perf_counter()
    simulate(games, 4, "random", 1, workers=workers)
    return time.perf_counter() - started, _cpu_seconds() - before


def _cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
