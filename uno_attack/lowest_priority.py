"""Imported first by the bots' fork server (:data:`uno_attack.thinker.PRELOAD`), and by
nothing else: importing it lowers the priority of the process as far as it goes, so that
the server's own start (importing the game) and every thinking process it forks (they
inherit it) come after the table's work. Where that is refused (a sandbox that forbids
``setpriority``; the host's systemd unit lets it through for this) the server runs at the
usual priority, still away from the table's GIL.
"""

from __future__ import annotations

import contextlib
import os

with contextlib.suppress(OSError):
    os.nice(19)
