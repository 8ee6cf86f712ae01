# The types of board.py, which stays in the MicroPython subset because the board runs it.
from collections.abc import Callable

from . import dispenser, ulp
from .hal import Hal

FW_VERSION: str
CARDS: int
MAX_MS: int
MOTOR_MAX_MS: int
LIMIT_MS: int
BEAM_FILTER_MS: int
SENSOR_MS: int
MEMORY: int
MAX_LINE: int
ERROR_CODES: tuple[str, ...]
HELLO: ulp.Format
OK: ulp.Format
CARD: ulp.Format
DONE: ulp.Format
STATUS: ulp.Format
PONG: ulp.Format
ERR: ulp.Format
BOOT: ulp.Format
PRESS: ulp.Format
FAULT: ulp.Format

_Handler = Callable[[Firmware, ulp.Message], None]
COMMANDS: dict[str, _Handler]

def command(text: str, replies: str) -> Callable[[_Handler], _Handler]: ...

class Job(dispenser.Eject):
    verb: str
    rid: int
    epoch: int
    def __init__(self, verb: str, rid: int, epoch: int, settings: dispenser.Settings,
                 want: int | None, max_ms: int, now: int, duty: float | None, beam: bool,
                 hopper: bool, ticks_diff: dispenser._TicksDiff) -> None: ...

class Firmware:
    hal: Hal
    settings: dispenser.Settings
    limit_ms: int
    motor_on: bool
    motor_duty: int
    motor_since: int
    boot: str
    session: str | None
    epoch: int
    memory: list[list[int | str | None]]
    job: Job | None
    presses: int
    rx: bytearray
    rx_len: int
    rx_overflow: bool
    button: bool
    leaving: bool
    debouncer: dispenser.Debouncer
    beam_raw: bool
    beam: bool
    beam_since: int
    beam_changed: int
    sensor_fault: bool
    beep_since: int | None
    starts: int
    def __init__(self, hal: Hal, settings: dispenser.Settings | None = None,
                 limit_ms: int = ...) -> None: ...
    def send(self, message: ulp.Format, *values: object) -> None: ...
    def poll(self) -> None: ...
    def motor_deadline(self) -> float | None: ...
    def next_tick(self) -> float | None: ...
    @property
    def busy(self) -> bool: ...
    def feed(self, data: bytes) -> None: ...
    def handle_line(self, line: bytes) -> None: ...
    def cmd_hello(self, msg: ulp.Message) -> None: ...
    def cmd_eject(self, msg: ulp.Message) -> None: ...
    def cmd_motor(self, msg: ulp.Message) -> None: ...
    def cmd_stop(self, msg: ulp.Message) -> None: ...
    def cmd_repl(self, msg: ulp.Message) -> None: ...
    def cmd_status(self, msg: ulp.Message) -> None: ...
    def cmd_ping(self, msg: ulp.Message) -> None: ...
