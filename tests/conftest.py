"""Every test gets its own data folder: a game a test plays never lands in the real
player store of whoever runs the suite."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_home(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("data-home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home
