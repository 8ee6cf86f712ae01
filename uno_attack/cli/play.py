"""``uno-attack play``: parse the options, build the session, run the Textual app.

The game is saved after every action in ``$XDG_STATE_HOME/uno-attack/game.json``
(``~/.local/state/uno-attack/game.json``), or the file given with ``--save``;
``--resume`` continues it exactly where it stopped. Starting a new game moves the last
one to ``game.previous.json`` beside it. Every finished round and match is recorded in the
player store (``--db FILE``; ``--no-record`` to play without it).
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
from dataclasses import replace
from pathlib import Path

from uno_attack.cli import rule_options, table_args
from uno_attack.cli.table_args import add_pace_arguments, add_table_arguments
from uno_attack.options import MATCH_MODES
from uno_attack.store import default_db_path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uno-attack play",
        description="Play UNO Attack in the terminal: you against bots, or friends in "
                    "hot-seat, with the simulated launcher or a real one. The game is saved "
                    "after every action; --resume goes on after a quit or a crash.")
    add_table_arguments(parser, humans="You",
                        humans_help="people at this keyboard (hot-seat)",
                        bots_help="the bots' kind (default basic)")
    parser.add_argument("--match", choices=MATCH_MODES, default=None,
                        help="match mode (default points)")
    parser.add_argument("--target", type=int, default=None,
                        help="points that end the match (default 500)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the saved game where it stopped")
    parser.add_argument("--save", type=Path, default=None, metavar="FILE",
                        help="where the game is saved (default "
                             "$XDG_STATE_HOME/uno-attack/game.json)")
    parser.add_argument("--db", type=Path, default=None, metavar="FILE",
                        help="the player store that records every round and match "
                             "(default $XDG_DATA_HOME/uno-attack/players.db)")
    parser.add_argument("--no-record", action="store_true",
                        help="play without recording the match in the player store")
    add_pace_arguments(parser)
    parser.add_argument("--no-animation", action="store_true", help="no burst animation")
    return parser


def config_from_args(argv: list[str]):  # type: ignore[no-untyped-def]
    """The game config and whether to resume, from command-line words."""
    from uno_attack.session import GameConfig, default_save_path

    args = build_parser().parse_args(argv)
    humans = table_args.people(args)
    shorthands = []
    if args.match is not None:
        shorthands.append(f"match={args.match}")
    if args.target is not None:
        shorthands.append(f"target={args.target}")
    options = rule_options.options_from(args, shorthands)
    bot_delay, catch_delay = table_args.pace(args)
    config = GameConfig(humans=humans, players=table_args.seats(args, humans), bots=args.bots,
                        launcher=args.launcher, policy=args.policy, seed=table_args.seed(args),
                        options=options, save=args.save or default_save_path(),
                        db=None if args.no_record else args.db or default_db_path(),
                        bot_delay=bot_delay, catch_delay=catch_delay,
                        animate=not args.no_animation)
    return config, args.resume


def build_app(argv: list[str], *, launcher=None):  # type: ignore[no-untyped-def]
    """The app for these command-line words (tests build it the same way)."""
    from uno_attack.session import Session
    from uno_attack.tui.app import UnoAttackApp

    config, resume = config_from_args(argv)
    if resume:
        session = Session.resume(config, launcher=launcher)
    else:
        assert config.save is not None
        config.save.parent.mkdir(parents=True, exist_ok=True)
        if config.save.exists():  # a new game keeps the last one, once, beside it
            config.save.replace(config.save.with_suffix(".previous.json"))
        session = Session(config, launcher=launcher)
        session.start_round()

    def new_session() -> Session:
        """Another match with the same people and rules, and a fresh seed."""
        return Session(replace(session.config, seed=random.randrange(1_000_000)))

    return UnoAttackApp(session, new_session=new_session, resumed=resume)


def main(argv: list[str]) -> int:
    app = build_app(argv)
    # SIGTERM (a service stop, a closed terminal's kill) ends the game like 'q' does; and
    # whatever way the app ends, the launcher is closed so a real motor stops.
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: app.exit())
    try:
        app.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
        app.session.close()
    problem = app.session.recorder.problem
    if problem is not None:  # it was on the screen; say it where it stays
        print(f"uno-attack play: {problem}", file=sys.stderr)
    return 0
