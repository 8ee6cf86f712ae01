"""Engine throughput: 4-player random self-play, UNO Attack and classic UNO, beside RLCard.

Every loop does the same work per step: list the legal actions, pick one uniformly at
random (with the same picker, ``int(random() * n)``), apply it (an Attack press also asks
the launcher's policy how many cards fire; a classic draw reloads the pile with a seeded
shuffle). RLCard's UNO (``rlcard.games.uno.game.UnoGame``) is the reference; its game is
classic UNO, so the classic row is the like-for-like one. The figure compared is steps per
second, not games (the rules' legal moves differ: ours allow a draw while holding a
playable card, as VARIANTS.md A4 says, so random games run longer).
"""

from __future__ import annotations

import random
import time

from benchmarks import Row
from sim_launcher.policies import make_policy
from uno_attack.actions import Verb
from uno_attack.engine import Phase
from uno_attack.match import Match
from uno_attack.options import Options

SECONDS = 3.0


def engine_actions_per_second(seconds: float = SECONDS) -> float:
    actions = 0
    game_no = 0
    options = Options(match="single", first_dealer="random")
    elapsed = 0.0
    over, press = Phase.OVER, Verb.PRESS  # looked up once, as RLCard's loop needs no enums
    while elapsed < seconds:
        match = Match(["a", "b", "c", "d"], options, seed=game_no)
        game, _ = match.deal_round()
        policy = make_policy("attack", seed=game_no)
        pick = random.Random(game_no).random
        shuffle = match.reload_rng().shuffle
        t0 = time.perf_counter()
        while game.phase is not over:
            legal = game.legal_actions()
            action = legal[int(pick() * len(legal))]
            if action.verb is press:
                game.push(action, fired=policy.next_burst(), shuffle=shuffle)
            else:
                game.push(action)
            actions += 1
        elapsed += time.perf_counter() - t0  # the deal is not part of a step
        game_no += 1
    return actions / elapsed


def classic_actions_per_second(seconds: float = SECONDS) -> float:
    actions = 0
    game_no = 0
    options = Options(rules="classic", match="single", first_dealer="random")
    elapsed = 0.0
    over = Phase.OVER
    while elapsed < seconds:
        match = Match(["a", "b", "c", "d"], options, seed=game_no)
        game, _ = match.deal_round()
        pick = random.Random(game_no).random
        shuffle = match.reload_rng().shuffle
        t0 = time.perf_counter()
        while game.phase is not over:
            legal = game.legal_actions()
            game.push(legal[int(pick() * len(legal))], shuffle=shuffle)
            actions += 1
        elapsed += time.perf_counter() - t0  # the deal is not part of a step
        game_no += 1
    return actions / elapsed


def rlcard_steps_per_second(seconds: float = SECONDS) -> float | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    pick = random.Random(1).random
    steps = 0
    game_no = 0
    elapsed = 0.0
    while elapsed < seconds:
        game.np_random = np.random.RandomState(game_no)
        game.init_game()
        t0 = time.perf_counter()
        moves = 0
        while not game.is_over() and moves < 10_000:
            legal = game.get_legal_actions()
            game.step(legal[int(pick() * len(legal))])
            steps += 1
            moves += 1
        elapsed += time.perf_counter() - t0
        game_no += 1
    return steps / elapsed


def best_of(repeats: int = 5, seconds: float = 1.0) -> tuple[float, float, float | None]:
    """Best throughput of each engine over interleaved runs (load on the machine only
    ever slows a run down, so the best run is the least disturbed one)."""
    attack: list[float] = []
    classic: list[float] = []
    theirs: list[float] = []
    for _ in range(repeats):
        attack.append(engine_actions_per_second(seconds))
        classic.append(classic_actions_per_second(seconds))
        rlcard = rlcard_steps_per_second(seconds)
        if rlcard is not None:
            theirs.append(rlcard)
    return max(attack), max(classic), max(theirs) if theirs else None


def run() -> list[Row]:
    attack, classic, theirs = best_of()
    best = "best of 5 interleaved runs"
    rows = [
        Row("engine: 4p random self-play, attack launcher", f"{attack:,.0f}", f"actions/s, {best}"),
        Row("engine: 4p random self-play, classic UNO", f"{classic:,.0f}", f"actions/s, {best}"),
    ]
    if theirs is None:
        rows.append(Row("RLCard UnoGame 4p random", "n/a", "rlcard not installed (make bench)"))
    else:
        rows.append(Row("RLCard UnoGame 4p random (classic)", f"{theirs:,.0f}", f"steps/s, {best}"))
        rows.append(Row("engine attack / RLCard", f"{attack / theirs:.2f}x", "target ≥ 2x"))
        rows.append(Row("engine classic / RLCard", f"{classic / theirs:.2f}x",
                        "same rules family, same picker; target ≥ 2x"))
    return rows
