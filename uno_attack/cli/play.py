"""``uno-attack play``: parse the options, build the session, run the Textual app.

The game is saved after every action in ``$XDG_STATE_HOME/uno-attack/game.json``
(``~/.local/state/uno-attack/game.json``), or the file given with ``--save``;
``--resume`` continues it exactly where it stopped. Starting a new game moves the last
one to ``game.previous.json`` beside it.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
from dataclasses import replace
from pathlib import Path

from uno_attack.bots import BOT_KINDS
from uno_attack.errors import UnoAttackError
from uno_attack.options import MATCH_MODES, Options
from uno_attack.tui.session import GameConfig, Session, default_save_path, resume_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uno-attack play",
        description="Play UNO Attack in the terminal: you against bots, or friends in "
                    "hot-seat, with the simulated launcher or a real one. The game is saved "
                    "after every action; --resume goes on after a quit or a crash.")
    parser.add_argument("--players", type=int, default=None,
                        help="seats, 2 to 10 (default 4, or the number of --humans if more)")
    parser.add_argument("--humans", default="You", metavar="NAMES",
                        help="people at this keyboard, comma-separated (hot-seat); "
                             "the other seats are bots (default: You)")
    parser.add_argument("--bots", choices=BOT_KINDS, default="basic",
                        help="the bots' kind (default basic)")
    parser.add_argument("--launcher", default="sim", metavar="SPEC",
                        help="sim, sim:gentle, fixed:1, scripted:1,0,2, gpio, gpio:emulated, "
                             "serial:PORT, serial:emulated (default sim)")
    parser.add_argument("--policy", default="attack",
                        help="ejection policy of the sim launcher (default attack)")
    parser.add_argument("--seed", default=None,
                        help="seed of the deal, bots and launcher (default: random)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of RULES.md section 9 (repeatable)")
    parser.add_argument("--match", choices=MATCH_MODES, default=None,
                        help="match mode (default points)")
    parser.add_argument("--target", type=int, default=None,
                        help="points that end the match (default 500)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the saved game where it stopped")
    parser.add_argument("--save", type=Path, default=None, metavar="FILE",
                        help="where the game is saved (default "
                             "$XDG_STATE_HOME/uno-attack/game.json)")
    parser.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                        help="pause before each bot move (default 0.8)")
    parser.add_argument("--catch-delay", type=float, default=None, metavar="SECONDS",
                        help="how long bots take to catch a missed UNO "
                             "(default 1.5, or the bot delay when that is 0)")
    parser.add_argument("--no-animation", action="store_true", help="no burst animation")
    return parser


def config_from_args(argv: list[str]) -> tuple[GameConfig, bool]:
    """The game config and whether to resume, from command-line words."""
    args = build_parser().parse_args(argv)
    humans = [n.strip() for n in args.humans.split(",") if n.strip()]
    if len(set(humans)) != len(humans):
        raise UnoAttackError(f"--humans {args.humans!r}: every name must differ")
    assignments = list(args.option)
    if args.match is not None:
        assignments.append(f"match={args.match}")
    if args.target is not None:
        assignments.append(f"target={args.target}")
    options = Options.from_assignments(assignments)
    seed: int | str | None = args.seed
    if seed is None:
        seed = random.randrange(1_000_000)
    elif str(seed).lstrip("-").isdigit():
        seed = int(seed)
    if args.bot_delay < 0:
        raise UnoAttackError(f"--bot-delay {args.bot_delay}: must be 0 or more")
    catch_delay = args.catch_delay
    if catch_delay is None:
        catch_delay = 1.5 if args.bot_delay > 0 else 0.0
    players = args.players if args.players is not None else max(4, len(humans))
    config = GameConfig(humans=humans, players=players, bots=args.bots,
                        launcher=args.launcher, policy=args.policy, seed=seed,
                        options=options, save=args.save or default_save_path(),
                        bot_delay=args.bot_delay, catch_delay=catch_delay,
                        animate=not args.no_animation)
    return config, args.resume


def build_app(argv: list[str], *, launcher=None):  # type: ignore[no-untyped-def]
    """The app for these command-line words (tests build it the same way)."""
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
    if app.return_code:  # an error inside the game: Textual has shown its traceback
        save = app.config.save
        assert save is not None  # play always saves
        print(f"uno-attack play: the game stopped on an error (above); it is saved in {save}: "
              f"'{resume_command(save)}' goes on from there.", file=sys.stderr)
        return app.return_code
    return 0


