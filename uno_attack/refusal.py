"""Why the rules refuse an action now, as facts: the rule it cites, the seats it names,
and the sentence with a place for each of them.

The engine words a refusal as a transcript records it ("seat 1 owes 2 presses first
(RULES.md 5)"): that is ``str(refusal)``, the text the transcripts compare. A screen says
it to the players by name, and "you" to the person at the keyboard
(:meth:`Refusal.for_names`), and at the table without the rule it cites, which a player
has no book for (:meth:`Refusal.plainly`); all come from the same fields, so no front end
reads the sentence back for seat numbers. The engine turns down many candidate moves on its hot
path, so a refusal formats nothing until it is read.

A template is a :meth:`str.format` string: ``{0}``, ``{1}`` … are its words (a card, a
count of presses), ``{rule}`` the rule it cites, and ``{seat[i]}`` its i-th seat, with a
form after the colon for the words that agree with the seat:

========================  =================  ==============
template                  seat 1 (Ada)       seat 0 (you)
========================  =================  ==============
``{seat[0]}``             seat 1 / Ada       you
``{seat[0]:'s}``          seat 1's / Ada's   your
``{seat[0]:yours}``       seat 1's / Ada's   yours
``{seat[0]:owes}``        seat 1 owes        you owe
========================  =================  ==============

Over the network a refusal travels as :meth:`Refusal.parts`: text and seats in order, so a
client words it the same way (:func:`say`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from string import Formatter
from typing import NamedTuple

from uno_attack.wording import YOU

#: The forms of a seat that are not a verb after it.
NAME, OWN, OWN_ALONE = "", "'s", "yours"
#: The verbs whose "you" form is not the third person's without its ``s``.
_SECOND_PERSON = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go"}


class SeatWord(NamedTuple):
    """A seat in a refusal's sentence, and the form its words take (see the module)."""

    seat: int
    form: str = NAME


#: A piece of a refusal's sentence: text as it stands, or a seat to be named.
Part = str | SeatWord


class Refusal(NamedTuple):
    """One refusal: a template (see the module), the rule cited, the seats and the words
    the template fills in. A named tuple: immutable and as cheap to build as a tuple."""

    template: str
    rule: str
    seats: tuple[int, ...] = ()
    words: tuple[object, ...] = ()

    def __str__(self) -> str:
        """The engine's sentence, seats as numbers (``seat 1 owes 2 presses first …``)."""
        return self._fill([_Seat(seat, None) for seat in self.seats])

    def for_names(self, names: Sequence[str]) -> str:
        """The sentence with each seat's name, and "you" for :data:`~uno_attack.wording.YOU`:
        ``it is Ben's turn, not yours (RULES.md 4)``."""
        return _capitalised(self._fill([_Seat(seat, names[seat]) for seat in self.seats]))

    def plainly(self, names: Sequence[str]) -> str:
        """:meth:`for_names` citing no rule book: a player at the table has none open, so
        "(RULES.md 4)" tells them nothing (the rule stays in the help, in ``replay`` and
        in the transcripts). The rule's field goes from the template, with the brackets
        or the colon around it; where the rule is part of the sentence, it is "the rule"."""
        return self._replace(template=_without_rule(self.template)).for_names(names)

    def parts(self, before: str = "") -> tuple[Part, ...]:
        """The sentence (after ``before``) as text and seats in order, each run of text in
        one piece: what :func:`say` words with names."""
        parts: list[Part] = []
        text = before
        for literal, field, form, _ in Formatter().parse(self.template):
            text += literal
            if field is None:
                continue
            if not field.startswith("seat["):
                text += format(self.rule if field == "rule" else self.words[int(field)],
                               form or "")
                continue
            if text:
                parts.append(text)
            parts.append(SeatWord(self.seats[int(field[5:-1])], form or NAME))
            text = ""
        if text:
            parts.append(text)
        return tuple(parts)

    def _fill(self, seats: list[_Seat]) -> str:
        return self.template.format(*self.words, seat=seats, rule=self.rule)


#: How a refusal of a seat owing a penalty begins: ``seat 1 owes 2 presses; …`` (the seat
#: is its first, what it owes its first word).
OWES = "{seat[0]:owes} {0}; "


def owing(seat: int, owed: str, then: Refusal, *, first: bool = False) -> Refusal:
    """``then`` after ``seat 1 owes 2 presses[ first]; ``: a refusal of something the seat
    may not do while it owes ``owed``. ``then`` names no seat and has no words."""
    return Refusal(("{seat[0]:owes} {0} first; " if first else OWES) + then.template,
                   then.rule, (seat,), (owed,))


def say(parts: Iterable[Part], names: Sequence[str]) -> str:
    """A sentence sent as :meth:`Refusal.parts`, each seat named as its form says."""
    return _capitalised("".join(
        part if isinstance(part, str) else format(_Seat(part.seat, names[part.seat]),
                                                  part.form)
        for part in parts))


def parts_json(parts: Iterable[Part]) -> list[str | dict[str, int | str]]:
    """Parts as an ``error`` carries them (docs/network.md): text, or ``{"seat", "form"}``."""
    return [part if isinstance(part, str) else {"seat": part.seat, "form": part.form}
            for part in parts]


def second_person(verb: str) -> str:
    """The verb after "you": ``owes`` → ``owe``, ``has`` → ``have``, ``must`` → ``must``."""
    if verb in _SECOND_PERSON:
        return _SECOND_PERSON[verb]
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


class _Seat:
    """A seat as a template fills it in: by number (``name`` is ``None``) or by name."""

    __slots__ = ("name", "seat")

    def __init__(self, seat: int, name: str | None) -> None:
        self.seat = seat
        self.name = name

    def __format__(self, form: str) -> str:
        you = self.name == YOU
        who = f"seat {self.seat}" if self.name is None else self.name
        if form in (OWN, OWN_ALONE):
            return ("your" if form == OWN else "yours") if you else f"{who}'s"
        if form == NAME:
            return "you" if you else who
        return f"you {second_person(form)}" if you else f"{who} {form}"


def _capitalised(text: str) -> str:
    return text[0].upper() + text[1:] if text.startswith("you") else text


def _without_rule(template: str) -> str:
    """The template with its ``{rule}`` field, and the brackets or colon around it, gone."""
    pieces = list(Formatter().parse(template))
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
