"""The table's rules in plain words for the page's help (the ``hello``'s ``table``).

Everything comes from the declarations: the rule set's title and way of taking cards
(:mod:`uno_attack.rules`), and each house rule's one-line meaning from its option
(:data:`uno_attack.options.OPTION_SPECS`), without the spec sections it cites, which a
player does not have. The page keeps no copy of any of it.
"""

from __future__ import annotations

import re

from uno_attack.options import OPTION_SPECS, Options
from uno_attack.rules import rule_set

#: A section cited at the end of a meaning: "(B1)", "(net: VARIANTS.md B11)", "(RULES.md)".
_CITED = re.compile(r"\s*\((?:[^()]*:\s*)?(?:RULES|VARIANTS)?(?:\.md)?\s*[A-E]?\d*\)")
#: A section cited last inside words in brackets: "(the winner plays first, B12)".
_CITED_LAST = re.compile(r",\s*[A-E]\d+\)")
#: Options about the match rather than the play; the help says them in one line.
_MATCH = ("rules", "match", "target", "rounds")


def plain(meaning: str) -> str:
    """An option's meaning without the spec sections it cites."""
    return " ".join(_CITED.sub("", _CITED_LAST.sub(")", meaning)).split())


def _value(value: object) -> str:
    if value is True:
        return "on"
    return str(value).replace("_", " ")


def table_rules(options: Options) -> dict[str, object]:
    """The rule set's title, the match, and every house rule that
    differs from the official rules with its plain meaning."""
    rules = rule_set(options.rules)
    match = f"{options.match} match"
    if options.match == "net":
        match += f" of {options.rounds} rounds"
    elif options.match != "single":
        match += f" to {options.target}"
    house = []
    for key, value in options.to_dict().items():
        if key in _MATCH:
            continue
        house.append({"option": key, "value": _value(value),
                      "title": key.replace("_", " ").capitalize(),
                      "meaning": plain(OPTION_SPECS[key].help)})
    return {"title": rules.title, "match": match, "house_rules": house}
