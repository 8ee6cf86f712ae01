"""``uno-attack wiring show|schematic|check|calibrate|safe|install-service``: see the wiring
and the whole circuit, test every part of it, measure the machine, put the motor in a safe
state, and run it all as a service."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim_launcher.dispenser import CARDS, JAM_CARDS
from sim_launcher.numbers import arg, parse_int
from sim_launcher.world import FAULTS
from uno_attack.errors import UnoAttackError
from wiring.check import Helper
from wiring.devices import DispenserDevices
from wiring.driver import GpioEjector
from wiring.emulated import EmulatedHardware
from wiring.pinmap import (
    PinMap,
    default_pin_map_path,
    find_pin_map,
    load_pin_map,
    user_pin_map_path,
    write_calibration,
)
from wiring.schematic import BOARDS
from wiring.show import render_svg, render_text

CHECK_TIME_SCALE = 20.0  # the emulated world of `wiring check --emulated`


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uno-attack wiring",
        description="Raspberry Pi pin maps: show the wiring, check every part.")
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="draw the 40-pin header with each used pin's role")
    show.add_argument("--pins", metavar="FILE", help="pin map (default: see docs)")
    show.add_argument("--svg", metavar="OUT", help="also write the picture as SVG to OUT")
    schematic = sub.add_parser("schematic", help="draw the whole circuit (board, H-bridge, "
                               "motor, beam, button, LED, buzzer, hopper switch) as SVG")
    schematic.add_argument("--pins", metavar="FILE", help="pin map (default: see docs)")
    schematic.add_argument("--board", choices=BOARDS, default="pi",
                           help="pi: the map's BCM pins; pico: the Pico firmware's pins for "
                                "the map's parts (default: pi)")
    schematic.add_argument("--svg", metavar="OUT", required=True, help="write the SVG here")
    service = sub.add_parser("install-service", help="write the systemd unit for your user: "
                             "the hosted table (--host, default) or the standalone launcher")
    kind = service.add_mutually_exclusive_group()
    kind.add_argument("--host", dest="kind", action="store_const", const="host",
                      help="uno-attack host --lan --launcher gpio, at boot (default)")
    kind.add_argument("--standalone", dest="kind", action="store_const", const="standalone",
                      help="uno-attack launcher run --launcher gpio, at boot")
    service.add_argument("--user", metavar="NAME",
                         help="who runs it (default: the user who ran sudo); never root")
    service.add_argument("--output", metavar="FILE",
                         help="write here instead of /etc/systemd/system ('-': print it)")
    service.add_argument("args", nargs="*", metavar="-- OPTION",
                         help="after '--': more options for the command the unit runs "
                              "(e.g. -- --humans Ann,Bob --players 4)")
    check = sub.add_parser("check", help="test each part in turn and print a table")
    check.add_argument("--pins", metavar="FILE", help="pin map (default: see docs)")
    check.add_argument("--emulated", action="store_true",
                       help="check emulated hardware instead of the Pi's pins")
    check.add_argument("--fault", action="append", default=[], choices=FAULTS,
                       help="with --emulated: inject a fault (repeatable)")
    check.add_argument("--auto", action="store_true",
                       help="ask no questions (emulated: an emulated person answers)")
    check.add_argument("--seed", type=arg(parse_int), default=None,
                       help="emulated dispenser seed")
    calib = sub.add_parser("calibrate", help="measure cards/s, beam time and spin-up; write "
                           "them to the pin map")
    calib.add_argument("--pins", metavar="FILE", help="the pin map to read and write (default:"
                       " $UNO_ATTACK_PINS, else ~/.config/uno-attack/pins.toml)")
    calib.add_argument("--emulated", action="store_true",
                       help="measure emulated hardware (written only with --pins)")
    calib.add_argument("--fault", action="append", default=[], choices=FAULTS,
                       help="with --emulated: inject a fault (repeatable)")
    calib.add_argument("--seed", type=arg(parse_int), default=None,
                       help="emulated dispenser seed")
    safe_ = sub.add_parser("safe", help="drive the motor pins low and let them go (the "
                           "service's ExecStopPost: the motor is off even after a kill)")
    safe_.add_argument("--pins", metavar="FILE", help="pin map (default: see docs)")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.command == "show":
        return show(args.pins, args.svg)
    if args.command == "safe":
        return safe(args.pins)
    if args.command == "install-service":
        from wiring.service import install

        return install(args.kind or "host", args.user, args.output, args.args)
    if args.command == "schematic":
        return schematic(args.pins, args.board, args.svg)
    if args.fault and not args.emulated:
        raise UnoAttackError("--fault needs --emulated")
    if args.command == "calibrate":
        return calibrate(args.pins, emulated=args.emulated, faults=args.fault, seed=args.seed)
    return check(args.pins, emulated=args.emulated, faults=args.fault, auto=args.auto,
                 seed=args.seed)


def show(pins: str | None, svg: str | None) -> int:
    pin_map = load_pin_map(pins)
    print(render_text(pin_map))
    if svg:
        _write(svg, render_svg(pin_map))
        print(f"\nwrote {svg}")
    return 0


def schematic(pins: str | None, board_name: str, svg: str) -> int:
    from wiring.schematic import board_for, render_schematic

    pin_map = load_pin_map(pins)
    board = board_for(pin_map, board_name)
    _write(svg, render_schematic(pin_map, board))
    print(f"{board.title}, pin map {pin_map.source}:")
    for pin in board.pins:
        print(f"  {pin.role:<12}  {pin.name:<6}  {pin.edge}")
    if board.left_out:
        print(f"  not drawn: {', '.join(board.left_out)} (pico.py's PINS wires no pin "
              "for them)")
    print(f"wrote {svg}")
    return 0


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UnoAttackError(f"cannot write {path}: {exc.strerror}") from None


def _open(pin_map: PinMap, *, emulated: bool, faults: list[str], seed: int | None
          ) -> tuple[DispenserDevices, GpioEjector, EmulatedHardware | None]:
    """The dispenser's devices and closed loop: on the Pi's pins, or emulated."""
    if emulated:
        from wiring.emulated import open_emulated

        if faults:
            print(f"emulated hardware with fault: {', '.join(faults)}")
        return open_emulated(pin_map, faults=faults, seed=seed, time_scale=CHECK_TIME_SCALE)
    from wiring.backend import open_real_devices

    devices = open_real_devices(pin_map)
    return devices, GpioEjector(devices), None


def check(pins: str | None, *, emulated: bool, faults: list[str], auto: bool,
          seed: int | None) -> int:
    from wiring.check import EmulatedHelper, NobodyHelper, TerminalHelper, WiringCheck, format_table

    pin_map = load_pin_map(pins)  # every mistake is caught here, before any pin is touched
    print(f"pin map: {pin_map.source}")
    devices, ejector, hardware = _open(pin_map, emulated=emulated, faults=faults, seed=seed)
    if hardware is not None:
        helper: Helper = EmulatedHelper(hardware) if auto else TerminalHelper()
    else:
        helper = NobodyHelper() if auto else TerminalHelper()
    try:
        results = WiringCheck(devices, ejector, helper).run()
    finally:
        ejector.close()
    print()
    print(format_table(results))
    failed = [r.part for r in results if r.failed]
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print("\nevery part passed")
    return 0


def calibrate(pins: str | None, *, emulated: bool, faults: list[str], seed: int | None) -> int:
    from wiring.calibrate import calibrate as measure

    pin_map = load_pin_map(pins)
    target = _calibration_target(pins, emulated=emulated)
    print(f"pin map: {pin_map.source}")
    print("calibrating: load at least 20 cards; the roller feeds a few at each duty")
    _, ejector, _ = _open(pin_map, emulated=emulated, faults=faults, seed=seed)
    try:
        figures = measure(ejector)
    finally:
        ejector.close()
    print(f"  spin-up {figures.spin_up_ms:.1f} ms, a card blocks the beam "
          f"{figures.beam_ms:.1f} ms at full duty")
    if target is None:
        print("\nemulated figures are not written to your pin map; give --pins FILE to "
              "write them")
        return 0
    written = write_calibration(target, figures)
    settings = written.settings
    print(f"\nwrote [calibration] to {target}: jam_ms is now {settings.jam_ms:.0f} ms "
          f"(spin-up + {JAM_CARDS} cards at duty {settings.duty:g})")
    burst = settings.spin_up_ms + CARDS * settings.card_ms(settings.duty)
    if burst > settings.max_ms * 0.8:
        print(f"warning: a burst of {CARDS} takes about {burst:.0f} ms, close to [timing] "
              f"max_ms = {settings.max_ms:g}: raise max_ms or the duty", file=sys.stderr)
    return 0


def _calibration_target(pins: str | None, *, emulated: bool) -> Path | None:
    """Where calibrate writes: the map given, else the user's own (never the built-in)."""
    if pins is not None:
        target = Path(pins)
    elif emulated:
        return None
    else:
        target = find_pin_map(None)
        if target == default_pin_map_path():
            target = user_pin_map_path()
    if target.resolve() == default_pin_map_path().resolve():
        raise UnoAttackError(f"{target}: the built-in default map is not written; copy it "
                             f"and pass --pins")
    return target


def safe(pins: str | None, *, pin_factory: object = None) -> int:
    """Open only the motor's pins, drive them low (PWM first) and close them again."""
    from wiring.backend import open_real_motor

    pin_map = load_pin_map(pins)
    motor = open_real_motor(pin_map, pin_factory=pin_factory)
    try:
        motor.stop()
    finally:
        motor.close()
    names = ", ".join(f"GPIO{pin_map.pins[role]}" for role in ("motor_pwm", "motor_in1",
                                                               "motor_in2"))
    print(f"motor off: {names} driven low ({pin_map.source})")
    return 0
