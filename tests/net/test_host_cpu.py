"""The host's own work first, for a board that gives it a tenth of a core: the collector's
full passes do not walk again, mid-round, what the host built to start."""

from __future__ import annotations

import gc
from pathlib import Path

from tests.net.helpers import host_config, running_host


async def test_what_the_host_built_to_start_is_out_of_the_collectors_sight_until_it_stops(
        tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        tracked = gc.get_objects()
        assert not any(o is host.session for o in tracked)
        assert not any(o is host.server for o in tracked)
        assert gc.get_freeze_count() > 10_000
        del tracked
    assert any(o is host.session for o in gc.get_objects())
