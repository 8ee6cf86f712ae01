"""The PettingZoo AEC environment: every seat an agent, one round an episode.

``env(**kwargs)`` is ``raw_env(**kwargs)`` in PettingZoo's classic wrappers, as its own
classic environments are built: an illegal action ends the episode with -1 for the agent
that took it, an action outside the space is an error, and the AEC call order is
enforced. The arguments, the spaces and the reaction steps are in docs/env.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from uno_attack.errors import InvalidActionError

from .layout import ACTIONS, observation_box
from .seats import (
    RENDER_MODES,
    AgentTable,
    TableConfig,
    action_number,
    check_render_mode,
    whole_number,
)

ILLEGAL_REWARD = -1.0


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], Any]:
    """The environment with PettingZoo's classic wrappers (see the module docstring)."""
    wrapped: AECEnv[str, dict[str, Any], Any] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def observation_space() -> spaces.Dict:
    """The observation of one agent: the array and the mask of its legal action ids."""
    return spaces.Dict({
        "observation": observation_box(),
        "action_mask": spaces.Box(low=0, high=1, shape=(len(ACTIONS),), dtype=np.int8),
    })


# raw_env: PettingZoo's name for the unwrapped environment.
class raw_env(AECEnv[str, dict[str, Any], Any], EzPickle):
    """UNO Attack or classic UNO for 2 to 10 agents, ``player_0`` … ``player_9``.

    ``players``: seats (default 2); ``rules``: ``attack`` or ``classic``; ``options``: rule
    options as a transcript's ``options``; ``preset``: a named set of them (``options``
    override it, ``rules`` overrides both); ``policy``: the launcher's ejection policy;
    ``max_steps``: steps after which a round is truncated; ``render_mode``: ``human``
    (print) or ``ansi`` (return the text).
    """

    # PettingZoo declares metadata on instances; it is the class's, as in PettingZoo's own.
    metadata: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        "render_modes": list(RENDER_MODES), "name": "uno_attack_v0",
        "is_parallelizable": False, "render_fps": 1}

    def __init__(self, *, players: int = 2, rules: str | None = None,
                 options: Mapping[str, object] | None = None, preset: str | None = None,
                 policy: str = "attack", max_steps: int = 10_000,
                 render_mode: str | None = None) -> None:
        EzPickle.__init__(self, players=players, rules=rules, options=options, preset=preset,
                          policy=policy, max_steps=max_steps, render_mode=render_mode)
        super().__init__()  # type: ignore[no-untyped-call]  # AECEnv.__init__ is unannotated
        check_render_mode(render_mode)
        self.config = TableConfig.build(players=players, rules=rules, options=options,
                                        preset=preset, policy=policy)
        self.max_steps = whole_number("max_steps", max_steps, 1)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.config.players)]
        self.agents: list[str] = []  # none until reset() deals a round
        self._seats = {name: s for s, name in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(ACTIONS)) for a in self.possible_agents}
        self.seats = AgentTable(self.config, self.possible_agents)
        self._seed: int | None = None
        self._round = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def seed(self, seed: int | None = None) -> None:
        """Seed the rounds of the next :meth:`reset` (as ``reset(seed=...)`` does)."""
        self._seed = random.randrange(2**31) if seed is None else seed
        self._round = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a round: round ``k`` after ``reset(seed=s)`` is the same deal, launcher and
        play whatever the machine. ``options`` (PettingZoo's reset argument) is unused:
        the rule options are the environment's."""
        if seed is not None or self._seed is None:
            self.seed(seed)
        self.seats.deal(f"{self._seed}:{self._round}")
        self._round += 1
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._decider()

    def _decider(self) -> str:
        seat = self.seats.decider
        return self.agent_selection if seat is None else self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seats[agent]
        return {"observation": self.seats.observation(seat),
                "action_mask": self.seats.mask(seat)}

    def step(self, action: int | None) -> None:
        """The selected agent's action id; ``None`` once it is done (PettingZoo's dead
        step). A step once every agent is done, or before :meth:`reset`, raises
        Gymnasium's ``ResetNeeded`` (the wrapped :func:`env` warns instead, as PettingZoo's
        order enforcing does)."""
        if not self.agents:
            raise ResetNeeded("step() with no round under way: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidActionError(f"action None: {agent} is not done and must act")
        self._cumulative_rewards[agent] = 0.0
        self.seats.act(self._seats[agent], action_number(action))
        self._steps += 1
        game = self.seats.game
        if game.over:
            self.rewards = dict(zip(self.possible_agents, self.seats.rewards(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._decider()
        self._accumulate_rewards()
        if game.over or self._steps >= self.max_steps:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return self.seats.show(self.render_mode)

    def close(self) -> None:
        self.seats.close()
