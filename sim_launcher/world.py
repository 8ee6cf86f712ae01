"""One emulated dispenser world: the physical model, its clock, a person, parts and faults.

The emulated GPIO pins (``wiring/emulated.py``) and the emulated board
(``firmware_bridge/emulator.py``) both drive a :class:`DispenserWorld`, so a jam, a dead
LED or a bouncy button means the same thing to every driver. The world holds what is
outside the driver: the motor, roller, hopper and beam (:mod:`sim_launcher.physical`), the
button's contacts, the status LED and the buzzer, a person who pushes the button, blocks
the beam and reloads the hopper, and the named :data:`FAULTS`.

Time. Model time (ms) runs ``time_scale`` times faster than the real clock. One thread
*owns* the world and steps it (:meth:`DispenserWorld.advance_to`), from one sensor change
or scheduled action to the next; every other thread only posts actions, stamped with the
model time of the moment they were posted, which the owner runs at that very time. So a
driver thread never waits for a lock the owner holds while it calls the driver back.

A driver's closed loop can take the world over (:meth:`DispenserWorld.driven`): while it
runs, model time stands still except in the loop's own waits (:meth:`DispenserWorld.run_for`),
and never runs past the moment the loop said it would look again. So the outcome of an
eject does not depend on when the machine gives the loop's thread the CPU: a late thread
sees the dispenser exactly as an instant one would, as on a real machine whose loop is
never late.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from sim_launcher.dispenser import CARDS
from sim_launcher.physical import DispenserModel, DispenserParams

__all__ = ["FAULTS", "Clock", "DispenserWorld", "Indicator", "WorldRunner"]

Action = Callable[[], None]

PUSH_MS = 80.0     # an emulated finger holds the button this long …
REST_MS = 120.0    # … and rests at least this long before the next push
BOUNCES = 4        # extra edge pairs of a bouncy push or release …
BOUNCE_MS = 0.5    # … this far apart
SLIP_GRIP = 0.4    # a slipping roller moves cards at this part of their speed
TICK_S = 0.002     # the longest real wait between two looks at the clock


@dataclass(frozen=True)
class Fault:
    """A named fault: what it does, and how it is done to the world."""

    what: str
    apply: Callable[[DispenserWorld], None]


def _jam(world: DispenserWorld) -> None:
    world.model.force_jam(stuck=True)


def _empty(world: DispenserWorld) -> None:
    world.refill = False
    world.model.refill(0)


def _beam_stuck(world: DispenserWorld) -> None:
    world.model.beam_stuck = True


def _button_dead(world: DispenserWorld) -> None:
    world.button_dead = True


def _motor_dead(world: DispenserWorld) -> None:
    world.model.motor_dead = True


def _bouncy(world: DispenserWorld) -> None:
    world.bounces = BOUNCES


def _led_dead(world: DispenserWorld) -> None:
    world.led.broken = True


def _buzzer_broken(world: DispenserWorld) -> None:
    world.buzzer.broken = True


def _slipping(world: DispenserWorld) -> None:
    world.model.grip = SLIP_GRIP


FAULTS: dict[str, Fault] = {
    "jam": Fault("a card stuck for good: reverse pulses do not free it", _jam),
    "empty": Fault("no cards in the hopper, and nobody reloads it", _empty),
    "beam-stuck": Fault("the beam receiver reads blocked all the time (misaligned, dirty)",
                        _beam_stuck),
    "button-dead": Fault("pushes never reach the switch's contacts", _button_dead),
    "motor-dead": Fault("the roller never turns, whatever the motor pins say", _motor_dead),
    "bouncy-button": Fault("each push and each release chatters", _bouncy),
    "led-dead": Fault("the status LED never lights, however it is driven", _led_dead),
    "buzzer-broken": Fault("a broken buzzer wire: it never sounds", _buzzer_broken),
    "roller-slipping": Fault(f"a dirty roller slips: cards come out at {SLIP_GRIP:.0%} of "
                             "their speed", _slipping),
}


class Clock:
    """Model time from the real clock, ``time_scale`` times faster."""

    def __init__(self, time_scale: float = 1.0) -> None:
        if not (math.isfinite(time_scale) and time_scale > 0):
            raise ValueError(f"time_scale {time_scale!r} must be a positive number")
        self.time_scale = time_scale
        self._real0 = time.monotonic()
        self._model0 = 0.0
        self._held: float | None = None

    def start(self, model_ms: float) -> None:
        """From now on, the real clock's now is model time ``model_ms``."""
        self._real0 = time.monotonic()
        self._model0 = model_ms
        self._held = None

    def hold(self, model_ms: float) -> None:
        """Stand still at ``model_ms`` until the next :meth:`start`."""
        self._held = model_ms

    @property
    def held(self) -> bool:
        """True while the clock stands still (:meth:`hold`)."""
        return self._held is not None

    def now(self) -> float:
        held = self._held
        if held is not None:
            return held
        return self._model0 + (time.monotonic() - self._real0) * 1000.0 * self.time_scale

    def real_seconds(self, model_ms: float) -> float:
        return model_ms / 1000.0 / self.time_scale


class Indicator:
    """A lamp or a buzzer: driven by its pin, working or broken, its changes remembered.

    ``on`` is what a person sees or hears: driven and not broken; ``noticed`` tells
    whether it has ever been on. ``changes`` holds the latest (model ms, driven) changes.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.broken = False
        self.driven = False
        self.noticed = False
        self.changes: deque[tuple[float, bool]] = deque(maxlen=4096)

    @property
    def on(self) -> bool:
        return self.driven and not self.broken

    def drive(self, on: bool, at_ms: float) -> None:
        if bool(on) != self.driven:
            self.driven = bool(on)
            self.changes.append((at_ms, self.driven))
            self.noticed = self.noticed or self.on

    def __repr__(self) -> str:
        return f"<Indicator {self.name} driven={self.driven} broken={self.broken}>"


class DispenserWorld:
    """The dispenser and its surroundings, in model time; see the module docstring."""

    def __init__(self, params: DispenserParams | None = None, *, faults: Iterable[str] = (),
                 seed: int | None = None, time_scale: float = 1.0,
                 refill: bool = True) -> None:
        self.model = DispenserModel(params, seed=seed)
        self.clock = Clock(time_scale)
        self.led = Indicator("LED")
        self.buzzer = Indicator("buzzer")
        self.button_down = False     # the switch's contacts are closed
        self.button_dead = False
        self.bounces = 0
        self.refill = refill         # a person reloads the hopper between ejects
        self.faults: list[str] = []
        self.motor_changes: deque[tuple[float, float]] = deque(maxlen=4096)  # (ms, duty)
        self._queue: list[tuple[float, int, Action]] = []
        self._queue_lock = threading.Lock()
        self._seq = itertools.count()
        self._owner: int | None = None   # the thread that steps the world now …
        self._home: int | None = None    # … and the one that steps it when no driver does
        self._turn = threading.Lock()    # held by whoever is stepping the world
        self._stepped = threading.Condition()
        self._idle = threading.Condition()
        self._button_free_at = 0.0
        self.wake: Callable[[], None] | None = None  # set by whoever steps the world
        for name in faults:
            self.inject(name)

    @property
    def time_scale(self) -> float:
        return self.clock.time_scale

    # -- who steps it ---------------------------------------------------------------------
    def own(self) -> None:
        """The calling thread steps the world from now on; model time starts running."""
        self._owner = self._home = threading.get_ident()
        self.clock.start(self.model.now_ms)

    def release(self) -> None:
        """Nobody steps the world any more (its thread is ending): nobody waits for it."""
        if self._owner == self._home:
            self._owner = None
        self._home = None
        self.wake = None
        with self._stepped:
            self._stepped.notify_all()

    @contextlib.contextmanager
    def driven(self) -> Iterator[None]:
        """The calling thread (a driver's closed loop) steps the world inside this block.

        Model time stands still in it except in :meth:`run_for`: whatever the loop does
        between two waits happens at the very moment its last wait ended, however long
        the machine keeps its thread from the CPU. Other threads' actions wait, stamped
        with that moment, for the loop's next wait.
        """
        with self._turn:
            self._owner = threading.get_ident()
            self.clock.hold(self.model.now_ms)
            try:
                yield
            finally:
                self._owner = self._home
                self.clock.start(self.model.now_ms)
        self._poke()

    def run_for(self, ms: float | None, *, until: threading.Event,
                on_step: Action | None = None) -> None:
        """(Inside :meth:`driven`) Let model time run ``ms`` more (``None``: with no end)
        at the clock's pace, and return at once when ``until`` is set: by a callback of a
        step (the time then stops at that step) or by another thread.

        Actions due at the very end wait for the next call: the loop looks first.
        """
        model = self.model
        end = math.inf if ms is None else model.now_ms + max(ms, 0.0)
        if ms is not None and ms > 0:  # a wait of a rounding error still moves time on
            end = max(end, math.nextafter(model.now_ms, math.inf))

        def stop() -> bool:
            return until.is_set() or model.now_ms >= end

        self.clock.start(model.now_ms)
        try:
            while True:
                self.advance_to(min(self.clock.now(), end), on_step=on_step, until=stop)
                if stop():
                    return
                ahead = min(self.ms_ahead(), end - model.now_ms)
                until.wait(min(TICK_S, self.clock.real_seconds(ahead)))
        finally:
            self.clock.hold(model.now_ms)

    def pause(self, after_ms: float = 0.0) -> float:
        """Let model time run ``after_ms`` more from where the world stands (the model's
        own time, however far a late owner lets the clock run ahead), then stand still
        until :meth:`resume`; the model time it stops at.

        For a test that must speak while nothing moves (a request while an eject runs):
        the owner still steps up to that moment, and the drivers it polls still hear and
        answer, but no timer runs out and no card moves meanwhile. (A driver's closed loop
        that steps the world itself, :meth:`driven`, keeps its own time.)
        """
        at = self.model.now_ms + max(after_ms, 0.0)
        self.clock.hold(at)
        self._poke()
        return at

    def resume(self) -> None:
        """Model time runs on, at the clock's pace, from where :meth:`pause` held it."""
        self.clock.start(self.clock.now())
        self._poke()

    def step_with_clock(self, on_step: Action | None = None) -> float | None:
        """(The owner) Step to the clock's now, unless a driver steps the world meanwhile;
        the model ms until something happens by itself, or None when a driver has it."""
        if not self._turn.acquire(blocking=False):
            return None
        try:
            self.advance_to(self.clock.now(), on_step=on_step)
            return self.ms_ahead()
        finally:
            self._turn.release()

    def _here(self) -> bool:
        """True when the caller may touch the model: it owns the world, or nobody does."""
        return self._owner is None or self._owner == threading.get_ident()

    def now_ms(self, *, timeout: float = 1.0) -> float:
        """Model time now, with every change up to now already stepped through.

        From another thread this waits (at most ``timeout`` real seconds) for the owner
        to catch up, so a driver that reads the time has seen every edge before it: as on
        a real machine, where edges never come late.
        """
        if self._here():
            return self.model.now_ms
        target = self.clock.now()
        self._poke()
        with self._stepped:
            self._stepped.wait_for(lambda: self.model.now_ms >= target or self._owner is None,
                                   timeout)
        return target

    # -- actions --------------------------------------------------------------------------
    def post(self, action: Action, *, delay_ms: float = 0.0) -> int | None:
        """Run ``action`` in the owner's thread ``delay_ms`` of model time from now; the
        returned number can :meth:`cancel` it (None: it has already run)."""
        if delay_ms <= 0 and self._owner is None:
            action()
            return None
        return self._post_at(self._now_for_posting() + delay_ms, action)

    def cancel(self, posted: int | None) -> None:
        """Take a posted action back, if it has not run yet."""
        with self._queue_lock:
            kept = [entry for entry in self._queue if entry[1] != posted]
            if len(kept) != len(self._queue):
                heapq.heapify(kept)
                self._queue = kept

    def _now_for_posting(self) -> float:
        """Model time now as the owner will see it: the clock's, or the model's own."""
        if self._owner is None or self._owner == threading.get_ident():
            return self.model.now_ms
        return max(self.clock.now(), self.model.now_ms)

    def _post_at(self, when_ms: float, action: Action) -> int:
        with self._queue_lock:
            seq = next(self._seq)
            heapq.heappush(self._queue, (when_ms, seq, action))
        self._poke()
        return seq

    def call(self, action: Action, *, timeout: float = 5.0) -> None:
        """Run ``action`` at the current model time, and wait until it has run."""
        if self._here():
            action()
            return
        done = threading.Event()

        def run() -> None:
            try:
                action()
            finally:
                done.set()

        self.post(run)
        if not done.wait(timeout):
            raise TimeoutError("the emulated world did not run the action in time")

    @property
    def pending(self) -> int:
        """World actions posted and not yet run."""
        return len(self._queue)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every posted action has run (and the button is let go)."""
        self._poke()
        with self._idle:
            return self._idle.wait_for(lambda: not self._queue and not self.button_down,
                                       timeout)

    def _poke(self) -> None:
        wake = self.wake
        if wake is not None:
            wake()

    # -- what a driver does ---------------------------------------------------------------
    def set_motor(self, duty: float) -> None:
        """The motor pins changed: the roller follows at this moment of model time
        (remembered in :attr:`motor_changes`)."""
        if self._here():
            self._motor(duty)
        else:
            self.post(lambda: self._motor(duty))

    def _motor(self, duty: float) -> None:
        if duty != self.model.duty:
            self.motor_changes.append((self.model.now_ms, duty))
        self.model.set_motor(duty)

    def drive_led(self, on: bool) -> None:
        self._drive(self.led, on)

    def drive_buzzer(self, on: bool) -> None:
        self._drive(self.buzzer, on)

    def _drive(self, part: Indicator, on: bool) -> None:
        if self._here():
            part.drive(on, self.model.now_ms)
        else:
            self.post(lambda: part.drive(on, self.model.now_ms))

    # -- what a person does ---------------------------------------------------------------
    def push_button(self, *, hold_ms: float = PUSH_MS, delay_ms: float = 0.0) -> None:
        """Push the big button for ``hold_ms`` (queued behind earlier pushes)."""
        now = self._now_for_posting()
        with self._queue_lock:
            at = max(now + delay_ms, self._button_free_at)
            self._button_free_at = at + hold_ms + REST_MS
        self._post_at(at, lambda: self._contacts(True))
        self._post_at(at + hold_ms, lambda: self._contacts(False))
        self._post_at(at + hold_ms + REST_MS, lambda: None)  # done once the finger rested

    def _contacts(self, closed: bool) -> None:
        if self.button_dead:
            return
        self.button_down = closed
        for i in range(1, 2 * self.bounces + 1):
            chatter = closed if i % 2 == 0 else not closed
            self.post(partial(self._chatter, chatter), delay_ms=i * BOUNCE_MS)

    def _chatter(self, closed: bool) -> None:
        self.button_down = closed

    def block_beam(self, blocked: bool) -> None:
        """Put a finger in the beam (or take it out)."""

        def finger() -> None:
            self.model.finger_in_beam = blocked

        self.call(finger)

    def load(self, available: int | None) -> None:
        """Before an eject: the hopper holds what the game says is inside (when it says)."""
        if available is not None:
            self.call(lambda: self._reload(max(available, 0)))

    def eject_ended(self) -> None:
        """After an eject: a person tops up a hopper that holds less than one full burst."""

        def top_up() -> None:
            if self.model.hopper < CARDS:
                self._reload(None)

        self.call(top_up)

    def fill(self, cards: int, *, reload: bool = False) -> None:
        """The hopper holds exactly ``cards``; with ``reload=False`` nobody tops it up."""

        def fill_() -> None:
            self.refill = reload
            self.model.refill(cards)

        self.call(fill_)

    def _reload(self, cards: int | None) -> None:
        if self.refill:
            self.model.refill(cards)

    def inject(self, name: str) -> None:
        """Make fault ``name`` happen now (see :data:`FAULTS`)."""
        fault = FAULTS.get(name)
        if fault is None:
            raise ValueError(f"unknown fault {name!r} (faults: {', '.join(FAULTS)})")
        if name not in self.faults:
            self.faults.append(name)
        self.call(lambda: fault.apply(self))

    # -- stepping (the owner's thread) ----------------------------------------------------
    def advance_to(self, target_ms: float, *, on_step: Action | None = None,
                   bound: Callable[[], float] | None = None,
                   until: Callable[[], bool] | None = None) -> None:
        """Step model time to ``target_ms``, stopping at every sensor change, every due
        action and, when given, ``bound()`` ms ahead; ``on_step`` runs after each stop.
        When ``until()`` turns true after a stop, stepping ends there, before the actions
        due at that moment."""
        model = self.model
        self._run_due(on_step)
        while model.now_ms < target_ms and not (until is not None and until()):
            step = min(target_ms - model.now_ms, model.ms_to_next_change(),
                       self._next_due() - model.now_ms)
            if bound is not None:
                step = min(step, bound())
            model.advance(max(step, 0.0))
            if on_step is not None:
                on_step()
            if until is not None and until():
                break
            self._run_due(on_step)
        with self._stepped:
            self._stepped.notify_all()
        if not self._queue and not self.button_down:
            with self._idle:
                self._idle.notify_all()

    def ms_ahead(self) -> float:
        """Model time until something happens by itself: a sensor change or an action."""
        return max(min(self.model.ms_to_next_change(), self._next_due() - self.model.now_ms),
                   0.0)

    def _next_due(self) -> float:
        with self._queue_lock:
            return self._queue[0][0] if self._queue else math.inf

    def _run_due(self, on_step: Action | None) -> None:
        while True:
            with self._queue_lock:
                if not self._queue or self._queue[0][0] > self.model.now_ms:
                    return
                action = heapq.heappop(self._queue)[2]
            action()
            if on_step is not None:
                on_step()

    def __repr__(self) -> str:
        return (f"<DispenserWorld {self.model!r} led={self.led.on} buzzer={self.buzzer.on} "
                f"button={'down' if self.button_down else 'up'} faults={self.faults}>")


class WorldRunner:
    """A thread that owns a world and keeps its model time at the real clock's, except
    while a driver's closed loop steps it (:meth:`DispenserWorld.driven`).

    For drivers that live in real time (the GPIO pins): after every step ``on_step``
    drives the emulated input pins from the world, so a driver sees every edge, in order,
    at its model time, even when this thread falls behind.
    """

    def __init__(self, world: DispenserWorld, *, on_step: Action | None = None,
                 tick_s: float = TICK_S) -> None:
        self.world = world
        self.on_step = on_step
        self.tick_s = tick_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self.world.wake = self._wake.set
            self._thread = threading.Thread(target=self._run, name="dispenser-world",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def _run(self) -> None:
        world = self.world
        world.own()
        try:
            while not self._stop.is_set():
                ahead = world.step_with_clock(self.on_step)
                self._wake.wait(self._wait_s(ahead))
                self._wake.clear()
        finally:
            world.release()

    def _wait_s(self, ahead: float | None) -> float | None:
        """How long to sleep after a step: a tick while a driver has the world; until the
        next thing that happens by itself, at most a tick; when nothing will, until woken
        (every post, a driver letting go, :meth:`stop`), so a still dispenser takes no CPU
        from its process (a game's screens, or a test pilot that waits for the process to
        go idle)."""
        if ahead is None:
            return self.tick_s
        if math.isinf(ahead):
            return None
        return min(self.tick_s, self.world.clock.real_seconds(ahead))
