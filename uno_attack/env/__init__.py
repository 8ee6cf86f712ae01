"""UNO Attack and classic UNO for reinforcement learning: a PettingZoo AEC environment
(:func:`env`, :func:`raw_env`) and a single-agent Gymnasium one against the project's bots
(:class:`SingleAgentEnv`). The spaces are fixed for every rule set and table (docs/env.md).

It needs the ``rl`` extra (``pip install 'uno-attack[rl]'``: PettingZoo, Gymnasium,
NumPy); nothing else in the project imports this package, so the game never needs NumPy.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401 - only to say what is missing
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:
    raise ImportError(f"uno_attack.env needs the 'rl' extra: pip install 'uno-attack[rl]' "
                      f"({exc})") from exc

from .aec import env, raw_env
from .layout import ACTIONS, OBSERVATION, action_id, action_of
from .single import SingleAgentEnv

__all__ = ["ACTIONS", "OBSERVATION", "SingleAgentEnv", "action_id", "action_of", "env",
           "raw_env"]
