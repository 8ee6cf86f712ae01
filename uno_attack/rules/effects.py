"""The effects cards have, as small functions the rule sets put into their kinds.

Each effect receives the round and acts through a few plain means: ``turn``,
``direction``, ``next_seat``, ``owe`` and the hands. An effect of ``n`` cards played at
once adds up (VARIANTS.md B3). Which kind has which effect is the rule set's data
(:mod:`uno_attack.rules.attack`, :mod:`uno_attack.rules.classic`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from uno_attack.cards import Card, Color
from uno_attack.penalties import FIRE, Cause, Count, Owed, Why
from uno_attack.rules.base import Effect, Kind, Moves, RuleSet, StarterEffect

if TYPE_CHECKING:
    from uno_attack.actions import Action
    from uno_attack.engine import Round


# -- as a play --------------------------------------------------------------------------
def skip(game: Round, seat: int, action: Action, n: int) -> Moves:
    """The next ``n`` players lose their turn (two players: the same player again)."""
    if game.players == 2:
        game.turn = seat
        return Moves(skipped=(game.next_seat(seat),))
    game.turn = game.next_seat(seat, n + 1)
    return Moves(skipped=tuple(game.next_seat(seat, i) for i in range(1, n + 1)))


def reverse(game: Round, seat: int, action: Action, n: int) -> None:
    """The direction flips ``n`` times; the next player in it plays (two players: the
    same player plays again)."""
    if n % 2:
        game.direction = -game.direction
    game.turn = seat if game.players == 2 else game.next_seat(seat)


def draw_card(amount: int) -> Effect:
    """A Draw card: the next player owes ``amount`` presses or draws per card and loses
    the turn (Hit 2, Draw Two, Wild Draw Four). A partial of a module function, not a
    closure, so that a round can be pickled (a bot thinks in a process of its own)."""
    return partial(_draw_card, amount)


def _draw_card(amount: int, game: Round, seat: int, action: Action, n: int) -> None:
    victim = game.next_seat(seat)
    cards = action.cards
    stack = tuple((card, seat) for card in cards[:-1])  # n Draw cards at once (B3)
    game.owe(victim, amount * n, Cause(Why.CARD, cards[-1], seat, stack=stack),
             answerable=True)
    game.turn = game.next_seat(victim)


def all_hit(game: Round, seat: int, action: Action, n: int) -> None:
    """Every other player presses once, from the next player on; then the next plays."""
    cause = Cause(Why.CARD, action.cards[-1], seat)
    for step in range(1, game.players):
        game.owe(game.next_seat(seat, step), 1, cause)
    game.turn = game.next_seat(seat)


def hit_fire(game: Round, seat: int, action: Action, n: int) -> None:
    """The next player presses until a card fires and loses the turn."""
    victim = game.next_seat(seat)
    game.owe(victim, FIRE, Cause(Why.CARD, action.cards[-1], seat))
    game.turn = game.next_seat(victim)


def trade(game: Round, seat: int, action: Action, n: int) -> Moves:
    """Exchange hands with the seat named (Trade Hands; a 7 under ``seven_zero``)."""
    target = action.target
    assert target is not None
    hands = game.hands
    hands[seat], hands[target] = hands[target], hands[seat]
    game.turn = game.next_seat(seat)
    return Moves(hands=((seat, target), (target, seat)))


def rotate(game: Round, seat: int, action: Action, n: int) -> Moves:
    """Every player passes their hand to the next player in the current direction."""
    hands = game.hands
    moved = [(s, game.next_seat(s)) for s in range(game.players)]
    passed = list(hands)
    for giver, taker in moved:
        hands[taker] = passed[giver]
    game.turn = game.next_seat(seat)
    return Moves(hands=tuple(moved))


# -- as a starter (RULES.md 3, VARIANTS.md A3) ---------------------------------------------
def skip_starter(game: Round, left: int) -> Moves:
    game.turn = game.next_seat(left)
    return Moves(skipped=(left,))


def reverse_starter(game: Round, left: int) -> None:
    game.direction = -1
    game.turn = game.dealer


def draw_starter(amount: Count) -> StarterEffect:
    """The player left of the dealer owes ``amount`` and loses the turn (a partial, as
    :func:`draw_card`'s)."""
    return partial(_draw_starter, amount)


def _draw_starter(amount: Count, game: Round, left: int) -> None:
    game.owe(left, amount, Cause(Why.STARTER, game.top))
    game.turn = game.next_seat(left)


def all_hit_starter(game: Round, left: int) -> None:
    """Every player but the dealer presses once, clockwise from the dealer's left."""
    cause = Cause(Why.STARTER, game.top)
    for step in range(game.players):
        seat = (left + step) % game.players
        if seat != game.dealer:
            game.owe(seat, 1, cause)


# -- answering a penalty (VARIANTS.md B6) ---------------------------------------------------
def deflect_skip(game: Round, seat: int, owed: Owed) -> None:
    """The penalty passes unchanged to the next player after the deflector."""
    game.pass_penalty(owed, game.next_seat(seat))


def deflect_reverse(game: Round, seat: int, owed: Owed) -> None:
    """The direction flips; the penalty passes to the next player in the new direction."""
    game.direction = -game.direction
    game.pass_penalty(owed, game.next_seat(seat))


# -- house rules that change a kind ---------------------------------------------------------
def seven_zero(kinds: Mapping[str, Kind]) -> dict[str, Kind]:
    """VARIANTS.md B4: a 7 swaps hands with the seat it names (as Trade Hands), a 0 passes
    every hand on; both are played alone, and as a last card only end the round."""
    changed: dict[str, Kind] = {}
    if "7" in kinds:
        changed["7"] = replace(kinds["7"], names_seat=True, multi=None, play=trade)
    if "0" in kinds:
        changed["0"] = replace(kinds["0"], multi=None, play=rotate)
    return changed


# -- laid down with a card, and fairness ------------------------------------------------------
def same_colour(rules: RuleSet, hand: Sequence[Card], card: Card) -> list[Card]:
    """Discard All: every other card of its colour, in canonical order (RULES.md 5)."""
    return rules.sort(c for c in hand if c.color is card.color)


def holds_no_current_colour(hand: Sequence[Card], color: Color | None) -> bool:
    """A Wild Draw Four is fair when its player holds no card of the current colour
    (VARIANTS.md A5: wilds and cards that merely match the symbol do not count)."""
    return not any(card.color is color for card in hand)
