"""``uno-attack join URL``: a hosted table in the terminal, on the same screens as ``play``.

:class:`RemoteTable` is the table screen's controller for a table that lives at a host:
everything it shows comes from the host's last ``view`` (and its ``hello``), every action
goes to the host as an ``act``, and a refusal comes back as the host's ``error``, worded
with the players' names from its parts (the seats it names). The connection is kept up
with backoff; the screen says when it drops and comes back. A host that cannot be reached
at first, refuses the link, or sends what NETWORK.md does not allow ends the app with one
line saying so (:attr:`JoinApp.failure`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import cast

from uno_attack.actions import Action
from uno_attack.errors import UnoAttackError
from uno_attack.journal import SaveFailure
from uno_attack.net.client import Message, TableClient
from uno_attack.refusal import say
from uno_attack.rules import RuleSet
from uno_attack.store import PlayerStats
from uno_attack.tui.app import UnoAttackApp
from uno_attack.tui.control import Listeners, Scoreboard, ScoreLine
from uno_attack.tui.seen import Rules, Seen
from uno_attack.views import Hello, View
from uno_attack.wording import wins


def legal_actions(view: Message, seat: int | None, rules: RuleSet) -> tuple[Action, ...]:
    """A host's view's ``legal`` as actions of ``seat``, read once here, where the view
    arrives as text (a launcher prompt's answers, ``retry`` and ``fired N``, are no
    actions of the rules: the prompt carries them)."""
    if seat is None:
        return ()
    out = []
    for text in view.get("legal") or ():
        try:
            out.append(Action.parse_move(text, seat, rules=rules))
        except UnoAttackError:
            continue
    return tuple(out)


def lobby_note(hello: Message, view: Message) -> str:
    """Who is here while the seats fill before the deal (the view's ``lobby``)."""
    names = hello.get("players") or []
    here = set(view.get("connected") or ())
    people = [s for s in hello.get("people") or () if isinstance(s, int) and s < len(names)]
    joined = [names[s] for s in people if s in here]
    waited = [names[s] for s in people if s not in here]
    line = "waiting for the deal: here " + (", ".join(joined) or "no one")
    if waited:
        line += "; not yet " + ", ".join(waited)
    return line


class RemoteTable:
    """A seat (or the watch) of a hosted table, as the table screen drives it."""

    animate = True
    can_start_new = False  # the host deals every match
    seatless = "a watcher cannot act"  # as the host says it

    def __init__(self, url: str, *, client: TableClient | None = None,
                 ended: Callable[[str], None] = lambda why: None) -> None:
        self.client = client or TableClient(url)
        self.ended = ended  # called with why, when the connection ends for good
        self.hello: Message | None = None
        self.view: Message | None = None
        self.connection = "connecting…"
        self.drops = 0  # outages so far (each one reconnected, after however many tries)
        self._up = False  # connected since the last drop
        self._rules: tuple[object, Rules] | None = None
        self._points: dict[int, list[int]] = {}  # round -> its points, as the views told
        self.listeners = Listeners()  # the screens listening
        self._sending: set[asyncio.Task[None]] = set()

    # -- the connection -----------------------------------------------------------------
    async def run(self) -> None:
        """Stay connected until cancelled (the app's worker is), then close."""
        try:
            async for message in self.client.stay_connected():
                self._received(message)
        except UnoAttackError as exc:  # unreachable, refused, or the host broke NETWORK.md
            self.connection = str(exc)
            await self.client.close()  # before the app ends and cancels this
            self.listeners.changed()
            self.ended(str(exc))
        finally:
            await self.client.close()

    def _received(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "hello":
            self.hello = message
            self._up = True
            self.connection = "connected" if self.drops == 0 else (
                f"connected again after {self.drops} drop{'s' if self.drops > 1 else ''}")
        elif kind == "view":
            self.view = message
            if message.get("round_points") is not None:
                self._points[int(message.get("round", 1))] = list(message["round_points"])
        elif kind == "error":
            names = self.hello["players"] if self.hello is not None else ()
            parts = message.get("parts")  # as the client checked them, if the host sent any
            if message.get("plain") is not None:  # the host's words for a player
                text = str(message["plain"])
            elif parts is not None:
                text = say(parts, names)
            else:
                text = str(message.get("message"))
            self.listeners.refused(text)
            return
        elif kind != "disconnected":
            return  # a kind of message this client does not know: nothing to show
        else:
            if self._up:  # a new outage; a failed retry is the same one
                self.drops += 1
                self._up = False
            self.connection = f"connection lost: reconnecting in {message['retry_in']:.1f} s"
        self.listeners.changed()

    def close(self) -> None:
        """The connection closes as :meth:`run` ends."""

    # -- what the screen reads ----------------------------------------------------------
    def listen(self, changed: Callable[[], None],
               refused: Callable[[str], None]) -> Callable[[], None]:
        return self.listeners.listen(changed, refused)


    def seen(self) -> Seen | None:
        hello, view = self.hello, self.view
        if hello is None or view is None:
            return None
        options = hello.get("options") or {}
        if self._rules is None or self._rules[0] != options:
            self._rules = (options, Rules.of(hello))
        seat = hello.get("seat")
        note = "" if self.connection == "connected" else self.connection
        if view.get("lobby"):
            note = " · ".join(filter(None, (lobby_note(hello, view), note)))
        rules = self._rules[1]
        # the client checked both whole as they arrived (uno_attack.net.checks); what a
        # host may leave out, the screens read with .get
        return Seen(hello=cast(Hello, hello), view=cast(View, view), rules=rules, seat=seat,
                    people=(seat,) if seat is not None else (), prompt=view.get("prompt"),
                    note=note, actions=legal_actions(view, seat, rules.rules))

    # -- acting -------------------------------------------------------------------------
    def act(self, move: Action | str, seat: int | None = None) -> None:
        """Send the act (this connection's seat only: the host knows it by the token), in
        the network's form: a transcript's action without the seat."""
        text = move if isinstance(move, str) else move.text(seat=False)
        task = asyncio.get_running_loop().create_task(self._send(text))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, text: str) -> None:
        try:
            await self.client.act(text)
        except (ConnectionError, RuntimeError):
            self.listeners.refused("not connected: the action was not sent")

    def check(self, action: Action) -> str | None:
        return None  # only the host can say

    def take_keyboard(self) -> None:
        """Nothing to hand over: this terminal is one seat."""

    def next_round(self) -> None:
        """The host deals the next round by itself."""

    # -- between rounds -------------------------------------------------------------------
    def scoreboard(self) -> Scoreboard:
        assert self.hello is not None
        assert self.view is not None
        view = self.view
        names = list(self.hello["players"])
        round_no = int(view.get("round", 1))
        rounds = sorted(self._points)
        hands = view.get("hands") or [[] for _ in names]
        lines = tuple(ScoreLine(name, len(hands[seat]),
                                tuple(self._points[r][seat] if seat < len(self._points[r])
                                      else None for r in rounds),
                                int(view["scores"][seat]))
                      for seat, name in enumerate(names))
        winner_seats = view.get("match_winner")
        winner = None
        if winner_seats:
            who = " and ".join(names[seat] for seat in winner_seats)
            winner = f"{who} share" if len(winner_seats) > 1 else wins(who)
        options = Rules.of(self.hello).options
        pause = view.get("next_round_in")
        later = "The host deals the next round" + (
            f" in {pause:.0f} s." if isinstance(pause, int | float) else ".")
        round_winner = view.get("winner")
        title = (f"{wins(names[round_winner])} round {round_no}!" if round_winner is not None
                 else f"Round {round_no} is over")
        return Scoreboard(title, lines, round_no=round_no, target=options.target,
                          mode=options.match, winner=winner, next_round=later)

    def records(self) -> tuple[dict[str, PlayerStats | None], str | None]:
        return {}, "The players' records are kept at the host ('uno-attack stats' there)."

    def save_failure(self) -> SaveFailure | None:
        return None  # the host keeps the journal

    def after_save_failure(self, choice: str) -> None:
        """Nothing is saved here."""

    def leave_hint(self) -> str:
        return ("The game goes on at the host without you (a bot plays for you when you "
                "are away);\nopen the same URL again to come back.")


class JoinApp(UnoAttackApp):
    """The terminal game at one seat (or the watch) of a hosted table."""

    def __init__(self, url: str, *, sorted_hand: bool = False,
                 keep_order: Callable[[bool], str | None] = lambda sorted_hand: None) -> None:
        self.remote = RemoteTable(url, ended=self._ended)
        #: why the app ended by itself (the host unreachable, refusing, or broken)
        self.failure: str | None = None
        super().__init__(self.remote, sorted_hand=sorted_hand, keep_order=keep_order)

    def _ended(self, why: str) -> None:
        self.failure = why
        self.exit(return_code=2)

    @property
    def view(self) -> Message | None:
        """The host's latest view."""
        return self.remote.view
