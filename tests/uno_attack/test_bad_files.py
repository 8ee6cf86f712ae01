"""Files that are not transcripts at all: each ends in one line naming the file (and the
key), exit 2, no traceback and no hang, through the real ``uno-attack replay``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.one_line import assert_one_line

SHARED = Path(__file__).resolve().parents[3] / "shared" / "transcripts"


def replay(*paths: str | bytes) -> subprocess.CompletedProcess[str]:
    # output that refuses text it cannot encode (as a CI runner's PYTHONIOENCODING=utf-8 does)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "uno_attack", "replay", *paths],
                          capture_output=True, text=True, errors="backslashreplace", timeout=60,
                          env=env)


def example() -> dict:
    return json.loads((SHARED / "00-example.json").read_text())


@pytest.mark.parametrize(("content", "fragments"), [
    (b'{"name": "caf\xe9"}', ("not UTF-8 text", "byte 13")),
    (b"[" * 100_000, ("nested too deeply",)),
    (b"[" * 200 + b"]" * 200, ("key '[0][0]", "nested more than 32 levels")),
    (b'{"players": ' + b"7" * 5000 + b"}", ("a number of 5000 digits",)),
    (b'{"players": 1e999}', ("1e999 is out of range",)),
    (b'{"players": NaN}', ("NaN is not a JSON number",)),
    (json.dumps({**example(), "name": "\ud800"}).encode(),
     ("key 'name'", "not valid Unicode", "\\ud800")),
    (json.dumps({**example(), "meta": {"\udc80": 1}}).encode(), ("key 'meta'", "\\udc80")),
], ids=["latin-1", "deep-list", "deep-in-limits", "long-number", "huge-float", "nan",
        "surrogate-name", "surrogate-key"])
def test_bytes_that_are_no_transcript(tmp_path: Path, content: bytes,
                                      fragments: tuple[str, ...]) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert_one_line(replay(str(path)), f"{path}: ", *fragments)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert_one_line(replay(str(fifo)), f"{fifo}: is not a regular file")


def test_a_device_that_never_ends_is_refused() -> None:
    assert_one_line(replay("/dev/zero"), "/dev/zero: is not a regular file")


def test_a_folder_and_a_missing_file(tmp_path: Path) -> None:
    assert_one_line(replay(str(tmp_path)), f"{tmp_path}: is a folder, not a file")
    assert_one_line(replay(str(tmp_path / "none.json")), "none.json: cannot read: No such file")
    assert_one_line(replay("/proc/self/status"), "/proc/self/status: not valid JSON")


def test_a_file_too_large_to_be_a_game(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(17 * 2**20)  # sparse: no disk used
    assert_one_line(replay(str(path)), "larger than 16 MiB")


def test_a_name_no_terminal_encoding_can_print(tmp_path: Path) -> None:
    """A file name that is not UTF-8 is printed escaped, for a failure and for -v."""
    data = example()
    data["steps"][1]["expect"]["turn"] = 1
    name = os.fsencode(tmp_path) + b"/bad-\xff.json"
    with open(name, "w") as f:
        json.dump(data, f)
    result = replay(name)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "bad-\\udcff.json" in result.stdout


def test_a_lone_surrogate_in_the_name_is_refused_before_it_is_printed(tmp_path: Path) -> None:
    path = tmp_path / "named.json"
    path.write_text(json.dumps({**example(), "name": "R\ud83d"}))
    assert_one_line(replay("-v", str(path)), f"{path}: key 'name': not valid Unicode")


def test_a_seat_key_of_thousands_of_digits(tmp_path: Path) -> None:
    data = example()
    data["steps"][5]["expect"]["hands"] = {"2" * 5000: ["B4"]}
    path = tmp_path / "seat.json"
    path.write_text(json.dumps(data))
    assert_one_line(replay(str(path)), f"{path}: key 'steps[5].expect.hands'")
