"""``uno-attack simulate``: bots play N rounds; print games, actions, presses and wins."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from uno_attack.cli import rule_options
from uno_attack.penalties import Unit
from uno_attack.rules import rule_set
from uno_attack.simulate import BOT_MIXES, simulate


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="uno-attack simulate",
        description="Bots play N full rounds with the simulated launcher. The same seed "
                    "prints the same output.")
    parser.add_argument("--games", type=int, default=100, help="rounds to play (default 100)")
    parser.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    parser.add_argument("--bots", choices=BOT_MIXES, default="mixed",
                        help="mixed: one basic bot, the others random; its seat rotates")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="attack", help="ejection policy (default attack)")
    rule_options.add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--save", type=Path, metavar="DIR",
                        help="write each round as a transcript that 'replay' accepts")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 10:
        parser.error(f"--players {args.players}: must be 2 to 10")
    if args.games < 1:
        parser.error(f"--games {args.games}: must be at least 1")
    options = rule_options.options_from(args)
    stats = simulate(args.games, args.players, args.bots, args.seed, policy=args.policy,
                     options=options, save_dir=args.save)
    if args.json:
        print(json.dumps(stats.to_json(), indent=2))
        return 0
    print(f"games         {stats.games}")
    print(f"actions       {stats.actions}")
    takes, taken = ("draws", "cards drawn") if rule_set(options.rules).unit is Unit.DRAW else (
        "presses", "cards fired")
    print(f"{takes:<13} {stats.presses}")
    print(f"{taken:<13} {stats.cards_fired}")
    print(f"mean actions  {stats.mean_actions:.1f} per round")
    print("wins")
    width = max(len(n) for n in stats.names)
    for name in stats.names:
        wins = stats.wins[name]
        print(f"  {name:<{width}}  {wins:>6}  {100 * wins / stats.games:5.1f} %")
    return 0
