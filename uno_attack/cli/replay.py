"""``uno-attack replay FILE...``: play transcripts and check them (TRANSCRIPTS.md, Replay)."""

from __future__ import annotations

import sys

from uno_attack.cli.args import ArgumentParser
from uno_attack.errors import TranscriptError
from uno_attack.replay import replay
from uno_attack.transcript import load


def main(argv: list[str]) -> int:
    parser = ArgumentParser(
        prog="uno-attack replay",
        description="Replay game transcripts with a scripted launcher and check every "
                    "step. Exit 0 when all pass, 1 when any fails, 2 when a file is not a "
                    "valid transcript.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="transcript JSON files")
    parser.add_argument("-v", "--verbose", action="store_true", help="name each passing file too")
    args = parser.parse_args(argv)
    passed = failed = invalid = 0
    for path in args.files:
        try:
            transcript = load(path)
            result = replay(transcript)
        except TranscriptError as exc:
            invalid += 1
            print(f"INVALID {exc}", file=sys.stderr)
            continue
        if result.passed:
            passed += 1
            if args.verbose:
                print(f"ok      {path}: {transcript.name}")
        else:
            failed += 1
            print(f"FAILED  {path}: {transcript.name}\n  {result.failure}")
    print(f"{passed} passed, {failed + invalid} failed")
    if invalid:
        return 2
    return 1 if failed else 0
