"""Options of RULES.md 9 and VARIANTS.md: defaults, parsing, E1's refusals, presets."""

import pytest

from uno_attack.errors import OptionError
from uno_attack.options import OPTION_SPECS, PRESETS, Options, options_from_cli, preset_options

VARIANT_OPTIONS = ("rules", "stacking", "jump_in", "multi_play", "seven_zero", "until_playable",
                   "deflect", "last_card", "uno_penalty", "false_uno_penalty",
                   "false_catch_penalty", "sum_out", "teams", "rounds", "forced_play",
                   "wild_draw_four")


def test_defaults_are_the_official_rules() -> None:
    options = Options()
    assert options.to_dict() == {}
    defaults = options.to_dict(all_keys=True)
    assert set(OPTION_SPECS) == set(defaults)
    assert {k: defaults[k] for k in ("rules", "hand_size", "target", "match", "uno_penalty",
                                     "stacking", "wild_draw_four", "teams", "rounds")} == {
        "rules": "attack", "hand_size": 7, "target": 500, "match": "points", "uno_penalty": 2,
        "stacking": "off", "wild_draw_four": "challenge", "teams": 0, "rounds": 10}


def test_every_option_of_the_variants_is_declared_with_a_meaning() -> None:
    for name in VARIANT_OPTIONS:
        spec = OPTION_SPECS[name]
        assert spec.help, name
        assert spec.default in spec.parse.samples or name == "rounds", name


def test_from_mapping_and_back() -> None:
    data = {"hand_size": 5, "match": "elimination", "play_after_press": True,
            "first_dealer": 2, "next_dealer": "left", "stacking": "up", "jump_in": "numbers",
            "uno_penalty": 4, "sum_out": True}
    assert Options.from_mapping(data).to_dict() == data


def test_from_assignments() -> None:
    options = Options.from_assignments(["target=300", "trade_hands_last=true",
                                        "first_dealer=random", "rules=classic",
                                        "trade_hands_last=false", "teams=2"])
    assert (options.target, options.trade_hands_last, options.first_dealer, options.rules,
            options.teams) == (300, False, "random", "classic", 2)


@pytest.mark.parametrize(("data", "fragment"), [
    ({"handsize": 7}, "unknown option 'handsize'"),
    ({"hand_size": "seven"}, "option 'hand_size' = 'seven'"),
    ({"hand_size": 0}, "at least 1"),
    ({"hand_size": "١٢"}, "option 'hand_size' = '١٢': expected a whole number"),
    ({"target": True}, "option 'target' = True"),
    ({"match": "sudden"}, "expected one of points, lowest, elimination, single, net"),
    ({"play_after_press": "maybe"}, "expected true or false"),
    ({"first_dealer": "oldest"}, "draw, random or a seat number"),
    ({"next_dealer": "right"}, "winner, left, winner_starts"),
    ({"stacking": True}, "option 'stacking' = True: expected one of off, same, up"),
    ({"uno_penalty": 0}, "option 'uno_penalty' = 0: must be at least 1"),
    ({"teams": 1}, "expected 0 (no teams) or 2 to 5 teams"),
    ({"teams": 6}, "expected 0 (no teams) or 2 to 5 teams"),
])
def test_bad_options_are_named(data: dict, fragment: str) -> None:
    with pytest.raises(OptionError) as info:
        Options.from_mapping(data, where="game.json: key 'options'")
    assert fragment in str(info.value)
    assert "game.json" in str(info.value)


class TestE1:
    """VARIANTS.md E1: what the other rule set or another option makes meaningless."""

    @pytest.mark.parametrize(("data", "fragment"), [
        ({"rules": "classic", "play_after_press": True},
         "option 'play_after_press' = True: only with rules = attack, not 'classic'"),
        ({"rules": "classic", "trade_hands_last": True},
         "option 'trade_hands_last' = True: only with rules = attack"),
        ({"wild_draw_four": "fair_only"}, "option 'wild_draw_four' = 'fair_only': only with "
                                          "rules = classic, not 'attack'"),
        ({"rounds": 5}, "option 'rounds' = 5: only with match = net, not 'points'"),
        ({"teams": 2, "match": "elimination"},
         "option 'teams' = 2: only with match = points or lowest or single, not 'elimination'"),
        ({"teams": 2, "match": "net"}, "option 'teams' = 2: only with match = points"),
    ])
    def test_refused_with_option_value_and_why(self, data: dict, fragment: str) -> None:
        with pytest.raises(OptionError, match=r"VARIANTS\.md E1") as info:
            Options.from_mapping(data, where="t.json: key 'options'")
        assert fragment in str(info.value)
        assert str(info.value).startswith("t.json: key 'options': ")

    @pytest.mark.parametrize("data", [
        {"match": "net", "target": 200},                       # target is not used by net
        {"until_playable": True, "play_after_press": True},   # overridden by B5
        {"last_card": "no_action", "trade_hands_last": True},  # overridden by B7
        {"rules": "classic", "play_after_press": False, "trade_hands_last": False},
        {"wild_draw_four": "challenge"},                      # a default written out
        {"rounds": 10},
        {"match": "net", "rounds": 3},
        {"seven_zero": True},  # in Attack only the 7 rule applies (B4)
    ])
    def test_accepted(self, data: dict) -> None:
        assert Options.from_mapping(data).to_dict() == {
            k: v for k, v in data.items() if v != OPTION_SPECS[k].default}

    def test_teams_must_divide_the_players(self) -> None:
        Options(teams=2).check_players(4)
        Options(teams=3).check_players(3)  # teams of one are allowed (E20)
        with pytest.raises(OptionError, match="option 'teams' = 2: 5 players"):
            Options(teams=2).check_players(5)

    def test_first_dealer_must_be_a_seat(self) -> None:
        with pytest.raises(OptionError, match="option 'first_dealer' = 4: no such seat"):
            Options(first_dealer=4).check_players(4)


class TestPresets:
    def test_party_is_what_the_issue_asks_for(self) -> None:
        party = preset_options("party")
        assert party.stacking != "off"
        assert party.jump_in != "off"
        assert party.seven_zero
        assert party.until_playable

    @pytest.mark.parametrize("name", list(PRESETS))
    def test_each_preset_is_valid_in_both_rule_sets(self, name: str) -> None:
        assert PRESETS[name].meaning
        options = preset_options(name)
        assert options.to_dict() == dict(PRESETS[name].options)
        options_from_cli(name, ["rules=classic"])
        if name != "classic":
            options_from_cli(name, ["rules=attack"])

    def test_explicit_options_override_the_preset(self) -> None:
        options = options_from_cli("party", ["stacking=same", "rules=classic"])
        assert (options.stacking, options.rules, options.seven_zero) == ("same", "classic", True)

    def test_unknown_preset_lists_the_known_ones(self) -> None:
        with pytest.raises(OptionError) as info:
            options_from_cli("wild", [])
        assert str(info.value) == ("unknown preset 'wild' (known: party, classic, house, "
                                   "no-mercy, strict)")


def test_bad_assignment() -> None:
    with pytest.raises(OptionError, match="expected key=value"):
        Options.from_assignments(["target"])
