"""A process that writes rounds into a player store as fast as it can, for the
concurrency test: ``python -m tests.store.writer DB TAG ROUNDS``.

It says ``started`` once imported and waits for a line on stdin (so that several writers
open the file at the same moment), opens the store, says ``ready``, waits for another
line, then records ``ROUNDS``
rounds (each in a match of its own ``TAG``, with Ann, a person both writers share) and
prints the time span it wrote in. Any error ends it non-zero with the message.
"""

from __future__ import annotations

import sys
import time

from tests.store.helpers import a_match, a_round
from uno_attack.store import PlayerStore


def main(db: str, tag: str, rounds: int) -> int:
    transcript = {"name": "a long round", "steps": [f"{i % 4} press" for i in range(400)]}
    print("started", flush=True)
    sys.stdin.readline()
    with PlayerStore.open(db) as store:
        print("ready", flush=True)
        sys.stdin.readline()
        began = time.time()
        for n in range(rounds):
            if n % 10 == 0:
                match = a_match("Ann", f"{tag}-friend", f"{tag}-bot:basic", key=f"{tag}-{n}")
            store.record_round(a_round(match, n % 10 + 1, winner=n % 3, hands=[1, 2, 3],
                                       transcript=transcript))
        print(f"{began} {time.time()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
