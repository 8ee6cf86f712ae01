"""Line faults for the emulated board's serial link: noise, dropped bytes, repeated lines.

They act on whole lines, in both directions, so a test can say "1 % of bytes" and mean it;
the rates are per byte (noise, drop) and per line (repeat, lose). Seeded: a failing soak replays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass(frozen=True)
class LinkFaults:
    """How badly the wire behaves."""

    noise: float = 0.0    # chance that a byte gets one bit flipped
    drop: float = 0.0     # chance that a byte is lost
    repeat: float = 0.0   # chance that a whole line arrives twice
    lose: float = 0.0     # chance that a whole line is lost

    def __post_init__(self) -> None:
        for name in ("noise", "drop", "repeat", "lose"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"fault rate {name}={value!r} is not in 0…1")

    @property
    def any(self) -> bool:
        return bool(self.noise or self.drop or self.repeat or self.lose)


@dataclass
class FaultCounts:
    """What the faults did, for a test's figures."""

    flipped: int = 0
    dropped: int = 0
    repeated: int = 0
    lost_lines: int = 0


@dataclass
class LineMangler:
    """Applies :class:`LinkFaults` to one direction of the link, line by line."""

    faults: LinkFaults
    rng: random.Random
    counts: FaultCounts = field(default_factory=FaultCounts)
    _partial: bytearray = field(default_factory=bytearray)

    def __call__(self, data: bytes) -> bytes:
        """Mangle ``data``; a trailing partial line is held until its ``\\n`` comes."""
        if not self.faults.any:
            return data
        self._partial += data
        *lines, rest = bytes(self._partial).split(b"\n")
        self._partial = bytearray(rest)
        out = bytearray()
        for line in lines:
            if self.rng.random() < self.faults.lose:
                self.counts.lost_lines += 1
                continue
            mangled = self._line(line + b"\n")
            out += mangled
            if self.rng.random() < self.faults.repeat:
                self.counts.repeated += 1
                out += mangled
        return bytes(out)

    def _line(self, line: bytes) -> bytes:
        out = bytearray()
        for byte in line:
            if self.rng.random() < self.faults.drop:
                self.counts.dropped += 1
                continue
            if self.rng.random() < self.faults.noise:
                self.counts.flipped += 1
                byte ^= 1 << self.rng.randrange(8)
            out.append(byte)
        return bytes(out)
