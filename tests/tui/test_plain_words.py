"""The game screens speak plainly: no message cites a spec file ("RULES.md 4", "(B1)",
"LAUNCHER.md's figures"). Checked two ways: every string the screens' code holds (the
help aside, where the rules' names and sections belong), and every refusal the engine
gives in many states of many rule sets, as the screens word it."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from tests.tui.helpers import deal, make_app, run, screen
from uno_attack.actions import Action, Verb
from uno_attack.bots import BOT_KINDS
from uno_attack.engine import Round
from uno_attack.errors import UnoAttackError
from uno_attack.options import OPTION_SPECS, Options
from uno_attack.rules import rule_set
from uno_attack.tui.screens.newgame import STRENGTHS
from uno_attack.wording import OPTION_WORDS, VALUE_WORDS

TUI = Path(__file__).resolve().parents[2] / "uno_attack" / "tui"
#: A citation of a spec file or of one of its sections
CITES = re.compile(r"\b[A-Z]+\.md\b|\([A-E]\d+\)|\b(?:RULES|VARIANTS|LAUNCHER|NETWORK)\b")
NAMES = ["You", "Ada", "Ben"]


def _strings(path: Path) -> list[str]:
    """The string constants of a module, its docstrings aside."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs]


def test_no_string_of_the_screens_cites_a_spec_file() -> None:
    sources = [p for p in TUI.rglob("*.py") if p.name != "help_text.py"]
    assert len(sources) > 20
    found = [(p.name, s) for p in sources for s in _strings(p) if CITES.search(s)]
    assert found == []


def test_every_option_and_bot_has_plain_words() -> None:
    assert set(OPTION_WORDS) == set(OPTION_SPECS)
    for (name, value), words in VALUE_WORDS.items():  # each a value the option takes
        assert OPTION_SPECS[name].parse(value) == value, (name, value)
        assert words
        assert not CITES.search(words)
    assert set(STRENGTHS) == set(BOT_KINDS)
    for label, meaning in [*OPTION_WORDS.values(), *STRENGTHS.values()]:
        assert not CITES.search(label + meaning), (label, meaning)


GAMES = [Options(), Options(rules="classic"), Options(rules="classic", wild_draw_four="fair_only"),
         Options(stacking="up", jump_in="any", seven_zero=True, until_playable=True),
         Options(deflect=True, multi_play="symbols", forced_play=True, stacking="same"),
         Options(play_after_press=True, sum_out=True, last_card="no_action",
                 false_uno_penalty=2, false_catch_penalty=2)]


def _candidates(game: Round) -> list[Action]:
    """Actions of every verb for every seat, most of them refused."""
    codes = sorted({card.code for card in game.rules.deck})
    texts = ["press", "draw", "pass", "uno", "challenge", "out", "choose red", "catch 1",
             "catch 0", "catch 7", "play R5 2", "play W", "play W red 1"]
    texts += [f"play {code}" for code in codes] + [f"play {code} red" for code in codes[:6]]
    actions = []
    for seat in range(game.players):
        for text in texts:
            try:
                actions.append(Action.parse(f"{seat} {text}", rules=game.rules))
            except (UnoAttackError, ValueError):
                continue
    return actions


def test_no_refusal_the_screens_say_cites_a_spec_file() -> None:
    rng = random.Random(21)
    templates: set[str] = set()
    for options in GAMES:
        rules = rule_set(options.rules)
        for _ in range(4):
            deck = list(rules.deck)
            rng.shuffle(deck)
            game = Round.setup(hands=[deck[0:7], deck[7:14], deck[14:21]], dealer=2,
                               starter=next(c for c in deck[21:] if rules.kind(c).number
                                            is not None),
                               stock=deck[22:], options=options)
            for _ in range(40):
                if game.winner is not None:
                    break
                for action in _candidates(game):
                    refusal = game.refusal(action)
                    if refusal is not None:
                        templates.add(refusal.template)
                        said = refusal.plainly(NAMES)
                        assert said, str(refusal)
                        assert not CITES.search(said), (str(refusal), said)
                legal = game.legal_actions()
                action = rng.choice(legal)
                game.apply(action, fired=rng.choice((0, 1, 2)) if action.verb is Verb.PRESS
                           else None)
    assert len(templates) >= 25  # the many ways a move is refused, not a few


def test_a_card_that_does_not_fit_is_said_plainly(tmp_path: Path) -> None:
    app = make_app(tmp_path, players=2, the_deal=deal(["B7 R5", "G1 G2 G3"], "R3"))

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        status = str(screen(app).query_one("#status", Static).render())
        assert status == "⚠ B7 does not match the top card R3 (current colour red)"

    run(body, app)
