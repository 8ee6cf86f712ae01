"""The rules engine: one round as a pure state machine, for any rule set.

In the manner of python-chess's ``Board``: a :class:`Round` holds the state, lists the
legal actions of any seat (:meth:`Round.legal_actions`), and :meth:`Round.apply` either
performs an action and returns what happened (:class:`Applied`) or raises
:class:`IllegalActionError` naming the rule broken, and then nothing has changed (every
check, and every call of a reload's ``shuffle``, comes before the first change).
:meth:`Round.push` is the unchecked layer for self-play; it returns the same fields as a
plain tuple, which is cheaper to make.

What the cards do is the rule set's (:mod:`uno_attack.rules`): the engine asks each
card's kind for its effect as a play, a starter and a last card, and keeps the turn,
the owed penalties (:mod:`uno_attack.penalties`), the UNO window and the end of the round.
Scoring the round is the match's business (:mod:`uno_attack.scoring`).

The engine has no I/O, no clock and no randomness of its own. A press is a chance event:
the caller supplies how many cards fired (``apply(action, fired=k)``) and, if a press or a
draw reloads the launcher or pile, how to shuffle the reloaded cards (``shuffle=``;
without it they are loaded in the order they were discarded, as in a transcript).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from functools import cache
from typing import NamedTuple

from uno_attack.actions import Action, Verb
from uno_attack.cards import COLORS, Card, Color
from uno_attack.errors import IllegalActionError
from uno_attack.options import Options
from uno_attack.penalties import FIRE, Cause, Count, Owed, Unit, Why
from uno_attack.rules import ATTACK, Kind, Moves, RuleSet, rule_set

Shuffle = Callable[[list[Card]], None]


class Phase(Enum):
    """What the round waits for (owed penalties come before any of these)."""

    CHOOSE = "choose"  # the player left of the dealer names a wild starter's colour
    PLAY = "play"      # the seat whose turn it is plays, presses or draws
    AFTER = "after"    # after a press or draw: play a card that arrived, or pass
    OVER = "over"      # a hand is empty and nothing more is owed


class Applied(NamedTuple):
    """What one action did, for the table loop, a log, a screen or a network view.

    ``played``: the cards put on the discard pile, in order (a Discard All's cards before
    it). ``gained``: the cards the acting seat took by pressing or drawing. ``reloads``:
    each reload of the launcher or pile it caused, first card to fire first. ``owed``: the
    penalties owed after it. ``skipped``: seats that lost their turn to it. ``hands``: the
    hands that changed owner, as ``(from_seat, to_seat)``. ``revealed``: a challenged
    player's seat and hand, to show the challenger. ``winner`` and ``over`` as after it.
    """

    action: Action
    played: tuple[Card, ...] = ()
    gained: tuple[Card, ...] = ()
    reloads: tuple[tuple[Card, ...], ...] = ()
    owed: tuple[Owed, ...] = ()
    skipped: tuple[int, ...] = ()
    hands: tuple[tuple[int, int], ...] = ()
    revealed: tuple[int, tuple[Card, ...]] | None = None
    winner: int | None = None
    over: bool = False


#: What :meth:`Round.push` returns: the fields of :class:`Applied` as a plain tuple, in
#: order. A plain tuple costs a fraction of a named one, and self-play makes one per
#: action; ``Applied._make(raw)`` names the fields.
RawApplied = tuple[Action, tuple[Card, ...], tuple[Card, ...], tuple[tuple[Card, ...], ...],
                   tuple[Owed, ...], tuple[int, ...], tuple[tuple[int, int], ...],
                   tuple[int, tuple[Card, ...]] | None, int | None, bool]

# Looked up once for the hot paths: in CPython 3.11 ``Phase.PLAY`` costs ten times a
# module global, and self-play does it several times per action.
_PLAYING, _OVER = Phase.PLAY, Phase.OVER
_PLAY, _PRESS, _DRAW = Verb.PLAY, Verb.PRESS, Verb.DRAW
_NO_MOVES = Moves()
_PAST = {_PRESS: "pressed", _DRAW: "drawn"}
_named = tuple.__new__


def _raw(action: Action, played: tuple[Card, ...], gained: tuple[Card, ...],
         reloads: tuple[tuple[Card, ...], ...], owed: list[Owed], moves: Moves,
         winner: int | None, over: bool) -> RawApplied:
    return (action, played, gained, reloads, tuple(owed) if owed else (), moves.skipped,
            moves.hands, None, winner, over)


class Round:
    """One round: hands, stock, discard pile, turn, owed penalties, UNO window, winner.

    The **stock** is where cards are taken from: the launcher in UNO Attack, the draw
    pile in classic UNO. Build a round with :meth:`setup` (from a deal, a transcript or a
    saved game). Seats are ``0 … n-1``; clockwise is increasing seat number.
    """

    __slots__ = (
        "_kinds", "_matching", "_take", "_ways", "arrived", "color", "dealer", "direction",
        "discard", "hands", "options", "owed", "phase", "players", "rules", "stock", "turn",
        "uno_seat", "winner",
    )

    def __init__(self) -> None:  # use Round.setup()
        self.rules: RuleSet = ATTACK
        self.options = Options()
        self.players = 0
        self.dealer = 0
        self.hands: list[list[Card]] = []
        self.stock: deque[Card] = deque()
        self.discard: list[Card] = []
        self.color: Color | None = None
        self.direction = 1
        self.turn = 0
        self.owed: list[Owed] = []         # first one first; read-only outside the engine
        self.phase = Phase.PLAY
        self.arrived: tuple[Card, ...] = ()  # the cards of the last press or draw (Phase.AFTER)
        self.uno_seat: int | None = None   # seat whose UNO window is open, not yet called
        self.winner: int | None = None
        self._kinds: dict[Card, Kind] = {}
        self._matching: dict[Card, dict[Color | None, frozenset[Card]]] = {}
        self._ways: tuple[dict[Card, tuple[Action, ...]], ...] = ()  # plays per seat and card
        self._take: tuple[Action, ...] = ()  # each seat's press (or draw)

    # ------------------------------------------------------------------ set-up
    @classmethod
    def setup(
        cls,
        *,
        hands: Sequence[Sequence[Card]],
        dealer: int,
        starter: Card | Sequence[Card],
        stock: Iterable[Card],
        options: Options | None = None,
    ) -> Round:
        """A round as dealt: each seat's hand, the starter(s) turned up, the stock's cards
        (the first to be taken first). The rule set is the one ``options`` name.

        ``starter`` may list several cards turned up in order; every one but the last must
        be of a kind that is put back (Trade Hands, a classic Wild Draw Four), which goes
        to the bottom of the stock (RULES.md 3.3, VARIANTS.md A3).
        """
        game = cls()
        n = len(hands)
        if not 2 <= n <= 10:
            raise ValueError(f"a round needs 2 to 10 players, not {n}")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat of {n} players")
        starters = [starter] if isinstance(starter, Card) else list(starter)
        if not starters:
            raise ValueError("a round needs a starter card")
        game.options = options or Options()
        game.rules = rules = rule_set(game.options.rules)
        game._kinds = rules.kinds_for(game.options)
        setup_ref = rules.refs["setup"]
        for card in starters[:-1]:
            if not game._kinds[card].put_back:
                raise ValueError(f"starter {card} was followed by another starter, but only "
                                 f"a card that is put back may be ({setup_ref})")
        if game._kinds[starters[-1]].put_back:
            raise ValueError(f"the last starter {starters[-1]} must be put back and the next "
                             f"card turned ({setup_ref})")
        game.players = n
        game._matching = rules.matching
        game._ways = _seat_plays(rules, n, _seat_naming(game._kinds))
        game._take = _take_actions(rules.unit, n)
        game.dealer = dealer
        game.hands = [list(hand) for hand in hands]
        game.stock = deque(stock)
        game.stock.extend(starters[:-1])
        game.discard = [starters[-1]]
        game._start(starters[-1])
        return game

    def _start(self, starter: Card) -> None:
        """Apply the starter's effect (RULES.md 3, VARIANTS.md A3: the starter tables)."""
        left = (self.dealer + 1) % self.players
        self.turn = left
        self.color = starter.color
        kind = self._kinds[starter]
        if kind.wild:
            self.phase = Phase.CHOOSE  # its effect follows once the colour is named
        elif kind.starter is not None:
            kind.starter(self, left)

    # ------------------------------------------------------------------ what effects use
    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places on from ``seat`` in the current direction."""
        return (seat + steps * self.direction) % self.players

    def owe(self, seat: int, count: Count, cause: Cause, *, answerable: bool = False,
            first: bool = False) -> None:
        """``seat`` owes ``count`` presses or draws (the rule set's unit) for ``cause``;
        ``first``: before everything already owed (a catch, RULES.md 7)."""
        owed = Owed(seat, count, self.rules.unit, cause, answerable)
        if first:
            self.owed.insert(0, owed)
        else:
            self.owed.append(owed)

    # ------------------------------------------------------------------ queries
    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    @property
    def to_act(self) -> int | None:
        """The seat that must act next: a seat owing a penalty, else the seat whose turn it
        is; ``None`` once the round is over."""
        if self.owed:
            return self.owed[0].seat
        if self.phase is _OVER:
            return None
        return self.turn

    @property
    def take_verb(self) -> Verb:
        """How this rule set takes cards: ``press`` (Attack) or ``draw`` (classic)."""
        return _PRESS if self.rules.unit is Unit.PRESS else _DRAW

    def kind(self, card: Card) -> Kind:
        """The card's kind in this game (its options included)."""
        return self._kinds[card]

    def matches(self, card: Card) -> bool:
        """Whether ``card`` may be played on the top card (RULES.md 4)."""
        return card in self._matching[self.discard[-1]][self.color]

    def has_playable(self, seat: int) -> bool:
        """Whether ``seat`` holds a card it could play on its turn now."""
        return any(self._playable(seat, card) for card in self.hands[seat])

    def _playable(self, seat: int, card: Card) -> bool:
        """A card that may be played by itself from ``seat``'s hand on its turn."""
        if card not in self._matching[self.discard[-1]][self.color]:
            return False
        return len(self.hands[seat]) != 1 or self._kinds[card].end_refusal is None

    def hand_after(self, action: Action) -> int:
        """How many cards the acting seat will hold once this legal play and its effects
        are done (a Discard All's cards and a trade included)."""
        probe = self.copy()
        probe.push(Action.play(action.seat, action.cards, action.color, action.target))
        return len(probe.hands[action.seat])

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every one-card action ``seat`` may take now (default: the seat to act).

        The seat to act gets what a transcript's ``legal`` lists (:meth:`listed_actions`);
        any seat also gets what it may do out of turn now (call UNO, catch). A play that
        may carry an UNO call is listed once, without it.
        """
        turn = self.turn
        if self.phase is _PLAYING and not self.owed and (seat is None or seat == turn):
            # the common case first, written out flat: the hot path of self-play
            hand = self.hands[turn]
            matching = self._matching[self.discard[-1]][self.color]
            ways = self._ways[turn]
            actions: list[Action] = []
            for card in dict.fromkeys(hand):
                if card in matching:
                    actions.extend(ways[card])
            if len(hand) == 1 and actions and self._kinds[hand[0]].end_refusal is not None:
                actions = []  # a kind that may not be the last card (Trade Hands, RULES.md 4)
            actions.append(self._take[turn])
            window = self.uno_seat
            if window is not None:
                actions.append(Action.call_uno(turn) if window == turn
                               else Action.catch(turn, window))
            return actions
        to_act = self.to_act
        if to_act is None:
            return []
        if seat is None:
            seat = to_act
        actions = self._turn_actions(seat) if seat == to_act else []
        window = self.uno_seat
        if window is not None:
            actions.append(Action.call_uno(seat) if window == seat else Action.catch(seat, window))
        return actions

    def listed_actions(self) -> list[Action]:
        """What a transcript's ``legal`` lists: the one-card actions of the seat to act."""
        return self.legal_actions()

    def _turn_actions(self, seat: int) -> list[Action]:
        """The seat to act's actions other than a turn's plays (UNO and catches aside)."""
        if self.phase is Phase.CHOOSE:
            return [Action.choose(seat, color) for color in COLORS]
        if self.owed:
            return [self._take[seat]]
        if self.phase is Phase.AFTER:
            ways = self._ways[seat]
            plays = [way for card in dict.fromkeys(self.arrived) if self._playable(seat, card)
                     for way in ways[card]]
            return [*plays, Action.pass_(seat)]
        return []  # on its turn to play, the seat to act is served by legal_actions' fast path

    def is_legal(self, action: Action) -> bool:
        return self.illegal_reason(action) is None

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is not allowed now (naming the rule), or ``None`` if it is."""
        seat = action.seat
        if not 0 <= seat < self.players:
            return f"there is no seat {seat} (seats are 0…{self.players - 1})"
        shape = _shape_problem(action)
        if shape is not None:
            return shape
        to_act = self.to_act
        if to_act is None:
            return f"the round is over (seat {self.winner} went out)"
        refs = self.rules.refs
        verb = action.verb
        if verb is Verb.UNO:
            return self._uno_reason(seat)
        if verb is Verb.CATCH:
            return self._catch_reason(seat, action.target)
        if verb is Verb.CHALLENGE or verb is Verb.OUT:
            return f"'{verb}' is not a move of {self.rules.title} with these options"
        if self.phase is Phase.CHOOSE:
            if verb is not Verb.CHOOSE or seat != to_act:
                return (f"seat {to_act} must first name the colour of the wild starter "
                        f"({refs['setup']}: starter table)")
            return None
        if verb is Verb.CHOOSE:
            return f"there is no wild starter's colour to name (only at the start, {refs['setup']})"
        take = self.take_verb
        if (verb is _PRESS or verb is _DRAW) and verb is not take:
            return self._wrong_take(verb)
        if self.owed:
            head = self.owed[0]
            if seat != head.seat:
                return f"seat {head.seat} owes {head.describe()} first ({refs['effects']})"
            if verb is not take:
                return (f"seat {seat} owes {head.describe()}; penalties can't be passed on or "
                        f"answered with a card ({refs['effects']})")
            return None
        if seat != self.turn:
            return f"it is seat {self.turn}'s turn, not seat {seat}'s ({refs['turn']})"
        if verb is take:
            if self.phase is Phase.AFTER:
                return (f"seat has already {_PAST[take]} this turn: play a card that arrived, "
                        f"or pass ({self._after_rule()})")
            return None
        if verb is Verb.PASS:
            if self.phase is not Phase.AFTER:
                return (f"'pass' is only allowed after a {take}, where {self._after_rule()} "
                        "lets a card that arrived be played")
            return None
        return self._play_reason(action)

    def _wrong_take(self, verb: Verb) -> str:
        if verb is _PRESS:
            return (f"{self.rules.title} has no launcher: cards are drawn "
                    f"({self.rules.refs['take']})")
        return (f"{self.rules.title} has no draw pile: the launcher is pressed "
                f"({self.rules.refs['turn']})")

    def _after_rule(self) -> str:
        return "play_after_press, RULES.md 9"

    def _play_reason(self, action: Action) -> str | None:
        seat, cards = action.seat, action.cards
        refs = self.rules.refs
        if len(cards) > 1:
            return f"one card is played at a time ({refs['turn']})"
        card = cards[0]
        hand = self.hands[seat]
        if card not in hand:
            return f"seat {seat} does not hold {card}"
        if self.phase is Phase.AFTER and card not in self.arrived:
            return (f"after a press only a card just fired may be played, and {card} was not "
                    f"({self._after_rule()})")
        if not self.matches(card):
            return (f"{card} does not match the top card {self.top} "
                    f"(current colour {self.color}): {refs['turn']}")
        kind = self._kinds[card]
        if kind.wild:
            if action.color is None:
                return (f"a wild card names a colour as it is played: 'play {card} red' "
                        f"({refs['turn']})")
        elif action.color is not None:
            return f"{card} is not a wild card and names no colour"
        if kind.names_seat:
            target = action.target
            if target is None:
                return (f"a {kind.name} names the seat to trade with: 'play {card} 2' "
                        f"({refs['turn']})")
            if target == seat or not 0 <= target < self.players:
                return f"seat {target} is not another seat to trade with ({refs['effects']})"
        elif action.target is not None:
            return f"{card} names no seat"
        if len(hand) == 1 and kind.end_refusal is not None:
            return kind.end_refusal
        if action.uno and self.hand_after(action) != 1:
            return (f"UNO may only be called by a player a play leaves holding exactly one card "
                    f"({refs['uno']})")
        return None

    def _uno_reason(self, seat: int) -> str | None:
        if self.uno_seat == seat:
            return None
        return (f"seat {seat} has no UNO to call: only a player whose play left them holding "
                f"exactly one card may call it, until the window closes ({self.rules.refs['uno']})")

    def _catch_reason(self, seat: int, target: int | None) -> str | None:
        ref = self.rules.refs["uno"]
        if target is None or not 0 <= target < self.players:
            return f"there is no seat {target} to catch"
        if target == seat:
            return f"a player cannot catch themselves ({ref})"
        if self.uno_seat != target:
            return (f"seat {target} cannot be caught: only a player who was left holding one card "
                    f"by a play and has not called UNO, before the window closes ({ref})")
        return None

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, *, fired: int | None = None,
              shuffle: Shuffle | None = None) -> Applied:
        """Perform ``action`` and say what happened, or raise :class:`IllegalActionError`
        and change nothing.

        A press needs ``fired``: how many cards the launcher fired (all of them fire if
        fewer are inside). ``shuffle`` reorders a reload of the stock in place.
        """
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(action, reason)
        if action.verb is _PRESS and (
                isinstance(fired, bool) or not isinstance(fired, int) or fired < 0):
            raise IllegalActionError(action, f"a press needs its outcome: fired={fired!r} "
                                             "is not a count of cards ≥ 0")
        return _named(Applied, self.push(action, fired=fired or 0, shuffle=shuffle))

    def push(self, action: Action, *, fired: int = 0,
             shuffle: Shuffle | None = None) -> RawApplied:
        """Perform an action known to be legal, without checking (the fast path of
        self-play). What happened comes back as a plain tuple (:data:`RawApplied`);
        ``Applied._make(raw)`` names it."""
        verb = action.verb
        seat = action.seat
        if verb is _PRESS:
            # a reload's order first: ``shuffle`` may raise, and nothing has changed yet
            reload = None if self.stock else self._reload_order(shuffle)
            window = self.uno_seat
            if window is not None and window != seat:
                self.uno_seat = None  # another player acted: the window closes (RULES.md 7)
            return self._press(action, fired, reload)
        window = self.uno_seat
        if window is not None and window != seat:
            self.uno_seat = None
        if verb is _PLAY:
            return self._play(action)
        if verb is Verb.PASS:
            self.phase = _PLAYING
            self.arrived = ()
            self.turn = self.next_seat(seat)
        elif verb is Verb.CHOOSE:
            self.color = action.color
            self.phase = _PLAYING
            kind = self._kinds[self.discard[-1]]
            if kind.starter is not None:
                kind.starter(self, (self.dealer + 1) % self.players)
        elif verb is Verb.UNO:
            self.uno_seat = None
        else:  # Verb.CATCH
            assert action.target is not None
            self.uno_seat = None
            self.owe(action.target, 2, Cause(Why.CATCH, by=seat), first=True)
        return _raw(action, (), (), (), self.owed, _NO_MOVES, None, False)

    def _reload_order(self, shuffle: Shuffle | None) -> list[Card]:
        """The cards a reload of the empty stock will load, in order: the discard pile but
        its top (RULES.md 6; in discard order unless ``shuffle`` reorders them)."""
        cards = self.discard[:-1]
        if shuffle is not None and cards:
            shuffle(cards)
        return cards

    def _play(self, action: Action) -> RawApplied:
        seat = action.seat
        cards = action.cards
        hand = self.hands[seat]
        kind = self._kinds[cards[0]]
        if len(cards) == 1:
            hand.remove(cards[0])
        else:
            for card in cards:
                hand.remove(card)
        if self.phase is not _PLAYING:  # a play after a press (play_after_press)
            self.phase = _PLAYING
            self.arrived = ()
        top = cards[-1]
        played = cards
        discard = self.discard
        if kind.lays_down is not None:
            extra = kind.lays_down(self.rules, hand, top)
            for card in extra:
                hand.remove(card)
            discard.extend(extra)
            played = (*extra, *cards)
        discard.extend(cards)
        self.color = top.color or action.color
        if not hand:
            return self._went_out(action, kind, played)
        moves = _NO_MOVES
        if kind.play is None:  # numbers, Discard All, Wild: the most common plays
            self.turn = (seat + self.direction) % self.players
        else:
            moves = kind.play(self, seat, action, len(cards)) or _NO_MOVES
        if len(self.hands[seat]) == 1 and not action.uno:
            self.uno_seat = seat
        owed = self.owed
        return (action, played, (), (), tuple(owed) if owed else (), moves.skipped,
                moves.hands, None, None, False)

    def _went_out(self, action: Action, kind: Kind, played: tuple[Card, ...]) -> RawApplied:
        """A last card: only the penalties of its kind as a last card remain (RULES.md 8)."""
        seat = action.seat
        self.winner = seat
        if kind.last is not None:
            kind.last(self, seat, action, len(action.cards))
        if not self.owed:
            self._finish()
        return _raw(action, played, (), (), self.owed, _NO_MOVES, seat, self.phase is _OVER)

    def _press(self, action: Action, fired: int, reload: list[Card] | None) -> RawApplied:
        seat = action.seat
        owed = self.owed
        after_press_allowed = (self.options.play_after_press and self.phase is _PLAYING
                               and not owed and not self.has_playable(seat))
        stock = self.stock
        reloads: tuple[tuple[Card, ...], ...] = ()
        nothing_to_load = False
        if reload is not None:
            if reload:
                stock.extend(reload)
                del self.discard[:-1]
                reloads = (tuple(reload),)
            else:
                nothing_to_load = True
        count = fired if fired <= len(stock) else len(stock)
        if count:
            gained = (stock.popleft(),) if count == 1 else tuple(
                [stock.popleft() for _ in range(count)])
            self.hands[seat].extend(gained)
            if self.uno_seat == seat:
                self.uno_seat = None  # no longer holding exactly one card
        else:
            gained = ()
        if owed:
            head = owed[0]
            if head.count == FIRE:
                if count or nothing_to_load:
                    del owed[0]
            elif head.count == 1:
                del owed[0]
            else:  # one press less; a penalty begun can no longer be answered (B1, B6)
                owed[0] = _named(Owed, (head.seat, head.count - 1, head.unit,  # type: ignore[operator]
                                        head.cause, False))
            if not owed and self.winner is not None:
                self._finish()
                return _raw(action, (), gained, reloads, owed, _NO_MOVES, self.winner, True)
        elif after_press_allowed and any(self._playable(seat, c) for c in gained):
            self.phase = Phase.AFTER
            self.arrived = gained
        else:
            self.turn = (seat + self.direction) % self.players
        return (action, (), gained, reloads, tuple(owed) if owed else (), (), (), None,
                self.winner, False)

    def _finish(self) -> None:
        self.phase = _OVER
        self.uno_seat = None

    # ------------------------------------------------------------------ copies & views
    def copy(self) -> Round:
        """An independent copy (cards and owed values are shared: they are immutable)."""
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [list(hand) for hand in self.hands]
        other.stock = deque(self.stock)
        other.discard = list(self.discard)
        other.owed = list(self.owed)
        return other

    def snapshot(self) -> tuple[object, ...]:
        """Everything that defines the state, as a comparable value."""
        return (
            self.rules.name, self.players, self.dealer, self.options,
            tuple(tuple(h) for h in self.hands), tuple(self.stock), tuple(self.discard),
            self.color, self.direction, self.turn, tuple(self.owed), self.phase,
            self.arrived, self.uno_seat, self.winner,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Round) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def card_count(self) -> int:
        """Cards in hands, stock and discard pile together."""
        return sum(map(len, self.hands)) + len(self.stock) + len(self.discard)

    @property
    def direction_name(self) -> str:
        return "clockwise" if self.direction == 1 else "counterclockwise"

    def owed_list(self) -> list[list[int | str]]:
        """The owed penalties as a transcript's ``owed`` writes them."""
        return [owed.text() for owed in self.owed]

    def __repr__(self) -> str:
        return (f"<Round {self.rules.name} players={self.players} top={self.top} "
                f"color={self.color} to_act={self.to_act} owed={self.owed_list()} "
                f"phase={self.phase.value}>")

    def __str__(self) -> str:
        lines = [f"top {self.top} ({self.color}), {self.direction_name}, "
                 f"stock {len(self.stock)}, discard {len(self.discard)}"]
        for seat, hand in enumerate(self.hands):
            mark = ">" if seat == self.to_act else " "
            lines.append(f"{mark} {seat}: {' '.join(c.code for c in hand)}")
        if self.owed:
            lines.append(f"owed: {self.owed_list()}")
        return "\n".join(lines)


def _seat_naming(kinds: dict[Card, Kind]) -> frozenset[str]:
    return frozenset(card.symbol for card, kind in kinds.items() if kind.names_seat)


@cache
def _seat_plays(rules: RuleSet, players: int,
                naming: frozenset[str]) -> tuple[dict[Card, tuple[Action, ...]], ...]:
    """For each seat, every card's ways to be played alone: one per colour for a wild,
    one per other seat for a card that names a seat; made once per table."""

    def ways(seat: int, card: Card) -> tuple[Action, ...]:
        if card.color is None:
            return tuple(Action.play(seat, card, color) for color in COLORS)
        if card.symbol in naming:
            return tuple(Action.play(seat, card, target=other)
                         for other in range(players) if other != seat)
        return (Action.play(seat, card),)

    return tuple({card: ways(seat, card) for card in rules.cards} for seat in range(players))


@cache
def _take_actions(unit: Unit, players: int) -> tuple[Action, ...]:
    verb = _PRESS if unit is Unit.PRESS else _DRAW
    return tuple(Action(seat, verb) for seat in range(players))


def _shape_problem(action: Action) -> str | None:
    """What an action carries that its verb does not take (for actions built in code)."""
    verb = action.verb
    if action.uno and verb is not Verb.PLAY:
        return f"only a play can carry an UNO call, not '{verb}'"
    if verb is Verb.PLAY:
        return None if action.cards else "a play needs a card"
    if action.cards:
        return f"'{verb}' takes no card"
    if verb is Verb.CHOOSE:
        return None if action.color is not None and action.target is None else (
            "'choose' names one colour and nothing else")
    if verb is Verb.CATCH:
        return None if action.color is None else "'catch' names a seat, not a colour"
    if action.color is not None or action.target is not None:
        return f"'{verb}' takes no arguments"
    return None
