"""The files a Pico's flash holds to run the dispenser firmware: one list for every copy.

``firmware flash`` writes them to a board, the emulated Pico boots from them: the package
``firmware/`` (its ``dispenser.py`` is a link into ``sim_launcher``, resolved to the file
it points to, since a board's filesystem has no links) and ``main.py`` at the top, which
MicroPython runs at power-up.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from firmware_bridge.firmware import board

PACKAGE = Path(board.__file__).parent


def files() -> dict[str, Path]:
    """Each path on the board (``main.py``, ``firmware/ulp.py``, …) and the file it is."""
    out = {"main.py": PACKAGE / "main.py"}
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name != "main.py":
            out[f"firmware/{path.name}"] = path.resolve()
    return out


def write(folder: Path) -> None:
    """Put the firmware in ``folder`` as it lies on a flashed board's filesystem."""
    for name, source in files().items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
