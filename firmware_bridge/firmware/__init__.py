"""The dispenser firmware, in MicroPython: copied whole to a Pico as the ``firmware`` package.

``dispenser`` (the figures, limits and closed-loop eject, linked here from
``sim_launcher/dispenser.py`` so the Pi's driver runs the very same file), ``ulp`` (the
codec, shared with the host), ``hal`` (what a board offers), ``board`` (the logic, and
the declaration of every ULP/1 message), ``pico`` (the RP2040 HAL) and ``main`` (the boot
script). Only ``pico`` and ``main`` need MicroPython; the rest also runs on CPython in
the emulator.
"""

from . import board  # noqa: F401 - declares the protocol's messages for ulp
