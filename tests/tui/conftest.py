"""Every game test plays as someone who has played before, named "You", with the hand
shown as dealt (tests place cards by where they were dealt; a test of the first run
removes the settings, one of the sorted hand sorts it), and never reads or writes the
real user's settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_attack.config import Settings, save_settings, settings_path


@pytest.fixture(autouse=True)
def _own_config_home(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("config-home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    assert save_settings(Settings(names=("You",), hand_order="dealt")) is None
    return settings_path()
