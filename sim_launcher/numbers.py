"""Numbers as a user types them into a spec or an option: ASCII digits, finite, in range.

Python's ``int()`` and ``float()`` take ``"１２"``, ``"٣"``, ``" 3"``, ``"1_000"``, ``"nan"``
and ``"inf"``; a launcher spec or a command-line option must not (a ``nan`` time scale
stops a clock, an ``inf`` one runs it to the end at once). Each function raises
``ValueError`` with a message that quotes the text; :func:`arg` makes one an
``argparse`` type.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

__all__ = ["arg", "parse_float", "parse_int"]

_INT = re.compile(r"^-?[0-9]+$")
_FLOAT = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def parse_int(text: str, *, low: int | None = None, high: int | None = None) -> int:
    """A whole number in the digits 0-9 (``low``…``high`` when given)."""
    if not _INT.match(text) or len(text) > 18:
        raise ValueError(f"{text!r} is not a whole number (digits 0-9)")
    value = int(text)
    _check_range(text, value, low, high, low_open=False)
    return value


def parse_float(text: str, *, low: float | None = None, high: float | None = None,
                low_open: bool = False) -> float:
    """A finite decimal number (above ``low`` with ``low_open``, else at least ``low``)."""
    if not _FLOAT.match(text):
        raise ValueError(f"{text!r} is not a number (digits 0-9, a point, an exponent)")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is too large a number")
    _check_range(text, value, low, high, low_open=low_open)
    return value


def _check_range(text: str, value: float, low: float | None, high: float | None, *,
                 low_open: bool) -> None:
    if low is not None and (value < low or (low_open and value == low)):
        raise ValueError(f"{text!r} must be {'above' if low_open else 'at least'} {low:g}")
    if high is not None and value > high:
        raise ValueError(f"{text!r} must be at most {high:g}")


def arg(parse: Callable[..., float], **limits: float | bool | None) -> Callable[[str], float]:
    """An ``argparse`` type: ``type=arg(parse_int, low=1)``."""

    def convert(text: str) -> float:
        try:
            return parse(text, **limits)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = parse.__name__.removeprefix("parse_")
    return convert
