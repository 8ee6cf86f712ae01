"""The table loop: one round, one launcher, one player or bot per seat.

The table asks whose move it is, gets it from that seat's player, applies it to the
engine and, when the engine needs a press outcome, asks the launcher. It records every
action in a transcript (the saved game) and, given a journal, rewrites that file
atomically after every action, so a crash loses nothing (a write that fails is kept in
the journal for the front end to show; the game goes on).

Front ends drive it step by step (:meth:`Table.perform`, :meth:`Table.bot_turn`,
:meth:`Table.bot_reactions`); self-play runs :meth:`Table.play_round`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from uno_attack.actions import Action, Verb
from uno_attack.bots import Player
from uno_attack.cards import Card
from uno_attack.engine import Round
from uno_attack.errors import IllegalActionError, LauncherError
from uno_attack.journal import Journal
from uno_attack.launcher import EjectStatus, Launcher, PressResult
from uno_attack.scoring import RoundResult
from uno_attack.transcript import ActionStep, Transcript
from uno_attack.wording import as_object, count, verb_for


class UnknownPressOutcome(LauncherError):
    """The launcher could not tell how many cards came out; a person must say."""

    def __init__(self, result: PressResult) -> None:
        super().__init__(f"the launcher lost count after {result.fired} card(s) "
                         f"({result.detail or result.status}); how many came out?")
        self.result = result


@dataclass(frozen=True)
class TableEvent:
    """One action as it happened: for the log, the screen and the statistics."""

    action: Action
    press: PressResult | None = None
    fired: tuple[Card, ...] = ()
    reloaded: int = 0
    names: tuple[str, ...] = field(default=(), repr=False)
    penalty: int = 0  # for a catch: the presses the caught player now owes

    def describe(self) -> str:
        """One line for a game log: who did what, what fired, who was caught."""
        a = self.action
        who = self.names[a.seat] if a.seat < len(self.names) else f"seat {a.seat}"
        if a.verb is Verb.PLAY:
            assert a.card is not None
            text = f"{who} played {a.card.name}"
            if a.color is not None:
                text += f", naming {a.color}"
            if a.target is not None:
                other = self.names[a.target] if a.target < len(self.names) else a.target
                text += f", trading hands with {as_object(str(other))}"
            return text + (" and called UNO!" if a.uno else "")
        if a.verb is Verb.PRESS:
            text = f"{who} pressed the launcher"
            if self.reloaded:
                text += f" (reloaded with {count(self.reloaded, 'card')})"
            n = len(self.fired)
            text += ": nothing fired" if n == 0 else f": {n} card{'s' if n != 1 else ''} fired!"
            if self.press is not None and self.press.status not in (EjectStatus.OK,):
                text += f" [{self.press.status}]"
            return text
        if a.verb is Verb.CATCH:
            other = self.names[a.target] if a.target is not None and a.target < len(
                self.names) else f"seat {a.target}"
            owes = verb_for(other, "owes", "owe")
            return (f"{who} caught {as_object(other)} without UNO: {as_object(other)} {owes} "
                    f"{count(self.penalty, 'press', 'presses')}")
        if a.verb is Verb.UNO:
            return f"{who} called UNO!"
        if a.verb is Verb.CHOOSE:
            return f"{who} named {a.color} for the starter"
        return f"{who} passed"


def reaction_order(game: Round) -> list[int]:
    """Who may act out of turn now, in the order they are asked: while an UNO window is
    open, the others in seat order from the player who forgot, who may remember last."""
    window = game.uno_seat
    if window is None or game.over:
        return []
    return [(window + i) % game.players for i in range(1, game.players + 1)]


@dataclass
class Table:
    """A round in play: engine, players, launcher, and the transcript being written."""

    game: Round
    players: Sequence[Player]
    launcher: Launcher
    record: Transcript
    reload_rng: random.Random = field(default_factory=random.Random)
    journal: Journal | None = None
    on_event: Callable[[TableEvent], None] | None = None
    events: list[TableEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.names = tuple(p.name for p in self.players)
        self._save()

    def _save(self) -> None:
        if self.journal is not None:
            self.journal.write(self.record.dumps())

    # -- state ---------------------------------------------------------------------
    @property
    def seat_to_act(self) -> int | None:
        return self.game.to_act

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def result(self) -> RoundResult | None:
        return self.game.result

    def available(self) -> int:
        """Cards the next press can fire: the launcher, or what a reload would load."""
        game = self.game
        return len(game.launcher) if game.launcher else len(game.discard) - 1

    # -- acting --------------------------------------------------------------------
    def press_launcher(self) -> PressResult:
        """Press the launcher (may block while a motor runs; call from a worker thread)."""
        result = self.launcher.press(available=self.available())
        if result.status is EjectStatus.UNKNOWN:
            raise UnknownPressOutcome(result)
        return result

    def perform(self, action: Action, *, press: PressResult | None = None,
                fired: int | None = None, checked: bool = False) -> TableEvent:
        """Apply an action; a press uses ``press`` or ``fired``, else the launcher.

        ``checked=True`` skips the rule check, for an action taken from ``legal_actions()``.

        Raises :class:`~uno_attack.errors.IllegalActionError` and changes nothing when the
        action is not allowed.
        """
        game = self.game
        reason = None if checked else game.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(action, reason)
        reloaded: list[Card] = []
        if action.verb is Verb.PRESS:
            if fired is None:
                press = press or self.press_launcher()
                fired = press.fired
            before = len(game.hands[action.seat])

            def shuffle(cards: list[Card]) -> None:
                self.reload_rng.shuffle(cards)
                reloaded.extend(cards)

            if isinstance(fired, bool) or not isinstance(fired, int) or fired < 0:
                raise IllegalActionError(action, f"a press needs a count of cards ≥ 0, "
                                                 f"not {fired!r}")
            game.push(action, fired=fired, shuffle=shuffle)  # checked above
            got = tuple(game.hands[action.seat][before:])
            self.record.fires.append(fired)
            if reloaded:
                self.record.reloads = [*(self.record.reloads or []), list(reloaded)]
        else:
            game.push(action)  # checked above
            got = ()
        penalty = game.owed[0][1] if action.verb is Verb.CATCH else 0
        self.record.steps.append(ActionStep(action))
        event = TableEvent(action, press, got, len(reloaded), self.names, penalty)
        self.events.append(event)
        self._save()
        if self.on_event is not None:
            self.on_event(event)
        return event

    def bot_turn(self) -> TableEvent | None:
        """Let the seat to act choose and act, if its player chooses by itself."""
        seat = self.game.to_act
        if seat is None:
            return None
        player = self.players[seat]
        legal = self.game.legal_actions()
        action = player.choose(self.game, seat, legal)
        # an action handed back from the legal list itself needs no second check
        return self.perform(action, checked=any(a is action for a in legal))

    def bot_reactions(self, *, exclude: int | None = None) -> list[TableEvent]:
        """Out-of-turn actions (catch, UNO) while an UNO window is open.

        The others look first, in seat order from the player who forgot, who may remember
        last; the first catch or call closes the window.
        """
        for seat in reaction_order(self.game):
            if seat == exclude:
                continue
            action = self.players[seat].react(self.game, seat)
            if action is not None and self.game.is_legal(action):
                return [self.perform(action)]
        return []

    def play_round(self, *, max_actions: int = 100_000) -> RoundResult:
        """Play to the end with every seat choosing by itself (bots)."""
        while not self.game.over:
            if len(self.record.steps) >= max_actions:
                raise RuntimeError(f"round did not end within {max_actions} actions")
            event = self.bot_turn()
            assert event is not None
            if self.game.uno_seat is not None:
                self.bot_reactions(exclude=event.action.seat)
        assert self.game.result is not None
        return self.game.result
