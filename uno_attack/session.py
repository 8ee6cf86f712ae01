"""The game session behind a front end: match, table, players, launcher and journal.

Everything a game *does* lives here, with no Textual in sight, so the terminal game's
screens (and any other front end) only read state and forward choices. The session deals
rounds, records who is human, writes the journal after every action (through
:class:`~uno_attack.table.Table`), rebuilds an interrupted game from that journal exactly
(``--resume``), and records every finished round and match in the player store.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from uno_attack.actions import Action, Verb
from uno_attack.bots import make_bot
from uno_attack.engine import Round
from uno_attack.errors import UnoAttackError
from uno_attack.launcher import EjectStatus, Launcher, PressResult, open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.scoring import RoundResult
from uno_attack.store import Level, Recorder, RoundSaved
from uno_attack.store.from_table import match_record, round_record
from uno_attack.store.records import now
from uno_attack.table import Table, TableEvent, reaction_order
from uno_attack.transcript import ActionStep, Transcript, load

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dex", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo")
SAVE_FORMAT = "uno-attack play 1"


class ResumeError(UnoAttackError):
    """There is no saved game to resume, or it was not written by ``uno-attack play``."""


def default_save_path() -> Path:
    """``$XDG_STATE_HOME/uno-attack/game.json`` (``~/.local/state`` when unset)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "uno-attack" / "game.json"


@dataclass
class GameConfig:
    """What ``uno-attack play`` was asked for; everything a new match needs."""

    humans: list[str] = field(default_factory=lambda: ["You"])
    players: int = 4
    bots: str = "basic"
    launcher: str = "sim"
    policy: str = "attack"
    seed: int | str | None = None
    options: Options = field(default_factory=Options)
    save: Path | None = None
    db: Path | None = None  # the player store that records the match (None: not recorded)
    bot_delay: float = 0.8
    catch_delay: float = 1.5
    animate: bool = True
    forget_uno: float = 0.2  # how often a bot forgets to call UNO with its play


class Human:
    """A seat played by a person at the keyboard: the screens choose for it."""

    kind = "human"

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        raise RuntimeError(f"{self.name} is a person; the screen chooses for them")

    def react(self, game: Round, seat: int) -> Action | None:
        return None


def press_problem(result: PressResult, available: int) -> bool:
    """True when the launcher stopped short of what it should have fired (jam, empty, …).

    A simulated launcher that simply had fewer cards inside than asked is not a problem:
    every card that was in it came out.
    """
    if result.status is EjectStatus.OK:
        return False
    return result.fired < min(result.asked, max(available, 0))


class Session:
    """One match being played: the current round's table and who sits where."""

    def __init__(self, config: GameConfig, *, launcher: Launcher | None = None) -> None:
        self.config = config
        if not 2 <= config.players <= 10:
            raise UnoAttackError(f"--players {config.players}: must be 2 to 10")
        if len(config.humans) > config.players:
            raise UnoAttackError(f"--humans names {len(config.humans)} people but there are "
                                 f"only {config.players} seats (--players)")
        names = list(config.humans)
        bot_names = [n for n in BOT_NAMES if n not in names]
        names += bot_names[: config.players - len(names)]
        self.kinds = ["human"] * len(config.humans) + [config.bots] * (
            config.players - len(config.humans))
        self.match = Match(names, options=config.options, seed=config.seed)
        self.launcher = launcher or open_launcher(config.launcher, seed=_int_seed(config.seed),
                                                  policy=config.policy)
        self.presses_before = 0  # launcher presses in earlier rounds (to resume its policy)
        self.table: Table | None = None
        self.players: list[Any] = []
        self.match_key = uuid.uuid4().hex  # the match's record in the player store
        self.started_at = now()
        self.recorder = Recorder(config.db)
        self.saved: RoundSaved | None = None  # what recording the last round did
        # each finished round's points by match player (None: out of the match by then)
        self.points_by_round: list[list[int | None]] = []
        self.levels: dict[str, Level] = self.recorder.levels(config.humans)

    # -- who is who ---------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return self.match.names

    @property
    def game(self) -> Round:
        assert self.table is not None
        return self.table.game

    def player_of(self, seat: int) -> int:
        """The match player index sitting in a round's seat."""
        return self.match.active[seat]

    def seat_name(self, seat: int) -> str:
        return self.names[self.player_of(seat)]

    def is_human(self, seat: int) -> bool:
        return self.kinds[self.player_of(seat)] == "human"

    @property
    def human_seats(self) -> list[int]:
        return [s for s in range(len(self.match.active)) if self.is_human(s)]

    def seat_score(self, seat: int) -> int:
        return self.match.scores[self.player_of(seat)]

    # -- rounds --------------------------------------------------------------------
    def _make_players(self) -> list[Any]:
        seed = self.config.seed
        players: list[Any] = []
        for p in self.match.active:
            name, kind = self.names[p], self.kinds[p]
            if kind == "human":
                players.append(Human(name))
            else:
                bot_seed = f"{seed}:{self.match.round_no}:{p}"
                players.append(make_bot(kind, name, seed=bot_seed,
                                        forget_uno=self.config.forget_uno))
        return players

    def _meta(self) -> dict[str, Any]:
        m = self.match
        return {
            "format": SAVE_FORMAT, "names": list(m.names), "kinds": list(self.kinds),
            "seed": self.config.seed, "launcher": self.config.launcher,
            "policy": self.config.policy, "round": m.round_no,
            "match": {"scores": list(m.scores), "active": list(m.active), "dealer": m.dealer,
                      "round_no": m.round_no},
            "presses_before": self.presses_before,
            "match_key": self.match_key, "started_at": self.started_at.isoformat(),
            "points_by_round": [list(row) for row in self.points_by_round],
        }

    def start_round(self) -> Table:
        """Deal the next round and start writing its journal."""
        if self.table is not None:
            self.presses_before += len(self.table.record.fires)
        game, record = self.match.deal_round()
        record.meta.update(self._meta())
        self.players = self._make_players()
        self.table = Table(game, self.players, self.launcher, record,
                           reload_rng=self.match.reload_rng(), journal=self.config.save)
        return self.table

    def use_deal(self, record: Transcript) -> Table:
        """Play a given deal (a transcript's set-up) as the next round: a test's or a bug
        report's table, with the same journal and players as a dealt round."""
        if self.table is not None:
            self.presses_before += len(self.table.record.fires)
        self.match.round_no += 1
        self.match.dealer = self.match.active[record.dealer]
        record.options = self.match.options
        record.meta.update(self._meta())
        self.players = self._make_players()
        self.table = Table(record.new_round(), self.players, self.launcher, record,
                           reload_rng=self.match.reload_rng(), journal=self.config.save)
        return self.table

    def finish_round(self) -> RoundResult:
        """Carry the finished round into the match (scores, next dealer, eliminations) and
        record it, and the match once it is over, in the player store."""
        assert self.table is not None
        result = self.match.score(self.game)
        players = list(self.match.active)
        self.match.end_round(result)
        row: list[int | None] = [None] * len(self.names)
        for seat, points in enumerate(result.round_points):
            row[players[seat]] = points
        self.points_by_round.append(row)
        match = match_record(self.match, self.kinds, key=self.match_key,
                             started_at=self.started_at)
        self.saved = self.recorder.round_finished(
            round_record(self.table, result, match, number=self.match.round_no,
                         players=players))
        if self.match.over:
            self.recorder.match_finished(match)
        self.levels = self.recorder.levels(self.config.humans)
        return result

    # -- acting ---------------------------------------------------------------------
    def perform(self, action: Action, *, press: PressResult | None = None,
                fired: int | None = None) -> TableEvent:
        assert self.table is not None
        if action.verb is Verb.PRESS and press is None and fired is None:
            raise ValueError("a press from the screen needs its outcome (run it in a worker)")
        return self.table.perform(action, press=press, fired=fired)

    def bot_choice(self, seat: int) -> Action:
        """What the bot in ``seat`` does now (it reads the engine's legal actions)."""
        game = self.game
        return self.players[seat].choose(game, seat, game.legal_actions())  # type: ignore[no-any-return]

    def bot_reactions(self) -> list[Action]:
        """Catches and UNO calls the bots want to make now, in seat order."""
        game = self.game
        for seat in reaction_order(game):
            if self.is_human(seat):
                continue
            action = self.players[seat].react(game, seat)
            if action is not None and game.is_legal(action):
                return [action]  # the first catch (or call) closes the window
        return []

    def close(self) -> None:
        self.launcher.close()
        self.recorder.close()

    # -- resuming ---------------------------------------------------------------------
    @classmethod
    def resume(cls, config: GameConfig, *, launcher: Launcher | None = None) -> Session:
        """Rebuild the game a journal was writing: the match, the round, every action."""
        path = config.save
        if path is None or not path.exists():
            raise ResumeError(f"no saved game to resume at {path}")
        record = load(path)
        meta = record.meta
        if meta.get("format") != SAVE_FORMAT:
            raise ResumeError(f"{path} is not a game saved by 'uno-attack play'")
        names, kinds = list(meta["names"]), list(meta["kinds"])
        humans = [n for n, k in zip(names, kinds, strict=True) if k == "human"]
        bots = next((k for k in kinds if k != "human"), config.bots)
        cfg = GameConfig(humans=humans, players=len(names), bots=bots,
                         launcher=meta.get("launcher", config.launcher),
                         policy=meta.get("policy", config.policy), seed=meta.get("seed"),
                         options=record.options, save=path, db=config.db,
                         bot_delay=config.bot_delay, catch_delay=config.catch_delay,
                         animate=config.animate)
        self = cls(cfg, launcher=launcher)
        self.kinds = kinds
        self.match_key = str(meta.get("match_key", self.match_key))
        self.started_at = _moment(meta.get("started_at"), self.started_at)
        self.points_by_round = [list(row) for row in meta.get("points_by_round", [])]
        m = meta["match"]
        self.match = Match(names, options=record.options, seed=meta.get("seed"),
                           scores=list(m["scores"]), active=list(m["active"]),
                           round_no=int(m["round_no"]), dealer=m["dealer"])
        self.presses_before = int(meta.get("presses_before", 0))
        self.players = self._make_players()
        fresh = Transcript(name=record.name, players=record.players, dealer=record.dealer,
                           hands=record.hands, starter=record.starter,
                           launcher=record.launcher, rest=record.rest, options=record.options,
                           scores=record.scores, meta=meta)
        table = Table(record.new_round(), self.players, self.launcher, fresh,
                      reload_rng=self.match.reload_rng())
        fires = iter(record.fires)
        for step in record.steps:
            if not isinstance(step, ActionStep):
                continue
            action = step.action
            if action.seat == table.game.to_act and not self.is_human(action.seat):
                self.bot_choice_on(table.game, action.seat)  # keep a random bot's dice in step
            fired = next(fires) if action.verb is Verb.PRESS else None
            table.perform(action, fired=fired, eject=False)
        table.journal = path
        self.table = table
        _fast_forward(self.launcher, self.presses_before + len(record.fires))
        return self

    def bot_choice_on(self, game: Round, seat: int) -> None:
        self.players[seat].choose(game, seat, game.legal_actions())


def _moment(text: object, default: datetime) -> datetime:
    """A time stamp kept in a journal's meta (an older journal has none)."""
    try:
        moment = datetime.fromisoformat(str(text))
    except ValueError:
        return default
    return moment if moment.tzinfo is not None else default


def _int_seed(seed: int | str | None) -> int | None:
    if seed is None or isinstance(seed, int):
        return seed
    return sum(ord(c) * 31**i for i, c in enumerate(seed)) % 2**32


def _fast_forward(launcher: Launcher, presses: int) -> None:
    """Advance a seeded launcher past the presses already made, so a resumed game goes on
    as it would have (policy launchers and scripted ones; hardware has no dice to roll)."""
    policy = getattr(launcher, "policy", None)
    if policy is not None and hasattr(policy, "next_burst"):
        for _ in range(presses):
            policy.next_burst()
    elif hasattr(launcher, "position"):
        launcher.position = min(presses, len(getattr(launcher, "fires", [])))
