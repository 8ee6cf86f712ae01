# ruff: noqa: UP031
"""The Raspberry Pi Pico (RP2040) HAL and main loop: MicroPython only.

Pins (GP numbers) are the defaults of ``docs/firmware.md``; change ``PINS`` to rewire.
The link is the USB CDC serial port (the REPL's ``sys.stdin``/``sys.stdout``), read
without blocking through ``select.poll``. Ctrl-C is disabled while the firmware runs, so a
noisy byte 0x03 cannot stop it with the motor on; the ``REPL`` request (or the button held
while plugging the board in) gives the REPL to ``mpremote`` instead.
"""

import os
import select
import sys
import time

import machine
import micropython

from . import board, dispenser
from .hal import Hal

PINS = {
    "button": 14,      # to ground, internal pull-up, active low
    "motor_in1": 16,   # H-bridge direction inputs (TB6612FNG AIN1/AIN2, L298N IN1/IN2)
    "motor_in2": 17,
    "motor_pwm": 18,   # H-bridge PWM / enable
    "beam": 15,        # break-beam receiver, open collector, pull-up: low = blocked
    "hopper_empty": None,  # optional switch to ground, closed when the hopper is empty
    "led": 25,         # the Pico's own LED: on while the motor runs
    "buzzer": None,    # optional active buzzer: a beep when cards fly
}
# The dispenser's timings on this board (see sim_launcher/dispenser.py for each one):
# e.g. dispenser.Settings(duty=0.9, jam_ms=800) for a slow roller.
SETTINGS = dispenser.Settings()
PWM_HZ = 20000
REPL_FLAG = "repl.flag"   # written by a REPL request, removed by the restart it makes
WATCHDOG_MS = 1000
READ_BYTES = 256   # the RP2040 port's USB receive buffer: what one read may find waiting


class PicoHal(Hal):
    """RP2040 pins and the USB serial port."""

    def __init__(self, pins=PINS):
        pin = machine.Pin
        self.in1 = pin(pins["motor_in1"], pin.OUT, value=0)
        self.in2 = pin(pins["motor_in2"], pin.OUT, value=0)
        self.pwm = machine.PWM(pin(pins["motor_pwm"]))
        self.pwm.freq(PWM_HZ)
        self.pwm.duty_u16(0)
        self.beam = pin(pins["beam"], pin.IN, pin.PULL_UP)
        self.button = pin(pins["button"], pin.IN, pin.PULL_UP)
        hopper = pins.get("hopper_empty")
        self.hopper = pin(hopper, pin.IN, pin.PULL_UP) if hopper is not None else None
        self.led = pin(pins["led"], pin.OUT, value=0)
        buzzer = pins.get("buzzer")
        self.buzzer = pin(buzzer, pin.OUT, value=0) if buzzer is not None else None
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.rx = bytearray(READ_BYTES)
        self.rx_view = memoryview(self.rx)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, later, earlier):
        return time.ticks_diff(later, earlier)

    def set_motor(self, duty):
        duty = max(-100, min(100, duty))
        self.pwm.duty_u16(0)
        self.in1.value(1 if duty > 0 else 0)
        self.in2.value(1 if duty < 0 else 0)
        self.pwm.duty_u16(abs(duty) * 65535 // 100)

    def set_led(self, on):
        self.led.value(1 if on else 0)

    def set_buzzer(self, on):
        if self.buzzer is not None:
            self.buzzer.value(1 if on else 0)

    def beam_blocked(self):
        return self.beam.value() == 0

    def button_down(self):
        return self.button.value() == 0

    def hopper_empty(self):
        return None if self.hopper is None else self.hopper.value() == 0

    def read(self):
        """At most ``READ_BYTES`` of what waits, in a buffer made once: adding byte to
        bytes made a new object per byte, some 32 KB of garbage for a full USB buffer."""
        buffer = self.rx
        n = 0
        while n < READ_BYTES and self.poller.poll(0):
            buffer[n] = self.stdin.read(1)[0]
            n += 1
        return self.rx_view[:n]

    def write(self, data):
        self.stdout.write(data)

    def boot_id(self):
        return "%08X" % int.from_bytes(os.urandom(4), "big")


def run():
    """Run the firmware, unless the button is held at power-up or a ``REPL`` request
    restarted the board: then ``main.py`` ends and the REPL has the USB serial."""
    if _asked_for_repl():
        return
    hal = PicoHal()
    if hal.button_down():
        return  # maintenance: leave the REPL to mpremote
    dog = machine.WDT(timeout=WATCHDOG_MS)
    serve(hal, board.Firmware(hal, SETTINGS), dog)


def serve(hal, firmware, dog):
    """The main loop, one pass per watchdog feed, until a ``REPL`` request."""
    micropython.kbd_intr(-1)
    try:
        while not firmware.leaving:
            firmware.poll()
            dog.feed()
    finally:
        hal.set_motor(0)
        micropython.kbd_intr(3)
    # A REPL request. A running watchdog cannot be stopped: restart without one.
    with open(REPL_FLAG, "w"):
        pass
    time.sleep_ms(20)  # the OK leaves the USB buffer first
    machine.reset()


def _asked_for_repl():
    try:
        os.remove(REPL_FLAG)
    except OSError:
        return False
    return True
