"""The arguments every command that sets a table shares (``play``, ``host``): the seats,
the bots, the launcher, the seed, the rule options and the bots' pace."""

from __future__ import annotations

import argparse
import random

from uno_attack.bots import BOT_KINDS
from uno_attack.cli import rule_options
from uno_attack.errors import UnoAttackError


def add_table_arguments(parser: argparse.ArgumentParser, *, humans: str, humans_help: str,
                        bots_help: str) -> None:
    """``--players --humans --bots --launcher --policy --seed --preset --option``."""
    parser.add_argument("--players", type=int, default=None,
                        help="seats, 2 to 10 (default 4, or the number of --humans if more)")
    parser.add_argument("--humans", default=humans, metavar="NAMES",
                        help=f"{humans_help}, comma-separated; the other seats are bots "
                             f"(default: {humans})")
    parser.add_argument("--bots", choices=BOT_KINDS, default="basic", help=bots_help)
    parser.add_argument("--launcher", default="sim", metavar="SPEC",
                        help="sim, sim:gentle, fixed:1, scripted:1,0,2, gpio, gpio:emulated, "
                             "serial:PORT, serial:emulated (default sim)")
    parser.add_argument("--policy", default="attack",
                        help="ejection policy of the sim launcher (default attack)")
    parser.add_argument("--seed", default=None,
                        help="seed of the deal, bots and launcher (default: random)")
    rule_options.add_arguments(parser)


def add_pace_arguments(parser: argparse.ArgumentParser) -> None:
    """``--bot-delay --catch-delay``."""
    parser.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                        help="pause before each bot move (default 0.8)")
    parser.add_argument("--catch-delay", type=float, default=None, metavar="SECONDS",
                        help="how long bots take to catch a missed UNO "
                             "(default 1.5, or 0 with --bot-delay 0)")


def people(args: argparse.Namespace) -> list[str]:
    """The names of ``--humans``, each once."""
    humans = [n.strip() for n in args.humans.split(",") if n.strip()]
    if not humans:
        raise UnoAttackError(f"--humans {args.humans!r}: name at least one person")
    if len({name.casefold() for name in humans}) != len(humans):
        raise UnoAttackError(f"--humans {args.humans!r}: every name must differ "
                             "(case aside: profiles are by name)")
    return humans


def seats(args: argparse.Namespace, humans: list[str]) -> int:
    return args.players if args.players is not None else max(4, len(humans))


def seed(args: argparse.Namespace) -> int | str:
    """``--seed`` as a number when it is one; a fresh random one when absent."""
    if args.seed is None:
        return random.randrange(1_000_000)
    text = str(args.seed)
    return int(text) if text.lstrip("-").isdigit() else text


def pace(args: argparse.Namespace) -> tuple[float, float]:
    """(bot delay, catch delay) in seconds, each 0 or more."""
    for name in ("bot_delay", "catch_delay"):
        value = getattr(args, name)
        if value is not None and not value >= 0:  # also refuses nan
            raise UnoAttackError(f"--{name.replace('_', '-')} {value}: must be 0 or more")
    catch_delay = args.catch_delay
    if catch_delay is None:
        catch_delay = 1.5 if args.bot_delay > 0 else 0.0
    return args.bot_delay, catch_delay
