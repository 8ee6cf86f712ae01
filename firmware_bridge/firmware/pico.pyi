# The types of pico.py, which imports MicroPython's own modules (machine, micropython).
from typing import Any

from .board import Firmware
from .dispenser import Settings
from .hal import Hal

PINS: dict[str, int | None]
SETTINGS: Settings
PWM_HZ: int
WATCHDOG_MS: int
READ_BYTES: int

class PicoHal(Hal):
    def __init__(self, pins: dict[str, int | None] = ...) -> None: ...

def run() -> None: ...
def serve(hal: Hal, firmware: Firmware, dog: Any) -> None: ...  # dog: a machine.WDT
