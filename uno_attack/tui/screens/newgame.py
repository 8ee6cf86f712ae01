"""The new-game screen: the few choices that matter first (who plays, how many bots and
how strong, which rules), and every house rule behind a "House rules" section, each line
in plain words with its one-line meaning (the raw option key in its tooltip).

Everything on it comes from the declarations: the rule sets' titles, the presets'
meanings, :data:`~uno_attack.options.OPTION_SPECS` (default, values, and the option a
value needs) and their plain words in :data:`~uno_attack.wording.OPTION_WORDS`. An option
that has no meaning with the others as chosen (an Attack option in a classic game,
``rounds`` outside a ``net`` match) is shown disabled, saying what it needs. The options
are built as the engine builds them, so a combination it refuses shows its message, and
Start stays off until it is mended. Enter on Start (the first focus) takes the defaults
the command line gave.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Collapsible, Footer, Input, Label, Select

from uno_attack.errors import OptionError, UnoAttackError
from uno_attack.options import OPTION_SPECS, PRESETS, Choice, Flag, Options, OptionSpec
from uno_attack.rules import RULE_SETS
from uno_attack.saved_game import name_problem
from uno_attack.session import GameConfig
from uno_attack.tui.screens.once import OnceScreen
from uno_attack.wording import OPTION_WORDS, VALUE_WORDS

NO_PRESET = "none"
MAX_SEATS = 10

#: Bot strength as offered to players, each a real bot (README "Bots" has their measured
#: win rates against each other); ``random`` stays for research.
STRENGTHS: dict[str, tuple[str, str]] = {
    "rule": ("easy", "plays any card that fits, a wild only when nothing else does"),
    "basic": ("normal", "plays by rules of thumb: sheds points, keeps wilds, stacks, catches"),
    "smart": ("hard", "thinks ahead: plays each choice out hundreds of times"),
    "random": ("random (for research)", "any legal move, at random"),
}


def preset_title(name: str) -> str:
    """A preset by its plain name: ``no-mercy`` is "No mercy"."""
    return name.replace("-", " ").capitalize()


def parse_people(text: str) -> list[str]:
    """The names typed, separated by commas, each fit for a badge and each once; else
    :class:`UnoAttackError` saying which name is refused."""
    people = [name.strip() for name in text.split(",") if name.strip()]
    for name in people:
        why = name_problem(name)
        if why is not None:
            raise UnoAttackError(f"people: {name!r}: {why}")
    if len({name.casefold() for name in people}) != len(people):
        raise UnoAttackError("people: every name must differ (case aside: profiles "
                             "are by name)")
    return people


class NewGameScreen(OnceScreen[GameConfig]):
    """Returns the config of the match to start, or ``None`` (quit)."""

    BINDINGS = [  # noqa: RUF012
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("escape", "quit", "Quit"),
    ]

    def __init__(self, config: GameConfig, *, preset: str | None = None) -> None:
        super().__init__()
        self.base = config
        self.preset = preset if preset in PRESETS else NO_PRESET
        self.problem: str | None = None

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        config = self.base
        options = config.options
        strengths = [(label, kind) for kind, (label, _) in STRENGTHS.items()]
        with Vertical(id="newgame"):
            yield Label("A new game", classes="dialog-title")
            yield Label("Enter starts with these (Ctrl+S from any field) · Tab: the next "
                        "field · each says what it means", id="newgame-hint")
            with VerticalScroll(id="newgame-fields"):
                yield _row("Players", Input(", ".join(config.humans), compact=True,
                                            id="people"),
                           "the names of the people at this keyboard, separated by commas",
                           ident="people")
                yield _row("Bots", Input(str(config.players - len(config.humans)),
                                         type="integer", compact=True, id="bots"),
                           "how many bots fill the other seats (2 to 10 seats in all)",
                           ident="bots")
                yield _row("Bot strength", Select(strengths, value=config.bots,
                                                  allow_blank=False, compact=True,
                                                  id="bot-kind"),
                           STRENGTHS[config.bots][1], ident="bot-kind",
                           help_id="bot-meaning")
                yield _row("Rules", Select(
                    [(rules.title[:1].upper() + rules.title[1:], name)
                     for name, rules in RULE_SETS.items()],
                    value=options.rules, allow_blank=False, compact=True, id="rules"),
                    OPTION_WORDS["rules"][1], ident="rules")
                yield _row("House rules", Select(
                    [("none", NO_PRESET), *((preset_title(name), name) for name in PRESETS)],
                    value=self.preset, allow_blank=False, compact=True, id="preset"),
                    self._preset_meaning(self.preset), ident="preset",
                    help_id="preset-meaning")
                with Collapsible(title="Every house rule, one by one", collapsed=True,
                                 id="house-rules"):
                    for spec in OPTION_SPECS.values():
                        if spec.name != "rules":
                            label, meaning = OPTION_WORDS[spec.name]
                            row = _row(label, _field(spec, getattr(options, spec.name)),
                                       meaning, ident=spec.name, help_id=f"help-{spec.name}")
                            row.tooltip = f"--option {spec.name}=… ({spec.help})"
                            yield row
            yield Label("", id="newgame-problem", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Start (Enter)", id="start", variant="primary")
                yield Button("Quit (Esc)", id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self._refresh()
        # Tab goes round the fields (not the list of them, nor Quit: Esc is Quit)
        self.query_one("#newgame-fields").can_focus = False
        self.query_one("#quit", Button).can_focus = False
        self.query_one("#start", Button).focus()

    # -- reading it ------------------------------------------------------------------------
    def _preset_meaning(self, name: str) -> str:
        preset = PRESETS.get(name)
        return preset.meaning if preset is not None else "no named set: the options below"

    def _values(self) -> dict[str, Any]:
        """The option values as the fields show them (refusing a value that is not one)."""
        values: dict[str, Any] = {"rules": self.query_one("#rules", Select).value}
        for spec in OPTION_SPECS.values():
            if spec.name == "rules":
                continue
            field = self.query_one(f"#opt-{spec.name}")
            raw = field.value  # type: ignore[attr-defined]
            try:
                values[spec.name] = spec.parse(raw)
            except ValueError as exc:
                raise UnoAttackError(f"option {spec.name!r} = {raw!r}: {exc}") from None
        return values

    def _people(self) -> list[str]:
        return parse_people(self.query_one("#people", Input).value)

    def config(self) -> GameConfig:
        """The match as chosen, or :class:`UnoAttackError` saying what is refused."""
        values = self._values()
        people = self._people()
        bots_text = self.query_one("#bots", Input).value.strip() or "0"
        if not bots_text.isdigit():
            raise UnoAttackError(f"bots: {bots_text!r} is not a number of bots")
        players = len(people) + int(bots_text)
        if not 2 <= players <= MAX_SEATS:
            raise UnoAttackError(f"{players} seats ({len(people)} people and {bots_text} "
                                 f"bots): a table has 2 to {MAX_SEATS}")
        for spec in OPTION_SPECS.values():
            if self._needs(spec, values) is not None:
                values[spec.name] = spec.default  # disabled: means nothing here
        options = Options(**values)
        options.check_players(players, where="the table")
        bots = self.query_one("#bot-kind", Select).value
        return replace(self.base, humans=people, players=players, bots=str(bots),
                       options=options)

    @staticmethod
    def _needs(spec: OptionSpec, values: dict[str, Any]) -> str | None:
        """What this option needs that the others lack (it is then disabled), or ``None``."""
        if spec.needs is None:
            return None
        other, allowed = spec.needs
        if values.get(other) in allowed:
            return None
        return f"only with {OPTION_WORDS[other][0]}: {' or '.join(map(str, allowed))}"

    def _refresh(self) -> None:
        """Disable what means nothing now, and say what the engine refuses."""
        try:
            values = self._values()
        except UnoAttackError:
            values = {"rules": self.query_one("#rules", Select).value}
        for spec in OPTION_SPECS.values():
            if spec.name == "rules":
                continue
            needs = self._needs(spec, values)
            self.query_one(f"#opt-{spec.name}").disabled = needs is not None
            self.query_one(f"#row-{spec.name}").set_class(needs is not None, "-disabled")
            meaning = OPTION_WORDS[spec.name][1]
            help_text = meaning if needs is None else f"{meaning} ({needs})"
            self.query_one(f"#help-{spec.name}", Label).update(help_text)
        try:
            self.config()
        except UnoAttackError as exc:
            self.problem = _plainly(exc)
        else:
            self.problem = None
        self._say(self.problem)
        self.query_one("#start", Button).disabled = self.problem is not None

    def _say(self, problem: str | None) -> None:
        label = self.query_one("#newgame-problem", Label)
        label.update(f"⚠ {problem}" if problem else "")
        label.display = problem is not None

    # -- changes ---------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "bot-kind" and event.value in STRENGTHS:
            self.query_one("#bot-meaning", Label).update(STRENGTHS[str(event.value)][1])
        if event.select.id == "preset" and event.value != self.preset:
            self.preset = str(event.value)  # (a Select says its first value too)
            self._apply_preset(self.preset)
        self._refresh()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._refresh()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def _apply_preset(self, name: str) -> None:
        """Show the preset's options (over the defaults) in the fields; the rule set stays
        unless the preset names one."""
        self.query_one("#preset-meaning", Label).update(self._preset_meaning(name))
        preset = PRESETS.get(name)
        chosen = dict(preset.options) if preset is not None else {}
        self.query_one("#rules", Select).value = str(
            chosen.pop("rules", self.query_one("#rules", Select).value))
        for spec in OPTION_SPECS.values():
            if spec.name != "rules":
                _show(self.query_one(f"#opt-{spec.name}"), chosen.get(spec.name, spec.default))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_quit()

    def action_start(self) -> None:
        try:
            config = self.config()
        except UnoAttackError as exc:
            self.problem = _plainly(exc)
            self._say(self.problem)
            self.app.bell()
            return
        self.dismiss(config)

    def action_quit(self) -> None:
        self.dismiss(None)


def _row(label: str, field: Widget, help_text: str, *, ident: str,
         help_id: str | None = None) -> Horizontal:
    return Horizontal(Label(label, classes="opt-name"), field,
                      Label(help_text, classes="opt-help", id=help_id),
                      classes="opt-row", id=f"row-{ident}")


def _field(spec: OptionSpec, value: object) -> Widget:
    """The field for one option: a list to choose from (yes or no, or its values), or a
    box to type in."""
    ident = f"opt-{spec.name}"
    if isinstance(spec.parse, Flag):
        return Select([("no", False), ("yes", True)], value=bool(value), allow_blank=False,
                      compact=True, id=ident)
    if isinstance(spec.parse, Choice):
        return Select([(VALUE_WORDS.get((spec.name, str(v)), str(v)), v)
                       for v in spec.parse.samples], value=value,
                      allow_blank=False, compact=True, id=ident)
    return Input(str(value), compact=True, id=ident)


def _show(field: Widget, value: object) -> None:
    if isinstance(field, Select):
        field.value = value
    elif isinstance(field, Input):
        field.value = str(value)


def _plainly(problem: UnoAttackError) -> str:
    """A refused choice as the screen says it: by the option's label, in a player's words
    where the options give them (the command line's message names the key and the rule)."""
    if isinstance(problem, OptionError) and problem.option is not None and problem.plain:
        return f"{OPTION_WORDS[problem.option][0]}: {problem.plain}"
    return str(problem)
