"""Who of a match's people is at the table (NETWORK.md, Reconnect).

A person is present while at least one of their connections is open. One who has been
gone for ``away_seconds`` when their turn comes is *away*: a bot of the table's kind plays
for them (one bot per person, made once, so it remembers what it saw) until they are back.
The flow asks; this keeps the count. Time is the caller's clock, in seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from uno_attack.bots import Player


class Presence:
    """The connections and stand-ins of a match's people; see the module docstring."""

    def __init__(self, away_seconds: float, stand_in: Callable[[int], Player]) -> None:
        """``stand_in(player)`` makes the bot that plays for ``player`` while away."""
        self.away_seconds = away_seconds
        self._make_stand_in = stand_in
        self._present: set[int] = set()       # match players with a connection
        self._absent_since: dict[int, float] = {}
        self._away: set[int] = set()          # match players a bot stands in for
        self._stand_ins: dict[int, Player] = {}

    def start(self, people: Iterable[int], now: float) -> None:
        """The match begins: each of ``people`` not yet connected is absent from ``now``."""
        for player in people:
            if player not in self._present:
                self._absent_since.setdefault(player, now)

    def arrive(self, player: int) -> bool:
        """``player`` has a connection now; whether they were away (a bot played for them)."""
        if player in self._present:
            return False
        self._present.add(player)
        self._absent_since.pop(player, None)
        was_away = player in self._away
        self._away.discard(player)
        return was_away

    def leave(self, player: int, now: float) -> None:
        """``player``'s last connection closed at ``now``."""
        if player in self._present:
            self._present.discard(player)
            self._absent_since[player] = now

    def connected(self, player: int) -> bool:
        return player in self._present

    def away(self, player: int) -> bool:
        """Whether a bot plays for ``player`` now."""
        return player in self._away

    def away_at(self, player: int, turn_since: float, now: float) -> float | None:
        """When ``player``, whose turn began at ``turn_since``, counts as away (``None``:
        connected): ``away_seconds`` after they left, and never before their turn began."""
        if player in self._present:
            return None
        return max(self._absent_since.get(player, now), turn_since) + self.away_seconds

    def go_away(self, player: int) -> None:
        """A bot plays for ``player`` from now until they are back."""
        self._away.add(player)

    def stand_in(self, player: int) -> Player:
        """The bot that plays for ``player`` while away (the same one each time)."""
        bot = self._stand_ins.get(player)
        if bot is None:
            bot = self._stand_ins[player] = self._make_stand_in(player)
        return bot
