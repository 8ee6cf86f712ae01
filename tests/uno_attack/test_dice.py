"""A bot's dice: the number of a decision depends on (seed, step, seat) alone."""

from __future__ import annotations

import random

from uno_attack.bots.dice import Dice


def test_a_number_is_read_by_step_and_seat_however_it_is_asked() -> None:
    in_order, backwards = Dice("s"), Dice("s")
    asked = [in_order.at(step, step % 3) for step in range(300)]
    assert [backwards.at(step, step % 3) for step in reversed(range(300))][::-1] == asked
    seat_1 = random.Random("s:1")  # each seat's numbers: one stream, read by step
    expected = [seat_1.random() for _ in range(300)]
    assert asked[1::3] == expected[1::3]


def test_a_number_picks_uniformly_over_a_range() -> None:
    dice = Dice(7)
    picks = [int(dice.at(step, 0) * 4) for step in range(4000)]
    assert set(picks) == {0, 1, 2, 3}
    assert all(900 < picks.count(i) < 1100 for i in range(4))
