"""``uno-attack launcher run``: the Pi (or any computer with a serial board) as the toy's brain.

Each push of the dispenser's big button picks a burst with the policy and ejects it, on
the GPIO dispenser (with light and sound) or on a ULP/1 board; every press and its outcome
is logged (to stderr, so to the journal under systemd). Ctrl-C and SIGTERM stop it
cleanly: an eject in progress is stopped, the motor is off and every device is closed
before it exits 0.

With an emulated launcher there is no finger on a button, so presses come from stdin (each
line pushes the emulated button) and, with ``--press-every S``, from a timer.
"""

from __future__ import annotations

import argparse
import logging
import queue
import signal
import sys
import threading
from types import FrameType

from sim_launcher.numbers import arg, parse_float, parse_int
from uno_attack.errors import LauncherError
from uno_attack.launcher import PolicyLauncher, open_launcher

log = logging.getLogger("uno-attack.launcher")

_STOP = "stop"
_PRESS = "press"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uno-attack launcher run",
        description="Standalone launcher: each button push fires a burst chosen by the policy.")
    parser.add_argument("--launcher", default="gpio", metavar="SPEC",
                        help="gpio (default), gpio:emulated[,fault=F,scale=X], "
                             "serial:PORT or serial:emulated")
    parser.add_argument("--policy", default="attack", metavar="NAME",
                        help="ejection policy: attack, gentle, brutal, fixed:N, or your own")
    parser.add_argument("--pins", metavar="FILE", help="gpio: pin map (default: see docs)")
    parser.add_argument("--seed", type=arg(parse_int), default=None,
                        help="policy and emulation seed")
    parser.add_argument("--press-every", type=arg(parse_float, low=0, low_open=True,
                                                  high=86400),
                        metavar="S", default=None,
                        help="emulated only: push the button every S seconds")
    parser.add_argument("--presses", type=arg(parse_int, low=1), metavar="N", default=None,
                        help="stop after N presses")
    parser.add_argument("-v", "--verbose", action="store_true", help="log the driver too")
    return parser


class Daemon:
    """The press loop; presses and stop requests arrive on one queue."""

    def __init__(self, launcher: PolicyLauncher, *, presses: int | None = None) -> None:
        self.launcher = launcher
        self.limit = presses
        self.events: queue.Queue[str] = queue.Queue()
        self.stopping = threading.Event()
        self.presses = 0
        launcher.when_button_pressed = lambda: self.events.put(_PRESS)

    def request_stop(self, reason: str) -> None:
        """Stop soon (from a signal handler or another thread): ends an eject too."""
        if not self.stopping.is_set():
            log.info("stopping: %s", reason)
        self.stopping.set()
        self.launcher.stop()
        self.events.put(_STOP)

    def run(self) -> None:
        log.info("ready: %s; push the button", self.launcher.description)
        while not self.stopping.is_set():
            event = self.events.get()
            if event == _STOP or self.stopping.is_set():
                break
            self.press()
            if self.limit is not None and self.presses >= self.limit:
                log.info("stopping: %d presses done", self.presses)
                break

    def press(self) -> None:
        self.presses += 1
        result = self.launcher.press()
        if result.asked == 0:
            log.info("press %d: nothing fired (tension %d)", self.presses, result.tension)
        else:
            detail = f": {result.detail}" if result.detail else ""
            log.info("press %d: fired %d of %d (%s)%s", self.presses, result.fired,
                     result.asked, result.status, detail)


def _feed_presses(launcher: PolicyLauncher, daemon: Daemon, every: float | None) -> None:
    """Emulated presses: a line on stdin, or a timer, pushes the emulated button."""
    world = launcher.world
    assert world is not None

    def from_stdin() -> None:
        for _line in sys.stdin:
            if daemon.stopping.is_set():
                return
            world.push_button()

    def from_timer(interval: float) -> None:
        while not daemon.stopping.wait(interval):
            world.push_button()

    threading.Thread(target=from_stdin, name="stdin-presses", daemon=True).start()
    if every is not None:
        threading.Thread(target=from_timer, args=(every,), name="timer-presses",
                         daemon=True).start()


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    if not args.verbose:
        logging.getLogger("wiring").setLevel(logging.WARNING)
    if args.pins is not None and not args.launcher.startswith("gpio"):
        raise LauncherError(f"--pins {args.pins}: a pin map is for a gpio launcher, not "
                            f"{args.launcher!r}")
    launcher = open_launcher(args.launcher, seed=args.seed, policy=args.policy,
                             config=args.pins)
    try:
        if not (isinstance(launcher, PolicyLauncher) and launcher.has_button):
            raise LauncherError(f"{args.launcher!r} has no dispenser button: launcher run "
                                "drives gpio, gpio:emulated, serial:PORT or serial:emulated")
        if args.press_every is not None and launcher.world is None:
            raise LauncherError(f"--press-every {args.press_every:g}: needs an emulated "
                                "launcher (gpio:emulated, serial:emulated); a board emulated "
                                "elsewhere presses its own button (firmware emulate "
                                "--press-every)")
        daemon = Daemon(launcher, presses=args.presses)

        def on_signal(signum: int, frame: FrameType | None) -> None:
            # Only start a thread here: the main thread may hold a lock the work needs.
            threading.Thread(target=daemon.request_stop, args=(signal.Signals(signum).name,),
                             name="stop").start()

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT,
                                                                   signal.SIGTERM)}
        try:
            if launcher.world is not None:
                _feed_presses(launcher, daemon, args.press_every)
            daemon.run()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
    finally:
        launcher.close()
        log.info("stopped: motor off, pins released (%s)",
                 "closed" if launcher.closed else "NOT closed")
    return 0
