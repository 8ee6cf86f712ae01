"""The table's rules in plain words for the page's help (the ``hello``'s ``table``).

Everything comes from the declarations: the rule set's title (:mod:`uno_attack.rules`),
and each house rule's label, one-line meaning and value in the very words the new-game
screen shows (:data:`uno_attack.wording.OPTION_WORDS` and ``VALUE_WORDS``), which cite no
rule book. The page keeps no copy of any of it.
"""

from __future__ import annotations

from uno_attack.options import Options
from uno_attack.rules import rule_set
from uno_attack.wording import OPTION_WORDS, VALUE_WORDS

#: Options about the match rather than the play; the help says them in one line.
_MATCH = ("rules", "match", "target", "rounds")


def _value(key: str, value: object) -> str:
    if value is True:
        return "on"
    return VALUE_WORDS.get((key, str(value)), str(value).replace("_", " "))


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
        title, meaning = OPTION_WORDS[key]
        house.append({"option": key, "value": _value(key, value), "title": title,
                      "meaning": meaning})
    return {"title": rules.title, "match": match, "house_rules": house}
