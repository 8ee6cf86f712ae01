"""A table whose seats are agents or bots: whose decision it is, by action ids.

The engine lets seats act out of turn (call UNO, catch, jump in, go out). An agent
environment gives one seat the move at a time, so out-of-turn actions get **reaction
steps**: after an action that opens such a chance (the engine's ``reactions_open``), each
seat but the one to act that may act out of turn is asked, one after the other in the
table's :func:`~uno_attack.turns.reaction_order` (the player who may be caught is asked
last), with its out-of-turn actions and ``wait``. The first to act takes the chance; when
all wait, the seat to act moves. The seat to act is not asked apart: its own turn lists
its calls and catches.

Presses are decided by the simulated launcher's seeded ejection policy, as in
``simulate``; classic draws take cards from the pile.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np

from uno_attack.actions import Action, Verb
from uno_attack.bots import Player, make_bot
from uno_attack.engine import Round
from uno_attack.errors import IllegalActionError, InvalidActionError, UnoAttackError
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options, options_from_cli
from uno_attack.scoring import team_of
from uno_attack.table import Table, TableEvent

from .layout import ACTIONS, action_mask, action_of, observe


@dataclass(frozen=True)
class TableConfig:
    """The table an environment deals its rounds at: seats, rules and options, policy."""

    players: int = 2
    options: Options = field(default_factory=Options)
    policy: str = "attack"

    @classmethod
    def build(cls, *, players: int = 2, rules: str | None = None,
              options: Mapping[str, object] | None = None, preset: str | None = None,
              policy: str = "attack") -> TableConfig:
        """From an environment's arguments: a preset's options, then ``options`` (a
        mapping as a transcript's) over them, then ``rules``. Anything that cannot be
        played raises :class:`~uno_attack.errors.UnoAttackError` saying why."""
        players = whole_number("players", players, 2, 10)
        chosen = options_from_cli(preset, [])
        data = {**chosen.to_dict(), **(options or {})}
        if rules is not None:
            data["rules"] = rules
        parsed = Options.from_mapping(data, where="options")
        # refused now rather than at the first reset: a table the options do not fit (a
        # dealer seat beyond it, hands too big for the deck) and an unknown policy
        Match([f"player_{s}" for s in range(players)], parsed).deal_round()
        open_launcher("sim", policy=policy).close()
        return cls(players, parsed, policy)


def whole_number(name: str, value: object, low: int, high: float = math.inf) -> int:
    """An environment's count argument as an ``int``: a Python or NumPy integer (never a
    bool, float or string) from ``low`` to ``high``."""
    # typeshed's numbers.Integral has no reflected comparison with an int.
    if isinstance(value, bool) or not isinstance(value, Integral) or not low <= value <= high:  # type: ignore[operator]
        bounds = f"{low} or more" if high == math.inf else f"{low} to {high}"
        raise UnoAttackError(f"{name} = {value!r}: must be {bounds} (a whole number)")
    return int(value)


def action_number(action: object) -> int:
    """A step's action as an ``int``: an integer (NumPy's too) as Gymnasium's ``Discrete``
    space holds them; ``26.7`` or ``"26"`` is not an action id, rather than action 26."""
    if isinstance(action, bool) or not isinstance(action, Integral):
        raise InvalidActionError(f"action {action!r}: an action id is an integer, 0 … "
                                 f"{len(ACTIONS) - 1}")
    return int(action)


RENDER_MODES = ("human", "ansi")


def check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in RENDER_MODES:
        raise UnoAttackError(f"render_mode {mode!r}: choose {' or '.join(RENDER_MODES)}")


class _Agent:
    """A seat played through the environment: its moves come from ``step``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        raise RuntimeError(f"{self.name} is an agent: its action comes from step()")

    def react(self, game: Round, seat: int) -> Action | None:
        raise RuntimeError(f"{self.name} is an agent: its action comes from step()")


class AgentTable:
    """One round after another at a :class:`TableConfig`, seats named ``names``; the seats
    in ``bots`` (seat → kind) are played by the project's bots."""

    def __init__(self, config: TableConfig, names: Sequence[str],
                 bots: Mapping[int, str] | None = None) -> None:
        self.config = config
        self.names = list(names)
        self.bot_kinds = dict(bots or {})
        self.table: Table  # and its game: set by deal()
        self.game: Round
        self._mask: np.ndarray | None = None  # the decider's, until the next action

    # -- dealing -------------------------------------------------------------------
    def deal(self, seed: str) -> None:
        """Deal a fresh round, everything in it drawn from ``seed``."""
        self.close()
        match = Match(self.names, self.config.options, seed=seed)
        game, record = match.deal_round()
        players: list[Player] = [
            make_bot(self.bot_kinds[s], name, seed=f"{seed}:{name}", policy=self.config.policy)
            if s in self.bot_kinds
            else _Agent(name) for s, name in enumerate(self.names)]
        launcher = open_launcher("sim", seed=random.Random(f"{seed}:launcher").getrandbits(32),
                                 policy=self.config.policy)
        self.game = game
        self.table = Table(game, players, launcher, record, reload_rng=match.reload_rng(),
                           recording=False, asks=self._asked, ejects_draws=False)
        self._mask = None

    def close(self) -> None:
        table = getattr(self, "table", None)  # none before the first deal
        if table is not None:
            table.launcher.close()

    # -- state -----------------------------------------------------------------------
    @property
    def decider(self) -> int | None:
        """The seat whose decision the round waits for; ``None`` once it is over."""
        decision = self.table.turns.decision
        return None if decision is None else decision.seat

    @property
    def reacting(self) -> bool:
        """Whether the decider is asked out of its turn (a reaction step)."""
        return self.table.turns.reacting

    def observation(self, seat: int) -> np.ndarray:
        return observe(self.game, seat, reacting=self.reacting and self.decider == seat)

    def mask(self, seat: int) -> np.ndarray:
        """The action ids ``seat`` may take now: none unless it is the decider."""
        if seat != self.decider:
            return action_mask((), self.game.players, waiting=False)
        return self._decider_mask().copy()

    def _decider_mask(self) -> np.ndarray:
        """The decider's mask, made once per decision."""
        if self._mask is None:
            game = self.game
            self._mask = action_mask(game.legal_actions(self.decider), game.players,
                                     waiting=self.reacting)
        return self._mask

    def rewards(self) -> list[float]:
        """+1 for each seat of the winner's team, -1 for every other, once over."""
        game = self.game
        winner, teams = game.winner, game.options.teams
        assert winner is not None, "the round is not over"
        return [1.0 if team_of(s, teams) == team_of(winner, teams) else -1.0
                for s in range(game.players)]

    # -- acting ----------------------------------------------------------------------
    def act(self, seat: int, action_id: int) -> None:
        """The decider's choice, by id; an id its mask does not allow raises
        :class:`~uno_attack.errors.IllegalActionError` and changes nothing."""
        decider = self.decider
        if decider is None:
            raise IllegalActionError(f"action {action_id}", "the round is over")
        if seat != decider:
            raise IllegalActionError(f"action {action_id}", f"it is {self.names[decider]}'s "
                                     f"decision, not {self.names[seat]}'s")
        if not 0 <= action_id < len(ACTIONS) or not self._decider_mask()[action_id]:
            slot = ACTIONS[action_id].text if 0 <= action_id < len(ACTIONS) else "no such id"
            reason = self._refusal(seat, action_id)
            raise IllegalActionError(f"action {action_id} ({slot})", reason)
        action = action_of(action_id, seat, self.game)
        if action is None:
            self.perform(None)
            return
        self.table.perform(action, checked=True)  # the mask lists only legal actions
        if action.verb is Verb.PLAY and self.game.uno_seat == seat:
            self.table.perform(Action.call_uno(seat), checked=True)  # one card left: UNO!
        self._mask = None

    def _refusal(self, seat: int, action_id: int) -> str:
        if not 0 <= action_id < len(ACTIONS):
            return f"the actions are 0 … {len(ACTIONS) - 1}"
        if ACTIONS[action_id].verb == "wait":
            return "wait is for a reaction step only: the seat to act must act"
        try:
            action = action_of(action_id, seat, self.game)
        except ValueError as exc:
            return str(exc)
        assert action is not None
        return self.game.illegal_reason(action) or (
            "a reaction step offers only out-of-turn actions" if self.reacting else "not legal")

    def bot_step(self) -> None:
        """The decider is a bot: its move, or its reaction (else it waits). Only its own:
        the next decider may be an agent."""
        seat, game = self.decider, self.game
        assert seat is not None, "the round is over"
        player = self.table.players[seat]
        if self.reacting:
            action = player.react(game, seat)
            self.perform(action if action is not None and game.is_legal(action) else None)
        else:
            self.perform(player.choose(game, seat, game.legal_actions()))

    def perform(self, action: Action | None) -> TableEvent | None:
        """Make the decider's action (``None``: wait) and see who decides next."""
        self._mask = None
        if action is None:
            self.table.turns.declined()
            return None
        return self.table.perform(action)

    def _asked(self, seat: int) -> bool:
        """Whether ``seat`` gets a reaction step: not the seat to act (its turn lists its
        calls and catches), nor a seat that could only wait."""
        game = self.game
        return seat != game.to_act and bool(game.legal_actions(seat))

    # -- text ------------------------------------------------------------------------
    def show(self, mode: str | None) -> str | None:
        """An environment's ``render()``: print the text (``human``) or return it."""
        text = self.render()
        if mode == "human":
            print(text)
            return None
        return text

    def render(self) -> str:
        """The round as text for a person watching: every hand, what is owed, the last
        action."""
        game = self.game
        rules = game.rules
        color = game.color.label if game.color is not None else "none yet"
        lines = [f"{rules.title}, {game.players} players: top {game.top} ({color}), "
                 f"{game.direction_name}, {len(game.stock)} to take, "
                 f"{len(game.discard)} discarded"]
        decider = self.decider
        for seat, hand in enumerate(game.hands):
            mark = ">" if seat == decider else " "
            cards = " ".join(c.code for c in rules.sort(hand)) or "(none)"
            lines.append(f"{mark} {self.names[seat]}: {cards}")
        for owed in game.owed:
            lines.append(f"  {self.names[owed.seat]} owes {owed.describe()}")
        if self.reacting and decider is not None:
            lines.append(f"  {self.names[decider]} may act out of turn")
        if self.table.events:
            lines.append(f"  last: {self.table.events[-1].describe()}")
        if game.over:
            lines.append(f"  {self.names[game.winner]} won the round")  # type: ignore[index]
        return "\n".join(lines)
