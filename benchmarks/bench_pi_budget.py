"""The Pi's budget: what a Raspberry Pi runs, measured under a CPU quota that stands in for
a slower board.

Each measured program runs as a child moved into a cgroup of the kernel's CPU controller
(cgroup v1 ``cpu``, made here and removed after) with a 10 ms period, short enough that the
quota slows the program rather than freezing it for long stretches. The quota of one core
per board comes from published single-core figures (sysbench 1.0.20 ``cpu --threads=1``,
events/s, leoncode.co.uk's Raspberry Pi benchmarks: Pi 5 2737, Pi 4 1478, Pi 3 B+ 687; the
Zero 2 W has the Pi 3 B+'s Cortex-A53 at 1.0 GHz instead of 1.4: 687 × 1.0 / 1.4 = 491),
anchored at a Zero 2 W = 10 % of one core of this machine (sysbench cannot compare an x86
core with an ARM one: it rates this machine's core between a Pi 4 and a Pi 5, while Python
runs several times faster here), so a Pi 4 is 10 % × 1478 / 491 = 30 %, a Pi 5 56 %.

Reported at each level: the motor's overrun past ``max_ms`` under faults (the worst of
many ejects), button edge → motor on, a hosted table's act → view with 4 phones, smart
bots and 100 watchers, the terminal game's key → screen, and the smart bot's move time
against its cap. Without the controller the rows say so and nothing is measured.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks import Row

CPU_CONTROLLER = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 10_000
ZERO_2W_SHARE = 0.10
SYSBENCH = {"Pi 5": 2737.0, "Pi 4": 1478.0, "Zero 2 W": 687.0 * 1.0 / 1.4}
LEVELS = {board: ZERO_2W_SHARE * score / SYSBENCH["Zero 2 W"]
          for board, score in SYSBENCH.items()}
GOALS = {"overrun": 20.0, "button p99": 30.0, "act p99": 200.0, "key p99": 150.0}
PHONES, WATCHERS, SEATS = 4, 100, 6
KEY_QUIET = 1.0  # seconds without output before a key is sent


class Quota:
    """A cgroup of the CPU controller allowing ``share`` of one core."""

    def __init__(self, share: float) -> None:
        self.share = share
        self.path = CPU_CONTROLLER / f"uno-attack-bench-{os.getpid()}-{round(share * 100)}"

    def __enter__(self) -> Quota:
        self.path.mkdir()
        (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (self.path / "cpu.cfs_quota_us").write_text(str(round(self.share * PERIOD_US)))
        return self

    def __exit__(self, *_: object) -> None:
        for pid in (self.path / "cgroup.procs").read_text().split():  # left behind: back up
            (CPU_CONTROLLER / "cgroup.procs").write_text(pid)
        self.path.rmdir()

    def enter(self) -> None:
        """In a child between fork and exec: join the cgroup (and so the measured program)."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def throttled_ms(self) -> float:
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines())
        return int(stat.get("throttled_time", 0)) / 1e6


def controller_missing() -> str | None:
    """Why no quota can be set here, or ``None``."""
    if not (CPU_CONTROLLER / "cpu.cfs_quota_us").exists():
        return f"no cgroup v1 CPU controller at {CPU_CONTROLLER}"
    if not os.access(CPU_CONTROLLER, os.W_OK):
        return f"{CPU_CONTROLLER} is not writable here (the bench needs root)"
    return None


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} / {_pct(values, 0.99):.1f} ms"


# -- what runs in the quota'd child: ``python -m benchmarks.bench_pi_budget WHAT`` -------


def _gpio_child() -> dict[str, list[float]]:
    """Motor overrun past max_ms under faults, and button edge → motor on, in real time."""
    import dataclasses

    from benchmarks.bench_gpio import measure
    from sim_launcher.policies import make_policy
    from wiring.backend import GpioSpec, open_gpio
    from wiring.pinmap import PinMap

    max_ms = 300.0
    base = PinMap.default()
    pin_map = dataclasses.replace(
        base, timing=dataclasses.replace(base.timing, max_ms=max_ms, jam_ms=max_ms),
        motor=dataclasses.replace(base.motor, reverse_ms=0))
    overruns = []
    for fault in ("motor-dead", "jam", "beam-stuck"):
        spec = GpioSpec(emulated=True, faults=[fault], time_scale=1.0, jam_probability=0.0)
        launcher = open_gpio(spec, pin_map, make_policy("fixed:3", seed=1), seed=1)
        hardware = launcher.emulation
        assert hardware is not None
        try:
            for _ in range(8):
                launcher.gpio.eject(3)
        finally:
            launcher.close()
        events = list(hardware.pins["motor_pwm"].events)
        starts = [t for t, s in events if s > 0]
        stops = [t for t, s in events if s == 0]
        for start in starts:
            stop = min((t for t in stops if t > start), default=None)
            if stop is not None:
                overruns.append((stop - start) * 1000 - max_ms)
    to_start, _ = measure(30, time_scale=1.0)
    return {"overrun": overruns, "button": [t * 1000 for t in to_start]}


def _bots_child() -> dict[str, list[float]]:
    from benchmarks.bench_bots import move_times

    return {"smart": [t * 1000 for t in move_times("attack", rounds=1)["smart"]]}


CHILDREN: dict[str, Callable[[], dict[str, list[float]]]] = {
    "gpio": _gpio_child, "bots": _bots_child}


def _run_child(quota: Quota, what: str) -> dict[str, list[float]]:
    run = subprocess.run([sys.executable, "-m", "benchmarks.bench_pi_budget", what],
                         capture_output=True, text=True, timeout=900, check=True,
                         preexec_fn=quota.enter)
    result: dict[str, list[float]] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


# -- the hosted table: the host is quota'd, the phones and watchers are not --------------


@contextmanager
def _host(quota: Quota, tmp: str) -> Iterator[list[str]]:
    names = ",".join(f"P{i}" for i in range(PHONES))
    proc = subprocess.Popen(
        [sys.executable, "-m", "uno_attack", "host", "--port", "0", "--humans", names,
         "--players", str(SEATS), "--bots", "smart", "--bot-delay", "0", "--round-pause",
         "0", "--seed", "1", "--option", "target=100000", "--no-qr", "--no-record",
         "--save", str(Path(tmp) / "host.json")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        text=True, preexec_fn=quota.enter)
    try:
        urls: list[str] = []
        while True:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            match = re.match(r"(join .+|watch): (\S+)$", line.strip())
            if match:
                urls.append(match[2])
            if line.startswith("watch:") or not line:
                break
        yield urls
    finally:
        proc.terminate()
        proc.wait(30)


def _table(quota: Quota) -> list[float]:
    from benchmarks.bench_host import drive

    with tempfile.TemporaryDirectory() as tmp, _host(quota, tmp) as urls:
        result = asyncio.run(drive(urls[:-1], urls[-1], watchers=WATCHERS, rounds=1))
    return [t * 1000 for t in result.latencies]


def _keys(quota: Quota) -> list[float]:
    from benchmarks import bench_tui

    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home, XDG_STATE_HOME=home, TERM="xterm-256color")
        game = bench_tui._Pty(["--quick", "--seed", "3", "--bot-delay", "0",
                               "--no-animation", "--no-record"], env, preexec=quota.enter)
        keys: list[float] = []
        try:
            game.until(b"Your hand", timeout=120)
            # each key from a still screen: not the bots' first moves, nor the end of
            # the last key's redraw (at a tenth of a core a redraw pauses for longer
            # than the 50 ms a fast core's bench waits)
            game.drain(KEY_QUIET)
            for _ in range(5):
                keys.append(game.key("?", b"Close (Esc)", timeout=30, quiet=KEY_QUIET))
                keys.append(game.key("?", b"Your hand", timeout=30, quiet=KEY_QUIET))
                keys.append(game.key("\x1b[C", "▶".encode(), timeout=30, quiet=KEY_QUIET))
                keys.append(game.key("\x1b[D", "▶".encode(), timeout=30, quiet=KEY_QUIET))
        finally:
            game.close()
    return [t * 1000 for t in keys]


def _verdict(value: float, goal: str) -> str:
    return "ok" if value <= GOALS[goal] else f"MISSES ≤ {GOALS[goal]:g} ms"


def _level(board: str, share: float) -> list[Row]:
    from uno_attack.bots import DEFAULT_BUDGET_MS

    label = f"Pi budget, {board} ({share:.0%} of a core)"
    with Quota(share) as quota:
        gpio = _run_child(quota, "gpio")
        table = _table(quota)
        keys = _keys(quota)
        smart = _run_child(quota, "bots")["smart"]
        throttled = quota.throttled_ms()
    worst = max(gpio["overrun"])
    rows = [
        Row(f"{label}: motor overrun past max_ms", f"{worst:.1f} ms",
            f"worst of {len(gpio['overrun'])} ejects (motor-dead, jam, beam-stuck; max_ms "
            f"300); {_verdict(worst, 'overrun')}"),
        Row(f"{label}: button edge → motor on", _spread(gpio["button"]),
            f"p50 / p99 of {len(gpio['button'])} pushes; "
            f"{_verdict(_pct(gpio['button'], 0.99), 'button p99')}"),
        Row(f"{label}: act → view, smart bots", _spread(table),
            f"p50 / p99 of {len(table)} acts; {PHONES} phones, {SEATS - PHONES} smart bots, "
            f"{WATCHERS} watchers (the host quota'd, not the clients); "
            f"{_verdict(_pct(table, 0.99), 'act p99')}"),
        Row(f"{label}: play key → screen", _spread(keys),
            f"p50 / p99 of {len(keys)} keys in a pty; {_verdict(_pct(keys, 0.99), 'key p99')}"),
        Row(f"{label}: smart move (cap {DEFAULT_BUDGET_MS:.0f} ms)",
            f"{statistics.median(smart):.0f} / {max(smart):.0f} ms",
            f"median / longest of {len(smart)} moves, 2p Attack; throttled "
            f"{throttled / 1000:.1f} s in all"),
    ]
    return rows


def run() -> list[Row]:
    missing = controller_missing()
    if missing is not None:
        return [Row("Pi budget", "not measured", missing)]
    rows = []
    for board in ("Pi 5", "Pi 4", "Zero 2 W"):
        rows += _level(board, LEVELS[board])
    return rows


def main(what: str) -> None:
    result: dict[str, Any] = CHILDREN[what]()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
