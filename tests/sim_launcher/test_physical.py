"""The physical model of the dispenser: timing, counts, jams, faults."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim_launcher.physical import DispenserModel, DispenserParams

NO_JAMS = DispenserParams(jam_probability=0.0)


def beam_edges(model: DispenserModel, until_ms: float) -> list[tuple[float, bool]]:
    """Step the model event by event and note every change of the beam."""
    edges = []
    last = model.beam_blocked
    while model.now_ms < until_ms:
        model.advance(min(model.ms_to_next_change(), until_ms - model.now_ms))
        if model.beam_blocked != last:
            last = model.beam_blocked
            edges.append((round(model.now_ms, 6), last))
    return edges


class TestCardFlow:
    def test_full_duty_follows_launcher_md(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.set_motor(1.0)
        edges = beam_edges(model, 450)
        # spin-up 60 ms, then 8 cards/s (125 ms each), each blocking the beam for 25 ms
        assert edges == [(160.0, True), (185.0, False), (285.0, True), (310.0, False),
                         (410.0, True), (435.0, False)]
        assert model.cards_out == 3
        assert model.hopper == 109

    def test_half_duty_is_half_as_fast_and_blocks_twice_as_long(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.set_motor(0.5)
        edges = beam_edges(model, 60 + 250)
        assert edges == [(260.0, True), (310.0, False)]

    def test_motor_off_stops_cards_where_they_are(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.set_motor(1.0)
        model.advance(170)          # the first card is in the beam
        model.set_motor(0)
        model.advance(10_000)
        assert model.beam_blocked
        assert model.cards_out == 0
        assert model.ms_to_next_change() == math.inf

    def test_below_min_duty_the_motor_stalls(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.set_motor(0.1)
        model.advance(5_000)
        assert model.cards_out == 0
        assert model.roller_ms == 0

    def test_finite_hopper_runs_dry(self) -> None:
        model = DispenserModel(DispenserParams(jam_probability=0.0, hopper=2,
                                               hopper_sensor=True))
        assert model.hopper_empty is False
        model.set_motor(1.0)
        model.advance(5_000)
        assert model.cards_out == 2
        assert model.hopper_empty is True
        assert not model.beam_blocked

    def test_without_a_sensor_the_hopper_reading_is_none(self) -> None:
        assert DispenserModel().hopper_empty is None

    @given(seed=st.integers(0, 2**32), steps=st.lists(
        st.tuples(st.sampled_from([0.0, 0.5, 1.0, -0.6]), st.floats(0, 400)),
        max_size=20))
    @settings(max_examples=60, deadline=None)
    def test_cards_are_conserved(self, seed: int, steps: list[tuple[float, float]]) -> None:
        model = DispenserModel(DispenserParams(jam_probability=0.2), seed=seed)
        for duty, ms in steps:
            model.set_motor(duty)
            model.advance(ms)
        assert model.cards_out + model.hopper == 112
        assert model.cards_out >= 0

    def test_same_seed_same_jams(self) -> None:
        def run(seed: int) -> list[tuple[float, bool]]:
            model = DispenserModel(DispenserParams(jam_probability=0.3), seed=seed)
            model.set_motor(1.0)
            return beam_edges(model, 3_000)

        assert run(7) == run(7)
        assert run(7) != run(8)


class TestJams:
    def test_a_jam_stops_cards_and_a_reverse_pulse_frees_it(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.force_jam()
        model.set_motor(1.0)
        model.advance(1_000)
        assert model.jammed
        assert model.cards_out == 0
        assert model.roller_ms > 0  # the roller slips on the stuck card
        model.set_motor(-0.6)
        model.advance(60 + 30)
        assert not model.jammed
        model.set_motor(1.0)
        model.advance(300)
        assert model.cards_out == 1

    def test_a_stuck_jam_survives_reverse_pulses(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.force_jam(stuck=True)
        for _ in range(3):
            model.set_motor(1.0)
            model.advance(500)
            model.set_motor(-1.0)
            model.advance(500)
        model.set_motor(1.0)
        model.advance(500)
        assert model.jammed
        assert model.cards_out == 0
        model.clear_jam()
        model.advance(500)
        assert model.cards_out > 0

    def test_force_jam_while_running_jams_at_once(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.set_motor(1.0)
        model.advance(100)  # running, card before the beam
        model.force_jam()
        model.advance(1_000)
        assert model.jammed
        assert model.cards_out == 0


class TestFaults:
    def test_beam_stuck_reads_the_same_whatever_passes(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.beam_stuck = True
        model.set_motor(1.0)
        assert beam_edges(model, 1_000) == []
        assert model.beam_blocked
        assert model.cards_out > 0

    def test_dead_motor_moves_nothing(self) -> None:
        model = DispenserModel(NO_JAMS)
        model.motor_dead = True
        model.set_motor(1.0)
        model.advance(5_000)
        assert model.cards_out == 0
        assert model.roller_ms == 0

    def test_finger_in_beam(self) -> None:
        model = DispenserModel()
        model.finger_in_beam = True
        assert model.beam_blocked
        assert not model.card_in_beam

    def test_bad_params_are_refused(self) -> None:
        with pytest.raises(ValueError, match="jam_probability"):
            DispenserParams(jam_probability=2)
        with pytest.raises(ValueError, match="duty"):
            DispenserModel().set_motor(1.5)
