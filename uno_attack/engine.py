"""The rules engine: one round of UNO Attack as a pure state machine.

In the manner of python-chess's ``Board``: a :class:`Round` holds the state, lists the
legal actions of the seat to act (:meth:`Round.legal_actions`), and :meth:`Round.apply`
either performs an action or raises :class:`IllegalActionError` naming the rule broken —
and then the state is exactly as before (every check is made before anything changes).

The engine has no I/O, no clock and no randomness of its own. A press is a chance event:
the caller supplies how many cards fired (``apply(action, fired=k)``) and, if the press
reloads the launcher, how to shuffle the reloaded cards (``shuffle=``; without it they are
loaded in the order they were discarded, as in a transcript).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from functools import cache

from uno_attack.actions import Action, Verb
from uno_attack.cards import (
    ALL_CARDS,
    COLORS,
    DISCARD_ALL,
    HIT2,
    NUMBERS,
    REVERSE,
    SKIP,
    TRADE_HANDS,
    WILD,
    WILD_ALL_HIT,
    WILD_HIT_FIRE,
    Card,
    Color,
    canonical_sorted,
)
from uno_attack.errors import IllegalActionError
from uno_attack.options import Options
from uno_attack.scoring import RoundResult, score_round

#: An owed press count meaning "press until at least one card fires".
FIRE = "fire"
#: Symbols whose play only passes the turn on.
_NO_EFFECT = frozenset((*NUMBERS, DISCARD_ALL, WILD))

Shuffle = Callable[[list[Card]], None]


class Phase(Enum):
    """What the round waits for (owed presses come before any of these)."""

    CHOOSE = "choose"            # the player left of the dealer names a wild starter's colour
    PLAY = "play"                # the seat whose turn it is plays or presses
    AFTER_PRESS = "after_press"  # play_after_press: play a card just fired, or pass
    OVER = "over"                # the round is scored


# Enum members for the hot paths, looked up once: in CPython 3.11 ``Phase.PLAY`` costs
# ten times a module global, and self-play does it several times per action.
_PLAYING = Phase.PLAY
_PLAY, _PRESS = Verb.PLAY, Verb.PRESS


class Round:
    """One round: hands, launcher, discard pile, turn, owed presses, UNO window, result.

    Build one with :meth:`setup` (from a deal, a transcript or a saved game). Seats are
    ``0 … n-1``; clockwise is increasing seat number.
    """

    __slots__ = (
        "_ways", "cards_fired", "color", "dealer", "direction", "discard", "hands",
        "just_fired", "launcher", "options", "owed", "phase", "players", "presses", "result",
        "scores_before", "turn", "uno_seat", "winner",
    )

    def __init__(self) -> None:  # use Round.setup()
        self.players = 0
        self.dealer = 0
        self.options = Options()
        self.hands: list[list[Card]] = []
        self.launcher: deque[Card] = deque()
        self.discard: list[Card] = []
        self.color: Color | None = None
        self.direction = 1
        self.turn = 0
        self.owed: list[list[int | str]] = []  # [seat, count or FIRE], first one first
        self.phase = Phase.PLAY
        self.just_fired: list[Card] = []       # the cards of the last press (play_after_press)
        self.uno_seat: int | None = None       # seat whose UNO window is open, not yet called
        self.winner: int | None = None
        self.result: RoundResult | None = None
        self.scores_before: tuple[int, ...] = ()
        self.presses = 0
        self.cards_fired = 0
        self._ways: tuple[dict[Card, tuple[Action, ...]], ...] = ()  # plays per seat and card

    # ------------------------------------------------------------------ set-up
    @classmethod
    def setup(
        cls,
        *,
        hands: Sequence[Sequence[Card]],
        dealer: int,
        starter: Card | Sequence[Card],
        launcher: Iterable[Card],
        options: Options | None = None,
        scores: Sequence[int] | None = None,
    ) -> Round:
        """A round as dealt: each seat's hand, the starter(s) turned up, the launcher's cards.

        ``starter`` may list several cards turned up in order; every one but the last must
        be a Trade Hands, which goes back to the bottom of the launcher (RULES.md 3.3).
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
        for card in starters[:-1]:
            if card.symbol != TRADE_HANDS:
                raise ValueError(f"starter {card} was followed by another starter, but only a "
                                 "Trade Hands is put back (RULES.md 3.3)")
        if starters[-1].symbol == TRADE_HANDS:
            raise ValueError("the last starter is a Trade Hands, which must be put back "
                             "(RULES.md 3.3)")
        game.players = n
        game._ways = _seat_plays(n)
        game.dealer = dealer
        game.options = options or Options()
        game.hands = [list(hand) for hand in hands]
        game.launcher = deque(launcher)
        game.launcher.extend(starters[:-1])
        game.discard = [starters[-1]]
        game.scores_before = tuple(scores) if scores is not None else (0,) * n
        if len(game.scores_before) != n:
            raise ValueError(f"scores list {len(game.scores_before)} seats, the round has {n}")
        game._start(starters[-1])
        return game

    def _start(self, starter: Card) -> None:
        """Apply the starter's effect (RULES.md section 3, the starter table)."""
        left = (self.dealer + 1) % self.players
        self.turn = left
        self.color = starter.color
        symbol = starter.symbol
        if symbol == SKIP:
            self.turn = (left + 1) % self.players
        elif symbol == REVERSE:
            self.direction = -1
            self.turn = self.dealer
        elif symbol == HIT2:
            self.owed.append([left, 2])
            self.turn = (left + 1) % self.players
        elif starter.is_wild:
            self.phase = Phase.CHOOSE

    def _after_starter_colour(self) -> None:
        """The presses of a Wild All Hit or Wild Hit-Fire starter, once its colour is named."""
        left = (self.dealer + 1) % self.players
        symbol = self.discard[-1].symbol
        if symbol == WILD_ALL_HIT:
            self.owed.extend([s, 1] for s in self._seats_from(left, 1) if s != self.dealer)
        elif symbol == WILD_HIT_FIRE:
            self.owed.append([left, FIRE])
            self.turn = (left + 1) % self.players

    # ------------------------------------------------------------------ queries
    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def to_act(self) -> int | None:
        """The seat that must act next: a seat owing a press, else the seat whose turn it is;
        ``None`` once the round is over."""
        if self.owed:
            return self.owed[0][0]  # type: ignore[return-value]
        if self.phase is Phase.OVER:
            return None
        return self.turn

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places on from ``seat`` in the current direction."""
        return (seat + steps * self.direction) % self.players

    def _seats_from(self, first: int, direction: int) -> list[int]:
        return [(first + i * direction) % self.players for i in range(self.players)]

    def matches(self, card: Card) -> bool:
        """Whether ``card`` may be played on the top card (RULES.md section 4)."""
        return (card.color is None or card.color is self.color
                or card.symbol == self.discard[-1].symbol)

    def has_playable(self, seat: int) -> bool:
        return any(self._playable(seat, card) for card in self.hands[seat])

    def _playable(self, seat: int, card: Card) -> bool:
        if not self.matches(card):
            return False
        return not (card.symbol == TRADE_HANDS and len(self.hands[seat]) == 1
                    and not self.options.trade_hands_last)

    def hand_after(self, action: Action) -> int:
        """How many cards the acting seat will hold once a play and its effects are done."""
        hand = self.hands[action.seat]
        card = action.card
        assert card is not None
        if card.symbol == DISCARD_ALL:
            return sum(1 for c in hand if c.color is not card.color)
        if card.symbol == TRADE_HANDS and len(hand) > 1 and action.target is not None:
            return len(self.hands[action.target])
        return len(hand) - 1

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` may take now (default: the seat to act), each once.

        Besides the seat to act, another seat may have ``uno`` or ``catch N`` to make.
        A play that may carry an UNO call is listed once, without it.
        """
        if self.phase is _PLAYING and not self.owed and (seat is None or seat == self.turn):
            seat = self.turn  # the common case first: a turn to play or press
            actions = self._hand_plays(seat)
            actions.append(_press_action(seat))
        else:
            to_act = self.to_act
            if to_act is None:
                return []
            if seat is None:
                seat = to_act
            actions = self._other_actions(seat, to_act)
        window = self.uno_seat
        if window is not None:
            if window == seat:
                actions.append(Action.call_uno(seat))
            else:
                actions.append(Action.catch(seat, window))
        return actions

    def _other_actions(self, seat: int, to_act: int) -> list[Action]:
        """Legal actions other than a turn's play or press (UNO and catches aside)."""
        actions: list[Action] = []
        if seat == to_act:
            if self.phase is Phase.CHOOSE:
                actions = [Action.choose(seat, color) for color in COLORS]
            elif self.owed:
                actions = [_press_action(seat)]
            elif self.phase is Phase.AFTER_PRESS:
                playable = [c for c in dict.fromkeys(self.just_fired) if self._playable(seat, c)]
                actions = [*self._plays(seat, playable), Action.pass_(seat)]
        return actions

    def _plays(self, seat: int, cards: Iterable[Card]) -> list[Action]:
        plays: list[Action] = []
        for card in cards:
            plays.extend(_play_actions(self.players, seat, card))
        return plays

    def _hand_plays(self, seat: int) -> list[Action]:
        """The plays of a seat's hand: the hot path of self-play, so written out flat."""
        hand = self.hands[seat]
        matching = _MATCHING[self.color, self.discard[-1].symbol]
        ways = self._ways[seat]
        plays: list[Action] = []
        for card in dict.fromkeys(hand):
            if card in matching:
                plays.extend(ways[card])
        if len(hand) == 1 and plays and hand[0].symbol == TRADE_HANDS \
                and not self.options.trade_hands_last:
            return []  # a Trade Hands may not be the last card
        return plays

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
        verb = action.verb
        if verb is Verb.UNO:
            return self._uno_reason(seat)
        if verb is Verb.CATCH:
            return self._catch_reason(seat, action.target)
        if self.phase is Phase.CHOOSE:
            if verb is not Verb.CHOOSE or seat != to_act:
                return (f"seat {to_act} must first name the colour of the wild starter "
                        "(RULES.md 3: starter table)")
            if action.color is None:
                return "a colour must be named"
            return None
        if verb is Verb.CHOOSE:
            return "there is no wild starter's colour to name (only at the start, RULES.md 3)"
        if self.owed:
            owing, count = self.owed[0]
            owes = "presses until a card fires" if count == FIRE else (
                f"{count} press{'es' if count != 1 else ''}")
            if seat != owing:
                return f"seat {owing} owes {owes} first (RULES.md 5)"
            if verb is not Verb.PRESS:
                return (f"seat {seat} owes {owes}; penalties can't be passed on or answered "
                        "with a card (RULES.md 5)")
            return None
        if seat != self.turn:
            return f"it is seat {self.turn}'s turn, not seat {seat}'s (RULES.md 4)"
        if verb is Verb.PRESS:
            if self.phase is Phase.AFTER_PRESS:
                return ("seat has already pressed this turn: play a card just fired, or pass "
                        "(play_after_press, RULES.md 9)")
            return None
        if verb is Verb.PASS:
            if self.phase is not Phase.AFTER_PRESS:
                return ("'pass' is only allowed after a press, where play_after_press lets a "
                        "fired card be played (RULES.md 9)")
            return None
        return self._play_reason(action)

    def _play_reason(self, action: Action) -> str | None:
        seat, card = action.seat, action.card
        if card is None:
            return "a play needs a card"
        hand = self.hands[seat]
        if card not in hand:
            return f"seat {seat} does not hold {card}"
        if self.phase is Phase.AFTER_PRESS and card not in self.just_fired:
            return (f"after a press only a card just fired may be played, and {card} was not "
                    "(play_after_press, RULES.md 9)")
        if not self.matches(card):
            return (f"{card} does not match the top card {self.top} "
                    f"(current colour {self.color}): RULES.md 4")
        if card.is_wild:
            if action.color is None:
                return f"a wild card names a colour as it is played: 'play {card} red' (RULES.md 4)"
            if action.target is not None:
                return "only a Trade Hands names a seat"
        elif action.color is not None:
            return f"{card} is not a wild card and names no colour"
        if card.symbol == TRADE_HANDS:
            target = action.target
            if target is None:
                return f"a Trade Hands names the seat to trade with: 'play {card} 2' (RULES.md 4)"
            if target == seat or not 0 <= target < self.players:
                return f"seat {target} is not another seat to trade with (RULES.md 5)"
            if len(hand) == 1 and not self.options.trade_hands_last:
                return "a Trade Hands may not be played as your last card (RULES.md 4)"
        elif action.target is not None:
            return f"{card} names no seat; only a Trade Hands does"
        if action.uno and self.hand_after(action) != 1:
            return ("UNO may only be called by a player a play leaves holding exactly one card "
                    "(RULES.md 7)")
        return None

    def _uno_reason(self, seat: int) -> str | None:
        if self.uno_seat == seat:
            return None
        return (f"seat {seat} has no UNO to call: only a player whose play left them holding "
                "exactly one card may call it, until the window closes (RULES.md 7)")

    def _catch_reason(self, seat: int, target: int | None) -> str | None:
        if target is None or not 0 <= target < self.players:
            return f"there is no seat {target} to catch"
        if target == seat:
            return "a player cannot catch themselves (RULES.md 7)"
        if self.uno_seat != target:
            return (f"seat {target} cannot be caught: only a player who was left holding one card "
                    "by a play and has not called UNO, before the window closes (RULES.md 7)")
        return None

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, *, fired: int | None = None,
              shuffle: Shuffle | None = None) -> None:
        """Perform ``action``, or raise :class:`IllegalActionError` and change nothing.

        A press needs ``fired``: how many cards the launcher fired (all of them fire if
        fewer are inside). ``shuffle`` reorders a reload of the launcher in place.
        """
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(action, reason)
        if action.verb is Verb.PRESS and (
                isinstance(fired, bool) or not isinstance(fired, int) or fired < 0):
            raise IllegalActionError(action, f"a press needs its outcome: fired={fired!r} "
                                             "is not a count of cards ≥ 0")
        self.push(action, fired=fired or 0, shuffle=shuffle)

    def push(self, action: Action, *, fired: int = 0, shuffle: Shuffle | None = None) -> None:
        """Perform an action known to be legal, without checking (the fast path)."""
        seat = action.seat
        if self.uno_seat is not None and self.uno_seat != seat:
            self.uno_seat = None  # another player acted: the window closes
        verb = action.verb
        if verb is _PLAY:
            self._play(action)
        elif verb is _PRESS:
            self._press(seat, fired, shuffle)
        elif verb is Verb.PASS:
            self.phase = Phase.PLAY
            self.just_fired = []
            self.turn = self.next_seat(seat)
        elif verb is Verb.CHOOSE:
            self.color = action.color
            self.phase = Phase.PLAY
            self._after_starter_colour()
        elif verb is Verb.UNO:
            self.uno_seat = None
        elif verb is Verb.CATCH:
            self.uno_seat = None
            self.owed.insert(0, [action.target, 2])  # type: ignore[list-item]
        if self.uno_seat is not None and len(self.hands[self.uno_seat]) != 1:
            self.uno_seat = None

    def _play(self, action: Action) -> None:
        seat = action.seat
        card = action.card
        assert card is not None
        hand = self.hands[seat]
        hand.remove(card)
        if self.phase is not _PLAYING:  # a play after a press (play_after_press)
            self.phase = Phase.PLAY
            self.just_fired = []
        symbol = card.symbol
        if symbol == DISCARD_ALL:
            same = canonical_sorted(c for c in hand if c.color is card.color)
            hand[:] = [c for c in hand if c.color is not card.color]
            self.discard.extend(same)
        self.discard.append(card)
        self.color = card.color or action.color
        if not hand:
            self._went_out(seat, card)
            return
        n = self.players
        if symbol in _NO_EFFECT:  # numbers, Discard All, Wild: the most common plays
            self.turn = (seat + self.direction) % n
        elif symbol == SKIP:
            self.turn = self.next_seat(seat, 2)
        elif symbol == REVERSE:
            self.direction = -self.direction
            self.turn = seat if n == 2 else self.next_seat(seat)
        elif symbol == HIT2:
            victim = self.next_seat(seat)
            self.owed.append([victim, 2])
            self.turn = self.next_seat(victim)
        elif symbol == TRADE_HANDS:
            target = action.target
            assert target is not None
            self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
            self.turn = self.next_seat(seat)
        elif symbol == WILD_ALL_HIT:
            self.owed.extend([self.next_seat(seat, i), 1] for i in range(1, n))
            self.turn = self.next_seat(seat)
        elif symbol == WILD_HIT_FIRE:
            victim = self.next_seat(seat)
            self.owed.append([victim, FIRE])
            self.turn = self.next_seat(victim)
        if len(self.hands[seat]) == 1 and not action.uno:
            self.uno_seat = seat

    def _went_out(self, seat: int, card: Card) -> None:
        """A last card: only the presses of a Hit 2, Wild Hit-Fire or Wild All Hit remain."""
        self.winner = seat
        symbol = card.symbol
        if symbol == HIT2:
            self.owed.append([self.next_seat(seat), 2])
        elif symbol == WILD_HIT_FIRE:
            self.owed.append([self.next_seat(seat), FIRE])
        elif symbol == WILD_ALL_HIT:
            self.owed.extend([self.next_seat(seat, i), 1] for i in range(1, self.players))
        if not self.owed:
            self._finish()

    def _press(self, seat: int, fired: int, shuffle: Shuffle | None) -> None:
        after_press_allowed = (self.options.play_after_press and self.phase is Phase.PLAY
                               and not self.owed and not self.has_playable(seat))
        launcher = self.launcher
        nothing_to_load = False
        if not launcher:
            reload = self.discard[:-1]
            if shuffle is not None and reload:
                shuffle(reload)
            launcher.extend(reload)
            del self.discard[:-1]
            nothing_to_load = not reload
        count = fired if fired <= len(launcher) else len(launcher)
        cards = []
        for _ in range(count):
            cards.append(launcher.popleft())
        self.hands[seat].extend(cards)
        self.presses += 1
        self.cards_fired += count
        if self.owed:
            owed = self.owed[0]
            if owed[1] == FIRE:
                if count or nothing_to_load:
                    self.owed.pop(0)
            else:
                owed[1] -= 1  # type: ignore[operator]
                if owed[1] == 0:
                    self.owed.pop(0)
            if not self.owed and self.winner is not None:
                self._finish()
            return
        if after_press_allowed and any(self._playable(seat, c) for c in cards):
            self.phase = Phase.AFTER_PRESS
            self.just_fired = cards
            return
        self.turn = (seat + self.direction) % self.players

    def _finish(self) -> None:
        assert self.winner is not None
        self.phase = Phase.OVER
        self.uno_seat = None
        self.result = score_round(self.options.match, self.options.target, self.hands,
                                  self.winner, self.scores_before)

    # ------------------------------------------------------------------ copies & views
    def copy(self) -> Round:
        """An independent copy (cards are shared: they are immutable)."""
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [list(hand) for hand in self.hands]
        other.launcher = deque(self.launcher)
        other.discard = list(self.discard)
        other.owed = [list(o) for o in self.owed]
        other.just_fired = list(self.just_fired)
        return other

    def snapshot(self) -> tuple[object, ...]:
        """Everything that defines the state, as a comparable value."""
        return (
            self.players, self.dealer, self.options,
            tuple(tuple(h) for h in self.hands), tuple(self.launcher), tuple(self.discard),
            self.color, self.direction, self.turn, tuple(tuple(o) for o in self.owed),
            self.phase, tuple(self.just_fired), self.uno_seat, self.winner, self.result,
            self.scores_before, self.presses, self.cards_fired,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Round) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def card_count(self) -> int:
        """Cards in hands, launcher and discard pile together."""
        return sum(map(len, self.hands)) + len(self.launcher) + len(self.discard)

    @property
    def direction_name(self) -> str:
        return "clockwise" if self.direction == 1 else "counterclockwise"

    def owed_list(self) -> list[list[int | str]]:
        return [list(o) for o in self.owed]

    def __repr__(self) -> str:
        return (f"<Round players={self.players} top={self.top} color={self.color} "
                f"to_act={self.to_act} owed={self.owed} phase={self.phase.value}>")

    def __str__(self) -> str:
        lines = [f"top {self.top} ({self.color}), {self.direction_name}, "
                 f"launcher {len(self.launcher)}, discard {len(self.discard)}"]
        for seat, hand in enumerate(self.hands):
            mark = ">" if seat == self.to_act else " "
            lines.append(f"{mark} {seat}: {' '.join(c.code for c in hand)}")
        if self.owed:
            lines.append(f"owed: {self.owed}")
        return "\n".join(lines)


@cache
def _play_actions(players: int, seat: int, card: Card) -> tuple[Action, ...]:
    """Every way to play ``card``: one per colour for a wild, one per seat for a Trade Hands."""
    if card.color is None:
        return tuple(Action.play(seat, card, color) for color in COLORS)
    if card.symbol == TRADE_HANDS:
        return tuple(Action.play(seat, card, target=other)
                     for other in range(players) if other != seat)
    return (Action.play(seat, card),)


@cache
def _press_action(seat: int) -> Action:
    return Action.press(seat)


@cache
def _seat_plays(players: int) -> tuple[dict[Card, tuple[Action, ...]], ...]:
    """For each seat, every card's ways to be played, made once per table size."""
    return tuple({card: _play_actions(players, seat, card) for card in ALL_CARDS}
                 for seat in range(players))


def _shape_problem(action: Action) -> str | None:
    """What an action carries that its verb does not take (for actions built in code)."""
    verb = action.verb
    if action.uno and verb is not Verb.PLAY:
        return f"only a play can carry an UNO call, not '{verb}'"
    if verb is not Verb.PLAY and action.card is not None:
        return f"'{verb}' takes no card"
    if verb is Verb.CHOOSE:
        return None if action.color is not None and action.target is None else (
            "'choose' names one colour and nothing else")
    if verb is Verb.CATCH:
        return None if action.color is None else "'catch' names a seat, not a colour"
    if verb is not Verb.PLAY and (action.color is not None or action.target is not None):
        return f"'{verb}' takes no arguments"
    return None


def _matching(color: Color | None, top_symbol: str) -> frozenset[Card]:
    """The cards that match a top card of this symbol when this colour is current."""
    return frozenset(card for card in ALL_CARDS if card.color is None or card.color is color
                     or card.symbol == top_symbol)


#: (current colour, top card's symbol) -> the cards that match (RULES.md 4), made once.
_MATCHING: dict[tuple[Color | None, str], frozenset[Card]] = {
    (color, symbol): _matching(color, symbol)
    for color in (*COLORS, None) for symbol in {card.symbol for card in ALL_CARDS}
}
