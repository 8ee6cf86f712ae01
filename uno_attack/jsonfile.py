"""Reading a JSON file that anyone may have written: bounded, never blocking, one clear error.

Transcripts and saved games arrive as bug reports and downloads (and any program may have
changed the player store's cells), so the file may be anything: a pipe or device that
never ends or never answers, bytes that are not UTF-8, a number of thousands of digits,
nesting deep enough to exhaust the stack, or text that decodes to lone surrogates no
terminal can print. Every one of these is reported as the caller's error type with the
file's name (and, inside the data, the key), before any of the data is used.
"""

from __future__ import annotations

import json
import math
import os
import stat
from typing import Any

from uno_attack.errors import UnoAttackError

MAX_BYTES = 16 * 2**20  # a long saved game is well under 1 MiB
MAX_DEPTH = 32          # the formats nest six levels at most
MAX_DIGITS = 100        # counts, scores and seeds, never thousands of digits


def read_json(path: str | os.PathLike[str], error: type[UnoAttackError]) -> Any:
    """The data in the JSON file at ``path``; any fault raises ``error`` naming the file."""
    source = os.fspath(path)
    raw = _read_bytes(source, error)
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise error(f"{source}: not UTF-8 text (byte {exc.start}: "
                    f"{raw[exc.start:exc.start + 1]!r})") from None
    return parse_json(text, error, source)


def parse_json(text: str, error: type[UnoAttackError], source: str) -> Any:
    """The data in JSON ``text`` kept elsewhere (a database's cell), checked as a file's is;
    any fault raises ``error`` naming ``source``."""
    try:
        data = json.loads(text, parse_int=_whole_number, parse_float=_finite_number,
                          parse_constant=_no_constant)
    except _NumberError as exc:
        raise error(f"{source}: not valid JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        raise error(f"{source}: not valid JSON: {exc}") from None
    except RecursionError:
        raise error(f"{source}: not valid JSON: nested too deeply "
                    f"(at most {MAX_DEPTH} levels)") from None
    problem = _first_problem(data)
    if problem is not None:
        raise error(f"{source}: key '{problem[0]}': {problem[1]}")
    return data


def _read_bytes(source: str, error: type[UnoAttackError]) -> bytes:
    """The file's bytes: only a regular file, opened without blocking, read up to the limit."""
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise error(f"{source}: cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{source}: is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise error(f"{source}: is not a regular file (a pipe, device or socket)")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:  # st_size is 0 for some files in /proc: read to the end
            chunk = os.read(fd, min(2**20, MAX_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise error(f"{source}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        raise error(f"{source}: larger than {MAX_BYTES // 2**20} MiB: not a game file")
    return b"".join(chunks)


class _NumberError(ValueError):
    """A number JSON allows but no field of ours can hold."""


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _NumberError(f"a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _finite_number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NumberError(f"the number {text[:20]} is out of range")
    return value


def _no_constant(text: str) -> float:
    raise _NumberError(f"{text} is not a JSON number")


def _first_problem(data: Any) -> tuple[str, str] | None:
    """The key and fault of the first place, in the file's order, that nests too deeply or
    holds a string that is not valid Unicode.

    Walked with a stack, not recursion, so no shape of data can exhaust Python's stack.
    """
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, key, depth = stack.pop()
        where = key or "(top)"
        if isinstance(value, dict | list) and depth > MAX_DEPTH:
            return where, f"nested more than {MAX_DEPTH} levels deep"
        if isinstance(value, str) and not _is_unicode(value):
            return where, f"not valid Unicode text (got {ascii(value)[:60]})"
        if isinstance(value, dict):
            bad = next((name for name in value if not _is_unicode(name)), None)
            if bad is not None:
                return where, f"a key that is not valid Unicode text ({ascii(bad)[:60]})"
            stack.extend((item, f"{key}.{name}" if key else name, depth + 1)
                         for name, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((value[i], f"{key}[{i}]", depth + 1) for i in reversed(range(len(value))))
    return None


def _is_unicode(text: str) -> bool:
    """False for a lone surrogate (JSON's ``"\\ud800"``): text no file or terminal can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
