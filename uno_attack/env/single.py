"""A single-agent Gymnasium environment: one seat is the agent, the project's bots play the
others (the same bots as ``simulate --bots``).

Observations are the agent's observation array (the AEC environment's ``observation``);
the mask of its legal action ids is ``info["action_mask"]`` and :meth:`action_masks`, the
method sb3-contrib's ``MaskablePPO`` asks for. An action the mask does not allow ends the
episode with -1, as PettingZoo's ``TerminateIllegalWrapper`` does, and says why in
``info["illegal"]``. The round's reward comes on its last step: +1 if the agent's team
won, -1 if not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from uno_attack.bots import BOT_KINDS
from uno_attack.errors import IllegalActionError, UnoAttackError

from .aec import ILLEGAL_REWARD
from .layout import ACTIONS, observation_box
from .seats import (
    RENDER_MODES,
    AgentTable,
    TableConfig,
    action_number,
    check_render_mode,
    whole_number,
)

#: Deals in a row that may end before the agent has a decision (tiny hands) before
#: :meth:`SingleAgentEnv.reset` gives up.
MAX_DEALS = 100


class SingleAgentEnv(gymnasium.Env[np.ndarray, int]):
    """The agent at ``seat`` (default 0) against ``opponents``: one bot kind for every other
    seat (default ``basic``) or a list with one kind per other seat, in seat order. The
    other arguments are the AEC environment's (``players`` default 2)."""

    # gymnasium declares metadata on instances; it is the class's, as in gymnasium's own.
    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # type: ignore[misc]

    def __init__(self, *, seat: int = 0, opponents: str | Sequence[str] = "basic",
                 players: int = 2, rules: str | None = None,
                 options: Mapping[str, object] | None = None, preset: str | None = None,
                 policy: str = "attack", max_steps: int = 10_000,
                 render_mode: str | None = None) -> None:
        check_render_mode(render_mode)
        config = TableConfig.build(players=players, rules=rules, options=options,
                                   preset=preset, policy=policy)
        players = config.players
        seat = whole_number("seat", seat, 0, players - 1)
        others = [s for s in range(players) if s != seat]
        kinds = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != len(others):
            raise UnoAttackError(f"opponents = {opponents!r}: one bot kind for each of the "
                                 f"{len(others)} other seats")
        for kind in kinds:
            if kind not in BOT_KINDS:
                raise UnoAttackError(f"opponents: unknown bot kind {kind!r} (known: "
                                     f"{', '.join(BOT_KINDS)})")
        names = [f"player_{s}" for s in range(players)]
        self.seat = seat
        self.max_steps = whole_number("max_steps", max_steps, 1)
        self.render_mode = render_mode
        self.seats = AgentTable(config, names, dict(zip(others, kinds, strict=True)))
        self.observation_space = observation_box()
        # Discrete samples NumPy integers, which step() takes as the ints it declares.
        self.action_space = spaces.Discrete(len(ACTIONS))  # type: ignore[assignment]
        self._seed = 0
        self._round = 0
        self._ended = True  # no episode until reset(); then until it terminates or truncates

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a round and play the bots up to the agent's first decision (a deal that
        ends before it is dealt again). ``options`` is unused."""
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._round = seed, 0
        elif self._round == 0:
            self._seed = int(self.np_random.integers(2**31))
        self._steps = 0
        for _ in range(MAX_DEALS):
            self.seats.deal(f"{self._seed}:{self._round}")
            self._round += 1
            self._play_bots()
            if not self.seats.game.over:
                self._ended = False
                return self._observation(), self._info()
        raise UnoAttackError(f"{MAX_DEALS} deals in a row ended before seat {self.seat} had "
                             "a decision: the hands are too small for this table")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The agent's action id. Once the episode has terminated or been truncated (or
        before the first :meth:`reset`) a step raises Gymnasium's ``ResetNeeded``: the
        round has no more reward to give."""
        if self._ended:
            raise ResetNeeded("step() with no episode under way: call reset() first")
        number = action_number(action)
        try:
            self.seats.act(self.seat, number)
        except IllegalActionError as exc:
            self._ended = True
            return self._observation(), ILLEGAL_REWARD, True, False, {
                **self._info(), "illegal": str(exc)}
        self._steps += 1
        self._play_bots()
        game = self.seats.game
        if self.render_mode == "human":
            self.render()
        if game.over:
            self._ended = True
            return self._observation(), self.seats.rewards()[self.seat], True, False, \
                self._info()
        self._ended = self._steps >= self.max_steps
        return self._observation(), 0.0, False, self._ended, self._info()

    def action_masks(self) -> np.ndarray:
        """The agent's legal action ids, as booleans (for sb3-contrib's MaskablePPO)."""
        return self.seats.mask(self.seat).astype(bool)

    def _play_bots(self) -> None:
        """The bots' moves up to the agent's next decision (each counts toward
        ``max_steps``)."""
        while not self.seats.game.over and self.seats.decider != self.seat and \
                self._steps < self.max_steps:
            self.seats.bot_step()
            self._steps += 1

    def _observation(self) -> np.ndarray:
        return self.seats.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.seats.mask(self.seat)}

    def render(self) -> str | None:
        return self.seats.show(self.render_mode)

    def close(self) -> None:
        self.seats.close()

