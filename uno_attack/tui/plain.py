"""A refusal in a player's words: the engine's sentence without the rule it cites.

A player at the table has no rule book open, so "(RULES.md 4)" or "(VARIANTS.md B1)" tells
them nothing; the rule's name and section stay in the help, in ``replay`` and in
``--explain``. The sentence is made from the refusal's fields (its template, seats and
words), never by editing the engine's prose: where the template puts the rule in
brackets (``… ({rule})``, ``({rule}: starter table)``, ``(…, {rule})``) or after a colon at
its end, that part goes; where the rule is part of the sentence, it is "the rule".
"""

from __future__ import annotations

from collections.abc import Sequence
from string import Formatter

from uno_attack.refusal import Refusal

Piece = tuple[str, str | None, str | None, str | None]


def plainly(refusal: Refusal, names: Sequence[str]) -> str:
    """``refusal`` worded for the players named, citing no rule book."""
    return refusal._replace(template=_without_rule(refusal.template)).for_names(names)


def _without_rule(template: str) -> str:
    """The template with its ``{rule}`` field, and the brackets or colon around it, gone."""
    pieces: list[Piece] = list(Formatter().parse(template))
    out = ""
    skip_to_bracket = False
    for literal, field, spec, conversion in pieces:
        if skip_to_bracket:  # the rest of a bracket that held the rule: "({rule}: …)"
            literal = literal[literal.find(")") + 1:] if ")" in literal else ""
            skip_to_bracket = False
        out += literal.replace("{", "{{").replace("}", "}}")
        if field is None:
            continue
        if field != "rule":
            out += "{" + field + (f"!{conversion}" if conversion else "") + \
                (f":{spec}" if spec else "") + "}"
            continue
        if out.endswith("("):
            out = out[:-1].rstrip()
            skip_to_bracket = True
        elif out.endswith(", ") or out.endswith("; ") or out.endswith(": "):
            out = out[:-2]
        else:
            out += "the rule"
    return out
