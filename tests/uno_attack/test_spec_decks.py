"""The two decks and their points, read from the text of the rule books themselves.

test_cards.py checks the decks against figures written into the test; this file parses
RULES.md 1 (its tables and its canonical order line) and VARIANTS.md A1 (its sentences and
its canonical order line), so a deck or a point value that drifts from the spec's text, or a
spec edit the engine does not follow, fails here.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from uno_attack.cards import COLORS
from uno_attack.rules import ATTACK, CLASSIC, RuleSet

SHARED = Path(__file__).resolve().parents[3] / "shared"
RULES_TEXT = (SHARED / "RULES.md").read_text(encoding="utf-8")
VARIANTS_TEXT = (SHARED / "VARIANTS.md").read_text(encoding="utf-8")
LETTERS = [color.letter for color in COLORS]
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4}


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end)]


def _expand(line: str) -> list[str]:
    """A canonical order as the specs write it: `1 1 2 2 … 9 9 S S` (the ellipsis stands
    for each number in between, twice)."""
    words = line.split()
    out: list[str] = []
    for i, word in enumerate(words):
        if word != "…":
            out.append(word)
            continue
        low, high = int(words[i - 1]), int(words[i + 1])
        for n in range(low + 1, high):
            out += [str(n), str(n)]
    return out


def _canonical_from_text(section: str) -> list[str]:
    """The deck's codes in the order the section's 'canonical order' sentence gives."""
    found = re.search(r"[Cc]anonical (?:deck )?order.*?`([^`]+)`; then `([^`]+)`", section,
                      re.DOTALL)
    assert found, "no canonical order sentence"
    per_color, wilds = _expand(found.group(1)), found.group(2).split()
    return [letter + symbol for letter in LETTERS for symbol in per_color] + wilds


def _codes(rules: RuleSet) -> list[str]:
    return [card.code for card in rules.deck]


ATTACK_SECTION = _section(RULES_TEXT, "## 1. Components", "## 2.")
CLASSIC_SECTION = _section(VARIANTS_TEXT, "### A1. Deck", "### A2.")


def _attack_table() -> dict[str, tuple[int, int | None]]:
    """RULES.md 1's tables: each code's copies in the deck and points (None: face value)."""
    table: dict[str, tuple[int, int | None]] = {}
    for row in re.finditer(r"^\| ([^|]+) \| (\d+) \| (`[^|]+`) \| ([^|]+) \|$", ATTACK_SECTION,
                           re.MULTILINE):
        count, codes, points = int(row.group(2)), re.findall(r"`([^`]+)`", row.group(3)), \
            row.group(4).strip()
        value = None if points == "face value" else int(points)
        if len(codes) == 2 and "…" in row.group(3):  # `R1`…`R9`: the numbers, alike
            low, high = int(codes[0][1:]), int(codes[1][1:])
            per_number = count // (high - low + 1)
            for n in range(low, high + 1):
                for letter in LETTERS:
                    table[f"{letter}{n}"] = (per_number, value)
            continue
        (code,) = codes
        colors = LETTERS if code[0] == "R" and len(code) == 2 else [""]
        for letter in colors:
            table[letter + code[1:] if colors != [""] else code] = (count, value)
    return table


class TestAttackDeckAsRulesWriteIt:
    def test_the_tables_name_112_cards_as_the_sum_sentence_says(self) -> None:
        total = sum(count for count, _ in _attack_table().values())
        assert re.search(r"26 cards per colour × 4 \+ 8 wilds = 112", ATTACK_SECTION)
        assert total == 112 == len(ATTACK.deck)

    def test_every_card_has_the_tables_count(self) -> None:
        table = _attack_table()
        assert Counter(_codes(ATTACK)) == {code: count for code, (count, _) in table.items()}

    def test_every_card_has_the_tables_points(self) -> None:
        for code, (_, points) in _attack_table().items():
            card = ATTACK.parse_card(code)
            expected = int(code[1:]) if points is None else points
            assert ATTACK.points(card) == expected, code

    def test_no_zero(self) -> None:
        assert "there is **no 0**" in ATTACK_SECTION
        assert not any(code[1:] == "0" for code in _codes(ATTACK))

    def test_the_canonical_order_is_the_sentence_of_rules_1(self) -> None:
        assert _codes(ATTACK) == _canonical_from_text(ATTACK_SECTION)


def _classic_counts_from_text() -> Counter[str]:
    """VARIANTS.md A1's composition sentence, word by word."""
    per_color = re.search(r"Per colour \(R, Y, G, B\): (.*?)\. Wilds: (.*?)\.\n", CLASSIC_SECTION,
                          re.DOTALL)
    assert per_color, "no composition sentence in VARIANTS.md A1"
    counts: Counter[str] = Counter()
    for part in " ".join(per_color.group(1).split()).split(", "):
        if each := re.fullmatch(r"two each of `(\d)`–`(\d)`", part):
            for n in range(int(each.group(1)), int(each.group(2)) + 1):
                for letter in LETTERS:
                    counts[f"{letter}{n}"] += 2
        elif one := re.fullmatch(r"(\w+) `(\d)`", part):
            for letter in LETTERS:
                counts[f"{letter}{one.group(2)}"] += WORDS[one.group(1)]
        else:
            kind = re.fullmatch(r"(\w+) [\w ]+ \(`R([^`]+)`\)", part)
            assert kind, part
            for letter in LETTERS:
                counts[letter + kind.group(2)] += WORDS[kind.group(1)]
    for part in " ".join(per_color.group(2).split()).split(", "):
        wild = re.fullmatch(r"(\w+) [\w ]+ \(`([^`]+)`\)", part)
        assert wild, part
        counts[wild.group(2)] += WORDS[wild.group(1)]
    return counts


class TestClassicDeckAsVariantsWriteIt:
    def test_the_sentence_names_108_cards(self) -> None:
        counts = _classic_counts_from_text()
        assert "108 cards" in CLASSIC_SECTION
        assert sum(counts.values()) == 108 == len(CLASSIC.deck)
        assert Counter(_codes(CLASSIC)) == counts

    def test_the_canonical_order_is_the_sentence_of_a1(self) -> None:
        assert _codes(CLASSIC) == _canonical_from_text(CLASSIC_SECTION)

    @pytest.mark.parametrize("code", sorted({c.code for c in CLASSIC.deck}))
    def test_points_as_a1_says(self, code: str) -> None:
        sentence = re.search(r"Points: numbers their face value \(0 is 0\), Skip, Reverse and "
                             r"Draw Two (\d+), `W` and `W\+4` (\d+)\.", CLASSIC_SECTION)
        assert sentence, "no points sentence in VARIANTS.md A1"
        action, wild = int(sentence.group(1)), int(sentence.group(2))
        card = CLASSIC.parse_card(code)
        symbol = code[1:] if card.color is not None else code
        expected = int(symbol) if symbol.isdigit() else wild if card.color is None else action
        assert CLASSIC.points(card) == expected

    def test_the_cards_of_the_other_deck_are_not_cards_of_this_one(self) -> None:
        named = re.search(r"Attack cards \((.*?)\) do not exist in classic, and (.*?) do not\s+"
                          r"exist in Attack", CLASSIC_SECTION, re.DOTALL)
        assert named
        attack_only = re.findall(r"`([^`]+)`", named.group(1))
        classic_only = re.findall(r"`([^`]+)`", named.group(2))
        assert attack_only == ["H", "D", "T", "WA", "WF"]
        assert classic_only == ["0", "+2", "W+4"]
        for symbol in attack_only:
            assert not any(c.symbol == symbol for c in CLASSIC.deck)
        for symbol in classic_only:
            assert not any(c.symbol == symbol for c in ATTACK.deck)
