"""The game flow of a table with people at it, for any front end: who moves, and when.

A :class:`TableFlow` runs a :class:`~uno_attack.session.Session` as an asyncio task:
bots move after a visible pause, bots look at an open UNO window after a human-like
pause (so a person can call or catch first), a person's move comes from :meth:`act`,
every launcher press runs in a worker thread (so a motor that runs for seconds stalls
nothing), a launcher that jams, runs empty or loses count puts a :class:`~uno_attack.views.
Prompt` to the acting seat, the turn timer of VARIANTS.md C acts for a slow person, and a
bot stands in for a person who is away (NETWORK.md, Reconnect). Between rounds it pauses
on the scores, then deals the next round (or waits for the front end to ask for it).

A bot thinks on a copy of the round, a searching bot in a process of its own (a search
may take half a second: :mod:`uno_attack.thinker`), and a classic draw's eject runs in the
launcher's thread like a press: the event loop, and with it every connection or screen,
never waits for either.

It knows nothing of sockets or screens: a front end calls :meth:`act`, :meth:`present`,
:meth:`operator`, :meth:`hardware_button` and :meth:`next_round`, and redraws when
``on_change`` is called. Time comes from a :class:`Clock`, so tests drive the timers
without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from uno_attack.actions import Action, Verb
from uno_attack.bots import Player, make_bot
from uno_attack.cards import COLORS
from uno_attack.engine import Phase, Round
from uno_attack.errors import ActRefused, IllegalActionError, InvalidActionError
from uno_attack.launcher import PressResult
from uno_attack.launcher_questions import (
    LauncherQuestion,
    NoRetry,
    PressAgain,
    Retry,
)
from uno_attack.presence import Presence
from uno_attack.refusal import SeatWord
from uno_attack.session import Session, press_problem
from uno_attack.table import TableEvent, UnknownPressOutcome
from uno_attack.thinker import Thinker
from uno_attack.transcript import Transcript
from uno_attack.views import LOG_LINES, TableFacts
from uno_attack.wording import count, verb_for

#: What :meth:`TableFlow._next` returns when it made a move.
MOVED = object()
class Clock(Protocol):
    """Where the flow's time comes from: the event loop's clock, or a test's."""

    def now(self) -> float: ...

    async def wait(self, event: asyncio.Event, deadline: float | None) -> None:
        """Return when ``event`` is set or the clock reaches ``deadline`` (``None``: never)."""
        ...


class LoopClock:
    """The running event loop's monotonic clock."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def wait(self, event: asyncio.Event, deadline: float | None) -> None:
        timeout = None if deadline is None else max(deadline - self.now(), 0.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


@dataclass(frozen=True)
class FlowSettings:
    """The pacing of a table (seconds)."""

    bot_delay: float = 0.8        # before a bot's move
    catch_delay: float = 1.5      # before bots look at an open UNO window (±30 %)
    turn_seconds: float | None = None  # the turn timer of VARIANTS.md C; None: no timer
    away_seconds: float = 60.0    # at its turn, a seat with no connection for this long
    round_pause: float | None = 8.0  # on the scores before the next round is dealt;
    #                                  None: until the front end calls next_round()
    operator: str | None = "the host"  # who else answers a launcher problem (any seat's,
    #                                    a bot's too); None: whoever reads this table's log


@dataclass
class _Thought:
    """A bot's choice being made, for one state of the game."""

    key: tuple[int, int]
    future: asyncio.Future[Action]


@dataclass
class _Schedule:
    """What is due at which time for one state of the game (reset by every action)."""

    key: tuple[int, int] = (-1, -1)
    times: dict[str, float] = field(default_factory=dict)


class TableFlow:
    """One match at a table: people, bots, launcher, timers; see the module docstring."""

    def __init__(self, session: Session, settings: FlowSettings | None = None, *,
                 clock: Clock | None = None,
                 on_change: Callable[[list[str]], None] | None = None,
                 pace_seed: int | None = None,
                 button_for: Callable[[int], bool] | None = None,
                 on_busy: Callable[[], None] | None = None) -> None:
        """``button_for(seat)`` says whether the launcher's own button may press for the
        person in ``seat`` now (a hot-seat screen: only for the one holding the keyboard);
        without it, for any person to act. ``on_busy()`` is called when the launcher starts
        firing a press (no view goes out for that: the next one shows what came out), for
        a screen that shows the launcher running."""
        self.session = session
        self.settings = settings or FlowSettings()
        self.clock: Clock = clock or LoopClock()
        self.on_change = on_change
        self.log: list[str] = []
        self.busy: int | None = None          # the seat whose press the launcher fires
        self.problem: LauncherQuestion | None = None  # an open launcher prompt
        self.round_points: tuple[int, ...] | None = None
        self._revealed: tuple[int, int, tuple[str, ...]] | None = None
        self._taken: tuple[int, int] | None = None  # the last press or draw: seat, cards
        self._thought: _Thought | None = None
        self.button_for = button_for
        self.on_busy = on_busy
        self._held = False  # a front end asks a person something first
        self.idle = False  # nothing is due or running: only a person (or next_round) moves on
        self.presence = Presence(self.settings.away_seconds, self._make_stand_in)
        self._schedule = _Schedule()
        self._turn: tuple[int | None, float] = (None, 0.0)  # (seat to act, since)
        self._over_at: float | None = None
        self._scored: object = None
        self._pace = random.Random(pace_seed)  # bots' reaction times, never the game's dice
        self._wake = asyncio.Event()
        self._stopped = False
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="launcher")
        self._thinker = Thinker()
        self._new_lines: list[str] = []
        self._dirty = False
        self._started = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._announced: object = None  # the table whose round start was logged

    # -- what front ends read ------------------------------------------------------
    @property
    def game(self) -> Round:
        return self.session.game

    def seat_of(self, player: int) -> int | None:
        """The seat of a match player in the round at the table (until the next round is
        dealt, also once it is over), or ``None`` if they are not in it."""
        seats = self.session.seating
        return seats.index(player) if player in seats else None

    def player(self, seat: int) -> int:
        """The match player in a seat of the round at the table."""
        return self.session.seating[seat]

    def name(self, seat: int) -> str:
        return self.session.names[self.session.seating[seat]]

    def seat_names(self) -> list[str]:
        return [self.session.names[p] for p in self.session.seating]

    def is_human(self, seat: int) -> bool:
        return self.session.kinds[self.session.seating[seat]] == "human"

    def facts(self) -> TableFacts:
        """Everything public about the table besides the engine's state, as of now."""
        s = self.session
        game = self.game
        seats = range(game.players)
        now = self.clock.now()
        problem = self.problem
        deadline = None
        turn_due = self._turn_due()
        if turn_due is not None:
            deadline = max(turn_due - now, 0.0)
        winner = s.match.winner
        next_in = None
        pause = self.settings.round_pause
        if self._over_at is not None and winner is None and pause is not None:
            next_in = max(self._over_at + pause - now, 0.0)
        shown = self.log[-LOG_LINES:]
        return TableFacts(
            names=tuple(self.seat_names()),
            scores=tuple(s.match.scores[self.player(seat)] for seat in seats),
            log=tuple(shown),
            log_start=len(self.log) - len(shown),
            tension=s.launcher.tension,
            round_no=s.match.round_no,
            step=len(s.table.record.steps) if s.table is not None else 0,
            revealed=self._revealed,
            taken=self._taken,
            called=tuple(seat for seat in seats
                         if len(game.hands[seat]) == 1 and s.called_uno(seat)),
            busy=self.busy,
            prompt=problem.prompt() if problem is not None else None,
            away=tuple(seat for seat in seats if self.presence.away(self.player(seat))),
            connected=tuple(seat for seat in seats
                            if self.presence.connected(self.player(seat))),
            round_points=self.round_points,
            match_winner=self._winner_seats() if winner is not None else None,
            next_round_in=next_in,
            deadline=deadline,
        )

    # -- what front ends call -------------------------------------------------------
    def act(self, seat: int, move: str | Action) -> None:
        """A person's action for ``seat``: an :class:`Action` (the terminal game builds
        them), or its text as a transcript writes it without the seat (the network's);
        the answer to the launcher's question, when it is asked of ``seat``, is text.

        Raises :class:`ActRefused` (one line, the rule named) and changes nothing when it
        is not understood or not allowed now.
        """
        if not isinstance(move, str | Action):
            raise ActRefused(f"not understood: 'action' must be a string, not {move!r}")
        try:
            self._act(seat, move)
        finally:
            self._flush()

    def _act(self, seat: int, move: str | Action) -> None:
        problem = self.problem
        if problem is not None and problem.seat == seat and isinstance(move, str):
            self._answer(move)
            return
        pressing = self.busy if self.busy is not None else (
            problem.seat if problem is not None else None)
        if pressing is not None:
            raise ActRefused(f"wait: the launcher is firing "
                             f"{self.name(pressing)}'s press")
        if isinstance(move, Action):
            action = move
            if action.seat != seat:
                raise ActRefused(f"not understood: {action} is seat {action.seat}'s, not "
                                 f"seat {seat}'s")
        else:
            try:
                action = Action.parse_move(move, seat, rules=self.game.rules)
            except InvalidActionError as exc:
                raise ActRefused(f"not understood: {move!r}: {exc}") from None
        if not self.is_human(seat):
            raise ActRefused(f"seat {seat} is played by a bot",
                             (SeatWord(seat, "is"), " played by a bot"))
        refusal = self.game.refusal(action)
        if refusal is not None:
            error = IllegalActionError(action, refusal)
            raise ActRefused(str(error), error.parts(), refusal)
        self._do(action, "")

    def present(self, player: int, here: bool) -> None:
        """Whether match player ``player`` has at least one connection now."""
        if not here:
            self.presence.leave(player, self.clock.now())
        elif self.presence.arrive(player):
            self._say(f"{self.session.names[player]} is back")
        self._poke()  # the away clock may start or stop; views go out with a change
        self._flush()

    def operator(self, line: str) -> str | None:
        """A line typed at the host's terminal: ``press``, ``retry`` or ``fired N``.

        Returns why it was refused, or ``None``.
        """
        words = line.split()
        if not words:
            return None
        try:
            if self.problem is not None:
                self._answer(" ".join(words))
            elif words == ["press"]:
                seat = self.game.to_act
                if seat is None or not self.is_human(seat):
                    return "press: it is no person's press now"
                self._act(seat, "press")
            else:
                return f"{line.strip()!r}: known here are press, retry and fired N"
        except ActRefused as exc:
            return str(exc)
        finally:
            self._flush()
        return None

    def hardware_button(self) -> None:
        """A push of the launcher's own button (from any thread): the acting person's
        press, or a retry while a launcher prompt offers one."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._button)

    def next_round(self) -> None:
        """Deal the next round now, once the round at the table is scored and the match
        goes on (without waiting for the rest of the pause)."""
        s = self.session
        if s.table is None or not self.game.over or self._scored is not s.table \
                or s.match.over:
            return
        self._deal_next()
        self._flush()

    def use_deal(self, record: Transcript) -> None:
        """Play a given deal (a transcript's set-up) as the next round: a test's or a bug
        report's table, journalled like a dealt one."""
        self.session.use_deal(record)
        self.round_points = None
        self._over_at = None
        self._round_started(resumed=False)
        self._flush()

    def hold(self, held: bool) -> None:
        """Hold the table (no bot moves, no timer fires) while the front end asks a person
        something first (say, what to do about a save that failed, or a lobby filling), or
        let it go on: the turn timer of the person to act starts again then."""
        if self._held and not held:
            self._turn = (None, 0.0)  # the next flush starts the clock of the seat to act
            self._changed()  # a view shows the timer running again
        self._held = held
        self._poke()

    def note(self, line: str) -> None:
        """A line of the front end's for the log (a save that failed, or works again)."""
        self._say(line)
        self._flush()

    def stop(self) -> None:
        self._stopped = True
        self._poke()

    def close(self) -> None:
        """Stop, release the worker threads and the thinking process and close the
        launcher (a real motor stops)."""
        self.stop()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._thinker.close()
        self.session.close()

    # -- the loop ---------------------------------------------------------------------
    async def run(self) -> None:
        """Play the match until :meth:`stop`; the last view stays after the match ends."""
        self._loop = asyncio.get_running_loop()
        self.session.launcher.when_button_pressed = self.hardware_button
        if not self._started:
            self._started = True
            kinds = self.session.kinds
            self.presence.start((p for p, kind in enumerate(kinds) if kind == "human"),
                                self.clock.now())
            problem = self.session.recorder.problem
            if problem is not None:  # the game goes on; the log says it is not recorded
                self._say(f"⚠ {problem}")
        table = self.session.table
        if table is not None and self._announced is not table:
            self._round_started(resumed=len(table.record.steps) > 0)
        self._flush()
        while not self._stopped:
            self._wake.clear()
            due = self._next()
            self._flush()
            if due is MOVED:
                await asyncio.sleep(0)  # one move at a time: every connection is served
            elif not self._stopped:
                self.idle = due is None and self.busy is None and self._thought is None \
                    and not self._wake.is_set()
                await self.clock.wait(self._wake, due)  # type: ignore[arg-type]  # not MOVED
                self.idle = False

    def _next(self) -> float | object | None:
        """Make the next move if it is due (return :data:`MOVED`); else return when it
        will be due (``None``: not before something changes)."""
        if self.busy is not None or self.problem is not None or self.session.table is None \
                or self._held:
            return None
        s = self.session
        assert s.table is not None  # checked above, as self.session.table
        key = (s.match.round_no, len(s.table.record.steps))
        thought = self._thought
        if thought is not None:
            if not thought.future.done():
                return None  # a bot is one object: let its thinking end before anything else
            if thought.key != key:
                self._thought = None  # the table moved on while it thought
        game = self.game
        now = self.clock.now()
        if game.over:
            return self._between_rounds(now)
        if self._schedule.key != key:
            self._schedule = _Schedule(key)
        actor = game.to_act
        assert actor is not None
        self._track_turn()
        bot_acts = not self.is_human(actor) or self.presence.away(self.player(actor))
        dues: list[float] = []
        if s.table.turns.reacting:  # a bot may act out of turn
            pause = self.settings.catch_delay * self._pace.uniform(0.7, 1.3)
            look = self._due("react", pause, now)
            if now < look:
                if bot_acts:
                    return look  # the bots look at the window before the next bot moves
                dues.append(look)
            else:
                reaction = s.table.bot_reaction()
                if reaction is not None:
                    self._do(reaction, "")
                    return MOVED
        if bot_acts:
            when = self._due("bot", self.settings.bot_delay, now)
            choice = self._bot_choice(actor, key)  # thinks meanwhile (a search elsewhere)
            if choice is None:
                return when if now < when else None  # the thought's end wakes the loop
            if now < when:
                return when
            self._thought = None
            stand_in = "" if not self.is_human(actor) else f" (a bot for {self.name(actor)}, away)"
            self._do(choice, stand_in)
            return MOVED
        turn_due = self._turn_due()
        if turn_due is not None:
            if now >= turn_due:
                self._do(_timeout_action(game, actor), " (time ran out)")
                return MOVED
            dues.append(turn_due)
        player = self.player(actor)
        away_due = self.presence.away_at(player, self._turn[1], now)
        if away_due is not None:
            if now >= away_due:
                self.presence.go_away(player)
                self._say(f"{s.names[player]} is away: a bot plays for them until they are back")
                return MOVED
            dues.append(away_due)
        return min(dues) if dues else None

    def _between_rounds(self, now: float) -> float | object | None:
        s = self.session
        if self._scored is not s.table:  # a journal resumed after the round's last action
            self._score_round()
            return MOVED
        pause = self.settings.round_pause
        if s.match.over or self._over_at is None or pause is None:
            return None
        due = self._over_at + pause
        if now < due:
            return due
        self._deal_next()
        return MOVED

    def _deal_next(self) -> None:
        self.session.start_round()
        self.round_points = None
        self._over_at = None
        self._round_started(resumed=False)

    def _score_round(self) -> None:
        """Carry the finished round into the match, in the same change as its last action."""
        s = self.session
        self._scored = s.table
        result = s.finish_round()
        self.round_points = result.round_points
        self._over_at = self.clock.now()
        winner = self.name(result.winner)
        self._say(f"{winner} went out and {verb_for(winner, 'wins', 'win')} round "
                  f"{s.match.round_no} (+{result.round_points[result.winner]})")
        if s.saved is None and s.recorder.recording and s.recorder.problem is not None:
            self._say(f"⚠ {s.recorder.problem}")  # this round's write failed
        for up in s.saved.level_ups if s.saved is not None else ():
            self._say(f"★ {up}")
        match_winner = self._winner_seats()
        if match_winner is not None:
            names = " and ".join(self.name(seat) for seat in match_winner)
            verb = "win" if len(match_winner) > 1 else verb_for(names, "wins", "win")
            self._say(f"The match is over: {names} {verb}")

    def _round_started(self, *, resumed: bool) -> None:
        s = self.session
        game = self.game
        self._announced = s.table
        self._turn = (None, 0.0)
        if resumed:
            assert s.table is not None
            # what happened just before, for the views' log (not news for the host's log)
            self.log += [event.describe() for event in s.table.events[-LOG_LINES + 1:]]
            self._say(f"Round {s.match.round_no} resumed after "
                      f"{count(len(s.table.record.steps), 'action')}")
            note = s.launcher_note()
            if note is not None:
                self._say(note)
        else:
            dealer = self.name(game.dealer)
            self._say(f"Round {s.match.round_no}: {dealer} {verb_for(dealer, 'deals', 'deal')}; "
                      f"{game.rules.card_name(game.top)} starts")

    def _winner_seats(self) -> tuple[int, ...] | None:
        """The match winner as seats of the round at the table (several for a shared win),
        once the match is over."""
        winner = self.session.match.winner
        if winner is None:
            return None
        players = winner if isinstance(winner, tuple) else (winner,)
        return tuple(seat for p in players if (seat := self.seat_of(p)) is not None)

    def _track_turn(self) -> None:
        """Start the turn timer's clock when another seat becomes the one to act."""
        seat = self.game.to_act if self.session.table is not None else None
        if self._turn[0] != seat:
            self._turn = (seat, self.clock.now())

    def _due(self, what: str, delay: float, now: float) -> float:
        return self._schedule.times.setdefault(what, now + delay)

    def _turn_due(self) -> float | None:
        """When the turn timer runs out for the person to act, if it runs."""
        seconds = self.settings.turn_seconds
        actor, since = self._turn
        if seconds is None or actor is None or self.session.table is None or self._held:
            return None
        game = self.game
        if game.over or game.to_act != actor or not self.is_human(actor):
            return None
        if self.presence.away(self.player(actor)):
            return None
        return since + seconds

    def _bot_choice(self, seat: int, key: tuple[int, int]) -> Action | None:
        """The choice of the bot to act for this state of the game, once it has thought
        (``None`` meanwhile: it thinks on a copy of the round, see the module docstring)."""
        thought = self._thought
        if thought is not None and thought.key == key:
            return thought.future.result() if thought.future.done() else None
        bot = (self.session.players[seat] if not self.is_human(seat)
               else self.presence.stand_in(self.player(seat)))
        game = self.game.copy()  # the table may move on (a person's catch) meanwhile
        assert self._loop is not None
        future = asyncio.wrap_future(self._thinker.think(bot, game, seat), loop=self._loop)
        future.add_done_callback(lambda _: self._poke())
        self._thought = _Thought(key, future)
        return None

    def _make_stand_in(self, player: int) -> Player:
        s = self.session
        return make_bot(s.config.bots, s.names[player], seed=f"{s.config.seed}:away:{player}",
                        policy=s.config.policy)

    # -- doing things -------------------------------------------------------------------
    def _do(self, action: Action, mark: str) -> None:
        """Make a legal action: a press, or a draw with cards to eject, goes to the
        launcher's thread; the rest is made at once."""
        if action.verb is Verb.PRESS or (action.verb is Verb.DRAW and self.game.draw_size()):
            self._start_take(action.seat, action.verb, mark=mark)
        else:
            self._perform(action, mark)

    def _perform(self, action: Action, mark: str, **press: Any) -> TableEvent:
        event = self.session.perform(action, **press)
        revealed = event.applied.revealed
        self._revealed = None if revealed is None else (
            action.seat, revealed[0], tuple(card.code for card in revealed[1]))
        taking = action.verb is Verb.PRESS or action.verb is Verb.DRAW
        self._taken = (action.seat, len(event.fired)) if taking else None
        seat = action.seat
        if self._turn[0] == seat:
            self._turn = (None, 0.0)  # the actor acted: a new timer for what comes next
        self._say(event.describe() + mark)
        if self.game.over:
            self._score_round()
        return event

    def _start_take(self, seat: int, verb: Verb, *, mark: str, retry: Retry | None = None,
                    prior: int = 0, asked: int | None = None) -> None:
        """Press (or eject a classic draw's cards; after a jam, eject ``retry`` more) in
        the launcher's thread."""
        table = self.session.table
        assert table is not None
        assert self._loop is not None
        self.busy = seat
        drawing = verb is Verb.DRAW
        available = self.game.draw_size() if drawing else table.available()

        def take() -> PressResult | None:
            if retry is not None:
                return table.eject_again(retry.cards, available=max(available - prior, 0))
            return table.eject_draw() if drawing else table.press_launcher()

        future = self._loop.run_in_executor(self._executor, take)
        future.add_done_callback(lambda f: self._taken_done(seat, verb, available, f, prior,
                                                            asked, mark))
        if self.on_busy is not None:
            self.on_busy()

    def _taken_done(self, seat: int, verb: Verb, available: int,
                    future: asyncio.Future[PressResult | None], prior: int,
                    asked: int | None, mark: str) -> None:
        if future.cancelled() or self._stopped:
            return
        try:
            self._took(seat, verb, available, future, prior, asked, mark)
        finally:
            self._flush()

    def _took(self, seat: int, verb: Verb, available: int,
              future: asyncio.Future[PressResult | None], prior: int, asked: int | None,
              mark: str) -> None:
        exc = future.exception()
        if isinstance(exc, UnknownPressOutcome):
            self._open_problem(LauncherQuestion(
                seat, verb, prior + exc.result.fired, NoRetry(), exc.result.asked, available,
                mark, f"The launcher lost count: {exc}"))
            return
        if exc is not None:
            self._open_problem(LauncherQuestion(
                seat, verb, prior, PressAgain(), asked, available, mark,
                f"The launcher is not answering: {exc}"))
            return
        outcome = future.result()
        if outcome is None:  # a draw the pile could not serve: nothing to eject
            self.busy = None
            self._perform(Action(seat, verb), mark)
            return
        total = prior + outcome.fired
        wanted = asked if asked is not None else outcome.asked
        result = PressResult(total, wanted, outcome.status, outcome.tension, outcome.detail)
        if press_problem(result, available):
            why = outcome.detail or str(outcome.status)
            owed = wanted - total
            self._open_problem(LauncherQuestion(
                seat, verb, total, Retry(owed) if owed > 0 else NoRetry(), wanted, available,
                mark, f"The launcher stopped after {total} of {wanted} cards ({why})"))
            return
        self.busy = None
        self._perform(Action(seat, verb), mark, press=result)

    def _open_problem(self, problem: LauncherQuestion) -> None:
        self.busy = None
        self.problem = problem
        operator = self.settings.operator
        if operator is None:
            answer = "say how many came out"
        elif self.is_human(problem.seat):
            answer = f"{self.name(problem.seat)} (or {operator}) says how many came out"
        else:
            answer = f"{operator} says how many came out"
        self._say(f"{problem.message}: {answer}")

    def _answer(self, text: str) -> None:
        """An answer to the open launcher question: ``retry`` or ``fired N``."""
        problem = self.problem
        assert problem is not None
        answer = problem.answer(text)  # raises ActRefused, and nothing changes
        self.problem = None
        if isinstance(answer, Retry):
            self._start_take(problem.seat, problem.verb, mark=problem.mark, retry=answer,
                             prior=problem.fired, asked=problem.asked)
        elif isinstance(answer, PressAgain):
            self._start_take(problem.seat, problem.verb, mark=problem.mark)
        elif problem.verb is Verb.DRAW:  # the draw takes its cards; the rest by hand
            self._perform(Action(problem.seat, problem.verb), problem.mark,
                          press=PressResult(answer.count, problem.asked or answer.count))
        else:
            self._perform(Action(problem.seat, problem.verb), problem.mark,
                          fired=answer.count)

    def _button(self) -> None:
        problem = self.problem
        seat = self.game.to_act if self.session.table is not None else None
        try:
            if problem is not None and problem.retryable:
                self._answer("retry")
            elif problem is None and self.busy is None and seat is not None \
                    and self.is_human(seat) \
                    and (self.button_for is None or self.button_for(seat)):
                self._act(seat, "press")
        except ActRefused:
            pass  # a press is not what this seat may do now (a colour to name…)
        finally:
            self._flush()

    # -- telling front ends ----------------------------------------------------------
    def _say(self, line: str) -> None:
        self.log.append(line)
        self._new_lines.append(line)
        self._changed()

    def _changed(self) -> None:
        """Something visible changed; :meth:`_flush` tells the front end."""
        self._dirty = True
        self._poke()

    def _poke(self) -> None:
        """Wake the loop: something may be due now."""
        self.idle = False
        self._wake.set()

    def _flush(self) -> None:
        """Tell the front end of the changes made so far, before anything else is said
        (so an error never overtakes the view of an earlier change)."""
        if not self._dirty:
            return
        self._dirty = False
        self._track_turn()
        lines, self._new_lines = self._new_lines, []
        if self.on_change is not None:
            self.on_change(lines)


def _timeout_action(game: Round, seat: int) -> Action:
    """What the turn timer does for a person (VARIANTS.md C): the owed press or draw, else
    a press or draw; a colour to name is the first of red, yellow, green, blue; after a
    press or draw, pass."""
    if not game.owed and game.phase is Phase.CHOOSE:
        return Action.choose(seat, COLORS[0])
    if not game.owed and game.phase is Phase.AFTER:
        passing = Action.pass_(seat)  # forced_play: a card that arrived must be played
        return passing if game.is_legal(passing) else game.legal_actions(seat)[0]
    return Action(seat, game.take_verb)
