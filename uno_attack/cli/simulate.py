"""``uno-attack simulate``: bots play N rounds; print games, actions, presses and wins.

On a terminal (stderr a TTY, and not ``--json``) a progress bar runs on stderr; it is
Rich's (Textual's own dependency, so nothing new to install), redrawn only when rounds
finish and at most ten times a second, with no thread of its own that worker processes
could be forked beside.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from uno_attack.bots import BOT_KINDS, DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS
from uno_attack.cli import rule_options
from uno_attack.cli.args import (
    ArgumentParser,
    UsageError,
    milliseconds,
    whole_number,
)
from uno_attack.errors import UnoAttackError
from uno_attack.journal import check_save_folder
from uno_attack.penalties import Unit
from uno_attack.rules import RULE_SETS, rule_set
from uno_attack.simulate import MAX_WORKERS, SimulationStats, check_run, line_up, simulate


def main(argv: list[str]) -> int:
    kinds = ", ".join(BOT_KINDS)
    parser = ArgumentParser(
        prog="uno-attack simulate",
        description="Bots play N rounds with the simulated launcher, each the first round "
                    "of a match under the given options. The same seed prints the same "
                    "output, whatever --workers.")
    parser.add_argument("--games", type=whole_number, default=100,
                        help="rounds to play (default 100)")
    parser.add_argument("--players", type=whole_number, default=None,
                        help="2 to 10 (default 4, or the length of a --bots list)")
    parser.add_argument("--bots", default="mixed", metavar="KINDS",
                        help=f"one kind at every seat ({kinds}); mixed: one basic bot, the "
                             "others random; or KIND,KIND,... one kind per seat. mixed and "
                             "lists rotate: round i seats the list rotated by i "
                             "(default mixed)")
    parser.add_argument("--seed", type=whole_number, default=1, help="a whole number (default 1)")
    parser.add_argument("--policy", default="attack", help="ejection policy (default attack)")
    rule_options.add_arguments(parser)
    add_smart_budget(parser)
    parser.add_argument("--workers", default="1", metavar="N",
                        help="worker processes to spread the rounds over (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--save", type=Path, metavar="DIR",
                        help="write each round as a transcript that 'replay' accepts")
    args = parser.parse_args(argv)
    players = args.players
    if players is None:
        players = len(args.bots.split(",")) if "," in args.bots else 4
    if not 2 <= players <= 10:
        parser.error(f"--players {players}: must be 2 to 10")
    if args.games < 1:
        parser.error(f"--games {args.games}: must be at least 1")
    check_smart_budget(parser, args)
    workers = worker_count(args.workers)
    line_up(args.bots, players)  # an unknown kind is refused before anything is played
    options = rule_options.options_from(args)
    if any(text.partition("=")[0].strip() == "next_dealer" for text in args.option):
        raise UsageError("--option next_dealer: every simulated round is dealt afresh "
                         "(first_dealer chooses its dealer), so there is no next dealer")
    check_run(players, args.bots, options, args.policy)
    if args.save is not None:
        check_save_folder(args.save, flag="--save")
        _check_no_earlier_rounds(args.save)
    with _progress(args.games, shown=sys.stderr.isatty() and not args.json) as on_progress:
        stats = simulate(args.games, players, args.bots, args.seed, policy=args.policy,
                         options=options, save_dir=args.save, workers=workers,
                         on_progress=on_progress, playouts=args.smart_playouts,
                         budget_ms=args.smart_ms)
    if args.json:
        print(json.dumps(stats.to_json(), indent=2))
    else:
        print_stats(stats, rule_set(options.rules).unit)
    return 0


def add_smart_budget(parser: ArgumentParser) -> None:
    """``--smart-playouts`` and ``--smart-ms``: the smart bots' search budget."""
    parser.add_argument("--smart-playouts", type=whole_number, default=None, metavar="N",
                        help="playouts per decision of the smart bots (default "
                             f"{_playouts_by_rule_set()})")
    parser.add_argument("--smart-ms", type=milliseconds, default=DEFAULT_BUDGET_MS,
                        metavar="MS", help="the smart bots' time cap per decision in "
                                           f"milliseconds (default {DEFAULT_BUDGET_MS:g})")


def check_smart_budget(parser: ArgumentParser, args: argparse.Namespace) -> None:
    if args.smart_playouts is not None and args.smart_playouts < 1:
        parser.error(f"--smart-playouts {args.smart_playouts}: must be at least 1")


def _playouts_by_rule_set() -> str:
    return ", ".join(f"{DEFAULT_PLAYOUTS[rules.unit]} in {rules.title}"
                     for rules in RULE_SETS.values())


def _check_no_earlier_rounds(folder: Path) -> None:
    """Refuse a folder that holds an earlier run's rounds: the new ones would replace some
    of them and leave the rest, one set mixed into the other without a sign."""
    earlier = sorted(p.name for p in folder.glob("round-*.json"))
    if earlier:
        raise UnoAttackError(f"--save {folder}: holds {len(earlier)} round"
                             f"{'s' if len(earlier) != 1 else ''} of an earlier run "
                             f"({earlier[0]} …); give an empty folder, or remove them first")


def worker_count(text: str) -> int:
    """``--workers``: worker processes, 1 to :data:`MAX_WORKERS`."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_WORKERS:
        raise UnoAttackError(f"--workers {text}: must be a whole number from 1 to "
                             f"{MAX_WORKERS}")
    return int(text)


def print_stats(stats: SimulationStats, unit: Unit) -> None:
    print(f"games         {stats.games}")
    print(f"actions       {stats.actions}")
    takes, taken = ("draws", "cards drawn") if unit is Unit.DRAW else ("presses", "cards fired")
    print(f"{takes:<13} {stats.presses}")
    print(f"{taken:<13} {stats.cards_fired}")
    print(f"mean actions  {stats.mean_actions:.1f} per round")
    by_kind = stats.wins_by_kind
    tables = [("wins", {name: stats.wins[name] for name in stats.names})]
    if len(by_kind) > 1:
        tables.append(("wins by kind", by_kind))
    for title, wins in tables:
        print(title)
        width = max(len(n) for n in wins)
        for name, won in wins.items():
            print(f"  {name:<{width}}  {won:>6}  {100 * won / stats.games:5.1f} %")


@contextmanager
def _progress(games: int, *, shown: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar of the rounds on stderr, or nothing."""
    if not shown:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("rounds", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), auto_refresh=False) as bar:
        task = bar.add_task("rounds", total=games)
        shown_at = 0.0

        def on_progress(done: int) -> None:
            nonlocal shown_at
            now = time.monotonic()
            if now - shown_at >= 0.1 or done == games:
                shown_at = now
                bar.update(task, completed=done, refresh=True)

        yield on_progress
