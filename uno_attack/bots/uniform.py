"""The ``random`` bot: a baseline that any real player should beat."""

from __future__ import annotations

import random
from collections.abc import Sequence

from uno_attack.actions import Action
from uno_attack.engine import Round


class RandomBot:
    """Uniformly random among the listed legal actions; never acts out of turn."""

    kind = "random"

    def __init__(self, name: str = "random", *, seed: int | str | None = None) -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]

    def react(self, game: Round, seat: int) -> Action | None:
        return None
