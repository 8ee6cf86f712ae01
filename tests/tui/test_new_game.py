"""The new-game screen: pre-filled from the command line, every option with its meaning,
options that mean nothing under the rule set disabled, the engine's refusals shown; and a
newcomer's first classic game with stacking, through a Wild Draw Four challenge."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Button, Collapsible, Label, Select
from textual.widgets._select import SelectCurrent

from tests.tui.helpers import deal, footer_keys, game, log_text, run, screen, settle, table
from tests.tui.test_rounds import play_round_by_keys
from uno_attack.actions import Action, Verb
from uno_attack.cli.play import build_app
from uno_attack.engine import Round
from uno_attack.options import OPTION_SPECS, PRESETS, Options
from uno_attack.rules import CLASSIC
from uno_attack.session import GameConfig, Session
from uno_attack.tui.app import NewGame, UnoAttackApp
from uno_attack.tui.local import LocalTable
from uno_attack.tui.screens.dialogs import RevealScreen
from uno_attack.tui.screens.newgame import NewGameScreen
from uno_attack.tui.screens.table import TableScreen
from uno_attack.wording import OPTION_WORDS, VALUE_WORDS


def _play(tmp_path: Path, *args: str) -> UnoAttackApp:
    return build_app(["--save", str(tmp_path / "game.json"), "--no-record", "--pace", "instant",
                      "--bot-delay", "0",
                      "--seed", "4", *args])


def _text(top: Any, selector: str) -> str:
    return str(top.query_one(selector, Label).content)


def test_the_command_line_fills_it_in_and_enter_starts(tmp_path: Path) -> None:
    app = _play(tmp_path, "--preset", "house", "--humans", "Ann,Bob", "--players", "3",
                "--option", "target=300")

    async def body(pilot: Pilot[Any]) -> None:
        top = app.screen
        assert isinstance(top, NewGameScreen)
        assert top.query_one("#preset", Select).value == "house"
        assert _text(top, "#preset-meaning") == PRESETS["house"].meaning
        assert top.query_one("#people").value == "Ann, Bob"  # type: ignore[attr-defined]
        assert top.query_one("#bots").value == "1"  # type: ignore[attr-defined]
        assert top.query_one("#opt-stacking", Select).value == "same"
        shown = top.query_one("#opt-stacking", Select).query_one(SelectCurrent).label
        assert shown == VALUE_WORDS["stacking", "same"]  # the value in plain words
        assert top.query_one("#opt-target").value == "300"  # type: ignore[attr-defined]
        for spec in OPTION_SPECS.values():  # each option in plain words, its key in a tooltip
            if spec.name != "rules":
                label, meaning = OPTION_WORDS[spec.name]
                assert _text(top, f"#help-{spec.name}").startswith(meaning)
                row = top.query_one(f"#row-{spec.name}")
                assert str(row.query_one(".opt-name", Label).content) == label
                assert f"--option {spec.name}=" in str(row.tooltip)
        assert not (tmp_path / "game.json").exists()  # nothing is dealt before Start
        await pilot.press("enter")
        await settle(pilot, lambda: app.table is not None)  # (Ann takes the keyboard)
        session = table(app).session
        assert session.config.humans == ["Ann", "Bob"]
        assert session.match.options == Options(stacking="same", jump_in="numbers",
                                                multi_play="numbers", target=300)
        assert (tmp_path / "game.json").exists()

    run(body, app)


def test_quick_skips_it(tmp_path: Path) -> None:
    app = _play(tmp_path, "--quick")

    async def body(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, TableScreen)

    run(body, app)


def test_a_rule_sets_options_show_disabled_under_the_other(tmp_path: Path) -> None:
    app = _play(tmp_path)

    async def body(pilot: Pilot[Any]) -> None:
        top = app.screen
        assert isinstance(top, NewGameScreen)
        assert not top.query_one("#opt-play_after_press").disabled
        assert top.query_one("#opt-wild_draw_four").disabled
        assert "(only with Rules: classic)" in _text(top, "#help-wild_draw_four")
        top.query_one("#rules", Select).value = "classic"
        await settle(pilot, lambda: top.query_one("#rules", Select).value == "classic")
        assert top.query_one("#opt-play_after_press").disabled
        assert top.query_one("#opt-trade_hands_last").disabled
        assert "(only with Rules: attack)" in _text(top, "#help-play_after_press")
        assert not top.query_one("#opt-wild_draw_four").disabled
        assert top.query_one("#opt-rounds").disabled  # only in a net match

    run(body, app)


def test_a_refused_combination_shows_the_engines_message_and_cannot_start(
        tmp_path: Path) -> None:
    app = _play(tmp_path, "--players", "4")

    async def body(pilot: Pilot[Any]) -> None:
        top = app.screen
        assert isinstance(top, NewGameScreen)
        top.query_one("#opt-teams").value = "3"  # type: ignore[attr-defined]
        await settle(pilot, lambda: top.problem is not None)
        said = _text(top, "#newgame-problem")  # by the option's label, no rule book cited
        assert f"{OPTION_WORDS['teams'][0]}: 4 players do not make 3 teams of the same " \
            "size" in said
        assert ".md" not in said
        assert top.query_one("#start", Button).disabled
        await pilot.press("ctrl+s")
        assert app.screen is top  # not started
        top.query_one("#opt-teams").value = "2"  # type: ignore[attr-defined]
        await settle(pilot, lambda: top.problem is None)
        top.query_one("#opt-target").value = "many"  # type: ignore[attr-defined]
        await settle(pilot, lambda: top.problem is not None)
        assert "option 'target' = 'many': expected a whole number" in \
            _text(top, "#newgame-problem")
        top.query_one("#opt-target").value = "200"  # type: ignore[attr-defined]
        await settle(pilot, lambda: not top.query_one("#start", Button).disabled)
        await pilot.click("#start")
        await settle(pilot, lambda: app.table is not None)
        assert table(app).session.match.options == Options(teams=2, target=200)

    run(body, app)


def test_hands_too_big_for_the_deck_are_refused_as_the_deal_would(tmp_path: Path) -> None:
    app = _play(tmp_path, "--players", "4")

    async def body(pilot: Pilot[Any]) -> None:
        top = app.screen
        assert isinstance(top, NewGameScreen)
        top.query_one("#opt-hand_size").value = "30"  # type: ignore[attr-defined]
        await settle(pilot, lambda: top.problem is not None)
        assert f"{OPTION_WORDS['hand_size'][0]}: 4 players × 30 cards leave no card of the " \
            "112 to start on" in _text(top, "#newgame-problem")
        assert top.query_one("#start", Button).disabled
        await pilot.press("ctrl+s")
        assert app.screen is top  # not started
        assert app.is_running  # not quit
        top.query_one("#opt-hand_size").value = "27"  # 4 × 27 + 1 = 109 cards: it fits
        await settle(pilot, lambda: not top.query_one("#start", Button).disabled)
        await pilot.click("#start")
        await settle(pilot, lambda: app.table is not None)
        assert table(app).session.match.options.hand_size == 27

    run(body, app)


def test_a_preset_fills_in_its_options(tmp_path: Path) -> None:
    app = _play(tmp_path)

    async def body(pilot: Pilot[Any]) -> None:
        top = app.screen
        assert isinstance(top, NewGameScreen)
        top.query_one("#preset", Select).value = "party"
        await settle(pilot, lambda: _text(top, "#preset-meaning") == PRESETS["party"].meaning)
        for name, value in PRESETS["party"].options.items():
            assert top.query_one(f"#opt-{name}", Select).value == value
        top.query_one("#preset", Select).value = "classic"
        await settle(pilot, lambda: top.query_one("#rules", Select).value == "classic")
        assert top.query_one("#opt-stacking", Select).value == "off"  # the party is over
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.table is not None)
        assert table(app).session.match.options == Options(rules="classic")

    run(body, app)


class BluffingBot:
    """Plays its Wild Draw Four naming blue while it holds red: a bluff (VARIANTS.md A5)."""

    kind = "scripted"

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, game: Round, seat: int, legal: list[Action]) -> Action:
        four = CLASSIC.parse_card("W+4")
        return next((a for a in legal if a.verb is Verb.PLAY and a.card is four
                     and a.color is not None and a.color.label == "blue"), legal[0])

    def react(self, game: Round, seat: int) -> Action | None:
        return None


def _dealt_with_a_bluff(config: GameConfig) -> LocalTable:
    """The match as chosen on the screen, on a deal where the bot, first to play, holds a
    Wild Draw Four and a red card."""
    session = Session(config)
    session.use_deal(deal(["R5 G2 Y7 B1", "W+4 R9 G9"], "R3", dealer=0, rules=CLASSIC,
                          launcher="Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 G1 G3 G4 G5"))
    session.players[1] = BluffingBot(session.names[1])
    return LocalTable(session)


def test_a_newcomer_plays_classic_with_stacking_and_challenges_a_wild_draw_four(
        tmp_path: Path) -> None:
    """From the new-game screen alone (Tab, Enter, arrows), a classic game with stacking,
    a Wild Draw Four played on you, the challenge, the challenged hand shown, its outcome,
    and the round played on by keys to its scoreboard."""
    base = GameConfig(players=2, seed=2, launcher="sim", save=tmp_path / "game.json",
                      bot_delay=0.0, catch_delay=0.0, animate=False)
    app = UnoAttackApp(new_game=NewGame(base, _dealt_with_a_bluff))

    async def body(pilot: Pilot[Any]) -> None:
        top = app.screen
        assert isinstance(top, NewGameScreen)
        await pilot.press(*["tab"] * 4)  # past the players, the bots and their strength
        assert app.focused is top.query_one("#rules")
        await pilot.press("enter", "down", "enter")  # rules: classic UNO
        await settle(pilot, lambda: top.query_one("#rules", Select).value == "classic")
        await pilot.press("tab", "tab", "enter")  # open the house rules, one by one
        await settle(pilot, lambda: not top.query_one("#house-rules", Collapsible).collapsed)
        await pilot.press(*["tab"] * 6)  # past the options of Attack, which are disabled
        assert app.focused is top.query_one("#opt-stacking")
        await pilot.press("enter", "down", "enter")  # stacking: same
        await settle(pilot, lambda: top.query_one("#opt-stacking", Select).value == "same")
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.table_screen is not None and "challenge" in (
            screen(app).seen.view.get("legal") or []))
        assert table(app).session.match.options == Options(rules="classic", stacking="same")
        status = screen(app).status
        assert status.startswith("You owe 4 draws (Ada played Wild Draw Four): draw (Space), "
                                 "challenge it (x)")
        assert "Ada played Wild Draw Four, naming blue" in log_text(app)
        assert {"x", "space"} <= footer_keys(app)
        await pilot.press("x")
        await settle(pilot, lambda: isinstance(app.screen, RevealScreen))
        reveal = app.screen
        assert isinstance(reveal, RevealScreen)
        assert [card.code for card in reveal.hand] == ["R9", "G9"]  # the red card: a bluff
        assert _text(reveal, "#challenge-outcome") == (
            "You challenged Ada's Wild Draw Four, a bluff: Ada draws 4 cards")
        await pilot.press("enter")
        await settle(pilot)
        assert "Ada drew 4 cards" in log_text(app)
        now = game(app)
        assert len(now.hands[1]) == 6
        assert now.to_act == 0  # and the challenger has a normal turn, on blue
        assert now.color is not None
        assert now.color.label == "blue"
        assert screen(app).status.startswith("Your turn: play a ✓ card")
        board = await play_round_by_keys(pilot, app)  # and on, by keys, to the round's end
        assert game(app).winner is not None
        assert board.board.title.endswith("round 1!")
        record = table(app).session.table
        assert record is not None
        assert record.record.fires == []  # a classic draw takes from the pile: no fires

    run(body, app)
