"""Statistics of an ejection policy over many presses: fire rate, gaps, bursts, runs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sim_launcher.policies import BurstPolicy


@dataclass(frozen=True)
class PolicyStats:
    policy: str
    presses: int
    fires: int
    gaps: dict[int, float]     # presses from one fire to the next -> frequency
    bursts: dict[int, float]   # cards in a fire -> frequency
    mean_burst: float
    longest_empty_run: int

    @property
    def fire_rate(self) -> float:
        return self.fires / self.presses if self.presses else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "policy": self.policy,
            "presses": self.presses,
            "fire_rate": self.fire_rate,
            "gaps": {str(k): v for k, v in self.gaps.items()},
            "bursts": {str(k): v for k, v in self.bursts.items()},
            "mean_burst": self.mean_burst,
            "longest_empty_run": self.longest_empty_run,
        }


def _frequencies(counts: Counter[int]) -> dict[int, float]:
    total = sum(counts.values())
    return {k: counts[k] / total for k in sorted(counts)} if total else {}


def measure(policy: BurstPolicy, presses: int) -> PolicyStats:
    """Press ``presses`` times and measure; a gap counts from one fire to the next."""
    gaps: Counter[int] = Counter()
    bursts: Counter[int] = Counter()
    last_fire: int | None = None
    run = longest = 0
    for i in range(presses):
        k = policy.next_burst()
        if k == 0:
            run += 1
            longest = max(longest, run)
            continue
        run = 0
        bursts[k] += 1
        if last_fire is not None:
            gaps[i - last_fire] += 1
        last_fire = i
    fires = sum(bursts.values())
    mean = sum(k * n for k, n in bursts.items()) / fires if fires else 0.0
    return PolicyStats(policy.name, presses, fires, _frequencies(gaps), _frequencies(bursts),
                       mean, longest)


def histogram(frequencies: dict[int, float], *, width: int = 40, label: str = "") -> list[str]:
    """A text histogram, one line per value: ``  3 | ######## 16.0 %``."""
    if not frequencies:
        return [f"  (no {label or 'data'})"]
    top = max(frequencies.values())
    lines = []
    for value, freq in frequencies.items():
        bar = "#" * max(1, round(width * freq / top)) if freq else ""
        lines.append(f"  {value:>3} | {bar:<{width}} {100 * freq:5.1f} %")
    return lines
