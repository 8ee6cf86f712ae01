# ruff: noqa: UP031
"""The dispenser's figures, limits and closed-loop eject, each declared once.

Written in the subset of Python that MicroPython runs (no imports, no dataclasses, no
type hints at run time), because the board runs this very file: it is linked into
``firmware_bridge/firmware/`` and flashed with the firmware. The Raspberry Pi's GPIO
driver runs the same :class:`Eject` loop and :class:`Debouncer` on gpiozero's pins, the
physical model takes its defaults from the figures below, and ``wiring calibrate``
measures them on a real machine. A pin map (``[motor]``, ``[timing]``, ``[calibration]``)
or the board's own :class:`Settings` override the defaults.
"""

# What a dispenser does (LAUNCHER.md's figures, the physical model's defaults).
SPIN_UP_MS = 60.0        # from standstill, or a change of direction, to speed
CARDS_PER_SECOND = 8.0   # at full duty; proportional to duty
BEAM_MS = 25.0           # how long one card blocks the beam at full duty

# What one eject may ask (PROTOCOL.md: the HELLO reply's cards= and max_ms=).
CARDS = 12               # the most cards one eject fires: also the largest burst
MAX_MS = 10000           # the longest one eject may be asked to run

# How an eject runs (LAUNCHER.md: run until the beam has seen k cards, stop early on a
# jam, an empty hopper or max_ms).
DUTY = 0.8               # forward duty while ejecting
EJECT_MS = 4000          # the time limit of one eject, reverse pulses included
JAM_CARDS = 3            # no card for spin-up plus this many card times: a jam
REVERSE_DUTY = 0.6       # a jam is first freed by running backwards at this duty …
REVERSE_MS = 150         # … this long (spin-up included; 0: never) …
REVERSE_TRIES = 1        # … this many times, each followed by a new forward run
SETTLE_MS = 25           # the beam clear and the motor off this long: the count is final
SETTLE_MAX_MS = 500      # a card stuck in the beam: the count is final after this long
DEBOUNCE_MS = 20         # the button rested this long: its next edge is a new push
FIRE_BEEP_MS = 300       # the buzzer beeps this long when cards fly

STATUSES = ("ok", "jam", "empty", "timeout", "stopped")


def _minus(later, earlier):
    return later - earlier


class Settings:
    """How one dispenser ejects; every value defaults to the figures above.

    ``duties`` and ``rates`` are the cards per second measured at a few duties (by
    ``wiring calibrate``); between them the rate is interpolated, outside them it is taken
    as proportional to duty. ``jam_ms`` left out is worked out from them: spin-up plus
    ``JAM_CARDS`` card times at ``duty``, so a slow dispenser is not taken for a jammed one.
    """

    def __init__(self, duty=DUTY, max_ms=EJECT_MS, jam_ms=None, reverse_duty=REVERSE_DUTY,
                 reverse_ms=REVERSE_MS, reverse_tries=REVERSE_TRIES, debounce_ms=DEBOUNCE_MS,
                 spin_up_ms=SPIN_UP_MS, beam_ms=BEAM_MS, duties=(1.0,),
                 rates=(CARDS_PER_SECOND,)):
        if len(duties) != len(rates) or not duties:
            raise ValueError("duties and rates must be lists of the same length")
        self.duty = duty
        self.max_ms = max_ms
        self.reverse_duty = reverse_duty
        self.reverse_ms = reverse_ms
        self.reverse_tries = reverse_tries
        self.debounce_ms = debounce_ms
        self.spin_up_ms = spin_up_ms
        self.beam_ms = beam_ms
        self.duties = tuple(duties)
        self.rates = tuple(rates)
        self.derived_jam = jam_ms is None
        self.jam_ms = spin_up_ms + JAM_CARDS * self.card_ms(duty) if jam_ms is None else jam_ms

    def rate(self, duty):
        """Cards per second at ``duty`` (0…1)."""
        duty = abs(duty)
        duties, rates = self.duties, self.rates
        if duty <= duties[0]:
            return rates[0] * duty / duties[0]
        for i in range(1, len(duties)):
            if duty <= duties[i]:
                part = (duty - duties[i - 1]) / (duties[i] - duties[i - 1])
                return rates[i - 1] + part * (rates[i] - rates[i - 1])
        return rates[-1] * duty / duties[-1]

    def card_ms(self, duty):
        """How long one card takes to come out at ``duty``, once the motor is up to speed."""
        rate = self.rate(duty)
        return 1000.0 / rate if rate > 0 else MAX_MS

    def blocked_ms(self, duty):
        """How long one card blocks the beam at ``duty``."""
        return self.beam_ms * self.card_ms(duty) / self.card_ms(1.0)

    def first_card_ms(self, duty):
        """From the motor starting to the first card out (its back edge clearing the beam)."""
        return self.spin_up_ms + self.card_ms(duty)

    def __repr__(self):
        return ("Settings(duty=%r, max_ms=%r, jam_ms=%r, reverse=%r×%r ms at %r, "
                "spin_up_ms=%r, beam_ms=%r, rates=%r)" % (
                    self.duty, self.max_ms, self.jam_ms, self.reverse_tries, self.reverse_ms,
                    self.reverse_duty, self.spin_up_ms, self.beam_ms,
                    list(zip(self.duties, self.rates))))  # noqa: B905 - MicroPython has no strict=


class Eject:
    """One eject (or a plain motor run) in progress: the closed loop of LAUNCHER.md.

    The caller owns the clock, the pins and the motor. It passes ``now`` (ms) to every
    call, calls :meth:`beam` on each change of the beam, :meth:`poll` at the latest after
    :meth:`wait_ms`, and after each call drives the motor at :attr:`duty` (−1…1, the sign
    is the direction). ``status`` is set when the motor stops for good (one of
    ``STATUSES``); ``finished`` once the count is final and the eject may be reported.

    A card counts when the beam clears after being blocked, unless the roller is turning
    backwards. ``want=None`` is a plain motor run (the wiring tests' MOTOR): it ends
    ``ok`` at ``max_ms`` and never calls a jam. A jam (no card for ``jam_ms``) is first
    answered by a reverse pulse and a new forward run, ``reverse_tries`` times; then the
    eject ends ``jam``. Nothing, reverse pulses included, runs past ``max_ms``.
    """

    def __init__(self, settings, want, max_ms, now, *, duty=None, beam_blocked=False,
                 hopper_empty=False, ticks_diff=None):
        self.settings = settings
        self.want = want
        self.max_ms = max_ms
        self.started = now
        self.forward = settings.duty if duty is None else duty
        self.duty = self.forward
        self.count = 0
        self.reverses = 0          # reverse pulses run to free a jam
        self.status = None
        self.finished = False
        self.blocked = bool(beam_blocked)
        self.beam_since = now
        self.stopped_at = now
        self._diff = ticks_diff or _minus
        self._last_card = now      # the last card out, or the start of the forward run
        self._reverse_at = None    # a reverse pulse started here …
        self._reverse_for = 0      # … and runs this long
        self._tries = settings.reverse_tries if want is not None and settings.reverse_ms > 0 \
            else 0
        if want is not None and hopper_empty:
            self._end("empty", now)  # the motor never starts

    # -- what the caller feeds in ------------------------------------------------------
    def beam(self, now, blocked):
        """The beam changed; True when that was a card out."""
        blocked = bool(blocked)
        if blocked == self.blocked:
            return False
        self.blocked = blocked
        self.beam_since = now
        if blocked or self.duty < 0:
            return False
        self.count += 1
        self._last_card = now
        if self.status is None and self.want is not None and self.count >= self.want:
            self._end("ok", now)
        return True

    def poll(self, now, hopper_empty=False):
        """Run the timers: jam, reverse pulse, ``max_ms``, the empty hopper, settling."""
        diff = self._diff
        if self.status is None:
            if self._reverse_at is not None:
                if diff(now, self._reverse_at) >= self._reverse_for:
                    self._reverse_at = None
                    self.duty = self.forward
                    self._last_card = now
            elif self.want is not None:
                if hopper_empty:
                    self._end("empty", now)
                elif diff(now, self._last_card) >= self.settings.jam_ms:
                    if self._tries > 0:
                        self._reverse(now)
                    else:
                        self._end("jam", now)
            if self.status is None and diff(now, self.started) >= self.max_ms:
                self._end("ok" if self.want is None else "timeout", now)
        elif not self.finished:
            quiet = diff(now, self.stopped_at)
            clear = not self.blocked and diff(now, self.beam_since) >= SETTLE_MS
            if (clear and quiet >= SETTLE_MS) or quiet >= SETTLE_MAX_MS:
                self.finished = True

    def stop(self, now):
        """A stop request: the motor off at once; the eject ends ``stopped``."""
        if self.status is None:
            self._end("stopped", now)
        else:
            self.status = "stopped"  # it was settling: its count still comes out final

    def overrun(self, now):
        """A limit outside the loop (the board's own) stopped the motor: it ends ``timeout``."""
        if self.status is None:
            self._end("timeout", now)

    def wait_ms(self, now):
        """How long the caller may wait for a beam change before it must :meth:`poll`."""
        diff = self._diff
        if self.finished:
            return None
        if self.status is not None:
            quiet = diff(now, self.stopped_at)
            left = SETTLE_MAX_MS - quiet
            if not self.blocked:
                left = min(left, max(SETTLE_MS - diff(now, self.beam_since), SETTLE_MS - quiet))
            return max(left, 0)
        left = self.max_ms - diff(now, self.started)
        if self._reverse_at is not None:
            left = min(left, self._reverse_for - diff(now, self._reverse_at))
        elif self.want is not None:
            left = min(left, self.settings.jam_ms - diff(now, self._last_card))
        return max(left, 0)

    @property
    def reversing(self):
        return self._reverse_at is not None

    # -- inside -------------------------------------------------------------------------
    def _reverse(self, now):
        self._tries -= 1
        self.reverses += 1
        self._reverse_at = now
        self._reverse_for = min(self.settings.reverse_ms,
                                self.max_ms - self._diff(now, self.started))
        self.duty = -self.settings.reverse_duty

    def _end(self, status, now):
        self.status = status
        self.duty = 0
        self.stopped_at = now
        self._reverse_at = None


class Debouncer:
    """One push per push of a bouncing switch, with no added delay.

    A push counts at its first edge, provided the switch had rested released for
    ``hold_ms``; the chatter after a push or a release is never still that long, so it
    never counts. Fed with raw edges and their times, it behaves the same on a board that
    samples its pin and on a Pi that gets edge callbacks.
    """

    def __init__(self, hold_ms=DEBOUNCE_MS, ticks_diff=None):
        self.hold_ms = hold_ms
        self._diff = ticks_diff or _minus
        self._pushed = False      # a push was counted …
        self._released = None     # … and the switch has been released since then

    def edge(self, pressed, now):
        """Feed one raw edge; True when it is a new push."""
        if not pressed:
            self._released = now
            return False
        rested = self._released is not None and self._diff(now, self._released) >= self.hold_ms
        self._released = None
        if rested or not self._pushed:
            self._pushed = True
            return True
        return False
