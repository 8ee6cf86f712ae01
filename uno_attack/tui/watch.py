"""Watching a saved round: the table screen over a transcript, step by step.

:class:`ReplayTable` is a :class:`~uno_attack.tui.control.TableControl` whose table is a
transcript played out ahead (each action's round kept, with its line of the log), shown
at one step at a time; since it is a replay, every hand is shown. ←/→ step, Home/End go
to the deal or the end, Space plays it on by itself at a speed + and - change. The
transcript must replay (``uno-attack replay`` checks it): a step that fails is refused
before anything is shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from uno_attack import views
from uno_attack.actions import Action, Verb
from uno_attack.engine import Applied, Round
from uno_attack.errors import TranscriptError
from uno_attack.journal import SaveFailure
from uno_attack.replay import replay
from uno_attack.store import PlayerStats
from uno_attack.table import TableEvent
from uno_attack.transcript import Transcript
from uno_attack.tui.control import Listeners, Scoreboard
from uno_attack.tui.seen import Rules, Seen

#: Seconds a step stays on screen while it plays by itself: the speeds + and - go through
SPEEDS = (4.0, 2.0, 1.0, 0.5, 0.25)


@dataclass(frozen=True)
class Frame:
    """The round after a step, the log up to it, and who took how many cards by it."""

    game: Round
    log: tuple[str, ...]
    taken: tuple[int, int] | None = None


def seat_names(transcript: Transcript) -> list[str]:
    """The seats' names a saved game keeps (``meta.players``, or the match's
    ``meta.names`` when every one of them sits), else "Seat 1", "Seat 2" …"""
    for key in ("players", "names"):
        names = transcript.meta.get(key)
        if isinstance(names, list) and len(names) == transcript.players and all(
                isinstance(name, str) and name for name in names):
            return list(names)
    return [f"Seat {seat + 1}" for seat in range(transcript.players)]


def frames_of(transcript: Transcript, names: list[str]) -> list[Frame]:
    """Every step's round, from the deal; :class:`TranscriptError` if it does not replay."""
    deal = transcript.new_round()
    frames = [Frame(deal, (f"The deal: {deal.rules.card_name(deal.top)} starts",))]

    def follow(action: Action, to_act: int | None, applied: Applied, game: Round) -> None:
        jumped_in = action.verb is Verb.PLAY and action.seat != to_act
        log = (*frames[-1].log,
               TableEvent(applied, game.rules, None, tuple(names), jumped_in).describe())
        if game.winner is not None and game.over:
            log += (f"{names[game.winner]} went out: the round is over",)
        took = action.verb in (Verb.PRESS, Verb.DRAW)
        frames.append(Frame(game.copy(), log, (action.seat, len(applied.gained))
                            if took else None))

    checked = replay(transcript, on_action=follow)
    if not checked.passed:
        raise TranscriptError(f"it does not replay: {checked.failure}".splitlines()[0])
    return frames


class ReplayTable:
    """A transcript to watch (see the module docstring). ``sleep`` waits between steps
    while it plays by itself (tests pass one that does not wait)."""

    animate = False
    can_start_new = False
    seatless = "This is a replay: it can only be watched."

    def __init__(self, transcript: Transcript, *,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.transcript = transcript
        self.names = seat_names(transcript)
        self.frames = frames_of(transcript, self.names)
        self.rules = Rules.of(views.hello(None, self.names, transcript.options))
        self.position = 0
        self.playing = False
        self.speed = 2  # an index of SPEEDS
        self._sleep = sleep
        self._wake = asyncio.Event()
        self.listeners = Listeners()  # the screens listening

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    @property
    def frame(self) -> Frame:
        return self.frames[self.position]

    # -- moving through it --------------------------------------------------------------
    def go(self, position: int) -> None:
        """Show the step at ``position`` (kept within the round); at the end, stop playing."""
        self.position = max(0, min(position, self.last))
        if self.position == self.last:
            self.playing = False
        self.listeners.changed()

    def toggle_playing(self) -> None:
        self.playing = not self.playing and self.position < self.last
        self._wake.set()
        self.listeners.changed()

    def faster(self, steps: int) -> None:
        self.speed = max(0, min(self.speed + steps, len(SPEEDS) - 1))
        self._wake.set()
        self.listeners.changed()


    async def run(self) -> None:
        """Step on by itself while playing, a step every ``SPEEDS[speed]`` seconds."""
        while True:
            if not self.playing:
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._sleep(SPEEDS[self.speed])
            if self.playing:
                self.go(self.position + 1)

    # -- what the table screen reads ------------------------------------------------------
    def listen(self, changed: Callable[[], None],
               refused: Callable[[str], None]) -> Callable[[], None]:
        return self.listeners.listen(changed, refused)

    def seen(self) -> Seen:
        """The step as a seat sees it: the seat to act (the winner, at the end), its hand
        in the hand panel; the others' hands are the watch screen's."""
        frame = self.frame
        game = frame.game
        seat = game.to_act if game.to_act is not None else game.winner
        facts = views.TableFacts(names=tuple(self.names),
                                 scores=(0,) * len(self.names), log=frame.log,
                                 step=self.position, taken=frame.taken)
        return Seen(hello=views.hello(seat, self.names, self.transcript.options),
                    view=views.view(game, facts, seat), rules=self.rules, seat=seat,
                    watching="a replay")

    def act(self, move: Action | str, seat: int | None = None) -> None:
        self.listeners.refused("This is a replay: it can only be watched.")

    def check(self, action: Action) -> str | None:
        return None

    def take_keyboard(self) -> None:
        return None

    def next_round(self) -> None:
        return None

    def scoreboard(self) -> Scoreboard:
        raise AssertionError("a replay shows no scoreboard: its view is never scored")

    def records(self) -> tuple[dict[str, PlayerStats | None], str | None]:
        return {}, "A replay has no records."

    def save_failure(self) -> SaveFailure | None:
        return None

    def after_save_failure(self, choice: str) -> None:
        return None

    def leave_hint(self) -> str:
        return ""

    def close(self) -> None:
        self.playing = False
