"""The phases of a round: what it waits for (:class:`~uno_attack.engine.Round`)."""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    """What the round waits for (owed penalties come before any of these)."""

    CHOOSE = "choose"  # the player left of the dealer names a wild starter's colour
    PLAY = "play"      # the seat whose turn it is plays, presses or draws
    AFTER = "after"    # after a press or draw: play a card that arrived (or pass)
    CHAIN = "chain"    # until_playable: press or draw again, nothing playable came yet
    OVER = "over"      # a hand is empty and nothing more is owed
