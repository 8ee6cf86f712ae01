"""``uno-attack tournament``: every bot against every other, heads-up and at bigger
tables, win rates with 95 % intervals (:mod:`uno_attack.tournament`)."""

from __future__ import annotations

import json

from uno_attack.bots import BOT_KINDS
from uno_attack.cli import rule_options
from uno_attack.cli.args import ArgumentParser, whole_number
from uno_attack.cli.simulate import add_smart_budget, check_smart_budget, worker_count
from uno_attack.errors import UnoAttackError
from uno_attack.simulate import check_run
from uno_attack.tournament import MatchUp, play_tournament


def main(argv: list[str]) -> int:
    parser = ArgumentParser(
        prog="uno-attack tournament",
        description="Every bot against every other at each table size: one bot and the "
                    "rest of the table of the other kind, seats rotating, each match-up "
                    "its own seeded rounds. Prints each bot's share of wins with its 95 % "
                    "(Wilson) interval beside the fair share.")
    parser.add_argument("--bots", default="basic,random,rule", metavar="KINDS",
                        help=f"two or more kinds, comma-separated ({', '.join(BOT_KINDS)}; "
                             "default basic,random,rule)")
    parser.add_argument("--players", default="2,4", metavar="SIZES",
                        help="table sizes, comma-separated, each 2 to 10 (default 2,4)")
    parser.add_argument("--games", type=whole_number, default=1000,
                        help="rounds per match-up (default 1000)")
    parser.add_argument("--seed", type=whole_number, default=1, help="a whole number (default 1)")
    parser.add_argument("--policy", default="attack", help="ejection policy (default attack)")
    rule_options.add_arguments(parser)
    add_smart_budget(parser)
    parser.add_argument("--workers", default="1", metavar="N",
                        help="worker processes to spread each match-up's rounds over "
                             "(default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    bots = _bots(args.bots)
    sizes = _table_sizes(args.players)
    if args.games < 1:
        parser.error(f"--games {args.games}: must be at least 1")
    check_smart_budget(parser, args)
    workers = worker_count(args.workers)
    options = rule_options.options_from(args)
    for players in sizes:  # refused before anything is played: hands too big, a bad seat
        check_run(players, ",".join(bots[:1] * players), options, args.policy)
    shown = None if args.json else _print_row
    if shown is not None:
        print(f"{'players':>7}  {'bot':<8} {'against':<8} {'games':>6} {'wins':>6} "
              f"{'win rate':>8}  {'95 % interval':<15} {'fair share':>10}")
    results = play_tournament(bots, sizes, args.games, args.seed, options=options,
                              policy=args.policy, workers=workers,
                              playouts=args.smart_playouts, budget_ms=args.smart_ms,
                              on_match_up=shown)
    if args.json:
        print(json.dumps({"seed": args.seed, "rules": options.rules,
                          "match_ups": [r.to_json() for r in results]}, indent=2))
    return 0


def _print_row(result: MatchUp) -> None:
    low, high = result.interval
    print(f"{result.players:>7}  {result.bot:<8} {result.rival:<8} {result.games:>6} "
          f"{result.wins:>6} {100 * result.rate:>7.1f}%  "
          f"{f'{100 * low:.1f}–{100 * high:.1f} %':<15} {100 * result.fair_share:>9.1f}%",
          flush=True)


def _bots(text: str) -> list[str]:
    bots = [kind.strip() for kind in text.split(",")]
    for kind in bots:
        if kind not in BOT_KINDS:
            raise UnoAttackError(f"--bots {text}: unknown bot kind {kind!r} "
                                 f"(known: {', '.join(BOT_KINDS)})")
    if len(set(bots)) != len(bots) or len(bots) < 2:
        raise UnoAttackError(f"--bots {text}: name two or more different kinds")
    return bots


def _table_sizes(text: str) -> list[int]:
    words = [word.strip() for word in text.split(",")]
    if not all(word.isascii() and word.isdigit() and 2 <= int(word) <= 10 for word in words):
        raise UnoAttackError(f"--players {text}: table sizes from 2 to 10, comma-separated "
                             "(such as 2,4)")
    sizes = [int(word) for word in words]
    if len(set(sizes)) != len(sizes):
        raise UnoAttackError(f"--players {text}: a table size named twice")
    return sizes
