"""The footer of keys, rebuilt only when the keys it shows change."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

_Keys = tuple[tuple[str, str, str, bool, str], ...]


class KeysFooter(Footer):
    """Textual's footer, which rebuilds its keys (a dozen widgets, each styled and laid
    out again) whenever the screen's bindings are refreshed: the table screen refreshes
    them at every change of the game, and a dialog opening or closing does too, while the
    keys shown mostly stay the same. On a tenth of a core each rebuild took about a
    second; this one rebuilds only when a key, its name or whether it applies changed."""

    _shown: _Keys | None = None

    def _keys(self) -> _Keys:
        return tuple((binding.key, binding.action, binding.description, enabled, tooltip)
                     for _, binding, enabled, tooltip in self.screen.active_bindings.values()
                     if binding.show)

    def compose(self) -> ComposeResult:
        self._shown = self._keys() if self._bindings_ready else None
        yield from super().compose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self._shown is not None and self.is_attached and screen is self.screen \
                and self._keys() == self._shown:
            return
        super().bindings_changed(screen)
