"""The wiring self-test: each part of the dispenser in turn, with a verdict and a hint.

Parts: button (asks for a push), beam (asks to block it), motor (short low-duty pulses;
a card through the beam proves it, else it asks whether the roller turned), feed (two
cards through the closed loop, as quick as the pin map's calibration says; a jam freed
by a reverse pulse, which happens now and then, earns it one more run), LED and
buzzer (lit / sounding, asks). A part that needs another that failed is skipped, so each
fault fails exactly the part it breaks.

Who answers is a :class:`Helper`: a person at the terminal, an emulated person who acts
on the emulated world and answers from what it sees, or nobody (``--auto`` on real pins:
parts that need a person are skipped).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sim_launcher.dispenser import Debouncer
from uno_attack.launcher import EjectStatus
from wiring.devices import DispenserDevices
from wiring.driver import GpioEjector
from wiring.emulated import EmulatedHardware
from wiring.header import gpio_name

PASS, FAIL, SKIP = "pass", "FAIL", "skipped"
FEED_CARDS = 2   # the feed is judged by the time between two cards leaving
SLOW = 1.5       # a card time this many times the calibrated one: the roller slips
FEED_TRIES = 2   # a jam freed by a reverse pulse (it happens) earns the feed one more run


@dataclass(frozen=True)
class PartResult:
    """The verdict on one part and what to look at."""

    part: str
    verdict: str
    note: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict == FAIL


class Helper(Protocol):
    """Whoever does what the check asks and answers its questions."""

    present: bool  # someone who can push the button and block the beam

    def request(self, action: str, text: str) -> None:
        """Ask for ``action`` (push, block, unblock), described to a person by ``text``."""

    def confirm(self, what: str, question: str) -> bool | None:
        """Ask whether ``what`` (roller, led, buzzer) did its job; None: nobody can tell."""


class TerminalHelper:
    """A person at the terminal."""

    present = True

    def __init__(self, ask: Callable[[str], str] = input,
                 say: Callable[[str], None] = print) -> None:
        self.ask = ask
        self.say = say

    def request(self, action: str, text: str) -> None:
        self.say(f"  → {text}")

    def confirm(self, what: str, question: str) -> bool | None:
        try:
            answer = self.ask(f"  ? {question} [y/n] ")
        except EOFError:
            return None
        return answer.strip().lower().startswith("y")


class NobodyHelper:
    """``--auto`` on real pins: nobody pushes, blocks or looks."""

    present = False

    def request(self, action: str, text: str) -> None:
        pass

    def confirm(self, what: str, question: str) -> bool | None:
        return None


class EmulatedHelper:
    """An emulated person: acts on the emulated world, answers from what it shows."""

    present = True

    def __init__(self, hardware: EmulatedHardware) -> None:
        self.hardware = hardware
        self._roller_mark = 0.0

    def request(self, action: str, text: str) -> None:
        world = self.hardware.world
        if action == "push":
            world.push_button()
        elif action == "block":
            world.block_beam(True)
        elif action == "unblock":
            world.block_beam(False)
        elif action == "watch-roller":
            world.now_ms()
            self._roller_mark = world.model.roller_ms

    def confirm(self, what: str, question: str) -> bool | None:
        """What the person sees and hears of the world's parts, not what a pin was set to:
        a dead LED stays dark and a broken buzzer silent, however their pins are driven."""
        world = self.hardware.world
        world.now_ms()  # the world has caught up with whatever the check just did
        if what == "roller":
            return world.model.roller_ms > self._roller_mark
        part = {"led": world.led, "buzzer": world.buzzer}.get(what)
        if part is None or what not in self.hardware.pins:
            return None
        return part.on


class WiringCheck:
    """Runs the parts in order; ``time_scale`` shortens every wait for emulated hardware."""

    def __init__(self, devices: DispenserDevices, ejector: GpioEjector, helper: Helper, *,
                 timeout_s: float = 15.0, say: Callable[[str], None] = print) -> None:
        self.devices = devices
        self.ejector = ejector
        self.helper = helper
        self.timeout = timeout_s / ejector.time_scale
        self.say = say
        self.pins = devices.pin_map.pins
        self.results: dict[str, PartResult] = {}

    def _pin(self, role: str) -> str:
        return gpio_name(self.pins[role])

    def run(self) -> list[PartResult]:
        parts: list[tuple[str, Callable[[], PartResult]]] = [
            ("button", self.check_button), ("beam", self.check_beam),
            ("motor", self.check_motor), ("feed", self.check_feed)]
        if self.devices.led is not None:
            parts.append(("led", self.check_led))
        if self.devices.buzzer is not None:
            parts.append(("buzzer", self.check_buzzer))
        for name, check in parts:
            self.say(f"checking {name} …")
            try:
                result = check()
            finally:
                if self.devices.motor is not None:
                    self.devices.motor.stop()
            self.results[name] = result
        return list(self.results.values())

    # -- the parts ----------------------------------------------------------------------
    def check_button(self) -> PartResult:
        button = self.devices.button
        assert button is not None
        edges = 0
        pushes = 0
        pushed = threading.Event()
        debouncer = Debouncer(self.ejector.settings.debounce_ms)

        def edge(down: bool) -> None:
            nonlocal edges, pushes
            edges += 1
            if debouncer.edge(down, self.devices.ticks_ms()):
                pushes += 1
                pushed.set()

        if not self.helper.present:
            return PartResult("button", SKIP, "needs a person to push it (run without --auto)")
        button.when_pressed = lambda: edge(True)
        button.when_released = lambda: edge(False)
        try:
            self.helper.request("push", f"push the button once (within {self.timeout:.0f} s)")
            if not pushed.wait(self.timeout):
                return PartResult("button", FAIL, f"no push seen on {self._pin('button')}: "
                                  "check the switch goes from that pin to ground")
            button.wait_for_release(self.timeout)
            threading.Event().wait(self.ejector.seconds(100))  # let any chatter settle
        finally:
            button.when_pressed = None
            button.when_released = None
        if edges > 2:
            return PartResult("button", FAIL, f"bouncy: {edges} edges for one push (the "
                              "driver debounces it, but the switch is worn; replace it)")
        return PartResult("button", PASS, f"one clean push on {self._pin('button')}")

    def check_beam(self) -> PartResult:
        beam = self.devices.beam
        assert beam is not None
        where = self._pin("beam")
        if beam.is_active:
            return PartResult("beam", FAIL, f"{where} reads blocked with nothing in it: "
                              "align emitter and receiver, clean them, check the pull-up")
        if not self.helper.present:
            return PartResult("beam", SKIP, f"{where} reads clear; blocking it needs a person")
        saved, beam.when_deactivated = beam.when_deactivated, None  # a finger is no card
        try:
            self.helper.request("block", "put a finger in the beam across the slot")
            if not beam.wait_for_active(self.timeout):
                self.helper.request("unblock", "take your finger out")
                return PartResult("beam", FAIL, f"{where} never read blocked: check the "
                                  "receiver's wiring and power, and the emitter")
            self.helper.request("unblock", "take your finger out of the beam")
            if not beam.wait_for_inactive(self.timeout):
                return PartResult("beam", FAIL, f"{where} stays blocked: align and clean it")
        finally:
            beam.when_deactivated = saved
        return PartResult("beam", PASS, f"blocked and cleared on {where}")

    def check_motor(self) -> PartResult:
        motor, beam = self.devices.motor, self.devices.beam
        assert motor is not None
        assert beam is not None
        cards = 0

        def card() -> None:
            nonlocal cards
            cards += 1

        saved = beam.when_deactivated
        beam.when_deactivated = card
        duty = max(self.devices.pin_map.motor.duty * 0.5, 0.3)
        self.helper.request("watch-roller", "watch the roller: it turns in short pulses")
        try:
            for _ in range(3):
                motor.forward(duty)
                threading.Event().wait(self.ejector.seconds(300))
                motor.stop()
                threading.Event().wait(self.ejector.seconds(100))
        finally:
            motor.stop()
            beam.when_deactivated = saved
        if cards:
            return PartResult("motor", PASS, f"a card passed the beam at duty {duty:.2f}")
        turned = self.helper.confirm("roller", "did the roller turn?")
        pins = "/".join(self._pin(r) for r in ("motor_in1", "motor_in2", "motor_pwm"))
        if turned is None:
            return PartResult("motor", SKIP, "no card reached the beam and nobody to ask")
        if not turned:
            return PartResult("motor", FAIL, f"the roller did not turn: check the H-bridge "
                              f"supply, its standby pin and the wires to {pins}")
        return PartResult("motor", PASS, "the roller turns (no card reached the beam)")

    def check_feed(self) -> PartResult:
        needs = [p for p in ("beam", "motor") if self.results.get(p, PartResult(p, PASS))
                 .failed]
        if needs:
            return PartResult("feed", SKIP, f"needs a working {' and '.join(needs)}")
        settings = self.ejector.settings
        for attempt in range(FEED_TRIES):
            result = self.ejector.eject(FEED_CARDS)
            if result.status is not EjectStatus.OK or result.count != FEED_CARDS:
                hints = {
                    EjectStatus.JAM: f"jam: no card through the beam in {settings.jam_ms:.0f}"
                                     " ms, even after a reverse pulse: load cards, clear the "
                                     "slot, clean the roller or raise [motor] duty",
                    EjectStatus.EMPTY: "the hopper is empty (its sensor says so): load cards",
                    EjectStatus.TIMEOUT: f"max_ms ({settings.max_ms:g}) ran out: raise duty",
                }
                return PartResult("feed", FAIL, hints.get(result.status, f"{result.status}: "
                                                          f"{result.detail}"))
            if not self.ejector.reverses:
                return self._judge_speed(freed=attempt)
        return PartResult("feed", FAIL, f"jams: a card jammed in each of {FEED_TRIES} tries "
                          "(a reverse pulse freed it each time): clean the roller and the "
                          "slot, check the cards lie flat")

    def _judge_speed(self, *, freed: int) -> PartResult:
        """The time between the last two cards out of a run with no jam in it."""
        settings = self.ejector.settings
        clears = [t for t, blocked in self.ejector.trace if not blocked]
        took = clears[-1] - clears[-2]
        expected = settings.card_ms(settings.duty)
        figures = ("the calibration" if self.devices.pin_map.calibration.measured else
                   "LAUNCHER.md's figures (not calibrated: uno-attack wiring calibrate)")
        if took > SLOW * expected:
            return PartResult("feed", FAIL, f"slow: a card every {took:.0f} ms, not "
                              f"{expected:.0f} ms as by {figures}: the roller slips (clean "
                              "it, check it presses on the cards) or the motor is weak; "
                              "calibrate again once it is mended")
        jams = "; a jam on the way was freed by a reverse pulse" if freed else ""
        return PartResult("feed", PASS, f"{FEED_CARDS} cards out, one every {took:.0f} ms "
                          f"({expected:.0f} ms by {figures.split(' (')[0]}){jams}")

    def _check_output(self, part: str, device: object, question: str, hint: str
                      ) -> PartResult:
        device.on()  # type: ignore[attr-defined]
        try:
            seen = self.helper.confirm(part, question)
        finally:
            device.off()  # type: ignore[attr-defined]
        if seen is None:
            return PartResult(part, SKIP, "nobody to look")
        if not seen:
            return PartResult(part, FAIL, f"{hint} on {self._pin(part)}")
        return PartResult(part, PASS, f"works on {self._pin(part)}")

    def check_led(self) -> PartResult:
        return self._check_output("led", self.devices.led, "is the LED lit?",
                                  "check the LED's polarity and its resistor")

    def check_buzzer(self) -> PartResult:
        return self._check_output("buzzer", self.devices.buzzer, "does the buzzer sound?",
                                  "check the buzzer's polarity (an active buzzer)")


def format_table(results: list[PartResult]) -> str:
    width = max(len(r.part) for r in results)
    lines = [f"{'part':<{width}}  {'result':<7}  what to look at",
             f"{'-' * width}  {'-' * 7}  {'-' * 15}"]
    lines += [f"{r.part:<{width}}  {r.verdict:<7}  {r.note}" for r in results]
    return "\n".join(lines)
