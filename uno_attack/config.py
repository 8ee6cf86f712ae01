"""Where the user's config file lives, and how it (and a pin map) is read safely.

The file is TOML at ``$UNO_ATTACK_CONFIG``, else ``$XDG_CONFIG_HOME/uno-attack/config.toml``
(``~/.config/uno-attack/config.toml``). It may define ejection policy tables
(``[policies.NAME]``) and hardware settings read by the hardware packages.

:func:`read_toml` is the one way the project reads a TOML file it is handed: a path that
is a folder, a pipe or a device, a file over 1 MiB, bytes that are not UTF-8, a file
nested too deeply or a number too long each end in one :class:`ConfigError` that names
the file, never a traceback or a hang.

What the game remembers for the user (the names at this keyboard, how the hand is ordered)
is kept apart, in ``settings.toml`` beside the default config file
(:func:`load_settings`, :func:`save_settings`): the game writes that file, so it never
rewrites the one the user edits by hand.
"""

from __future__ import annotations

import os
import reprlib
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sim_launcher.policies import PolicyError, PolicyTable, tables_from_config
from uno_attack.errors import UnoAttackError
from uno_attack.journal import write_atomic

CONFIG_ENV = "UNO_ATTACK_CONFIG"
MAX_BYTES = 1 << 20   # no config or pin map is anywhere near this


class ConfigError(UnoAttackError):
    """A config or pin-map file that cannot be read: missing, not text, not TOML."""


def config_path() -> Path:
    """The config file's path (it need not exist)."""
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit)
    return _config_folder() / "config.toml"


def _config_folder() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "uno-attack"


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


HAND_ORDERS = ("sorted", "dealt")


@dataclass(frozen=True)
class Settings:
    """What ``play`` remembers between runs: the names of the people at this keyboard
    (none yet: the first run asks them) and the hand's order (by colour and value, or as
    dealt)."""

    names: tuple[str, ...] = ()
    hand_order: str = "sorted"

    def to_toml(self) -> str:
        names = ", ".join(_toml_string(name) for name in self.names)
        return ("# Written by uno-attack play: what it remembers for you.\n"
                f"names = [{names}]\nhand_order = {_toml_string(self.hand_order)}\n")


def _toml_string(text: str) -> str:
    """A TOML basic string (a name is printable text, so only \\ and " need escaping)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def settings_path() -> Path:
    """``$XDG_CONFIG_HOME/uno-attack/settings.toml`` (it need not exist)."""
    return _config_folder() / "settings.toml"


def load_settings(path: Path | None = None) -> Settings:
    """The remembered settings; the defaults when the file does not exist yet. A file
    that is there but wrong is a :class:`ConfigError` naming it, the key and the value."""
    path = path or settings_path()
    if not path.exists() and not path.is_symlink():
        return Settings()
    data = read_toml(path, what="settings file")
    unknown = sorted(set(data) - {"names", "hand_order"})
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r} (known: names, hand_order)")
    names = data.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"{path}: key 'names' must be a list of names, not "
                          f"{reprlib.repr(names)}")
    from uno_attack.saved_game import name_problem  # (it needs the bots, which need us)

    for name in names:
        why = name_problem(name)
        if why is not None:
            raise ConfigError(f"{path}: key 'names': {name!r}: {why}")
    order = data.get("hand_order", "sorted")
    if order not in HAND_ORDERS:
        raise ConfigError(f"{path}: key 'hand_order' = {reprlib.repr(order)}: expected "
                          f"{' or '.join(HAND_ORDERS)}")
    return Settings(names=tuple(n.strip() for n in names), hand_order=order)


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings (whole, or not at all); what went wrong, or ``None``. A game
    goes on when they cannot be kept (a read-only home): it only asks again next time."""
    path = path or settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, settings.to_toml())
    except OSError as exc:
        return f"{path}: cannot keep the settings: {exc.strerror}"
    return None


def update_settings(**changes: Any) -> str | None:
    """Change some settings and keep the others; what went wrong, or ``None``."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        return str(exc)
    return save_settings(replace(settings, **changes))
