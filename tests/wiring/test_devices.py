"""The dispenser's gpiozero devices on MockFactory pins: a device like gpiozero's own."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from wiring.devices import DispenserDevices
from wiring.pinmap import PinMap


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory(pin_class=MockPWMPin)
    yield mock
    mock.reset()


def test_with_closes_everything_and_close_twice_is_harmless(factory: MockFactory) -> None:
    with DispenserDevices(PinMap.default(), pin_factory=factory) as devices:
        assert not devices.closed
        devices.motor.forward(0.7)  # type: ignore[union-attr]
        assert factory.pin(18).state == pytest.approx(0.7)
    assert devices.closed
    assert devices.motor.closed      # type: ignore[union-attr]
    assert devices.beam.closed       # type: ignore[union-attr]
    assert devices.led.closed        # type: ignore[union-attr]
    assert factory.pin(18).state == 0  # the motor was stopped before its pins were let go
    devices.close()
    assert devices.closed


def test_an_error_inside_with_still_closes(factory: MockFactory) -> None:
    opened: list[DispenserDevices] = []

    def run_and_fail() -> None:
        with DispenserDevices(PinMap.default(), pin_factory=factory) as devices:
            opened.append(devices)
            devices.motor.backward(1.0)  # type: ignore[union-attr]
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run_and_fail()
    assert opened[0].closed
    assert factory.pin(18).state == 0


@pytest.mark.parametrize("speed", [1.5, -0.1, math.nan, math.inf])
def test_speed_outside_0_to_1_is_refused_and_moves_nothing(factory: MockFactory,
                                                           speed: float) -> None:
    with DispenserDevices(PinMap.default(), pin_factory=factory) as devices:
        motor = devices.motor
        assert motor is not None
        with pytest.raises(ValueError, match="forward speed must be between 0 and 1"):
            motor.forward(speed)
        with pytest.raises(ValueError, match="backward speed must be between 0 and 1"):
            motor.backward(speed)
        assert motor.value == 0
        assert factory.pin(18).state == 0
