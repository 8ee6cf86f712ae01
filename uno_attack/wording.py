"""English for the screens and the game log: counts with their nouns, articles, and the
person at the keyboard, whose seat is named "You", spoken to as "you".

The rules engine explains a refusal with seat numbers ("seat 1 owes 2 presses"), as a
transcript would; :func:`name_seats` puts the players' names in their place for the
screen, so the reasons are written once, in the engine, and read well at the table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

YOU = "You"  # the name of the only person at the keyboard

#: The verbs of the engine's reasons that change for "you".
_SECOND_PERSON = {"owes": "owe", "has": "have", "does": "do", "is": "are", "was": "were"}
_SEAT = re.compile(r"\bseat (\d+)(?P<own>'s)?(?P<next> \w+)?")


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``1 press``, ``2 presses``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def article(word: str) -> str:
    """``a`` or ``an`` before ``word`` (by its first letter, as the match modes need)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def as_object(name: str) -> str:
    """``Ada`` or ``you``: the player as the object of a sentence."""
    return "you" if name == YOU else name


def possessive(name: str) -> str:
    """``Ada's`` or ``your``."""
    return "your" if name == YOU else f"{name}'s"


def verb_for(name: str, third: str, second: str) -> str:
    """The verb that agrees with ``name``: ``Ada owes`` but ``you owe``."""
    return second if name == YOU else third


def wins(name: str) -> str:
    """``Ada wins`` but ``You win``."""
    return f"{name} {verb_for(name, 'wins', 'win')}"


def name_seats(reason: str, names: Sequence[str]) -> str:
    """The engine's ``reason`` with each seat number that is a player replaced by the
    name: ``it is seat 2's turn, not seat 0's`` → ``it is Ben's turn, not yours``."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        following = match.group("next") or ""
        if not 0 <= seat < len(names):
            return match.group(0)  # not a seat of this table: the number says it
        who = names[seat]
        if match.group("own"):
            if who != YOU:
                return f"{who}'s{following}"
            return f"your{following}" if following else "yours"
        if who != YOU:
            return f"{who}{following}"
        word = following.strip()
        return f"you {_SECOND_PERSON.get(word, word)}" if word else "you"

    text = _SEAT.sub(name, reason)
    return text[0].upper() + text[1:] if text.startswith("you") else text
