"""The physical model of the card dispenser (LAUNCHER.md), for emulated hardware.

The emulated GPIO pins and the emulated serial board are both driven by this one model,
so a jam or an empty hopper looks the same to every driver. The model is a deterministic
event-stepped machine in *model time* (milliseconds): nothing in it reads a clock, and its
only randomness (which card jams) comes from its own seeded ``random.Random``.
:class:`sim_launcher.world.DispenserWorld` ties it to a clock, a person and named faults.

How a card moves. The bottom card of the hopper has a *progress* from 0 to 1 through the
slot. After the motor starts (``spin_up_ms``), progress grows at
``cards_per_second × |duty|`` per second; the card blocks the beam for the last
``beam_ms × cards_per_second / 1000`` of its travel (so ``beam_ms`` at full duty, longer
when slower), and it has *left the hopper* when progress reaches 1. A card that will jam
stops at a point before the beam; the roller then slips on it. Running the motor in
reverse for ``unjam_ms`` frees a jammed card (not a *stuck* one, see ``force_jam``).

What can go wrong (each a plain attribute or method; the world's named faults use them):

- ``force_jam(stuck=False)``: the current card (or the next, if this one is already in the
  beam) jams at once; ``stuck=True`` makes a jam that no reverse pulse frees.
- ``beam_stuck``: ``None`` (works), ``True`` (always reads blocked), ``False`` (always
  reads clear, e.g. a dead receiver).
- ``motor_dead``: the roller never turns, whatever the pins say.
- ``grip``: below 1 the roller slips, and cards move at that part of their speed.
- ``hopper = 0``: an empty hopper (``hopper_empty`` says so when there is a sensor).
- ``finger_in_beam``: something other than a card blocks the beam (the wiring check's
  "block the beam" step, done by an emulated person).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from sim_launcher import dispenser

__all__ = ["DispenserModel", "DispenserParams"]


@dataclass(frozen=True)
class DispenserParams:
    """The numbers of one dispenser; the defaults are LAUNCHER.md's (``dispenser``)."""

    spin_up_ms: float = dispenser.SPIN_UP_MS      # from standstill (or a change of way)
    cards_per_second: float = dispenser.CARDS_PER_SECOND  # at full duty; ∝ duty
    beam_ms: float = dispenser.BEAM_MS            # one card blocks the beam, at full duty
    jam_probability: float = 0.005   # chance that a card jams on its way out
    hopper: int = 112                # cards in a full hopper (the game's 112 cards)
    hopper_sensor: bool = False      # is a hopper-empty switch fitted?
    unjam_ms: float = 30.0           # reverse running that frees a (non-stuck) jam
    min_duty: float = 0.15           # below this duty the motor stalls

    def __post_init__(self) -> None:
        for name in ("spin_up_ms", "beam_ms", "unjam_ms"):
            if getattr(self, name) < 0:
                raise ValueError(f"DispenserParams.{name} = {getattr(self, name)!r} is negative")
        if self.cards_per_second <= 0:
            raise ValueError(f"DispenserParams.cards_per_second = {self.cards_per_second!r} "
                             "must be positive")
        if not 0 <= self.jam_probability <= 1:
            raise ValueError(f"DispenserParams.jam_probability = {self.jam_probability!r} "
                             "is not a probability")
        if self.hopper < 0:
            raise ValueError(f"DispenserParams.hopper = {self.hopper!r} is negative")

    @property
    def beam_fraction(self) -> float:
        """The part of a card's travel during which it blocks the beam."""
        return min(self.beam_ms * self.cards_per_second / 1000.0, 0.9)


class DispenserModel:
    """Motor, roller, hopper, break-beam and hopper sensor, stepped in model time."""

    def __init__(self, params: DispenserParams | None = None, *, seed: int | None = None) -> None:
        self.params = params or DispenserParams()
        self._rng = random.Random(seed)
        self.now_ms = 0.0
        self.hopper = self.params.hopper
        self.cards_out = 0
        self.jammed = False
        self.stuck = False                 # a jam that a reverse pulse cannot free
        self.beam_stuck: bool | None = None
        self.motor_dead = False
        self.grip = 1.0                    # below 1: the roller slips
        self.finger_in_beam = False
        self.roller_ms = 0.0               # how long the roller has turned, either way
        self._duty = 0.0
        self._ready_at = math.inf          # model time the motor reaches speed
        self._progress = 0.0               # of the bottom card through the slot, 0..1
        self._reverse_ms = 0.0             # reverse running while jammed
        self._jam_next = False
        self._jam_at: float | None = None  # progress at which the bottom card jams
        self._draw_jam()

    # -- what a driver does ------------------------------------------------------------
    @property
    def duty(self) -> float:
        return self._duty

    def set_motor(self, duty: float) -> None:
        """Drive the motor: -1.0…1.0, the sign is the direction, 0 is off."""
        if not -1.0 <= duty <= 1.0:
            raise ValueError(f"motor duty {duty!r} is outside -1.0…1.0")
        old = self._duty
        self._duty = float(duty)
        if duty == 0:
            self._ready_at = math.inf
        elif old == 0 or (old > 0) != (duty > 0):
            self._ready_at = self.now_ms + self.params.spin_up_ms

    # -- what sensors read ---------------------------------------------------------------
    @property
    def card_in_beam(self) -> bool:
        """A card really is between the emitter and the receiver."""
        return self.hopper > 0 and self._progress >= 1.0 - self.params.beam_fraction

    @property
    def beam_blocked(self) -> bool:
        """What the beam receiver reports: a card (or a finger) in the beam, or a fault."""
        if self.beam_stuck is not None:
            return self.beam_stuck
        return self.card_in_beam or self.finger_in_beam

    @property
    def hopper_empty(self) -> bool | None:
        """The hopper sensor's reading; ``None`` when no sensor is fitted."""
        return self.hopper == 0 if self.params.hopper_sensor else None

    @property
    def turning(self) -> bool:
        """The roller is turning now (the motor is powered, alive and up to speed)."""
        return self._moving() and self.now_ms >= self._ready_at

    # -- faults and people ------------------------------------------------------------
    def force_jam(self, *, stuck: bool = False) -> None:
        """Jam the current card now (the next one if this one is already in the beam)."""
        self.stuck = self.stuck or stuck
        if self.hopper > 0 and self._progress < 1.0 - self.params.beam_fraction:
            self._jam_at = self._progress
            if self._duty > 0 and self.turning:
                self.jammed = True
        else:
            self._jam_next = True

    def clear_jam(self) -> None:
        """A person opens the dispenser and frees the card (stuck or not)."""
        self.jammed = False
        self.stuck = False
        self._jam_at = None
        self._jam_next = False
        self._reverse_ms = 0.0

    def refill(self, cards: int | None = None) -> None:
        """Put cards back in the hopper: ``cards`` in all, or a full hopper."""
        self.hopper = self.params.hopper if cards is None else max(cards, 0)

    # -- time ----------------------------------------------------------------------------
    def ms_to_next_change(self) -> float:
        """Model time until a sensor reading may change, if nothing else happens."""
        if not self._moving():
            return math.inf
        if self.now_ms < self._ready_at:
            return self._ready_at - self.now_ms
        rate = self._rate()
        if self._duty < 0:
            if self.jammed and not self.stuck:
                return max(self.params.unjam_ms - self._reverse_ms, 0.0)
            beam_start = 1.0 - self.params.beam_fraction
            if self._progress > beam_start:
                return (self._progress - beam_start) / rate
            return math.inf
        if self.jammed or self.hopper == 0:
            return math.inf
        return (self._next_mark() - self._progress) / rate

    def advance(self, ms: float) -> None:
        """Move model time forward by ``ms``, moving cards as the motor drives them."""
        if ms < 0:
            raise ValueError(f"cannot advance the model by {ms!r} ms")
        remaining = ms
        while remaining > 0:
            if not self._moving():
                self.now_ms += remaining
                return
            if self.now_ms < self._ready_at:
                step = min(remaining, self._ready_at - self.now_ms)
            elif self._duty > 0:
                step = self._forward(remaining)
            else:
                step = self._reverse(remaining)
            if self.now_ms >= self._ready_at:
                self.roller_ms += step
            self.now_ms += step
            remaining -= step

    # -- inside -------------------------------------------------------------------------
    def _moving(self) -> bool:
        return (not self.motor_dead and abs(self._duty) >= self.params.min_duty
                and self._ready_at < math.inf)

    def _rate(self) -> float:
        """Progress per millisecond at the current duty."""
        return self.params.cards_per_second * abs(self._duty) * self.grip / 1000.0

    def _next_mark(self) -> float:
        """The next progress at which something happens going forward."""
        beam_start = 1.0 - self.params.beam_fraction
        marks = [1.0]
        if self._progress < beam_start:
            marks.append(beam_start)
        if self._jam_at is not None and self._progress < self._jam_at:
            marks.append(self._jam_at)
        return min(marks)

    def _forward(self, remaining: float) -> float:
        if self.hopper == 0 or self.jammed:
            return remaining  # the roller spins on nothing, or slips on the jammed card
        if self._jam_at is not None and self._progress >= self._jam_at:
            self.jammed = True
            return 0.0
        rate = self._rate()
        mark = self._next_mark()
        to_mark = (mark - self._progress) / rate
        if remaining < to_mark:
            self._progress += remaining * rate
            return remaining
        self._progress = mark
        if mark == self._jam_at:
            self.jammed = True
        elif mark >= 1.0:
            self._card_left()
        return to_mark

    def _reverse(self, remaining: float) -> float:
        rate = self._rate()
        step = remaining
        if self.jammed and not self.stuck:
            step = min(step, max(self.params.unjam_ms - self._reverse_ms, 0.0))
            self._reverse_ms += step
            if self._reverse_ms >= self.params.unjam_ms:
                self.jammed = False
                self._jam_at = None
                self._reverse_ms = 0.0
        beam_start = 1.0 - self.params.beam_fraction
        if self._progress > beam_start and step * rate > self._progress - beam_start:
            step = (self._progress - beam_start) / rate
            self._progress = beam_start
            return step
        self._progress = max(self._progress - step * rate, 0.0)
        return step

    def _card_left(self) -> None:
        self.cards_out += 1
        self.hopper -= 1
        self._progress = 0.0
        self._draw_jam()

    def _draw_jam(self) -> None:
        """Decide whether the new bottom card will jam, and where."""
        self._jam_at = None
        if self._jam_next:
            self._jam_next = False
            self._jam_at = 0.0
        elif self._rng.random() < self.params.jam_probability:
            self._jam_at = self._rng.uniform(0.05, 0.95 - self.params.beam_fraction)

    def __repr__(self) -> str:
        return (f"<DispenserModel t={self.now_ms:.1f}ms duty={self._duty:+.2f} "
                f"hopper={self.hopper} out={self.cards_out} jammed={self.jammed} "
                f"beam={'blocked' if self.beam_blocked else 'clear'}>")
