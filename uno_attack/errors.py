"""The project's error types: all ``ValueError`` subclasses, so one ``except`` serves.

Syntax errors (a text that is not a card, action or option) are kept apart from rule
errors (a well-formed action that is not allowed now), as python-chess keeps
``InvalidMoveError`` apart from ``IllegalMoveError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from uno_attack.refusal import Part, Refusal


class UnoAttackError(ValueError):
    """Base of every error this project raises on bad input."""


class InvalidCardError(UnoAttackError):
    """A text that is not a card code or colour of RULES.md."""


class InvalidActionError(UnoAttackError):
    """A text that is not an action of the form ``SEAT VERB [ARGS]``."""


class IllegalActionError(UnoAttackError):
    """A well-formed action that the rules do not allow in the current state.

    ``reason`` is the engine's text; ``refusal`` the same as facts (the rule and the seats
    it names) where the engine gave them, so a front end can say it with names
    (:meth:`parts`)."""

    def __init__(self, action: object, reason: str | Refusal) -> None:
        super().__init__(f"illegal action '{action}': {reason}")
        self.action = action
        self.reason = str(reason)
        self.refusal = None if isinstance(reason, str) else reason

    def parts(self) -> tuple[Part, ...]:
        """The message as text and seats (:func:`uno_attack.refusal.say` names them)."""
        if self.refusal is None:
            return (str(self),)
        return self.refusal.parts(f"illegal action '{self.action}': ")


class ActRefused(UnoAttackError):
    """An act at a table that was not understood or not allowed; nothing changed. ``parts``:
    the message with the seats it names (:func:`~uno_attack.refusal.say` names them);
    ``refusal``: the engine's, when the rules refused the act."""

    def __init__(self, message: str, parts: tuple[Part, ...] | None = None,
                 refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.parts = (message,) if parts is None else parts
        self.refusal = refusal


class OptionError(UnoAttackError):
    """An unknown rule option, or a value an option does not take. ``option`` and
    ``plain``, where given: the option at fault and the reason in a player's words (no
    option key, no rule book), for a screen that names options by their labels."""

    def __init__(self, message: str, *, option: str | None = None,
                 plain: str | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.plain = plain


class TranscriptError(UnoAttackError):
    """A transcript file that is not valid; the message names the file, key and value."""


class LauncherError(UnoAttackError):
    """A launcher spec, policy or backend that cannot be used."""
