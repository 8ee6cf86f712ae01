"""The project's error types: all ``ValueError`` subclasses, so one ``except`` serves.

Syntax errors (a text that is not a card, action or option) are kept apart from rule
errors (a well-formed action that is not allowed now), as python-chess keeps
``InvalidMoveError`` apart from ``IllegalMoveError``.
"""

from __future__ import annotations


class UnoAttackError(ValueError):
    """Base of every error this project raises on bad input."""


class InvalidCardError(UnoAttackError):
    """A text that is not a card code or colour of RULES.md."""


class InvalidActionError(UnoAttackError):
    """A text that is not an action of the form ``SEAT VERB [ARGS]``."""


class IllegalActionError(UnoAttackError):
    """A well-formed action that the rules do not allow in the current state."""

    def __init__(self, action: object, reason: str) -> None:
        super().__init__(f"illegal action '{action}': {reason}")
        self.action = action
        self.reason = reason


class ActRefused(UnoAttackError):
    """An act at a table that was not understood or not allowed; nothing changed."""


class OptionError(UnoAttackError):
    """An unknown rule option, or a value an option does not take."""


class TranscriptError(UnoAttackError):
    """A transcript file that is not valid; the message names the file, key and value."""


class LauncherError(UnoAttackError):
    """A launcher spec, policy or backend that cannot be used."""
