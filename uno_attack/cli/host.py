"""``uno-attack host``: host a table that phones and terminals join (NETWORK.md).

Every mistake in the arguments is one line naming the option and its value, exit 2.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path
from typing import NoReturn

from uno_attack.bots import BOT_KINDS
from uno_attack.errors import UnoAttackError
from uno_attack.options import Options

DEFAULT_HUMANS = "Player 1,Player 2"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block) and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def default_journal() -> Path:
    """``$XDG_STATE_HOME/uno-attack/host.json``, beside ``play``'s saved game."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "uno-attack" / "host.json"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="uno-attack host",
        description="Host a table: each person joins from a phone's browser or a terminal "
                    "with a join URL; the launcher, bots and journal stay here. Listens on "
                    "127.0.0.1 unless --lan. Ctrl-C or SIGTERM closes the table.")
    parser.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0: any)")
    parser.add_argument("--lan", action="store_true",
                        help="listen on every interface; URLs use this machine's LAN address")
    parser.add_argument("--players", type=int, default=None,
                        help="seats, 2 to 10 (default 4, or the number of --humans if more)")
    parser.add_argument("--humans", default=DEFAULT_HUMANS, metavar="NAMES",
                        help=f"the people's seats, comma-separated (default {DEFAULT_HUMANS!r});"
                             " the other seats are bots")
    parser.add_argument("--bots", choices=BOT_KINDS, default="basic",
                        help="the bots' kind, also standing in for an away person (default basic)")
    parser.add_argument("--launcher", default="sim", metavar="SPEC",
                        help="sim, sim:gentle, fixed:1, gpio, gpio:emulated, serial:PORT, "
                             "serial:emulated (default sim)")
    parser.add_argument("--policy", default="attack", help="ejection policy (default attack)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of RULES.md section 9 (repeatable)")
    parser.add_argument("--seed", default=None, help="seed of the deal, bots and launcher")
    parser.add_argument("--turn-seconds", type=float, default=None, metavar="N",
                        help="turn timer: after N seconds the host acts for a person "
                             "(VARIANTS.md C)")
    parser.add_argument("--away-seconds", type=float, default=60.0, metavar="N",
                        help="a person with no connection this long at their turn gets a "
                             "bot standing in until they are back (default 60)")
    parser.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                        help="pause before each bot move (default 0.8)")
    parser.add_argument("--catch-delay", type=float, default=None, metavar="SECONDS",
                        help="how long bots take to catch a missed UNO (default 1.5, or 0 "
                             "with --bot-delay 0)")
    parser.add_argument("--round-pause", type=float, default=8.0, metavar="SECONDS",
                        help="time on the scores before the next round (default 8)")
    parser.add_argument("--resume", action="store_true",
                        help="go on from the journal, with the same join URLs")
    parser.add_argument("--save", type=Path, default=None, metavar="FILE",
                        help="the journal (default $XDG_STATE_HOME/uno-attack/host.json)")
    parser.add_argument("--qr", action=argparse.BooleanOptionalAction, default=None,
                        help="draw each join URL as a QR code (default: when on a terminal)")
    return parser


def config_from_args(argv: list[str]):  # type: ignore[no-untyped-def]
    """The host's config from command-line words; bad values raise UnoAttackError."""
    from uno_attack.flow import FlowSettings
    from uno_attack.net.host import HostConfig
    from uno_attack.tui.session import GameConfig

    args = build_parser().parse_args(argv)
    humans = [n.strip() for n in args.humans.split(",") if n.strip()]
    if not humans:
        raise UnoAttackError(f"--humans {args.humans!r}: name at least one person")
    if len(set(humans)) != len(humans):
        raise UnoAttackError(f"--humans {args.humans!r}: every name must differ")
    if not 0 <= args.port <= 65535:
        raise UnoAttackError(f"--port {args.port}: must be 0 to 65535")
    for name in ("turn_seconds", "away_seconds", "bot_delay", "catch_delay", "round_pause"):
        value = getattr(args, name)
        if value is not None and not value >= 0:  # also refuses nan
            raise UnoAttackError(f"--{name.replace('_', '-')} {value}: must be 0 or more")
    if args.turn_seconds is not None and args.turn_seconds <= 0:
        raise UnoAttackError(f"--turn-seconds {args.turn_seconds}: must be more than 0")
    options = Options.from_assignments(args.option)
    seed: int | str | None = args.seed
    if seed is None:
        seed = random.randrange(1_000_000)
    elif str(seed).lstrip("-").isdigit():
        seed = int(seed)
    players = args.players if args.players is not None else max(4, len(humans))
    catch_delay = args.catch_delay if args.catch_delay is not None else (
        1.5 if args.bot_delay > 0 else 0.0)
    game = GameConfig(humans=humans, players=players, bots=args.bots, launcher=args.launcher,
                      policy=args.policy, seed=seed, options=options,
                      save=args.save or default_journal(), forget_uno=0.2)
    flow = FlowSettings(bot_delay=args.bot_delay, catch_delay=catch_delay,
                        turn_seconds=args.turn_seconds, away_seconds=args.away_seconds,
                        round_pause=args.round_pause)
    qr = args.qr if args.qr is not None else sys.stdout.isatty()
    return HostConfig(game=game, flow=flow, port=args.port, lan=args.lan,
                      resume=args.resume, qr=qr)


def main(argv: list[str]) -> int:
    from uno_attack.net.host import serve

    config = config_from_args(argv)
    return asyncio.run(serve(config, stdin=sys.stdin))
