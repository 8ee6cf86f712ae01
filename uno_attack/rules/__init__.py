"""Rule sets: UNO Attack (``attack``, RULES.md) and classic UNO (``classic``, VARIANTS.md A).

A rule set owns its deck, card kinds, points, canonical order and names, and the effect of
each kind as a play, as a starter and as a last card. Everything else (the engine, actions,
bots, the terminal game, the network host) asks it::

    >>> rules = rule_set("classic")
    >>> rules.card_name(rules.parse_card("R+2")), len(rules.deck)
    ('red Draw Two', 108)
"""

from __future__ import annotations

from uno_attack.errors import OptionError
from uno_attack.rules.attack import ATTACK
from uno_attack.rules.base import Kind, Moves, RuleSet
from uno_attack.rules.classic import CLASSIC

#: Every rule set by name; the first is the default.
RULE_SETS: dict[str, RuleSet] = {rules.name: rules for rules in (ATTACK, CLASSIC)}


def rule_set(name: str) -> RuleSet:
    """The rule set of this name (``attack`` or ``classic``)."""
    try:
        return RULE_SETS[name]
    except (KeyError, TypeError):
        known = ", ".join(RULE_SETS)
        raise OptionError(f"unknown rule set {name!r} (known: {known})") from None


__all__ = ["ATTACK", "CLASSIC", "RULE_SETS", "Kind", "Moves", "RuleSet", "rule_set"]
