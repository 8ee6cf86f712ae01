"""``uno-attack play``: parse the options, build the session, run the Textual app.

The game is saved after every action in ``$XDG_STATE_HOME/uno-attack/game.json``
(``~/.local/state/uno-attack/game.json``), or the file given with ``--save``;
``--resume`` continues it exactly where it stopped. A new game keeps the last one as
``game.previous.json`` beside it, and asks first when that one was not finished. Every
finished round and match is recorded in the player store (``--db FILE``; ``--no-record``
to play without it). Without ``--humans``, the people are those named last time
(``settings.toml``); a first run asks them.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import NoReturn

from uno_attack.cli import rule_options, table_args
from uno_attack.cli.args import ArgumentParser, UsageError, whole_number
from uno_attack.cli.table_args import add_pace_arguments, add_table_arguments
from uno_attack.config import load_settings, update_settings
from uno_attack.errors import UnoAttackError
from uno_attack.journal import check_save_file, keep_previous
from uno_attack.launcher import Launcher
from uno_attack.options import MATCH_MODES
from uno_attack.replay import replay
from uno_attack.saved_game import SavedGame, read_saved_game
from uno_attack.session import GameConfig, Session, default_save_path, resume_command
from uno_attack.store import default_db_path
from uno_attack.tui.app import NewGame, UnoAttackApp
from uno_attack.tui.local import LocalTable
from uno_attack.tui.pace import PACES, paced
from uno_attack.tui.screens.start import SavedGameOffer
from uno_attack.wording import YOU


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="uno-attack play",
        description="Play UNO Attack in the terminal: you against bots, or friends in "
                    "hot-seat, with the simulated launcher or a real one. The game is saved "
                    "after every action; --resume goes on after a quit or a crash.")
    add_table_arguments(parser, humans=YOU,
                        humans_help="people at this keyboard (hot-seat; 'none': only bots, "
                                    "to watch)",
                        bots_help="the bots' kind (default basic)")
    parser.add_argument("--match", choices=MATCH_MODES, default=None,
                        help="match mode (default points)")
    parser.add_argument("--target", type=whole_number, default=None,
                        help="points that end the match (default 500)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the saved game where it stopped (with the launcher "
                             "of --launcher: a saved game never chooses it)")
    parser.add_argument("--quick", action="store_true",
                        help="start at once with these arguments, without the new-game "
                             "screen")
    parser.add_argument("--save", type=Path, default=None, metavar="FILE",
                        help="where the game is saved (default "
                             "$XDG_STATE_HOME/uno-attack/game.json)")
    parser.add_argument("--db", type=Path, default=None, metavar="FILE",
                        help="the player store that records every round and match "
                             "(default $XDG_DATA_HOME/uno-attack/players.db)")
    parser.add_argument("--no-record", action="store_true",
                        help="play without recording the match in the player store")
    add_pace_arguments(parser)
    parser.add_argument("--pace", choices=PACES, default="toy",
                        help="how long a press of the simulated launcher takes: toy (it "
                             "whirs, then the burst or the click of nothing; default) or "
                             "instant")
    parser.add_argument("--no-animation", action="store_true", help="no burst animation")
    return parser


def config_from_args(argv: list[str]) -> tuple[GameConfig, bool]:
    """The game config and whether to resume, from command-line words."""
    config, args = _config(argv)
    return config, args.resume


def _config(argv: list[str], *, open_launcher: bool = False
            ) -> tuple[GameConfig, argparse.Namespace]:
    """Everything the command line gave, checked (with ``open_launcher``, the launcher
    too: opened and closed again)."""
    args = build_parser().parse_args(argv)
    humans = table_args.people(args, bots_only="none")
    remembered = load_settings().names
    if args.humans == YOU and remembered and not args.resume:  # no --humans: as last time
        humans = list(remembered)
    shorthands: list[str] = []
    if args.match is not None:
        shorthands.append(f"match={args.match}")
    if args.target is not None:
        shorthands.append(f"target={args.target}")
    options = rule_options.options_from(args, shorthands)
    bot_delay, catch_delay = table_args.pace(args)
    save = args.save or default_save_path()
    if not args.resume:  # a resume reads the file, and says what is wrong with it
        check_save_file(save, flag="--save", make_folder=args.save is None)
    config = GameConfig(humans=humans, players=table_args.seats(args, humans), bots=args.bots,
                        launcher=args.launcher, policy=args.policy, seed=table_args.seed(args),
                        options=options, save=save,
                        db=None if args.no_record else args.db or default_db_path(),
                        bot_delay=bot_delay, catch_delay=catch_delay,
                        animate=not args.no_animation)
    config.check()  # before any screen opens
    if open_launcher:
        config.check_launcher()
    return config, args


def build_app(argv: list[str], *, launcher: Launcher | None = None) -> UnoAttackApp:
    """The app for these command-line words (tests build it the same way): the new-game
    screen pre-filled with them, or with ``--quick`` the game at once, or with
    ``--resume`` the saved game.

    Without ``--resume``, a saved game that was not finished is offered on the first
    screen: resume it, or start anew and keep it beside as ``game.previous.json``.
    """
    config, args = _config(argv, open_launcher=launcher is None)
    save = config.save
    assert save is not None
    launchers = [launcher] if launcher is not None else []

    def open_table(chosen: GameConfig) -> LocalTable:
        """A new match as chosen (the first one on the launcher given, if any)."""
        assert chosen.save is not None
        keep_previous(chosen.save)
        session = Session(chosen, launcher=launchers.pop() if launchers else None)
        session.launcher = paced(session.launcher, PACES[args.pace])
        session.start_round()
        return LocalTable(session)

    def resume_saved() -> LocalTable:
        session = Session.resume(config, launcher=launchers.pop() if launchers else None)
        session.launcher = paced(session.launcher, PACES[args.pace])
        if session.table is not None:  # (the round resumed is on the same launcher)
            session.table.launcher = session.launcher
        return LocalTable(session)

    settings = load_settings()
    first_run = args.humans == YOU and not settings.names
    new_game = NewGame(config, open_table, preset=args.preset, ask=not args.quick,
                       ask_names=first_run and not args.quick,
                       remember=lambda names: update_settings(names=tuple(names)))

    def app(table: LocalTable | None = None, offer: SavedGameOffer | None = None
            ) -> UnoAttackApp:
        return UnoAttackApp(table, new_game=new_game, offer=offer,
                            sorted_hand=settings.hand_order == "sorted",
                            keep_order=lambda sorted_hand: update_settings(
                                hand_order="sorted" if sorted_hand else "dealt"))

    if args.resume:
        return app(resume_saved())
    unfinished = unfinished_game(save)
    if unfinished is not None:
        return app(offer=SavedGameOffer(unfinished, resume_saved))
    if args.quick:
        return app(open_table(config))
    return app()


def unfinished_game(save: Path) -> SavedGame | None:
    """The game saved at ``save`` if ``--resume`` could go on with it, else ``None``
    (no file, a file that is no saved game, or a match that is over)."""
    try:
        saved = read_saved_game(save)
    except UnoAttackError:
        return None
    played = replay(saved.record)
    result = saved.record.score(played.round)
    if not played.passed or (result is not None and result.match_over):
        return None
    return saved


def _refuse_without_terminal(argv: list[str]) -> NoReturn:
    """No screen can be shown or answered (a pipe, a service): say what is wrong with
    the command line, or with the save it resumes, else that a terminal is needed."""
    config, args = _config(argv, open_launcher=True)
    if args.resume:
        Session.resume(config).close()
    raise UsageError("the game needs a terminal: standard input and output must be one "
                     "(to let bots play without one, use 'uno-attack simulate')")


def main(argv: list[str]) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        _refuse_without_terminal(argv)
    app = build_app(argv)
    # SIGTERM (a service stop) and SIGHUP (the terminal window closed) end the game like
    # 'q' does; and whatever way the app ends, the launcher is closed so a real motor stops.
    stops = (signal.SIGTERM, signal.SIGHUP)
    previous = {signum: signal.signal(signum, lambda signum, frame: app.exit())
                for signum in stops}
    try:
        app.run()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        table = app.table
        app.close_table()
    problem = table.session.recorder.problem if isinstance(table, LocalTable) else None
    if problem is not None:  # it was on the screen; say it where it stays
        print(f"uno-attack play: {problem}", file=sys.stderr)
    if app.start_error is not None:
        print(f"uno-attack play: error: {app.start_error}", file=sys.stderr)
        return 2
    if app.return_code:  # an error inside the game: it has been shown above
        save = app.new_game.config.save if app.new_game is not None else None
        assert save is not None  # play always saves
        print(f"uno-attack play: the game stopped on an error (above); it is saved in {save}: "
              f"'{resume_command(save)}' goes on from there.", file=sys.stderr)
        return app.return_code
    return 0
