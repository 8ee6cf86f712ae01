"""The emulated Pico: the firmware's own files on MicroPython, in the emulated dispenser world.

:class:`PicoBoard` is an :class:`~firmware_bridge.emulator.EmulatedBoard` whose firmware is
not imported into this process: MicroPython's WebAssembly port runs it under Node.js
(``micropython/pico.mjs``), booting ``main.py`` from the board's flash, a host folder, as a
Pico does at power-up. Everything else is the CPython board's: the pty, the world and its
faults, the wire's faults, the reboots and the books.

The two run in lockstep. Each poll of the CPython board is here one sync: the inputs of
that moment of model time (the clock, the input pins, the bytes received) go to the
Pico, which runs one pass of its main loop (up to ``WDT.feed()``) and answers with what
it did, in order: pins written, bytes sent. So the firmware's ``time.ticks_ms()`` is the
model's clock, and the tests run as fast as the CPython board's. A probe reads the
firmware's job and timers, as a debugger would, for the books and so that the model
steps exactly to the firmware's next timer; it changes nothing the firmware does.

When ``main.py`` ends (a blank board, a traceback, the ``REPL`` request), the Pico is at
its REPL, as a real one: the serial then carries MicroPython's REPL, which ``mpremote``
drives, and files it writes land in the flash folder.

The WebAssembly port grows its heap instead of collecting while Python code runs (it can
only collect when the code returns to JavaScript, which a firmware's main loop never
does), so the Pico halts its firmware between two passes to collect whenever half of
``heap_kb`` is taken (``micropython/rp2.py``): the heap stays ``heap_kb`` as long as no
pass takes more than the other half. :meth:`PicoBoard.heap_after_collect` halts the idle
firmware to collect and read it, as a debugger would.
"""

from __future__ import annotations

import ast
import contextlib
import json
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

from firmware_bridge import image
from firmware_bridge.emulator import EmulatedBoard
from uno_attack.errors import UnoAttackError

HERE = Path(__file__).parent / "micropython"
HARNESS = HERE / "pico.mjs"
PICO_HEAP_KB = 192     # the RP2040 port's heap, with nothing imported
DUTY_FULL = 65535


class PicoError(UnoAttackError):
    """The emulated Pico cannot run here (no Node.js, MicroPython not installed)."""


def pins() -> dict[str, int | None]:
    """The firmware's pin table (``PINS`` of ``pico.py``): the emulator wires the same."""
    tree = ast.parse((image.PACKAGE / "pico.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "PINS" for t in node.targets):
            table: dict[str, int | None] = ast.literal_eval(node.value)
            return table
    raise PicoError("firmware/pico.py has no PINS table")


def node() -> str:
    """The Node.js to run MicroPython with, and a check that MicroPython is installed."""
    found = shutil.which("node")
    if found is None:
        raise PicoError("the emulated Pico needs Node.js: install Debian's nodejs package")
    if not (HERE / "node_modules" / "@micropython").is_dir():
        raise PicoError(f"MicroPython is not installed: run 'npm ci' in {HERE} "
                        "(make test does it)")
    return found


class Job:
    """What the probe says of the firmware's running EJECT or MOTOR."""

    def __init__(self, verb: str, rid: int, want: int | None, count: int,
                 status: str | None) -> None:
        self.verb, self.rid, self.want, self.count, self.status = verb, rid, want, count, status


class Pico:
    """One power-up of the emulated Pico: a MicroPython process, synced poll by poll.

    It stands where the CPython board has its ``board.Firmware``: ``poll()``, ``job``,
    ``boot``, ``session``, ``busy`` and ``next_tick()`` mean the same.
    """

    def __init__(self, emulator: PicoBoard) -> None:
        self.emulator = emulator
        self.world = emulator.world
        self.job: Job | None = None
        self.boot = ""
        self.session: str | None = None
        self.busy = False
        self.mode = "boot"
        self.reset = False
        self.leaving = False   # its REPL runs here, in MicroPython (see poll)
        self._next_tick: int | None = None
        self._starts = -1
        self._levels = {"in1": 0, "in2": 0, "pwm": 0}
        self.proc = subprocess.Popen(
            [node(), str(HARNESS), "--flash", str(emulator.flash),
             "--heap", str(emulator.heap_kb * 1024)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        hello = self._receive()
        self.banner = str(hello["banner"])

    def close(self) -> None:
        proc = self.proc
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                assert proc.stdin is not None
                proc.stdin.close()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()

    # -- one sync -------------------------------------------------------------------------
    def poll(self) -> None:
        if self.reset:
            return
        board, world = self.emulator, self.world
        model = world.model
        table = board.pins
        levels: dict[int, int] = {}
        if table["beam"] is not None:
            levels[table["beam"]] = 0 if model.beam_blocked else 1
        if table["button"] is not None:
            levels[table["button"]] = 0 if world.button_down else 1
        hopper = table.get("hopper_empty")
        if hopper is not None:
            levels[hopper] = 0 if model.hopper_empty else 1
        rx, board.rx = bytes(board.rx), bytearray()
        tick: dict[str, Any] = {"t": int(model.now_ms), "pins": levels,
                                "rx": rx.decode("latin-1"), "limit_ms": board.limit_ms}
        if board.want_heap and self.mode == "run" and not self.busy and self.job is None:
            tick["halt"] = True
            board.want_heap = False
        self._send(tick)
        reply = self._receive()
        if "heap" in reply:
            board.heap = (int(reply["heap"][0]), int(reply["heap"][1]))
            board.heap_read.set()
        self.mode = str(reply["mode"])
        self._take_probe(reply.get("probe"))   # the books are right before a line leaves
        for entry in reply["out"]:
            if entry[0] == "s":
                board.transmit(entry[1].encode("latin-1"))
            else:
                self._pin(entry[0], int(entry[1]), int(entry[2]))
        if reply.get("reset"):
            self.reset = True

    def next_tick(self) -> int | None:
        return self._next_tick

    def _take_probe(self, probe: list[Any] | None) -> None:
        if probe is None:
            self.busy = False
            self._next_tick = None
            if self.mode != "run":
                self.job = None
            return
        starts, self.boot, self.session, self.busy, self._next_tick, job = probe
        if job is None:
            self.job = None
        else:
            if starts != self._starts or self.job is None:
                self.job = Job(*job)
            else:
                self.job.count, self.job.status = job[3], job[4]
        self._starts = starts

    def _pin(self, kind: str, gp: int, value: int) -> None:
        table = self.emulator.pins
        levels = self._levels
        if kind == "w" and gp == table["motor_pwm"]:
            levels["pwm"] = value
        elif kind == "p" and gp == table["motor_in1"]:
            levels["in1"] = value
        elif kind == "p" and gp == table["motor_in2"]:
            levels["in2"] = value
        elif kind == "p" and gp == table["led"]:
            self.world.drive_led(bool(value))
            return
        elif kind == "p" and gp == table.get("buzzer"):
            self.world.drive_buzzer(bool(value))
            return
        else:
            return
        sign = levels["in1"] - levels["in2"]
        duty = sign * round(levels["pwm"] * 100 / DUTY_FULL) / 100
        if duty != self.world.model.duty:
            self.world.set_motor(duty)

    # -- the pipe -------------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message).encode("latin-1") + b"\n")
            stdin.flush()
        except BrokenPipeError:
            raise PicoError(self._died()) from None

    def _receive(self) -> dict[str, Any]:
        stdout = self.proc.stdout
        assert stdout is not None
        line = stdout.readline()
        if not line:
            raise PicoError(self._died())
        reply: dict[str, Any] = json.loads(line)
        return reply

    def _died(self) -> str:
        self.proc.wait()
        err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
        last = err.strip().splitlines()[-1:] or [f"exit status {self.proc.returncode}"]
        return f"the emulated Pico stopped: {last[0]}"


class PicoBoard(EmulatedBoard):
    """An emulated Pico behind a pty (see the module docstring); a context manager.

    ``flash`` is the board's filesystem (a folder: an empty one is a blank board); without
    it, a temporary flash holding the project's firmware, removed on :meth:`close`.
    ``heap_kb`` is MicroPython's heap. The other options are the CPython board's.
    """

    def __init__(self, *, flash: str | Path | None = None, heap_kb: int = PICO_HEAP_KB,
                 **options: Any) -> None:
        node()
        self.pins = pins()
        self._own_flash: Path | None = None
        if flash is None:
            self._own_flash = Path(tempfile.mkdtemp(prefix="uno-attack-pico-"))
            image.write(self._own_flash)
            flash = self._own_flash
        self.flash = Path(flash)
        self.heap_kb = heap_kb
        self.banner = ""
        self.want_heap = False
        self.heap: tuple[int, int] | None = None
        self.heap_read = threading.Event()
        super().__init__(**options)

    def close(self) -> None:
        super().close()
        self.pico.close()
        if self._own_flash is not None:
            shutil.rmtree(self._own_flash, ignore_errors=True)

    def heap_after_collect(self, timeout: float = 10.0) -> tuple[int, int]:
        """``(gc.mem_alloc(), gc.mem_free())`` after a collection, as a debugger halting
        the core would read them: at the next pass of the firmware's main loop with no
        job running, it is halted, collected, read, and runs on (``micropython/rp2.py``)."""
        self.heap_read.clear()
        self.heap = None
        self.want_heap = True
        if not self.heap_read.wait(timeout) or self.heap is None:
            raise PicoError(f"the emulated Pico was not idle within {timeout:g} s "
                            "to read its heap")
        return self.heap

    @property
    def at_repl(self) -> bool:
        """True while MicroPython's REPL, not the firmware, has the serial."""
        return self.pico.mode == "repl"

    def _power_up(self) -> None:
        """Start MicroPython; model time stands still while Node.js loads it (a Pico's
        boot time is the CPython board's ``BOOT_MS``, however slow this machine is)."""
        clock, now = self.world.clock, self.world.model.now_ms
        running = self._thread is not None and not clock.held   # a test may hold it
        if running:
            clock.hold(now)
        try:
            pico = Pico(self)
        finally:
            if running:
                clock.start(now)
        self.banner = pico.banner
        self.pico = pico
        self.firmware = pico  # type: ignore[assignment]  # it stands where Firmware does

    def _power_off(self) -> None:
        self.pico.job = None
        self.pico.close()

    def _poll(self) -> None:
        super()._poll()
        if self._booting_until is None and self.pico.reset:  # machine.reset()
            self._reboot()


__all__ = ["PICO_HEAP_KB", "PicoBoard", "PicoError", "pins"]
