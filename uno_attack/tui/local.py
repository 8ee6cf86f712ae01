"""A table played at this terminal: the session and its :class:`~uno_attack.flow.TableFlow`
(the same flow a network host runs) in the app's own event loop.

What only a terminal has lives here: the people take turns at one keyboard (hot-seat), so
a hand shows only to the person holding it and a hand-off comes first; the launcher's
own button presses for that person; the person here answers a launcher problem as a
host's operator would; a save that fails holds the table until the person says what to do
(try again, play on unsaved, or quit); and the player store's records, levels and
level-ups are read from the session.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from uno_attack import views
from uno_attack.actions import Action
from uno_attack.errors import ActRefused
from uno_attack.flow import FlowSettings, TableFlow
from uno_attack.journal import SaveFailure
from uno_attack.refusal import say
from uno_attack.session import Session, resume_command
from uno_attack.store import PlayerStats
from uno_attack.store.background import Background, BackgroundJournal, write_in_background
from uno_attack.tui.control import Listeners, Scoreboard, ScoreLine
from uno_attack.tui.hints import Hint, ask_hard_bot
from uno_attack.tui.seen import Rules, Seen
from uno_attack.wording import wins


def local_settings(session: Session) -> FlowSettings:
    """The pace ``play`` was asked for; the next round waits for the scoreboard's Enter;
    a launcher problem is answered by whoever is at this keyboard."""
    config = session.config
    return FlowSettings(bot_delay=config.bot_delay, catch_delay=config.catch_delay,
                        round_pause=None, operator=None)


class LocalTable:
    """See the module docstring. ``flow`` is built on ``session`` (a round dealt)."""

    can_start_new = True
    seatless = "nobody holds the keyboard yet"

    def __init__(self, session: Session, *, settings: FlowSettings | None = None) -> None:
        self.session = session
        self.animate = session.config.animate
        self.listeners = Listeners()  # the screens listening
        self.flow = TableFlow(session, settings or local_settings(session),
                              on_change=self._changed, button_for=self._holds_keyboard,
                              on_busy=self.listeners.changed)
        for player, kind in enumerate(session.kinds):
            if kind == "human":
                self.flow.present(player, True)  # everyone is at this keyboard: never away
        self.rules = Rules.of(views.hello(None, session.names, session.match.options))
        self.viewer: int | None = None      # the seat whose hand the screen shows
        self._handoff: int | None = None    # the seat that must take the keyboard first
        self._round = -1
        self._save_failure: SaveFailure | None = None  # a failed save not yet answered
        self._notes: list[str] = []  # the journal's news, for the log after the change
        self.writes: Background | None = None  # the journal's and the store's writes, once run
        if session.journal is not None:
            session.journal.listener = self._saving
        self._follow()

    # -- who holds the keyboard ---------------------------------------------------------
    def people(self) -> list[int]:
        """The seats of the people at this keyboard in the round at the table."""
        flow = self.flow
        return [seat for seat in range(flow.game.players) if flow.is_human(seat)]

    def _follow(self) -> None:
        """Hot-seat: when another person is to act, hide the hand and ask for a hand-off."""
        people = self.people()
        round_no = self.session.match.round_no
        if round_no != self._round:  # a new round may seat the players anew
            self._round = round_no
            self.viewer = self._handoff = None
        if len(people) <= 1:
            self.viewer = people[0] if people else None
            self._handoff = None
            return
        actor = self.flow.game.to_act
        if actor in people and actor != self.viewer and actor != self._handoff:
            self._handoff, self.viewer = actor, None

    def _holds_keyboard(self, seat: int) -> bool:
        return len(self.people()) == 1 or seat == self.viewer

    def take_keyboard(self) -> None:
        if self._handoff is not None:
            self.viewer, self._handoff = self._handoff, None
            self.listeners.changed()

    # -- what the screen reads ----------------------------------------------------------
    def listen(self, changed: Callable[[], None],
               refused: Callable[[str], None]) -> Callable[[], None]:
        return self.listeners.listen(changed, refused)

    def _changed(self, lines: list[str]) -> None:
        self._follow()
        self._write_notes()
        self.listeners.changed()

    # -- saving ---------------------------------------------------------------------------
    def _saving(self, failure: SaveFailure | None) -> None:
        """The journal's save started failing (hold the table and ask) or works again."""
        journal = self.session.journal
        assert journal is not None
        if failure is None:
            self._notes.append(f"Saved again in {journal.path}.")
        else:
            self._notes.append(f"⚠ {failure}")
            self._save_failure = failure
            self.flow.hold(True)
        if self.writes is not None:  # told after the change that wrote it: show it now
            self._write_notes()
            self.listeners.changed()

    def _write_notes(self) -> None:
        notes, self._notes = self._notes, []
        for line in notes:
            self.flow.note(line)

    def save_failure(self) -> SaveFailure | None:
        """A save that failed and waits for the person's answer (the table is held)."""
        return self._save_failure

    def after_save_failure(self, choice: str) -> None:
        """``retry`` (save again now; still failing: ask again) or ``play`` (play on
        unsaved: every action tries again)."""
        journal, table = self.session.journal, self.session.table
        if choice == "retry" and isinstance(journal, BackgroundJournal) and table is not None:
            journal.write(table.record.dumps(), then=self._retried)
            return
        self._retried(self.session.save_now() if choice == "retry" else None)

    def _retried(self, failure: SaveFailure | None) -> None:
        self._save_failure = failure
        if failure is None:
            self.flow.hold(False)
        self._write_notes()
        self.listeners.changed()


    def seen(self) -> Seen:
        flow = self.flow
        game = flow.game
        facts = flow.facts()
        seat = self.viewer
        people = self.people()
        hidden = seat is None or (len(people) > 1 and seat != game.to_act and not game.over)
        prompt = facts.prompt
        journal = self.session.journal
        return Seen(
            hello=views.hello(seat, flow.seat_names(), self.session.match.options),
            view=views.view(game, facts, seat), rules=self.rules, seat=seat,
            people=tuple(people), hidden=hidden,
            handoff=flow.name(self._handoff) if self._handoff is not None else None,
            prompt=prompt.to_json() if prompt is not None else None,
            levels=self.session.levels,
            note="⚠ not saved" if journal is not None and journal.failure else "",
            watching="watching: every seat is a bot",
            actions=tuple(views.legal_actions(game, seat, facts)) if seat is not None else ())

    # -- acting -------------------------------------------------------------------------
    def act(self, move: str | Action, seat: int | None = None) -> None:
        """An action of the person at ``seat`` (default: the one holding the keyboard), or
        a text answer to the launcher's question; a refusal goes to the listeners."""
        flow = self.flow
        seat = self.viewer if seat is None else seat
        refusal: str | None = None
        if flow.problem is not None:
            if not isinstance(move, str):
                refusal = "wait: the launcher's question comes first"
            else:
                refusal = flow.operator(move)  # the person here answers as the operator does
        elif seat is None:
            refusal = self.seatless
        else:
            try:
                flow.act(seat, move)
            except ActRefused as exc:  # the engine's refusal reads as check() says it
                names = flow.seat_names()
                refusal = (exc.refusal.plainly(names) if exc.refusal is not None
                           else say(exc.parts, names))
        if refusal is not None:
            self.listeners.refused(refusal)

    def check(self, action: Action) -> str | None:
        """The engine's reason against this action now, in the players' names and words."""
        refusal = self.flow.game.refusal(action)
        return None if refusal is None else refusal.plainly(self.flow.seat_names())

    def hint(self) -> Callable[[], Hint] | str:
        """The hard bot's question for the seat on the screen, on its turn."""
        seat, game = self.viewer, self.flow.game
        if seat is None or game.winner is not None or game.to_act != seat \
                or self.flow.problem is not None:
            return "A hint is for your turn: ask (h) when it is yours."
        config = self.session.config
        world = game.copy()
        return lambda: ask_hard_bot(world, seat, seed=config.seed, policy=config.policy)

    def next_round(self) -> None:
        self.flow.next_round()

    # -- between rounds -------------------------------------------------------------------
    def scoreboard(self) -> Scoreboard:
        s = self.session
        flow = self.flow
        game = flow.game
        m = s.match
        result = m.history[-1]
        seated = {flow.player(seat): seat for seat in range(game.players)}
        names = flow.seat_names()
        lines = []
        for player, name in enumerate(m.names):
            seat = seated.get(player)
            level = s.levels.get(name)
            lines.append(ScoreLine(
                name, None if seat is None else len(game.hands[seat]),
                tuple(row[player] for row in s.points_by_round), m.scores[player],
                out=player not in m.active, level=str(level) if level else ""))
        winner = None
        if m.over:
            w = m.winner
            if isinstance(w, tuple):
                winner = " and ".join(m.names[p] for p in w) + " share"
            else:
                winner = wins(m.names[w] if w is not None else "nobody")
        news = tuple(str(up) for up in s.saved.level_ups) if s.saved else ()
        return Scoreboard(f"{wins(names[result.winner])} round {m.round_no}!", tuple(lines),
                          round_no=m.round_no, target=m.options.target, mode=m.options.match,
                          winner=winner, news=news)

    def records(self) -> tuple[dict[str, PlayerStats | None], str | None]:
        s = self.session
        note = None
        if not s.recorder.recording:
            note = s.recorder.problem or "This game is not being recorded (--no-record)."
        return s.recorder.player_stats(s.config.humans), note

    def leave_hint(self) -> str:
        save = self.session.config.save
        journal = self.session.journal
        if journal is not None and journal.failure is not None:
            return (f"⚠ {journal.failure}.\nQuitting loses what was played since the last "
                    "save that worked.")
        if save is None:
            return "This game is not being saved."
        return f"The game is saved in {save};\n'{resume_command(save)}' goes on from here."

    # -- running ---------------------------------------------------------------------------
    async def run(self) -> None:
        if self.writes is None:  # the saves and the records, off the screen's loop
            self.writes = write_in_background(self.session, asyncio.get_running_loop(),
                                              self.flow.note, self.listeners.changed)
        await self.flow.run()

    def close(self) -> None:
        self.flow.stop()
        if self.writes is not None:
            self.writes.close()  # every save and record asked for is made before the end
        self.flow.close()
