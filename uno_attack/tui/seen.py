"""What a table screen shows: one seat's ``view`` of NETWORK.md (the same for a game at
this terminal and a hosted one), and the few facts only this front end has.

The screens read a :class:`Seen` and nothing else: the hand, the top card, whose turn it
is, what is owed and why, and the actions the seat may take now (its ``legal``). What a
card needs when played (a colour, a seat) is the rule set's answer, for the options the
``hello`` names; whether a move is allowed is always the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from uno_attack.actions import Action, Verb
from uno_attack.cards import Card, Color
from uno_attack.options import Options
from uno_attack.rules import RuleSet, rule_set
from uno_attack.rules.base import Kind
from uno_attack.store import Level
from uno_attack.views import Hello, PromptJSON, Revealed, View

Message = Mapping[str, Any]


@dataclass(frozen=True)
class Rules:
    """The rule set of a table and its cards' kinds under its options, read once from a
    ``hello``."""

    options: Options
    rules: RuleSet
    kinds: Mapping[Card, Kind]

    @classmethod
    def of(cls, hello: Message) -> Rules:
        options = Options.from_mapping(hello.get("options") or {}, where="the host's options")
        rules = rule_set(options.rules)
        return cls(options, rules, rules.kinds_for(options))


@dataclass(frozen=True)
class Seen:
    """The table as this screen shows it now.

    ``seat`` is whose hand and ``legal`` the view holds (``None``: watching, or nobody
    holds the keyboard yet); ``people`` the seats this keyboard acts for (hot-seat: every
    person at it); ``hidden`` that the hand must not show now (hot-seat: not their turn);
    ``handoff`` the person who must take the keyboard first; ``prompt`` a launcher
    problem this screen answers; ``note`` a line about the connection or the save.
    ``actions`` are the view's ``legal`` as values, from the controller (the engine's
    here; a host's, read where its view arrives), so no screen reads an action from text.
    """

    hello: Hello
    view: View
    rules: Rules
    seat: int | None
    people: tuple[int, ...] = ()
    hidden: bool = False
    handoff: str | None = None
    prompt: PromptJSON | None = None
    levels: Mapping[str, Level] = field(default_factory=dict)
    note: str = ""
    watching: str = "watching: no hand"  # the hand's title without a seat to show
    actions: tuple[Action, ...] = ()

    # -- the table ----------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return list(self.hello["players"])

    def name(self, seat: int) -> str:
        names = self.names
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    @property
    def turn(self) -> int | None:
        return self.view.get("turn")

    @property
    def step(self) -> tuple[int, int]:
        """(round, actions so far): two views with the same step show the same game."""
        return (int(self.view.get("round", 1)), int(self.view.get("step", 0)))

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def scored(self) -> bool:
        return self.view.get("round_points") is not None

    @property
    def top(self) -> Card:
        return Card.parse(self.view["top"])

    @property
    def color(self) -> Color | None:
        label = self.view.get("color")
        return Color.parse(label) if label else None

    @property
    def take_verb(self) -> str:
        """``press`` (the launcher) or ``draw`` (the classic pile)."""
        return str(self.rules.rules.unit)

    def card_name(self, card: Card) -> str:
        return self.rules.rules.card_name(card)

    def kind(self, card: Card) -> Kind:
        return self.rules.kinds[card]

    # -- this seat --------------------------------------------------------------------
    @cached_property
    def hand(self) -> tuple[Card, ...]:
        return tuple(Card.parse(code) for code in self.view.get("hand") or ())

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.turn and not self.hidden

    @property
    def open_turn(self) -> bool:
        """This seat's turn, free to play or take as it likes: nothing owed, no colour
        to name, not after a press or draw (the only time several cards go at once, B3)."""
        owed = self.owed()
        return self.my_turn and self.view.get("phase") == "play" and not (
            owed and owed[0][0] == self.turn)

    @cached_property
    def legal(self) -> tuple[Action, ...]:
        """The seat's legal actions now (while the hand is hidden, only UNO calls and
        catches)."""
        if self.seat is None:
            return ()
        if not self.hidden:
            return self.actions
        return tuple(a for a in self.actions if a.verb in (Verb.UNO, Verb.CATCH))

    def listed(self, verb: Verb) -> list[Action]:
        return [a for a in self.legal if a.verb is verb]

    def plays_of(self, cards: tuple[Card, ...]) -> list[Action]:
        """The listed plays of exactly these cards (each way to name a colour or seat)."""
        return [a for a in self.legal if a.verb is Verb.PLAY and a.cards == cards]

    @cached_property
    def playable(self) -> frozenset[Card]:
        """Cards of the hand the seat may play alone now (on its turn or jumping in)."""
        return frozenset(a.cards[0] for a in self.legal if a.verb is Verb.PLAY)

    @property
    def jump_ins(self) -> list[Action]:
        """Plays listed while it is not this seat's turn: jumping in (VARIANTS.md B2)."""
        return [] if self.my_turn else self.listed(Verb.PLAY)

    @property
    def revealed(self) -> Revealed | None:
        """A challenged hand shown to this seat (the challenger), until the next action."""
        return self.view.get("revealed")

    def owed(self) -> list[tuple[int, str, str]]:
        """(seat, what, why) of each owed penalty: ``(1, "4 draws", "two Draw Twos
        stacked (Ann, Cleo)")``."""
        what = self.view.get("owed_what") or []
        why = self.view.get("owed_why") or []
        return [(int(seat), what[i] if i < len(what) else str(count),
                 why[i] if i < len(why) else "")
                for i, (seat, count) in enumerate(self.view.get("owed") or [])]
