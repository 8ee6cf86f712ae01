"""``uno-attack wiring calibrate``: measure the machine, so the timings fit it.

It feeds a few cards at each of a few duties through the closed loop and reads the beam's
edges: the time between two cards leaving gives the cards per second at that duty, the
time a card blocks the beam gives ``beam_ms``, and the time to the first card, less one
card's travel, gives the motor's spin-up. The figures go to the pin map's
``[calibration]`` table; from them the driver works out when no card means a jam, and
``wiring check`` judges whether the feed is as quick as it should be.

Every run starts with the bottom card at the start of its travel: the loop stops the
motor the instant a card clears the beam, so the next one has not moved yet. While it
measures, no jam is called before ``MAX_MS`` and nothing is reversed: the machine may be
much slower than the figures it has now.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sim_launcher.dispenser import MAX_MS, Settings
from uno_attack.errors import UnoAttackError
from uno_attack.launcher import EjectStatus
from wiring.driver import GpioEjector
from wiring.pinmap import Calibration

DUTIES = (0.4, 0.6, 0.8, 1.0)
CARDS_PER_RUN = 4      # three intervals between them
TRIES = 3              # runs at one duty before giving up on it
STEADY = 0.2           # card times more than this part off the median: not a clean run


class CalibrationError(UnoAttackError):
    """The machine could not be measured; the message says what to look at."""


@dataclass(frozen=True)
class Run:
    """What one run of cards at one duty showed."""

    duty: float
    cards_per_second: float
    blocked_ms: float      # how long one card blocks the beam at this duty
    spin_up_ms: float


def measure_run(ejector: GpioEjector, duty: float, cards: int = CARDS_PER_RUN) -> Run | None:
    """Feed ``cards`` at ``duty`` and read the beam; None when the run was not clean (a
    jam freed on the way, a card short, an uneven feed)."""
    result = ejector.eject(cards, duty=duty)
    if result.status is not EjectStatus.OK or result.count != cards:
        return None
    edges = ejector.trace
    clears = [t for t, blocked in edges if not blocked]
    blocked_for = [clear - block for (block, was), (clear, now)
                   in itertools.pairwise(edges) if was and not now]
    if len(clears) < cards or len(blocked_for) < cards - 1:
        return None
    gaps = [b - a for a, b in itertools.pairwise(clears)]
    card_ms = statistics.median(gaps)
    if card_ms <= 0 or any(abs(gap - card_ms) > STEADY * card_ms for gap in gaps):
        return None
    return Run(duty, 1000.0 / card_ms, statistics.median(blocked_for[-(cards - 1):]),
               clears[0] - card_ms)


def calibrate(ejector: GpioEjector, *, duties: Iterable[float] = DUTIES,
              cards: int = CARDS_PER_RUN, say: Callable[[str], None] = print) -> Calibration:
    """Measure the dispenser behind ``ejector`` (its hopper must hold enough cards)."""
    kept = ejector.settings
    ejector.settings = Settings(duty=kept.duty, max_ms=MAX_MS, jam_ms=MAX_MS, reverse_ms=0)
    try:
        return _measure(ejector, duties, cards, say)
    finally:
        ejector.settings = kept


def _measure(ejector: GpioEjector, duties: Iterable[float], cards: int,
             say: Callable[[str], None]) -> Calibration:
    first = ejector.eject(1)  # the bottom card then starts its travel from the beginning
    if first.status is not EjectStatus.OK:
        raise CalibrationError(f"the first card did not come out ({first.status}: "
                               f"{first.detail}); load cards and run `uno-attack wiring "
                               "check` first")
    runs: list[Run] = []
    for duty in sorted(set(duties)):
        for _ in range(TRIES):
            run = measure_run(ejector, duty, cards)
            if run is not None:
                break
        else:
            raise CalibrationError(f"no clean run of {cards} cards at duty {duty:g} in "
                                   f"{TRIES} tries: the feed jams or is uneven there (clean "
                                   "the roller, load cards, or leave that duty out)")
        runs.append(run)
        say(f"  duty {duty:4.2f}: {run.cards_per_second:5.2f} cards/s, a card blocks the "
            f"beam {run.blocked_ms:5.1f} ms")
    fastest = runs[-1]
    return Calibration(
        spin_up_ms=max(statistics.median(run.spin_up_ms for run in runs), 0.0),
        beam_ms=fastest.blocked_ms * fastest.duty,  # at full duty: a card moves 1/duty faster
        duties=tuple(run.duty for run in runs),
        cards_per_second=tuple(run.cards_per_second for run in runs))
