"""The cells of a player database, checked as they are read.

The file is ours, but any program may have changed it since: SQLite keeps whatever it is
given in any column (a points column may hold text, a name bytes). Every report reads its
cells through these, so a damaged one is a :class:`Damaged` naming its row and column,
never a wrong report or a traceback; the store says it with the file's name.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from uno_attack.jsonfile import parse_json
from uno_attack.store.records import StoreError


class Damaged(StoreError):
    """A cell holding what the store never writes; the message names its row and column."""


def whole(value: object, where: str) -> int:
    if type(value) is not int:
        raise Damaged(f"{where} holds {_shown(value)}, not a whole number")
    return value


def flag(value: object, where: str) -> bool:
    if whole(value, where) not in (0, 1):
        raise Damaged(f"{where} holds {value!r}, not 0 or 1")
    return bool(value)


def text(value: object, where: str) -> str:
    """Text, which the connection decodes keeping bytes that are not UTF-8 as surrogates."""
    if not isinstance(value, str):
        raise Damaged(f"{where} holds {_shown(value)}, not text")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Damaged(f"{where} holds {_shown(value)}, not UTF-8 text") from None
    return value


def moment(value: object, where: str) -> datetime:
    """A time stamp as the store writes them: ISO 8601 with its offset from UTC."""
    try:
        stamp = datetime.fromisoformat(text(value, where))
        stamp.astimezone()  # what every report does with it
    except (ValueError, OverflowError, OSError):
        stamp = None
    if stamp is None or stamp.tzinfo is None:
        raise Damaged(f"{where} holds {_shown(value)}, not a time with its time zone")
    return stamp


def json_object(value: object, where: str) -> dict[str, Any]:
    data = parse_json(text(value, where), Damaged, where)
    if not isinstance(data, dict):
        raise Damaged(f"{where} holds {_shown(value)}, not a JSON object")
    return data


def decode(raw: bytes) -> str:
    """The connection's text factory: bytes that are not UTF-8 are kept, for :func:`text`
    to name, instead of failing the whole query."""
    return raw.decode("utf-8", "surrogateescape")


def _shown(value: object) -> str:
    shown = ascii(value)
    return shown if len(shown) <= 40 else shown[:39] + "…"
