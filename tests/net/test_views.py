"""views.py: what each seat may see, from the engine's state and the host's facts."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from uno_attack.engine import Round
from uno_attack.net.table_rules import table_rules
from uno_attack.options import Options
from uno_attack.rules import ATTACK, CLASSIC
from uno_attack.rules.base import CardKind
from uno_attack.views import (
    Hello,
    Prompt,
    PromptJSON,
    Revealed,
    TableFacts,
    Taken,
    View,
    hello,
    view,
)

NAMES = ("Ann", "Bob", "Cleo")


def game() -> Round:
    cards = ATTACK.parse_cards
    return Round.setup(hands=[cards(["R5", "G7"]), cards(["B2", "Y3"]), cards(["G1"])],
                       dealer=2, starter=cards(["RH"])[0], stock=cards(["Y9", "B9"]),
                       options=Options())


def facts(**more: object) -> TableFacts:
    return TableFacts(names=NAMES, scores=(0, 0, 0), **more)  # type: ignore[arg-type]


def test_a_seat_sees_its_own_hand_and_legal_and_no_other_hand() -> None:
    g = game()
    mine = view(g, facts(), 0)
    assert mine["hand"] == ["R5", "G7"]
    assert mine["legal"] == ["press"]  # the Hit 2 starter: Ann owes two presses
    text = json.dumps(mine)
    assert "B2" not in text
    assert "Y3" not in text
    assert "G1" not in text
    watch = view(g, facts(), None)
    assert "hand" not in watch
    assert "legal" not in watch
    assert watch["owed"] == [[0, 2]]
    assert watch["owed_why"] == ["the starter red Hit 2"]


def test_a_prompt_goes_to_its_seat_only_and_stops_everyone_else() -> None:
    g = game()
    prompt = Prompt(0, "The launcher jammed", ("retry", "fired 0", "fired 1"))
    f = facts(prompt=prompt)
    assert view(g, f, 0)["legal"] == ["retry", "fired 0", "fired 1"]
    assert view(g, f, 0)["prompt"]["message"] == "The launcher jammed"
    assert "prompt" not in view(g, f, 1)
    assert view(g, f, 1)["legal"] == []


def test_a_challenged_hand_is_shown_to_the_challenger_only() -> None:
    g = game()
    f = facts(revealed=(1, 0, ("R5", "G7")))
    assert view(g, f, 1)["revealed"] == {"seat": 0, "hand": ["R5", "G7"]}
    assert "revealed" not in view(g, f, 2)
    assert "revealed" not in view(g, f, None)


def test_views_and_hello_go_to_json_and_back_unchanged() -> None:
    g = game()
    for message in (view(g, facts(log=tuple(f"line {i}" for i in range(14))), 0),
                    hello(None, NAMES, Options(target=300))):
        assert json.loads(json.dumps(message)) == message
    assert view(g, facts(log=tuple(str(i) for i in range(14))), 0)["log"] == [
        str(i) for i in range(4, 14)]
    assert hello(None, NAMES, Options(target=300)) == {
        "type": "hello", "seat": None, "name": None, "players": list(NAMES),
        "options": {"target": 300}, "cards": ATTACK.card_kinds}
    assert hello(None, NAMES, Options(rules="classic"))["cards"] == CLASSIC.card_kinds


def _fits(message: Mapping[str, object], typed: Any) -> bool:
    """Whether a message has every key its type requires and no key it does not declare."""
    keys = set(message)
    return typed.__required_keys__ <= keys <= typed.__required_keys__ | typed.__optional_keys__


def test_views_are_the_typed_values_they_declare() -> None:
    g = game()
    prompt = Prompt(0, "The launcher jammed", ("retry", "fired 0"))
    f = facts(prompt=prompt, revealed=(0, 1, ("B2", "Y3")), taken=(0, 2))
    for seat in (0, 1, None):
        assert _fits(view(g, f, seat), View), seat
    assert _fits(view(g, f, 0)["prompt"], PromptJSON)
    assert _fits(view(g, f, 0)["revealed"], Revealed)
    assert _fits(view(g, f, 0)["taken"], Taken)  # type: ignore[arg-type]
    assert View.__optional_keys__ == {"hands", "hand", "revealed", "prompt", "legal"}
    for people in (None, [0, 1]):
        message = hello(0, NAMES, Options(), people)
        assert _fits(message, Hello)
        assert all(_fits(kind, CardKind) for kind in message["cards"].values())


def test_the_tables_rules_are_said_in_plain_words_from_the_options() -> None:
    options = Options.from_assignments(["stacking=same", "seven_zero=true", "match=net",
                                        "rounds=3", "next_dealer=winner_starts"])
    rules = table_rules(options)
    assert rules["title"] == "UNO Attack"
    assert rules["match"] == "net match of 3 rounds"
    assert rules["house_rules"] == [
        {"option": "next_dealer", "value": "winner plays first", "title": "Next dealer",
         "meaning": "the winner deals, the deal passes left, or the winner plays first"},
        {"option": "stacking", "value": "the same card", "title": "Stack Draw cards",
         "meaning": "answer a Draw card with another and pass on the sum (same: the same "
                    "card; up: the same or bigger)"},
        {"option": "seven_zero", "value": "on", "title": "7-0",
         "meaning": "a 7 swaps hands with a player you name; a 0 passes every hand on"}]
    assert not any(".md" in line or "(B" in str(line) for line in map(str, rules.values()))
