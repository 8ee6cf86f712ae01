"""The project's promise for bad input, as one assertion: one line on stderr naming what
is wrong, exit 2, no traceback."""

from __future__ import annotations

import subprocess


def assert_one_line(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
