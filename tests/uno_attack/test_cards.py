"""The deck of RULES.md section 1: codes, counts, points, canonical order."""

from collections import Counter

import pytest

from uno_attack.cards import (
    ALL_CARDS,
    CANONICAL_DECK,
    Card,
    Color,
    canonical_sorted,
    hand_points,
)
from uno_attack.errors import InvalidCardError


class TestDeck:
    def test_112_cards_26_per_colour_and_8_wilds(self) -> None:
        assert len(CANONICAL_DECK) == 112
        by_color = Counter(c.color for c in CANONICAL_DECK)
        assert by_color == {Color.RED: 26, Color.YELLOW: 26, Color.GREEN: 26, Color.BLUE: 26,
                            None: 8}

    def test_counts_per_card(self) -> None:
        counts = Counter(c.code for c in CANONICAL_DECK)
        for color in "RYGB":
            for n in "123456789":
                assert counts[color + n] == 2
            assert counts[color + "0"] == 0
            assert (counts[color + "S"], counts[color + "R"], counts[color + "H"]) == (2, 2, 2)
            assert (counts[color + "D"], counts[color + "T"]) == (1, 1)
        assert (counts["W"], counts["WA"], counts["WF"]) == (4, 2, 2)

    def test_canonical_order_as_rules_write_it(self) -> None:
        red = " ".join(c.code for c in CANONICAL_DECK[:26])
        assert red == ("R1 R1 R2 R2 R3 R3 R4 R4 R5 R5 R6 R6 R7 R7 R8 R8 R9 R9 "
                       "RS RS RR RR RH RH RD RT")
        assert [c.code for c in CANONICAL_DECK[26:28]] == ["Y1", "Y1"]
        assert [c.code for c in CANONICAL_DECK[-8:]] == ["W"] * 4 + ["WA"] * 2 + ["WF"] * 2

    def test_canonical_sorted(self) -> None:
        cards = [Card.parse(c) for c in ("GT", "G2", "GS", "G9", "GD")]
        assert [c.code for c in canonical_sorted(cards)] == ["G2", "G9", "GS", "GD", "GT"]


class TestCard:
    @pytest.mark.parametrize(("code", "points"), [
        ("R1", 1), ("B9", 9), ("YS", 20), ("GR", 20), ("RH", 20), ("BD", 30), ("YT", 30),
        ("W", 50), ("WA", 50), ("WF", 50),
    ])
    def test_points(self, code: str, points: int) -> None:
        assert Card.parse(code).points == points

    def test_parse_and_print_round_trip_for_every_card(self) -> None:
        for card in ALL_CARDS:
            assert Card.parse(str(card)) is card
            assert eval(repr(card)) is card

    @pytest.mark.parametrize("code", ["R0", "r5", "X1", "", "WW", "R10", "RW", " R5", None])
    def test_invalid_codes_are_named(self, code: str) -> None:
        with pytest.raises(InvalidCardError, match="invalid card code"):
            Card.parse(code)

    def test_cards_are_immutable_and_interned(self) -> None:
        card = Card.parse("R5")
        assert Card(Color.RED, "5") is card
        with pytest.raises(AttributeError):
            card.points = 3  # type: ignore[misc]

    def test_names(self) -> None:
        assert Card.parse("BH").name == "blue Hit 2"
        assert Card.parse("WF").name == "Wild Hit-Fire"

    def test_hand_points(self) -> None:
        assert hand_points(Card.parse(c) for c in ("R5", "WA", "GT")) == 85


class TestColor:
    @pytest.mark.parametrize("text", ["green", "G", "Green"])
    def test_parse(self, text: str) -> None:
        assert Color.parse(text) is Color.GREEN

    def test_bad_colour(self) -> None:
        with pytest.raises(InvalidCardError, match="purple"):
            Color.parse("purple")
