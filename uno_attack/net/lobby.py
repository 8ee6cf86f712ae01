"""The lobby of a hosted table: the deal waits until the people have sat down.

While the lobby is open the table is held (no bot moves, no timer runs) and every act is
refused; the page and ``join`` show who is here. It closes, and the round starts, when
every person's seat is taken, when the operator says ``start`` (or presses Enter), or
``start_after`` seconds after it opened. A person not here by then is played by a bot at
once, until they come (the away rule of NETWORK.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from uno_attack.flow import TableFlow


class Lobby:
    """The seats filling before the deal; see the module docstring."""

    def __init__(self, flow: TableFlow, *, start_after: float | None = None,
                 on_start: Callable[[], None] = lambda: None) -> None:
        self.flow = flow
        self.open = True
        self.on_start = on_start
        now = flow.clock.now()
        self.starts_at = None if start_after is None else now + start_after
        self._closed = asyncio.Event()
        flow.hold(True)

    def people(self) -> list[int]:
        """The match players who are people."""
        kinds = self.flow.session.kinds
        return [p for p, kind in enumerate(kinds) if kind == "human"]

    def missing(self) -> list[int]:
        """The people whose seat is not taken yet."""
        return [p for p in self.people() if not self.flow.presence.connected(p)]

    def fields(self) -> dict[str, object]:
        """The view's ``lobby`` (added to NETWORK.md): seconds until the deal or null."""
        left = None
        if self.starts_at is not None:
            left = max(self.starts_at - self.flow.clock.now(), 0.0)
        return {"starts_in": left}

    def refusal(self) -> str:
        """Why an act is refused while the lobby is open."""
        names = self.flow.session.names
        waiting = ", ".join(names[p] for p in self.missing()) or "no one"
        return (f"the round has not started yet: waiting for {waiting} "
                "(the host can start it now)")

    def seat_taken(self) -> None:
        """A person connected: once every seat of a person is taken, the round starts."""
        if self.open and not self.missing():
            self.start("everyone is here")

    def start(self, why: str) -> None:
        """Close the lobby and start the round; a person not here is played by a bot."""
        if not self.open:
            return
        self.open = False
        self._closed.set()
        flow = self.flow
        names = flow.session.names
        absent = self.missing()
        for player in absent:
            flow.presence.go_away(player)
        flow.hold(False)
        line = f"the round starts: {why}"
        if absent:
            who = ", ".join(names[p] for p in absent)
            line += f"; a bot plays for {who} until they come"
        self.on_start()
        flow.note(line)

    async def run(self) -> None:
        """Start the round at ``starts_at`` unless it started before."""
        if self.starts_at is None:
            return
        await self.flow.clock.wait(self._closed, self.starts_at)
        self.start("its start time came")
