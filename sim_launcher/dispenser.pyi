# The types of dispenser.py, which stays in the MicroPython subset (no annotations, no
# imports) because the board runs it. Times are ms: ints on the board, floats on the Pi.
from collections.abc import Callable

SPIN_UP_MS: float
CARDS_PER_SECOND: float
BEAM_MS: float
CARDS: int
MAX_MS: int
DUTY: float
EJECT_MS: int
JAM_CARDS: int
REVERSE_DUTY: float
REVERSE_MS: int
REVERSE_TRIES: int
SETTLE_MS: int
SETTLE_MAX_MS: int
DEBOUNCE_MS: int
FIRE_BEEP_MS: int
STATUSES: tuple[str, ...]

_TicksDiff = Callable[[float, float], float]

class Settings:
    duty: float
    max_ms: float
    reverse_duty: float
    reverse_ms: float
    reverse_tries: int
    debounce_ms: float
    spin_up_ms: float
    beam_ms: float
    duties: tuple[float, ...]
    rates: tuple[float, ...]
    derived_jam: bool
    jam_ms: float
    def __init__(self, duty: float = ..., max_ms: float = ..., jam_ms: float | None = None,
                 reverse_duty: float = ..., reverse_ms: float = ..., reverse_tries: int = ...,
                 debounce_ms: float = ..., spin_up_ms: float = ..., beam_ms: float = ...,
                 duties: tuple[float, ...] | list[float] = ...,
                 rates: tuple[float, ...] | list[float] = ...) -> None: ...
    def rate(self, duty: float) -> float: ...
    def card_ms(self, duty: float) -> float: ...
    def blocked_ms(self, duty: float) -> float: ...
    def first_card_ms(self, duty: float) -> float: ...

class Eject:
    settings: Settings
    want: int | None
    max_ms: float
    started: float
    forward: float
    duty: float
    count: int
    reverses: int
    status: str | None
    finished: bool
    blocked: bool
    beam_since: float
    stopped_at: float
    def __init__(self, settings: Settings, want: int | None, max_ms: float, now: float, *,
                 duty: float | None = None, beam_blocked: bool = False,
                 hopper_empty: bool = False, ticks_diff: _TicksDiff | None = None) -> None: ...
    def beam(self, now: float, blocked: bool) -> bool: ...
    def poll(self, now: float, hopper_empty: bool = False) -> None: ...
    def stop(self, now: float) -> None: ...
    def overrun(self, now: float) -> None: ...
    def wait_ms(self, now: float) -> float | None: ...
    @property
    def reversing(self) -> bool: ...

class Debouncer:
    hold_ms: float
    def __init__(self, hold_ms: float = ..., ticks_diff: _TicksDiff | None = None) -> None: ...
    def edge(self, pressed: bool, now: float) -> bool: ...
