"""``uno-attack host``: host a table that phones and terminals join (NETWORK.md).

Every mistake in the arguments is one line naming the option and its value, exit 2.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from uno_attack.cli import rule_options, table_args
from uno_attack.cli.args import ArgumentParser, wait_seconds, whole_number
from uno_attack.cli.table_args import add_pace_arguments, add_table_arguments
from uno_attack.errors import UnoAttackError
from uno_attack.session import default_save_path

DEFAULT_HUMANS = "Player 1,Player 2"


def default_journal() -> Path:
    """``$XDG_STATE_HOME/uno-attack/host.json``, beside ``play``'s saved game."""
    return default_save_path().with_name("host.json")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="uno-attack host",
        description="Host a table: each person joins from a phone's browser or a terminal "
                    "with a join URL; the launcher, bots and journal stay here. Listens on "
                    "127.0.0.1 unless --lan. Ctrl-C or SIGTERM closes the table.")
    parser.add_argument("--port", type=whole_number, default=8765,
                        help="TCP port (default 8765; 0: any)")
    parser.add_argument("--lan", action="store_true",
                        help="listen on every interface; URLs use this machine's LAN address")
    add_table_arguments(parser, humans=DEFAULT_HUMANS,
                        humans_help="the people, each joining from a device",
                        bots_help="the bots' kind, also standing in for an away person "
                                  "(default basic)")
    parser.add_argument("--turn-seconds", type=wait_seconds, default=None, metavar="N",
                        help="turn timer: after N seconds the host acts for a person "
                             "(VARIANTS.md C)")
    parser.add_argument("--away-seconds", type=wait_seconds, default=60.0, metavar="N",
                        help="a person with no connection this long at their turn gets a "
                             "bot standing in until they are back (default 60)")
    add_pace_arguments(parser)
    parser.add_argument("--round-pause", type=wait_seconds, default=8.0, metavar="SECONDS",
                        help="time on the scores before the next round (default 8)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--start-when-full", action="store_true",
                       help="deal once every person has joined (the default on a terminal, "
                            "where Enter also deals)")
    start.add_argument("--start-after", type=wait_seconds, default=None, metavar="S",
                       help="deal once every person has joined, or S seconds after the "
                            "host opened at the latest")
    start.add_argument("--start-now", action="store_true",
                       help="deal at once, without a lobby (the default off a terminal)")
    parser.add_argument("--resume", action="store_true",
                        help="go on from the journal, with the same join URLs")
    parser.add_argument("--save", type=Path, default=None, metavar="FILE",
                        help="the journal (default $XDG_STATE_HOME/uno-attack/host.json)")
    parser.add_argument("--db", type=Path, default=None, metavar="FILE",
                        help="the player store that records every round and match "
                             "(default $XDG_DATA_HOME/uno-attack/players.db)")
    parser.add_argument("--no-record", action="store_true",
                        help="host without recording the match in the player store")
    parser.add_argument("--qr", action=argparse.BooleanOptionalAction, default=None,
                        help="draw each join URL as a QR code (default: when on a terminal)")
    return parser


def config_from_args(argv: list[str]):  # type: ignore[no-untyped-def]
    """The host's config from command-line words; bad values raise UnoAttackError."""
    from uno_attack.flow import FlowSettings
    from uno_attack.net.host import HostConfig
    from uno_attack.session import GameConfig
    from uno_attack.store import default_db_path

    args = build_parser().parse_args(argv)
    humans = table_args.people(args)
    if not 0 <= args.port <= 65535:
        raise UnoAttackError(f"--port {args.port}: must be 0 to 65535")
    bot_delay, catch_delay = table_args.pace(args)
    if args.turn_seconds is not None and args.turn_seconds <= 0:
        raise UnoAttackError(f"--turn-seconds {args.turn_seconds}: must be more than 0")
    options = rule_options.options_from(args)
    game = GameConfig(humans=humans, players=table_args.seats(args, humans), bots=args.bots,
                      launcher=args.launcher, policy=args.policy, seed=table_args.seed(args),
                      options=options, save=args.save or default_journal(),
                      db=None if args.no_record else args.db or default_db_path(),
                      source="host")
    flow = FlowSettings(bot_delay=bot_delay, catch_delay=catch_delay,
                        turn_seconds=args.turn_seconds, away_seconds=args.away_seconds,
                        round_pause=args.round_pause)
    qr = args.qr if args.qr is not None else sys.stdout.isatty()
    lobby = not args.start_now and (args.start_when_full or args.start_after is not None
                                    or sys.stdin.isatty())
    return HostConfig(game=game, flow=flow, port=args.port, lan=args.lan,
                      resume=args.resume, qr=qr, lobby=lobby, start_after=args.start_after)


def main(argv: list[str]) -> int:
    from uno_attack.net.host import serve

    config = config_from_args(argv)
    return asyncio.run(serve(config, stdin=sys.stdin))
