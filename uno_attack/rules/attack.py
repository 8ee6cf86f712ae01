"""UNO Attack (RULES.md): the 112-card deck, its kinds, points and effects."""

from __future__ import annotations

from uno_attack.penalties import FIRE, Unit
from uno_attack.refusal import Refusal
from uno_attack.rules import effects
from uno_attack.rules.base import Kind, RuleSet, build_deck
from uno_attack.rules.shared_kinds import REVERSE, SKIP, WILD, numbers

_HIT2_STACKS = frozenset({"H"})

KINDS: dict[str, Kind] = {
    kind.symbol: kind
    for kind in (
        *numbers(range(1, 10)),
        SKIP,
        REVERSE,
        Kind("H", "Hit 2", "Hit2", 20, sign="+2",
             effect="the next player presses twice and loses the turn",
             penalty=2, hits=True, skips=True, multi="symbols",
             stackers={"same": _HIT2_STACKS, "up": _HIT2_STACKS},
             play=effects.draw_card(2), starter=effects.draw_starter(2),
             last=effects.draw_card(2)),
        Kind("D", "Discard All", "DAll", 30, sign="✱",
             effect="discard every card of its colour with it", lays_down=effects.same_colour),
        Kind("T", "Trade Hands", "Trade", 30, sign="⇆",
             effect="swap hands with a player you choose (not as your last card)",
             names_seat=True, put_back=True, play=effects.trade,
             end_refusal=Refusal("a Trade Hands may not be played as your last card ({rule})",
                                 "RULES.md 4")),
        WILD,
        Kind("WA", "Wild All Hit", "AllHt", 50, sign="All",
             effect="name the colour; everyone else presses once",
             wild=True, hits=True, play=effects.all_hit,
             starter=effects.all_hit_starter, last=effects.all_hit),
        Kind("WF", "Wild Hit-Fire", "HFire", 50, sign="Fire",
             effect="name the colour; the next player presses until a card fires",
             wild=True, hits=True, skips=True,
             play=effects.hit_fire, starter=effects.draw_starter(FIRE), last=effects.hit_fire),
    )
}

PER_COLOR = [n for n in "123456789" for _ in range(2)] + ["S", "S", "R", "R", "H", "H", "D", "T"]
WILDS = ["W"] * 4 + ["WA"] * 2 + ["WF"] * 2


ATTACK = RuleSet(
    name="attack",
    title="UNO Attack",
    unit=Unit.PRESS,
    deck=build_deck(PER_COLOR, WILDS),
    kinds=KINDS,
    refs={"setup": "RULES.md 3", "turn": "RULES.md 4", "effects": "RULES.md 5",
          "take": "RULES.md 6", "uno": "RULES.md 7", "end": "RULES.md 8",
          "options": "RULES.md 9"},
)
assert len(ATTACK.deck) == 112
