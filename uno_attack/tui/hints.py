"""A hint: what the hard bot (``smart``) would do in your place, with the share of its
playouts each of its top choices won.

The bot is handed the round as it is, but it decides only from what your seat sees: each
playout deals the cards you cannot see anew (:mod:`uno_attack.bots.worlds`), so the same
hint comes whatever the others hold. A fresh bot is asked each time, so it knows nothing
of the round's past that your seat's view does not show.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

from uno_attack.actions import Action, Verb
from uno_attack.bots import SmartBot
from uno_attack.engine import Round
from uno_attack.wording import count

TOP = 3  # choices shown


@dataclass(frozen=True)
class Choice:
    """One move the bot tried: how many of its playouts began with it, and won."""

    action: Action
    playouts: int
    won: int

    @property
    def share(self) -> float:
        return self.won / self.playouts if self.playouts else 0.0


@dataclass(frozen=True)
class Hint:
    """The bot's pick, its top choices (best first) and the search's size."""

    pick: Action
    choices: tuple[Choice, ...]
    playouts: int
    seconds: float


@runtime_checkable
class Hinting(Protocol):
    """A table that can give its person hints (a local one; a hosted one only when its
    host allows them)."""

    def hint(self) -> Callable[[], Hint] | str:
        """The question to ask (it runs a search: off the event loop), or why there is
        none now."""
        ...


def ask_hard_bot(game: Round, seat: int, *, seed: int | str | None, policy: str,
                 clock: Callable[[], float] = time.perf_counter) -> Hint:
    """What ``smart`` would do at ``seat`` of ``game`` (a copy the caller owns)."""
    bot = SmartBot("hint", seed=seed, policy=policy, clock=clock)
    started = clock()
    pick = bot.choose(game, seat, game.legal_actions(seat))
    search = bot.last
    if search is None:  # one sensible move: nothing was tried
        return Hint(pick, (), 0, clock() - started)
    choices = sorted((Choice(action, visits, round(search.wins[action]))
                      for action, visits in search.visits.items()),
                     key=lambda c: (-c.share, -c.playouts))
    return Hint(pick, tuple(choices[:TOP]), search.playouts, search.seconds)


def hint_lines(hint: Hint, say: Callable[[Action], str]) -> list[str]:
    """The hint in words, a line per choice (``say`` words a move)."""
    if not hint.choices:
        return [f"Only one move makes sense: {say(hint.pick)}."]
    lines = [f"The hard bot would {say(hint.pick)}. In {count(hint.playouts, 'playout')} "
             f"({hint.seconds:.1f} s), its top choices won:"]
    for choice in hint.choices:
        lines.append(f"  {choice.share:4.0%}  {say(choice.action)} "
                     f"({choice.won} of {choice.playouts})")
    if replace(hint.pick, uno=False) != hint.choices[0].action:
        lines.append("It keeps to its usual move unless another wins clearly more often.")
    return lines


def say_move(action: Action, card_name: Callable[..., str], names: Sequence[str]) -> str:
    """A move in words: ``play red 5``, ``play Wild naming blue``, ``press the launcher``."""
    verb = action.verb
    if verb is Verb.PLAY:
        words = "play " + " and ".join(card_name(card) for card in action.cards)
        if action.color is not None:
            words += f" naming {action.color.label}"
        if action.target is not None:
            words += f", trading with {names[action.target]}"
        return words
    if verb is Verb.CATCH and action.target is not None:
        return f"catch {names[action.target]}"
    return {Verb.PRESS: "press the launcher", Verb.DRAW: "draw a card", Verb.PASS: "pass",
            Verb.CHALLENGE: "challenge the Wild Draw Four", Verb.OUT: "go out",
            Verb.UNO: "call UNO"}.get(verb, str(verb))
