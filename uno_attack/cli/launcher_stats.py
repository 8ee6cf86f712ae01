"""``uno-attack launcher stats``: how an ejection policy behaves over many presses."""

from __future__ import annotations

import json

from sim_launcher.policies import PolicyError, make_policy
from sim_launcher.stats import histogram, measure
from uno_attack.cli.args import ArgumentParser, seed_value, whole_number
from uno_attack.config import user_policy_tables
from uno_attack.errors import LauncherError


def main(argv: list[str]) -> int:
    parser = ArgumentParser(
        prog="uno-attack launcher stats",
        description="Press a simulated launcher many times and print the fire rate, the "
                    "gaps between fires, the burst sizes and the longest empty run.")
    parser.add_argument("--policy", default="attack",
                        help="attack, gentle, brutal, fixed:N or a table from the config file")
    parser.add_argument("--presses", type=whole_number, default=100_000,
                        help="how many presses (default 100000)")
    parser.add_argument("--seed", type=seed_value, default=1,
                        help="a whole number or a word (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.presses < 1:
        parser.error(f"--presses {args.presses}: must be at least 1")
    try:
        policy = make_policy(args.policy, seed=args.seed, user_tables=user_policy_tables())
    except PolicyError as exc:
        raise LauncherError(str(exc)) from None
    stats = measure(policy, args.presses)
    if args.json:
        print(json.dumps(stats.to_json(), indent=2))
        return 0
    print(f"policy             {stats.policy} (seed {args.seed})")
    print(f"presses            {stats.presses}")
    print(f"fire rate          {stats.fire_rate:.4f}  ({stats.fires} fires)")
    print(f"mean burst         {stats.mean_burst:.3f} cards")
    print(f"longest empty run  {stats.longest_empty_run} presses")
    print("gaps between fires (presses)")
    print("\n".join(histogram(stats.gaps, label="fires")))
    print("burst sizes (cards per fire)")
    print("\n".join(histogram(stats.bursts, label="fires")))
    return 0
