"""``uno-attack firmware``: run the emulated dispenser board behind a pty, or flash a Pico.

``uno-attack firmware emulate [--link PATH]`` prints the port (or makes PATH a symlink to
it) and runs until Ctrl-C or SIGTERM, so ``uno-attack play --launcher serial:PATH``,
``uno-attack launcher run --launcher serial:PATH``, ``python -m serial.tools.miniterm
PATH`` or any serial program can talk to it. Fault options make its wire and its
hardware misbehave on purpose; ``--press-every`` has an emulated finger push its button;
``--micropython`` makes it an emulated Pico. ``uno-attack firmware flash [--port PORT]``
puts the firmware on a Pico (``firmware_bridge.flash``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import FrameType

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.faults import LinkFaults
from firmware_bridge.pico_emulator import PICO_HEAP_KB, PicoBoard
from sim_launcher.dispenser import CARDS
from sim_launcher.numbers import arg, parse_float, parse_int
from sim_launcher.physical import DispenserParams
from sim_launcher.world import FAULTS
from uno_attack.errors import UnoAttackError

MAX_SCALE = 1000.0
MAX_SECONDS = 86400.0


class EmulatorOptionError(UnoAttackError):
    """An emulator option that cannot be used."""


def _rate(text: str) -> float:
    """A chance: ``0.01`` or ``1%``."""
    percent = text.endswith("%")
    try:
        value = parse_float(text.removesuffix("%"), low=0, high=100 if percent else 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a rate in 0…1 (or 0%…100%)") \
            from None
    return value / 100.0 if percent else value


_seconds = arg(parse_float, low=0, low_open=True, high=MAX_SECONDS)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="uno-attack firmware",
                                     description="The serial dispenser board (ULP/1).")
    sub = parser.add_subparsers(dest="command", required=True)
    emu = sub.add_parser("emulate", help="run the firmware on the physical model behind a pty",
                         description="Run the firmware logic on the physical dispenser model "
                                     "behind a pty; prints the port and runs until Ctrl-C.")
    pico = emu.add_argument_group("the emulated Pico (the firmware's own files on MicroPython)")
    pico.add_argument("--micropython", action="store_true",
                      help="boot main.py from the board's flash on MicroPython, as a Pico "
                           "does, instead of running the firmware logic in this process")
    pico.add_argument("--flash", type=Path, metavar="DIR",
                      help="the Pico's filesystem (an empty folder: a blank board; default: "
                           "a temporary flash holding the project's firmware)")
    pico.add_argument("--heap", type=arg(parse_int, low=16, high=8192), metavar="KB",
                      default=PICO_HEAP_KB, help=f"MicroPython's heap (default {PICO_HEAP_KB}, "
                      "a Pico's)")
    emu.add_argument("--link", type=Path, help="make PATH a symlink to the pty (survives "
                     "--disconnect-every, whose new pty has a new name)")
    emu.add_argument("--seed", type=arg(parse_int),
                     help="seed of the model, the faults and the boot ids")
    emu.add_argument("--time-scale", type=arg(parse_float, low=0, low_open=True,
                                               high=MAX_SCALE), default=1.0,
                     help="run the dispenser this many times faster than real time")
    emu.add_argument("--log", action="store_true", help="print every line on the wire")
    emu.add_argument("--press-every", type=_seconds, metavar="SECONDS",
                     help="an emulated finger pushes the button this often")
    wire = emu.add_argument_group("faults on the wire (both directions)")
    wire.add_argument("--noise", type=_rate, default=0.0,
                      help="chance that a byte gets a bit flipped (0.01 or 1%%)")
    wire.add_argument("--drop", type=_rate, default=0.0, help="chance that a byte is lost")
    wire.add_argument("--repeat", type=_rate, default=0.0,
                      help="chance that a line arrives twice")
    wire.add_argument("--lose", type=_rate, default=0.0, help="chance that a line is lost")
    wire.add_argument("--disconnect-every", type=_seconds, metavar="SECONDS",
                      help="unplug the port for --disconnect-for seconds this often")
    wire.add_argument("--disconnect-for", type=_seconds, default=0.3, metavar="SECONDS")
    hard = emu.add_argument_group("faults of the board and the dispenser")
    hard.add_argument("--fault", action="append", default=[], choices=FAULTS,
                      help="a fault of the dispenser (repeatable): " + ", ".join(FAULTS))
    hard.add_argument("--reboot-every", type=_seconds, metavar="SECONDS",
                      help="power-cycle the board this often")
    hard.add_argument("--reboot-mid-eject", type=arg(parse_int, low=0, high=CARDS),
                      metavar="CARDS",
                      help="power-cycle the board once, when the next eject has counted "
                           "CARDS cards")
    hard.add_argument("--jam-rate", type=_rate, help="chance that a card jams (default 0.5%%)")
    hard.add_argument("--hopper", type=arg(parse_int, low=0, high=100_000),
                      help="cards in the hopper (default 112)")
    hard.add_argument("--hopper-sensor", action="store_true",
                      help="fit a hopper-empty switch (an empty hopper ends 'empty', not 'jam')")
    hard.add_argument("--no-refill", action="store_true",
                      help="let the hopper run dry (by default it is topped up below "
                           f"{CARDS} cards)")
    flash = sub.add_parser("flash", help="copy the firmware to a Pico with mpremote",
                           description="Copy the firmware package and main.py to a Pico "
                                       "running MicroPython (mpremote), read every file back, "
                                       "reset the board and wait for its answer to PING.")
    flash.add_argument("--port", help="the board's serial port (default: the one Pico "
                       "plugged in)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "flash":
        from firmware_bridge.flash import find_port, flash

        flash(args.port or find_port())
        return 0
    return emulate(args)


def check_link(link: Path) -> None:
    """A link is made where a symlink (or nothing) is, in a folder that exists."""
    if link.is_symlink():
        return
    if link.exists():
        kind = "a folder" if link.is_dir() else "a file that is not a symlink"
        raise EmulatorOptionError(f"--link {link}: {kind} is there")
    parent = link.parent
    if not parent.is_dir():
        raise EmulatorOptionError(f"--link {link}: no folder {parent} to make it in")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise EmulatorOptionError(f"--link {link}: cannot make a link in {parent} "
                                  "(no permission)")


def emulate(args: argparse.Namespace) -> int:
    params = DispenserParams()
    if args.jam_rate is not None:
        params = replace(params, jam_probability=args.jam_rate)
    if args.hopper is not None:
        params = replace(params, hopper=args.hopper)
    if args.hopper_sensor:
        params = replace(params, hopper_sensor=True)
    if args.link is not None:
        check_link(args.link)
    if args.disconnect_every and args.link is None:
        raise EmulatorOptionError("--disconnect-every needs --link: a new pty has a new name")
    pico: dict[str, object] = {}
    if args.micropython:
        if args.flash is not None and not args.flash.is_dir():
            raise EmulatorOptionError(f"--flash {args.flash}: no such folder")
        pico = {"flash": args.flash, "heap_kb": args.heap}
    elif args.flash is not None:
        raise EmulatorOptionError("--flash needs --micropython: only the Pico has a flash")
    kind = PicoBoard if args.micropython else EmulatedBoard
    try:
        board = kind(
            **pico,  # type: ignore[arg-type]
            link=args.link, params=params, seed=args.seed, time_scale=args.time_scale,
            wire=LinkFaults(noise=args.noise, drop=args.drop, repeat=args.repeat,
                            lose=args.lose),
            faults=args.fault, refill=not args.no_refill, log=args.log,
        )
    except OSError as exc:
        raise EmulatorOptionError(f"--link {args.link}: cannot make the link: "
                                  f"{exc.strerror}") from None
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = signal.signal(signal.SIGTERM, on_signal)
    try:
        board.start()
        if args.reboot_mid_eject is not None:
            board.reboot_during_next_eject(args.reboot_mid_eject)
        if isinstance(board, PicoBoard):
            print(board.banner, flush=True)
        print(f"emulated board on {board.port}  (Ctrl-C to stop)", flush=True)
        _serve(board, args, stop)
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
        signal.signal(signal.SIGTERM, previous)
    print(f"board stopped: {board.stats.lines_in} lines in, {board.stats.lines_out} out, "
          f"{len(board.records)} ejects, {board.world.model.cards_out} cards out", flush=True)
    return 0


def _serve(board: EmulatedBoard, args: argparse.Namespace, stop: threading.Event) -> None:
    """Wait for the end, injecting the periodic faults and presses and printing the log."""
    never = float("inf")
    now = time.monotonic()
    next_disconnect = now + (args.disconnect_every or never)
    next_reboot = now + (args.reboot_every or never)
    next_press = now + (args.press_every or never)
    printed = 0
    while not stop.wait(0.02):
        now = time.monotonic()
        if now >= next_disconnect:
            board.disconnect(args.disconnect_for)
            next_disconnect = now + args.disconnect_every
        if now >= next_reboot:
            board.reboot()
            next_reboot = now + args.reboot_every
        if now >= next_press:
            board.press_button()
            next_press = now + args.press_every
        if board.log is not None:
            lines = board.log[printed:]
            printed += len(lines)
            for who, line in lines:
                print(f"{who:<6} {line}", flush=True)
    sys.stdout.flush()
