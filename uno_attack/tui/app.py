"""The Textual app: turns the session's game flow into timers, workers and screens.

Bots act after a visible pause (``bot_delay``); bots catch a forgetful player after a
human-like pause (``catch_delay``), so a person can call UNO in time, or catch first.
Every launcher press runs in a thread worker, so the screen never freezes while a motor
runs; the launcher's own button counts as the acting person's press.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.app import App
from textual.timer import Timer

from uno_attack.actions import Action, Verb
from uno_attack.cards import Card, Color
from uno_attack.engine import Phase
from uno_attack.errors import UnoAttackError
from uno_attack.penalties import FIRE
from uno_attack.session import GameConfig, Session, resume_command
from uno_attack.table import TableEvent
from uno_attack.tui.presses import PressFlow
from uno_attack.tui.screens.dialogs import (
    HandoffScreen,
    HelpScreen,
    QuitScreen,
    SaveProblemScreen,
)
from uno_attack.tui.screens.pickers import ColorPicker, SeatPicker
from uno_attack.tui.screens.scoreboard import ScoreboardScreen, ScoreLine
from uno_attack.tui.screens.start import SavedGameOffer, StartScreen
from uno_attack.tui.screens.stats import StatsScreen
from uno_attack.tui.screens.table import TableScreen
from uno_attack.wording import count, name_seats, wins


class UnoAttackApp(PressFlow, App[None]):
    """UNO Attack at the terminal: one session, one table screen, dialogs over it."""

    CSS_PATH = "uno_attack.tcss"
    TITLE = "UNO Attack"

    def __init__(self, session: Session | None, *, config: GameConfig | None = None,
                 offer: SavedGameOffer | None = None,
                 new_session: Callable[[], Session] | None = None,
                 resumed: bool = False) -> None:
        """``session`` has its round dealt; or, with ``session=None``, ``offer`` is an
        unfinished saved game the first screen offers to resume (``config``: the game
        asked for). ``new_session`` makes an undealt session for the next match (without
        it, "New match" quits)."""
        super().__init__()
        self._session = session
        self.offer = offer
        config = session.config if session is not None else config
        assert config is not None, "a game needs a session, or a config and an offer"
        assert session is not None or offer is not None, "nothing to play"
        self.config: GameConfig = config
        self.new_session = new_session
        self.resumed = resumed
        self.start_error: str | None = None  # why the offered game could not start
        self.paused = False          # a dialog about the save holds the game
        self._save_failing = False   # the last save failed, and the player was told
        self.busy = False            # a launcher press is running
        self.uno_armed = False       # call UNO with the next play
        self.viewer: int | None = None  # the person whose hand is shown
        self.message = ""            # the last explanation (an illegal choice, a problem)
        self._reacted_at = -1        # the step count whose UNO window bots have looked at
        self._scheduled_at = -1      # the step count a bot turn is scheduled for
        self._handoff_open = False
        self._main_thread = threading.get_ident()
        self._game_timers: list[Timer] = []
        self.table_screen: TableScreen | None = None
        self.log_lines: list[str] = []  # everything the log showed, unwrapped
        self._scored: object = None     # the table whose round went into the match
        self._pace = random.Random()    # bots' reaction times (never the game's dice)

    @property
    def session(self) -> Session:
        assert self._session is not None, "the game has not started"
        return self._session

    @session.setter
    def session(self, session: Session) -> None:
        self._session = session
        self.config = session.config

    def close_session(self) -> None:
        """Close the launcher, if a game was started (idempotent)."""
        if self._session is not None:
            self._session.close()

    def recorder_problem(self) -> str | None:
        """Why the player store did not record the game, if a game was started."""
        return self._session.recorder.problem if self._session is not None else None

    # -- start ----------------------------------------------------------------------
    async def on_mount(self) -> None:
        self._main_thread = threading.get_ident()
        if self.offer is not None:
            await self.push_screen(StartScreen(self.offer.saved), self._start_chosen)
        else:
            await self._open_table()

    async def _start_chosen(self, choice: str | None) -> None:
        offer = self.offer
        assert offer is not None
        if choice not in ("resume", "new"):
            self.exit()
            return
        try:
            self.session = offer.resume() if choice == "resume" else offer.start_new()
        except UnoAttackError as exc:  # a save, path or launcher that cannot be used
            self.start_error = str(exc)
            self.exit(return_code=2)
            return
        self.resumed = choice == "resume"
        await self._open_table()

    async def _open_table(self) -> None:
        self.session.launcher.when_button_pressed = self._button_from_hardware
        humans = self.session.human_seats
        self.viewer = humans[0] if len(humans) == 1 else None
        self.table_screen = TableScreen()
        await self.push_screen(self.table_screen)
        self._log_recording_problem()
        self._log_round_start()
        self.call_after_refresh(self.advance)

    def _log_recording_problem(self) -> None:
        """The game goes on when the player store fails; the log says it is not recording."""
        problem = self.session.recorder.problem
        if problem is not None:
            self.write_log(f"⚠ {problem}")

    def _log_round_start(self) -> None:
        s = self.session
        screen = self.table_screen
        assert screen is not None
        game = s.game
        steps = len(s.table.record.steps) if s.table else 0
        if self.resumed:
            self.write_log(f"Resumed round {s.match.round_no} after {count(steps, 'action')}.")
            note = s.launcher_note()
            if note is not None:
                self.write_log(note)
        else:
            self.write_log(f"Round {s.match.round_no}: {s.seat_name(game.dealer)} deals; "
                             f"{game.rules.card_name(game.top)} starts.")
        if s.table is not None:
            for event in s.table.events[-8:] if self.resumed else ():
                self.write_log(event.describe())

    @property
    def steps(self) -> int:
        table = self.session.table
        return len(table.record.steps) if table is not None else 0

    def write_log(self, line: str) -> None:
        self.log_lines.append(line)
        if self.table_screen is not None:
            self.table_screen.write_log(line)

    # -- the flow -------------------------------------------------------------------
    def advance(self) -> None:
        """Decide what happens next: round end, bot reactions, a bot's turn, or a person's."""
        if self.table_screen is None:
            return
        self.refresh_table()
        if self.busy or self.paused or self._save_problem():
            return
        s = self.session
        game = s.game
        if game.over:
            self.call_later(self.round_over)
            return
        key = self.steps
        actor = game.to_act
        assert actor is not None
        if game.reactions_open() and self._reacted_at != key:
            self._reacted_at = key
            # people are not clockwork: a catch comes after 70-130 % of the catch delay
            delay = self.config.catch_delay * self._pace.uniform(0.7, 1.3)
            self._later(delay, self._bot_reactions, key)
            if not s.is_human(actor):
                return  # the bots look at the window before the next bot moves
        if s.is_human(actor):
            self._human_turn(actor)
        elif self._scheduled_at != key:
            self._scheduled_at = key
            self._later(self.config.bot_delay, self._bot_turn, key)

    def _later(self, delay: float, callback: Callable[..., Any], *args: Any) -> None:
        if delay <= 0:
            self.call_later(callback, *args)
        else:
            self._game_timers.append(self.set_timer(delay, partial(callback, *args)))

    def _save_problem(self) -> bool:
        """Say at once that a save failed, holding the game on a dialog; say when saving
        works again. True when the dialog opens."""
        journal = self.session.journal
        failure = journal.failure if journal is not None else None
        if failure is None:
            if self._save_failing and journal is not None:
                self._save_failing = False
                self.write_log(f"Saved again in {journal.path}.")
            return False
        if self._save_failing:
            return False  # the player chose to play on: every action tries again
        self._save_failing = self.paused = True
        self.write_log(f"⚠ {failure}")
        self.bell()
        self.push_screen(SaveProblemScreen(failure), self._save_answer)
        return True

    def _save_answer(self, choice: str | None) -> None:
        self.paused = False
        if choice == "quit":
            self.exit()
            return
        if choice == "retry" and self.session.save_now() is not None:
            self._save_failing = False  # failed again: the dialog opens again
        self._reacted_at = self._scheduled_at = -1  # bots scheduled before the pause
        self.advance()

    @property
    def unsaved(self) -> bool:
        """The last save failed: what was played since is only in memory."""
        journal = self.session.journal
        return journal is not None and journal.failure is not None

    def _bot_reactions(self, key: int) -> None:
        if key != self.steps or self.busy or self.paused:
            return
        for action in self.session.bot_reactions():
            self._perform(action)
            return
        self.advance()

    def _bot_turn(self, key: int) -> None:
        if key != self.steps or self.busy or self.paused or self.session.game.over:
            return
        seat = self.session.game.to_act
        assert seat is not None
        action = self.session.bot_choice(seat)
        if action.verb is Verb.PRESS:
            self.start_press(seat)
        else:
            self._perform(action)

    def _human_turn(self, seat: int) -> None:
        s = self.session
        if len(s.human_seats) > 1 and self.viewer != seat and not self._handoff_open:
            self._handoff_open = True
            self.viewer = None
            self.refresh_table()
            self.push_screen(HandoffScreen(s.seat_name(seat)), partial(self._handed_off, seat))
            return
        self.viewer = seat
        self.refresh_table()
        if s.game.phase is Phase.CHOOSE and not s.game.owed and self.screen is self.table_screen:
            self.push_screen(ColorPicker("the wild starter"), partial(self._chose_colour, seat))

    def _handed_off(self, seat: int, _: None = None) -> None:
        self._handoff_open = False
        self.viewer = seat
        self.advance()

    def _chose_colour(self, seat: int, color: Color | None) -> None:
        if color is None:
            self.say("Name the colour of the wild starter first (r, y, g or b).")
            self.call_later(self.advance)
            return
        self.human_act(Action.choose(seat, color))

    def _perform(self, action: Action, **press: Any) -> TableEvent | None:
        try:
            event = self.session.perform(action, **press)
        except UnoAttackError as exc:  # illegal now, or a count the engine refuses
            self.refuse(str(getattr(exc, "reason", exc)))
            return None
        if action.verb in (Verb.PLAY, Verb.PRESS) and action.seat == self.viewer:
            self.uno_armed = False
        self.message = ""
        self._after_event(event)
        return event

    def _after_event(self, event: TableEvent) -> None:
        screen = self.table_screen
        assert screen is not None
        self.write_log(event.describe())
        if event.action.verb is Verb.PRESS:
            from uno_attack.tui.widgets.launcher import LauncherView

            screen.query_one(LauncherView).fire(len(event.fired))
        self.advance()

    # -- people's actions --------------------------------------------------------------
    def say(self, text: str) -> None:
        """Explain something on the status line (why a choice is not allowed…)."""
        self.message = text
        self.refresh_table()
        self.bell()

    def refuse(self, reason: str) -> None:
        """Say why the engine refused a choice, with the players' names for its seats."""
        table = self.session.table
        self.say(name_seats(reason, table.names if table is not None else ()))

    def human_act(self, action: Action) -> bool:
        """Try an action for a person: the engine says yes, or why not."""
        if self.busy:
            self.say("Wait: the launcher is still running.")
            return False
        game = self.session.game
        if not self.session.is_human(action.seat):
            return False
        reason = game.illegal_reason(action)
        if reason is not None:
            self.refuse(reason)
            return False
        if action.verb is Verb.PRESS:
            self.start_press(action.seat)
        else:
            self._perform(action)
        return True

    def play_card(self, index: int) -> None:
        seat = self.viewer
        game = self.session.game
        if seat is None or index >= len(game.hands[seat]):
            return
        card = game.hands[seat][index]
        kind = game.kind(card)
        probe = Action.play(seat, card, Color.RED if kind.wild else None,
                            (seat + 1) % game.players if kind.names_seat else None)
        reason = game.illegal_reason(probe)
        if reason is not None:
            self.refuse(reason)
            return
        name = game.rules.card_name(card)
        if kind.wild:
            self.push_screen(ColorPicker(name), partial(self._play_wild, seat, card))
        elif kind.names_seat:
            others = [(s, f"{self.session.seat_name(s)} ({count(len(game.hands[s]), 'card')})")
                      for s in range(game.players) if s != seat]
            self.push_screen(SeatPicker(f"Trade hands with whom? ({name})", others),
                             partial(self._play_trade, seat, card))
        else:
            self._play(Action.play(seat, card))

    def _play_wild(self, seat: int, card: Card, color: Color | None) -> None:
        if color is not None:
            self._play(Action.play(seat, card, color))

    def _play_trade(self, seat: int, card: Card, target: int | None) -> None:
        if target is not None:
            self._play(Action.play(seat, card, target=target))

    def _play(self, action: Action) -> None:
        if self.uno_armed:
            action = action.with_uno()
        self.human_act(action)

    def human_press(self) -> None:
        seat = self.session.game.to_act
        if seat is None:
            return
        if not self.session.is_human(seat):
            self.say(f"It is {self.session.seat_name(seat)}'s turn, not yours.")
            return
        if seat != self.viewer:
            return
        self.human_act(Action(seat, self.session.game.take_verb))

    def uno_key(self) -> None:
        game = self.session.game
        window = game.uno_seat
        if window is not None and self.session.is_human(window):
            self.human_act(Action.call_uno(window))
        elif self.viewer is not None and game.to_act == self.viewer:
            self.uno_armed = not self.uno_armed
            self.message = ("UNO! will be called with your next play" if self.uno_armed
                            else "UNO call cancelled")
            self.refresh_table()
        elif self.viewer is not None:
            self.refuse(game.illegal_reason(Action.call_uno(self.viewer)) or "")

    def catch_key(self) -> None:
        game = self.session.game
        if self.viewer is None:
            return
        others = [(s, f"{self.session.seat_name(s)} ({count(len(game.hands[s]), 'card')})")
                  for s in range(game.players) if s != self.viewer]
        self.push_screen(SeatPicker("Catch whom? (a player with one card who has not "
                                    "called UNO)", others), self._caught)

    def _caught(self, target: int | None) -> None:
        if target is not None:
            self.catch(target)

    def catch(self, target: int) -> None:
        """The person at the keyboard catches ``target`` (in hot-seat, any other person)."""
        catcher = self.viewer
        if catcher == target:
            catcher = next((s for s in self.session.human_seats if s != target), None)
        if catcher is not None:
            self.human_act(Action.catch(catcher, target))

    # -- rounds, help, quit -------------------------------------------------------------
    def round_over(self) -> None:
        if self.screen is not self.table_screen or self.table_screen is None:
            return
        s = self.session
        game = s.game
        if not game.over or self._scored is s.table:
            return
        self._scored = s.table  # each round is carried into the match once
        # who sat where in this round (the next round seats only those still in)
        seated = {s.player_of(seat): seat for seat in range(game.players)}
        names = [s.seat_name(seat) for seat in range(game.players)]
        result = s.finish_round()
        if s.saved is None and s.recorder.recording:  # this round's write failed
            self._log_recording_problem()
        news = tuple(str(up) for up in s.saved.level_ups) if s.saved else ()
        for line in news:
            self.write_log(f"★ {line}")
        m = s.match
        lines = []
        for player, name in enumerate(m.names):
            seat = seated.get(player)
            level = s.levels.get(name)
            lines.append(ScoreLine(
                name, None if seat is None else len(game.hands[seat]),
                tuple(row[player] for row in s.points_by_round), m.scores[player],
                out=player not in m.active or (seat is not None and seat in result.eliminated),
                level=str(level) if level else ""))
        winner = None
        if m.over:
            w = m.winner
            winner = " and ".join(m.names[p] for p in w) if isinstance(w, tuple) else (
                m.names[w] if w is not None else None)
            winner = wins(winner or "nobody") if not isinstance(w, tuple) else f"{winner} share"

        self.write_log(f"{names[result.winner]} went out: {wins(names[result.winner])} the round!")
        self.push_screen(ScoreboardScreen(f"{wins(names[result.winner])} round {m.round_no}!",
                                          lines, winner=winner, round_no=m.round_no,
                                          target=m.options.target, mode=m.options.match,
                                          news=news),
                         self._after_scoreboard)

    def _after_scoreboard(self, choice: str | None) -> None:
        if choice == "quit":
            self.exit()
            return
        if choice == "new" and self.new_session is not None:
            self.session.close()
            self.session = self.new_session()
            self.session.launcher.when_button_pressed = self._button_from_hardware
            self._log_recording_problem()
        elif choice == "new":
            self.exit()
            return
        self.session.start_round()
        self._reacted_at = self._scheduled_at = -1
        humans = self.session.human_seats
        self.viewer = humans[0] if len(humans) == 1 else None
        self.resumed = False
        self._log_round_start()
        self.advance()

    def action_ask_quit(self) -> None:
        self.ask_quit()

    def show_help(self) -> None:
        self.push_screen(HelpScreen())

    def show_stats(self) -> None:
        """The records of the people at the table, as the player store has them."""
        s = self.session
        note = None
        if not s.recorder.recording:
            note = s.recorder.problem or "This game is not being recorded (--no-record)."
        self.push_screen(StatsScreen(s.recorder.player_stats(s.config.humans), note=note))

    def ask_quit(self) -> None:
        save = self.config.save
        journal = self.session.journal
        if journal is not None and journal.failure is not None:
            hint = (f"⚠ {journal.failure}.\nQuitting loses what was played since the last "
                    "save that worked.")
        elif save is not None:
            hint = f"The game is saved in {save};\n'{resume_command(save)}' goes on from here."
        else:
            hint = "This game is not being saved."
        self.push_screen(QuitScreen(hint), self._quit_answer)

    def _quit_answer(self, really: bool | None) -> None:
        if really:
            self.exit()

    def on_unmount(self) -> None:
        for timer in self._game_timers:
            timer.stop()
        self.close_session()

    # -- what the status line says ----------------------------------------------------
    def refresh_table(self) -> None:
        if self.table_screen is not None and self.table_screen.is_mounted:
            self.table_screen.refresh_table()

    def status_text(self) -> str:
        s = self.session
        game = s.game
        if self.message:
            return f"⚠ {self.message}" if not self.message.startswith("UNO") else self.message
        if self.busy:
            return "The launcher is running…"
        if game.over:
            return "The round is over."
        window = game.uno_seat
        if window is not None and self.viewer is not None:
            if window == self.viewer:
                return "You hold one card: call UNO now (u), before someone catches you!"
            if s.is_human(window) and len(s.human_seats) > 1:
                return f"{s.seat_name(window)} holds one card: call UNO (u)!"
            return (f"{s.seat_name(window)} did not call UNO: catch them (c, or click "
                    "their name)!")
        seat = game.to_act
        assert seat is not None
        name = s.seat_name(seat)
        take = _TAKE_WORDS[game.take_verb]
        if seat != self.viewer:
            if game.owed:
                owed = game.owed[0]
                return f"{name} owes {owed.describe()} ({owed.cause.describe()})."
            return f"{name} is thinking…"
        you = f"{name}, you" if len(s.human_seats) > 1 else "You"
        if game.phase is Phase.CHOOSE:
            return f"{you} name the colour of the wild starter."
        if game.owed:
            owed = game.owed[0]
            what = "until a card fires" if owed.count == FIRE else count(owed.count, "time")
            return f"{you} must {take} {what} ({owed.cause.describe()}): Space."
        if game.phase is Phase.AFTER:
            return "Play a card that just arrived (✓), or pass: p."
        if game.phase is Phase.CHAIN:
            return f"{you} {take} on until a playable card comes: Space."
        turn = f"{name}, your turn" if len(s.human_seats) > 1 else "Your turn"
        return f"{turn}: play a ✓ card (←→ Enter, 1-9, click) or {take} (Space)."


_TAKE_WORDS = {Verb.PRESS: "press the launcher", Verb.DRAW: "draw"}

