"""The kinds both decks have alike (RULES.md 1, VARIANTS.md A1): numbers, Skip, Reverse
and Wild, with the same points and effects; each rule set adds its own."""

from __future__ import annotations

from uno_attack.rules import effects
from uno_attack.rules.base import Kind


def numbers(values: range) -> tuple[Kind, ...]:
    """Number cards, worth their face value; several may be played together."""
    return tuple(Kind(str(n), str(n), str(n), n, sign=str(n), number=n, multi="numbers")
                 for n in values)


SKIP = Kind("S", "Skip", "Skip", 20, sign="⊘", effect="the next player loses the turn",
            deflects=True, skips=True, multi="symbols",
            play=effects.skip, starter=effects.skip_starter, deflect=effects.deflect_skip)
REVERSE = Kind("R", "Reverse", "Rev", 20, sign="⇄", effect="direction flips", deflects=True,
               multi="symbols", play=effects.reverse, starter=effects.reverse_starter,
               deflect=effects.deflect_reverse)
WILD = Kind("W", "Wild", "Wild", 50, sign="W", effect="name the colour", wild=True,
            multi="symbols")
