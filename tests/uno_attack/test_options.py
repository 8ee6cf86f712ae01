"""Options of RULES.md section 9: defaults, parsing, clear errors."""

import pytest

from uno_attack.errors import OptionError
from uno_attack.options import OPTION_SPECS, Options


def test_defaults_are_the_official_rules() -> None:
    options = Options()
    assert options.to_dict() == {}
    assert options.to_dict(all_keys=True) == {
        "rules": "attack", "hand_size": 7, "target": 500, "match": "points",
        "play_after_press": False,
        "trade_hands_last": False, "first_dealer": "draw", "next_dealer": "winner"}
    assert set(OPTION_SPECS) == set(options.to_dict(all_keys=True))


def test_from_mapping_and_back() -> None:
    data = {"hand_size": 5, "match": "elimination", "play_after_press": True,
            "first_dealer": 2, "next_dealer": "left"}
    assert Options.from_mapping(data).to_dict() == data


def test_from_assignments() -> None:
    options = Options.from_assignments(["target=300", "trade_hands_last=true",
                                        "first_dealer=random"])
    assert (options.target, options.trade_hands_last, options.first_dealer) == (
        300, True, "random")


@pytest.mark.parametrize(("data", "fragment"), [
    ({"handsize": 7}, "unknown option 'handsize'"),
    ({"hand_size": "seven"}, "option 'hand_size' = 'seven'"),
    ({"hand_size": 0}, "at least 1"),
    ({"target": True}, "option 'target' = True"),
    ({"match": "sudden"}, "expected one of points, lowest, elimination, single"),
    ({"play_after_press": "maybe"}, "expected true or false"),
    ({"first_dealer": "oldest"}, "draw, random or a seat number"),
    ({"next_dealer": "right"}, "winner, left"),
])
def test_bad_options_are_named(data: dict, fragment: str) -> None:
    with pytest.raises(OptionError) as info:
        Options.from_mapping(data, where="game.json: key 'options'")
    assert fragment in str(info.value)
    assert "game.json" in str(info.value)


def test_bad_assignment() -> None:
    with pytest.raises(OptionError, match="expected key=value"):
        Options.from_assignments(["target"])
