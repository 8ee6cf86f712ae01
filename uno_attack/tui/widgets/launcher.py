"""The launcher: the big button, tension building with each empty press, a whir while a
press runs (faster as the tension rises, as the toy's lights flash faster), and a burst
animation with how many cards fired (as the toy's lights and sounds do). In classic UNO
it is the draw pile, and the button draws."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from uno_attack.wording import count

TENSION_STYLES = ("green", "yellow", "dark_orange", "bold red")
BURST_FRAMES = ("  ·  ", " ·✦· ", "·✦✸✦·", "✦✸★✸✦", "✸ ★ ✸")
WHIR = "◐◓◑◒"
WHIR_SECONDS = (0.2, 0.14, 0.09, 0.05)  # a turn of the whir, by tension


class LauncherView(Widget):
    """Reads the launcher's tension and the last press; posts ``Pressed`` on a click."""

    tension: reactive[int] = reactive(0)
    inside: reactive[int] = reactive(0)
    busy: reactive[bool] = reactive(False)
    ready: reactive[bool] = reactive(True)  # the person at the keyboard may press now
    last: reactive[str] = reactive("")
    frame: reactive[int] = reactive(-1)
    verb: reactive[str] = reactive("press")  # or "draw": the classic pile
    whir: reactive[int] = reactive(-1)  # the whir's frame while a press runs (animated)

    class Pressed(Message):
        """The big button was clicked."""

    def __init__(self, *, animate: bool = True, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.animate_bursts = animate
        self._timer: Timer | None = None
        self._whir_timer: Timer | None = None
        self._burst = 0

    def watch_tension(self, tension: int) -> None:
        for level in range(4):
            self.set_class(min(tension, 3) == level, f"-tension-{level}")

    def watch_busy(self, busy: bool) -> None:
        """Whir while a press runs, a turn quicker for each level of tension."""
        if self._whir_timer is not None:
            self._whir_timer.stop()
            self._whir_timer = None
        self.whir = -1
        if busy and self.animate_bursts and self.verb == "press":
            self.whir = 0
            self._whir_timer = self.set_interval(WHIR_SECONDS[min(self.tension, 3)],
                                                 self._next_whir)

    def _next_whir(self) -> None:
        if self.whir >= 0:
            self.whir += 1

    def fire(self, cards: int) -> None:
        """Play the burst animation for ``cards`` cards (or none: one more empty press)."""
        self._burst = cards
        done = "FIRED" if self.verb == "press" else "DRAWN"
        self.last = f"{cards} CARD{'S' if cards != 1 else ''} {done}!" if cards \
            else f"…nothing {done.lower()}"
        if not cards or not self.animate_bursts:
            self.frame = -1
            return
        if self._timer is not None:
            self._timer.stop()
        self.frame = 0
        self._timer = self.set_interval(0.09, self._next_frame, repeat=len(BURST_FRAMES))

    def _next_frame(self) -> None:
        if self.frame < 0:
            return  # a tick of a burst already over (a stopped timer's last one)
        self.frame = self.frame + 1 if self.frame + 1 < len(BURST_FRAMES) else -1

    def render(self) -> Text:
        level = min(self.tension, 3)
        style = TENSION_STYLES[level]
        text = Text(justify="center")
        if self.whir >= 0:
            label = f"(  WHIRR  {WHIR[self.whir % len(WHIR)]}  )"
        elif self.busy:
            label = "(  RUNNING…  )"
        else:
            label = f"(  {self.verb.upper():<5}  ␣  )"  # the same width
        text.append(f"╭{'─' * (len(label))}╮\n", style)
        face = f"{style} reverse" if self.busy else (f"bold {style}" if self.ready else "dim")
        text.append(f"│{label}│\n", face)
        text.append(f"╰{'─' * (len(label))}╯\n", style)
        if self.verb == "press":  # a draw pile builds no tension
            lights = "●" * level + "○" * (3 - level)
            if self.whir >= 0 and self.whir % 2:  # the lights flash while it whirs
                lights = "●" * min(level + 1, 3) + "○" * (3 - min(level + 1, 3))
            text.append(f"tension {lights}\n", style)
        if 0 <= self.frame < len(BURST_FRAMES):
            text.append(f"{BURST_FRAMES[self.frame]} {self._burst}!\n", "bold magenta")
        else:
            text.append(f"{self.last}\n", "bold magenta" if "!" in self.last else "dim")
        where = "inside" if self.verb == "press" else "in the pile"
        text.append(f"{count(self.inside, 'card')} {where}", "dim")
        return text

    def on_click(self, event: Click) -> None:
        self.post_message(self.Pressed())
