"""English for the screens and the game log: counts with their nouns, articles, and the
person at the keyboard, whose seat is named "You", spoken to as "you".

The engine's refusals name seats as fields, and word themselves with these names
(:mod:`uno_attack.refusal`).
"""

from __future__ import annotations

YOU = "You"  # the name of the only person at the keyboard


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
