"""``uno-attack play``: parse the options, build the session, run the Textual app.

The game is saved after every action in ``$XDG_STATE_HOME/uno-attack/game.json``
(``~/.local/state/uno-attack/game.json``), or the file given with ``--save``;
``--resume`` continues it exactly where it stopped. A new game keeps the last one as
``game.previous.json`` beside it, and asks first when that one was not finished.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
from dataclasses import replace
from pathlib import Path

from uno_attack.bots import BOT_KINDS
from uno_attack.cli.args import ArgumentParser, seconds, seed, whole_number
from uno_attack.errors import UnoAttackError
from uno_attack.journal import check_save_file, keep_previous
from uno_attack.launcher import Launcher
from uno_attack.options import MATCH_MODES, Options
from uno_attack.replay import replay
from uno_attack.saved_game import SavedGame, name_problem, read_saved_game
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.screens.start import SavedGameOffer
from uno_attack.tui.session import GameConfig, Session, default_save_path, resume_command


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="uno-attack play",
        description="Play UNO Attack in the terminal: you against bots, or friends in "
                    "hot-seat, with the simulated launcher or a real one. The game is saved "
                    "after every action; --resume goes on after a quit or a crash.")
    parser.add_argument("--players", type=whole_number, default=None,
                        help="seats, 2 to 10 (default 4, or the number of --humans if more)")
    parser.add_argument("--humans", default="You", metavar="NAMES",
                        help="people at this keyboard, comma-separated (hot-seat); "
                             "the other seats are bots (default: You); 'none' for a game "
                             "of bots only, to watch")
    parser.add_argument("--bots", choices=BOT_KINDS, default="basic",
                        help="the bots' kind (default basic)")
    parser.add_argument("--launcher", default="sim", metavar="SPEC",
                        help="sim, sim:gentle, fixed:1, scripted:1,0,2, gpio, gpio:emulated, "
                             "serial:PORT, serial:emulated (default sim; also with --resume: "
                             "a saved game never chooses the launcher)")
    parser.add_argument("--policy", default="attack",
                        help="ejection policy of the sim launcher (default attack)")
    parser.add_argument("--seed", type=seed, default=None,
                        help="seed of the deal, bots and launcher: a whole number or a word "
                             "(default: random)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of RULES.md section 9 (repeatable)")
    parser.add_argument("--match", choices=MATCH_MODES, default=None,
                        help="match mode (default points)")
    parser.add_argument("--target", type=whole_number, default=None,
                        help="points that end the match (default 500)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the saved game where it stopped")
    parser.add_argument("--save", type=Path, default=None, metavar="FILE",
                        help="where the game is saved (default "
                             "$XDG_STATE_HOME/uno-attack/game.json)")
    parser.add_argument("--bot-delay", type=seconds, default=0.8, metavar="SECONDS",
                        help="pause before each bot move, 0 to 60 (default 0.8)")
    parser.add_argument("--catch-delay", type=seconds, default=None, metavar="SECONDS",
                        help="how long bots take to catch a missed UNO, 0 to 60 "
                             "(default 1.5, or the bot delay when that is 0)")
    parser.add_argument("--no-animation", action="store_true", help="no burst animation")
    return parser


def parse_humans(text: str) -> list[str]:
    """The people's names of ``--humans``: ``Ann,Bob``, or ``none`` for bots only."""
    if text.strip().lower() == "none":
        return []
    humans = [n.strip() for n in text.split(",")]
    if not any(humans):
        raise UnoAttackError(f"--humans {text!r}: name at least one person, "
                             "or 'none' for a game of bots only")
    for name in humans:
        why = "'none' means no people at all" if name.lower() == "none" else name_problem(name)
        if why is not None:
            raise UnoAttackError(f"--humans {text!r}: {name!r}: {why}")
    if len(set(humans)) != len(humans):
        raise UnoAttackError(f"--humans {text!r}: every name must differ")
    return humans


def config_from_args(argv: list[str]) -> tuple[GameConfig, bool]:
    """The game config and whether to resume, from command-line words."""
    args = build_parser().parse_args(argv)
    humans = parse_humans(args.humans)
    assignments = list(args.option)
    if args.match is not None:
        assignments.append(f"match={args.match}")
    if args.target is not None:
        assignments.append(f"target={args.target}")
    options = Options.from_assignments(assignments)
    game_seed = random.randrange(1_000_000) if args.seed is None else args.seed
    catch_delay = args.catch_delay
    if catch_delay is None:
        catch_delay = 1.5 if args.bot_delay > 0 else 0.0
    save = args.save or default_save_path()
    if not args.resume:  # a resume reads the file, and says what is wrong with it
        check_save_file(save, flag="--save", make_folder=args.save is None)
    players = args.players if args.players is not None else max(4, len(humans))
    config = GameConfig(humans=humans, players=players, bots=args.bots,
                        launcher=args.launcher, policy=args.policy, seed=game_seed,
                        options=options, save=save, bot_delay=args.bot_delay,
                        catch_delay=catch_delay, animate=not args.no_animation)
    return config, args.resume


def build_app(argv: list[str], *, launcher: Launcher | None = None) -> UnoAttackApp:
    """The app for these command-line words (tests build it the same way).

    Without ``--resume``, a saved game that was not finished is offered on the first
    screen: resume it, or start anew and keep it beside as ``game.previous.json``.
    """
    config, resume = config_from_args(argv)
    save = config.save
    assert save is not None

    def start_new() -> Session:
        keep_previous(save)
        session = Session(config, launcher=launcher)
        session.start_round()
        return session

    def resume_saved() -> Session:
        return Session.resume(config, launcher=launcher)

    if resume:
        app = UnoAttackApp(resume_saved(), resumed=True)
    else:
        unfinished = unfinished_game(save)
        if unfinished is None:
            app = UnoAttackApp(start_new())
        else:
            app = UnoAttackApp(None, config=config, offer=SavedGameOffer(
                unfinished, resume=resume_saved, start_new=start_new))

    def new_session() -> Session:
        """Another match with the same people and rules, and a fresh seed."""
        return Session(replace(app.config, seed=random.randrange(1_000_000)))

    app.new_session = new_session
    return app


def unfinished_game(save: Path) -> SavedGame | None:
    """The game saved at ``save`` if ``--resume`` could go on with it, else ``None``
    (no file, a file that is no saved game, or a match that is over)."""
    try:
        saved = read_saved_game(save)
    except UnoAttackError:
        return None
    played = replay(saved.record)
    result = played.round.result
    if not played.passed or (result is not None and result.match_over):
        return None
    return saved


def main(argv: list[str]) -> int:
    app = build_app(argv)
    # SIGTERM (a service stop, a closed terminal's kill) ends the game like 'q' does; and
    # whatever way the app ends, the launcher is closed so a real motor stops.
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: app.exit())
    try:
        app.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
        app.close_session()
    if app.start_error is not None:
        print(f"uno-attack play: error: {app.start_error}", file=sys.stderr)
        return 2
    if app.return_code:  # an error inside the game: it has been shown above
        save = app.config.save
        assert save is not None  # play always saves
        print(f"uno-attack play: the game stopped on an error (above); it is saved in {save}: "
              f"'{resume_command(save)}' goes on from there.", file=sys.stderr)
        return app.return_code
    return 0
