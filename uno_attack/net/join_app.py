"""``uno-attack join URL``: a hosted table in the terminal, drawn from the host's views.

Everything on the screen comes from the last ``view`` (and the ``hello``): the players,
the top card, what is owed, this seat's hand and the actions it may take (its ``legal``).
Choosing an action sends it; the host decides. The connection is kept up with backoff.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from uno_attack.cards import Card
from uno_attack.errors import InvalidCardError
from uno_attack.net.client import JoinError, Message, TableClient
from uno_attack.rules import RULE_SETS

STYLE = {"red": "bold white on red", "yellow": "bold black on yellow",
         "green": "bold white on green", "blue": "bold white on blue", None: "bold white on grey30"}


def card_text(code: str, *, mark: str = "") -> Text:
    """A card as a coloured chip with its code (readable without colour too)."""
    try:
        card = Card.parse(code)
        colour = card.color.label if card.color is not None else None
    except InvalidCardError:
        colour = None
    return Text(f" {code}{mark} ", style=STYLE[colour])


def card_name(code: str) -> str:
    """``red 5``, ``Wild Hit-Fire``: the name its rule set gives the card."""
    try:
        card = Card.parse(code)
    except InvalidCardError:
        return code
    rules = next((r for r in RULE_SETS.values() if card in r), None)
    return rules.card_name(card) if rules is not None else code


def action_label(action: str, names: list[str]) -> str:
    """``play W red`` → ``play Wild, naming red``; ``catch 2`` → ``catch Cleo``."""
    words = action.split()
    if words[0] == "play" and len(words) >= 2:
        text = f"play {card_name(words[1])}"
        if len(words) == 3:
            arg = words[2]
            text += f", trading with {names[int(arg)]}" if arg.isdigit() else f", naming {arg}"
        return text
    if words[0] == "catch" and len(words) == 2 and words[1].isdigit():
        return f"catch {names[int(words[1])]} (no UNO call)"
    if words[0] == "fired":
        return f"the launcher fired {words[1]} card(s)"
    return {"press": "press the launcher", "uno": "call UNO!", "pass": "pass",
            "retry": "retry the launcher"}.get(action, action)


class JoinApp(App[None]):
    """One seat (or the watch) of a hosted table."""

    TITLE = "UNO Attack"
    CSS = """
    #status { height: auto; padding: 0 1; }
    #players, #table, #hand, #log { height: auto; padding: 0 1; }
    #actions { height: 10; }
    #log { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("space", "act('press')", "press"), Binding("u", "act('uno')", "UNO"),
        Binding("q", "quit", "quit")]

    def __init__(self, url: str) -> None:
        super().__init__()
        self.client = TableClient(url)
        self.hello: Message | None = None
        self.view: Message | None = None
        self.connection = "connecting…"
        self.drops = 0  # connections lost so far (each one is reconnected)
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="status")
            yield Static(id="players")
            yield Static(id="table")
            yield Static(id="hand")
            yield OptionList(id="actions")
            yield Static(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._listen(), exclusive=True, group="connection")
        self.draw()

    async def _listen(self) -> None:
        try:
            async for message in self.client.stay_connected():
                self._received(message)
        except JoinError as exc:
            self.connection = str(exc)
            self.draw()

    def _received(self, message: Message) -> None:
        kind = message["type"]
        if kind == "hello":
            self.hello = message
            self.connection = "connected" if self.drops == 0 else (
                f"connected again after {self.drops} drop{'s' if self.drops > 1 else ''}")
        elif kind == "view":
            self.view = message
            self.error = ""
        elif kind == "error":
            self.error = str(message["message"])
        elif kind == "disconnected":
            self.drops += 1
            self.connection = f"connection lost: reconnecting in {message['retry_in']:.1f} s"
        self.draw()

    # -- drawing ----------------------------------------------------------------------
    def draw(self) -> None:
        hello, view = self.hello, self.view
        who = "watching" if hello is None or hello["seat"] is None else (
            f"{hello['name']} (seat {hello['seat']})")
        status = Text(f"{who} · {self.connection}")
        if view is not None:
            status.append(f" · round {view.get('round', 1)}")
        if self.error:
            status.append(f"\n⚠ {self.error}", style="bold red")
        self.query_one("#status", Static).update(status)
        if hello is None or view is None:
            return
        names: list[str] = hello["players"]
        self.query_one("#players", Static).update(self._players(view, names))
        self.query_one("#table", Static).update(self._table(view, names))
        self.query_one("#hand", Static).update(self._hand(view))
        actions = self.query_one("#actions", OptionList)
        legal = view.get("legal") or []
        was = actions.highlighted
        actions.clear_options()
        actions.add_options([Option(action_label(a, names), id=a) for a in legal])
        if legal:  # Enter takes the highlighted action: keep the place, or the first
            actions.highlighted = min(was or 0, len(legal) - 1)
            actions.focus()
        log = "\n".join(view["log"][-6:])
        self.query_one("#log", Static).update(log)

    @staticmethod
    def _players(view: Message, names: list[str]) -> Text:
        text = Text()
        for seat, name in enumerate(names):
            mark = "▶ " if seat == view["turn"] else "  "
            count = view["hand_sizes"][seat]
            cards = f"{count} card{'s' if count != 1 else ''}"
            line = f"{mark}{name}: {cards}, {view['scores'][seat]} pts"
            if view.get("uno_window") == seat:
                line += "  (no UNO call!)"
            elif count == 1:
                line += "  UNO"
            if seat in view.get("away", []):
                line += "  (away: a bot plays)"
            text.append(line + "\n", style="bold" if seat == view["turn"] else "")
        return text

    @staticmethod
    def _table(view: Message, names: list[str]) -> Text:
        text = Text("Top ")
        text.append_text(card_text(view["top"]))
        text.append(f" {card_name(view['top'])} · colour {view['color'] or 'not named'} · "
                    f"{view['direction']} · tension {view['tension']}")
        for i, (seat, count) in enumerate(view["owed"]):
            why = (view.get("owed_why") or [""] * len(view["owed"]))[i]
            what = "until a card fires" if count == "fire" else f"{count}×"
            text.append(f"\n{names[seat]} must press {what}{f' ({why})' if why else ''}")
        if view.get("prompt"):
            text.append(f"\n{view['prompt']['message']}", style="bold yellow")
        if view["turn"] is None and view["winner"] is not None:
            text.append(f"\n{names[view['winner']]} went out!", style="bold")
            if view.get("round_points"):
                text.append("  round: " + ", ".join(
                    f"{n} +{p}" for n, p in zip(names, view["round_points"], strict=True)))
        return text

    @staticmethod
    def _hand(view: Message) -> Text:
        if "hand" not in view:
            return Text("(watching: no hand)")
        playable = {a.split()[1] for a in view.get("legal", []) if a.startswith("play ")}
        text = Text("Your hand: ")
        for code in view["hand"]:
            text.append_text(card_text(code, mark="✓" if code in playable else ""))
            text.append(" ")
        return text

    # -- acting -------------------------------------------------------------------------
    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            await self.action_act(event.option.id)

    async def action_act(self, action: str) -> None:
        legal = (self.view or {}).get("legal") or []
        if action in ("press", "uno") and action not in legal:
            self.error = f"'{action}' is not yours to make now"
            self.draw()
            return
        try:
            await self.client.act(action)
        except (ConnectionError, RuntimeError):
            self.error = "not connected: the action was not sent"
            self.draw()

    async def on_unmount(self) -> None:
        await self.client.close()

