"""What a table asks a person when the launcher could not finish a take, and what the
answer means.

A press (or a classic draw's eject) that jams, runs out or loses count leaves the game not
knowing how many cards came out: the real cards on the table are the truth, and only a
person can read them. The flow puts a :class:`LauncherQuestion` to the acting seat (and
the host's operator); its :meth:`~LauncherQuestion.prompt` is what a screen or a phone
shows, and :meth:`~LauncherQuestion.answer` turns a reply (``retry`` or ``fired N``) into
what the flow does next. Nothing here touches the launcher or the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from uno_attack.actions import Verb
from uno_attack.errors import ActRefused
from uno_attack.views import Prompt

#: The most ``fired N`` answers a prompt lists when the take's size is unknown.
MAX_LISTED_COUNT = 12


@dataclass(frozen=True)
class Retry:
    """Eject the ``cards`` a take still owes (after a jam, or a hopper that ran out)."""

    cards: int


@dataclass(frozen=True)
class PressAgain:
    """Press again from the start: the launcher did not answer, so nothing is known."""


@dataclass(frozen=True)
class NoRetry:
    """Nothing to try again (the launcher lost count): a person says how many came out."""


#: What ``retry`` does for a question, if anything.
Remedy = Retry | PressAgain | NoRetry


@dataclass(frozen=True)
class Fired:
    """The answer ``fired N``: ``count`` cards came out in all."""

    count: int


@dataclass(frozen=True)
class LauncherQuestion:
    """A take the launcher could not finish, put to a person."""

    seat: int
    verb: Verb         # press, or draw (classic, the launcher serving as the pile)
    fired: int         # what is known to have come out so far
    retry: Remedy      # what "retry" does, if anything
    asked: int | None  # what the take wanted, if known
    available: int     # cards the game believes the launcher holds
    mark: str          # what the log adds to the take ("time ran out" …)
    message: str = ""

    @property
    def retryable(self) -> bool:
        """Whether the prompt offers ``retry`` (and the launcher's button means it)."""
        return not isinstance(self.retry, NoRetry)

    def prompt(self) -> Prompt:
        """The question as a view shows it, with every answer it takes."""
        top = self.asked if self.asked is not None else MAX_LISTED_COUNT
        upper = max(min(self.available, top), self.fired)
        answers = (["retry"] if self.retryable else []) + [
            f"fired {n}" for n in range(upper + 1)]
        return Prompt(self.seat, self.message, tuple(answers), self.fired)

    def answer(self, text: str) -> Retry | PressAgain | Fired:
        """What ``text`` asks for; raises :class:`ActRefused` for anything else."""
        words, retry = text.split(), self.retry
        if words == ["retry"] and not isinstance(retry, NoRetry):
            return retry
        if len(words) == 2 and words[0] == "fired" and words[1].isdigit():
            count = int(words[1])
            if count > max(self.available, self.fired):
                raise ActRefused(f"fired {count}: the launcher held only "
                                 f"{self.available} cards")
            return Fired(count)
        offer = "retry, or " if self.retryable else ""
        raise ActRefused(f"the launcher needs an answer first: {offer}fired N "
                         f"(how many cards came out), not {text!r}")
