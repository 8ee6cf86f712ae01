"""The ``serial`` launcher backend: ``serial:PORT`` (any pyserial URL) or ``serial:emulated``.

A :class:`SerialLauncher` is the project's usual policy launcher whose ejector is a board
speaking ULP/1; the board's button presses arrive as the launcher's button events.
``serial:emulated`` starts an :class:`~firmware_bridge.emulator.EmulatedBoard` in this
process, behind a real pty, and closes it with the launcher.

``LauncherSettings.config`` may be a mapping of options for the emulated board and the
link: ``time_scale``, ``wire`` (a :class:`~firmware_bridge.faults.LinkFaults`), ``faults``
(names of the world's faults), ``params`` (a ``DispenserParams``), ``refill``,
``micropython`` (true: the emulated Pico, :class:`~firmware_bridge.pico_emulator.PicoBoard`),
``retry_s``, ``ping_s``, ``poll_s``, ``first_id``.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_bridge.firmware import dispenser
from firmware_bridge.host import UlpLink
from sim_launcher.policies import BurstPolicy
from uno_attack.errors import LauncherError
from uno_attack.launcher import (
    EjectResult,
    EjectStatus,
    LauncherNotResponding,
    LauncherSettings,
    PolicyLauncher,
)

if TYPE_CHECKING:  # a real port never loads the emulator
    from firmware_bridge.emulator import EmulatedBoard

log = logging.getLogger(__name__)

SPEC_HELP = "serial:/dev/ttyACM0, serial:socket://HOST:PORT or serial:emulated"


class SerialEjector:
    """Ejects through a board over ULP/1; counts are what the board's beam saw."""

    def __init__(self, link: UlpLink) -> None:
        self.link = link
        self.history: list[tuple[int, EjectResult]] = []   # (asked, result), for tests
        self._ejecting = False
        self._stop_asked = False   # a stop came during this eject: no further EJECT goes out

    def eject(self, count: int, *, available: int | None = None) -> EjectResult:
        """Fire ``count`` cards (``available`` is ignored: the hopper is real)."""
        if self.link.gone:
            self.link.hello()  # raises LauncherNotResponding if it really is gone
        info = self.link.info
        most = info.cards if info else dispenser.CARDS
        longest = info.max_ms if info else dispenser.MAX_MS
        total = 0
        result = EjectResult(0)
        left = count
        self._stop_asked = False
        self._ejecting = True
        try:
            while left > 0:
                chunk = min(left, most)
                log.debug("asking the board to eject %d card(s)", chunk)
                ejected, status, detail = self.link.eject(
                    chunk, min(longest, dispenser.EJECT_MS), cancelled=lambda: self._stop_asked)
                total += ejected
                result = EjectResult(total, EjectStatus(status), detail)
                left -= chunk
                if result.status is not EjectStatus.OK or ejected != chunk:
                    break
        finally:
            self._ejecting = False
        self.history.append((count, result))
        return result

    def stop(self) -> None:
        """Stop an eject in progress: ``STOP`` (the eject then ends ``DONE … stopped``),
        also one whose EJECT is still on its way out (it is then never sent)."""

        def mark() -> None:
            self._stop_asked = self._ejecting

        with contextlib.suppress(LauncherError):
            self.link.stop(cancel=mark)

    def close(self) -> None:
        self.link.close()


class SerialLauncher(PolicyLauncher):
    """A launcher whose ejector is a ULP/1 board; owns an in-process emulator if any."""

    has_button = True

    def __init__(self, policy: BurstPolicy, link: UlpLink, *,
                 emulator: EmulatedBoard | None = None, tempdir: Path | None = None) -> None:
        super().__init__(policy, SerialEjector(link), name=f"serial launcher on {link.port}",
                         world=emulator.world if emulator is not None else None)
        self.link = link
        self.emulator = emulator
        self._tempdir = tempdir
        link.on_press = self._presses

    def _presses(self, n: int) -> None:
        for _ in range(n):
            self.button_pressed()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            if self.emulator is not None:
                self.emulator.close()
            if self._tempdir is not None:
                shutil.rmtree(self._tempdir, ignore_errors=True)


def from_spec(arg: str | None, settings: LauncherSettings) -> SerialLauncher:
    """Open the board a spec names; an unusable port is one clean :class:`LauncherError`."""
    if not arg:
        raise LauncherError(f"the serial launcher needs a port: {SPEC_HELP}")
    options: Mapping[str, Any] = settings.config if isinstance(settings.config, Mapping) else {}
    policy = settings.make_policy()
    emulator = None
    tempdir: Path | None = None
    port = arg
    if arg == "emulated":
        from firmware_bridge.emulator import EmulatedBoard
        from firmware_bridge.pico_emulator import PicoBoard

        tempdir = Path(tempfile.mkdtemp(prefix="uno-attack-board-"))
        kind = PicoBoard if options.get("micropython") else EmulatedBoard
        emulator = kind(
            link=tempdir / "board", seed=settings.seed,
            time_scale=float(options.get("time_scale", 1.0)),
            wire=options.get("wire"), params=options.get("params"),
            faults=options.get("faults", ()), refill=bool(options.get("refill", True)),
        ).start()
        port = emulator.port
    # The unpacked keys are the float timings only, which mypy cannot tell from the dict.
    link = UlpLink(port, **{k: float(options[k]) for k in ("retry_s", "ping_s", "poll_s")  # type: ignore[arg-type]
                        if k in options}, first_id=int(options.get("first_id", 1)))
    try:
        link.open()
    except BaseException:
        link.close()
        if emulator is not None:
            emulator.close()
        if tempdir is not None:
            shutil.rmtree(tempdir, ignore_errors=True)
        raise
    return SerialLauncher(policy, link, emulator=emulator, tempdir=tempdir)


__all__ = ["LauncherNotResponding", "SerialEjector", "SerialLauncher", "from_spec"]
