"""The table screen: everything at a glance, and the keys and clicks of a turn.

It shows what the session's engine says and turns keys into actions; whether an action
is allowed is always the engine's answer (shown as the reason when it is not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, RichLog, Static

from uno_attack.actions import Action, Verb
from uno_attack.engine import Phase
from uno_attack.tui.widgets.hand import HandView
from uno_attack.tui.widgets.launcher import LauncherView
from uno_attack.tui.widgets.seats import SeatBadge, SeatInfo, SeatsBar
from uno_attack.tui.widgets.topcard import TopCardView
from uno_attack.wording import count

LOG_STYLES = (("caught", "bold red"), ("fired!", "magenta"), ("UNO", "bold yellow"),
              ("wins", "bold green"), ("Round ", "bold"), ("Resumed", "bold"))


def _log_style(line: str) -> str:
    """A colour for the kind of event, so a glance at the log finds the big moments."""
    return next((style for word, style in LOG_STYLES if word in line), "")


if TYPE_CHECKING:
    from uno_attack.tui.app import UnoAttackApp


class TableScreen(Screen[None]):
    """The game table."""

    BINDINGS = [  # noqa: RUF012
        # priority: a scrollable part under them (the log) must not take the arrows
        Binding("left", "move(-1)", "Card", show=False, priority=True),
        Binding("right", "move(1)", "Card", show=False, priority=True),
        Binding("enter", "play_selected", "Play"),
        Binding("space", "press", "Press"),
        Binding("u", "uno", "UNO"),
        Binding("c", "catch", "Catch"),
        Binding("p", "pass_turn", "Pass"),
        Binding("question_mark", "help", "Help"),
        Binding("s", "stats", "Stats", show=False),
        Binding("q", "quit_game", "Quit"),
        *[Binding(str((i + 1) % 10), f"play_index({i})", show=False) for i in range(10)],
    ]

    app: UnoAttackApp  # type: ignore[assignment]

    def compose(self) -> ComposeResult:
        yield SeatsBar(id="seats")
        with Horizontal(id="middle"):
            with Vertical(id="pile", classes="panel"):
                yield TopCardView(id="topcard")
            yield LauncherView(id="launcher", classes="panel", animate=self.app.config.animate)
            yield RichLog(id="log", classes="panel", wrap=True, markup=False, min_width=20)
        yield Static(id="status")
        with Vertical(id="hand-panel", classes="panel"):
            yield Label("", id="hand-title")
            yield HandView(id="hand")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#pile").border_title = "Discard pile"
        self.query_one("#launcher").border_title = "Launcher"
        self.query_one("#log").border_title = "What happened"
        self.refresh_table()

    # -- reading the game -----------------------------------------------------------
    def refresh_table(self) -> None:
        """Redraw every part from the session's current state."""
        app = self.app
        session = app.session
        game = session.game
        viewer = app.viewer
        to_act = game.to_act
        owed = {o.seat: o for o in reversed(game.owed)}
        infos = []
        for seat in range(game.players):
            if seat == viewer:
                continue
            level = session.levels.get(session.seat_name(seat))
            owing = owed.get(seat)
            owes = "" if owing is None else f"owes {owing.describe()}"
            infos.append(SeatInfo(
                seat, session.seat_name(seat), len(game.hands[seat]), session.seat_score(seat),
                to_act=seat == to_act, uno=len(game.hands[seat]) == 1,
                called=len(game.hands[seat]) == 1 and session.called_uno(seat),
                catchable=game.uno_seat == seat, owes=owes,
                level=level.number if level else None))
        self.query_one(SeatsBar).show(infos)
        top = self.query_one(TopCardView)
        top.rules = game.rules
        top.card, top.color, top.direction = game.top, game.color, game.direction
        launcher = self.query_one(LauncherView)
        launcher.inside = len(game.stock)
        launcher.tension = session.launcher.tension
        launcher.busy = app.busy
        launcher.ready = viewer is not None and viewer == to_act
        hand = self.query_one(HandView)
        hand.rules = game.rules
        cards = tuple(game.hands[viewer]) if viewer is not None else ()
        playable = set()
        if viewer is not None and viewer == to_act and not game.owed:
            legal = {a.card for a in game.legal_actions(viewer) if a.verb is Verb.PLAY}
            playable = {i for i, c in enumerate(cards) if c in legal}
        hand.cards = cards
        hand.playable = frozenset(playable)
        # in hot-seat a hand shows only on its owner's turn (the keyboard may move on)
        hand.hidden = viewer is None or (len(session.human_seats) > 1 and viewer != to_act)
        title = "hand" if session.human_seats else "watching: every seat is a bot"
        if viewer is not None:
            name = session.seat_name(viewer)
            whose = "Your" if len(session.human_seats) == 1 else f"{name}'s"
            title = f"{whose} hand · {count(len(cards), 'card')} · {session.seat_score(viewer)} pts"
            level = session.levels.get(name)
            if level is not None:
                title += f" · {level}"
        if app.uno_armed:
            title += " · UNO! armed for your next play"
        if app.unsaved:
            title += " · ⚠ not saved"
        self.query_one("#hand-title", Label).update(title)
        self.query_one("#status", Static).update(app.status_text())
        self.query_one("#hand-panel").set_class(viewer is not None and viewer == to_act,
                                                "-your-turn")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show "Pass" only when passing is a choice (the play_after_press option)."""
        if action == "pass_turn":
            return self.app.session.game.phase is Phase.AFTER
        return True

    def on_screen_resume(self) -> None:
        if self.app.session.game.over:  # the round ended while a dialog was open
            self.app.call_later(self.app.round_over)

    def write_log(self, line: str) -> None:
        self.query_one(RichLog).write(Text(line, style=_log_style(line)))

    # -- keys and clicks ------------------------------------------------------------
    def action_move(self, step: int) -> None:
        self.query_one(HandView).cursor += step

    def action_play_selected(self) -> None:
        self.app.play_card(self.query_one(HandView).cursor)

    def action_play_index(self, index: int) -> None:
        hand = self.query_one(HandView)
        if index < len(hand.cards):
            hand.cursor = index
            self.app.play_card(index)

    def on_hand_view_chosen(self, message: HandView.Chosen) -> None:
        self.app.play_card(message.index)

    def action_press(self) -> None:
        self.app.human_press()

    def on_launcher_view_pressed(self, message: LauncherView.Pressed) -> None:
        self.app.human_press()

    def action_uno(self) -> None:
        self.app.uno_key()

    def action_catch(self) -> None:
        self.app.catch_key()

    def on_seat_badge_clicked(self, message: SeatBadge.Clicked) -> None:
        if self.app.session.game.uno_seat == message.seat:
            self.app.catch(message.seat)

    def action_pass_turn(self) -> None:
        viewer = self.app.viewer
        if viewer is not None:
            self.app.human_act(Action.pass_(viewer))

    def action_help(self) -> None:
        self.app.show_help()

    def action_stats(self) -> None:
        self.app.show_stats()

    def action_quit_game(self) -> None:
        self.app.ask_quit()
