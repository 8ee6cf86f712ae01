"""A front end's link to the player store, which never stops a game.

Opening or writing the store can fail: a damaged, read-only or locked file, a full disk.
Then the game goes on unrecorded, and :attr:`Recorder.problem` says why in one line, for
the screen or for stderr. ``play`` and ``host`` record through this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from uno_attack.store.db import PlayerStore
from uno_attack.store.levels import Level
from uno_attack.store.records import MatchRecord, RoundRecord, StoreError
from uno_attack.store.reports import PlayerStats, RoundSaved


class Recorder:
    """Records finished rounds and matches in the store at ``path`` (``None``: nowhere)."""

    def __init__(self, path: Path | None) -> None:
        self.store: PlayerStore | None = None
        self.problem: str | None = None  # the last thing that went wrong, in one line
        if path is None:
            return
        try:
            self.store = PlayerStore.open(path)
        except StoreError as exc:
            self.problem = f"not recording games: {exc}"

    @property
    def recording(self) -> bool:
        return self.store is not None

    def round_finished(self, record: RoundRecord) -> RoundSaved | None:
        """Record a round; ``None`` when it could not be (see :attr:`problem`)."""
        if self.store is None:
            return None
        try:
            return self.store.record_round(record)
        except StoreError as exc:
            self.problem = f"round {record.number} was not recorded: {exc}"
            return None

    def match_finished(self, record: MatchRecord) -> bool:
        """Record a match's end; false when it could not be (see :attr:`problem`)."""
        if self.store is None:
            return False
        try:
            self.store.record_match(record)
        except StoreError as exc:
            self.problem = f"the end of the match was not recorded: {exc}"
            return False
        return True

    def levels(self, names: Iterable[str]) -> dict[str, Level]:
        """The levels of these people, as far as the store can tell (none when it cannot)."""
        if self.store is None:
            return {}
        try:
            return self.store.levels(names)
        except StoreError as exc:
            self.problem = f"cannot read the players' levels: {exc}"
            return {}

    def player_stats(self, names: Sequence[str]) -> dict[str, PlayerStats | None]:
        """Each person's record (``None``: nothing recorded yet); empty when the store
        cannot say (see :attr:`problem`)."""
        if self.store is None:
            return {}
        try:
            known = self.store.levels(names)
            return {name: self.store.player_stats(name) if name in known else None
                    for name in names}
        except StoreError as exc:
            self.problem = f"cannot read the players' records: {exc}"
            return {}

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
