"""The emulated world: its clock, the thread that steps it, a person's actions, faults."""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from sim_launcher.physical import DispenserParams
from sim_launcher.world import FAULTS, DispenserWorld, WorldRunner

NO_JAMS = DispenserParams(jam_probability=0.0)


class TestRunner:
    def test_runner_keeps_scaled_time_and_reports_every_edge(self) -> None:
        world = DispenserWorld(NO_JAMS, time_scale=50)
        edges: list[bool] = [world.model.beam_blocked]
        three = threading.Event()

        def on_step() -> None:
            if edges[-1] != world.model.beam_blocked:
                edges.append(world.model.beam_blocked)
                if edges.count(False) >= 4:  # the first False is the start
                    three.set()

        runner = WorldRunner(world, on_step=on_step)
        runner.start()
        try:
            world.set_motor(1.0)
            assert three.wait(5)
        finally:
            runner.stop()
        assert edges[:7] == [False, True, False, True, False, True, False]

    def test_posted_actions_run_in_model_time_order(self) -> None:
        world = DispenserWorld(time_scale=100)
        runner = WorldRunner(world)
        done: list[tuple[str, float]] = []
        world.post(lambda: done.append(("late", world.model.now_ms)), delay_ms=200)
        world.post(lambda: done.append(("early", world.model.now_ms)), delay_ms=100)
        runner.start()
        try:
            assert world.wait_idle(5)
        finally:
            runner.stop()
        assert [name for name, _ in done] == ["early", "late"]
        assert done[1][1] - done[0][1] == pytest.approx(100, abs=1)

    def test_now_from_another_thread_has_seen_every_edge_before_it(self) -> None:
        world = DispenserWorld(NO_JAMS, time_scale=20)
        runner = WorldRunner(world)
        runner.start()
        try:
            world.set_motor(1.0)
            now = world.now_ms()
            assert world.model.now_ms >= now  # the model is never behind the time it told
        finally:
            runner.stop()


    def test_a_still_world_sleeps_until_something_is_posted(self) -> None:
        world = DispenserWorld(time_scale=100)
        steps = 0
        step_with_clock = world.step_with_clock

        def counted(on_step: object = None) -> float | None:
            nonlocal steps
            steps += 1
            return step_with_clock()

        world.step_with_clock = counted  # type: ignore[method-assign]
        runner = WorldRunner(world)
        runner.start()
        try:
            time.sleep(0.1)  # fifty ticks of a still dispenser
            still = steps
            ran = threading.Event()
            world.post(ran.set, delay_ms=50)
            assert ran.wait(5)
        finally:
            runner.stop()
        assert still <= 2
        assert world.model.now_ms >= 50


class TestPerson:
    def test_pushes_queue_up_with_a_rest_between(self) -> None:
        world = DispenserWorld(time_scale=50)
        changes: list[tuple[float, bool]] = []
        runner = WorldRunner(world, on_step=lambda: changes.append(
            (world.model.now_ms, world.button_down)) if not changes
            or changes[-1][1] != world.button_down else None)
        runner.start()
        try:
            world.push_button(hold_ms=80)
            world.push_button(hold_ms=80)
            assert world.wait_idle(5)
        finally:
            runner.stop()
        downs = [t for t, down in changes if down]
        ups = [t for t, down in changes if not down][-2:]
        assert len(downs) == 2
        assert ups[0] - downs[0] == pytest.approx(80, abs=1)
        assert downs[1] - ups[0] >= 120 - 1

    def test_a_bouncy_button_chatters_and_a_dead_one_never_closes(self) -> None:
        bouncy = DispenserWorld(faults=["bouncy-button"])
        seen: list[bool] = []
        bouncy.push_button()
        bouncy.advance_to(1000, on_step=lambda: seen.append(bouncy.button_down))
        flips = sum(1 for a, b in itertools.pairwise(seen) if a != b)
        assert flips == 2 * 9 - 1  # 1 + 8 chatter edges at the push, as many at the release
        dead = DispenserWorld(faults=["button-dead"])
        dead.push_button()
        dead.advance_to(1000, on_step=lambda: seen.append(dead.button_down) or None)
        assert not dead.button_down


class TestFaults:
    def test_every_fault_is_described_and_unknown_ones_are_refused(self) -> None:
        assert set(FAULTS) == {"jam", "empty", "beam-stuck", "button-dead", "motor-dead",
                               "bouncy-button", "led-dead", "buzzer-broken",
                               "roller-slipping"}
        assert all(f.what for f in FAULTS.values())
        with pytest.raises(ValueError, match="unknown fault 'fire'"):
            DispenserWorld(faults=["fire"])

    def test_a_broken_indicator_is_driven_but_never_on(self) -> None:
        world = DispenserWorld(faults=["led-dead"])
        world.drive_led(True)
        world.drive_buzzer(True)
        assert world.led.driven
        assert not world.led.on
        assert world.buzzer.on

    def test_a_slipping_roller_is_slower_by_its_grip(self) -> None:
        times = {}
        for faults in ((), ("roller-slipping",)):
            world = DispenserWorld(NO_JAMS, faults=faults)
            world.set_motor(1.0)
            while world.model.cards_out < 2:
                world.advance_to(world.model.now_ms + world.model.ms_to_next_change())
            times[faults] = world.model.now_ms
        assert times[("roller-slipping",)] - 60 == pytest.approx((times[()] - 60) / 0.4)
