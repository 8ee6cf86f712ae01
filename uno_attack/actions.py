"""Actions: what a seat does, as a value that goes to text and back.

``Action.parse("1 play W green uno")`` / ``str(action)`` use the form of TRANSCRIPTS.md:
``SEAT VERB [ARGS]``. Whether an action is *legal* is the engine's business; this module
only knows whether it is *well formed*.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from uno_attack.cards import TRADE_HANDS, Card, Color
from uno_attack.errors import InvalidActionError, InvalidCardError


class Verb(Enum):
    PLAY = "play"
    PRESS = "press"
    PASS = "pass"
    CHOOSE = "choose"
    UNO = "uno"
    CATCH = "catch"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Action:
    """One action by one seat.

    ``card`` goes with ``play``; ``color`` with playing a wild or ``choose``; ``target``
    with playing a Trade Hands (the seat traded with) or ``catch`` (the seat caught);
    ``uno`` is a call of UNO made together with a play.
    """

    seat: int
    verb: Verb
    card: Card | None = None
    color: Color | None = None
    target: int | None = None
    uno: bool = False

    # -- constructors ---------------------------------------------------------------
    @classmethod
    def play(cls, seat: int, card: Card, color: Color | None = None,
             target: int | None = None, *, uno: bool = False) -> Action:
        return cls(seat, Verb.PLAY, card, color, target, uno)

    @classmethod
    def press(cls, seat: int) -> Action:
        return cls(seat, Verb.PRESS)

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

    def with_uno(self) -> Action:
        """The same play, with UNO called together with it."""
        if self.verb is not Verb.PLAY:
            raise InvalidActionError(f"invalid action '{self} uno': only a play takes 'uno'")
        return Action(self.seat, self.verb, self.card, self.color, self.target, True)

    def for_seat(self, seat: int) -> Action:
        return Action(seat, self.verb, self.card, self.color, self.target, self.uno)

    # -- text -----------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``"SEAT VERB [ARGS]"``; raise :class:`InvalidActionError` naming the text."""
        words = text.split() if isinstance(text, str) else None
        if not words or len(words) < 2:
            raise InvalidActionError(f"invalid action: {text!r} (expected 'SEAT VERB [ARGS]')")
        seat = _seat(words[0], text)
        try:
            return cls.parse_move(" ".join(words[1:]), seat)
        except InvalidActionError as exc:
            raise InvalidActionError(f"invalid action: {text!r}: {exc.args[0]}") from None

    @classmethod
    def parse_move(cls, text: str, seat: int) -> Action:
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
        uno = False
        if verb is Verb.PLAY and args and args[-1] == "uno":
            uno, args = True, args[:-1]
        try:
            return _build(seat, verb, args, uno, text)
        except InvalidCardError as exc:
            raise InvalidActionError(str(exc)) from None

    def text(self, *, seat: bool = True, uno: bool = True) -> str:
        """The action as text; without the seat and the ``uno`` suffix for ``legal`` lists."""
        parts = [str(self.seat)] if seat else []
        parts.append(self.verb.value)
        if self.card is not None:
            parts.append(self.card.code)
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


def _seat(word: str, text: str) -> int:
    if not word.isdigit() or (len(word) > 1 and word[0] == "0"):
        raise InvalidActionError(f"invalid action: {text!r}: {word!r} is not a seat number")
    return int(word)


def _build(seat: int, verb: Verb, args: list[str], uno: bool, text: str) -> Action:
    def arity(n: int, what: str) -> None:
        if len(args) != n:
            raise InvalidActionError(f"'{verb}' takes {what}, got {' '.join(args) or 'nothing'!r}")

    if verb is Verb.PLAY:
        if not args:
            raise InvalidActionError("'play' needs a card")
        card = Card.parse(args[0])
        if card.is_wild:
            arity(2, "a wild card and a colour, as in 'play W green'")
            return Action.play(seat, card, Color.parse(args[1]), uno=uno)
        if card.symbol == TRADE_HANDS:
            arity(2, "a Trade Hands and a seat, as in 'play RT 2'")
            return Action.play(seat, card, target=_seat(args[1], text), uno=uno)
        arity(1, "one card")
        return Action.play(seat, card, uno=uno)
    if verb is Verb.CHOOSE:
        arity(1, "a colour")
        return Action.choose(seat, Color.parse(args[0]))
    if verb is Verb.CATCH:
        arity(1, "a seat")
        return Action.catch(seat, _seat(args[0], text))
    arity(0, "no arguments")
    return Action(seat, verb)
