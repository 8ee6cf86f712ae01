"""Dialogs that close once: a fast second key (or a key and a click) arriving before the
dialog is gone must not close the screen underneath it as well."""

from __future__ import annotations

from typing import Any, TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen
from textual.widgets import Button

R = TypeVar("R")


class _Once:
    _dismiss_started = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self._dismiss_started:
            # Textual leaves AwaitComplete.nothing unannotated.
            return AwaitComplete.nothing()  # type: ignore[no-untyped-call, no-any-return]
        self._dismiss_started = True
        return super().dismiss(result)  # type: ignore[misc,no-any-return]


class OnceModal(_Once, ModalScreen[R]):
    """A modal dialog that is dismissed at most once."""


class OnceScreen(_Once, Screen[R]):
    """A full screen that is dismissed at most once."""


class _Info(_Once):
    """Only shows something: its button and its ``close`` binding dismiss it."""

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class InfoModal(_Info, OnceModal[None]):
    """A dialog, over the screen below, that only shows something."""


class InfoScreen(_Info, OnceScreen[None]):
    """A full screen that only shows something: nothing below it is drawn (a modal's
    screen below is drawn again, and tinted, with it at every opening)."""
