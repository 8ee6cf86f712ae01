"""The ``random`` bot: a baseline that any real player should beat."""

from __future__ import annotations

from collections.abc import Sequence

from uno_attack.actions import Action
from uno_attack.bots.dice import Dice
from uno_attack.engine import Round


class RandomBot:
    """Uniformly random among the listed legal actions, by its :class:`Dice`; never acts
    out of turn."""

    kind = "random"

    def __init__(self, name: str = "random", *, seed: int | str | None = None) -> None:
        self.name = name
        self.dice = Dice(seed)

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        return legal[int(self.dice.at(game.steps, seat) * len(legal))]

    def react(self, game: Round, seat: int) -> Action | None:
        return None

    def recall(self, game: Round, seat: int, action: Action) -> None:
        """It remembers nothing between decisions."""
