"""A bot's dice: its randomness read from (seed, round, step, seat), never from its past.

A bot's seed names the match seed and the round (``SEED:ROUND:PLAYER``, as the session
seats them); :class:`Dice` gives the number of a decision from that seed, the round's
step (:attr:`~uno_attack.engine.Round.steps`, the actions applied so far) and the seat.
The same decision gets the same number however the bot got there: asked at every step of
the round, or first at step 80 of a game resumed from its save (which never asks a bot
again). Each seat's numbers are one seeded stream read by index, so a number costs a list
lookup, not a generator seeded per decision.
"""

from __future__ import annotations

import random

_AHEAD = 64  # numbers drawn past the one asked for, so most asks only read the list


class Dice:
    """Numbers in [0, 1) by (step, seat), from one seed."""

    __slots__ = ("_drawn", "_seed", "_streams")

    def __init__(self, seed: int | str | None) -> None:
        self._seed = seed
        self._streams: dict[int, random.Random] = {}
        self._drawn: dict[int, list[float]] = {}  # each seat's numbers drawn so far

    def at(self, step: int, seat: int) -> float:
        """The number of ``seat``'s decision at ``step`` (the same on every call)."""
        try:
            return self._drawn[seat][step]  # the common case: drawn already
        except (KeyError, IndexError):
            return self._draw_to(step, seat)

    def _draw_to(self, step: int, seat: int) -> float:
        """Draw ``seat``'s numbers past ``step``, a block at a time: the same numbers."""
        stream = self._streams.get(seat)
        if stream is None:
            stream = self._streams[seat] = random.Random(f"{self._seed}:{seat}")
            self._drawn[seat] = []
        drawn = self._drawn[seat]
        random_ = stream.random
        drawn += [random_() for _ in range(step + _AHEAD - len(drawn))]
        return drawn[step]
