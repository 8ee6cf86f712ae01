"""Bots thinking away from the table's event loop: a search in a process of its own
chooses as it would in this one."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from concurrent.futures import CancelledError, ProcessPoolExecutor

import pytest

from uno_attack import thinker as thinking
from uno_attack.bots import BasicBot, SmartBot
from uno_attack.engine import Round
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.thinker import Thinker


def _classic_round(seed: int) -> Round:
    match = Match(["A", "B"], options=Options.from_assignments(["rules=classic"]), seed=seed)
    game, _ = match.deal_round()
    return game


def _smart(seed: str) -> SmartBot:
    # a budget no search reaches: the playouts alone end it, so choices are repeatable
    return SmartBot("A", seed=seed, playouts=8, budget_ms=1e9)


def test_a_search_in_its_process_chooses_as_in_this_one_and_keeps_what_it_learned() -> None:
    game = _classic_round(5)
    away, here, other = _smart("s"), _smart("s"), BasicBot("B", seed="b")
    thinker = Thinker()
    moves = 0
    try:
        while not game.over and moves < 12:
            seat = game.to_act
            assert seat is not None
            if seat == 0:
                chosen = thinker.think(away, game.copy(), 0).result(timeout=60)
                assert chosen == here.choose(game.copy(), 0, game.legal_actions())
                moves += 1
            else:
                chosen = other.choose(game, seat, game.legal_actions())
            game.apply(chosen)
        assert thinker.started
        assert away.memory is not None
        assert here.memory is not None
        assert away.memory.belief is not None
        assert here.memory.belief is not None
        assert [g.hand for g in away.memory.belief.guesses] == \
            [g.hand for g in here.memory.belief.guesses]
    finally:
        thinker.close()
    assert moves > 3


def test_a_basic_bot_chooses_at_once_and_starts_no_process() -> None:
    game = _classic_round(2)
    thinker = Thinker()
    try:
        seat = game.to_act
        assert seat is not None
        future = thinker.think(BasicBot("B", seed="b"), game, seat)
        assert future.done()
        assert future.result() == BasicBot("B", seed="b").choose(
            game, seat, game.legal_actions())
        assert not thinker.started
    finally:
        thinker.close()


def test_a_closed_thinker_searches_no_more() -> None:
    game = _classic_round(3)
    thinker = Thinker()
    thinker.close()
    seat = game.to_act
    assert seat is not None
    with pytest.raises(CancelledError):
        thinker.think(_smart("s"), game, seat).result(timeout=60)
    assert not thinker.started


def _priorities() -> tuple[int, int]:
    """In a process of the fork server: its priority and the server's (its parent's)."""
    return os.getpriority(os.PRIO_PROCESS, 0), os.getpriority(os.PRIO_PROCESS, os.getppid())


def test_prepare_readies_a_fork_server_at_the_lowest_priority_for_searching_bots() -> None:
    assert thinking.prepare(["basic", "smart"])
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        assert pool.submit(_priorities).result(timeout=60) == (19, 19)
    assert os.getpriority(os.PRIO_PROCESS, 0) < 19  # only the server imports what nices


def test_prepare_for_bots_that_do_not_search_starts_no_fork_server() -> None:
    script = ("from multiprocessing import forkserver\n"
              "from uno_attack import thinker\n"
              "print(thinker.prepare(['basic', 'random', 'rule']),"
              " forkserver._forkserver._forkserver_pid)")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=True)
    assert run.stdout.split() == ["False", "None"]


def test_a_fork_server_that_may_not_lower_its_priority_still_starts() -> None:
    script = ("import os\n"
              "def refused(increment):  # as seccomp answers under the host's unit\n"
              "    raise PermissionError(1, 'Operation not permitted')\n"
              "os.nice = refused\n"
              "import uno_attack.lowest_priority\n"
              "print(os.getpriority(os.PRIO_PROCESS, 0))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=True)
    assert run.stdout.strip() == str(os.getpriority(os.PRIO_PROCESS, 0))
