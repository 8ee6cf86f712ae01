"""The real GPIO driver against the emulated hardware: counts, stops, safety, button."""

from __future__ import annotations

import itertools
import statistics
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_mock import MockerFixture

from sim_launcher.policies import BurstPolicy, PolicyTable
from sim_launcher.world import Indicator
from uno_attack.launcher import EjectStatus
from wiring.backend import GpioLauncher
from wiring.driver import LoopClock

from .conftest import SCALE, OpenEmulated


def motor_on_spans(launcher: GpioLauncher) -> list[float]:
    """Model ms of each run of the motor (forward or reverse), from the world's record."""
    assert launcher.world is not None
    changes = list(launcher.world.motor_changes)
    assert changes
    assert changes[-1][1] == 0, "the motor is still on"
    return [off - on for (on, duty), (off, _) in itertools.pairwise(changes) if duty]


def eject_span(launcher: GpioLauncher) -> float:
    """Model ms from the first motor start to the last stop (reverse pulses included)."""
    assert launcher.world is not None
    changes = list(launcher.world.motor_changes)
    return changes[-1][0] - next(at for at, duty in changes if duty)


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
    # The world's time runs only while the eject loop waits, so these hold exactly, in
    # model time, however late the machine runs the loop's thread.
    MAX_MS = 500.0
    ROUNDING = 1e-9  # sums of float ms

    def test_motor_never_on_longer_than_max_ms(self,
                                               open_emulated_launcher: OpenEmulated) -> None:
        launcher = open_emulated_launcher(timing={"max_ms": self.MAX_MS, "jam_ms": 100.0},
                                          motor={"reverse_tries": 20})
        hardware = launcher.emulation
        assert hardware is not None
        hardware.world.inject("jam")      # forward, reverse, forward … until max_ms
        hardware.world.motor_changes.clear()
        result = launcher.eject(4)
        assert result.status is EjectStatus.TIMEOUT
        assert len(motor_on_spans(launcher)) >= 3   # several pulses …
        assert eject_span(launcher) <= self.MAX_MS + self.ROUNDING  # … all within max_ms
        hardware.world.call(hardware.world.model.clear_jam)
        hardware.world.motor_changes.clear()
        assert launcher.eject(12).status is EjectStatus.TIMEOUT  # and a plain long eject
        assert max(motor_on_spans(launcher)) <= self.MAX_MS + self.ROUNDING

    def test_watchdog_stops_the_motor_when_the_eject_loop_hangs(
            self, open_emulated_launcher: OpenEmulated, mocker: MockerFixture) -> None:
        launcher = open_emulated_launcher(timing={"max_ms": self.MAX_MS, "jam_ms": 300.0})
        hardware = launcher.emulation
        assert hardware is not None
        hardware.world.inject("jam")  # no card will ever end the eject
        never = threading.Event()

        def hang_mid_eject() -> bool:
            if hardware.world.model.duty != 0:  # the motor runs: now the loop stalls …
                launcher.gpio.clock.wait(never, 3 * self.MAX_MS)  # … while time runs on
            return False

        mocker.patch.object(launcher.gpio, "_hopper_says_empty", side_effect=hang_mid_eject)
        hardware.world.motor_changes.clear()
        launcher.eject(3)
        assert motor_on_spans(launcher) == [pytest.approx(self.MAX_MS)]  # not 3 × max_ms
        assert hardware.world.model.duty == 0

    def test_the_real_clock_waits_and_its_timer_fires_unless_cancelled(self) -> None:
        clock = LoopClock()
        fired, kept = threading.Event(), threading.Event()
        cancel = clock.call_later(1, fired.set)
        clock.call_later(1, kept.set)()             # cancelled at once: never fires
        clock.wait(fired, 5000)
        assert fired.is_set()
        clock.wait(kept, 50)
        assert not kept.is_set()
        cancel()                                     # too late: harmless

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
        launcher = open_emulated_launcher()
        hardware = launcher.emulation
        assert hardware is not None
        hardware.world.post(launcher.gpio.stop, delay_ms=300)   # 300 ms of model time in
        result = launcher.eject(12)
        assert result.status is EjectStatus.STOPPED
        assert result.fired == hardware.world.model.cards_out
        assert hardware.world.model.duty == 0


    def test_close_from_another_thread_lets_the_eject_end_stopped(
            self, open_emulated_launcher: OpenEmulated) -> None:
        """Regression: a host stopping mid-eject closed the pins under the running loop,
        whose next read raised GPIODeviceClosed in the press (and its light's, after)."""
        launcher = open_emulated_launcher(scale=1, policy="fixed:12")  # 12 cards: 1.5 s
        hardware = launcher.emulation
        assert hardware is not None
        outcome: list[object] = []
        # the race made certain: once stopped, the loop looks again only after the pins
        # are closed (or a second passed: a close that waits for it never closes them first)
        stopping, pins_closed = threading.Event(), threading.Event()
        ejector, devices = launcher.gpio, launcher.devices
        stop, close_pins, wait = ejector.stop, devices.close, ejector.clock.wait

        def stop_then_mark() -> None:
            stop()
            stopping.set()

        def close_then_mark() -> None:
            close_pins()
            pins_closed.set()

        def wait_after_the_close(woken: threading.Event, ms: float | None) -> None:
            wait(woken, ms)
            if stopping.is_set():
                pins_closed.wait(1.0)

        ejector.stop = stop_then_mark  # type: ignore[method-assign]
        devices.close = close_then_mark  # type: ignore[method-assign]
        ejector.clock.wait = wait_after_the_close  # type: ignore[method-assign]

        def press() -> None:
            try:
                outcome.append(launcher.press())
            except Exception as exc:  # the regression: an exception here
                outcome.append(exc)

        pressing = threading.Thread(target=press)
        pressing.start()
        while hardware.world.model.duty == 0 and pressing.is_alive():  # the roller turns
            time.sleep(0.005)
        launcher.close()
        pressing.join(10)
        [result] = outcome
        assert not isinstance(result, Exception), result
        assert result.status is EjectStatus.STOPPED  # type: ignore[attr-defined]
        assert hardware.world.model.duty == 0
        assert launcher.devices.beam.closed  # type: ignore[union-attr]


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


def on_spans(changes: list[tuple[float, bool]]) -> list[float]:
    """How long the LED stayed on each time (model ms), from its driven changes."""
    return [off - on for (on, lit), (off, _) in itertools.pairwise(changes) if lit]


def wait_for_changes(part: Indicator, count: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while len(part.changes) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(part.changes) >= count, list(part.changes)


class TestFeedback:
    def test_led_blinks_faster_with_tension_and_is_off_after_a_fire(
            self, open_emulated_launcher: OpenEmulated) -> None:
        # near real time: the blinking runs on gpiozero's own timer thread, in real time
        launcher = open_emulated_launcher(scale=2)
        launcher.policy = BurstPolicy(PolicyTable("late", fire=(0.0, 0.0, 1.0),
                                                  weights=(0, 1)))
        world = launcher.world
        assert world is not None
        led = world.led
        spans = []
        for tension in (1, 2):
            led.changes.clear()
            result = launcher.press()
            assert (result.asked, result.tension) == (0, tension)
            wait_for_changes(led, 9)           # on, off, on, off …: it blinks
            assert [lit for _, lit in list(led.changes)[:4]] in ([True, False] * 2,
                                                                  [False, True] * 2)
            spans.append(statistics.median(on_spans(list(led.changes))))
        period = [400 / (1 + tension) for tension in (1, 2)]  # Feedback's on-time, in ms
        assert spans[0] == pytest.approx(period[0], rel=0.3)
        assert spans[1] == pytest.approx(period[1], rel=0.3)
        assert spans[1] < spans[0]                            # faster as the tension builds
        led.changes.clear()
        before = world.now_ms()
        fired = launcher.press()
        after = world.now_ms()
        assert (fired.asked, fired.fired) == (2, 2)
        during = [(t, lit) for t, lit in led.changes if before <= t <= after]
        assert [lit for _, lit in during][-2:] == [True, False]  # steady while firing …
        assert sum(1 for _, lit in during if lit) == 1          # … no blinking in between
        assert not led.driven                                    # and off after the fire
