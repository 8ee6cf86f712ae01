"""The environment's fixed spaces: an id for every action, a named slice of the observation
for every fact an agent may see (docs/env.md has both as tables).

One layout serves every rule set and every number of players, so an agent trained on one
table can be tried on another: the cards are those of both decks, and seats are counted
clockwise from the agent (``+1`` is the next seat clockwise, whatever the direction of
play), up to the nine others a table of ten has. What a table cannot do is masked out.

Plays of several cards (``multi_play``) are not in the action space: an agent plays one
card at a time, and an agent whose play leaves it one card calls UNO at once, before anyone
else acts, which is as good as calling with the play (a player who does not call can only be
caught, so the call is never worse); the ``uno`` id is for false calls (VARIANTS.md B8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from gymnasium import spaces

from uno_attack.actions import Action, Verb
from uno_attack.cards import COLORS, Card, Color
from uno_attack.engine import Phase, Round
from uno_attack.options import Options
from uno_attack.penalties import FIRE
from uno_attack.rules import RULE_SETS
from uno_attack.scoring import team_of

MAX_SEATS = 10
OFFSETS = range(1, MAX_SEATS)  # the other seats, clockwise from the agent

#: Every card of every rule set: Attack's in canonical order, then classic's others.
CARDS: tuple[Card, ...] = tuple(dict.fromkeys(c for rules in RULE_SETS.values()
                                              for c in rules.cards))
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}
#: The most copies of one card in any deck: no hand or pile holds more of it.
MAX_COPIES = max(count for rules in RULE_SETS.values() for count in rules.counts.values())
#: The biggest deck: no hand or pile holds more cards; larger penalties show as this.
MAX_CARDS = max(len(rules.deck) for rules in RULE_SETS.values())


def _seat_naming(**options: Any) -> set[Card]:
    """The cards that name a seat as they are played, in either rule set."""
    return {card for name, rules in RULE_SETS.items()
            for card, kind in rules.kinds_for(Options(rules=name, **options)).items()
            if kind.names_seat}


_ALWAYS_NAMING = _seat_naming()  # Trade Hands
_SOMETIMES_NAMING = _seat_naming(seven_zero=True)  # and a 7 under seven_zero


@dataclass(frozen=True)
class Slot:
    """What one action id does: a verb, and the card, colour or seat offset it takes."""

    verb: str  # play, take (press or draw), pass, choose, challenge, uno, catch, out, wait
    card: Card | None = None
    color: Color | None = None
    offset: int | None = None  # a seat, clockwise from the agent

    @property
    def text(self) -> str:
        words = [self.verb]
        if self.card is not None:
            words.append(self.card.code)
        if self.color is not None:
            words.append(self.color.label)
        if self.offset is not None:
            words.append(f"+{self.offset}")
        return " ".join(words)


def _slots() -> tuple[Slot, ...]:
    """In blocks: the coloured cards played alone, the cards that name a seat with each
    seat, the wilds with each colour, then everything that is not a play."""
    coloured = [card for card in CARDS if card.color is not None]
    return (*(Slot("play", card) for card in coloured if card not in _ALWAYS_NAMING),
            *(Slot("play", card, offset=k) for card in coloured if card in _SOMETIMES_NAMING
              for k in OFFSETS),
            *(Slot("play", card, color) for card in CARDS if card.color is None
              for color in COLORS),
            Slot("take"), Slot("pass"), *(Slot("choose", color=c) for c in COLORS),
            Slot("challenge"), Slot("uno"), *(Slot("catch", offset=k) for k in OFFSETS),
            Slot("out"), Slot("wait"))


#: The action space: id ``i`` is ``ACTIONS[i]``.
ACTIONS: tuple[Slot, ...] = _slots()
ACTION_IDS = {slot: i for i, slot in enumerate(ACTIONS)}
TAKE, PASS, CHALLENGE, UNO, OUT, WAIT = (ACTION_IDS[Slot(v)] for v in (
    "take", "pass", "challenge", "uno", "out", "wait"))
_VERB_IDS = {Verb.PRESS: TAKE, Verb.DRAW: TAKE, Verb.PASS: PASS, Verb.CHALLENGE: CHALLENGE,
             Verb.UNO: UNO, Verb.OUT: OUT}
_PLAY, _CATCH, _CHOOSE = Verb.PLAY, Verb.CATCH, Verb.CHOOSE
#: The ids of plays, catches and colour choices by (card, colour, seat offset): a plain
#: tuple key, as masks are made on every step.
_KEYED_IDS = {(slot.card, slot.color, slot.offset): i for i, slot in enumerate(ACTIONS)
              if slot.verb in ("play", "catch", "choose")}


def action_id(action: Action, players: int) -> int | None:
    """The id of a one-card action (``uno`` on a play aside); ``None`` for a play of
    several cards, which the space leaves out."""
    verb = action.verb
    if verb is not _PLAY and verb is not _CATCH and verb is not _CHOOSE:
        return _VERB_IDS[verb]
    cards = action.cards
    if len(cards) > 1:
        return None
    offset = None if action.target is None else (action.target - action.seat) % players
    return _KEYED_IDS[(cards[0] if cards else None, action.color, offset)]


def action_of(action_id: int, seat: int, game: Round) -> Action | None:
    """The engine action id ``action_id`` is for ``seat`` in this round (``None`` for
    ``wait``), or :class:`ValueError` for an id this table has no such action for."""
    slot = ACTIONS[action_id]
    players = game.players
    if slot.offset is not None and slot.offset >= players:
        raise ValueError(f"action {action_id} ({slot.text}) names a seat this table of "
                         f"{players} does not have")
    target = None if slot.offset is None else (seat + slot.offset) % players
    verb = slot.verb
    if verb == "play":
        assert slot.card is not None
        return Action.play(seat, slot.card, slot.color, target)
    if verb == "catch":
        assert target is not None
        return Action.catch(seat, target)
    if verb == "choose":
        assert slot.color is not None
        return Action.choose(seat, slot.color)
    if verb == "take":
        return Action(seat, game.take_verb)
    return None if verb == "wait" else Action(seat, Verb(verb))


def action_mask(legal: Sequence[Action], players: int, *, waiting: bool) -> np.ndarray:
    """1 for the id of each legal action (and ``wait`` where the agent may let the round
    go on), 0 elsewhere."""
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    for action in legal:
        i = action_id(action, players)
        if i is not None:
            mask[i] = 1
    if waiting:
        mask[WAIT] = 1
    return mask


# -- the observation -------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """A slice of the observation: its name, size, largest value and meaning."""

    name: str
    size: int
    high: float
    meaning: str


_PHASES = (Phase.CHOOSE, Phase.PLAY, Phase.AFTER, Phase.CHAIN, Phase.OVER)
OBSERVATION: tuple[Field, ...] = (
    Field("hand", len(CARDS), MAX_COPIES, "how many of each card the agent holds"),
    Field("top", len(CARDS), 1, "the top card of the discard pile (one-hot)"),
    Field("color", len(COLORS), 1, "the current colour: red, yellow, green, blue "
                                   "(none while a wild starter's colour is to be named)"),
    Field("clockwise", 1, 1, "1 while play goes clockwise (increasing seats)"),
    Field("hand_sizes", len(OFFSETS), MAX_CARDS, "cards held by the seat at +1 … +9"),
    Field("seats", len(OFFSETS), 1, "1 where the table has a seat at +1 … +9"),
    Field("team", len(OFFSETS), 1, "1 where the seat at +1 … +9 is on the agent's team"),
    Field("discard", len(CARDS), MAX_COPIES, "how many of each card the discard pile holds"),
    Field("stock_size", 1, MAX_CARDS, "cards in the launcher (or classic's draw pile)"),
    Field("discard_size", 1, MAX_CARDS, "cards in the discard pile"),
    Field("turn", MAX_SEATS, 1, "the seat whose turn it is, at +0 (the agent) … +9"),
    Field("owed_by", MAX_SEATS, 1, "the seat owing the first penalty, at +0 … +9"),
    Field("owed_count", 1, MAX_CARDS, "its presses or draws (0 for press until a card fires)"),
    Field("owed_until_fire", 1, 1, "1 if it is: press until a card fires"),
    Field("owed_answerable", 1, 1, "1 while it may be stacked or deflected"),
    Field("owed_challengeable", 1, 1, "1 while its Wild Draw Four may be challenged"),
    Field("owed_queue", 1, MAX_SEATS * 2, "penalties owed in all"),
    Field("phase", len(_PHASES), 1, "choose (a wild starter's colour), play, after (a press "
                                    "or draw: play a card that came, or pass), chain "
                                    "(until_playable), over"),
    Field("reacting", 1, 1, "1 when the agent is asked out of its turn (a reaction step)"),
    Field("uno_window", MAX_SEATS, 1, "the seat that may be caught without UNO, at +0 … +9"),
    Field("out_open", 1, 1, "1 right after a number is played under sum_out"),
    Field("out_number", 1, 9, "that number"),
)
_STARTS: dict[str, int] = {}
_at = 0
for _field in OBSERVATION:
    _STARTS[_field.name] = _at
    _at += _field.size
OBSERVATION_SIZE = _at
#: The highest value of each element, for the observation space's bounds.
OBSERVATION_HIGH = np.concatenate([np.full(f.size, f.high, dtype=np.float32)
                                   for f in OBSERVATION])


def observation_box() -> spaces.Box:
    """The observation array's space: each element from 0 to its field's most."""
    return spaces.Box(low=0.0, high=OBSERVATION_HIGH, shape=(OBSERVATION_SIZE,),
                      dtype=np.float32)


def field_slice(name: str) -> slice:
    """Where a named field lies in the observation array."""
    start = _STARTS[name]
    size = next(f.size for f in OBSERVATION if f.name == name)
    return slice(start, start + size)


(_HAND, _TOP, _COLOR, _CLOCKWISE, _SIZES, _SEATS, _TEAM, _DISCARD, _STOCK, _DISCARD_SIZE,
 _TURN, _OWED_BY, _OWED_COUNT, _OWED_FIRE, _OWED_ANSWERABLE, _OWED_CHALLENGEABLE,
 _OWED_QUEUE, _PHASE, _REACTING, _UNO, _OUT_OPEN, _OUT_NUMBER) = _STARTS.values()
_COLOR_INDEX = {color: i for i, color in enumerate(COLORS)}
_PHASE_INDEX = {phase: i for i, phase in enumerate(_PHASES)}


def _counts(cards: Sequence[Card]) -> np.ndarray:
    """How many of each card, by card index."""
    index = np.fromiter(map(CARD_INDEX.__getitem__, cards), dtype=np.intp, count=len(cards))
    return np.bincount(index, minlength=len(CARDS))


@cache
def _table_fields(players: int, teams: int, seat: int) -> tuple[list[float], list[float]]:
    """The ``seats`` and ``team`` fields, which the table fixes."""
    seats = [1.0 if k < players else 0.0 for k in OFFSETS]
    mates = [1.0 if k < players and teams and
             team_of((seat + k) % players, teams) == team_of(seat, teams) else 0.0
             for k in OFFSETS]
    return seats, mates


def observe(game: Round, seat: int, *, reacting: bool = False) -> np.ndarray:
    """What ``seat`` may see of the round, as the observation array (float32)."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    n = game.players
    obs[_HAND:_HAND + len(CARDS)] = _counts(game.hands[seat])
    obs[_DISCARD:_DISCARD + len(CARDS)] = _counts(game.discard)
    obs[_TOP + CARD_INDEX[game.top]] = 1
    if game.color is not None:
        obs[_COLOR + _COLOR_INDEX[game.color]] = 1
    obs[_CLOCKWISE] = game.direction == 1
    hands = game.hands
    obs[_SIZES:_SIZES + n - 1] = [len(hands[(seat + k) % n]) for k in range(1, n)]
    seats, mates = _table_fields(n, game.options.teams, seat)
    obs[_SEATS:_SEATS + len(OFFSETS)] = seats
    obs[_TEAM:_TEAM + len(OFFSETS)] = mates
    obs[_STOCK] = min(len(game.stock), MAX_CARDS)
    obs[_DISCARD_SIZE] = len(game.discard)
    obs[_TURN + (game.turn - seat) % n] = 1
    if game.owed:
        first = game.owed[0]
        obs[_OWED_BY + (first.seat - seat) % n] = 1
        if first.count == FIRE:
            obs[_OWED_FIRE] = 1
        else:
            obs[_OWED_COUNT] = min(first.count, MAX_CARDS)
        obs[_OWED_ANSWERABLE] = first.answerable
        obs[_OWED_CHALLENGEABLE] = first.cause.challenge is not None and first.answerable
        obs[_OWED_QUEUE] = min(len(game.owed), MAX_SEATS * 2)
    obs[_PHASE + _PHASE_INDEX[game.phase]] = 1
    obs[_REACTING] = reacting
    if game.uno_seat is not None:
        obs[_UNO + (game.uno_seat - seat) % n] = 1
    if game.out_value is not None:
        obs[_OUT_OPEN] = 1
        obs[_OUT_NUMBER] = game.out_value
    return obs
