"""Self-play: bots play many rounds with the simulated launcher; statistics of the lot.

Round ``i`` of a run with seed ``S`` draws everything (deal, dealer, launcher, bots)
from ``(S, i)``, so the same seed gives the same output, and any one round can be
replayed from its saved transcript.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from uno_attack.bots import make_bot
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import OPTION_SPECS, Options
from uno_attack.table import Table

BOT_MIXES = ("random", "basic", "mixed")


@dataclass
class SimulationStats:
    games: int = 0
    actions: int = 0
    presses: int = 0
    cards_fired: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    names: list[str] = field(default_factory=list)

    @property
    def mean_actions(self) -> float:
        return self.actions / self.games if self.games else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "actions": self.actions,
            "presses": self.presses,
            "cards_fired": self.cards_fired,
            "mean_actions": round(self.mean_actions, 3),
            "wins": {name: self.wins[name] for name in self.names},
        }


def player_names(players: int, bots: str) -> list[str]:
    """The players' names, which carry their bot kind: ``basic``, ``random-2`` …"""
    if bots == "mixed":
        return ["basic", *(f"random-{i}" for i in range(1, players))]
    return [f"{bots}-{i}" for i in range(1, players + 1)]


def simulate(
    games: int,
    players: int,
    bots: str,
    seed: int,
    *,
    policy: str = "attack",
    options: Options | None = None,
    save_dir: Path | None = None,
    on_round: Callable[[int], None] | None = None,
) -> SimulationStats:
    """Play ``games`` independent single rounds and count what happened."""
    if bots not in BOT_MIXES:
        raise ValueError(f"unknown bots {bots!r} (choose {', '.join(BOT_MIXES)})")
    names = player_names(players, bots)
    kinds = ["basic" if n.startswith("basic") else "random" for n in names]
    stats = SimulationStats(names=names)
    base = options or Options()
    for i in range(games):
        # mixed: the basic bot's seat rotates each round
        shift = i % players if bots == "mixed" else 0
        seated = [names[(s - shift) % players] for s in range(players)]
        seat_kinds = [kinds[(s - shift) % players] for s in range(players)]
        match = Match(seated, replace(base, match="single", first_dealer="random",
                                      rounds=OPTION_SPECS["rounds"].default),
                      seed=f"{seed}:{i}")
        game, record = match.deal_round()
        table_players = [make_bot(k, n, seed=f"{seed}:{i}:{n}") for k, n in
                         zip(seat_kinds, seated, strict=True)]
        launcher = open_launcher("sim", seed=hash_seed(seed, i), policy=policy)
        table = Table(game, table_players, launcher, record, reload_rng=match.reload_rng())
        result = table.play_round()
        stats.games += 1
        stats.actions += len(record.steps)
        stats.presses += table.takes
        stats.cards_fired += table.cards_taken
        stats.wins[seated[result.winner]] += 1
        if save_dir is not None:
            record.name = f"self-play round {i + 1} of seed {seed}: {', '.join(seated)}"
            record.save(save_dir / f"round-{i + 1:05d}.json")
        if on_round is not None:
            on_round(i)
    return stats


def hash_seed(seed: int, i: int) -> int:
    """A launcher seed for round ``i``: distinct per round, the same on every machine."""
    return (seed * 1_000_003 + i) & 0xFFFFFFFF
