"""The hardware abstraction the firmware runs on: all it may touch of a board.

``pico.py`` implements it with ``machine`` pins on an RP2040; the emulator implements it on
the physical model behind a pty. Keeping it this small is what lets the same firmware
logic run, unchanged, on the board and in the tests.
"""


class Hal:
    """One board: a millisecond clock, the motor, three inputs and a byte link."""

    def ticks_ms(self):
        """A millisecond counter (it may wrap: compare with :meth:`ticks_diff`)."""
        raise NotImplementedError

    def ticks_diff(self, later, earlier):
        """``later - earlier`` in ms, as MicroPython's ``time.ticks_diff``."""
        return later - earlier

    def set_motor(self, duty):
        """Drive the H-bridge: duty -100…100 percent, the sign is the direction, 0 off."""
        raise NotImplementedError

    def set_led(self, on):
        """The status LED (optional: a board without one ignores it)."""

    def set_buzzer(self, on):
        """The buzzer (optional: a board without one ignores it)."""

    def beam_blocked(self):
        """True while something is between the break-beam's emitter and receiver."""
        raise NotImplementedError

    def button_down(self):
        """The raw (bouncing) state of the big button."""
        raise NotImplementedError

    def hopper_empty(self):
        """The hopper switch: True/False, or None when no switch is fitted."""
        return None

    def read(self):
        """The bytes received since the last call, or the first of them (a board may hand
        them over in parts; ``b""`` when none): never blocks. Valid until the next call."""
        raise NotImplementedError

    def write(self, data):
        """Send bytes to the host; a board with nobody listening just loses them."""
        raise NotImplementedError

    def boot_id(self):
        """Eight upper-case hex digits, random per power-up."""
        raise NotImplementedError
