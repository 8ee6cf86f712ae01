"""``uno-attack history [NAME]``: past matches and rounds, and any round as a transcript."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from uno_attack.cli.args import ArgumentParser, UsageError, person_name, whole_number
from uno_attack.cli.store_args import add_db_option, open_store
from uno_attack.errors import TranscriptError, UnoAttackError
from uno_attack.store import MatchSummary
from uno_attack.store.text import options_text, when
from uno_attack.transcript import dumps, from_dict


def main(argv: list[str]) -> int:
    parser = ArgumentParser(
        prog="uno-attack history",
        description="Past matches with their rounds and ids, everyone's or one person's; "
                    "--export writes a past round as a transcript that 'uno-attack replay' "
                    "accepts.")
    parser.add_argument("name", nargs="?", type=person_name, metavar="NAME",
                        help="only this person's matches")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--export", nargs=2, metavar=("ID", "FILE"),
                        help="write round ID as a transcript to FILE ('-': standard output)")
    parser.add_argument("--watch", metavar="ID",
                        help="watch round ID on the table screen, as 'replay --watch' does")
    add_db_option(parser)
    args = parser.parse_args(argv)
    if args.export is not None:
        if args.name is not None or args.json or args.watch is not None:
            parser.error("--export takes a round id and a file, without NAME, --json or "
                         "--watch")
        return export(args)
    if args.watch is not None:
        if args.name is not None or args.json:
            parser.error("--watch takes a round id, without NAME or --json")
        return watch(args)
    with open_store(args) as store:
        matches = store.matches(args.name)
        if args.json:
            print(json.dumps([m.to_json() for m in matches], indent=2))
        elif not matches:
            print(f"No match recorded yet ({store.path}).")
        else:
            print("\n\n".join(match_text(m) for m in matches))
    return 0


def _stored_round(args: argparse.Namespace, flag: str, text_id: str) -> dict[str, Any]:
    """Round ``text_id`` of the store, as a transcript that is valid to replay."""
    try:
        round_id = whole_number(text_id)
    except argparse.ArgumentTypeError:
        raise UsageError(f"{flag} {text_id!r}: a round id is a number in ASCII digits "
                         "(see 'uno-attack history')") from None
    with open_store(args) as store:
        data = store.round_transcript(round_id)
    try:
        from_dict(data, source=f"round {text_id}")  # what replay will read must be valid
    except TranscriptError as exc:
        raise UnoAttackError(f"the stored transcript is not valid: {exc}") from None
    return data


def watch(args: argparse.Namespace) -> int:
    from uno_attack.cli.watch import watch_app  # (only a watch loads the screens)

    text_id = args.watch
    data = _stored_round(args, "--watch", text_id)
    try:
        app = watch_app(from_dict(data, source=f"round {text_id}"), source=f"round {text_id}")
    except TranscriptError as exc:
        raise UnoAttackError(str(exc)) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("--watch needs a terminal: standard input and output must be one "
                         "(without it, --export writes the round for 'uno-attack replay')")
    app.run()
    return 0


def export(args: argparse.Namespace) -> int:
    text_id, path = args.export
    data = _stored_round(args, "--export", text_id)
    text = dumps(data)
    if path == "-":
        sys.stdout.write(text)
        return 0
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise UnoAttackError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(f"round {text_id} written to {path}")
    return 0


def match_text(match: MatchSummary) -> str:
    state = (f"finished {when(match.finished_at)}, won by {' and '.join(match.winners)}"
             if match.finished_at else "unfinished")
    source = "" if match.source == "play" else f" · {match.source}"
    lines = [f"match {match.id} · {when(match.started_at)} · "
             f"{options_text(match.rules, match.options)}{source} · {state}"]
    players = ", ".join(f"{s.name} ({s.kind}{'' if s.score is None else f', {s.score}'})"
                        for s in match.seats)
    lines.append(f"  players: {players}")
    if match.rounds:
        width = max(len("winner"), *(len(" and ".join(r.winners)) for r in match.rounds))
        lines.append(f"  round     id  {'winner':<{width}}  points this round (total)")
        for r in match.rounds:
            points = ", ".join(f"{n} {p:+d} ({s})" for n, p, s in
                               zip(r.names, r.round_points, r.scores, strict=True))
            lines.append(f"  {r.number:>5}  {r.id:>5}  {' and '.join(r.winners):<{width}}  "
                         f"{points}")
    return "\n".join(lines)
