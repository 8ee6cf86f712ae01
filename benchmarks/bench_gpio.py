"""GPIO launcher latencies on the emulated pins (gpiozero MockFactory + physical model).

Two figures of the real driver, timed from the mock pins' own change times:
button edge → motor start (through the standalone daemon's press loop: debounce, event,
policy, eject), and last card clearing the beam → motor stop (the closed loop's beam
callback). Emulation runs the world 20× faster than real time; the latencies are real.
"""

from __future__ import annotations

import statistics
import threading

from benchmarks import Row
from sim_launcher.policies import make_policy
from wiring.backend import GpioSpec, open_gpio
from wiring.daemon import Daemon
from wiring.pinmap import PinMap

PRESSES = 200


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


def _fmt(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"{statistics.median(ms):.3f} / {_pct(ms, 0.99):.3f} ms"


class _PacedDaemon(Daemon):
    """The daemon's press loop, telling the benchmark when each press is done."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.done = threading.Event()

    def press(self) -> None:
        super().press()
        self.done.set()


def measure(presses: int = PRESSES, *, time_scale: float = 20.0
            ) -> tuple[list[float], list[float]]:
    """(button edge → motor start, last card → motor stop) in real seconds, per press."""
    spec = GpioSpec(emulated=True, time_scale=time_scale, jam_probability=0.0)
    launcher = open_gpio(spec, PinMap.default(), make_policy("fixed:1", seed=1), seed=1)
    hardware = launcher.emulation
    assert hardware is not None
    daemon = _PacedDaemon(launcher, presses=presses)
    runner = threading.Thread(target=daemon.run)
    runner.start()
    try:
        for _ in range(presses):  # one push at a time, as a player would: no queueing
            hardware.world.push_button(hold_ms=40)
            if not daemon.done.wait(10):
                raise RuntimeError("the emulated launcher did not answer a push")
            daemon.done.clear()
        runner.join(120)
    finally:
        launcher.close()
    pushes = [t for t, s in hardware.pins["button"].events if s == 0]
    starts = [t for t, s in hardware.pins["motor_pwm"].events if s > 0]
    stops = [t for t, s in hardware.pins["motor_pwm"].events if s == 0]
    clears = [t for t, s in hardware.pins["beam"].events if s == 1]
    to_start = [min(s for s in starts if s >= p) - p for p in pushes if any(s >= p
                                                                           for s in starts)]
    to_stop = [stop - max(c for c in clears if c <= stop) for stop in stops
               if any(c <= stop for c in clears)]
    return to_start, to_stop


def run() -> list[Row]:
    to_start, to_stop = measure()
    return [
        Row("gpio: button edge → motor start", _fmt(to_start),
            f"median / p99 over {len(to_start)} presses, emulated pins, via the daemon loop"),
        Row("gpio: last card out → motor stop", _fmt(to_stop),
            f"median / p99 over {len(to_stop)} ejects, beam callback stops the motor"),
    ]
