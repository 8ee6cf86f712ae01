"""Who decides next at a table: the one place that knows.

A round waits for one decision at a time. Usually it is the turn of the seat to act
(:attr:`~uno_attack.engine.Round.to_act`). After an action that opens a chance to act out
of turn (the engine's :meth:`~uno_attack.engine.Round.reactions_open`: an UNO window, a
``sum_out``, a card to jump in with), the seats that may seize it are asked first, one
after the other in :func:`reaction_order`; the first that acts takes the chance and the
asking starts again from what its action left; when every one has let it go, the seat to
act moves.

Which seats are asked is the caller's: self-play asks every bot, a table with people at
it asks only its bots (a person acts whenever they like), an agent environment asks only
the seats with an out-of-turn action and never the seat to act (its own turn lists its
calls and catches). What a seat decides, and when, is the caller's too: a bot's choice at
once, after a visible pause, or an agent's step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from uno_attack.engine import Round


@dataclass(frozen=True, slots=True)
class Decision:
    """The decision a round waits for: ``seat``'s turn, or its chance to act out of turn
    (``reacting``: it may also let the chance go)."""

    seat: int
    reacting: bool


def reaction_order(game: Round) -> list[int]:
    """Who may act out of turn now, in the order they are asked: every seat in seat order
    from the player who forgot UNO (who may remember last) or, with no UNO window open,
    from the seat in turn (who is asked last)."""
    if not game.reactions_open():
        return []
    start = game.uno_seat if game.uno_seat is not None else game.turn
    return [(start + i) % game.players for i in range(1, game.players + 1)]


class Turns:
    """The decisions of one round, in order; see the module docstring.

    ``asks(seat)`` says whether a seat is asked out of turn (default: every seat). Call
    :meth:`acted` after every action and :meth:`declined` when the seat asked lets its
    chance go.
    """

    __slots__ = ("_asking", "_asks", "game", "reacting")

    def __init__(self, game: Round, *, asks: Callable[[int], bool] | None = None) -> None:
        self.game = game
        self._asks = asks
        self._asking: list[int] = []  # the seats still to be asked, first first
        #: Whether a seat is being asked out of its turn (read at every action of
        #: self-play, so a plain attribute).
        self.reacting = False

    @property
    def decision(self) -> Decision | None:
        """The decision the round waits for now; ``None`` once it is over."""
        if self._asking:
            return Decision(self._asking[0], True)
        seat = self.game.to_act
        return None if seat is None else Decision(seat, False)

    @property
    def asking(self) -> tuple[int, ...]:
        """The seats still to be asked out of turn, the one asked now first."""
        return tuple(self._asking)

    def acted(self) -> None:
        """After an action: the seats to ask out of turn about what it left (none when it
        opened no chance, so after an action that did not, while nobody was being asked,
        there is nothing to do: self-play skips the call then)."""
        asks = self._asks
        order = reaction_order(self.game)
        self._asking = order if asks is None else [seat for seat in order if asks(seat)]
        self.reacting = bool(self._asking)

    def declined(self) -> None:
        """The seat asked lets its chance go: the next one is asked."""
        assert self._asking, "no seat is being asked out of turn"
        del self._asking[0]
        self.reacting = bool(self._asking)
