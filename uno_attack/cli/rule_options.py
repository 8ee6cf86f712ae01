"""The rule options of a command line: ``--preset NAME`` and ``--option key=value``.

``play``, ``simulate`` and a network host add the same two arguments and read them the
same way: the preset's options first, then every ``--option`` over them.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from uno_attack.options import PRESETS, Options, options_from_cli


def add_arguments(parser: argparse.ArgumentParser) -> None:
    presets = "; ".join(f"{p.name}: {p.meaning}" for p in PRESETS.values())
    parser.add_argument("--preset", default=None, metavar="NAME",
                        help=f"a named set of rule options ({presets})")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of RULES.md 9 or VARIANTS.md (repeatable; "
                             "overrides the preset), e.g. rules=classic, stacking=up")


def options_from(args: argparse.Namespace, extra: Sequence[str] = ()) -> Options:
    """The options the arguments name; ``extra`` are more ``key=value`` words (from
    shorthands such as ``--match``), which win over ``--option``."""
    return options_from_cli(args.preset, [*args.option, *extra])
