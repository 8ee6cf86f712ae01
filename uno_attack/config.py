"""Where the user's config file lives, and how it (and a pin map) is read safely.

The file is TOML at ``$UNO_ATTACK_CONFIG``, else ``$XDG_CONFIG_HOME/uno-attack/config.toml``
(``~/.config/uno-attack/config.toml``). It may define ejection policy tables
(``[policies.NAME]``) and hardware settings read by the hardware packages.

:func:`read_toml` is the one way the project reads a TOML file it is handed: a path that
is a folder, a pipe or a device, a file over 1 MiB, bytes that are not UTF-8, a file
nested too deeply or a number too long each end in one :class:`ConfigError` that names
the file, never a traceback or a hang.
"""

from __future__ import annotations

import os
import reprlib
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sim_launcher.policies import PolicyError, PolicyTable, tables_from_config
from uno_attack.errors import UnoAttackError

CONFIG_ENV = "UNO_ATTACK_CONFIG"
MAX_BYTES = 1 << 20   # no config or pin map is anywhere near this


class ConfigError(UnoAttackError):
    """A config or pin-map file that cannot be read: missing, not text, not TOML."""


def config_path() -> Path:
    """The config file's path (it need not exist)."""
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "uno-attack" / "config.toml"


def read_toml(path: Path, *, what: str = "config file") -> dict[str, Any]:
    """The TOML file at ``path``, parsed; every failure a :class:`ConfigError`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block the open
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such {what}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the {what}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{path}: not a regular file (a folder, a device or a pipe), "
                              f"so not a {what}")
        if info.st_size > MAX_BYTES:
            raise ConfigError(f"{path}: {info.st_size} bytes, more than a {what} can be "
                              f"(at most {MAX_BYTES})")
        data = os.read(fd, MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the {what}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise ConfigError(f"{path}: more than {MAX_BYTES} bytes, so not a {what}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02X} at offset "
                          f"{exc.start})") from None
    return parse_toml(text, source=str(path))


def parse_toml(text: str, *, source: str) -> dict[str, Any]:
    """TOML text parsed; what tomllib raises besides its own error is a clean one too."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{source}: not valid TOML: nested too deeply") from None
    except ValueError as exc:  # a number with more digits than Python converts
        raise ConfigError(f"{source}: not valid TOML: {str(exc).split(';')[0]}") from None


def load_policy_tables(path: Path) -> dict[str, PolicyTable]:
    """The ``[policies.NAME]`` tables of the config file at ``path``."""
    data = read_toml(path, what="config file")
    policies = data.get("policies", {})
    if not isinstance(policies, Mapping):
        raise PolicyError(f"{path}: key 'policies' must be a table, not {reprlib.repr(policies)}")
    return tables_from_config(policies, str(path))


def user_policy_tables() -> dict[str, PolicyTable]:
    """The ``[policies.NAME]`` tables of the config file; none when it does not exist.

    A config named by ``$UNO_ATTACK_CONFIG`` must exist; the default one is optional.
    """
    path = config_path()
    if not os.environ.get(CONFIG_ENV) and not path.exists():
        return {}
    return load_policy_tables(path)
