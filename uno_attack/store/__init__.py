"""The player store: profiles, levels, and every finished round and match, in SQLite.

One file, ``$XDG_DATA_HOME/uno-attack/players.db`` by default. Front ends fill the plain
records of :mod:`~uno_attack.store.records` (:mod:`~uno_attack.store.from_table` does it
from a table loop) and hand them to a :class:`Recorder`, which never stops a game; the
``stats`` and ``history`` commands read the reports of :class:`PlayerStore`.
"""

from uno_attack.store.db import PlayerStore, default_db_path
from uno_attack.store.levels import LEVELS, Level, level_for
from uno_attack.store.recorder import Recorder
from uno_attack.store.records import (
    HUMAN,
    MatchRecord,
    RoundRecord,
    RoundSeat,
    Seat,
    StoreError,
    career_credit,
)
from uno_attack.store.reports import (
    CardCount,
    LeaderboardRow,
    LevelUp,
    MatchSummary,
    PlayerStats,
    RoundsAndMatches,
    RoundSaved,
    RoundSummary,
    SeatSummary,
    Tally,
)
from uno_attack.store.schema import SCHEMA_VERSION

__all__ = [
    "HUMAN",
    "LEVELS",
    "SCHEMA_VERSION",
    "CardCount",
    "LeaderboardRow",
    "Level",
    "LevelUp",
    "MatchRecord",
    "MatchSummary",
    "PlayerStats",
    "PlayerStore",
    "Recorder",
    "RoundRecord",
    "RoundSaved",
    "RoundSeat",
    "RoundSummary",
    "RoundsAndMatches",
    "Seat",
    "SeatSummary",
    "StoreError",
    "Tally",
    "career_credit",
    "default_db_path",
    "level_for",
]
