"""``uno-attack replay FILE...``: play transcripts and check them (TRANSCRIPTS.md, Replay);
``--watch FILE`` shows one on the table screen, step by step (:mod:`.watch`)."""

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
    parser.add_argument("--watch", action="store_true",
                        help="watch the round on the table screen, every hand shown: ← → "
                             "step, Home/End, Space plays it on by itself (one FILE)")
    args = parser.parse_args(argv)
    if args.watch:
        if len(args.files) != 1:
            parser.error(f"--watch shows one file, not {len(args.files)}")
        from uno_attack.cli.watch import watch  # (only a watch loads the screens)

        return watch(args.files[0])
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
