"""Draw the 40-pin header with each used pin labelled by its role: text and SVG."""

from __future__ import annotations

from xml.sax.saxutils import escape

from wiring.header import HARDWARE_PWM, HEADER
from wiring.pinmap import PinMap

ROLE_NOTES = {
    "button": "to GND, pull-up",
    "motor_in1": "H-bridge IN1",
    "motor_in2": "H-bridge IN2",
    "motor_pwm": "H-bridge PWM",
    "beam": "beam receiver",
    "led": "LED + resistor",
    "buzzer": "buzzer",
    "hopper_empty": "hopper switch",
}


def _label(pin: int, roles: dict[int, str]) -> tuple[str, str]:
    """(name, role) of a physical pin: ``GPIO17``/``button`` or ``GND``/``""``."""
    what = HEADER[pin]
    if isinstance(what, str):
        return what, ""
    return f"GPIO{what}", roles.get(what, "")


def render_text(pin_map: PinMap) -> str:
    """The header as two columns of pins, odd on the left, even on the right."""
    roles = {bcm: role for role, bcm in pin_map.pins.items()}
    lines = [f"Raspberry Pi 40-pin header — pin map {pin_map.source}", ""]
    for row in range(20):
        left, right = 2 * row + 1, 2 * row + 2
        lname, lrole = _label(left, roles)
        rname, rrole = _label(right, roles)
        lmark = "●" if lrole else "○"
        rmark = "●" if rrole else "○"
        lines.append(f"{lrole:>13} {lname:>6} {left:>2} {lmark} {rmark} {right:<2} "
                     f"{rname:<6} {rrole}".rstrip())
    lines += ["", "● used   ○ free   (numbers are physical pins; GPIO names are BCM)", ""]
    width = max(len(r) for r in pin_map.pins)
    for role, bcm in sorted(pin_map.pins.items(), key=lambda item: item[1]):
        physical = next(p for p, b in HEADER.items() if b == bcm)
        pwm = ", hardware PWM" if bcm in HARDWARE_PWM and role == "motor_pwm" else ""
        lines.append(f"  {role:<{width}}  GPIO{bcm:<2} pin {physical:<2}  "
                     f"{ROLE_NOTES.get(role, '')}{pwm}")
    return "\n".join(lines)


_COLOURS = {"3V3": "#e8a33d", "5V": "#d9534f", "GND": "#333333"}


def render_svg(pin_map: PinMap) -> str:
    """The header as an SVG picture: used pins filled and labelled by role."""
    roles = {bcm: role for role, bcm in pin_map.pins.items()}
    step, top, cx_left, cx_right = 24, 60, 330, 354
    width, height = 690, top + 20 * step + 30
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">',
        f'<title>Raspberry Pi wiring: {escape(pin_map.source)}</title>',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{width // 2}" y="24" text-anchor="middle" font-size="15">'
        "UNO Attack launcher — Raspberry Pi 40-pin header</text>",
        f'<rect x="{cx_left - 14}" y="{top - 14}" width="52" height="{20 * step + 4}" '
        'rx="4" fill="#1b5e20"/>',
    ]
    for row in range(20):
        y = top + row * step
        for pin, cx, side in ((2 * row + 1, cx_left, -1), (2 * row + 2, cx_right, 1)):
            name, role = _label(pin, roles)
            fill = "#ffd54f" if role else _COLOURS.get(name, "#9e9e9e")
            out.append(f'<circle cx="{cx}" cy="{y}" r="8" fill="{fill}" stroke="black">'
                       f"<title>pin {pin}: {escape(name)}</title></circle>")
            anchor = "end" if side < 0 else "start"
            x = cx + side * 16
            text = f"{name} ({pin})"
            if role:
                text = f"{role} — {text}" if side < 0 else f"{text} — {role}"
            weight = ' font-weight="bold"' if role else ""
            out.append(f'<text x="{x}" y="{y + 4}" text-anchor="{anchor}"{weight}>'
                       f"{escape(text)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
