"""Actions: what a seat does, as a value that goes to text and back.

``Action.parse("1 play W green uno")`` / ``str(action)`` use the form of TRANSCRIPTS.md:
``SEAT VERB [ARGS]``, with ``play CARD... [COLOUR] [SEAT] [uno]`` for a play of one or more
cards. Card codes are read in the context of a rule set (``R+2`` is a card of classic, not
of Attack). Whether an action is *legal* is the engine's business; this module only knows
whether it is *well formed*, asking the rule set what a card must name (a wild its colour,
a Trade Hands its seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from uno_attack.cards import COLOR_WORDS, Card, Color
from uno_attack.errors import InvalidActionError, InvalidCardError
from uno_attack.rules import ATTACK, RuleSet


class Verb(Enum):
    PLAY = "play"
    PRESS = "press"
    DRAW = "draw"
    PASS = "pass"
    CHOOSE = "choose"
    UNO = "uno"
    CATCH = "catch"
    CHALLENGE = "challenge"
    OUT = "out"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Action:
    """One action by one seat.

    ``cards`` go with ``play`` (several at once under ``multi_play``, the last on top);
    ``color`` with playing a wild or ``choose``; ``target`` with playing a Trade Hands or a
    7 under ``seven_zero`` (the seat traded with) or ``catch`` (the seat caught); ``uno``
    is a call of UNO made together with a play.
    """

    seat: int
    verb: Verb
    cards: tuple[Card, ...] = ()
    color: Color | None = None
    target: int | None = None
    uno: bool = False

    @property
    def card(self) -> Card | None:
        """The (first) card of a play: the one that must be playable by itself."""
        return self.cards[0] if self.cards else None

    # -- constructors ---------------------------------------------------------------
    @classmethod
    def play(cls, seat: int, cards: Card | Sequence[Card], color: Color | None = None,
             target: int | None = None, *, uno: bool = False) -> Action:
        played = (cards,) if isinstance(cards, Card) else tuple(cards)
        return cls(seat, Verb.PLAY, played, color, target, uno)

    @classmethod
    def press(cls, seat: int) -> Action:
        return cls(seat, Verb.PRESS)

    @classmethod
    def draw(cls, seat: int) -> Action:
        return cls(seat, Verb.DRAW)

    @classmethod
    def pass_(cls, seat: int) -> Action:
        return cls(seat, Verb.PASS)

    @classmethod
    def choose(cls, seat: int, color: Color) -> Action:
        return cls(seat, Verb.CHOOSE, color=color)

    @classmethod
    def call_uno(cls, seat: int) -> Action:
        return cls(seat, Verb.UNO)

    @classmethod
    def catch(cls, seat: int, target: int) -> Action:
        return cls(seat, Verb.CATCH, target=target)

    @classmethod
    def challenge(cls, seat: int) -> Action:
        return cls(seat, Verb.CHALLENGE)

    @classmethod
    def out(cls, seat: int) -> Action:
        return cls(seat, Verb.OUT)

    def with_uno(self) -> Action:
        """The same play, with UNO called together with it."""
        if self.verb is not Verb.PLAY:
            raise InvalidActionError(f"invalid action '{self} uno': only a play takes 'uno'")
        return Action(self.seat, self.verb, self.cards, self.color, self.target, True)

    # -- text -----------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, *, rules: RuleSet = ATTACK) -> Action:
        """Parse ``"SEAT VERB [ARGS]"``; raise :class:`InvalidActionError` naming the text."""
        words = text.split() if isinstance(text, str) else None
        if not words or len(words) < 2:
            raise InvalidActionError(f"invalid action: {text!r} (expected 'SEAT VERB [ARGS]')")
        try:
            seat = _seat(words[0])
            return cls.parse_move(" ".join(words[1:]), seat, rules=rules)
        except InvalidActionError as exc:
            raise InvalidActionError(f"invalid action: {text!r}: {exc.args[0]}") from None

    @classmethod
    def parse_move(cls, text: str, seat: int, *, rules: RuleSet = ATTACK) -> Action:
        """Parse an action without its seat (the form of a ``legal`` list)."""
        words = text.split()
        if not words:
            raise InvalidActionError("missing verb")
        try:
            verb = Verb(words[0])
        except ValueError:
            known = ", ".join(v.value for v in Verb)
            raise InvalidActionError(f"unknown verb {words[0]!r} (known: {known})") from None
        args = words[1:]
        try:
            if verb is Verb.PLAY:
                return _play(seat, args, rules)
            if verb is Verb.CHOOSE:
                _arity(verb, args, 1, "a colour")
                return cls.choose(seat, Color.parse(args[0]))
            if verb is Verb.CATCH:
                _arity(verb, args, 1, "a seat")
                return cls.catch(seat, _seat(args[0]))
        except InvalidCardError as exc:
            raise InvalidActionError(str(exc)) from None
        _arity(verb, args, 0, "no arguments")
        return cls(seat, verb)

    def text(self, *, seat: bool = True, uno: bool = True) -> str:
        """The action as text; without the seat and the ``uno`` suffix for ``legal`` lists."""
        parts = [str(self.seat)] if seat else []
        parts.append(self.verb.value)
        parts.extend(card.code for card in self.cards)
        if self.color is not None:
            parts.append(self.color.label)
        if self.target is not None:
            parts.append(str(self.target))
        if uno and self.uno:
            parts.append("uno")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Action.parse({self.text()!r})"


def _seat(word: str) -> int:
    """A seat number: ASCII digits only, no leading zero (``"²"`` and ``"٣"`` are not)."""
    if not (word.isascii() and word.isdigit()) or (len(word) > 1 and word[0] == "0") \
            or len(word) > 3:
        raise InvalidActionError(f"{word!r} is not a seat number")
    return int(word)


def _arity(verb: Verb, args: list[str], n: int, what: str) -> None:
    if len(args) != n:
        raise InvalidActionError(f"'{verb}' takes {what}, got {' '.join(args) or 'nothing'!r}")


def _play(seat: int, args: list[str], rules: RuleSet) -> Action:
    """``play CARD... [COLOUR] [SEAT] [uno]``: the rule set says what a card must name."""
    uno = bool(args) and args[-1] == "uno"
    if uno:
        args = args[:-1]
    cards: list[Card] = []
    rest = list(args)
    while rest and rest[0].lower() not in COLOR_WORDS and not rest[0].isdigit():
        cards.append(rules.parse_card(rest.pop(0)))
    if not cards:
        raise InvalidActionError("'play' needs a card")
    color = Color.parse(rest.pop(0)) if rest and rest[0].lower() in COLOR_WORDS else None
    target = _seat(rest.pop(0)) if rest else None
    if rest:
        raise InvalidActionError(f"unexpected {' '.join(rest)!r} after the play")
    kinds = [rules.kind(card) for card in cards]
    first = cards[0].code
    if any(kind.wild for kind in kinds):
        if color is None:
            raise InvalidActionError(f"a wild card names a colour as it is played, as in "
                                     f"'play {first} green'")
    elif color is not None:
        raise InvalidActionError(f"{first} is not a wild card and names no colour")
    if kinds[0].names_seat and target is None:
        raise InvalidActionError(f"a {kinds[0].name} names a seat, as in 'play {first} 2'")
    return Action.play(seat, cards, color, target, uno=uno)
