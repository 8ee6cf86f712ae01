"""The rules engine: one round as a pure state machine, for any rule set and house rules.

In the manner of python-chess's ``Board``: a :class:`Round` holds the state, lists the
legal actions of any seat (:meth:`Round.legal_actions`), and :meth:`Round.apply` either
performs an action and returns what happened (:class:`Applied`) or raises
:class:`IllegalActionError` naming the rule broken, and then nothing has changed (every
check, and every call of a reload's ``shuffle``, comes before the first change).
:meth:`Round.push` is the unchecked layer for self-play; it returns the same fields as a
plain tuple, which is cheaper to make.

What the cards do is the rule set's (:mod:`uno_attack.rules`): the engine asks each
card's kind for its effect as a play, a starter and a last card. The engine keeps the
turn, the owed penalties (:mod:`uno_attack.penalties`), the UNO window, the house rules of
VARIANTS.md B that decide who may play what and when, and the end of the round. Scoring
the round is the match's business (:mod:`uno_attack.scoring`).

The engine has no I/O, no clock and no randomness of its own. A press is a chance event:
the caller supplies how many cards fired (``apply(action, fired=k)``) and, if a press or a
draw reloads the launcher or pile, how to shuffle the reloaded cards (``shuffle=``;
without it they are loaded in the order they were discarded, as in a transcript).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import NamedTuple

from uno_attack.actions import Action, Verb
from uno_attack.cards import COLORS, Card, Color
from uno_attack.errors import IllegalActionError
from uno_attack.options import Options
from uno_attack.penalties import FIRE, Cause, Count, Owed, Unit, Why
from uno_attack.phase import Phase as Phase  # re-exported: the engine's callers import it here
from uno_attack.refusal import OWES, Refusal, owing
from uno_attack.rules import ATTACK, Kind, Moves, RuleSet, rule_set
from uno_attack.rules.house import House, house_for

Shuffle = Callable[[list[Card]], None]


class Applied(NamedTuple):
    """What one action did, for the table loop, a log, a screen or a network view.

    ``played``: the cards put on the discard pile, in order (a Discard All's cards before
    it; a ``sum_out`` hand under the top). ``gained``: the cards the acting seat took by
    pressing or drawing. ``reloads``: each reload of the launcher or pile it caused, first
    card to come out first. ``owed``: the penalties owed after it. ``skipped``: seats that
    lost their turn to it (a Skip, a jump-in). ``hands``: the hands that changed owner, as
    ``(from_seat, to_seat)``. ``revealed``: a challenged player's seat and hand, to show
    the challenger. ``winner`` and ``over`` as after it.
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


# Looked up once for the hot paths: in CPython 3.11 ``Phase.PLAY`` costs ten times a
# module global, and self-play does it several times per action.
_PLAYING, _OVER = Phase.PLAY, Phase.OVER
_PLAY, _PRESS, _DRAW, _CATCH, _UNO = Verb.PLAY, Verb.PRESS, Verb.DRAW, Verb.CATCH, Verb.UNO
_NO_MOVES = Moves()
_PAST = {_PRESS: "pressed", _DRAW: "drawn"}
_named = tuple.__new__
#: The two penalties of a Wild Draw Four challenge (VARIANTS.md A5).
_BLUFF_PENALTY, _FAIR_PENALTY = 4, 6


def _applied(action: Action, played: tuple[Card, ...], owed: list[Owed],
             gained: tuple[Card, ...] = (), reloads: tuple[tuple[Card, ...], ...] = (),
             moves: Moves = _NO_MOVES, revealed: tuple[int, tuple[Card, ...]] | None = None,
             winner: int | None = None, over: bool = False) -> Applied:
    """The one constructor of :class:`Applied` (its fields from the engine's values)."""
    return _named(Applied, (action, played, gained, reloads, tuple(owed) if owed else (),
                            moves.skipped, moves.hands, revealed, winner, over))


class Round:
    """One round: hands, stock, discard pile, turn, owed penalties, UNO window, winner.

    The **stock** is where cards are taken from: the launcher in UNO Attack, the draw
    pile in classic UNO. Build a round with :meth:`setup` (from a deal, a transcript or a
    saved game). Seats are ``0 … n-1``; clockwise is increasing seat number.
    """

    __slots__ = (
        "_after_plays", "_fast_phase", "_follow_take", "_house", "_kinds", "_matching",
        "_take", "_ways",
        "arrived", "color",
        "dealer", "direction", "discard", "hands", "options", "out_by", "out_value", "owed",
        "phase", "players", "rules", "steps", "stock", "turn", "uno_seat", "winner",
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
        self.arrived: tuple[Card, ...] = ()  # the cards of the last press or draw (AFTER)
        self.uno_seat: int | None = None   # seat whose UNO window is open, not yet called
        self.out_value: int | None = None  # sum_out: the number just played (B9) …
        self.out_by: int | None = None     # … and who played it
        self.winner: int | None = None
        #: actions applied since the round was set up: the step a bot's dice are read at
        self.steps = 0
        self._kinds: dict[Card, Kind] = {}
        self._matching: dict[Card, dict[Color | None, frozenset[Card]]] = {}
        self._ways: tuple[dict[Card, tuple[Action, ...]], ...] = ()  # plays per seat and card
        self._take: tuple[Action, ...] = ()  # each seat's press (or draw)
        self._house: House = house_for(self.options)
        # the phase in which legal_actions may take its fast path: PLAY, or None when a
        # house rule changes what the fast path lists (one test instead of two)
        self._fast_phase: Phase | None = Phase.PLAY
        self._follow_take = self._house.follow_take  # looked up once for the hot paths
        self._after_plays = self._house.after_plays

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
        options = game.options = options or Options()
        options.check_players(n)
        game.players = n
        game._derive()
        kinds = game._kinds
        setup_ref = game.rules.refs["setup"]
        for card in starters[:-1]:
            if not kinds[card].put_back:
                raise ValueError(f"starter {card} was followed by another starter, but only "
                                 f"a card that is put back may be ({setup_ref})")
        if kinds[starters[-1]].put_back:
            raise ValueError(f"the last starter {starters[-1]} must be put back and the next "
                             f"card turned ({setup_ref})")
        game.dealer = dealer
        game.hands = [list(hand) for hand in hands]
        game.stock = deque(stock)
        game.stock.extend(starters[:-1])
        game.discard = [starters[-1]]
        game._start(starters[-1])
        return game

    def _derive(self) -> None:
        """Build what follows from the options and the number of seats: the rule set, the
        kinds, the plays of each seat and card, the takes, the house rules' hooks."""
        options = self.options
        self.rules = rules = rule_set(options.rules)
        self._kinds = rules.kinds_for(options)
        self._matching = rules.matching
        self._ways = _seat_plays(rules, self.players, _seat_naming(self._kinds))
        self._take = _take_actions(rules.unit, self.players)
        house = self._house = house_for(options)
        self._fast_phase = Phase.PLAY if house.fast_play else None
        self._follow_take = house.follow_take
        self._after_plays = house.after_plays

    def __reduce__(self) -> tuple[Callable[[dict[str, object]], Round], tuple[dict[str, object]]]:
        """Pickled as its state alone: what :meth:`_derive` builds (most of its bytes) is
        built again where it is loaded, in a search bot's process at each of its moves."""
        return _unpickled, ({name: getattr(self, name) for name in _STATE},)

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
        ``first``: before everything already owed (a catch, RULES.md 7; a false call, B8)."""
        owed = Owed(seat, count, self.rules.unit, cause, answerable)
        if first:
            self.owed.insert(0, owed)
        else:
            self.owed.append(owed)

    def pass_penalty(self, owed: Owed, seat: int) -> None:
        """A deflected penalty (the first owed) passes unchanged to ``seat``, who loses the
        turn (VARIANTS.md B6, E23); it can no longer be challenged (A5)."""
        self.owed[0] = Owed(seat, owed.count, owed.unit, owed.cause._replace(challenge=None),
                            owed.answerable)
        self.turn = self.next_seat(seat)

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

    def has_playable(self, seat: int) -> bool:
        """Whether ``seat`` holds a card it could play by itself on its turn now."""
        return any(self.playable(seat, card) for card in self.hands[seat])

    def draw_size(self) -> int:
        """How many cards the seat to act's ``draw`` would take now (classic): what it owes,
        or one, as far as the pile and a reload can give (VARIANTS.md A2). A launcher that
        serves as the draw pile ejects exactly this many."""
        owed = self.owed
        need = owed[0].count if owed else 1
        assert isinstance(need, int)
        return min(need, len(self.stock) + len(self.discard) - 1)

    def hand_after(self, action: Action) -> int:
        """How many cards the acting seat will hold once this legal play and its effects
        are done (a Discard All's cards and a trade included)."""
        probe = self.copy()
        probe.push(Action.play(action.seat, action.cards, action.color, action.target))
        return len(probe.hands[action.seat])

    def reactions_open(self) -> bool:
        """Whether some seat may act out of turn now for a reason a player would seize: an
        open UNO window, a ``sum_out``, another seat holding the top card to jump in with
        (false calls under B8 aside)."""
        if self.uno_seat is not None or self.out_value is not None:
            return self.phase is not _OVER
        jump_in = self._house.jump_in
        return jump_in is not None and jump_in.open(self)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every one-card action ``seat`` may take now (default: the seat to act).

        The seat to act gets what a transcript's ``legal`` lists (:meth:`listed_actions`)
        and ``out`` where it may go out; any other seat gets what it may do out of turn
        now: call UNO, catch, jump in, go out, and false calls where the options allow.
        A play that may carry an UNO call is listed once, without it; plays of several
        cards (``multi_play``) are legal but never listed.
        """
        turn = self.turn
        if self.phase is self._fast_phase and not self.owed and (seat is None or seat == turn):
            # the common case first, written out flat: the hot path of self-play
            hand = self.hands[turn]
            matching = self._matching[self.discard[-1]][self.color]
            ways = self._ways[turn]
            actions: list[Action] = []
            matched: list[Card] = []  # each card once, in the hand's order
            for card in hand:
                if card in matching and card not in matched:
                    matched.append(card)
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
        actions = self._turn_actions(seat) if seat == to_act else self._jump_ins(seat)
        actions.extend(self._calls(seat))
        return actions

    def listed_actions(self) -> list[Action]:
        """What a transcript's ``legal`` lists: the one-card actions of the seat to act,
        ``out`` aside (VARIANTS.md E22)."""
        return [a for a in self.legal_actions() if a.verb is not Verb.OUT]

    def _turn_actions(self, seat: int) -> list[Action]:
        """The seat to act's actions, UNO calls and catches aside."""
        phase = self.phase
        take = self._take[seat]
        if self.owed:  # a penalty owed comes first, also before a wild starter's colour
            actions = [take]
            head = self.owed[0]
            if head.answerable and self.winner is None:
                if head.cause.challenge is not None and self._challenge_refusal(seat) is None:
                    actions.append(Action.challenge(seat))
                if self._house.answering:
                    actions += self.candidates(seat, self.hands[seat], self._answer_refusal)
            return actions
        if phase is Phase.CHOOSE:
            return [Action.choose(seat, color) for color in COLORS]
        if phase is Phase.CHAIN:
            return [take]
        if phase is Phase.AFTER:
            actions = self._plays(seat, self.arrived)
            if self._pass_refusal() is None:
                actions.append(Action.pass_(seat))
            return actions
        actions = self._plays(seat, self.hands[seat])
        if self._take_refusal(seat) is None:
            actions.append(take)
        return actions

    def _plays(self, seat: int, cards: Iterable[Card]) -> list[Action]:
        """Every way to play each of ``cards`` alone on the seat's turn (each way names a
        colour or another seat as its card needs: :meth:`_play_refusal` agrees)."""
        ways = self._ways[seat]
        return [way for card in dict.fromkeys(cards) if self.playable(seat, card)
                for way in ways[card]]

    def _jump_ins(self, seat: int) -> list[Action]:
        """What a seat that is not in turn may play: jump-ins (VARIANTS.md B2)."""
        jump_in = self._house.jump_in
        return [] if jump_in is None else jump_in.plays(self, seat)

    def candidates(self, seat: int, cards: Iterable[Card],
                    refusal: Callable[[Action], Refusal | None]) -> list[Action]:
        """Every way to play each of ``cards`` alone that ``refusal`` does not refuse."""
        ways = self._ways[seat]
        return [way for card in dict.fromkeys(cards) for way in ways[card]
                if refusal(way) is None]

    def _calls(self, seat: int) -> list[Action]:
        """UNO calls, catches and ``out`` that ``seat`` may make now."""
        if self.winner is not None:
            return []  # after a hand is empty only what is owed is made (E5)
        calls: list[Action] = []
        window = self.uno_seat
        house = self._house
        if window == seat or house.false_uno_penalty:
            calls.append(Action.call_uno(seat))
        if house.false_catch_penalty:
            calls += [Action.catch(seat, other) for other in range(self.players)
                      if other != seat]
        elif window is not None and window != seat:
            calls.append(Action.catch(seat, window))
        for hook in house.calls:
            calls += hook(self, seat)
        return calls

    def is_legal(self, action: Action) -> bool:
        return self.illegal_reason(action) is None

    # ------------------------------------------------------------------ why not
    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is not allowed now (naming the rule), or ``None`` if it is: the
        text of :meth:`refusal`, as a transcript records it."""
        refusal = self.refusal(action)
        return None if refusal is None else str(refusal)

    def refusal(self, action: Action) -> Refusal | None:
        """Why ``action`` is not allowed now, as the rule it cites and the seats it names
        (:class:`~uno_attack.refusal.Refusal`), or ``None`` if it is allowed."""
        seat = action.seat
        if not 0 <= seat < self.players:
            return Refusal("there is no seat {0} (seats are 0…{1}, {rule})", "RULES.md 2",
                           words=(seat, self.players - 1))
        shape = _shape_problem(action)
        if shape is not None:
            return shape
        to_act = self.to_act
        if to_act is None:
            assert self.winner is not None  # a round is over once a hand is empty
            return Refusal("the round is over ({seat[0]:went} out, {rule})",
                           self.rules.refs["end"], (self.winner,))
        refs = self.rules.refs
        verb = action.verb
        if verb is Verb.UNO:
            return self._uno_refusal(seat)
        if verb is Verb.CATCH:
            return self._catch_refusal(seat, action.target)
        if verb is Verb.OUT:
            return self._out_refusal(seat)
        if verb is Verb.CHALLENGE:
            return self._challenge_refusal(seat)
        if verb is Verb.CHOOSE:
            return self._choose_refusal(seat)
        if self.phase is Phase.CHOOSE and not self.owed:
            return Refusal("{seat[0]:must} first name the colour of the wild starter "
                           "({rule}: starter table)", refs["setup"], (to_act,))
        take = self.take_verb
        if (verb is _PRESS or verb is _DRAW) and verb is not take:
            return self._wrong_take(verb)
        if self.owed:
            head = self.owed[0]
            if seat != head.seat:
                return self._not_owing_refusal(head, verb)
            if verb is take:
                return None
            if verb is _PLAY:
                return self._answer_refusal(action)
            return Refusal("{seat[0]:owes} {0} ({rule})", refs["effects"], (seat,),
                           (head.describe(),))
        if seat != self.turn:
            jump_in = self._house.jump_in
            if verb is _PLAY and jump_in is not None:
                return jump_in.refusal(self, action)
            return Refusal("it is {seat[0]:'s} turn, not {seat[1]:yours} ({rule})",
                           refs["turn"], (self.turn, seat))
        if verb is take:
            return self._take_refusal(seat)
        if verb is Verb.PASS:
            return self._pass_refusal()
        return self._play_refusal(action)

    def _choose_refusal(self, seat: int) -> Refusal | None:
        """Naming a wild starter's colour: by the player left of the dealer, once any
        penalty owed is made (a false call's is owed at once, VARIANTS.md B8)."""
        setup = self.rules.refs["setup"]
        if self.phase is not Phase.CHOOSE:
            return Refusal("there is no wild starter's colour to name (only at the start, "
                           "{rule})", setup)
        if self.owed:
            head = self.owed[0]
            return Refusal("{seat[0]:owes} {0} first, before the wild starter's colour is "
                           "named ({rule})", "VARIANTS.md B8", (head.seat,), (head.describe(),))
        if seat != self.turn:
            return Refusal("{seat[0]:names} the colour of the wild starter, not {seat[1]} "
                           "({rule}: starter table)", setup, (self.turn, seat))
        return None

    def _not_owing_refusal(self, head: Owed, verb: Verb) -> Refusal:
        """An action of a seat that owes nothing while another seat owes a penalty: the
        rule it breaks is the one that would have let it act (E5, B2), else RULES.md 5."""
        if self.winner is not None:
            return owing(head.seat, head.describe(), _E5, first=True)
        jump_in = self._house.jump_in
        if verb is _PLAY and jump_in is not None:
            return owing(head.seat, head.describe(), jump_in.owed_refusal, first=True)
        return Refusal("{seat[0]:owes} {0} first ({rule})", self.rules.refs["effects"],
                       (head.seat,), (head.describe(),))

    def _wrong_take(self, verb: Verb) -> Refusal:
        if verb is _PRESS:
            return Refusal("{0} has no launcher: cards are drawn ({rule})",
                           self.rules.refs["take"], words=(self.rules.title,))
        return Refusal("{0} has no draw pile: the launcher is pressed ({rule})",
                       self.rules.refs["turn"], words=(self.rules.title,))

    def _after_rule(self) -> str:
        """The rule that lets a card that arrived be played."""
        if self._house.after_rule is not None:
            return self._house.after_rule
        if self.rules.unit is Unit.DRAW:
            return "VARIANTS.md A4"
        return "play_after_press, RULES.md 9"

    def _take_refusal(self, seat: int) -> Refusal | None:
        """Why the seat in turn may not press or draw now (no penalty owed)."""
        take = self.take_verb
        if self.phase is Phase.AFTER:
            may_pass = ", or pass" if self._pass_refusal() is None else ""  # some rules forbid it
            return Refusal("{seat[0]:has} already {0} this turn: play a card that arrived"
                           "{1} ({rule})", self._after_rule(), (seat,), (_PAST[take], may_pass))
        for hook in self._house.take_refusals:
            why: Refusal | None = hook(self, seat)
            if why is not None:
                return why
        return None

    def _pass_refusal(self) -> Refusal | None:
        take = self.take_verb
        if self.phase is Phase.CHAIN:
            return Refusal("the {0}ing goes on until a playable card arrives ({rule})",
                           "VARIANTS.md B5", words=(take,))
        if self.phase is not Phase.AFTER:
            return Refusal("'pass' is only allowed after a {0}, where {rule} lets a card that "
                           "arrived be played", self._after_rule(), words=(take,))
        for hook in self._house.pass_refusals:
            why: Refusal | None = hook(self)
            if why is not None:
                return why
        return None

    def playable(self, seat: int, card: Card) -> bool:
        """:meth:`_alone_refusal` is ``None``, answered without wording a refusal (the
        engine asks this of every card a press or draw brings)."""
        if card not in self._matching[self.discard[-1]][self.color]:
            return False
        kind = self._kinds[card]
        if kind.end_refusal is None and kind.fair is None:
            return True
        return self._card_refusal(seat, card, 1) is None

    def matching_now(self) -> frozenset[Card]:
        """The cards that match the top card and the current colour (RULES.md 4)."""
        return self._matching[self.discard[-1]][self.color]

    def play_refusal_of(self, action: Action, card: Card, n: int) -> Refusal | None:
        """What stops a play of ``n`` cards of ``card``'s kind that has passed the checks of
        its moment (a turn, an answer, a jump-in): the card's own limits, the colour or seat
        it names, and an UNO call with it."""
        return (self._card_refusal(action.seat, card, n) or self._naming_refusal(action)
                or self._uno_call_refusal(action))

    def _alone_refusal(self, seat: int, card: Card) -> Refusal | None:
        """Why ``card`` may not be played by itself from ``seat``'s hand on its turn:
        matching (RULES.md 4), a last card's limits, a Wild Draw Four's fairness."""
        if card not in self._matching[self.discard[-1]][self.color]:
            return Refusal("{0} does not match the top card {1} (current colour {2}): {rule}",
                           self.rules.refs["turn"], words=(card, self.top, self.color))
        return self._card_refusal(seat, card, 1)

    def _card_refusal(self, seat: int, card: Card, n: int) -> Refusal | None:
        """What stops ``n`` cards of ``card``'s kind whatever they answer: a last play's
        limits (RULES.md 4, VARIANTS.md B7) and an unfair Wild Draw Four (B14)."""
        kind = self._kinds[card]
        hand = self.hands[seat]
        if kind.end_refusal is not None:
            # a Discard All is played alone, and its colour's cards (itself too) leave
            left = len(hand) - (n if kind.lays_down is None
                                else len(kind.lays_down(self.rules, hand, card)))
            if left <= 0:
                return kind.end_refusal
        for hook in self._house.card_refusals:
            why: Refusal | None = hook(self, seat, card, kind)
            if why is not None:
                return why
        return None

    def not_held(self, seat: int, cards: str | Card) -> Refusal:
        """``seat 0 does not hold R5 (RULES.md 4)``: a play of cards not in the hand."""
        return Refusal("{seat[0]:does} not hold {0} ({rule})", self.rules.refs["turn"],
                       (seat,), (cards,))

    def _play_refusal(self, action: Action) -> Refusal | None:
        """A play on the seat's own turn (phase PLAY, AFTER or CHAIN)."""
        seat, cards = action.seat, action.cards
        if self.phase is Phase.CHAIN:
            return Refusal("{seat[0]:goes} on {0}ing until a playable card arrives ({rule})",
                           "until_playable, VARIANTS.md B5", (seat,), (self.take_verb.value,))
        if len(cards) > 1:
            return self._multi_refusal(action)
        card = cards[0]
        if card not in self.hands[seat]:
            return self.not_held(seat, card)
        if self.phase is Phase.AFTER and card not in self.arrived:
            return Refusal("after a {0} only a card that just arrived may be played, and {1} "
                           "did not ({rule})", self._after_rule(), words=(self.take_verb, card))
        return (self._alone_refusal(seat, card) or self._naming_refusal(action)
                or self._uno_call_refusal(action))

    def _naming_refusal(self, action: Action) -> Refusal | None:
        """The colour and seat a play names (RULES.md 4, VARIANTS.md B4 and E15)."""
        refs = self.rules.refs
        card = action.cards[0]
        kind = self._kinds[card]
        if kind.wild:
            if action.color is None:
                return Refusal("a wild card names a colour as it is played: 'play {0} red' "
                               "({rule})", refs["turn"], words=(card,))
        elif action.color is not None:
            return Refusal("{0} is not a wild card and names no colour ({rule})", refs["turn"],
                           words=(card,))
        seat, target = action.seat, action.target
        if kind.names_seat:
            ref = "VARIANTS.md B4, E15" if kind.number is not None else refs["turn"]
            if target is None:
                return Refusal("a {0} names the seat to trade with: 'play {1} 2' ({rule})", ref,
                               words=(kind.name, card))
            if target == seat:
                return Refusal("{seat[0]:is} not another seat to trade with ({rule})", ref,
                               (target,))
            if not 0 <= target < self.players:
                return Refusal("seat {0} is not another seat to trade with ({rule})", ref,
                               words=(target,))
        elif target is not None:
            seven = "; a 7 does with seven_zero, VARIANTS.md B4" if kind.number == 7 else ""
            return Refusal("{0} names no seat ({rule})", refs["turn"] + seven, words=(card,))
        return None

    def _uno_call_refusal(self, action: Action) -> Refusal | None:
        """``play X uno`` only where the play leaves exactly one card (RULES.md 7, E19)."""
        if action.uno and self.hand_after(action) != 1:
            return Refusal("UNO may only be called by a player a play leaves holding exactly "
                           "one card ({rule})", f"{self.rules.refs['uno']}, VARIANTS.md E19")
        return None

    def _multi_refusal(self, action: Action) -> Refusal | None:
        """Several cards at once (VARIANTS.md B3)."""
        multi_play = self._house.multi_play
        if multi_play is None:
            return Refusal("one card is played at a time ({rule})",
                           f"{self.rules.refs['turn']}; multi_play, VARIANTS.md B3")
        return multi_play.refusal(self, action)

    def _answer_refusal(self, action: Action) -> Refusal | None:
        """A play by the seat owing the first penalty: stacking (B1) or deflecting (B6)."""
        seat, cards = action.seat, action.cards
        head = self.owed[0]
        owed = head.describe()
        if self.winner is not None:
            return owing(seat, owed, _E5)
        if not self._house.answering:
            return owing(seat, owed, Refusal("penalties can't be passed on or answered with "
                                             "a card ({rule})", self.rules.refs["effects"]))
        if not head.answerable:
            return self._unanswerable(head)
        if len(cards) > 1:
            return owing(seat, owed, _ONE_CARD_ANSWERS)
        card = cards[0]
        if card not in self.hands[seat]:
            return self.not_held(seat, card)
        kind = self._kinds[card]
        cause = head.cause.card
        assert cause is not None
        on = self._kinds[cause]
        for rule, active in self._house.answers:  # stacking (B1), deflecting (B6)
            if rule.answers(kind):
                if active is None:
                    return owing(seat, owed, rule.off)
                why = active.refusal(self, head, card, kind, on)
                if why is not None:
                    return why
                break
        else:
            return owing(seat, owed, _NO_ANSWER)
        return (self._card_refusal(seat, card, 1) or self._naming_refusal(action)
                or self._uno_call_refusal(action))

    def _unanswerable(self, head: Owed) -> Refusal:
        """Why the penalty ``head`` may not be answered by a card."""
        why = head.cause.why
        if why is Why.STARTER:
            return owing(head.seat, head.describe(), _STARTER_UNANSWERED)
        if why is Why.CARD and head.cause.card is not None and \
                self._kinds[head.cause.card].penalty is None:
            return owing(head.seat, head.describe(), _ONLY_DRAW_CARDS_ANSWERED)
        if why is Why.CARD:
            return owing(head.seat, head.describe(), _BEGUN_UNANSWERED)
        return Refusal(OWES + "the penalty of {1} cannot be answered ({rule})", "VARIANTS.md E9",
                       (head.seat,), (head.describe(), head.cause.describe()))

    def _challenge_refusal(self, seat: int) -> Refusal | None:
        """A challenge of a Wild Draw Four (VARIANTS.md A5)."""
        head = self.owed[0] if self.owed else None
        if head is None or head.seat != seat or head.cause.challenge is None \
                or not head.answerable:
            return Refusal("{seat[0]:has} no Wild Draw Four to challenge: only the player who "
                           "must draw 4 for one may, before drawing ({rule})", "VARIANTS.md A5",
                           (seat,))
        if self.winner is not None:
            return _E5
        return None

    def _out_refusal(self, seat: int) -> Refusal | None:
        """Going out on a number (VARIANTS.md B9)."""
        sum_out = self._house.sum_out
        if sum_out is None:
            return Refusal("'out' is a move of sum_out only ({rule})", "VARIANTS.md B9")
        return sum_out.refusal(self, seat)

    def _uno_refusal(self, seat: int) -> Refusal | None:
        if self.winner is not None:
            return _E5
        if self.uno_seat == seat or self._house.false_uno_penalty:
            return None
        return Refusal("{seat[0]:has} no UNO to call: only a player whose play left them "
                       "holding exactly one card may call it, until the window closes ({rule})",
                       f"{self.rules.refs['uno']}; a false call needs false_uno_penalty, "
                       "VARIANTS.md B8", (seat,))

    def _catch_refusal(self, seat: int, target: int | None) -> Refusal | None:
        ref = self.rules.refs["uno"]
        if target is None or not 0 <= target < self.players:
            return Refusal("there is no seat {0} to catch ({rule})", ref, words=(target,))
        if target == seat:
            return Refusal("a player cannot catch themselves ({rule})", f"{ref}, VARIANTS.md E19")
        if self.winner is not None:
            return _E5
        if self.uno_seat != target and not self._house.false_catch_penalty:
            return Refusal("{seat[0]} cannot be caught: only a player who was left holding one "
                           "card by a play and has not called UNO, before the window closes "
                           "({rule})", f"{ref}; a false catch needs false_catch_penalty, "
                           "VARIANTS.md B8", (target,))
        return None

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, *, fired: int | None = None,
              shuffle: Shuffle | None = None) -> Applied:
        """Perform ``action`` and say what happened, or raise :class:`IllegalActionError`
        and change nothing.

        A press needs ``fired``: how many cards the launcher fired (all of them fire if
        fewer are inside). ``shuffle`` reorders a reload of the stock in place.
        """
        refusal = self.refusal(action)
        if refusal is not None:
            raise IllegalActionError(action, refusal)
        if action.verb is _PRESS and (
                isinstance(fired, bool) or not isinstance(fired, int) or fired < 0):
            raise IllegalActionError(action, f"a press needs its outcome: fired={fired!r} "
                                             "is not a count of cards ≥ 0")
        return self.push(action, fired=fired or 0, shuffle=shuffle)

    def push(self, action: Action, *, fired: int = 0,
             shuffle: Shuffle | None = None) -> Applied:
        """Perform an action known to be legal, without checking (the fast path of
        self-play), and say what happened."""
        self.steps += 1
        verb = action.verb
        seat = action.seat
        if self.out_value is not None:
            self.out_value = self.out_by = None  # the chance to go out ends (B9)
        window = self.uno_seat
        if verb is _PLAY:
            if window is not None and window != seat:
                self.uno_seat = None  # another player acted: the window closes (RULES.md 7)
            return self._play(action)
        if verb is _PRESS:
            # a reload's order first: ``shuffle`` may raise, and nothing has changed yet
            reload = None if self.stock else self._reload_order(shuffle)
            if window is not None and window != seat:
                self.uno_seat = None
            return self._press(action, fired, reload)
        if verb is _DRAW:
            owed = self.owed
            need = owed[0].count if owed else 1
            assert need != FIRE, "a draw is never owed until a card fires (that is a press)"
            reload = None
            if need > len(self.stock):  # a reload first: ``shuffle`` may raise
                need = self.draw_size()
                reload = self._reload_order(shuffle)
            if window is not None and window != seat:
                self.uno_seat = None
            return self._draw(action, need, reload)
        if verb is _CATCH:
            return self._catch(action, caught=window == action.target)
        if verb is _UNO:
            return self._call_uno(action, true=window == seat)
        if window is not None and window != seat:
            self.uno_seat = None
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
        elif verb is Verb.CHALLENGE:
            return self._challenge(action)
        else:  # Verb.OUT
            return self._go_out(action)
        return _applied(action, (), self.owed)

    def _reload_order(self, shuffle: Shuffle | None) -> list[Card]:
        """The cards a reload of the stock will load, in order: the discard pile but its
        top (RULES.md 6, VARIANTS.md A2; in discard order unless ``shuffle`` reorders)."""
        cards = self.discard[:-1]
        if shuffle is not None and cards:
            shuffle(cards)
        return cards

    def _reload(self, cards: list[Card]) -> tuple[tuple[Card, ...], ...]:
        """Load ``cards`` (the discard pile but its top) into the stock."""
        if not cards:
            return ()  # a reload that loads nothing takes no record (E3)
        self.stock.extend(cards)
        del self.discard[:-1]
        return (tuple(cards),)

    # -- plays ------------------------------------------------------------------------
    def _play(self, action: Action) -> Applied:
        seat = action.seat
        cards = action.cards
        hand = self.hands[seat]
        kind = self._kinds[cards[0]]
        if self.owed:  # only the seat owing the first penalty plays now: it answers it
            return self._answer(action, kind)
        skipped: tuple[int, ...] = ()
        if seat != self.turn:  # a jump-in: the players passed over lose their turn (B2)
            skipped = self._passed_over(seat)
            self.turn = seat
        challenge = None
        if kind.fair is not None:  # a Wild Draw Four: a house rule may mark it (A5)
            mark = self._house.mark_play
            challenge = None if mark is None else mark(self, seat, cards[0], kind)
        if len(cards) == 1:
            hand.remove(cards[0])
        else:
            for card in cards:
                hand.remove(card)
        if self.phase is not _PLAYING:  # a play after a press or draw
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
            if challenge is not None:
                last = self.owed[-1]
                self.owed[-1] = last._replace(cause=last.cause._replace(challenge=challenge))
        if self._after_plays:
            for hook in self._after_plays:
                hook(self, seat, kind)
        if len(self.hands[seat]) == 1 and not action.uno:
            self.uno_seat = seat
        if skipped:
            moves = Moves(skipped + moves.skipped, moves.hands)
        return _applied(action, played, self.owed, (), (), moves)

    def _passed_over(self, jumper: int) -> tuple[int, ...]:
        """The seats from the one in turn up to the jumper, who lose their turn (B2)."""
        seats = []
        seat = self.turn
        while seat != jumper:
            seats.append(seat)
            seat = self.next_seat(seat)
        return tuple(seats)

    def _answer(self, action: Action, kind: Kind) -> Applied:
        """A stacking (B1) or deflecting (B6) play on the first owed penalty."""
        seat = action.seat
        card = action.cards[0]
        head = self.owed[0]
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.color = card.color or action.color
        if kind.penalty is not None:  # stacking: the next player owes the sum
            del self.owed[0]
            victim = self.next_seat(seat)
            total = head.count + kind.penalty  # type: ignore[operator]
            before = head.cause  # a Draw card's (only those are answerable): card and by
            assert before.card is not None
            assert before.by is not None
            cause = Cause(Why.CARD, card, seat, stack=(*before.stack, (before.card, before.by)))
            self.owed.insert(0, Owed(victim, total, head.unit, cause, True))
            self.turn = self.next_seat(victim)
        else:
            assert kind.deflect is not None
            kind.deflect(self, seat, head)
        if not self.hands[seat]:
            self.winner = seat
            if kind.penalty is None:
                del self.owed[0]  # a last card that deflects: the penalty is dropped (E8)
            if not self.owed:
                self._finish()
            return _applied(action, (card,), self.owed, winner=seat, over=self.phase is _OVER)
        if len(self.hands[seat]) == 1 and not action.uno:
            self.uno_seat = seat
        return _applied(action, (card,), self.owed)

    def _went_out(self, action: Action, kind: Kind, played: tuple[Card, ...]) -> Applied:
        """A last card: only the penalties of its kind as a last card remain (RULES.md 8)."""
        seat = action.seat
        self.winner = seat
        if kind.last is not None:
            kind.last(self, seat, action, len(action.cards))
        if not self.owed:
            self._finish()
        return _applied(action, played, self.owed, winner=seat, over=self.phase is _OVER)

    def _go_out(self, action: Action) -> Applied:
        """``out`` (B9): the hand goes under the top card in canonical order; it wins."""
        seat = action.seat
        hand = self.rules.sort(self.hands[seat])
        self.hands[seat].clear()
        top = self.discard.pop()
        self.discard += [*hand, top]
        self.winner = seat
        self._finish()
        return _applied(action, tuple(hand), self.owed, winner=seat, over=True)

    # -- taking cards ---------------------------------------------------------------
    def _press(self, action: Action, fired: int, reload: list[Card] | None) -> Applied:
        seat = action.seat
        owed = self.owed
        follow = self._follow_take  # a house rule that decides what follows (B5, RULES.md 9)
        before = follow is not None and not owed and follow[0](self, seat)
        stock = self.stock
        reloads: tuple[tuple[Card, ...], ...] = ()
        nothing_to_load = False
        if reload is not None:
            reloads = self._reload(reload)
            nothing_to_load = not reload
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
                owed[0] = _named(Owed, (head.seat, head.count - 1, head.unit,
                                        head.cause, False))
            if not owed and self.winner is not None:
                self._finish()
                return _applied(action, (), owed, gained=gained, reloads=reloads,
                            winner=self.winner, over=True)
        elif follow is None or not before or not follow[1](self, seat, gained, nothing_to_load,
                                                           before):
            self.turn = (seat + self.direction) % self.players
        return _applied(action, (), owed, gained, reloads, _NO_MOVES, None, self.winner)

    def _draw(self, action: Action, need: int, reload: list[Card] | None) -> Applied:
        """A draw (VARIANTS.md A2): what is owed at once, else one card; the pile is
        reloaded whenever it runs empty, and the draw ends with what it could take."""
        seat = action.seat
        follow = self._follow_take  # a house rule that decides what follows (B5)
        before = follow is not None and not self.owed and follow[0](self, seat)
        stock = self.stock
        reloads: tuple[tuple[Card, ...], ...] = ()
        if reload is None:  # the pile holds enough: the common case
            taken = (stock.popleft(),) if need == 1 else tuple(
                [stock.popleft() for _ in range(need)])
        else:
            gained = [stock.popleft() for _ in range(len(stock))]
            reloads = self._reload(reload)
            gained += [stock.popleft() for _ in range(need - len(gained))]
            taken = tuple(gained)
        self.hands[seat].extend(taken)
        if taken and self.uno_seat == seat:
            self.uno_seat = None
        owed = self.owed
        if owed:
            del owed[0]  # one draw makes the whole of one penalty
            if not owed and self.winner is not None:
                self._finish()
                return _applied(action, (), owed, gained=taken, reloads=reloads,
                            winner=self.winner, over=True)
        elif follow is not None and before and follow[1](self, seat, taken, not taken, before):
            pass
        elif taken and self.playable(seat, taken[0]):  # a turn's draw takes one card
            self.phase = Phase.AFTER  # play the card drawn, or pass (A4)
            self.arrived = taken
        else:
            self.turn = (seat + self.direction) % self.players
        return _applied(action, (), owed, taken, reloads, _NO_MOVES, None, self.winner)

    # -- calls, catches, challenges ---------------------------------------------------------
    def _call_uno(self, action: Action, *, true: bool) -> Applied:
        seat = action.seat
        window = self.uno_seat
        if window is not None and window != seat:
            self.uno_seat = None
        if true:
            self.uno_seat = None
        else:  # a false call (B8): its penalty is owed at once, before anything else
            self.owe(seat, self._house.false_uno_penalty, Cause(Why.FALSE_UNO, by=seat),
                     first=True)
        return _applied(action, (), self.owed)

    def _catch(self, action: Action, *, caught: bool) -> Applied:
        seat, target = action.seat, action.target
        assert target is not None
        if self.uno_seat is not None and self.uno_seat != seat:
            self.uno_seat = None
        if caught:
            self.owe(target, self._house.uno_penalty, Cause(Why.CATCH, by=seat), first=True)
        else:  # a false catch (B8)
            self.owe(seat, self._house.false_catch_penalty, Cause(Why.FALSE_CATCH, by=seat),
                     first=True)
        return _applied(action, (), self.owed)

    def _challenge(self, action: Action) -> Applied:
        """A5: a bluff makes its player draw 4 at once, and the challenger has a normal turn;
        a fair Wild Draw Four makes the challenger draw 6 and lose the turn."""
        seat = action.seat
        head = self.owed[0]
        challenge = head.cause.challenge
        assert challenge is not None
        bluffer = challenge.by
        revealed = (bluffer, tuple(self.hands[bluffer]))
        cause = Cause(Why.CHALLENGE, head.cause.card, seat)
        if challenge.bluff:
            self.owed[0] = Owed(bluffer, _BLUFF_PENALTY, head.unit, cause)
            self.turn = seat
        else:
            self.owed[0] = Owed(seat, _FAIR_PENALTY, head.unit, cause)
        return _applied(action, (), self.owed, revealed=revealed)

    def _finish(self) -> None:
        self.phase = _OVER
        self.uno_seat = None
        self.out_value = self.out_by = None

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
            self.arrived, self.uno_seat, self.out_value, self.out_by, self.winner,
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


#: What a round's state is made of; every other slot follows from it (:meth:`Round._derive`).
_STATE = ("arrived", "color", "dealer", "direction", "discard", "hands", "options", "out_by",
          "out_value", "owed", "phase", "players", "steps", "stock", "turn", "uno_seat",
          "winner")


def _unpickled(state: dict[str, object]) -> Round:
    """A round from its pickled state (:meth:`Round.__reduce__`)."""
    game = Round.__new__(Round)
    for name, value in state.items():
        setattr(game, name, value)
    game._derive()
    return game


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


def _shape_problem(action: Action) -> Refusal | None:
    """What an action carries that its verb does not take (for actions built in code)."""
    verb = action.verb
    why = None
    if action.uno and verb is not Verb.PLAY:
        why = "only a play can carry an UNO call, not '{0}'"
    elif verb is Verb.PLAY:
        why = None if action.cards else "a play needs a card"
    elif action.cards:
        why = "'{0}' takes no card"
    elif verb is Verb.CHOOSE:
        if action.color is None or action.target is not None:
            why = "'choose' names one colour and nothing else"
    elif verb is Verb.CATCH:
        if action.color is not None:
            why = "'catch' names a seat, not a colour"
    elif action.color is not None or action.target is not None:
        why = "'{0}' takes no arguments"
    return None if why is None else Refusal(why + " ({rule})", "TRANSCRIPTS.md, Steps",
                                            words=(verb,))


#: Refusals that name no seat and need no word, made once.
_E5 = Refusal("after a hand is empty only what is owed is made ({rule})", "VARIANTS.md E5")
_ONE_CARD_ANSWERS = Refusal("a stacking or deflecting play is one card ({rule})",
                            "VARIANTS.md B3")
_NO_ANSWER = Refusal("only a Draw card stacks and a Skip or Reverse deflects ({rule})",
                     "VARIANTS.md B1, B6")
_STARTER_UNANSWERED = Refusal("a starter's penalty cannot be stacked or deflected ({rule})",
                              "VARIANTS.md E4")
_ONLY_DRAW_CARDS_ANSWERED = Refusal("only a Draw card's penalty can be stacked or deflected "
                                    "({rule})", "VARIANTS.md B1")
_BEGUN_UNANSWERED = Refusal("part of it is made already: it cannot be answered now ({rule})",
                            "VARIANTS.md E9")
