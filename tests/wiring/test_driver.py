"""The real GPIO driver against the emulated hardware: counts, stops, safety, button."""

from __future__ import annotations

import itertools
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_mock import MockerFixture

from uno_attack.launcher import EjectStatus
from wiring.backend import GpioLauncher

from .conftest import SCALE, OpenEmulated


def motor_on_spans(launcher: GpioLauncher) -> list[float]:
    """Real seconds of each run of the motor, from the PWM pin's recorded states.

    A mock pin's ``states`` are (seconds since the previous change, state): the time a
    state lasted is the next entry's timestamp. Forward and reverse both count as on.
    """
    assert launcher.emulation is not None
    states = launcher.emulation.pins["motor_pwm"].states
    assert states[-1].state == 0, "the motor is still on"
    spans: list[float] = []
    on_for = None
    for before, after in itertools.pairwise(states):
        if before.state > 0:
            on_for = (on_for or 0.0) + after.timestamp
        if after.state == 0 and on_for is not None:
            spans.append(on_for)
            on_for = None
    return spans


def eject_span(launcher: GpioLauncher) -> float:
    """Real seconds from the first motor start to the last stop (reverse pulses included)."""
    assert launcher.emulation is not None
    states = launcher.emulation.pins["motor_pwm"].states
    times = list(itertools.accumulate(s.timestamp for s in states))
    on = [t for t, s in zip(times, states, strict=True) if s.state > 0]
    off = [t for t, s in zip(times, states, strict=True) if s.state == 0 and t > on[0]]
    return off[-1] - on[0]


class TestCounting:
    def test_every_burst_from_1_to_12_counts_exactly(self,
                                                     open_emulated_launcher: OpenEmulated
                                                     ) -> None:
        launcher = open_emulated_launcher()
        model = launcher.emulation.world.model  # type: ignore[union-attr]
        for k in range(1, 13):
            before = model.cards_out
            result = launcher.eject(k)
            assert result.status is EjectStatus.OK
            assert result.fired == k
            assert model.cards_out - before == k
        assert model.duty == 0

    @given(seed=st.integers(0, 10_000),
           bursts=st.lists(st.integers(1, 12), min_size=1, max_size=4),
           jams=st.sampled_from([0.0, 0.1, 0.3]), hopper=st.integers(0, 30),
           fault=st.sampled_from([(), ("jam",), ("beam-stuck",), ("motor-dead",)]))
    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    def test_reported_count_is_what_left_the_hopper(
            self, open_emulated_launcher: OpenEmulated, seed: int, bursts: list[int],
            jams: float, hopper: int, fault: tuple[str, ...]) -> None:
        launcher = open_emulated_launcher(seed=seed, jams=jams, scale=40,
                                          timing={"max_ms": 1500.0, "jam_ms": 400.0},
                                          faults=fault)
        hardware = launcher.emulation
        assert hardware is not None
        hardware.world.fill(hopper)  # the hopper holds what the test gave it
        for k in bursts:
            before = hardware.world.model.cards_out
            result = launcher.eject(k)
            out = hardware.world.model.cards_out - before
            if fault == ("beam-stuck",):
                assert result.fired == 0  # the beam saw nothing, whatever left
            else:
                assert result.fired == out, result
            assert result.fired <= k
            assert hardware.world.model.duty == 0


class TestStops:
    def test_jam_stops_with_reason_and_true_count(self,
                                                  open_emulated_launcher: OpenEmulated
                                                  ) -> None:
        launcher = open_emulated_launcher()
        hardware = launcher.emulation
        assert hardware is not None
        assert launcher.eject(2).fired == 2
        hardware.world.inject("jam")
        result = launcher.eject(3)
        assert result.status is EjectStatus.JAM
        assert result.fired == 0
        assert "jammed or empty" in result.detail
        assert hardware.world.model.duty == 0
        assert hardware.world.model.cards_out == 2
        # it tried one reverse pulse first: IN2 went high during the eject
        assert any(s.state for s in hardware.pins["motor_in2"].states)

    def test_reverse_pulse_frees_an_ordinary_jam(self,
                                                 open_emulated_launcher: OpenEmulated
                                                 ) -> None:
        launcher = open_emulated_launcher()
        hardware = launcher.emulation
        assert hardware is not None
        hardware.world.call(hardware.world.model.force_jam)
        result = launcher.eject(3)
        assert result.status is EjectStatus.OK
        assert result.fired == 3
        assert any(s.state for s in hardware.pins["motor_in2"].states)

    def test_empty_hopper_stops_with_sensor_reason(self,
                                                   open_emulated_launcher: OpenEmulated
                                                   ) -> None:
        launcher = open_emulated_launcher()
        hardware = launcher.emulation
        assert hardware is not None
        result = launcher.eject(5, available=3)  # the game says 3 cards are inside
        assert result.status is EjectStatus.EMPTY
        assert result.fired == 3
        assert hardware.world.model.cards_out == 3
        assert hardware.world.model.duty == 0
        again = launcher.eject(1, available=0)
        assert (again.status, again.fired) == (EjectStatus.EMPTY, 0)

    def test_max_ms_stops_a_slow_eject(self, open_emulated_launcher: OpenEmulated) -> None:
        launcher = open_emulated_launcher(scale=2, timing={"max_ms": 500.0, "jam_ms": 400.0})
        hardware = launcher.emulation
        assert hardware is not None
        result = launcher.eject(12)
        assert result.status is EjectStatus.TIMEOUT
        assert "max_ms" in result.detail
        assert 1 <= result.fired < 12
        assert result.fired == hardware.world.model.cards_out


class TestSafety:
    # the motor's stop is the eject loop waking at its deadline: allow that much late
    LATE_S = 0.03

    def test_motor_never_on_longer_than_max_ms(self,
                                               open_emulated_launcher: OpenEmulated) -> None:
        launcher = open_emulated_launcher(scale=2, timing={"max_ms": 500.0, "jam_ms": 100.0},
                                          motor={"reverse_tries": 20})
        hardware = launcher.emulation
        assert hardware is not None
        max_s = 500.0 / 1000 / 2
        hardware.world.inject("jam")      # forward, reverse, forward … until max_ms
        hardware.pins["motor_pwm"].clear_states()
        result = launcher.eject(4)
        assert result.status is EjectStatus.TIMEOUT
        assert len(motor_on_spans(launcher)) >= 3   # several pulses …
        assert eject_span(launcher) <= max_s + self.LATE_S  # … all within max_ms
        hardware.pins["motor_pwm"].clear_states()
        launcher.eject(12)                           # and a plain long eject
        assert max(motor_on_spans(launcher)) <= max_s + self.LATE_S

    def test_watchdog_stops_the_motor_when_the_eject_loop_hangs(
            self, open_emulated_launcher: OpenEmulated, mocker: MockerFixture) -> None:
        launcher = open_emulated_launcher(scale=2, timing={"max_ms": 400.0, "jam_ms": 300.0})
        hardware = launcher.emulation
        assert hardware is not None
        hardware.world.inject("jam")  # no card will ever end the eject
        max_s = 400.0 / 1000 / 2
        hung = threading.Event()

        def hang_mid_eject() -> bool:
            if hardware.world.model.duty != 0:      # the motor runs: now the loop stalls
                hung.wait(3 * max_s)
            return False

        mocker.patch.object(launcher.gpio, "_hopper_says_empty", side_effect=hang_mid_eject)
        hardware.pins["motor_pwm"].clear_states()
        launcher.eject(3)
        assert max(motor_on_spans(launcher)) <= max_s + self.LATE_S
        assert hardware.world.model.duty == 0

    def test_motor_off_after_an_exception_inside_eject(
            self, open_emulated_launcher: OpenEmulated, mocker: MockerFixture) -> None:
        launcher = open_emulated_launcher()
        hardware = launcher.emulation
        assert hardware is not None
        # the first check (before the motor starts) passes; the next, mid-eject, fails
        mocker.patch.object(launcher.gpio, "_hopper_says_empty",
                            side_effect=[False, RuntimeError("sensor exploded")])
        with pytest.raises(RuntimeError, match="sensor exploded"):
            launcher.eject(5)
        states = [s.state for s in hardware.pins["motor_pwm"].states]
        assert max(states) > 0       # it did run …
        assert states[-1] == 0       # … and is off now
        assert hardware.world.model.duty == 0

    def test_close_is_idempotent_and_stops_the_motor(self,
                                                     open_emulated_launcher: OpenEmulated
                                                     ) -> None:
        launcher = open_emulated_launcher()
        hardware = launcher.emulation
        assert hardware is not None
        launcher.devices.motor.forward(1.0)  # type: ignore[union-attr]
        launcher.close()
        launcher.close()
        assert launcher.closed
        assert launcher.devices.motor.closed  # type: ignore[union-attr]
        assert launcher.devices.beam.closed   # type: ignore[union-attr]
        assert hardware.pins["motor_pwm"].state == 0
        assert hardware.world.model.duty == 0
        with pytest.raises(ValueError, match="closed"):
            launcher.press()

    def test_stop_from_another_thread_ends_an_eject(self,
                                                    open_emulated_launcher: OpenEmulated
                                                    ) -> None:
        launcher = open_emulated_launcher(scale=2)
        hardware = launcher.emulation
        assert hardware is not None
        hardware.world.post(launcher.gpio.stop, delay_ms=300)   # 300 ms of model time in
        result = launcher.eject(12)
        assert result.status is EjectStatus.STOPPED
        assert result.fired == hardware.world.model.cards_out
        assert hardware.world.model.duty == 0


class TestButton:
    @pytest.mark.parametrize("faults", [(), ("bouncy-button",)])
    def test_one_press_per_push(self, open_emulated_launcher: OpenEmulated,
                                faults: tuple[str, ...]) -> None:
        # near real time: the debouncer's clock is the callback's, so a machine too busy to
        # run callbacks promptly must not squeeze the finger's rest below the debounce time
        launcher = open_emulated_launcher(faults=faults, scale=2)
        hardware = launcher.emulation
        assert hardware is not None
        hardware.pins["button"].clear_states()
        for _ in range(5):
            hardware.world.push_button()
        assert hardware.world.wait_idle(5)
        assert launcher.button_presses == 5
        edges = len(hardware.pins["button"].states) - 1
        assert edges == (5 * 2 * 9 if faults else 5 * 2)  # the bounces really happened

    def test_dead_button_gives_no_press(self, open_emulated_launcher: OpenEmulated) -> None:
        launcher = open_emulated_launcher(faults=("button-dead",))
        hardware = launcher.emulation
        assert hardware is not None
        hardware.world.push_button()
        assert not launcher.wait_for_button(10 / SCALE)
        assert launcher.button_presses == 0

    def test_press_event_reaches_the_handler(self,
                                             open_emulated_launcher: OpenEmulated) -> None:
        launcher = open_emulated_launcher()
        hardware = launcher.emulation
        assert hardware is not None
        seen: list[int] = []
        launcher.when_button_pressed = lambda: seen.append(launcher.button_presses)
        hardware.world.push_button()
        assert launcher.wait_for_button(5)
        assert seen == [1]


class TestFeedback:
    def test_led_blinks_with_tension_and_is_off_after_a_fire(
            self, open_emulated_launcher: OpenEmulated) -> None:
        launcher = open_emulated_launcher(policy="attack", seed=3)
        hardware = launcher.emulation
        assert hardware is not None
        results = [launcher.press() for _ in range(8)]
        assert any(r.asked == 0 for r in results)
        assert any(r.asked > 0 for r in results)
        led_states = [s.state for s in hardware.pins["led"].states]
        assert 1 in led_states   # it lit up
        if results[-1].asked > 0:
            assert hardware.pins["led"].state == 0
