"""The one launcher interface every backend implements (simulated, scripted, GPIO, serial).

A press asks the ejection policy how many cards to fire, has the ejector push them
out, and reports what really came out and how it ended. The policy (how many) and the
ejector (making them come out) are separate objects: the same seeded policy serves the
simulator and real hardware, and hardware only ejects what it is told and counts what
really left.

Backends are found by name through the ``uno_attack.launchers`` entry-point group, so
this package never imports a hardware library; see :func:`open_launcher`.
"""

from __future__ import annotations

import contextlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib.metadata import entry_points
from types import TracebackType
from typing import Protocol, Self

from sim_launcher.policies import BurstPolicy, PolicyError, make_policy
from sim_launcher.world import DispenserWorld
from uno_attack.config import user_policy_tables
from uno_attack.errors import LauncherError

ENTRY_POINT_GROUP = "uno_attack.launchers"
DEFAULT_SPEC = "sim"
DEFAULT_POLICY = "attack"
#: A launcher's :meth:`~Launcher.state`: JSON values by name.
LauncherState = dict[str, int]


class EjectStatus(Enum):
    """How an eject ended (the ``status`` of a ULP/1 ``DONE``, plus ``unknown``)."""

    OK = "ok"            # every card asked for came out
    JAM = "jam"          # the motor ran jam_ms with no card passing
    EMPTY = "empty"      # a hopper sensor says there are no cards
    TIMEOUT = "timeout"  # max_ms ran out
    STOPPED = "stopped"  # stopped on request
    UNKNOWN = "unknown"  # the device restarted or vanished mid-eject: the count is not known

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class EjectResult:
    """What an ejector did: the cards its sensor counted and how it ended."""

    count: int
    status: EjectStatus = EjectStatus.OK
    detail: str = ""


@dataclass(frozen=True)
class PressResult:
    """One press of the launcher, as a front end or the table loop sees it.

    ``fired`` is what really came out (for ``UNKNOWN``, what was counted before contact
    was lost: the true number must be asked of a person, never guessed). ``asked`` is
    what the policy wanted. ``tension`` is the number of empty presses in a row after
    this press, which a screen, LED or buzzer builds up as the toy does.
    """

    fired: int
    asked: int
    status: EjectStatus = EjectStatus.OK
    tension: int = 0
    detail: str = ""

    @property
    def complete(self) -> bool:
        """True when the launcher did exactly what was asked."""
        return self.status is EjectStatus.OK and self.fired == self.asked

    @property
    def known(self) -> bool:
        return self.status is not EjectStatus.UNKNOWN


@lru_cache(maxsize=256)
def empty_press(tension: int) -> PressResult:
    """A press that fired nothing, after ``tension`` empty presses in a row: one shared
    value each, since most presses of a self-play round are these."""
    return PressResult(fired=0, asked=0, tension=tension)


@lru_cache(maxsize=64)
def full_press(cards: int) -> PressResult:
    """A press that fired all the ``cards`` it asked for (its tension is then 0): one
    shared value each, as :func:`empty_press`, for the other presses of self-play."""
    return PressResult(fired=cards, asked=cards)


def presses_of(state: Mapping[str, int], where: str) -> int:
    """The ``presses`` of a launcher's state: a count ≥ 0."""
    presses = state.get("presses", 0)
    if isinstance(presses, bool) or not isinstance(presses, int) or presses < 0:
        raise LauncherError(f"{where}: state key 'presses' = {presses!r} is not a count ≥ 0")
    return presses


class LauncherNotResponding(LauncherError):
    """The launcher hardware stopped answering (unplugged, powered off, crashed)."""


class Ejector(Protocol):
    """Something that pushes cards out and counts them: ideal, GPIO motor, serial board."""

    def eject(self, count: int, *, available: int | None = None) -> EjectResult:
        """Push out ``count`` cards and report what the sensor counted.

        ``available`` is how many cards the game believes are inside; a simulated
        ejector fires no more than that, real hardware ignores it.
        """
        ...

    def stop(self) -> None:
        """Stop an eject in progress, from another thread (it then reports ``stopped``)."""
        ...

    def close(self) -> None: ...


ButtonHandler = Callable[[], None]


class Launcher(ABC):
    """The launcher as the game sees it: press, tension, button events, close.

    Like a gpiozero device: ``close()`` is idempotent, ``closed`` tells, and a launcher
    is a context manager. ``when_button_pressed`` is called (from any thread) when the
    hardware's big button is pushed; ``wait_for_button`` is its blocking twin;
    ``has_button`` says whether there is such a button at all (a dispenser has one).
    """

    has_button = False

    def __init__(self) -> None:
        self._closed = False
        self._button_event = threading.Event()
        self._button_presses = 0
        self.when_button_pressed: ButtonHandler | None = None

    # -- what a backend implements ------------------------------------------------
    @abstractmethod
    def press(self, *, available: int | None = None) -> PressResult:
        """Press once: fire what the policy decides and report what came out."""

    @abstractmethod
    def eject(self, count: int, *, available: int | None = None) -> PressResult:
        """Fire exactly ``count`` cards, bypassing the policy (a retry after a jam)."""

    @property
    @abstractmethod
    def tension(self) -> int:
        """Empty presses in a row so far."""

    @property
    def description(self) -> str:
        """One line for a status bar: the backend and its policy."""
        return type(self).__name__

    def _close(self) -> None:  # noqa: B027 - a backend without devices has nothing to release
        """Release the backend's devices; called once by :meth:`close`."""

    # -- what a saved game goes on from ---------------------------------------------
    def state(self) -> LauncherState:
        """What the next presses depend on, as JSON values: ``{"presses": n}``, the
        presses made since it was opened, for a launcher whose presses follow one another
        (a seeded policy, a script); ``{}`` for one that remembers nothing (hardware that
        ejects what it is told). A saved game need not keep it: it records every press of
        the match, and gives :meth:`restore` their number."""
        return {}

    def restore(self, state: Mapping[str, int]) -> None:  # noqa: B027 - nothing to restore
        """Go on as after :meth:`state` (``{"presses": n}``: as if opened anew and pressed
        ``n`` times). A launcher that remembers nothing takes any state; one that does
        raises :class:`LauncherError` naming the key and value it cannot take."""

    # -- shared behaviour ---------------------------------------------------------
    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._close()

    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise LauncherError(f"{self.description}: launcher is closed")

    def button_pressed(self) -> None:
        """Record one push of the hardware button (backends call this from their thread)."""
        self._button_presses += 1
        self._button_event.set()
        handler = self.when_button_pressed
        if handler is not None:
            handler()

    @property
    def button_presses(self) -> int:
        return self._button_presses

    def wait_for_button(self, timeout: float | None = None) -> bool:
        """Block until the hardware button is pushed; False on timeout."""
        pressed = self._button_event.wait(timeout)
        self._button_event.clear()
        return pressed

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:  # a forgotten launcher still stops its motor
        with contextlib.suppress(Exception):  # nothing more can be done during collection
            self.close()


class PolicyLauncher(Launcher):
    """A launcher made of a seeded ejection policy and an ejector.

    The simulated, GPIO and serial backends are each one of these, with their own
    ejector: ideal, a GPIO motor and break-beam, or a board over serial. (The scripted
    launcher is not: it fires the counts of a transcript, with no policy.) ``world`` is
    the emulated dispenser behind an emulated one, where a test or the standalone
    daemon can push its button.
    """

    def __init__(self, policy: BurstPolicy, ejector: Ejector, *, name: str,
                 world: DispenserWorld | None = None) -> None:
        super().__init__()
        self.policy = policy
        self.ejector = ejector
        self.name = name
        self.world = world
        self._lock = threading.Lock()

    @property
    def description(self) -> str:
        return f"{self.name} ({self.policy.name} policy)"

    @property
    def tension(self) -> int:
        return self.policy.tension

    def state(self) -> LauncherState:
        return {"presses": self.policy.presses}

    def restore(self, state: Mapping[str, int]) -> None:
        with self._lock:
            try:
                self.policy.replay_to(presses_of(state, self.description))
            except PolicyError as exc:
                raise LauncherError(str(exc)) from None

    def press(self, *, available: int | None = None) -> PressResult:
        self._check_open()
        with self._lock:
            asked = self.policy.next_burst()
            if asked == 0:
                return empty_press(self.policy.tension)
            return self._eject(asked, available)

    def eject(self, count: int, *, available: int | None = None) -> PressResult:
        self._check_open()
        if count < 1:
            raise LauncherError(f"{self.description}: cannot eject {count} cards")
        with self._lock:
            return self._eject(count, available)

    def _eject(self, count: int, available: int | None) -> PressResult:
        result = self.ejector.eject(count, available=available)
        return PressResult(
            fired=result.count, asked=count, status=result.status,
            tension=self.policy.tension, detail=result.detail,
        )

    def stop(self) -> None:
        """Stop an eject in progress, from any thread (a signal handler, a quit key)."""
        self.ejector.stop()

    def _close(self) -> None:
        self.ejector.close()


@dataclass(frozen=True)
class LauncherSettings:
    """What every backend factory is given besides its own argument."""

    seed: int | None = None
    policy: str = DEFAULT_POLICY
    config: object | None = None  # a backend-specific extra (pin map path, options…)

    def make_policy(self, name: str | None = None) -> BurstPolicy:
        try:
            return make_policy(name or self.policy, seed=self.seed,
                               user_tables=user_policy_tables())
        except PolicyError as exc:
            raise LauncherError(str(exc)) from None


LauncherFactory = Callable[[str | None, LauncherSettings], Launcher]


def launcher_backends() -> dict[str, str]:
    """Backend names and the module providing each, from the entry-point group."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


#: Backend factories already loaded, by name: the entry points are read once per process
#: (reading them costs more than a whole simulated round).
_factories: dict[str, LauncherFactory] = {}


def _factory(spec: str, name: str) -> LauncherFactory:
    factory = _factories.get(name)
    if factory is not None:
        return factory
    matches = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not matches:
        known = ", ".join(sorted(launcher_backends()))
        raise LauncherError(f"unknown launcher {spec!r} (backends: {known})")
    try:
        factory = _factories[name] = matches[0].load()
    except ImportError as exc:
        raise LauncherError(f"launcher {spec!r} is not available here: {exc}") from None
    return factory  # type: ignore[no-any-return]  # what an entry point loads is Any


def open_launcher(
    spec: str = DEFAULT_SPEC,
    *,
    seed: int | None = None,
    policy: str = DEFAULT_POLICY,
    config: object | None = None,
) -> Launcher:
    """Open the launcher a spec names: ``sim``, ``sim:gentle``, ``fixed:1``, ``gpio``,
    ``gpio:emulated``, ``serial:/dev/ttyACM0``, ``serial:emulated`` …"""
    name, sep, arg = spec.partition(":")
    factory = _factory(spec, name)
    return factory(arg if sep else None, LauncherSettings(seed=seed, policy=policy, config=config))
