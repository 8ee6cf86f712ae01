"""Like-for-like speed: whole rounds of classic UNO played with RLCard's move semantics by
both engines in the same run, in rounds per second.

The steps-per-second rows of :mod:`benchmarks.bench_engine` compare different games: our
random players may draw while holding a playable card (VARIANTS.md A4), so a random round
here is far longer than RLCard's. Here both engines play the game RLCard's UNO defines
(``rlcard/games/uno/round.py``): a seat plays a card picked uniformly from RLCard's legal
set — the cards matching the top card's colour or value and the wilds, each wild once per
colour, a Wild Draw Four only when nothing else can be played — else it draws one card,
and plays the drawn card when it is a wild or of the colour asked (else keeps it). Our
engine runs through its public API (``Match.deal_round``, ``Round.legal_actions``,
``Round.push``) with the classic rule set, ``wild_draw_four=free`` (RLCard has no
challenge); the deal counts in both, as ``init_game`` deals.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence

from benchmarks import Row, interleaved_best
from uno_attack.actions import Action, Verb
from uno_attack.cards import Card
from uno_attack.engine import Phase, Round
from uno_attack.match import Match
from uno_attack.options import Options

SECONDS = 1.0
ROUND_LIMIT = 10_000  # actions; RLCard's loop is cut at the same length


def rlcard_pick(game: Round, legal: Sequence[Action], pick: Callable[[], float]) -> Action:
    """The action RLCard's semantics choose among our engine's ``legal`` ones."""
    if game.phase is Phase.AFTER:  # it drew: the drawn card goes down if it fits
        drawn = game.hands[game.to_act][-1]
        plays = [a for a in legal if a.verb is Verb.PLAY and a.cards == (drawn,)]
        if plays and (game.kind(drawn).wild or drawn.color is game.color):
            return plays[int(pick() * len(plays))]
        return next(a for a in legal if a.verb is Verb.PASS)
    if game.phase is not Phase.PLAY:  # a wild starter's colour: RLCard's is random too
        return legal[int(pick() * len(legal))]
    plays = [a for a in legal if a.verb is Verb.PLAY and len(a.cards) == 1]
    ordinary = [a for a in plays if not _draw_four(game, a.cards[0])]
    choice = ordinary or plays
    if choice:
        return choice[int(pick() * len(choice))]
    return next(a for a in legal if a.verb is Verb.DRAW)


def _draw_four(game: Round, card: Card) -> bool:
    kind = game.kind(card)
    return kind.wild and kind.fair is not None


def ours_rounds_per_second(players: int, seconds: float = SECONDS) -> float:
    options = Options(rules="classic", match="single", first_dealer="random",
                      wild_draw_four="free")
    names = [f"p{i}" for i in range(players)]
    rounds = 0
    started = time.perf_counter()
    over = Phase.OVER
    while time.perf_counter() - started < seconds:
        match = Match(names, options, seed=rounds)
        game, _ = match.deal_round()
        pick = random.Random(rounds).random
        shuffle = match.reload_rng().shuffle
        for _ in range(ROUND_LIMIT):
            if game.phase is over:
                break
            game.push(rlcard_pick(game, game.legal_actions(), pick), shuffle=shuffle)
        rounds += 1
    return rounds / (time.perf_counter() - started)


def rlcard_rounds_per_second(players: int, seconds: float = SECONDS) -> float | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    rounds = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        pick = random.Random(rounds).random
        game.np_random = np.random.RandomState(rounds)
        game.init_game()
        for _ in range(ROUND_LIMIT):
            if game.is_over():
                break
            legal = game.get_legal_actions()
            game.step(legal[int(pick() * len(legal))])
        rounds += 1
    return rounds / (time.perf_counter() - started)


def mean_round_length(players: int, rounds: int = 200) -> float:
    """Actions per round of our engine under these semantics (a check that the game is
    RLCard's size, not the long rounds of a random picker)."""
    options = Options(rules="classic", match="single", first_dealer="random",
                      wild_draw_four="free")
    total = 0
    for seed in range(rounds):
        match = Match([f"p{i}" for i in range(players)], options, seed=seed)
        game, _ = match.deal_round()
        pick = random.Random(seed).random
        shuffle = match.reload_rng().shuffle
        for _ in range(ROUND_LIMIT):
            if game.phase is Phase.OVER:
                break
            game.push(rlcard_pick(game, game.legal_actions(), pick), shuffle=shuffle)
            total += 1
    return total / rounds


def run() -> list[Row]:
    rows = []
    for players in (2, 4):
        best = interleaved_best({
            "ours": functools.partial(ours_rounds_per_second, players),
            "rlcard": functools.partial(rlcard_rounds_per_second, players),
        })
        ours, theirs = best["ours"], best["rlcard"]
        assert ours is not None
        label = f"like-for-like: {players}p classic, RLCard's moves"
        rows.append(Row(f"{label}, our engine", f"{ours:,.0f}",
                        f"rounds/s, best of 5 interleaved; "
                        f"{mean_round_length(players):.0f} actions a round"))
        if theirs is None:
            rows.append(Row(f"{label}, RLCard", "n/a", "rlcard not installed (make bench)"))
            continue
        rows.append(Row(f"{label}, RLCard", f"{theirs:,.0f}", "rounds/s, best of 5 interleaved"))
        rows.append(Row(f"{label}, ours / RLCard", f"{ours / theirs:.2f}x", "target ≥ 2x"))
    return rows
