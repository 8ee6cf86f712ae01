"""The launcher's whole circuit as a schematic, drawn from a pin map with schemdraw.

What is drawn follows the pin map: a part left out of it (an optional LED, buzzer or
hopper switch) is left out of the picture. The board is a Raspberry Pi (the map's BCM
numbers, on the 40-pin header) or a Raspberry Pi Pico (the firmware's own pin numbers,
``PINS`` in ``firmware_bridge/firmware/pico.py``, read rather than imported: it is
MicroPython). Around the board: the H-bridge (TB6612FNG) with its logic and motor
supplies, STBY tied high and a pull-down on PWM, the motor, the break-beam pair with the
emitter's resistor, the button, LED, buzzer and hopper switch, and one common ground.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

from uno_attack.errors import UnoAttackError
from wiring.header import PHYSICAL
from wiring.pinmap import PinMap

BOARDS = ("pi", "pico")
PICO_FIRMWARE = Path(__file__).parents[1] / "firmware_bridge" / "firmware" / "pico.py"

#: The Pico's GP numbers -> the pin of its 40-pin edge (GP25 is its own LED, on the board).
PICO_EDGE: dict[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
    12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
    22: 29, 26: 31, 27: 32, 28: 34,
}
PICO_ON_BOARD_LED = 25

#: Top to bottom on the board's right side: the signals first, the motor's three last,
#: so the H-bridge and its supply sit below every other part's wire.
ORDER = ("beam", "button", "hopper_empty", "led", "buzzer", "motor_in1", "motor_in2",
         "motor_pwm")
BRIDGE_INPUTS = {"motor_in1": "AIN1", "motor_in2": "AIN2", "motor_pwm": "PWMA"}

ROW = 2.5        # drawing units between two signal rows
REACH = 3.0      # from the board's pin to the first part
BRIDGE_AT = 11.0  # from the board's pins to the H-bridge's, right of every other part


@dataclass(frozen=True)
class BoardPin:
    """One role's pin on a board: its GPIO name and where it is on the board's edge."""

    role: str
    name: str            # GPIO17 (a Pi's BCM number), GP14 (a Pico's)
    edge: str            # "pin 11", or "on the board" for the Pico's own LED


@dataclass(frozen=True)
class Board:
    """A board as the picture draws it: its title, its power and ground pins, its pins."""

    title: str
    supply: str          # the 3.3 V pin the logic, STBY and the beam are fed from
    ground: str
    pins: tuple[BoardPin, ...]
    left_out: tuple[str, ...] = ()  # roles of the map this board's pin map does not wire


def pi_board(pin_map: PinMap) -> Board:
    pins = tuple(BoardPin(role, f"GPIO{pin_map.pins[role]}",
                          f"pin {PHYSICAL[pin_map.pins[role]]}")
                 for role in ORDER if role in pin_map.pins)
    return Board("Raspberry Pi (40-pin header, BCM numbers)", "3V3 (pin 1)", "GND (pin 6)",
                 pins)


def pico_pins(source: Path = PICO_FIRMWARE) -> dict[str, int | None]:
    """The firmware's ``PINS`` (role -> GP number, or None for a part it does not drive)."""
    tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "PINS"
                                                for t in node.targets):
            try:
                pins = ast.literal_eval(node.value)
            except ValueError:
                break
            if isinstance(pins, dict):
                return pins
    raise UnoAttackError(f"{source}: no PINS = {{...}} table of the Pico's pins")


def pico_board(pin_map: PinMap, firmware: dict[str, int | None]) -> Board:
    """The Pico with the parts of ``pin_map`` that its firmware wires (its GP numbers)."""
    pins, left_out = [], []
    for role in ORDER:
        if role not in pin_map.pins:
            continue
        gp = firmware.get(role)
        if gp is None:
            left_out.append(role)
            continue
        edge = "on the board" if gp == PICO_ON_BOARD_LED else f"pin {PICO_EDGE[gp]}"
        pins.append(BoardPin(role, f"GP{gp}", edge))
    return Board("Raspberry Pi Pico (GP numbers, pico.py PINS)", "3V3(OUT) (pin 36)",
                 "GND (pin 38)", tuple(pins), tuple(left_out))


def board_for(pin_map: PinMap, board: str) -> Board:
    if board == "pico":
        return pico_board(pin_map, pico_pins())
    return pi_board(pin_map)


def render_schematic(pin_map: PinMap, board: Board) -> str:
    """The circuit as SVG text (labels as ``<text>``, so names can be searched)."""
    schemdraw.svgconfig.text = "text"
    drawing = schemdraw.Drawing(show=False, canvas="svg")
    drawing.config(fontsize=11, unit=2.0, margin=1.5, bgcolor="white")
    _draw(drawing, pin_map, board)
    return drawing.get_imagedata("svg").decode()


def _draw(d: schemdraw.Drawing, pin_map: PinMap, board: Board) -> None:
    # schemdraw lays a side's pins out from the bottom up: the list is reversed.
    chip_pins = [elm.IcPin(name=p.name, pin=p.edge, side="right", anchorname=p.role)
                 for p in reversed(board.pins)]
    chip_pins += [elm.IcPin(name="GND", pin=board.ground, side="left", anchorname="gnd"),
                  elm.IcPin(name="3V3", pin=board.supply, side="left", anchorname="vcc")]
    height = ROW * (len(board.pins) + 1)
    chip = elm.Ic(pins=chip_pins, size=(4.5, height), pinspacing=ROW, edgepadH=ROW / 2,
                  leadlen=1.5, plblsize=10).theta(0).label(board.title, "top", fontsize=12)
    d += chip
    d += elm.Line().left(1.0).at(chip.vcc)
    d += elm.Vdd().label("3V3")
    d += elm.Line().left(1.0).at(chip.gnd)
    d += elm.Ground()
    d += elm.Label().at((chip.gnd[0], chip.gnd[1] - 1.6)).label(
        "one common ground:\nboard, H-bridge,\nmotor supply, parts", fontsize=9)
    for pin in board.pins:
        if pin.role not in BRIDGE_INPUTS:
            where = f"{pin.role} ({pin.edge})" if pin.edge == "on the board" else pin.role
            d += elm.Line().right(REACH).at(getattr(chip, pin.role)).label(where, "top")
            _PARTS[pin.role](d, pin)
    if any(p.role in BRIDGE_INPUTS for p in board.pins):
        _bridge(d, chip, [p.role for p in board.pins if p.role in BRIDGE_INPUTS])


def _beam(d: schemdraw.Drawing, pin: BoardPin) -> None:
    d += (rx := elm.Ic(pins=[elm.IcPin(name="OUT", side="left", anchorname="out"),
                             elm.IcPin(name="VCC", side="top", anchorname="vcc"),
                             elm.IcPin(name="GND", side="bottom", anchorname="gnd")],
                       size=(2.2, 1.2), leadlen=0.4).theta(0).anchor("out").label(
        "break-beam receiver\n(open collector: the pin's\npull-up; low = a card in the beam)",
        "right", fontsize=9))
    d += elm.Vdd().at(rx.vcc).label("3V3")
    d += elm.Ground().at(rx.gnd)
    # The emitter faces the receiver across the slot, fed from 3V3 through its resistor.
    top = (rx.vcc[0] - 1.0, rx.vcc[1] + 1.4)
    d += elm.Vdd().at(top).label("3V3")
    d += elm.Line().right(0.75).at(top)
    d += elm.Resistor().right().label("100 Ω (a bare IR LED;\nnone if built in)",
                                              "top", fontsize=9)
    d += elm.LED().right().label("IR emitter, across the slot", "bottom", fontsize=9)
    d += elm.Ground()


def _button(d: schemdraw.Drawing, pin: BoardPin) -> None:
    d += elm.Button().right().label("button (normally open;\nthe pin's pull-up)", "bottom",
                                    fontsize=9)
    d += elm.Line().right(0.75)
    d += elm.Ground()


def _hopper(d: schemdraw.Drawing, pin: BoardPin) -> None:
    d += elm.Switch().right().label("hopper-empty switch\n(closed = empty)", "bottom",
                                    fontsize=9)
    d += elm.Line().right(0.75)
    d += elm.Ground()


def _led(d: schemdraw.Drawing, pin: BoardPin) -> None:
    if pin.edge == "on the board":
        d += elm.LED().right().label("status LED: the Pico's own", "bottom", fontsize=9)
    else:
        d += elm.Resistor().right().label("330 Ω", "top", fontsize=9)
        d += elm.LED().right().label("status LED", "bottom", fontsize=9)
    d += elm.Ground()


def _buzzer(d: schemdraw.Drawing, pin: BoardPin) -> None:
    d += (buzzer := elm.Speaker().anchor("in1").label("active buzzer", "right", fontsize=9))
    d += elm.Line().left(0.5).at(buzzer.in2)
    d += elm.Ground()


_PARTS = {"beam": _beam, "button": _button, "hopper_empty": _hopper, "led": _led,
          "buzzer": _buzzer}


def _bridge(d: schemdraw.Drawing, chip: elm.Ic, used: list[str]) -> None:
    """The TB6612FNG, its supplies, the motor and the pull-down that keeps PWM low."""
    first = getattr(chip, used[0])
    bridge = elm.Ic(pins=[elm.IcPin(name=BRIDGE_INPUTS[r], side="left", anchorname=r)
                          for r in reversed(used)]
                    + [elm.IcPin(name="STBY", side="top", anchorname="stby"),
                       elm.IcPin(name="VCC", side="top", anchorname="vcc"),
                       elm.IcPin(name="VM", side="top", anchorname="vm"),
                       elm.IcPin(name="AO2", side="right", anchorname="ao2"),
                       elm.IcPin(name="AO1", side="right", anchorname="ao1"),
                       elm.IcPin(name="GND", side="bottom", anchorname="gnd")],
                    size=(3.5, ROW * (len(used) + 1)), pinspacing=ROW, edgepadH=ROW / 2,
                    leadlen=0.6).theta(0).anchor(used[0]).at((first[0] + BRIDGE_AT, first[1]))
    d += bridge.label("H-bridge TB6612FNG\n(or L298N)", "bottom", fontsize=10, ofst=0.9)
    for role in used:
        d += elm.Line().at(getattr(chip, role)).to(getattr(bridge, role)).label(
            role, "top")
    if "motor_pwm" in used:  # a pin let go floats: the pull-down keeps the motor off
        pwm = chip.motor_pwm
        d += elm.Dot().at((pwm[0] + REACH, pwm[1]))
        d += elm.Resistor().down().label("10 kΩ\npull-down", "bottom", fontsize=9)
        d += elm.Ground()
    for pin in (bridge.stby, bridge.vcc):
        d += elm.Line().up(0.4).at(pin)
        d += elm.Vdd().label("3V3")
    d += elm.Ground().at(bridge.gnd)
    d += elm.Line().up(1.2).at(bridge.vm)
    d += elm.Line().right(5.5)
    d += (supply := elm.BatteryCell().down().reverse().label(
        "motor supply 5–6 V, 1 A\n(never the board's 5 V pin)", "bottom", fontsize=9)
                .label("+", "top", fontsize=11))
    d += elm.Ground().at(supply.end)
    d += elm.Line().right(1.2).at(bridge.ao1)
    d += (motor := elm.Motor().down().label("DC gear motor\nand feed roller", "right",
                                          fontsize=9))
    d += elm.Wire("-|").at(bridge.ao2).to(motor.end)
