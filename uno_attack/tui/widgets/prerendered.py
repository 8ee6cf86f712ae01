"""A long text rendered once, at a width of its own, and drawn a line at a time."""

from __future__ import annotations

from rich.console import RenderableType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


class PrerenderedText(ScrollView):
    """A rich renderable (the help's markdown) that scrolls.

    A :class:`~textual.widgets.Static` renders the whole of its renderable again each time
    it is shown or restyled, and a long markdown took tens of milliseconds a time (most of
    a second on a tenth of a core). This one renders it into lines once, at ``width``
    columns (a reading width, not the terminal's: so it can be rendered before it is ever
    laid out, see :meth:`prerender`), and then draws only the lines in sight.

    Its style is the app's stylesheet's (``width: auto`` takes the lines' width, with a
    ``stable`` scrollbar gutter beside them): a widget's own default CSS, the first time
    one is shown, has Textual parse the whole stylesheet again.
    """

    def __init__(self, renderable: RenderableType, width: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.renderable = renderable
        self.text_width = width
        self._lines: list[Strip] | None = None

    def prerender(self) -> None:
        """Render the lines now (when the app is idle), if not done yet."""
        if self._lines is not None:
            return
        console = self.app.console
        options = self.app.console_options.update(highlight=False, width=self.text_width)
        self._lines = [Strip(line, self.text_width)
                       for line in console.render_lines(self.renderable, options, pad=True)]

    @property
    def lines(self) -> list[Strip]:
        """Its lines (rendered now, if :meth:`prerender` was not called)."""
        self.prerender()
        assert self._lines is not None
        return self._lines

    def on_mount(self) -> None:
        self.virtual_size = Size(self.text_width, len(self.lines))  # the size it asks for

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        lines = self.lines
        line = lines[scroll_y + y] if scroll_y + y < len(lines) else Strip([])
        return line.crop_extend(scroll_x, scroll_x + width, self.rich_style) \
            .apply_style(self.rich_style)

