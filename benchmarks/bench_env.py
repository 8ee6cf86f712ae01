"""The environment's ``step`` beside RLCard's ``env.step``, classic UNO for 2 players.

Both loops do an agent's work per step with random legal moves: ours reads the agent's
observation (``last()``, which builds the observation array and the action mask), picks an
id the mask allows and steps; RLCard's picks from the state's legal actions and steps
(its ``env.step`` returns the next state, observation included). Ours is measured bare
(``raw_env``) and in PettingZoo's classic wrappers (``env``, as its own classic games come).
Interleaved runs, the best of each kept, each timed in CPU time (other work on a shared
machine does not count).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from benchmarks import Row, interleaved_best

REPEATS = 3
SECONDS = 1.0


def env_steps_per_second(make: Callable[..., Any], seconds: float = SECONDS) -> float:
    import numpy as np

    game = make(rules="classic", players=2)
    game.reset(seed=1)
    pick = random.Random(1).random
    steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        for _agent in game.agent_iter():
            obs, _, terminated, truncated, _ = game.last()
            action = None
            if not (terminated or truncated):
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(pick() * len(legal))])
            game.step(action)
            steps += 1
        game.reset()
    return steps / (time.process_time() - started)


def rlcard_env_steps_per_second(seconds: float = SECONDS) -> float | None:
    try:
        import rlcard
    except ImportError:
        return None
    game = rlcard.make("uno", config={"seed": 1, "game_num_players": 2})
    pick = random.Random(1).random
    steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state, _ = game.reset()
        while not game.is_over():
            legal = list(state["legal_actions"])
            state, _ = game.step(legal[int(pick() * len(legal))])
            steps += 1
    return steps / (time.process_time() - started)


def run() -> list[Row]:
    from uno_attack.env import env, raw_env

    best = interleaved_best({"raw": lambda: env_steps_per_second(raw_env),
                             "wrapped": lambda: env_steps_per_second(env),
                             "rlcard": rlcard_env_steps_per_second}, REPEATS)
    bare, wrapped, rl = best["raw"] or 0.0, best["wrapped"] or 0.0, best["rlcard"]
    runs = f"steps/s (CPU time), best of {REPEATS} interleaved runs"
    rows = [Row("env: raw_env step, classic 2p", f"{bare:,.0f}", runs),
            Row("env: env() step (PettingZoo's wrappers)", f"{wrapped:,.0f}", runs)]
    if rl is None:
        return [*rows, Row("RLCard env.step", "n/a", "rlcard not installed (make bench)")]
    return [*rows,
            Row("RLCard uno env.step, 2p", f"{rl:,.0f}", runs),
            Row("env raw_env / RLCard env.step", f"{bare / rl:.2f}x", ""),
            Row("env env() / RLCard env.step", f"{wrapped / rl:.2f}x", "")]
