"""``uno-attack replay --watch FILE``: a saved round or transcript on the table screen."""

from __future__ import annotations

import sys

from uno_attack.cli.args import UsageError
from uno_attack.errors import TranscriptError
from uno_attack.transcript import Transcript, load
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.control import TableControl
from uno_attack.tui.screens.table import TableScreen
from uno_attack.tui.screens.watch import WatchScreen
from uno_attack.tui.watch import ReplayTable


class WatchApp(UnoAttackApp):
    """The app over a replay: its table screen is the watch screen."""

    def make_table_screen(self, table: TableControl) -> TableScreen:
        assert isinstance(table, ReplayTable)
        return WatchScreen(table)


def watch_app(transcript: Transcript, *, source: str) -> WatchApp:
    """The app that watches ``transcript``; :class:`TranscriptError` naming ``source``
    when it does not replay."""
    try:
        table = ReplayTable(transcript)
    except TranscriptError as exc:
        raise TranscriptError(f"{source}: {exc}") from None
    return WatchApp(table)


def watch(path: str) -> int:
    """Watch the round in ``path`` (checked whole first: a bad file is one line, exit 2)."""
    try:
        app = watch_app(load(path), source=path)
    except TranscriptError as exc:
        print(f"uno-attack replay: error: {exc}", file=sys.stderr)
        return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("--watch needs a terminal: standard input and output must be one "
                         "(without it, 'uno-attack replay FILE' checks the file)")
    app.run()
    return 0
