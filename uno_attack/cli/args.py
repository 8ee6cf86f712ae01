"""Command-line words shared by the commands: a parser whose errors are one line, and
strict types for numbers, seconds and seeds.

Python's ``int()`` and ``float()`` take more than a user means: ``int("٣")`` is 3,
``float("inf")`` and ``float("nan")`` are numbers. Here a whole number is written in
ASCII digits, a duration is finite, and anything else is refused naming the argument
and its value.
"""

from __future__ import annotations

import argparse
import math
from typing import NoReturn

from uno_attack.errors import UnoAttackError
from uno_attack.saved_game import name_problem

MAX_SECONDS = 60.0
#: The longest wait a table's timer takes (a day): long enough for any table, and finite.
MAX_WAIT_SECONDS = 86400.0
MAX_SEED_TEXT = 200


class UsageError(UnoAttackError):
    """Command-line words a command does not accept (the message names the argument)."""


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose every error is one line, exit 2, like the project's
    other errors (``uno-attack COMMAND: error: argument --x: ...``)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see --help)")


def whole_number(text: str) -> int:
    """A whole number in ASCII digits, with an optional minus sign."""
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number such as 4")
    return int(text)


def seconds(text: str) -> float:
    """A duration: a finite number of seconds from 0 to :data:`MAX_SECONDS`."""
    return _number_between(text, 0, MAX_SECONDS, "seconds")


def wait_seconds(text: str) -> float:
    """A table's timer: a finite number of seconds from 0 to :data:`MAX_WAIT_SECONDS`."""
    return _number_between(text, 0, MAX_WAIT_SECONDS, "seconds")


def milliseconds(text: str) -> float:
    """A time cap: a finite number of milliseconds from 1 to :data:`MAX_SECONDS`."""
    return _number_between(text, 1, MAX_SECONDS * 1000, "milliseconds")


def _number_between(text: str, low: float, high: float, unit: str) -> float:
    try:
        value = float(text) if text.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of {unit} from {low:g} to {high:g}")
    return value


def seed_value(text: str) -> int | str:
    """A seed: a whole number in ASCII digits, or else any printable text (``party``).

    ``7`` and ``"7"`` are one seed; ``²`` is the text seed "²", not 2.
    """
    digits = text.removeprefix("-")
    if digits.isascii() and digits.isdigit() and len(digits) <= 18:
        return int(text)
    if not text or not text.isprintable() or len(text) > MAX_SEED_TEXT:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a seed: a whole number, or printable text of 1 to "
            f"{MAX_SEED_TEXT} characters")
    return text


def person_name(text: str) -> str:
    """A person's name as ``play`` takes them (bytes that are not UTF-8 are refused here,
    not sent to a database)."""
    why = name_problem(text)
    if why is not None:
        raise argparse.ArgumentTypeError(f"{text!r}: {why}")
    return text
