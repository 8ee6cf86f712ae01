"""Self-play: bots play many rounds with the simulated launcher; statistics of the lot.

Round ``i`` of a run with seed ``S`` draws everything (deal, dealer, launcher, bots)
from ``(S, i)``, so the same seed gives the same output, and any one round can be
replayed from its saved transcript. That is also why rounds can be spread over worker
processes: a worker plays a chunk of round numbers, and the chunks' counts are added up
in order, so ``workers`` never changes the output.

Who plays is a line-up of bot kinds (:func:`line_up`): ``random``, ``basic`` or any kind of
:data:`~uno_attack.bots.BOT_KINDS` at every seat; ``mixed`` (one ``basic``, the others
``random``); or a list ``KIND,KIND,...`` with one kind per seat. A list (and ``mixed``)
rotates: round ``i`` seats the line-up rotated by ``i``, player ``j`` of the list at seat
``(j + i) mod players``, so every kind plays from every seat equally often.

Every round is the first round of a match under the given options, played and saved as
such: ``first_dealer`` chooses its dealer (drawn, random or a seat), and ``match`` and
``target`` score it (``lowest`` adds each player's own hand; a ``points`` round that
reaches the target ends its match). ``next_dealer`` has nothing to choose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from uno_attack.bots import BOT_KINDS, DEFAULT_BUDGET_MS, make_bot
from uno_attack.errors import UnoAttackError
from uno_attack.journal import SaveError, clean_stale_temps
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.table import Table

#: More worker processes than this is a typo, not a machine.
MAX_WORKERS = 256


@dataclass(frozen=True)
class Seat:
    """A player of a line-up: a name that carries its bot kind, and the kind."""

    name: str
    kind: str


def line_up(bots: str, players: int) -> tuple[list[Seat], bool]:
    """The players of ``--bots`` (see the module docstring) and whether they rotate.

    Raises :class:`~uno_attack.errors.UnoAttackError` naming an unknown kind (and the
    known ones) or a list that does not have one kind per seat.
    """
    if bots == "mixed":
        return [Seat("basic", "basic"),
                *(Seat(f"random-{i}", "random") for i in range(1, players))], True
    kinds = [kind.strip() for kind in bots.split(",")]
    for kind in kinds:
        if kind not in BOT_KINDS:
            known = ", ".join([*BOT_KINDS, "mixed"])
            raise UnoAttackError(f"--bots {bots}: unknown bot kind {kind!r} (known: {known}; "
                                 "or a list KIND,KIND,... with one kind per seat)")
    if len(kinds) == 1:
        return [Seat(f"{bots}-{i}", bots) for i in range(1, players + 1)], False
    if len(kinds) != players:
        raise UnoAttackError(f"--bots {bots}: {len(kinds)} kinds for {players} players "
                             "(a list names one kind per seat)")
    return [Seat(f"{kind}-{j}", kind) for j, kind in enumerate(kinds, start=1)], True


@dataclass
class SimulationStats:
    games: int = 0
    actions: int = 0
    presses: int = 0
    cards_fired: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    names: list[str] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)  # each name's bot kind

    @property
    def mean_actions(self) -> float:
        return self.actions / self.games if self.games else 0.0

    @property
    def wins_by_kind(self) -> dict[str, int]:
        """Each kind's wins, the kinds in line-up order."""
        wins = dict.fromkeys(self.kinds[name] for name in self.names)
        return {kind: sum(self.wins[n] for n in self.names if self.kinds[n] == kind)
                for kind in wins}

    def add(self, other: SimulationStats) -> None:
        """Count another chunk of rounds of the same run in."""
        self.games += other.games
        self.actions += other.actions
        self.presses += other.presses
        self.cards_fired += other.cards_fired
        self.wins.update(other.wins)

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "actions": self.actions,
            "presses": self.presses,
            "cards_fired": self.cards_fired,
            "mean_actions": round(self.mean_actions, 3),
            "wins": {name: self.wins[name] for name in self.names},
            "wins_by_kind": self.wins_by_kind,
        }


@dataclass(frozen=True)
class Run:
    """Everything a round needs besides its number: what a worker process is sent."""

    players: int
    bots: str
    seed: int
    policy: str = "attack"
    options: Options = field(default_factory=Options)
    save_dir: Path | None = None
    playouts: int | None = None  # the smart bot's search budget per decision (None: the
    budget_ms: float = DEFAULT_BUDGET_MS  # rule set's default) and its time cap

    def stats(self) -> SimulationStats:
        seats = line_up(self.bots, self.players)[0]
        return SimulationStats(names=[s.name for s in seats],
                               kinds={s.name: s.kind for s in seats})

    def play(self, first: int, stop: int,
             on_round: Callable[[int], None] | None = None) -> SimulationStats:
        """Play rounds ``first … stop - 1``; ``on_round(done)`` after each."""
        seats, rotates = line_up(self.bots, self.players)
        players, seed = self.players, self.seed
        options = self.options
        stats = self.stats()
        for i in range(first, stop):
            shift = i % players if rotates else 0
            seated = [seats[(s - shift) % players] for s in range(players)]
            match = Match([s.name for s in seated], options, seed=f"{seed}:{i}")
            game, record = match.deal_round()
            bots = [make_bot(s.kind, s.name, seed=f"{seed}:{i}:{s.name}", policy=self.policy,
                             playouts=self.playouts, budget_ms=self.budget_ms)
                    for s in seated]
            with open_launcher("sim", seed=hash_seed(seed, i), policy=self.policy) as launcher:
                # the simulated launcher's pile is the engine's: a draw has nothing to eject
                table = Table(game, bots, launcher, record, reload_rng=match.reload_rng(),
                              recording=self.save_dir is not None, ejects_draws=False)
                result = table.play_round()
            stats.games += 1
            stats.actions += table.actions
            stats.presses += table.takes
            stats.cards_fired += table.cards_taken
            stats.wins[seated[result.winner].name] += 1
            if self.save_dir is not None:
                record.name = (f"self-play round {i + 1} of seed {seed}: "
                               f"{', '.join(s.name for s in seated)}")
                path = self.save_dir / f"round-{i + 1:05d}.json"
                try:
                    record.save(path)
                except OSError as exc:
                    raise SaveError(str(path), f"cannot write: {exc.strerror or exc}") from None
            if on_round is not None:
                on_round(i + 1 - first)
        return stats


def check_run(players: int, bots: str, options: Options, policy: str) -> None:
    """Refuse, before anything is played or written, a run that cannot deal its first
    round (a dealer seat beyond the table, hands too big for the deck) or has no such
    ejection policy: :class:`~uno_attack.errors.UnoAttackError` names what is wrong."""
    Match([seat.name for seat in line_up(bots, players)[0]], options).deal_round()
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
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    playouts: int | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
) -> SimulationStats:
    """Play ``games`` independent single rounds and count what happened, in this process
    or spread over ``workers`` processes; ``on_progress(done)`` tells the rounds played
    so far (after each round, or each chunk of them). ``playouts`` and ``budget_ms`` are
    the ``smart`` bots' search budget per decision."""
    if not 1 <= workers <= MAX_WORKERS:
        raise UnoAttackError(f"workers = {workers}: must be 1 to {MAX_WORKERS}")
    run = Run(players, bots, seed, policy, options or Options(), save_dir, playouts, budget_ms)
    if save_dir is not None:
        clean_stale_temps(save_dir)  # of a run killed mid-write
    if workers == 1 or games < 2:
        return run.play(0, games, on_progress)
    return _play_in_workers(run, games, workers, on_progress)


def _play_in_workers(run: Run, games: int, workers: int,
                     on_progress: Callable[[int], None] | None) -> SimulationStats:
    """Chunks of round numbers, a few per worker so the progress moves and no worker
    waits long for the last; their counts added in chunk order."""
    size = max(1, min(500, games // (workers * 8)))
    chunks = [(first, min(first + size, games)) for first in range(0, games, size)]
    stats = run.stats()
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks))) as pool:
        futures: list[Future[SimulationStats]] = [
            pool.submit(_play_chunk, run, first, stop) for first, stop in chunks]
        try:
            done = 0
            for future in as_completed(futures):
                done += future.result().games  # a chunk that failed raises here
                if on_progress is not None:
                    on_progress(done)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    for future in futures:
        stats.add(future.result())
    return stats


def _play_chunk(run: Run, first: int, stop: int) -> SimulationStats:
    """A worker's chunk. Errors come back as the project's plain error with the same
    message: some error types do not rebuild from their text on the way back."""
    try:
        return run.play(first, stop)
    except UnoAttackError as exc:
        raise UnoAttackError(str(exc)) from None


def hash_seed(seed: int, i: int) -> int:
    """A launcher seed for round ``i``: distinct per round, the same on every machine."""
    return (seed * 1_000_003 + i) & 0xFFFFFFFF
