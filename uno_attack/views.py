"""What each seat may see: the ``hello`` and ``view`` messages of NETWORK.md, as typed
values in their JSON form.

This is the one place that decides what a connection is shown. A hand goes only to its
own seat, until the round is over (NETWORK.md, settled point 8); a watcher gets neither a
hand nor ``legal``. The functions are pure: they read the engine's state and the host's
public facts (names, scores, log, tension, prompt) and build :class:`Hello` and
:class:`View` values: typed dicts, each field declared with its type, that go to JSON and
back unchanged, so the terminal client can draw the same views the page does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from uno_attack.actions import Action
from uno_attack.cards import codes
from uno_attack.engine import Round
from uno_attack.options import Options
from uno_attack.penalties import Cause, Why
from uno_attack.rules import rule_set
from uno_attack.rules.base import CardKind
from uno_attack.wording import as_object, possessive

#: How many log lines a view carries (NETWORK.md, settled point 5).
LOG_LINES = 10


class PromptJSON(TypedDict):
    """A :class:`Prompt` in a ``view`` (docs/network.md, the ``prompt``)."""

    seat: int
    message: str
    actions: list[str]
    fired: int


class _HelloFields(TypedDict):
    type: Literal["hello"]
    seat: int | None
    name: str | None
    players: list[str]
    options: dict[str, Any]
    cards: dict[str, CardKind]


class Hello(_HelloFields, total=False):
    """The ``hello`` (docs/network.md): the first message of every connection; ``people``
    only from a host. (Optional keys are declared with ``total=False``: ``NotRequired``
    is not read from this module's postponed annotations before Python 3.12.)"""

    people: list[int]


class Taken(TypedDict):
    """The seat that just pressed or drew, and how many cards it got."""

    seat: int
    count: int


class Revealed(TypedDict):
    """A challenged hand, for the challenger's eyes (settled point 9)."""

    seat: int
    hand: list[str]


class _ViewFields(TypedDict):
    type: Literal["view"]
    turn: int | None
    top: str
    color: str | None
    direction: str
    hand_sizes: list[int]
    owed: list[list[int | str]]
    owed_what: list[str]
    owed_why: list[str]
    scores: list[int]
    winner: int | None
    log: list[str]
    log_start: int
    tension: int
    stock: int
    phase: str
    taken: Taken | None
    round: int
    step: int
    uno_window: int | None
    uno_called: list[int]
    busy: int | None
    away: list[int]
    connected: list[int]
    deadline: float | None
    round_points: list[int] | None
    match_winner: list[int] | None
    next_round_in: float | None


class View(_ViewFields, total=False):
    """A ``view`` (NETWORK.md and docs/network.md) without its ``seq``, which belongs to
    the connection: every seat's ``hands`` once the round is over; ``hand``, ``revealed``,
    ``prompt`` and ``legal`` only for a seat."""

    hands: list[list[str]]
    hand: list[str]
    revealed: Revealed
    prompt: PromptJSON
    legal: list[str]


@dataclass(frozen=True)
class Prompt:
    """A question only a person can answer, put to one seat (a launcher problem).

    ``actions`` are the answers, as action strings; while the prompt is open they are the
    seat's whole ``legal`` list. ``fired`` is how many cards are known to have come out so
    far (the likely answer).
    """

    seat: int
    message: str
    actions: tuple[str, ...]
    fired: int = 0

    def to_json(self) -> PromptJSON:
        return {"seat": self.seat, "message": self.message, "actions": list(self.actions),
                "fired": self.fired}


@dataclass(frozen=True)
class TableFacts:
    """What the host knows beside the engine's state, all of it public.

    ``scores`` are the match totals per seat; ``step`` counts the round's actions so far
    (two views of the same step show the same game); ``busy`` the seat whose press the launcher
    is firing; ``away`` the seats a bot plays for; ``round_points`` and ``match_winner``
    are set once the round is scored; ``deadline`` is the seconds left on the turn timer;
    ``revealed`` is a challenged hand, for the challenger's eyes only, until the next action;
    ``taken`` is the seat that just pressed or drew and how many cards it got, until the
    next action (a front end shows the burst); ``called`` the seats that hold one card and
    called UNO for it (a forgotten call shows apart).
    """

    names: tuple[str, ...]
    scores: tuple[int, ...]
    log: tuple[str, ...] = ()
    log_start: int = 0  # how many lines of the whole log came before ``log``
    tension: int = 0
    round_no: int = 1
    step: int = 0
    busy: int | None = None
    prompt: Prompt | None = None
    away: tuple[int, ...] = ()
    connected: tuple[int, ...] = ()
    round_points: tuple[int, ...] | None = None
    match_winner: tuple[int, ...] | None = None
    next_round_in: float | None = None
    deadline: float | None = None
    revealed: tuple[int, int, tuple[str, ...]] | None = None  # (challenger, seat, hand)
    taken: tuple[int, int] | None = None  # (seat, cards) of the last press or draw
    called: tuple[int, ...] = ()  # seats holding one card who called UNO for it


def hello(seat: int | None, names: Sequence[str], options: Options,
          people: Sequence[int] | None = None) -> Hello:
    """The first message of a connection: who it is and who sits where, the rule set's card
    kinds (names, faces, effects: the page keeps no copy) and, from a host, which seats are
    people (one not connected is waited for, not thinking)."""
    message: Hello = {
        "type": "hello",
        "seat": seat,
        "name": names[seat] if seat is not None else None,
        "players": list(names),
        "options": options.to_dict(),
        "cards": rule_set(options.rules).card_kinds,
    }
    if people is not None:
        message["people"] = list(people)
    return message


def legal_strings(game: Round, seat: int) -> list[str]:
    """Every action ``seat`` may take now, as a transcript's ``legal`` writes them (without
    the seat and the ``uno`` suffix), out-of-turn ones (UNO, catch) included."""
    return [action.text(seat=False, uno=False) for action in legal_actions(game, seat)]


def legal_actions(game: Round, seat: int, facts: TableFacts | None = None) -> list[Action]:
    """What a view lists as ``seat``'s ``legal``, as values: every action it may take now,
    none once the round is over or while the launcher decides a press (``facts.busy``, a
    prompt: only its answers, which are no actions of the rules)."""
    if game.over or (facts is not None and (facts.busy is not None
                                            or facts.prompt is not None)):
        return []
    return game.legal_actions(seat)


def view(game: Round, facts: TableFacts, seat: int | None) -> View:
    """The ``view`` of the table for ``seat`` (``None``: a watcher), without its ``seq``,
    which belongs to the connection."""
    message: View = {
        "type": "view",
        "turn": game.to_act,
        "top": game.top.code,
        "color": game.color.label if game.color is not None else None,
        "direction": game.direction_name,
        "hand_sizes": [len(hand) for hand in game.hands],
        "owed": game.owed_list(),
        "owed_what": [owed.describe() for owed in game.owed],
        "owed_why": owed_why(game, facts.names),
        "scores": list(facts.scores),
        "winner": game.winner,
        "log": list(facts.log[-LOG_LINES:]),
        "log_start": facts.log_start + max(len(facts.log) - LOG_LINES, 0),
        "tension": facts.tension,
        "stock": len(game.stock),
        "phase": game.phase.value,
        "taken": None if facts.taken is None else {"seat": facts.taken[0],
                                                   "count": facts.taken[1]},
        "round": facts.round_no,
        "step": facts.step,
        "uno_window": game.uno_seat,
        "uno_called": list(facts.called),
        "busy": facts.busy,
        "away": list(facts.away),
        "connected": list(facts.connected),
        "deadline": facts.deadline,
        "round_points": list(facts.round_points) if facts.round_points is not None else None,
        "match_winner": list(facts.match_winner) if facts.match_winner is not None else None,
        "next_round_in": facts.next_round_in,
    }
    if game.over:
        message["hands"] = [codes(hand) for hand in game.hands]  # settled point 8
    if seat is not None:
        message["hand"] = codes(game.hands[seat])
        revealed = facts.revealed
        if revealed is not None and revealed[0] == seat:  # settled point 9: the challenger
            message["revealed"] = {"seat": revealed[1], "hand": list(revealed[2])}
        prompt = facts.prompt
        if prompt is not None and prompt.seat == seat:
            message["prompt"] = prompt.to_json()
            message["legal"] = list(prompt.actions)
        else:  # none while the launcher is deciding a press: nobody else acts
            message["legal"] = [action.text(seat=False, uno=False)
                                for action in legal_actions(game, seat, facts)]
    return message


def owed_why(game: Round, names: Sequence[str]) -> list[str]:
    """Why each owed entry is owed, in words: ``Ann played red Hit 2``, ``the starter
    Wild Hit-Fire``, ``caught without UNO by Bob``, ``your challenge``, ``two Draw Twos
    stacked (Ann, Cleo)`` (``You``, the one person at a keyboard, reads as ``you``)."""
    out = []
    for owed in game.owed:
        cause = owed.cause
        by = names[cause.by] if cause.by is not None else "someone"
        card = game.rules.card_name(cause.card) if cause.card is not None else "a card"
        if cause.why is Why.CARD and cause.stack:
            out.append(_stack_words(game, cause, names))
            continue
        out.append({
            Why.CARD: f"{by} played {card}",
            Why.STARTER: f"the starter {card}",
            Why.CATCH: f"caught without UNO by {as_object(by)}",
            Why.FALSE_UNO: "a false UNO call",
            Why.FALSE_CATCH: "a false catch",
            Why.CHALLENGE: f"{possessive(by)} challenge",
        }[cause.why])
    return out


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten")


def _stack_words(game: Round, cause: Cause, names: Sequence[str]) -> str:
    """A penalty of several Draw cards: ``two Draw Twos stacked (Ann, Cleo)``, ``Ann
    played two Hit 2s`` (at once), ``Draw Two and Wild Draw Four stacked (Ann, Bob)``."""
    assert cause.card is not None
    assert cause.by is not None
    played = [*cause.stack, (cause.card, cause.by)]
    kinds = [game.kind(card).name for card, _ in played]
    if len(set(kinds)) == 1:
        n = len(kinds)
        what = f"{_NUMBERS[n] if n < len(_NUMBERS) else n} {kinds[0]}s"
    else:
        what = ", ".join(kinds[:-1]) + " and " + kinds[-1]
    players = list(dict.fromkeys(names[by] for _, by in played))
    if len(players) == 1:
        return f"{players[0]} played {what}"
    return f"{what} stacked ({', '.join(players)})"
