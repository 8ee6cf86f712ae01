"""Where the user's config file lives, and what it holds for the game.

The file is TOML at ``$UNO_ATTACK_CONFIG``, else ``$XDG_CONFIG_HOME/uno-attack/config.toml``
(``~/.config/uno-attack/config.toml``). It may define ejection policy tables
(``[policies.NAME]``) and hardware settings read by the hardware packages.
"""

from __future__ import annotations

import os
from pathlib import Path

from sim_launcher.policies import PolicyTable, load_user_tables

CONFIG_ENV = "UNO_ATTACK_CONFIG"


def config_path() -> Path:
    """The config file's path (it need not exist)."""
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "uno-attack" / "config.toml"


def user_policy_tables() -> dict[str, PolicyTable]:
    """The ``[policies.NAME]`` tables of the config file; none when it does not exist.

    A config named by ``$UNO_ATTACK_CONFIG`` must exist; the default one is optional.
    """
    path = config_path()
    if not path.exists() and CONFIG_ENV not in os.environ:
        return {}
    return load_user_tables(path)
