"""The Raspberry Pi's 40-pin header: which physical pin is which BCM GPIO.

Used to check pin maps (a BCM number must be on the header; PWM roles need a hardware
PWM pin) and to draw the wiring.
"""

from __future__ import annotations

#: Physical pin number -> BCM GPIO number, or the name of a power / ground pin.
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}

#: BCM GPIO number -> physical pin number.
PHYSICAL: dict[int, int] = {bcm: pin for pin, bcm in HEADER.items() if isinstance(bcm, int)}

#: GPIOs wired to the Pi's hardware PWM channels.
HARDWARE_PWM: frozenset[int] = frozenset({12, 13, 18, 19})

#: GPIOs on the header that a HAT's ID EEPROM owns; not for general use.
RESERVED: dict[int, str] = {0: "ID_SD (HAT ID EEPROM)", 1: "ID_SC (HAT ID EEPROM)"}


def gpio_name(bcm: int) -> str:
    return f"GPIO{bcm}"
