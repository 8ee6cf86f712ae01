"""The arguments every command that sets a table shares (``play``, ``host``): the seats,
the bots, the launcher, the seed, the rule options and the bots' pace.

Numbers are strict (:mod:`uno_attack.cli.args`): ``--players ٣`` and ``--bot-delay inf``
are refused naming the argument, and a seed is a whole number or a printable word.
"""

from __future__ import annotations

import argparse
import random

from uno_attack.bots import BOT_KINDS
from uno_attack.cli import rule_options
from uno_attack.cli.args import seconds, seed_value, whole_number
from uno_attack.errors import UnoAttackError
from uno_attack.saved_game import name_problem


def add_table_arguments(parser: argparse.ArgumentParser, *, humans: str, humans_help: str,
                        bots_help: str) -> None:
    """``--players --humans --bots --launcher --policy --seed --preset --option``."""
    parser.add_argument("--players", type=whole_number, default=None,
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
    parser.add_argument("--seed", type=seed_value, default=None,
                        help="seed of the deal, bots and launcher: a whole number or a word "
                             "(default: random)")
    rule_options.add_arguments(parser)


def add_pace_arguments(parser: argparse.ArgumentParser) -> None:
    """``--bot-delay --catch-delay``."""
    parser.add_argument("--bot-delay", type=seconds, default=0.8, metavar="SECONDS",
                        help="pause before each bot move, 0 to 60 (default 0.8)")
    parser.add_argument("--catch-delay", type=seconds, default=None, metavar="SECONDS",
                        help="how long bots take to catch a missed UNO, 0 to 60 "
                             "(default 1.5, or 0 with --bot-delay 0)")


def people(args: argparse.Namespace, *, bots_only: str | None = None) -> list[str]:
    """The names of ``--humans``, each once and each fit for a badge; ``bots_only`` is
    the word that asks for no people at all (``play``'s ``none``), where that is allowed."""
    text = args.humans
    if bots_only is not None and text.strip().casefold() == bots_only:
        return []
    humans = [n.strip() for n in text.split(",") if n.strip()]
    if not humans:
        alternative = f", or '{bots_only}' for a game of bots only" if bots_only else ""
        raise UnoAttackError(f"--humans {text!r}: name at least one person{alternative}")
    for name in humans:
        why = (f"'{bots_only}' means no people at all" if name.casefold() == bots_only
               else name_problem(name))
        if why is not None:
            raise UnoAttackError(f"--humans {text!r}: {name!r}: {why}")
    if len({name.casefold() for name in humans}) != len(humans):
        raise UnoAttackError(f"--humans {text!r}: every name must differ "
                             "(case aside: profiles are by name)")
    return humans


def seats(args: argparse.Namespace, humans: list[str]) -> int:
    return args.players if args.players is not None else max(4, len(humans))


def seed(args: argparse.Namespace) -> int | str:
    """``--seed`` as given (a number or a word); a fresh random one when absent."""
    return random.randrange(1_000_000) if args.seed is None else args.seed


def pace(args: argparse.Namespace) -> tuple[float, float]:
    """(bot delay, catch delay) in seconds: the catch delay follows the bot delay."""
    catch_delay = args.catch_delay
    if catch_delay is None:
        catch_delay = 1.5 if args.bot_delay > 0 else 0.0
    return args.bot_delay, catch_delay
