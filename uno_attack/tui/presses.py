"""Pressing the launcher from the game: in a thread worker, with a way on when it fails.

The motor may run for a while (or hang), so every press runs in a thread worker and the
screen stays alive. A press that stops short (jam, empty, timeout), a launcher that does
not answer, or one that lost count opens a dialog: retry (eject what is missing), or type
how many cards came out. The launcher's own button counts as the acting person's press.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import TYPE_CHECKING

from uno_attack.actions import Action
from uno_attack.launcher import PressResult
from uno_attack.session import press_problem
from uno_attack.table import UnknownPressOutcome
from uno_attack.tui.screens.dialogs import LauncherProblemScreen
from uno_attack.wording import count

if TYPE_CHECKING:
    from uno_attack.tui.app import UnoAttackApp

    _Base = UnoAttackApp
else:
    _Base = object


class PressFlow(_Base):
    """The launcher half of the app (a mixin of :class:`~uno_attack.tui.app.UnoAttackApp`)."""

    _main_thread: int

    def start_press(self, seat: int, *, retry: int = 0, prior: int = 0,
                    asked: int | None = None) -> None:
        """Press (or, after a jam, eject ``retry`` more) in a thread worker."""
        self.busy = True
        self.refresh_table()
        available = self.session.table.available() if self.session.table else 0
        self.run_worker(partial(self._press_thread, seat, available, retry, prior, asked),
                        thread=True, exit_on_error=False, group="launcher",
                        description=f"seat {seat} presses")

    def _press_thread(self, seat: int, available: int, retry: int, prior: int,
                      asked: int | None) -> None:
        outcome: PressResult | Exception
        try:
            table = self.session.table
            assert table is not None
            if retry:
                outcome = table.launcher.eject(retry, available=max(available - prior, 0))
            else:
                outcome = table.press_launcher()
        except Exception as exc:  # a launcher's failure of any kind is shown, not raised
            outcome = exc
        self.call_from_thread(self._press_done, seat, available, outcome, prior, asked)

    def _press_done(self, seat: int, available: int, outcome: PressResult | Exception,
                    prior: int, asked: int | None) -> None:
        if isinstance(outcome, UnknownPressOutcome):
            self._problem(seat, f"The launcher lost count: {outcome}", prior + outcome.result.fired,
                          retry=0, asked=outcome.result.asked)
            return
        if isinstance(outcome, Exception):
            self._problem(seat, f"The launcher is not answering: {outcome}", prior, retry=-1,
                          asked=asked)
            return
        total = prior + outcome.fired
        wanted = asked if asked is not None else outcome.asked
        result = PressResult(total, wanted, outcome.status, outcome.tension, outcome.detail)
        if press_problem(result, available):
            why = outcome.detail or str(outcome.status)
            self._problem(seat, f"The launcher stopped after {total} of "
                                f"{count(wanted, 'card')} ({why}).", total,
                          retry=wanted - total, asked=wanted)
            return
        self.busy = False
        self._perform(Action.press(seat), press=result)

    def _problem(self, seat: int, message: str, fired: int, *, retry: int,
                 asked: int | None) -> None:
        screen = LauncherProblemScreen(message, fired=fired, can_retry=retry != 0)
        self.push_screen(screen, partial(self._problem_answer, seat, fired, retry, asked))

    def _problem_answer(self, seat: int, fired: int, retry: int, asked: int | None,
                        answer: tuple[str, int] | None) -> None:
        kind, count = answer or ("count", fired)
        if kind == "retry" and retry > 0:
            self.start_press(seat, retry=retry, prior=fired, asked=asked)
        elif kind == "retry":
            self.start_press(seat)  # not answering: press again from the start
        else:
            self.busy = False
            self._perform(Action.press(seat), fired=count)

    def _button_from_hardware(self) -> None:
        """The launcher's own button (called from the hardware's thread)."""
        if threading.get_ident() == self._main_thread:
            self.hardware_button()
        else:
            self.call_from_thread(self.hardware_button)

    def hardware_button(self) -> None:
        game = self.session.game
        seat = game.to_act
        if self.busy or seat is None or not self.session.is_human(seat):
            return
        if self.screen is not self.table_screen:
            return
        self.viewer = seat if len(self.session.human_seats) == 1 else self.viewer
        if seat == self.viewer:
            self.human_act(Action(seat, game.take_verb))
