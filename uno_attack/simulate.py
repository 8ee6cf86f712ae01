"""Self-play: bots play many rounds with the simulated launcher; statistics of the lot.

Round ``i`` of a run with seed ``S`` draws everything (deal, dealer, launcher, bots)
from ``(S, i)``, so the same seed gives the same output, and any one round can be
replayed from its saved transcript.

Every round is the first round of a match under the given options, played and saved as
such: ``first_dealer`` chooses its dealer (drawn, random or a seat), and ``match`` and
``target`` score it (``lowest`` adds each player's own hand; a ``points`` round that
reaches the target ends its match). ``next_dealer`` has nothing to choose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from uno_attack.bots import make_bot
from uno_attack.journal import SaveError, clean_stale_temps
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
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


def check_run(players: int, bots: str, options: Options, policy: str) -> None:
    """Refuse, before anything is played or written, a run that cannot deal its first
    round (a dealer seat beyond the table, hands too big for the deck) or has no such
    ejection policy: :class:`~uno_attack.errors.UnoAttackError` names what is wrong."""
    Match(player_names(players, bots), options).deal_round()
    open_launcher("sim", policy=policy).close()


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
    if save_dir is not None:
        clean_stale_temps(save_dir)  # of a run killed mid-write
    for i in range(games):
        # mixed: the basic bot's seat rotates each round
        shift = i % players if bots == "mixed" else 0
        seated = [names[(s - shift) % players] for s in range(players)]
        seat_kinds = [kinds[(s - shift) % players] for s in range(players)]
        match = Match(seated, base, seed=f"{seed}:{i}")
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
            path = save_dir / f"round-{i + 1:05d}.json"
            try:
                record.save(path)
            except OSError as exc:
                raise SaveError(str(path), f"cannot write: {exc.strerror or exc}") from None
        if on_round is not None:
            on_round(i)
    return stats


def hash_seed(seed: int, i: int) -> int:
    """A launcher seed for round ``i``: distinct per round, the same on every machine."""
    return (seed * 1_000_003 + i) & 0xFFFFFFFF
