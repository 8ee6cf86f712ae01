"""The tournament: who plays whom, the interval it prints, and the command as users run it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.one_line import assert_one_line
from uno_attack.options import Options
from uno_attack.tournament import match_ups, play_tournament, wilson


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", "tournament", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("wins", "games", "low", "high"), [
    (5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0),
    (572, 1000, 0.5411, 0.6023)])
def test_the_wilson_interval(wins: int, games: int, low: float, high: float) -> None:
    got = wilson(wins, games)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_heads_up_once_per_pair_and_both_ways_at_a_bigger_table() -> None:
    assert match_ups(["basic", "random", "rule"], [2, 4]) == [
        (2, "basic", "random"), (2, "basic", "rule"), (2, "random", "rule"),
        (4, "basic", "random"), (4, "basic", "rule"), (4, "random", "basic"),
        (4, "random", "rule"), (4, "rule", "basic"), (4, "rule", "random")]


def test_a_match_up_s_figures_do_not_depend_on_the_others_played() -> None:
    options = Options(rules="classic")
    few = play_tournament(["basic", "rule"], [2], 30, 7, options=options)
    more = play_tournament(["basic", "rule", "random"], [3, 2], 30, 7, options=options)
    assert few[0] in more
    assert few[0].games == 30
    assert 0 < few[0].wins < 30  # a real contest, not a walkover either way


def test_the_command_prints_json_with_every_match_up() -> None:
    result = run("--bots", "basic,rule", "--players", "2,3", "--games", "12", "--seed", "3",
                 "--option", "rules=classic", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [(m["players"], m["bot"], m["against"]) for m in report["match_ups"]] == [
        (2, "basic", "rule"), (3, "basic", "rule"), (3, "rule", "basic")]
    for m in report["match_ups"]:
        low, high = m["interval_95"]
        assert low <= m["rate"] <= high
        assert m["rate"] == m["wins"] / m["games"] == m["wins"] / 12
    assert run("--bots", "basic,rule", "--players", "2,3", "--games", "12", "--seed", "3",
               "--option", "rules=classic", "--json", "--workers", "2").stdout == result.stdout


@pytest.mark.parametrize(("args", "fragments"), [
    (("--bots", "basic,wizard"), ("--bots basic,wizard", "'wizard'", "known:")),
    (("--bots", "basic"), ("--bots basic", "two or more")),
    (("--players", "2,11"), ("--players 2,11", "2 to 10")),
    (("--players", "4,4"), ("--players 4,4", "twice")),
    (("--games", "0"), ("--games 0", "at least 1")),
    (("--workers", "x"), ("--workers x",)),
])
def test_bad_arguments_get_one_line_and_exit_2(args: tuple[str, ...],
                                                fragments: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert_one_line(result, *fragments)
