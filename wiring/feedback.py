"""Light and sound that build up with the tension, as the newer toys do.

Each empty press makes the LED blink faster and the buzzer beep once more; a fire lights
the LED steadily and sounds one long beep. Either part may be missing from the pin map.
"""

from __future__ import annotations

from gpiozero import LED, Buzzer

from sim_launcher.dispenser import FIRE_BEEP_MS

#: The shortest real blink or beep. On a Pi (time scale 1) the fastest blink is 50 ms; on
#: emulated pins at a scale of 100 it would be half a millisecond, a stream of pin edges
#: that only costs the process its CPU, so a faster clock blinks no faster than this.
SHORTEST_REAL_S = 0.02


class Feedback:
    """Drives the optional LED and buzzer from the launcher's tension."""

    def __init__(self, led: LED | None, buzzer: Buzzer | None, *,
                 time_scale: float = 1.0) -> None:
        self.led = led
        self.buzzer = buzzer
        self.time_scale = time_scale

    def _s(self, ms: float) -> float:
        return max(ms / 1000.0 / self.time_scale, SHORTEST_REAL_S)

    def firing(self) -> None:
        """Cards are about to fly: steady light, one long beep."""
        if self.led is not None:
            self.led.on()
        if self.buzzer is not None:
            self.buzzer.beep(on_time=self._s(FIRE_BEEP_MS), off_time=self._s(10), n=1)

    def tension(self, empty_presses: int) -> None:
        """After a press: blink and beep faster the longer nothing has fired."""
        if empty_presses <= 0:
            self.idle()
            return
        period = max(400.0 / (1 + empty_presses), 50.0)
        if self.led is not None:
            self.led.blink(on_time=self._s(period), off_time=self._s(period))
        if self.buzzer is not None:
            self.buzzer.beep(on_time=self._s(period / 2), off_time=self._s(period / 2),
                             n=empty_presses)

    def idle(self) -> None:
        if self.led is not None:
            self.led.off()
        if self.buzzer is not None:
            self.buzzer.off()
