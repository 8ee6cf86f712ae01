"""``uno-attack play``: parse the options, build the session, run the Textual app.

The game is saved after every action in ``$XDG_STATE_HOME/uno-attack/game.json``
(``~/.local/state/uno-attack/game.json``), or the file given with ``--save``;
``--resume`` continues it exactly where it stopped. Starting a new game moves the last
one to ``game.previous.json`` beside it. Every finished round and match is recorded in the
player store (``--db FILE``; ``--no-record`` to play without it).
"""

from __future__ import annotations

import argparse
import signal
import sys
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
    config, args = _config(argv)
    return config, args.resume


def _config(argv: list[str]):  # type: ignore[no-untyped-def]
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
    return config, args


def build_app(argv: list[str], *, launcher=None):  # type: ignore[no-untyped-def]
    """The app for these command-line words (tests build it the same way): the game they
    ask for, or with ``--resume`` the saved game."""
    from uno_attack.session import GameConfig, Session
    from uno_attack.tui.app import NewGame, UnoAttackApp
    from uno_attack.tui.local import LocalTable

    config, args = _config(argv)
    launchers = [launcher] if launcher is not None else []

    def open_table(chosen: GameConfig) -> LocalTable:
        """A new match as chosen (the first one on the launcher given, if any)."""
        save = chosen.save
        assert save is not None
        save.parent.mkdir(parents=True, exist_ok=True)
        if save.exists():  # a new game keeps the last one, once, beside it
            save.replace(save.with_suffix(".previous.json"))
        session = Session(chosen, launcher=launchers.pop() if launchers else None)
        session.start_round()
        return LocalTable(session)

    new_game = NewGame(config, open_table)
    if args.resume:
        return UnoAttackApp(LocalTable(Session.resume(config, launcher=launcher)),
                            new_game=new_game)
    return UnoAttackApp(open_table(config), new_game=new_game)


def main(argv: list[str]) -> int:
    app = build_app(argv)
    # SIGTERM (a service stop, a closed terminal's kill) ends the game like 'q' does; and
    # whatever way the app ends, the launcher is closed so a real motor stops.
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: app.exit())
    table = None
    try:
        app.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
        table = app.table
        app.close_table()
    problem = table.session.recorder.problem if table is not None else None  # type: ignore[attr-defined]
    if problem is not None:  # it was on the screen; say it where it stays
        print(f"uno-attack play: {problem}", file=sys.stderr)
    return 0
