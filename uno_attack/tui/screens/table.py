"""The table screen: everything at a glance, the keys and clicks of a turn, and the
questions the table puts to the person at it (a hand-off, a colour, a launcher problem,
a challenged hand, the scores).

It draws what its :class:`~uno_attack.tui.control.TableControl` shows (one seat's view)
and sends actions as text; whether an action is allowed is always the engine's answer,
shown as the reason when it is not. What a card needs when played (a colour, a seat) is
the rule set's answer. The screen's own state is reactive: the table as last seen, the
message, UNO armed, the cards picked for a play of several. The hand is shown sorted (or
as dealt: ``t``), its new cards marked; a card's code typed (``R5``, ``WF``) moves the
cursor onto it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Label, RichLog, Static

from uno_attack.actions import Action, Verb
from uno_attack.cards import COLORS, Card, Color
from uno_attack.options import Options
from uno_attack.tui.arrivals import Arrivals, in_order
from uno_attack.tui.control import TableControl
from uno_attack.tui.hints import Hint, Hinting, hint_lines, say_move
from uno_attack.tui.screens.dialogs import (
    HandoffScreen,
    HelpScreen,
    HintScreen,
    LauncherProblemScreen,
    QuitScreen,
    RevealScreen,
    SaveProblemScreen,
)
from uno_attack.tui.screens.pickers import ColorPicker, SeatPicker
from uno_attack.tui.screens.scoreboard import ScoreboardScreen
from uno_attack.tui.screens.stats import StatsScreen
from uno_attack.tui.seen import Seen
from uno_attack.tui.status import status_line
from uno_attack.tui.widgets.hand import HandView
from uno_attack.tui.widgets.keys import KeysFooter
from uno_attack.tui.widgets.launcher import LauncherView
from uno_attack.tui.widgets.seats import SeatBadge, SeatInfo, SeatsBar
from uno_attack.tui.widgets.topcard import TopCardView
from uno_attack.wording import count

_TAKES = {Verb.PRESS: Action.press, Verb.DRAW: Action.draw}  # the rule set's take, by verb

LOG_STYLES = (("caught", "bold red"), ("fired!", "magenta"), ("UNO", "bold yellow"),
              ("wins", "bold green"), ("Round ", "bold"), ("resumed", "bold"),
              ("★", "bold green"), ("⚠", "bold red"))


def _log_style(line: str) -> str:
    """A colour for the kind of event, so a glance at the log finds the big moments."""
    return next((style for word, style in LOG_STYLES if word in line), "")


class TableScreen(Screen[str]):
    """The game table; dismissed with ``"new"`` when a new match is asked for (quitting
    ends the app)."""

    BINDINGS = [  # noqa: RUF012
        # priority: a scrollable part under them (the log) must not take the arrows
        Binding("left", "move(-1)", "Card", show=False, priority=True),
        Binding("right", "move(1)", "Card", show=False, priority=True),
        Binding("home", "move_to(0)", "First card", show=False, priority=True),
        Binding("end", "move_to(-1)", "Last card", show=False, priority=True),
        Binding("pageup", "page(-1)", "Cards above", show=False, priority=True),
        Binding("pagedown", "page(1)", "Cards below", show=False, priority=True),
        Binding("enter", "play_selected", "Play"),
        Binding("a", "pick", "Add to play"),
        Binding("space", "take('press')", "Press"),  # the footer names the rule set's
        Binding("space", "take('draw')", "Draw"),    # way to take: one of them is on
        Binding("u", "uno", "UNO"),
        Binding("c", "catch", "Catch"),
        Binding("p", "pass_turn", "Pass"),
        Binding("x", "challenge", "Challenge"),
        Binding("j", "jump_in", "Jump in"),
        Binding("o", "go_out", "Go out"),
        Binding("question_mark", "help", "Help"),
        Binding("s", "stats", "Stats", show=False),
        Binding("t", "toggle_order", "Order", show=False),
        Binding("h", "hint", "Hint"),
        Binding("q", "quit_game", "Quit"),
        *[Binding(str((i + 1) % 10), f"play_index({i})", show=False) for i in range(10)],
    ]

    seen: reactive[Seen | None] = reactive(None, always_update=True, init=False)
    message: reactive[str] = reactive("", init=False)  # why a choice was refused …
    tip: reactive[str] = reactive("", init=False)  # … or news of the screen's own
    uno_armed: reactive[bool] = reactive(False, init=False)  # call UNO with the next play
    picked: reactive[tuple[int, ...]] = reactive((), init=False)  # a play of several cards

    def __init__(self, table: TableControl, *, sorted_hand: bool = False,
                 keep_order: Callable[[bool], str | None] = lambda sorted_hand: None) -> None:
        super().__init__()
        self.table = table
        self.sorted_hand = sorted_hand
        self._keep_order = keep_order   # remembers a change of order for the next game
        self.shown: tuple[Card, ...] = ()  # the hand as the screen shows it, in its order
        self._arrivals: dict[int, Arrivals] = {}  # by seat (hot-seat: each their own)
        self.typed = ""                    # a card's code being typed, to jump to it
        self.log_lines: list[str] = []  # everything the log showed, unwrapped
        self._logged = 0                # lines of the table's whole log written so far
        self._asked: set[tuple[object, ...]] = set()  # questions already put
        self._burst_at: tuple[int, int] | None = None
        self._unlisten: Callable[[], None] = lambda: None
        self._help: HelpScreen | None = None  # shown again as it was

    def compose(self) -> ComposeResult:
        yield SeatsBar(id="seats")
        with Horizontal(id="middle"):
            with Vertical(id="pile", classes="panel"):
                yield TopCardView(id="topcard")
            yield LauncherView(id="launcher", classes="panel", animate=self.table.animate)
            yield RichLog(id="log", classes="panel", wrap=True, markup=False, min_width=20)
        yield Static(id="status", markup=False)  # names and the host's words, as text
        with Vertical(id="hand-panel", classes="panel"):
            yield Label("", id="hand-title", markup=False)
            yield HandView(id="hand")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#pile").border_title = "Discard pile"
        self.query_one("#log").border_title = "What happened"
        self._unlisten = self.table.listen(self._changed, self._refused)
        self._changed()

    def on_unmount(self) -> None:
        self._unlisten()  # the table may go on a moment longer than the screen
        if self._help is not None and self._help not in self.app.screen_stack:
            self.app.uninstall_screen(self._help)

    # -- the table changed --------------------------------------------------------------
    def _changed(self) -> None:
        self.seen = self.table.seen()

    def _refused(self, reason: str) -> None:
        self.message = reason
        self.app.bell()

    def watch_seen(self, old: Seen | None, seen: Seen | None) -> None:
        if seen is None:
            self.query_one("#status", Static).update("Connecting to the table…")
            return
        if old is None or old.step != seen.step or old.note != seen.note:
            self.message = self.tip = ""  # said of a table (or a connection) changed since
            self.picked = ()
        self._draw(seen)
        self._write_log(seen)
        self._burst(seen)
        self.refresh_bindings()
        self._follow_dialogs(seen)
        self._ask()
        options = seen.rules.options
        if self._help is None or self._help.options != options:
            # ahead of the key that opens it, once the table is drawn
            self.call_after_refresh(self._prepare_help, options)

    def watch_message(self) -> None:
        self._draw_status()

    def watch_tip(self) -> None:
        self._draw_status()

    def watch_uno_armed(self) -> None:
        if self.seen is not None:
            self._draw_hand_title(self.seen)

    def watch_picked(self, picked: tuple[int, ...]) -> None:
        self.query_one(HandView).picked = picked
        self._draw_status()

    # -- drawing ------------------------------------------------------------------------
    def _draw(self, seen: Seen) -> None:
        view = seen.view
        sizes = view["hand_sizes"]
        owes = {seat: what for seat, what, _ in reversed(seen.owed())}
        catchable = {a.target for a in seen.listed(Verb.CATCH)}
        infos = []
        for seat, name in enumerate(seen.names):
            if seat == seen.seat:
                continue
            level = seen.levels.get(name)
            infos.append(SeatInfo(
                seat, name, sizes[seat], view["scores"][seat], to_act=seat == seen.turn,
                uno=sizes[seat] == 1, called=seat in (view.get("uno_called") or ()),
                catchable=view.get("uno_window") == seat and seat in catchable,
                owes=f"owes {owes[seat]}" if seat in owes else "",
                level=level.number if level else None,
                away=seat in (view.get("away") or ())))
        self.query_one(SeatsBar).show(infos)
        top = self.query_one(TopCardView)
        top.rules = seen.rules.rules
        top.card, top.color = seen.top, seen.color
        top.direction = 1 if view["direction"] == "clockwise" else -1
        launcher = self.query_one(LauncherView)
        launcher.verb = seen.take_verb
        launcher.inside = int(view.get("stock", 0))
        launcher.tension = int(view.get("tension", 0))
        launcher.busy = view.get("busy") is not None
        launcher.ready = seen.my_turn
        self.query_one("#launcher").border_title = (
            "Launcher" if seen.take_verb == "press" else "Draw pile")
        self._draw_hand(seen)
        self._draw_hand_title(seen)
        self._draw_status()
        self.query_one("#hand-panel").set_class(seen.my_turn, "-your-turn")

    def _draw_hand(self, seen: Seen) -> None:
        hand = self.query_one(HandView)
        hand.rules = seen.rules.rules
        hand.hidden = seen.seat is None or seen.hidden
        cards = self.shown = () if hand.hidden else in_order(seen.hand,
                                                             sorted_hand=self.sorted_hand)
        arrived: frozenset[int] = frozenset()
        if seen.seat is not None and not hand.hidden:
            arrivals = self._arrivals.setdefault(seen.seat, Arrivals())
            arrivals.update(seen.step[0], seen.hand, my_turn=seen.my_turn)
            arrived = arrivals.marked(cards)
        with self.app.batch_update():
            hand.cards = cards
            hand.arrived = arrived
            hand.playable = frozenset(i for i, card in enumerate(cards)
                                      if card in seen.playable)

    def _draw_hand_title(self, seen: Seen) -> None:
        seat = seen.seat
        if seat is None:
            title = "hand" if seen.people else seen.watching
        else:
            name = seen.name(seat)
            whose = "Your" if len(seen.people) <= 1 else f"{name}'s"
            title = (f"{whose} hand · {count(len(seen.hand), 'card')} · "
                     f"{seen.view['scores'][seat]} pts")
            if self.query_one(HandView).arrived:
                title += " · • just came"
            level = seen.levels.get(name)
            if level is not None:
                title += f" · {level}"
        if self.typed:
            title += f" · going to {self.typed}…"
        if self.uno_armed:
            title += " · UNO! armed for your next play"
        if seen.note:
            title += f" · {seen.note}"
        self.query_one("#hand-title", Label).update(title)

    @property
    def status(self) -> str:
        """What the status line says now."""
        message = self.message
        if message:
            return message if message.startswith("UNO") else f"⚠ {message}"
        if self.tip:
            return self.tip
        seen = self.seen
        if seen is None:
            return "Connecting to the table…"
        text = status_line(seen)
        if self.picked:
            cards = [self.shown[i].code for i in self.picked if i < len(self.shown)]
            text = (f"To play together: {' '.join(cards)} (a: add or drop the card under "
                    "the cursor, Enter: play them).")
        return text

    def _draw_status(self) -> None:
        self.query_one("#status", Static).update(self.status)

    def _write_log(self, seen: Seen) -> None:
        """Write the lines of the table's log this screen has not shown yet."""
        lines = list(seen.view.get("log") or [])
        start = int(seen.view.get("log_start", 0))
        log = self.query_one(RichLog)
        if start + len(lines) < self._logged:  # another table's log (a host restarted)
            self._logged = start
        for i, line in enumerate(lines):
            if start + i >= self._logged:
                self.log_lines.append(line)
                log.write(Text(line, style=_log_style(line)))
        self._logged = max(self._logged, start + len(lines))

    def _burst(self, seen: Seen) -> None:
        taken = seen.view.get("taken")
        if taken is not None and self._burst_at is not None and seen.step != self._burst_at:
            self.query_one(LauncherView).fire(int(taken["count"]))
        self._burst_at = seen.step

    # -- questions the table puts -------------------------------------------------------
    def on_screen_resume(self) -> None:
        self._ask()

    def _follow_dialogs(self, seen: Seen) -> None:
        """Keep an open hand-off, scoreboard or launcher problem true to the table."""
        top = self.app.screen
        if isinstance(top, HandoffScreen) and seen.handoff is not None:
            top.player = seen.handoff
        elif isinstance(top, LauncherProblemScreen) and seen.prompt is None:
            # answered meanwhile (the launcher's own button retried): a count typed now
            # would answer nothing; the next problem, even alike, asks again
            self._asked = {key for key in self._asked if key[0] != "prompt"}
            top.dismiss(None)
        elif isinstance(top, ScoreboardScreen) and not seen.scored \
                and seen.step[0] > top.board.round_no:
            top.dismiss(None)  # the host dealt the next round
        elif isinstance(top, ScoreboardScreen) and seen.scored:
            top.show(self.table.scoreboard())  # the round's records came (levels, level-ups)

    def _ask(self) -> None:
        """Put the question the table waits for, once, when no dialog is open."""
        seen = self.seen
        if seen is None or not self.is_current:
            return
        prompt = seen.prompt
        failure = self.table.save_failure()
        if failure is not None and self._once("save", id(failure)):
            self.app.bell()
            self.app.push_screen(SaveProblemScreen(failure), self._after_save_failure)
        elif prompt is not None and self._once("prompt", seen.step, prompt["message"]):
            actions = list(prompt["actions"])
            self.app.push_screen(LauncherProblemScreen(
                prompt["message"], fired=int(prompt.get("fired", 0)),
                can_retry="retry" in actions), self._answer_problem)
        elif seen.handoff is not None and self._once("handoff", seen.step, seen.handoff):
            self.app.push_screen(HandoffScreen(seen.handoff), self._handed_off)
        elif seen.scored and self._once("board", seen.step[0]):
            self.app.push_screen(ScoreboardScreen(
                self.table.scoreboard(), show_records=self.action_stats,
                can_start_new=self.table.can_start_new), self._after_board)
        elif seen.revealed is not None and self._once("reveal", seen.step):
            revealed = seen.revealed
            outcome = (seen.view.get("log") or [""])[-1]
            self.app.push_screen(RevealScreen(
                seen.name(int(revealed["seat"])),
                tuple(Card.parse(code) for code in revealed["hand"]), outcome))
        elif seen.my_turn and seen.listed(Verb.CHOOSE) and self._once("colour", seen.step):
            self.app.push_screen(ColorPicker("the wild starter"), self._chose_starter_colour)

    def _once(self, *key: object) -> bool:
        if key in self._asked:
            return False
        self._asked.add(key)
        return True

    def _answer_problem(self, answer: tuple[str, int] | None) -> None:
        if answer is None:
            return
        kind, fired = answer
        self.table.act("retry" if kind == "retry" else f"fired {fired}")

    def _after_save_failure(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.exit()
        else:
            self.table.after_save_failure(choice or "play")

    def _handed_off(self, _: None = None) -> None:
        self.table.take_keyboard()

    def _after_board(self, choice: str | None) -> None:
        if choice == "next":
            self.table.next_round()
        elif choice == "new":
            self.app.call_later(self.dismiss, "new")  # once the scoreboard is gone
        elif choice == "quit":
            self.app.exit()

    def _chose_starter_colour(self, color: Color | None) -> None:
        seen = self.seen
        if color is None and seen is not None:
            self._asked.discard(("colour", seen.step))  # asked again: it must be named
            self.message = "Name the colour of the wild starter first (r, y, g or b)."
            self.app.call_later(self._ask)
            return
        if color is not None:
            self._act(lambda seat: Action.choose(seat, color))

    # -- playing cards -------------------------------------------------------------------
    def _hand_shown(self) -> Seen | None:
        seen = self.seen
        return seen if seen is not None and seen.seat is not None and not seen.hidden else None

    def play_card(self, index: int) -> None:
        """Play this card of the hand, or the cards picked with it for a play of several."""
        seen = self._hand_shown()
        if seen is None or index >= len(self.shown):
            return
        picked = list(self.picked)
        if picked and index not in picked:
            picked.append(index)
        self._play(tuple(self.shown[i] for i in picked) if picked else (self.shown[index],))

    def _play(self, cards: tuple[Card, ...]) -> None:
        """Ask what the cards need (a colour, a seat: the rule set says), then play them;
        a play the engine would refuse is refused before any question."""
        seen = self._hand_shown()
        assert seen is not None
        assert seen.seat is not None
        kinds = [seen.kind(card) for card in cards]
        wild = any(kind.wild for kind in kinds)
        names_seat = kinds[0].names_seat
        listed = seen.plays_of(cards)
        others = [s for s in range(len(seen.names)) if s != seen.seat]
        if not listed:
            probe = Action.play(seen.seat, cards, COLORS[0] if wild else None,
                                others[0] if names_seat else None)
            reason = self.table.check(probe)
            if reason is not None:
                self._refused(reason)
                return
        name = " and ".join(seen.card_name(card) for card in dict.fromkeys(cards))
        if wild:
            self.app.push_screen(ColorPicker(name),
                                 lambda color: self._send_play(cards, color=color))
        elif names_seat:
            targets = [a.target for a in listed if a.target is not None] or others
            sizes = seen.view["hand_sizes"]
            choices = [(s, f"{seen.name(s)} ({count(sizes[s], 'card')})") for s in targets]
            self.app.push_screen(SeatPicker(f"Trade hands with whom? ({name})", choices),
                                 lambda target: self._send_play(cards, target=target))
        else:
            self._send_play(cards)

    def _send_play(self, cards: tuple[Card, ...], *, color: Color | None = None,
                   target: int | None = None) -> None:
        seen = self.seen
        if seen is None or seen.seat is None:
            return
        if (seen.kind(cards[0]).names_seat and target is None) or (
                color is None and any(seen.kind(card).wild for card in cards)):
            return  # the picker was closed
        play = Action.play(seen.seat, cards, color, target, uno=self.uno_armed)
        self.uno_armed = False
        self.picked = ()
        self.table.act(play, seat=seen.seat)

    def _act(self, make: Callable[[int], Action], seat: int | None = None) -> None:
        """Make the action ``make`` builds for ``seat`` (default: the seat whose hand the
        screen shows): the table gets a value, never text to parse back."""
        if seat is None:
            seen = self.seen
            if seen is None:
                return
            if seen.seat is None:
                self._refused(self.table.seatless)
                return
            seat = seen.seat
        self.table.act(make(seat), seat=seat)

    # -- keys and clicks ------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show a key in the footer only when its action is one the seat may take now."""
        seen = self.seen
        listed = {"pass_turn": Verb.PASS, "challenge": Verb.CHALLENGE, "go_out": Verb.OUT}
        if action in listed:
            return seen is not None and bool(seen.listed(listed[action]))
        if action == "jump_in":
            return seen is not None and bool(seen.jump_ins) and not seen.hidden
        if action == "pick":  # a play of several cards is made on an open turn (B3)
            return seen is not None and seen.open_turn and \
                seen.rules.options.multi_play != "off"
        if action == "take":
            return (seen.take_verb if seen is not None else "press") == parameters[0]
        return True

    def action_move(self, step: int) -> None:
        self.query_one(HandView).cursor += step

    def action_move_to(self, index: int) -> None:
        """Home (``0``) and End (``-1``): the first or the last card."""
        hand = self.query_one(HandView)
        hand.cursor = index if index >= 0 else len(hand.cards) + index

    def action_page(self, pages: int) -> None:
        """PgUp and PgDn: the cursor a panel's height of cards up or down."""
        hand = self.query_one(HandView)
        panel = self.query_one("#hand-panel")
        rows = max(1, (panel.scrollable_content_region.height - 1) // hand.row_height())
        hand.cursor += pages * rows * hand.per_row()

    def action_toggle_order(self) -> None:
        """``t``: the hand sorted, or as dealt; the choice is kept for the next game."""
        self.sorted_hand = not self.sorted_hand
        self.picked = ()  # picked by place in the other order
        problem = self._keep_order(self.sorted_hand)
        if problem is not None:
            self.message = problem
        self.tip = ("Your hand is sorted by colour and value (t: as dealt)." if self.sorted_hand
                    else "Your hand is as dealt, new cards last (t: sorted).")
        if self.seen is not None:
            self._draw_hand(self.seen)

    def on_key(self, event: events.Key) -> None:
        """A card's code typed (a colour letter, then its symbol: ``R5``, ``WF``) moves
        the cursor onto the first card it fits; Esc or a key that fits none stops."""
        char = (event.character or "").upper()
        if not self.typed and (len(char) != 1 or char not in "RYGBW" or not self.shown):
            return
        if self.typed and (len(char) != 1 or not char.isprintable() or char == " "):
            self.typed = ""  # Enter plays the card reached, Esc only stops
            if self.seen is not None:
                self._draw_hand_title(self.seen)
            if event.key == "escape":
                event.stop()
            return
        event.stop()
        event.prevent_default()
        typed = self.typed + char
        matches = [i for i, card in enumerate(self.shown) if card.code.startswith(typed)]
        if matches:
            self.query_one(HandView).cursor = matches[0]
            done = all(self.shown[i].code == typed for i in matches)  # nothing longer fits
            self.typed = "" if done else typed
            self.message = ""
        else:
            self.message = f"No card {typed} in your hand."
            self.typed = ""
        if self.seen is not None:
            self._draw_hand_title(self.seen)

    def action_play_selected(self) -> None:
        """Enter: play the cards picked with ``a`` (just those), or the card under the
        cursor."""
        seen = self._hand_shown()
        if self.picked and seen is not None:
            self._play(tuple(self.shown[i] for i in self.picked if i < len(self.shown)))
        else:
            self.play_card(self.query_one(HandView).cursor)

    def action_play_index(self, index: int) -> None:
        hand = self.query_one(HandView)
        if index < len(hand.cards):
            hand.cursor = index
            self.play_card(index)

    def action_pick(self) -> None:
        """Add the card under the cursor to a play of several cards (or take it out)."""
        hand = self.query_one(HandView)
        if self._hand_shown() is None or not hand.cards:
            return
        index = hand.cursor
        self.picked = tuple(i for i in self.picked if i != index) if index in self.picked \
            else (*self.picked, index)

    def on_hand_view_chosen(self, message: HandView.Chosen) -> None:
        self.play_card(message.index)

    def action_take(self, verb: str) -> None:
        """Press the launcher, or draw from the pile (``verb``: the rule set's)."""
        if self.seen is not None:
            self._act(_TAKES[Verb(verb)])

    def on_launcher_view_pressed(self, message: LauncherView.Pressed) -> None:
        if self.seen is not None:
            self.action_take(self.seen.take_verb)

    def action_uno(self) -> None:
        seen = self.seen
        if seen is None:
            return
        window = seen.view.get("uno_window")
        if window is not None and window in seen.people:
            self._act(Action.call_uno, seat=window)
        elif seen.my_turn:
            self.uno_armed = not self.uno_armed
            self.message = ("UNO! will be called with your next play" if self.uno_armed
                            else "UNO call cancelled")
        else:
            self._act(Action.call_uno)

    def action_catch(self) -> None:
        seen = self.seen
        if seen is None or seen.seat is None:
            return
        # the catches the seat may make; with none, everyone (the engine then says why not)
        targets = [a.target for a in seen.listed(Verb.CATCH) if a.target is not None] or [
            s for s in range(len(seen.names)) if s != seen.seat]
        sizes = seen.view["hand_sizes"]
        choices = [(s, f"{seen.name(s)} ({count(sizes[s], 'card')})") for s in targets]
        self.app.push_screen(SeatPicker("Catch whom? (a player with one card who has not "
                                        "called UNO)", choices), self._caught)

    def _caught(self, target: int | None) -> None:
        if target is not None:
            self._act(lambda seat: Action.catch(seat, target))

    def on_seat_badge_clicked(self, message: SeatBadge.Clicked) -> None:
        seen = self.seen
        if seen is not None and any(a.target == message.seat
                                    for a in seen.listed(Verb.CATCH)):
            self._act(lambda seat: Action.catch(seat, message.seat))

    def action_pass_turn(self) -> None:
        self._act(Action.pass_)

    def action_challenge(self) -> None:
        self._act(Action.challenge)

    def action_jump_in(self) -> None:
        seen = self.seen
        if seen is not None and seen.jump_ins and not seen.hidden:
            self._play(seen.jump_ins[0].cards)

    def action_go_out(self) -> None:
        self._act(Action.out)

    def action_help(self) -> None:
        seen = self.seen
        self.app.push_screen(self._help_screen(seen.rules.options if seen is not None
                                               else Options()))

    def _prepare_help(self, options: Options) -> None:
        """Make the help ahead of the key that opens it, once the table is drawn: made at
        the key, it took over a second on a slow board.

        Textual composes, styles and lays out a screen only when it is first pushed:
        pushed and popped at once, within a batch (so nothing is drawn), it is ready."""
        if not self.is_current:
            return  # a dialog is open: at the next change
        help_screen = self._help_screen(options)
        if help_screen.is_running:
            return
        with self.app.batch_update():
            self.app.push_screen(help_screen)
            self.app.pop_screen()

    def _help_screen(self, options: Options) -> HelpScreen:
        """The help for ``options``, made once and kept (its text rendered)."""
        help_screen = self._help
        if help_screen is not None and help_screen in self.app.screen_stack:
            return help_screen  # open (the table's options came meanwhile): at the next change
        if help_screen is None or help_screen.options != options:
            if help_screen is not None:
                self.app.uninstall_screen(help_screen)
            help_screen = self._help = HelpScreen(options)
            self.app.install_screen(help_screen, f"help-{id(self)}")
        help_screen.prerender()
        return help_screen

    def action_hint(self) -> None:
        """``h``: what the hard bot would do in your place, worked out off the event loop."""
        table = self.table
        ask = table.hint() if isinstance(table, Hinting) else "No hints at this table."
        if isinstance(ask, str):
            self.message = ask
            return
        self.tip = "The hard bot is thinking about your move…"
        self.run_worker(self._hint(ask), group="hint", exclusive=True)

    async def _hint(self, ask: Callable[[], Hint]) -> None:
        seen = self.seen
        hint = await asyncio.to_thread(ask)
        if seen is None or self.seen is None or self.seen.step != seen.step:
            return  # the table moved on meanwhile: the hint is stale
        self.tip = ""
        self.app.push_screen(HintScreen(hint_lines(hint, lambda action: say_move(
            action, seen.card_name, seen.names))))

    def action_stats(self) -> None:
        records, note = self.table.records()
        self.app.push_screen(StatsScreen(records, note=note))

    def action_quit_game(self) -> None:
        self.app.push_screen(QuitScreen(self.table.leave_hint()), self._quit_answer)

    def _quit_answer(self, really: bool | None) -> None:
        if really:
            self.app.exit()
