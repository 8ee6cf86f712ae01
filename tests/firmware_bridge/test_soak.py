"""The soak: 1,000 ejects and 1,000 presses over a noisy pty that also disconnects.

Zero silent losses: every request fired at most once, every press counted exactly once,
every count right or reported unknown. On the emulated Pico, in a 128 KB heap: what the
firmware holds after a collection at the 1000th eject is not one byte more than at the
100th (one object leaked per eject, a 16-byte heap block at least, would be 14 KB more),
and far less than the heap.
The figures are printed (``pytest -s``).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.faults import LinkFaults
from firmware_bridge.host import UlpLink
from firmware_bridge.pico_emulator import PicoBoard
from sim_launcher.physical import DispenserParams

from .conftest import wait_for

EJECTS = 1000
PRESSES = 1000
FAULTS = LinkFaults(noise=0.01, drop=0.001, repeat=0.02, lose=0.01)
HEAP_KB = 128
HEAP_AT = (100, 1000)   # the ejects after which the Pico's heap is read


def test_soak_no_silent_losses(tmp_path: Path, board_class: type[EmulatedBoard]) -> None:
    started = time.monotonic()
    rng = random.Random(2024)
    params = DispenserParams(jam_probability=0.005)
    options = {"heap_kb": HEAP_KB} if board_class is PicoBoard else {}
    board = board_class(link=tmp_path / "board", seed=11, time_scale=100.0, wire=FAULTS,
                        params=params, **options).start()
    link = UlpLink(board.port, retry_s=0.02, poll_s=0.02, ping_s=0.2)
    try:
        link.open()
        results: list[tuple[int, int, int, str]] = []
        live: list[int] = []    # gc.mem_alloc() after a collection, at HEAP_AT
        for i in range(EJECTS):
            board.press_button(1)
            if i % 100 == 50:
                board.disconnect(0.05)
            count = rng.randint(1, 12)
            ejected, status, _ = link.eject(count, 5000)
            assert link.last_eject_id is not None
            results.append((link.last_eject_id, count, ejected, status))
            if isinstance(board, PicoBoard) and i + 1 in HEAP_AT:
                live.append(board.heap_after_collect()[0])
        board.press_button(PRESSES - EJECTS)
        assert board.wait_idle(20)
        # Recover presses whose PRESS lines were lost: STATUS counts them.
        assert wait_for(lambda: link.status() is not None and link.presses >= PRESSES, 10)
        link.status()

        fired = Counter((r.session, r.rid) for r in board.records)
        assert max(fired.values()) == 1, "a request fired twice"
        truth = {r.rid: r for r in board.records if r.session == link.session}
        statuses = Counter(status for *_, status in results)
        silent = [r for r in results if r[3] != "unknown"
                  and (r[0] not in truth or truth[r[0]].cards != r[2]
                       or truth[r[0]].status != r[3])]
        assert silent == [], f"counts reported wrong: {silent[:5]}"
        assert link.presses == PRESSES == board.stats.presses
        assert statuses["unknown"] <= 5
        cards = sum(r[2] for r in results)
        known = [r for r in results if r[3] != "unknown"]
        assert sum(r[2] for r in known) == sum(truth[r[0]].cards for r in known)
        if isinstance(board, PicoBoard):
            assert live[1] <= live[0], f"the firmware's heap grows: {live}"
            assert live[1] < HEAP_KB * 1024 // 2, f"{live[1]} bytes live in {HEAP_KB} KB"
        elapsed = time.monotonic() - started
        s, d = link.stats, board.stats
        print(f"\nsoak: {EJECTS} ejects ({dict(statuses)}), {cards} cards, "
              f"{PRESSES} presses counted {link.presses} ({s.presses_recovered} recovered "
              f"from gaps/STATUS), {len(silent)} silent losses, {elapsed:.1f} s\n"
              f"  wire to board: {d.to_device}; to host: {d.to_host}\n"
              f"  host: {s.sent} lines sent ({s.resent} re-sent), {s.bad_lines} bad lines "
              f"dropped, {s.crc_errors} ERR - crc, {s.reconnects} reconnects "
              f"({d.disconnects} disconnects)"
              + (f"\n  heap after a collection, ejects {HEAP_AT}: {live} bytes live, "
                 f"{[HEAP_KB * 1024 - n for n in live]} free of {HEAP_KB} KB" if live else ""))
    finally:
        link.close()
        board.close()
