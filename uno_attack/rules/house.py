"""The house rules (RULES.md 9, VARIANTS.md B) as hooks the engine calls.

In the manner of python-chess's ``chess/variant.py``, where a variant overrides a few
methods of the board, each house rule here is one class that overrides the few hooks it
needs of :class:`HouseRule`, and names the option that turns it on. The engine knows no
option: at set-up it asks :func:`house_for` for the rules the options make active, and
calls their hooks in a fixed order (the order of :data:`HOUSE_RULES`). Whether
:meth:`~uno_attack.engine.Round.legal_actions` may take its fast path is computed from the
rules too (:attr:`HouseRule.restricts_play`), so a new rule cannot forget it.

The hooks:

- ``adapt_kinds(rules, kinds)``: change card kinds in place (a 7 that names a seat, a card
  that may not end a hand).
- ``take_refusal(game, seat)``, ``pass_refusal(game)``, ``card_refusal(game, seat, card,
  kind)``: a refusal of a press or draw, of a pass, of a card played (``None``: allowed).
- ``before_take(game, seat)`` and ``follow_take(game, seat, arrived, nothing_to_load,
  before)``: what follows a press or draw that pays no penalty (``True``: the rule has
  set the phase and turn). The first active rule that has it decides.
- ``mark_play(game, seat, card, kind)``: what a play records (a Wild Draw Four's bluff).
- ``after_play(game, seat, kind)``: what a play leaves open (a number to go out on).
- ``calls(game, seat)``: moves any seat may make at that moment (``out``).
- Rules with moves of their own (answering a penalty, jumping in, several cards at once,
  false calls) are also found by the engine under their names (:class:`House`).

Adding a house rule: its option (a field of :class:`~uno_attack.options.Options`, whose
help line the rule set's help shows), its class here overriding the hooks it needs and
listed in :data:`HOUSE_RULES`, and its transcripts. See docs/engine.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from uno_attack.actions import Action
from uno_attack.penalties import Challenge
from uno_attack.phase import Phase
from uno_attack.refusal import OWES, Refusal
from uno_attack.rules import effects
from uno_attack.rules.base import Kind, RuleSet

if TYPE_CHECKING:
    from uno_attack.cards import Card
    from uno_attack.engine import Round
    from uno_attack.options import Options
    from uno_attack.penalties import Owed


_PLAYING, _AFTER, _CHAIN = Phase.PLAY, Phase.AFTER, Phase.CHAIN


class HouseRule:
    """One house rule: the option that turns it on and the hooks it overrides."""

    #: The option (a field of :class:`~uno_attack.options.Options`) this rule reads.
    option: ClassVar[str]
    #: Whether the rule, when active, changes what the seat in turn may do in the play
    #: phase (so :meth:`Round.legal_actions` may not take its fast path).
    restricts_play: ClassVar[bool] = False

    def __init__(self, value: Any) -> None:
        self.value = value

    @classmethod
    def active(cls, value: Any, default: Any) -> bool:
        """Whether the option's value turns the rule on (most: any value but the default)."""
        return bool(value != default)

    # -- hooks (overridden by the rules that need them) ------------------------------
    def adapt_kinds(self, rules: RuleSet, kinds: dict[str, Kind]) -> None:
        raise NotImplementedError

    def take_refusal(self, game: Round, seat: int) -> Refusal | None:
        raise NotImplementedError

    def pass_refusal(self, game: Round) -> Refusal | None:
        raise NotImplementedError

    def card_refusal(self, game: Round, seat: int, card: Card, kind: Kind) -> Refusal | None:
        raise NotImplementedError

    def before_take(self, game: Round, seat: int) -> bool:
        raise NotImplementedError

    def follow_take(self, game: Round, seat: int, arrived: tuple[Card, ...],
                    nothing_to_load: bool, before: bool) -> bool:
        raise NotImplementedError

    def mark_play(self, game: Round, seat: int, card: Card, kind: Kind) -> Challenge | None:
        raise NotImplementedError

    def after_play(self, game: Round, seat: int, kind: Kind) -> None:
        raise NotImplementedError

    def calls(self, game: Round, seat: int) -> list[Action]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.option}={self.value!r}>"


def _overrides(rule: HouseRule, hook: str) -> bool:
    return getattr(type(rule), hook) is not getattr(HouseRule, hook)


# -- card kinds ------------------------------------------------------------------------
class TradeHandsLast(HouseRule):
    """``trade_hands_last`` (RULES.md 9): Trade Hands may be the last card."""

    option = "trade_hands_last"

    def adapt_kinds(self, rules: RuleSet, kinds: dict[str, Kind]) -> None:
        if "T" in kinds:
            kinds["T"] = replace(kinds["T"], end_refusal=None)


class SevenZero(HouseRule):
    """``seven_zero`` (B4): a 7 trades hands with a seat it names, a 0 passes hands on."""

    option = "seven_zero"

    def adapt_kinds(self, rules: RuleSet, kinds: dict[str, Kind]) -> None:
        kinds.update(effects.seven_zero(kinds))


class LastCard(HouseRule):
    """``last_card = no_action`` (B7): a last play is a number or makes others take."""

    option = "last_card"
    restricts_play = True

    def adapt_kinds(self, rules: RuleSet, kinds: dict[str, Kind]) -> None:
        for symbol, kind in kinds.items():
            if kind.number is None and not kind.hits:
                kinds[symbol] = replace(kind, end_refusal=Refusal(
                    "with last_card = no_action a last play may not include a {0} ({rule})",
                    "VARIANTS.md B7", words=(kind.name,)))


# -- answering a penalty -----------------------------------------------------------------
class Answer(HouseRule):
    """A rule that lets the seat owing a Draw card's penalty answer it with a card."""

    #: The refusal of such a play while the rule is off (after what the seat owes).
    off: ClassVar[Refusal]

    @staticmethod
    def answers(kind: Kind) -> bool:
        raise NotImplementedError

    def refusal(self, game: Round, head: Owed, card: Card, kind: Kind,
                on: Kind) -> Refusal | None:
        """Why ``card`` (of ``kind``) may not answer ``head``, owed for a card of ``on``."""
        raise NotImplementedError


class Stacking(Answer):
    """``stacking`` (B1): a Draw card on a Draw card; the next player owes the sum."""

    option = "stacking"
    off = Refusal("stacking is off ({rule})", "VARIANTS.md B1")

    @staticmethod
    def answers(kind: Kind) -> bool:
        return kind.penalty is not None

    def refusal(self, game: Round, head: Owed, card: Card, kind: Kind,
                on: Kind) -> Refusal | None:
        if card.symbol not in on.stackers.get(self.value, ()):
            return Refusal(OWES + "a {1} does not stack on a {2} with stacking = {3} ({rule})",
                           "VARIANTS.md B1", (head.seat,),
                           (head.describe(), kind.name, on.name, self.value))
        return None


class Deflect(Answer):
    """``deflect`` (B6): a Skip or Reverse passes a Draw card's penalty on."""

    option = "deflect"
    off = Refusal("deflecting is off ({rule})", "VARIANTS.md B6")

    @staticmethod
    def answers(kind: Kind) -> bool:
        return kind.deflects

    def refusal(self, game: Round, head: Owed, card: Card, kind: Kind,
                on: Kind) -> Refusal | None:
        if not on.wild and card not in game.matching_now():
            return Refusal(OWES + "a deflecting {1} must match the top card {2} ({rule})",
                           "VARIANTS.md B6, E7", (head.seat,),
                           (head.describe(), kind.name, game.top))
        return None


# -- out of turn and several cards -------------------------------------------------------
class JumpIn(HouseRule):
    """``jump_in`` (B2): the card identical to the top card, played out of turn."""

    option = "jump_in"
    #: The refusal of a jump-in while a penalty is owed (after what is owed).
    owed_refusal = Refusal("no jump-in while a penalty is owed ({rule})", "VARIANTS.md B2")

    def open(self, game: Round) -> bool:
        """Whether another seat than the one in turn holds the top card to jump in with."""
        if game.phase is not _PLAYING or game.owed:
            return False
        top = game.discard[-1]
        return top.color is not None and any(
            top in hand for seat, hand in enumerate(game.hands) if seat != game.turn)

    def plays(self, game: Round, seat: int) -> list[Action]:
        """The jump-ins of a seat that is not in turn."""
        if game.phase is not _PLAYING or game.owed:
            return []
        top = game.discard[-1]
        if top not in game.hands[seat]:
            return []
        return game.candidates(seat, (top,), lambda action: self.refusal(game, action))

    def refusal(self, game: Round, action: Action) -> Refusal | None:
        seat, cards = action.seat, action.cards
        if game.phase is not _PLAYING:
            return Refusal("no jump-in after a {0}: the round waits for {seat[0]:'s} play "
                           "({rule})", "VARIANTS.md B2", (game.turn,), (game.take_verb,))
        if len(cards) > 1:
            return _ONE_CARD_JUMPS_IN
        card = cards[0]
        if card not in game.hands[seat]:
            return game.not_held(seat, card)
        top = game.discard[-1]
        if card is not top or card.color is None:
            return Refusal("only a card identical to the top card {0} may jump in, never a "
                           "wild ({rule})", "VARIANTS.md B2", words=(top,))
        if self.value == "numbers" and game.kind(card).number is None:
            return _NUMBERS_JUMP_IN
        return game.play_refusal_of(action, card, 1)


class MultiPlay(HouseRule):
    """``multi_play`` (B3): several cards of one symbol at once."""

    option = "multi_play"

    def refusal(self, game: Round, action: Action) -> Refusal | None:
        seat, cards = action.seat, action.cards
        mode = self.value
        if game.phase is not _PLAYING:
            return Refusal("several cards may not be played after a {0} ({rule})",
                           "VARIANTS.md B3", words=(game.take_verb,))
        kind = game.kind(cards[0])
        if any(card.symbol != cards[0].symbol for card in cards):
            return Refusal("the cards of one play must all have one symbol ({rule})",
                           "VARIANTS.md B3")
        if kind.multi is None or (mode == "numbers" and kind.multi != "numbers"):
            alone = "number cards only" if mode == "numbers" else "not this kind"
            return Refusal("a {0} is played alone ({rule})",
                           f"multi_play = {mode}: {alone}, VARIANTS.md B3", words=(kind.name,))
        missing = Counter(cards) - Counter(game.hands[seat])
        if missing:
            return game.not_held(seat, " ".join(c.code for c in missing.elements()))
        first = cards[0]
        if first not in game.matching_now():
            return Refusal("the first card listed must be playable by itself, and {0} does not "
                           "match the top card {1} ({rule})", "VARIANTS.md B3",
                           words=(first, game.top))
        return game.play_refusal_of(action, first, len(cards))


# -- what follows a press or draw ------------------------------------------------------------
class UntilPlayable(HouseRule):
    """``until_playable`` (B5, E18): press or draw on until a playable card arrives."""

    option = "until_playable"
    #: The rule that lets a card that arrived be played, as refusals cite it.
    after_rule = "until_playable, VARIANTS.md B5"

    def before_take(self, game: Round, seat: int) -> bool:
        return True

    def follow_take(self, game: Round, seat: int, arrived: tuple[Card, ...],
                    nothing_to_load: bool, before: bool) -> bool:
        """Play what came if it can be played; else take again, unless the stock had
        nothing left to load."""
        if any(game.playable(seat, c) for c in arrived):
            game.phase = _AFTER
            game.arrived = arrived
        elif nothing_to_load:
            game.phase = _PLAYING
            game.arrived = ()
            game.turn = game.next_seat(seat)
        else:
            game.phase = _CHAIN
            game.arrived = ()
        return True

    def pass_refusal(self, game: Round) -> Refusal | None:
        return _UNTIL_PLAYABLE_PLAYS


class PlayAfterPress(HouseRule):
    """``play_after_press`` (RULES.md 9): with no playable card before pressing, a playable
    card just fired may be played (or pass)."""

    option = "play_after_press"

    def before_take(self, game: Round, seat: int) -> bool:
        """Whether the press may be followed by a play: a turn's press, nothing owed, and
        no playable card in hand before it."""
        return game.phase is _PLAYING and not game.owed and not game.has_playable(seat)

    def follow_take(self, game: Round, seat: int, arrived: tuple[Card, ...],
                    nothing_to_load: bool, before: bool) -> bool:
        if before and any(game.playable(seat, c) for c in arrived):
            game.phase = _AFTER
            game.arrived = arrived
            return True
        return False


class ForcedPlay(HouseRule):
    """``forced_play`` (B13, E17): a player holding a playable card must play one."""

    option = "forced_play"
    restricts_play = True

    def take_refusal(self, game: Round, seat: int) -> Refusal | None:
        if game.phase is _PLAYING and game.has_playable(seat):
            return Refusal("with forced_play a player holding a playable card must play one, "
                           "not {0} ({rule})", "VARIANTS.md B13", words=(game.take_verb,))
        return None

    def pass_refusal(self, game: Round) -> Refusal | None:
        return _FORCED_PLAY_PLAYS


# -- the Wild Draw Four (classic) ------------------------------------------------------------
class WildDrawFour(HouseRule):
    """``wild_draw_four`` (A5, B14): ``challenge`` records whether a Wild Draw Four was a
    bluff, ``fair_only`` refuses an unfair one, ``free`` does neither."""

    option = "wild_draw_four"
    restricts_play = False  # set per value in __init__

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.restricts_play = value == "fair_only"  # type: ignore[misc]

    @classmethod
    def active(cls, value: object, default: Any) -> bool:
        return value != "free"

    def mark_play(self, game: Round, seat: int, card: Card, kind: Kind) -> Challenge | None:
        if self.value != "challenge" or kind.fair is None:
            return None
        hand = game.hands[seat]
        return Challenge(seat, not kind.fair([c for c in hand if c is not card], game.color))

    def card_refusal(self, game: Round, seat: int, card: Card, kind: Kind) -> Refusal | None:
        if kind.fair is not None and self.value == "fair_only" and \
                not kind.fair([c for c in game.hands[seat] if c is not card], game.color):
            return Refusal("with wild_draw_four = fair_only a {0} may only be played with no "
                           "card of the current colour ({1}) in hand ({rule})",
                           "VARIANTS.md B14", words=(kind.name, game.color))
        return None


# -- UNO calls and going out -----------------------------------------------------------------
class UnoPenalty(HouseRule):
    """``uno_penalty`` (B8): what a player caught owes (always in play: 2 by default)."""

    option = "uno_penalty"

    @classmethod
    def active(cls, value: Any, default: Any) -> bool:
        return True


class FalseUno(HouseRule):
    """``false_uno_penalty`` (B8): UNO may be called at any time; a false call costs this."""

    option = "false_uno_penalty"
    restricts_play = True


class FalseCatch(HouseRule):
    """``false_catch_penalty`` (B8): any seat may be caught; a false catch costs this."""

    option = "false_catch_penalty"
    restricts_play = True


class SumOut(HouseRule):
    """``sum_out`` (B9): go out when your number cards add up to the number just played."""

    option = "sum_out"
    restricts_play = True

    def after_play(self, game: Round, seat: int, kind: Kind) -> None:
        if kind.number is not None:
            game.out_value, game.out_by = kind.number, seat

    def calls(self, game: Round, seat: int) -> list[Action]:
        if game.out_value is not None and self.refusal(game, seat) is None:
            return [Action.out(seat)]
        return []

    def refusal(self, game: Round, seat: int) -> Refusal | None:
        value = game.out_value
        if value is None or game.winner is not None:
            return Refusal("one may go out only right after a number card is played, until "
                           "the next action ({rule})", "VARIANTS.md B9")
        if seat == game.out_by:
            return Refusal("the player of the number cannot go out on it ({rule})",
                           "VARIANTS.md B9")
        hand = game.hands[seat]
        numbers = [game.kind(card).number for card in hand]
        if not hand or None in numbers or sum(numbers) != value:  # type: ignore[arg-type]
            return Refusal("{seat[0]:'s} hand is not number cards adding up to {0} ({rule})",
                           "VARIANTS.md B9", (seat,), (value,))
        return None


#: Refusals that name no seat and need no word, made once.
_ONE_CARD_JUMPS_IN = Refusal("a jump-in is one card ({rule})", "VARIANTS.md B3")
_NUMBERS_JUMP_IN = Refusal("with jump_in = numbers only a number card may jump in ({rule})",
                           "VARIANTS.md B2")
_UNTIL_PLAYABLE_PLAYS = Refusal("with until_playable the playable card that arrived must be "
                                "played ({rule})", "VARIANTS.md B5")
_FORCED_PLAY_PLAYS = Refusal("with forced_play a playable card that just arrived must be "
                             "played ({rule})", "VARIANTS.md E17")

#: Every house rule the engine knows, in the order their hooks are called.
HOUSE_RULES: tuple[type[HouseRule], ...] = (
    TradeHandsLast, SevenZero, LastCard, Stacking, Deflect, JumpIn, MultiPlay,
    UntilPlayable, PlayAfterPress, ForcedPlay, WildDrawFour, UnoPenalty, FalseUno,
    FalseCatch, SumOut,
)

Hook = Callable[..., Any]


@dataclass(frozen=True, eq=False)
class House:
    """The active house rules of one game, with their hooks gathered for the engine."""

    rules: tuple[HouseRule, ...]
    #: Whether :meth:`Round.legal_actions` may take its fast path in the play phase.
    fast_play: bool
    take_refusals: tuple[Hook, ...]
    pass_refusals: tuple[Hook, ...]
    card_refusals: tuple[Hook, ...]
    #: ``(before_take, follow_take)`` of the first active rule that has them, or ``None``.
    follow_take: tuple[Hook, Hook] | None
    mark_play: Hook | None
    after_plays: tuple[Hook, ...]
    calls: tuple[Hook, ...]
    #: Every answering rule (B1, B6) with its active instance, or ``None`` while off.
    answers: tuple[tuple[type[Answer], Answer | None], ...]
    answering: bool
    jump_in: JumpIn | None
    multi_play: MultiPlay | None
    sum_out: SumOut | None
    #: What a caught player owes; what a false UNO call and a false catch cost (0: refused).
    uno_penalty: int
    false_uno_penalty: int
    false_catch_penalty: int
    #: The rule a refusal cites for playing a card that arrived, if a house rule's.
    after_rule: str | None

    def find(self, rule: type[HouseRule]) -> Any:
        """The active rule of this class, or ``None``."""
        return next((r for r in self.rules if type(r) is rule), None)


def _hooks(rules: tuple[HouseRule, ...], hook: str) -> tuple[Hook, ...]:
    return tuple(getattr(rule, hook) for rule in rules if _overrides(rule, hook))


@cache
def house_for(options: Options) -> House:
    """The house rules these options make active, in :data:`HOUSE_RULES` order."""
    from uno_attack.options import OPTION_SPECS

    rules = tuple(
        rule(getattr(options, rule.option)) for rule in HOUSE_RULES
        if rule.active(getattr(options, rule.option), OPTION_SPECS[rule.option].default))

    def find(cls: type[HouseRule]) -> Any:
        return next((r for r in rules if type(r) is cls), None)

    followers = [rule for rule in rules if _overrides(rule, "follow_take")]
    marks = _hooks(rules, "mark_play")
    until = find(UntilPlayable)
    false_uno, false_catch = find(FalseUno), find(FalseCatch)
    answers = tuple((cls, find(cls)) for cls in HOUSE_RULES if issubclass(cls, Answer))
    return House(
        rules=rules,
        fast_play=not any(rule.restricts_play for rule in rules),
        take_refusals=_hooks(rules, "take_refusal"),
        pass_refusals=_hooks(rules, "pass_refusal"),
        card_refusals=_hooks(rules, "card_refusal"),
        follow_take=(followers[0].before_take, followers[0].follow_take) if followers
        else None,
        mark_play=marks[0] if marks else None,
        after_plays=_hooks(rules, "after_play"),
        calls=_hooks(rules, "calls"),
        answers=answers,
        answering=any(rule is not None for _, rule in answers),
        jump_in=find(JumpIn),
        multi_play=find(MultiPlay),
        sum_out=find(SumOut),
        uno_penalty=options.uno_penalty,
        false_uno_penalty=false_uno.value if false_uno else 0,
        false_catch_penalty=false_catch.value if false_catch else 0,
        after_rule=until.after_rule if until else None,
    )


def kinds_for(rules: RuleSet, options: Options) -> dict[str, Kind]:
    """The rule set's kinds by symbol, as the active house rules change them."""
    kinds = dict(rules.kinds)
    for rule in house_for(options).rules:
        if _overrides(rule, "adapt_kinds"):
            rule.adapt_kinds(rules, kinds)
    return kinds
