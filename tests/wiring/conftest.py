"""Fixtures for the GPIO launcher tests: pin maps and emulated launchers that always close."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import pytest

from sim_launcher.physical import DispenserParams
from sim_launcher.policies import make_policy
from wiring.backend import GpioLauncher, GpioSpec, open_gpio
from wiring.pinmap import PinMap, Timing

#: The emulated world in these tests runs this much faster than real time.
SCALE = 20.0

OpenEmulated = Callable[..., GpioLauncher]


@pytest.fixture
def open_emulated_launcher() -> Iterator[OpenEmulated]:
    """Open emulated GPIO launchers (closed again after the test, whatever happens)."""
    opened: list[GpioLauncher] = []

    def open_(*, faults: tuple[str, ...] = (), scale: float = SCALE, seed: int = 1,
              jams: float = 0.0, timing: dict[str, float] | None = None,
              motor: dict[str, float] | None = None, policy: str = "fixed:1",
              hopper: int = 112) -> GpioLauncher:
        pin_map = PinMap.default()
        if timing:
            pin_map = dataclasses.replace(pin_map,
                                          timing=dataclasses.replace(pin_map.timing, **timing))
        if motor:
            pin_map = dataclasses.replace(pin_map,
                                          motor=dataclasses.replace(pin_map.motor, **motor))
        spec = GpioSpec(emulated=True, faults=list(faults), time_scale=scale,
                        jam_probability=jams)
        launcher = open_gpio(spec, pin_map, make_policy(policy, seed=seed), seed=seed)
        assert launcher.emulation is not None
        if hopper != 112:
            launcher.emulation.world.fill(hopper, reload=True)
        opened.append(launcher)
        return launcher

    yield open_
    for launcher in opened:
        launcher.close()


__all__ = ["SCALE", "DispenserParams", "OpenEmulated", "Timing"]
