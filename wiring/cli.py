"""``uno-attack wiring show|check``: see the wiring, and test every part of it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from uno_attack.errors import UnoAttackError
from wiring.emulated import FAULTS
from wiring.pinmap import load_pin_map
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
    check = sub.add_parser("check", help="test each part in turn and print a table")
    check.add_argument("--pins", metavar="FILE", help="pin map (default: see docs)")
    check.add_argument("--emulated", action="store_true",
                       help="check emulated hardware instead of the Pi's pins")
    check.add_argument("--fault", action="append", default=[], choices=FAULTS,
                       help="with --emulated: inject a fault (repeatable)")
    check.add_argument("--auto", action="store_true",
                       help="ask no questions (emulated: an emulated person answers)")
    check.add_argument("--seed", type=int, default=None, help="emulated dispenser seed")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.command == "show":
        return show(args.pins, args.svg)
    if args.fault and not args.emulated:
        raise UnoAttackError("--fault needs --emulated")
    return check(args.pins, emulated=args.emulated, faults=args.fault, auto=args.auto,
                 seed=args.seed)


def show(pins: str | None, svg: str | None) -> int:
    pin_map = load_pin_map(pins)
    print(render_text(pin_map))
    if svg:
        try:
            Path(svg).write_text(render_svg(pin_map), encoding="utf-8")
        except OSError as exc:
            raise UnoAttackError(f"cannot write {svg}: {exc.strerror}") from None
        print(f"\nwrote {svg}")
    return 0


def check(pins: str | None, *, emulated: bool, faults: list[str], auto: bool,
          seed: int | None) -> int:
    from wiring.check import EmulatedHelper, NobodyHelper, TerminalHelper, WiringCheck, format_table

    pin_map = load_pin_map(pins)  # every mistake is caught here, before any pin is touched
    print(f"pin map: {pin_map.source}")
    if emulated:
        from wiring.emulated import open_emulated

        devices, ejector, hardware = open_emulated(pin_map, faults=faults, seed=seed,
                                                   time_scale=CHECK_TIME_SCALE)
        helper = EmulatedHelper(hardware) if auto else TerminalHelper()
        if faults:
            print(f"emulated hardware with fault: {', '.join(faults)}")
    else:
        from wiring.backend import _open_real_devices
        from wiring.driver import GpioEjector

        devices = _open_real_devices(pin_map)
        ejector = GpioEjector(devices)
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
