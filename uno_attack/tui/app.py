"""The Textual app: which screen comes when, for a table played here or joined.

It holds no game: a :class:`~uno_attack.tui.control.TableControl` does (a local table
whose flow runs in this app's event loop, or a hosted one). The app first offers an
unfinished saved game (resume it, or start anew), on a first run asks who plays at this
keyboard, opens the new-game screen when a match is to be chosen, the table screen over
a table (running the table's loop as a worker), and a new match or the exit when the
table screen is done.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from textual.app import App
from textual.worker import Worker

from uno_attack.errors import UnoAttackError
from uno_attack.session import GameConfig
from uno_attack.tui.control import TableControl
from uno_attack.tui.screens.names import NamesScreen
from uno_attack.tui.screens.newgame import NewGameScreen
from uno_attack.tui.screens.start import SavedGameOffer, StartScreen
from uno_attack.tui.screens.table import TableScreen


@dataclass
class NewGame:
    """How this app starts a match: the new-game screen pre-filled with ``config`` (and
    ``preset``, the preset the command line named; ``ask=False``: no screen, as with
    ``--quick``), and ``open`` to deal it. ``ask_names``: ask first who plays here (a
    first run); ``remember`` keeps the names chosen for the next run, and says what went
    wrong if it could not."""

    config: GameConfig
    open: Callable[[GameConfig], TableControl]
    preset: str | None = None
    ask: bool = True
    ask_names: bool = False
    remember: Callable[[list[str]], str | None] = field(default=lambda names: None)
    #: the seed of each later match (the same people and rules, a new deal)
    next_seed: Callable[[], int] = field(default=lambda: random.randrange(1_000_000))


class UnoAttackApp(App[None]):
    """UNO Attack at the terminal: the table and its dialogs.

    With ``table``, that table opens at once; with ``offer``, the first screen asks
    whether to resume an unfinished game; else ``new_game`` asks for a match. Without
    ``new_game``, "New match" on the last scoreboard quits. ``start_error`` is why a game
    could not start (a save, path or launcher that cannot be used: exit status 2).
    ``sorted_hand`` is the hand's order (else as dealt: ``play`` passes the remembered
    choice, sorted at first), and ``keep_order`` remembers a change of it (saying what went
    wrong, if anything).
    """

    CSS_PATH = Path(__file__).with_name("uno_attack.tcss")  # also for subclasses elsewhere
    TITLE = "UNO Attack"

    def __init__(self, table: TableControl | None = None, *,
                 new_game: NewGame | None = None, offer: SavedGameOffer | None = None,
                 sorted_hand: bool = False,
                 keep_order: Callable[[bool], str | None] = lambda sorted_hand: None
                 ) -> None:
        super().__init__()
        self.table = table
        self.sorted_hand = sorted_hand  # the hand's order at the next table (t changes it)
        self._keep_order = keep_order
        self.new_game = new_game
        self.offer = offer
        self.table_screen: TableScreen | None = None
        self.start_error: str | None = None
        self._worker: Worker[None] | None = None

    async def on_mount(self) -> None:
        if self.table is not None:
            await self.open_table(self.table)
        elif self.offer is not None:
            await self.push_screen(StartScreen(self.offer.saved), self._start_chosen)
        else:
            await self.choose_new_game()

    async def _start_chosen(self, choice: str | None) -> None:
        if choice == "resume" and self.offer is not None:
            await self._start(self.offer.resume)
        elif choice == "new":
            await self.choose_new_game()
        else:
            self.exit()

    async def choose_new_game(self) -> None:
        new_game = self.new_game
        if new_game is None:
            self.exit()
        elif new_game.ask_names:
            new_game.ask_names = False
            self.push_screen(NamesScreen(), self._names_chosen)
        elif new_game.ask:
            self.push_screen(NewGameScreen(new_game.config, preset=new_game.preset),
                             self._new_game_chosen)
        else:
            await self._start(lambda: new_game.open(new_game.config))

    async def _names_chosen(self, names: list[str] | None) -> None:
        new_game = self.new_game
        if names is None or new_game is None:
            self.exit()
            return
        new_game.config = replace(new_game.config, humans=names,
                                  players=max(new_game.config.players, len(names)))
        self._remember(names)
        await self.choose_new_game()

    def _remember(self, names: list[str]) -> None:
        assert self.new_game is not None
        problem = self.new_game.remember(names) if names else None
        if problem is not None:
            self.notify(problem, severity="warning")

    async def _new_game_chosen(self, config: GameConfig | None) -> None:
        new_game = self.new_game
        if config is None or new_game is None:
            self.exit()
            return
        if config.humans != new_game.config.humans:
            self._remember(config.humans)
        new_game.config = config
        await self._start(lambda: new_game.open(config))

    async def _start(self, open_table: Callable[[], TableControl]) -> None:
        try:
            table = open_table()
        except UnoAttackError as exc:  # a save, path or launcher that cannot be used
            self.start_error = str(exc)
            self.exit(return_code=2)
            return
        await self.open_table(table)

    async def open_table(self, table: TableControl) -> None:
        """Show this table and run its loop (its flow, or its connection)."""
        self.table = table
        self.table_screen = self.make_table_screen(table)
        await self.push_screen(self.table_screen, self._table_closed)
        self._worker = self.run_worker(table.run(), name="table", group="table")
        # What is made by now (Textual, the game's modules, the table) lives as long as
        # the table: a full collection went through all of it (some 75,000 objects, most
        # of a second on a tenth of a core), in the middle of whatever key came then.
        # Frozen once the table is drawn, a collection goes through only what came since
        # (until the table closes: then its cycles can be collected again).
        self.call_after_refresh(self._freeze_heap, self.table_screen)

    def make_table_screen(self, table: TableControl) -> TableScreen:
        """The screen over a table (a replay's app has its own)."""
        return TableScreen(table, sorted_hand=self.sorted_hand, keep_order=self._order_changed)

    def _order_changed(self, sorted_hand: bool) -> str | None:
        self.sorted_hand = sorted_hand
        return self._keep_order(sorted_hand)

    def _freeze_heap(self, table_screen: TableScreen) -> None:
        if self.table_screen is table_screen:  # (not closed meanwhile)
            gc.freeze()

    async def _table_closed(self, choice: str | None) -> None:
        self.close_table()
        if self.new_game is not None:
            self.new_game.config = replace(self.new_game.config,
                                           seed=self.new_game.next_seed())
            await self.choose_new_game()
        else:
            self.exit()

    def close_table(self) -> None:
        """Stop the table's loop and close it (a local launcher closes: a motor stops)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None
        if self.table is not None:
            self.table.close()
        self.table_screen = None
        gc.unfreeze()

    def action_ask_quit(self) -> None:
        if self.table_screen is not None:
            self.table_screen.action_quit_game()
        else:
            self.exit()

    def on_unmount(self) -> None:
        self.close_table()
