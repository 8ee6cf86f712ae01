"""The game session behind a front end: match, table, players, launcher and journal.

Everything a game *does* lives here, with no Textual in sight, so the terminal game's
screens (and any other front end) only read state and forward choices. The session deals
rounds, records who is human, writes the journal after every action (through
:class:`~uno_attack.table.Table`), rebuilds an interrupted game from that journal exactly
(``--resume``), and records every finished round and match in the player store.
"""

from __future__ import annotations

import os
import shlex
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from uno_attack.actions import Action, Verb
from uno_attack.bots import make_bot
from uno_attack.engine import Round
from uno_attack.errors import LauncherError, OptionError, UnoAttackError
from uno_attack.journal import Journal, SaveFailure
from uno_attack.launcher import (
    EjectStatus,
    Launcher,
    LauncherSettings,
    PressResult,
    open_launcher,
)
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.saved_game import (
    HostTokens,
    ResumeError,
    SavedGame,
    read_saved_game,
    save_meta,
)
from uno_attack.scoring import RoundResult
from uno_attack.store import Level, Recorder, RoundSaved
from uno_attack.store.from_table import match_record, round_record
from uno_attack.store.records import MatchRecord, RoundRecord, now
from uno_attack.table import Table, TableEvent
from uno_attack.transcript import ActionStep, Transcript

#: what recording a round found: the round's record, and the people's levels since
Recorded = tuple[RoundSaved | None, dict[str, Level]]

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dex", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo")

def default_save_path() -> Path:
    """``$XDG_STATE_HOME/uno-attack/game.json`` (``~/.local/state`` when unset)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "uno-attack" / "game.json"


def resume_command(save: Path) -> str:
    """The command that goes on with the game saved in ``save``."""
    command = "uno-attack play --resume"
    return command if save == default_save_path() else f"{command} --save {shlex.quote(str(save))}"


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
    source: str = "play"    # the command the store records the match as played with
    bot_delay: float = 0.8
    catch_delay: float = 1.5
    animate: bool = True
    forget_uno: float = 0.2  # how often a bot forgets to call UNO with its play

    def check(self) -> None:
        """Refuse a table no match can be played at: the seats, the people in them, the
        options for that many players."""
        if not 2 <= self.players <= 10:
            raise UnoAttackError(f"--players {self.players}: must be 2 to 10")
        if len(self.humans) > self.players:
            raise UnoAttackError(f"--humans names {len(self.humans)} people but there are "
                                 f"only {self.players} seats (--players)")
        self.options.check_players(self.players, where="--option")

    def check_launcher(self) -> None:
        """Open the launcher named and close it again, so that a spec or policy that
        cannot be used (an unknown backend, a port that is not there, ``fixed:99``) is
        refused before any screen opens; each match opens its own."""
        LauncherSettings(policy=self.policy).make_policy()  # also for backends without one
        open_launcher(self.launcher, seed=_int_seed(self.seed), policy=self.policy).close()


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
    """One match being played: the current round's table and who sits where.

    ``tokens``: a hosted table's secrets, kept in its journal (:mod:`uno_attack.net.host`
    makes them; a resume reads them back).
    """

    def __init__(self, config: GameConfig, *, launcher: Launcher | None = None,
                 tokens: HostTokens | None = None) -> None:
        self.config = config
        config.check()
        names = list(config.humans)
        bot_names = [n for n in BOT_NAMES if n not in names]
        names += bot_names[: config.players - len(names)]
        self.kinds = ["human"] * len(config.humans) + [config.bots] * (
            config.players - len(config.humans))
        self.match = Match(names, options=config.options, seed=config.seed)
        self.tokens = tokens
        # the journal first: a save another game is writing is refused before any launcher
        self.journal = Journal(config.save) if config.save is not None else None
        try:
            self.launcher = launcher or open_launcher(
                config.launcher, seed=_int_seed(config.seed), policy=config.policy)
        except BaseException:
            if self.journal is not None:
                self.journal.close()
            raise
        self.presses_before = 0  # launcher presses in earlier rounds (to resume its policy)
        # the match players in the current round's seats: fixed for the round, while the
        # match's own list of players still in moves on as soon as the round is scored
        self.seating: list[int] = list(self.match.active)
        self.table: Table | None = None
        self.players: list[Any] = []
        self.saved_launcher: str | None = None  # what a resumed save was played with
        self.match_key = uuid.uuid4().hex  # the match's record in the player store
        self.started_at = now()
        self.recorder = Recorder(config.db)
        self.saved: RoundSaved | None = None  # what recording the last round did
        # each finished round's points by match player (None: out of the match by then)
        self.points_by_round: list[list[int | None]] = []
        self.levels: dict[str, Level] = self.recorder.levels(config.humans)
        #: runs a round's store writes, then gives their outcome to its second argument:
        #: at once, or on a front end's writer thread (:mod:`uno_attack.store.background`)
        self.write_records: Callable[[Callable[[], Recorded], Callable[[Recorded], None]],
                                     None] = _at_once

    # -- who is who ---------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return self.match.names

    @property
    def game(self) -> Round:
        assert self.table is not None
        return self.table.game

    def player_of(self, seat: int) -> int:
        """The match player index sitting in a seat of the current round."""
        return self.seating[seat]

    def seat_name(self, seat: int) -> str:
        return self.names[self.player_of(seat)]

    def is_human(self, seat: int) -> bool:
        return self.kinds[self.player_of(seat)] == "human"

    @property
    def human_seats(self) -> list[int]:
        return [s for s in range(len(self.seating)) if self.is_human(s)]

    def called_uno(self, seat: int) -> bool:
        """Whether the player in ``seat`` called UNO for the one card they hold: the last
        event about it was a call (with a play, or alone), not a play without one, a
        catch or a trade that gave them the card."""
        assert self.table is not None
        for event in reversed(self.table.events):
            a = event.action
            if a.seat == seat and a.verb in (Verb.UNO, Verb.PLAY):
                return a.verb is Verb.UNO or a.uno
            if a.target == seat and a.verb in (Verb.CATCH, Verb.PLAY):
                return False
        return False

    def seat_score(self, seat: int) -> int:
        return self.match.scores[self.player_of(seat)]

    # -- rounds --------------------------------------------------------------------
    def _seat_players(self) -> None:
        """Seat the players still in the match for a new round: people, and bots seeded
        for this round."""
        self.seating = list(self.match.active)
        seed = self.config.seed
        self.players = []
        for p in self.seating:
            name, kind = self.names[p], self.kinds[p]
            if kind == "human":
                self.players.append(Human(name))
            else:
                bot_seed = f"{seed}:{self.match.round_no}:{p}"
                self.players.append(make_bot(kind, name, seed=bot_seed,
                                             forget_uno=self.config.forget_uno,
                                             policy=self.config.policy))

    def _meta(self) -> dict[str, Any]:
        c = self.config
        return save_meta(self.match, self.kinds, seed=c.seed, launcher=c.launcher,
                         policy=c.policy, presses_before=self.presses_before,
                         match_key=self.match_key, started_at=self.started_at,
                         points_by_round=self.points_by_round, tokens=self.tokens)

    def start_round(self) -> Table:
        """Deal the next round and start writing its journal."""
        if self.table is not None:
            self.presses_before += len(self.table.record.fires)
        game, record = self.match.deal_round()
        record.meta.update(self._meta())
        self._seat_players()
        self.table = self._new_table(game, record, journal=self.journal)
        return self.table

    def _new_table(self, game: Round, record: Transcript, *,
                   journal: Journal | None) -> Table:
        """A table of this match's players and launcher; only its bots are asked out of
        turn (a person acts out of turn whenever they like)."""
        return Table(game, self.players, self.launcher, record,
                     reload_rng=self.match.reload_rng(), journal=journal,
                     asks=lambda seat: not self.is_human(seat))

    def use_deal(self, record: Transcript) -> Table:
        """Play a given deal (a transcript's set-up) as the next round: a test's or a bug
        report's table, with the same journal and players as a dealt round."""
        if self.table is not None:
            self.presses_before += len(self.table.record.fires)
        self.match.round_no += 1
        self.match.dealer = self.match.active[record.dealer]
        record.options = self.match.options
        record.scores = [self.match.scores[p] for p in self.match.active]
        record.meta.update(self._meta())
        self._seat_players()
        self.table = self._new_table(record.new_round(), record, journal=self.journal)
        return self.table

    def finish_round(self) -> RoundResult:
        """Carry the finished round into the match (scores, next dealer, eliminations) and
        record it, and the match once it is over, in the player store."""
        assert self.table is not None
        result = self.match.score(self.game)
        players = list(self.seating)
        self.match.end_round(result)
        row: list[int | None] = [None] * len(self.names)
        for seat, points in enumerate(result.round_points):
            row[players[seat]] = points
        self.points_by_round.append(row)
        match = match_record(self.match, self.kinds, key=self.match_key,
                             started_at=self.started_at, source=self.config.source)
        record = round_record(self.table, result, match, number=self.match.round_no,
                              players=players)
        self.saved = None  # until this round is recorded
        self.write_records(partial(self._record, record, match if self.match.over else None),
                           self._recorded)
        return result

    def _record(self, record: RoundRecord, match: MatchRecord | None) -> Recorded:
        """Write a finished round (and the match, once over) in the player store; this
        may wait on the disk or on another program's lock."""
        saved = self.recorder.round_finished(record)
        if match is not None:
            self.recorder.match_finished(match)
        return saved, self.recorder.levels(self.config.humans)

    def _recorded(self, outcome: Recorded) -> None:
        self.saved, self.levels = outcome

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

    def save_now(self) -> SaveFailure | None:
        """Write the journal again (after a failed save, when the player asks)."""
        if self.table is None or self.journal is None:
            return None
        return self.journal.write(self.table.record.dumps())

    def launcher_note(self) -> str | None:
        """After a resume: the launcher the save was played with, when it is not this one.

        Only a suggestion: the save never opens a launcher (it may come from anyone)."""
        played = self.saved_launcher
        used = self.config.launcher
        if played is None or played == used:
            return None
        return (f"This game was played with launcher {played!r}; it goes on with {used!r}. "
                f"Pass --launcher {shlex.quote(played)} to use that one.")

    def close(self) -> None:
        self.launcher.close()
        self.recorder.close()
        if self.journal is not None:
            self.journal.close()

    # -- resuming ---------------------------------------------------------------------
    @classmethod
    def resume(cls, config: GameConfig, *, launcher: Launcher | None = None,
               saved: SavedGame | None = None) -> Session:
        """Rebuild the game a journal was writing (``saved``, already read, or the one
        at ``config.save``): the match, the round, every action, from the values saved.

        The save gives the game; the launcher is the one ``config`` names (the command
        line's), never the save's: a save received from someone else must not choose
        what this machine connects to.
        """
        if saved is None:
            if config.save is None:
                raise ResumeError("no save file to resume from")
            saved = read_saved_game(config.save)
        cfg = replace(config, humans=saved.humans, players=len(saved.names),
                      bots=saved.bots or config.bots, policy=saved.policy, seed=saved.seed,
                      options=saved.record.options, save=saved.path)
        try:
            self = cls(cfg, launcher=launcher, tokens=saved.tokens)
        except OptionError as exc:  # the save's options for its players
            raise ResumeError(f"{saved.path}: key 'options': {exc}") from None
        try:
            self._replay(saved)
        except BaseException:
            self.close()
            raise
        return self

    def _replay(self, saved: SavedGame) -> None:
        """Play the saved round's steps again, as the journal recorded them: each bot
        recalls its own actions (it is not asked again: its dice are read by step), and
        the launcher goes on from the presses saved."""
        record = saved.record
        self.kinds = list(saved.kinds)
        self.saved_launcher = saved.launcher
        try:
            self.match = Match(saved.names, options=record.options, seed=saved.seed,
                               scores=list(saved.scores), active=list(saved.active),
                               round_no=saved.round_no, dealer=saved.dealer)
        except UnoAttackError as exc:
            raise ResumeError(f"{saved.path}: {exc}") from None
        self.presses_before = saved.presses_before
        self.match_key = saved.match_key or self.match_key
        self.started_at = saved.started_at or self.started_at
        self.points_by_round = [list(row) for row in saved.points_by_round]
        self._seat_players()
        # the meta in today's form: a save of an earlier version goes on as a new one
        fresh = Transcript(name=record.name, players=record.players, dealer=record.dealer,
                           hands=record.hands, starter=record.starter,
                           launcher=record.launcher, rest=record.rest, options=record.options,
                           scores=record.scores, meta={**record.meta, **self._meta()})
        table = self._new_table(record.new_round(), fresh, journal=None)
        fires = iter(record.fires)
        for i, step in enumerate(record.steps):
            if not isinstance(step, ActionStep):
                continue
            action = step.action
            if not self.is_human(action.seat):
                self.players[action.seat].recall(table.game, action.seat, action)
            fired = next(fires) if action.verb is Verb.PRESS else None  # one per press: checked
            try:
                table.perform(action, fired=fired, eject=False)
            except UnoAttackError as exc:
                raise ResumeError(f"{saved.path}: key 'steps[{i}]': {exc}") from None
        table.journal = self.journal
        self.table = table
        try:
            self.launcher.restore(saved.launcher_state)
        except LauncherError as exc:
            raise ResumeError(f"{saved.path}: key 'meta.presses_before': {exc}") from None


def _at_once(job: Callable[[], Recorded], then: Callable[[Recorded], None]) -> None:
    then(job())


def _int_seed(seed: int | str | None) -> int | None:
    if seed is None or isinstance(seed, int):
        return seed
    return sum(ord(c) * 31**i for i, c in enumerate(seed)) % 2**32  # type: ignore[no-any-return]  # int ** int is Any to typeshed

