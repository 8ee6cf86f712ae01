"""The decks of RULES.md 1 and VARIANTS.md A1: codes, counts, points, canonical order,
and card codes read in the context of a rule set."""

import re
from collections import Counter

import pytest

from uno_attack.cards import Card, Color
from uno_attack.errors import InvalidCardError, OptionError
from uno_attack.rules import ATTACK, CLASSIC, rule_set


class TestAttackDeck:
    def test_112_cards_26_per_colour_and_8_wilds(self) -> None:
        assert len(ATTACK.deck) == 112
        by_color = Counter(c.color for c in ATTACK.deck)
        assert by_color == {Color.RED: 26, Color.YELLOW: 26, Color.GREEN: 26, Color.BLUE: 26,
                            None: 8}

    def test_counts_per_card(self) -> None:
        counts = Counter(c.code for c in ATTACK.deck)
        for color in "RYGB":
            for n in "123456789":
                assert counts[color + n] == 2
            assert counts[color + "0"] == 0
            assert (counts[color + "S"], counts[color + "R"], counts[color + "H"]) == (2, 2, 2)
            assert (counts[color + "D"], counts[color + "T"]) == (1, 1)
        assert (counts["W"], counts["WA"], counts["WF"]) == (4, 2, 2)

    def test_canonical_order_as_rules_write_it(self) -> None:
        red = " ".join(c.code for c in ATTACK.deck[:26])
        assert red == ("R1 R1 R2 R2 R3 R3 R4 R4 R5 R5 R6 R6 R7 R7 R8 R8 R9 R9 "
                       "RS RS RR RR RH RH RD RT")
        assert [c.code for c in ATTACK.deck[26:28]] == ["Y1", "Y1"]
        assert [c.code for c in ATTACK.deck[-8:]] == ["W"] * 4 + ["WA"] * 2 + ["WF"] * 2

    def test_canonical_sorted(self) -> None:
        cards = ATTACK.parse_cards(["GT", "G2", "GS", "G9", "GD"])
        assert [c.code for c in ATTACK.sort(cards)] == ["G2", "G9", "GS", "GD", "GT"]

    @pytest.mark.parametrize(("code", "points"), [
        ("R1", 1), ("B9", 9), ("YS", 20), ("GR", 20), ("RH", 20), ("BD", 30), ("YT", 30),
        ("W", 50), ("WA", 50), ("WF", 50),
    ])
    def test_points(self, code: str, points: int) -> None:
        assert ATTACK.points(ATTACK.parse_card(code)) == points

    def test_names(self) -> None:
        assert ATTACK.card_name(Card.parse("BH")) == "blue Hit 2"
        assert ATTACK.card_name(Card.parse("WF")) == "Wild Hit-Fire"

    def test_hand_points(self) -> None:
        assert ATTACK.hand_points(ATTACK.parse_cards(["R5", "WA", "GT"])) == 85


class TestClassicDeck:
    def test_108_cards_25_per_colour_and_8_wilds(self) -> None:
        assert len(CLASSIC.deck) == 108
        by_color = Counter(c.color for c in CLASSIC.deck)
        assert by_color == {Color.RED: 25, Color.YELLOW: 25, Color.GREEN: 25, Color.BLUE: 25,
                            None: 8}

    def test_canonical_order_as_variants_write_it(self) -> None:
        blue = " ".join(c.code for c in CLASSIC.deck[75:100])
        assert blue == ("B0 B1 B1 B2 B2 B3 B3 B4 B4 B5 B5 B6 B6 B7 B7 B8 B8 B9 B9 "
                        "BS BS BR BR B+2 B+2")
        assert [c.code for c in CLASSIC.deck[-8:]] == ["W"] * 4 + ["W+4"] * 4

    @pytest.mark.parametrize(("code", "points"), [
        ("R0", 0), ("B9", 9), ("YS", 20), ("GR", 20), ("R+2", 20), ("W", 50), ("W+4", 50),
    ])
    def test_points(self, code: str, points: int) -> None:
        assert CLASSIC.points(CLASSIC.parse_card(code)) == points

    def test_names(self) -> None:
        assert CLASSIC.card_name(Card.parse("R+2")) == "red Draw Two"
        assert CLASSIC.card_name(Card.parse("W+4")) == "Wild Draw Four"


class TestCardsOfARuleSet:
    @pytest.mark.parametrize("code", ["R+2", "W+4", "R0"])
    def test_classic_cards_are_invalid_in_attack(self, code: str) -> None:
        assert CLASSIC.parse_card(code).code == code
        message = f"invalid card code: '{code}' (not a card of UNO Attack)"
        with pytest.raises(InvalidCardError, match=re.escape(message)):
            ATTACK.parse_card(code)

    @pytest.mark.parametrize("code", ["RH", "RD", "RT", "WA", "WF"])
    def test_attack_cards_are_invalid_in_classic(self, code: str) -> None:
        assert ATTACK.parse_card(code).code == code
        with pytest.raises(InvalidCardError, match="classic UNO"):
            CLASSIC.parse_card(code)

    def test_shared_codes_are_the_same_card(self) -> None:
        assert ATTACK.parse_card("R5") is CLASSIC.parse_card("R5") is Card.parse("R5")
        assert ATTACK.order(Card.parse("R5")) != CLASSIC.order(Card.parse("R5"))

    def test_rule_set_by_name(self) -> None:
        assert rule_set("classic") is CLASSIC
        with pytest.raises(OptionError, match="unknown rule set 'poker'"):
            rule_set("poker")


class TestCard:
    def test_parse_and_print_round_trip_for_every_card(self) -> None:
        for card in (*ATTACK.cards, *CLASSIC.cards):
            assert Card.parse(str(card)) is card
            assert eval(repr(card)) is card

    @pytest.mark.parametrize("code", ["r5", "X1", "", "WW", "R10", "RW", " R5", None, "R+4"])
    def test_invalid_codes_are_named(self, code: str) -> None:
        with pytest.raises(InvalidCardError, match="invalid card code"):
            Card.parse(code)

    def test_cards_are_immutable_and_interned(self) -> None:
        card = Card.parse("R5")
        assert Card(Color.RED, "5") is card
        with pytest.raises(AttributeError):
            card.symbol = "3"  # type: ignore[misc]


class TestColor:
    @pytest.mark.parametrize("text", ["green", "G", "Green"])
    def test_parse(self, text: str) -> None:
        assert Color.parse(text) is Color.GREEN

    def test_bad_colour(self) -> None:
        with pytest.raises(InvalidCardError, match="purple"):
            Color.parse("purple")
