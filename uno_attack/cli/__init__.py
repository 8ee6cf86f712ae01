"""The ``uno-attack`` command: a dispatcher over sub-commands.

Each sub-command is a ``main(argv) -> int`` in its own module, loaded only when used, so
``uno-attack replay`` never imports Textual and ``uno-attack play`` never imports a
hardware library. The hardware packages add their commands (``wiring``, ``firmware``,
``launcher run``) through the ``uno_attack.commands`` entry-point group.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from importlib.metadata import entry_points

from uno_attack import __version__
from uno_attack.errors import UnoAttackError

COMMAND_GROUP = "uno_attack.commands"

#: Built-in commands: name -> (module:function, one-line help).
BUILTIN_COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("uno_attack.cli.play:main", "play UNO Attack in the terminal"),
    "replay": ("uno_attack.cli.replay:main", "replay and check game transcripts"),
    "host": ("uno_attack.cli.host:main", "host a table that phones and terminals join"),
    "join": ("uno_attack.cli.join:main", "join a hosted table from this terminal"),
    "simulate": ("uno_attack.cli.simulate:main", "bots play each other; print statistics"),
    "tournament": ("uno_attack.cli.tournament:main",
                   "every bot against every other: win rates with 95 % intervals"),
    "stats": ("uno_attack.cli.stats:main", "a player's record and level, or the leaderboard"),
    "history": ("uno_attack.cli.history:main",
                "past matches and rounds; export a round as a transcript"),
    "launcher stats": ("uno_attack.cli.launcher_stats:main",
                       "statistics of an ejection policy over many presses"),
}

PLUGIN_HELP = {
    "wiring": "Raspberry Pi pin maps: show the wiring, check every part",
    "launcher run": "standalone launcher: the Pi as the toy's brain",
    "firmware": "the serial dispenser board: emulate it behind a pty",
}

Command = Callable[[list[str]], int]


def _commands() -> dict[str, tuple[str, str]]:
    commands = dict(BUILTIN_COMMANDS)
    for ep in entry_points(group=COMMAND_GROUP):
        commands.setdefault(ep.name, (ep.value, PLUGIN_HELP.get(ep.name, "")))
    return commands


def _load(target: str) -> Command:
    module_name, _, attr = target.partition(":")
    return getattr(import_module(module_name), attr)  # type: ignore[no-any-return]


def _usage(commands: dict[str, tuple[str, str]]) -> str:
    width = max(len(name) for name in commands)
    lines = [f"usage: uno-attack COMMAND [ARGS...]   (uno-attack {__version__})", "", "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, (_, text) in sorted(commands.items())]
    lines += ["", "Run 'uno-attack COMMAND --help' for a command's options."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    # a name from a file or the file system may hold what the terminal cannot show (bytes
    # that are not UTF-8 in a file name): print it escaped rather than fail mid-report
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    commands = _commands()
    if not args or args[0] in ("-h", "--help"):
        print(_usage(commands))
        return 0 if args else 2
    if args[0] == "--version":
        print(f"uno-attack {__version__}")
        return 0
    # The longest command name that prefixes the arguments: "launcher run" before "launcher".
    for words in (2, 1):
        name = " ".join(args[:words])
        if len(args) >= words and name in commands:
            rest = args[words:]
            break
    else:
        groups = sorted({name.split()[0] for name in commands})
        if args[0] in groups:
            subs = sorted(n.split()[1] for n in commands if n.startswith(args[0] + " "))
            print(f"uno-attack {args[0]}: choose one of: {', '.join(subs)}", file=sys.stderr)
        else:
            print(f"uno-attack: unknown command {args[0]!r}\n\n{_usage(commands)}",
                  file=sys.stderr)
        return 2
    try:
        command = _load(commands[name][0])
        return command(rest)
    except UnoAttackError as exc:
        print(f"uno-attack {name}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"uno-attack {name}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
