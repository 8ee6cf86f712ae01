"""Owed penalties as values: who owes what, in which unit, and why.

A penalty is owed by one seat: a number of presses (UNO Attack) or draws (classic), or
in Attack "press until a card fires" (:data:`FIRE`). Its :class:`Cause` says where it
came from (a card, a starter, a catch, a false call or catch, a challenge), so the rules
of stacking and deflecting (VARIANTS.md B1, B6, E9) can ask what a penalty answers, and a
front end can say why it is owed.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal, NamedTuple

from uno_attack.cards import Card

#: An owed count meaning "press until at least one card fires" (Wild Hit-Fire).
FIRE: Literal["fire"] = "fire"

Count = int | Literal["fire"]


class Unit(Enum):
    """What a penalty is made of, and the verb that takes cards in the rule set."""

    PRESS = "press"  # UNO Attack: presses of the launcher
    DRAW = "draw"    # classic: cards drawn from the pile

    def __str__(self) -> str:
        return self.value


class Why(Enum):
    """The kinds of cause a penalty may have."""

    CARD = "card"                # a card's effect (Hit 2, Draw Two, Wild All Hit …)
    STARTER = "starter"          # the starter's effect (RULES.md 3, VARIANTS.md A3)
    CATCH = "catch"              # caught without UNO (RULES.md 7)
    FALSE_UNO = "false_uno"      # a false UNO call (VARIANTS.md B8)
    FALSE_CATCH = "false_catch"  # a false catch (VARIANTS.md B8)
    CHALLENGE = "challenge"      # a Wild Draw Four challenge (VARIANTS.md A5)

    def __str__(self) -> str:
        return self.value


class Challenge(NamedTuple):
    """A Wild Draw Four that may be challenged: who played it and whether it was a bluff."""

    by: int
    bluff: bool


class Cause(NamedTuple):
    """Why a penalty is owed.

    ``card`` is the card whose effect it is (for a stack, the last Draw card played on
    it: VARIANTS.md E6); ``by`` the seat that played it, or that caught, called or
    challenged; ``challenge`` is set while a Wild Draw Four's penalty may be challenged;
    ``stack`` holds the Draw cards that came before ``card`` in the same penalty (stacked
    on it, B1, or played with it, B3), oldest first, each with the seat that played it, so
    a front end can say what a sum is made of.
    """

    why: Why
    card: Card | None = None
    by: int | None = None
    challenge: Challenge | None = None
    stack: tuple[tuple[Card, int], ...] = ()

    def describe(self, rules_name: str | None = None) -> str:
        """A few words for a status line: ``blue Hit 2``, ``a catch``, ``a challenge``."""
        if self.why is Why.CARD or self.why is Why.STARTER:
            what = self.card.code if self.card is not None else "a card"
            return f"{what} (starter)" if self.why is Why.STARTER else what
        return {Why.CATCH: "a catch", Why.FALSE_UNO: "a false UNO call",
                Why.FALSE_CATCH: "a false catch", Why.CHALLENGE: "a challenge"}[self.why]


class Owed(NamedTuple):
    """One penalty owed by one seat.

    ``answerable`` is true while a stacking or deflecting play may answer it (VARIANTS.md
    B1, B6, E4, E9): a Draw card's penalty from a play, none of it made yet. The first
    press made of it, or a challenge, ends that.
    """

    seat: int
    # The field hides tuple.count (so ``Owed.count(x)`` is this field, not the method).
    count: Count  # type: ignore[assignment]
    unit: Unit
    cause: Cause
    answerable: bool = False

    def text(self) -> list[int | str]:
        """As a transcript's ``owed`` writes it: ``[seat, n]`` or ``[seat, "fire"]``."""
        return [self.seat, self.count]

    def describe(self) -> str:
        """``2 presses``, ``4 draws``, ``presses until a card fires``."""
        if self.count == FIRE:
            return "presses until a card fires"
        n = self.count
        word = "press" if self.unit is Unit.PRESS else "draw"
        plural = ("es" if word == "press" else "s") if n != 1 else ""
        return f"{n} {word}{plural}"
