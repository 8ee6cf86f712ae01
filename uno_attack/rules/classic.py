"""Classic UNO (VARIANTS.md A): the 108-card deck, its kinds, points and effects."""

from __future__ import annotations

from dataclasses import replace

from uno_attack.penalties import Unit
from uno_attack.rules import effects
from uno_attack.rules.base import Kind, RuleSet, build_deck
from uno_attack.rules.shared_kinds import REVERSE, SKIP, WILD, numbers

_DRAW_TWO_STACKS = {"same": frozenset({"+2"}), "up": frozenset({"+2", "W+4"})}
_DRAW_FOUR_STACKS = {"same": frozenset({"W+4"}), "up": frozenset({"W+4"})}

KINDS: dict[str, Kind] = {
    kind.symbol: kind
    for kind in (
        *numbers(range(10)),
        SKIP,
        replace(REVERSE, effect="direction flips (with two players: a Skip)"),
        Kind("+2", "Draw Two", "+2", 20, sign="+2",
             effect="the next player draws 2 and loses the turn",
             penalty=2, hits=True, skips=True, multi="symbols",
             stackers=_DRAW_TWO_STACKS, play=effects.draw_card(2),
             starter=effects.draw_starter(2), last=effects.draw_card(2)),
        WILD,
        Kind("W+4", "Wild Draw Four", "+4", 50, sign="+4",
             effect="name the colour; the next player draws 4 and loses the turn",
             wild=True, penalty=4, hits=True, skips=True,
             put_back=True, fair=effects.holds_no_current_colour, stackers=_DRAW_FOUR_STACKS,
             play=effects.draw_card(4), last=effects.draw_card(4)),
    )
}

PER_COLOR = ["0"] + [n for n in "123456789" for _ in range(2)] + ["S", "S", "R", "R", "+2", "+2"]
WILDS = ["W"] * 4 + ["W+4"] * 4

CLASSIC = RuleSet(
    name="classic",
    title="classic UNO",
    unit=Unit.DRAW,
    deck=build_deck(PER_COLOR, WILDS),
    kinds=KINDS,
    refs={"setup": "VARIANTS.md A3", "turn": "VARIANTS.md A4", "effects": "VARIANTS.md A4",
          "take": "VARIANTS.md A2", "uno": "VARIANTS.md A6, RULES.md 7",
          "end": "VARIANTS.md A6", "options": "RULES.md 9"},
)
assert len(CLASSIC.deck) == 108
