"""Bots: players that choose their own actions from what the engine says is legal.

Every bot is made here, by kind, so ``simulate``, ``play``, ``host`` and the environment
get the same bots by name (:func:`make_bot`, :data:`BOT_KINDS`):

- ``random`` picks uniformly among the listed legal actions (:mod:`.uniform`);
- ``basic`` plays sensibly by rules of thumb (:mod:`.basic`);
- ``smart`` searches: information-set Monte Carlo tree search over worlds that agree with
  what it has seen, the ``basic`` bot as its model of the others (:mod:`.smart`);
- ``rule`` is a port of RLCard's UNO rule agent (``uno-rule-v1``), a baseline others
  publish figures against (:mod:`.rule`).

Bots read the engine and ask the rule set what a card is; they hold no rules of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from uno_attack.actions import Action
from uno_attack.bots.basic import BasicBot
from uno_attack.bots.rule import RuleBot
from uno_attack.bots.smart import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, SmartBot
from uno_attack.bots.uniform import RandomBot
from uno_attack.engine import Round

BOT_KINDS = ("random", "basic", "smart", "rule")


class Player(Protocol):
    """Anyone who sits at a table: a bot, or a front end speaking for a person."""

    name: str

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        """The action to take when ``seat`` is the seat to act."""
        ...

    def react(self, game: Round, seat: int) -> Action | None:
        """An action out of turn (call UNO, catch, jump in, go out), or ``None``."""
        ...


def make_bot(kind: str, name: str, *, seed: int | str | None = None,
             forget_uno: float = 0.0, policy: str = "attack",
             playouts: int | None = None,
             budget_ms: float = DEFAULT_BUDGET_MS) -> RandomBot | BasicBot | SmartBot | RuleBot:
    """A bot of this kind. ``forget_uno`` only matters to bots that call UNO; ``policy``
    (the launcher's ejection policy), ``playouts`` and ``budget_ms`` (per decision) only
    to the ``smart`` bot's search."""
    if kind == "random":
        return RandomBot(name, seed=seed)
    if kind == "basic":
        return BasicBot(name, seed=seed, forget_uno=forget_uno)
    if kind == "rule":
        return RuleBot(name, seed=seed)
    if kind == "smart":
        return SmartBot(name, seed=seed, forget_uno=forget_uno, policy=policy,
                        playouts=playouts, budget_ms=budget_ms)
    raise ValueError(f"unknown bot {kind!r} (known: {', '.join(BOT_KINDS)})")


__all__ = ["BOT_KINDS", "DEFAULT_BUDGET_MS", "DEFAULT_PLAYOUTS", "BasicBot", "Player",
           "RandomBot", "RuleBot", "SmartBot", "make_bot"]
