"""The table loop: one round, one launcher, one player or bot per seat.

The table asks whose move it is, gets it from that seat's player, applies it to the
engine and, when the engine needs a press outcome, asks the launcher. What an action did
is the engine's answer (:class:`~uno_attack.engine.Applied`): the table records it in a
transcript (the saved game) and, given a journal, rewrites that file atomically after
every action, so a crash loses nothing (a write that fails is kept in the journal for
the front end to show; the game goes on).

Who decides next is :mod:`uno_attack.turns`' answer, held as :attr:`Table.turns`. Front
ends make their seats' decisions and :meth:`Table.perform` them; a bot's decision is made
by :meth:`Table.step`, and self-play (:meth:`Table.play_round`) is nothing but steps.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from uno_attack.actions import Action, Verb
from uno_attack.bots import Player
from uno_attack.cards import Card
from uno_attack.engine import Applied, Phase, Round
from uno_attack.errors import IllegalActionError, LauncherError, UnoAttackError
from uno_attack.journal import Journal
from uno_attack.launcher import EjectStatus, Launcher, PressResult
from uno_attack.penalties import FIRE, Owed, Unit, Why
from uno_attack.rules import RuleSet
from uno_attack.scoring import RoundResult
from uno_attack.transcript import ActionStep, Transcript
from uno_attack.turns import Turns
from uno_attack.wording import as_object, count, possessive, verb_for


class RoundTooLong(UnoAttackError):
    """Self-play went on past its bound (random players under ``until_playable``, who
    press or draw while they could play, may never finish a round)."""


class UnknownPressOutcome(LauncherError):
    """The launcher could not tell how many cards came out; a person must say."""

    def __init__(self, result: PressResult) -> None:
        super().__init__(f"the launcher lost count after {result.fired} card(s) "
                         f"({result.detail or result.status}); how many came out?")
        self.result = result


@dataclass(frozen=True)
class TableEvent:
    """One action as it happened: for the log, the screen and the statistics."""

    applied: Applied
    rules: RuleSet
    press: PressResult | None = None
    names: tuple[str, ...] = field(default=(), repr=False)
    jumped_in: bool = False
    """A play out of turn (VARIANTS.md B2): the log says so, since the turn moved to it."""

    @property
    def action(self) -> Action:
        return self.applied.action

    @property
    def fired(self) -> tuple[Card, ...]:
        """The cards the acting seat took (fired by a press, or drawn)."""
        return self.applied.gained

    @property
    def reloaded(self) -> int:
        """How many cards were loaded into the launcher (or pile) by this action."""
        return sum(map(len, self.applied.reloads))

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        return self.names[seat] if seat < len(self.names) else f"seat {seat}"

    def describe(self) -> str:
        """One line for a game log: who did what, what fired, who was caught."""
        a = self.action
        who = self._name(a.seat)
        if a.verb is Verb.PLAY:
            cards = _and(self.rules.card_name(c) for c in a.cards)
            text = f"{who} jumped in with {cards}" if self.jumped_in else f"{who} played {cards}"
            if a.color is not None:
                text += f", naming {a.color}"
            if a.target is not None:
                text += f", trading hands with {as_object(self._name(a.target))}"
            return text + (" and called UNO!" if a.uno else "")
        if a.verb is Verb.PRESS:
            text = f"{who} pressed the launcher"
            if self.reloaded:
                text += f" (reloaded with {count(self.reloaded, 'card')})"
            n = len(self.fired)
            text += ": nothing fired" if n == 0 else f": {count(n, 'card')} fired!"
            if self.press is not None and self.press.status not in (EjectStatus.OK,):
                text += f" [{self.press.status}]"
            return text
        if a.verb is Verb.DRAW:
            n = len(self.fired)
            text = f"{who} drew {count(n, 'card')}"
            return text + (f" (the pile was reloaded with {self.reloaded})"
                           if self.reloaded else "")
        owed = self.applied.owed
        if a.verb is Verb.CATCH:
            other = self._name(a.target)
            first = owed[0]
            if first.cause.why is Why.FALSE_CATCH:
                return (f"{who} falsely caught {as_object(other)}: {as_object(who)} "
                        f"{_penalty(who, first)}")
            return (f"{who} caught {as_object(other)} without UNO: {as_object(other)} "
                    f"{_penalty(other, first)}")
        if a.verb is Verb.UNO:
            if owed and owed[0].cause.why is Why.FALSE_UNO and owed[0].cause.by == a.seat:
                return (f"{who} called UNO falsely: {as_object(who)} "
                        f"{_penalty(who, owed[0])}")
            return f"{who} called UNO!"
        if a.verb is Verb.CHOOSE:
            return f"{who} named {a.color} for the starter"
        if a.verb is Verb.CHALLENGE:
            revealed = self.applied.revealed
            assert revealed is not None
            bluffer = self._name(revealed[0])
            if owed[0].seat == a.seat:
                return (f"{who} challenged {possessive(bluffer)} Wild Draw Four, which was "
                        f"fair: {as_object(who)} {_penalty(who, owed[0])}")
            return (f"{who} challenged {possessive(bluffer)} Wild Draw Four, a bluff: "
                    f"{as_object(bluffer)} {_penalty(bluffer, owed[0])}")
        if a.verb is Verb.OUT:
            hand = _and(self.rules.card_name(c) for c in self.applied.played)
            return f"{who} went out with {hand}"
        return f"{who} passed"


def _penalty(name: str, owed: Owed) -> str:
    """``owes 2 presses`` (``owe`` for you), ``draws 2 cards``."""
    n = owed.count
    assert n != FIRE, "a catch, a false call and a challenge owe a count"
    if owed.unit is Unit.DRAW:
        return f"{verb_for(name, 'draws', 'draw')} {count(n, 'card')}"
    return f"{verb_for(name, 'owes', 'owe')} {count(n, 'press', 'presses')}"


def _and(words: Iterable[str]) -> str:
    items = list(words)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


_OVER, _PRESS, _DRAW = Phase.OVER, Verb.PRESS, Verb.DRAW  # looked up once per module
_UNKNOWN = EjectStatus.UNKNOWN


def _too_long(max_actions: int) -> RoundTooLong:
    return RoundTooLong(f"the round did not end within {max_actions} actions")


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
    recording: bool = True  # write each action into the record (statistics need not)
    asks: Callable[[int], bool] | None = None  # which seats are asked out of turn (Turns)
    ejects_draws: bool = True  # a classic draw ejects its cards (not for a simulated pile)
    actions: int = 0      # actions applied
    takes: int = 0        # presses (or draws) made
    cards_taken: int = 0  # cards they brought in

    def __post_init__(self) -> None:
        self.names = tuple(p.name for p in self.players)
        self._shuffle = self.reload_rng.shuffle  # a press's or draw's reload, made once
        self.turns = Turns(self.game, asks=self.asks)
        self.turns.acted()  # a deal may open a chance (a starter to jump in on)
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
        """The round's score by the record's match, once it is over."""
        return self.record.score(self.game)

    def available(self) -> int:
        """Cards the next press can fire: the launcher, or what a reload would load."""
        game = self.game
        return len(game.stock) if game.stock else len(game.discard) - 1

    # -- acting --------------------------------------------------------------------
    def press_launcher(self) -> PressResult:
        """Press the launcher (may block while a motor runs; call from a worker thread)."""
        result = self.launcher.press(available=self.available())
        if result.status is _UNKNOWN:
            raise UnknownPressOutcome(result)
        return result

    def eject_draw(self) -> PressResult | None:
        """A draw of ``n`` cards is one eject of exactly ``n`` by the launcher serving as
        the draw pile (VARIANTS.md A2; its ejection policy is not used). The engine takes
        the cards from its model of the pile; a simulated launcher ejects nothing real."""
        n = self.game.draw_size()
        if n < 1:
            return None
        result = self.launcher.eject(n, available=n)
        if result.status is EjectStatus.UNKNOWN:
            raise UnknownPressOutcome(result)
        return result

    def eject_again(self, count: int, *, available: int) -> PressResult:
        """After a take the launcher could not finish: eject the ``count`` cards it still
        owes (the ejection policy is not asked again)."""
        return self.launcher.eject(count, available=available)

    def perform(self, action: Action, checked: bool = False, *,
                press: PressResult | None = None, fired: int | None = None,
                eject: bool = True) -> TableEvent:
        """Apply an action; a press uses ``press`` or ``fired``, else the launcher; a draw
        uses ``press`` (the eject a front end ran) or ejects the cards itself, unless
        ``eject=False`` (a game rebuilt from its journal: the cards came out long ago).

        ``checked=True`` skips the rule check, for an action taken from ``legal_actions()``.

        Raises :class:`~uno_attack.errors.IllegalActionError` and changes nothing when the
        action is not allowed.
        """
        jumped_in = action.verb is Verb.PLAY and action.seat != self.game.to_act
        applied, press = self._settle(action, checked, press, fired, eject)
        event = TableEvent(applied, self.game.rules, press, self.names, jumped_in)
        self.events.append(event)
        self._save()
        if self.on_event is not None:
            self.on_event(event)
        return event

    def _settle(self, action: Action, checked: bool, press: PressResult | None = None,
                fired: int | None = None, eject: bool = True,
                ) -> tuple[Applied, PressResult | None]:
        """:meth:`perform` short of its event: the rule check, the launcher's part, the
        engine's, the record, and who decides next."""
        game = self.game
        if not checked:
            reason = game.illegal_reason(action)
            if reason is not None:
                raise IllegalActionError(action, reason)
        verb = action.verb
        if verb is _PRESS:
            if fired is None:
                if press is None:
                    press = self.press_launcher()
                fired = press.fired
            elif isinstance(fired, bool) or not isinstance(fired, int) or fired < 0:
                raise IllegalActionError(action, f"a press needs a count of cards ≥ 0, "
                                                 f"not {fired!r}")
            applied = game.push(action, fired=fired, shuffle=self._shuffle)
            self.takes += 1
        elif verb is _DRAW:
            if press is None and eject and self.ejects_draws:
                press = self.eject_draw()
            applied = game.push(action, shuffle=self._shuffle)
            self.takes += 1
        else:
            applied = game.push(action)  # checked above
        self.actions += 1
        self.cards_taken += len(applied.gained)
        if self.recording:
            self._write(action, fired, applied.reloads)
        turns = self.turns
        if turns.reacting or game.reactions_open():  # else nobody is asked, then or now
            turns.acted()
        return applied, press

    def _write(self, action: Action, fired: int | None,
               reloads: tuple[tuple[Card, ...], ...]) -> None:
        """Record an action in the transcript: its step, a press's count, its reloads."""
        record = self.record
        if action.verb is Verb.PRESS:
            record.fires.append(fired)  # type: ignore[arg-type]
        if reloads:
            record.reloads = [*(record.reloads or []), *map(list, reloads)]
        record.steps.append(ActionStep(action))

    def step(self) -> TableEvent | None:
        """Make the next action the round waits for (:attr:`turns`) by its seat's own
        player, a bot: a reaction, when one of the seats asked out of turn takes its
        chance, else the move of the seat to act; ``None`` once the round is over."""
        action = self._decide()
        return None if action is None else self.perform(action, checked=True)

    def bot_reaction(self) -> Action | None:
        """Ask the seats :attr:`turns` asks out of turn, one after the other, until one's
        bot takes its chance: that action (not yet made); ``None`` when all let it go."""
        game, turns = self.game, self.turns
        while (decision := turns.decision) is not None and decision.reacting:
            seat = decision.seat
            action = self.players[seat].react(game, seat)
            if action is not None and game.is_legal(action):
                return action
            turns.declined()
        return None

    def _decide(self) -> Action | None:
        """The bots' next action, checked (most come from the legal list itself, which
        needs no check); ``None`` once the round is over."""
        if self.turns.reacting:
            reaction = self.bot_reaction()
            if reaction is not None:
                return reaction
        game = self.game
        seat = game.to_act
        if seat is None:
            return None
        legal = game.legal_actions()
        action = self.players[seat].choose(game, seat, legal)
        for offered in legal:  # by identity: no allocation, no __eq__
            if offered is action:
                return action
        reason = game.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(action, reason)
        return action

    def play_round(self, *, max_actions: int = 100_000) -> RoundResult:
        """Play to the end with every seat choosing by itself (bots), one :meth:`step` after
        another. A table that keeps nothing of its actions (``recording=False``, no journal,
        no ``on_event``: statistics only) makes no event of them."""
        game, decide = self.game, self._decide
        watched = self.recording or self.journal is not None or self.on_event is not None
        settle = self.perform if watched else self._settle
        while game.phase is not _OVER:
            if self.actions >= max_actions:
                raise _too_long(max_actions)
            action = decide()
            assert action is not None  # the round is not over
            settle(action, True)
        result = self.result
        assert result is not None
        return result
