"""Transcripts of the variants (VARIANTS.md D, E2, E20, E21): what loading accepts and refuses."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from uno_attack.errors import TranscriptError
from uno_attack.replay import replay
from uno_attack.rules import CLASSIC, rule_set
from uno_attack.transcript import from_dict

CLASSIC_DEAL: dict[str, Any] = {
    "name": "a classic deal", "players": 4, "dealer": 3, "options": {"rules": "classic"},
    "hands": [["R0", "R+2"], ["W+4", "Y1"], ["B1", "B2"], ["G1", "G2"]], "starter": "R5",
    "steps": ["0 play R0", {"expect": {"turn": 1, "launcher_size": 99}}],
}


def deal(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(CLASSIC_DEAL)
    data.update(changes)
    return data


def test_a_classic_transcript_uses_the_108_card_deck() -> None:
    transcript = from_dict(deal())
    assert transcript.rules is CLASSIC
    assert len(transcript.launcher_cards()) == 108 - 9
    assert replay(transcript).passed


@pytest.mark.parametrize(("changes", "fragment"), [
    ({"fires": [1]}, "key 'fires': classic UNO has no launcher: 'fires' must be absent or empty"),
    ({"hands": [["RH"], [], [], []]}, "key 'hands[0][0]': unknown card code of classic UNO"),
    ({"starter": "W+4"}, "key 'starter': the last starter may not be a Wild Draw Four"),
    ({"starter": ["R5", "G5"]}, "key 'starter[0]': only a card that is put back"),
    ({"steps": ["0 play RH"]}, "key 'steps[0]'"),
    ({"steps": ["0 press now"]}, "key 'steps[0]'"),
    ({"options": {"rules": "classic", "teams": 3}},
     "key 'options': option 'teams' = 3: 4 players do not divide"),
    ({"options": {"rules": "classic", "teams": 2}, "match": {"scores": [5, 0, 0, 0]}},
     "key 'match.scores': seats 0 and 2 are team-mates and must have equal scores"),
    ({"match": {"scores": [-5, 0, 0, 0]}}, "key 'match.scores[0]'"),
    ({"options": {"rules": "classic", "match": "net", "rounds": 3}, "match": {"round": 4}},
     "key 'match.round'"),
    ({"match": {"turn": 2}}, "key 'match'"),
    ({"steps": [{"expect": {"hands": {"²": ["R0"]}}}]}, "key 'steps[0].expect.hands'"),
    ({"steps": [{"reject": "٣ press"}]}, None),
])
def test_what_loading_refuses(changes: dict[str, Any], fragment: str | None) -> None:
    data = deal(**changes)
    if fragment is None:  # a reject of text that is not even an action is refused, fine
        assert replay(from_dict(data)).passed
        return
    with pytest.raises(TranscriptError) as info:
        from_dict(data, source="t.json")
    assert str(info.value).startswith("t.json: ")
    assert fragment in str(info.value)


def test_net_scores_may_be_negative_and_the_round_is_kept() -> None:
    data = deal(options={"rules": "classic", "match": "net", "rounds": 3},
                match={"scores": [-10, 4, 3, 3], "round": 3})
    transcript = from_dict(data)
    assert (transcript.scores, transcript.round_no) == ([-10, 4, 3, 3], 3)
    assert transcript.to_dict()["match"] == {"scores": [-10, 4, 3, 3], "round": 3}
    assert from_dict(transcript.to_dict()).round_no == 3


OPTION_SETS = json.loads(
    (Path(__file__).parent / "data" / "option-sets.json").read_text(encoding="utf-8"))


def _minimal(options: dict[str, Any], players: int) -> dict[str, Any]:
    """A transcript of ``players`` seats under ``options``: one card each, nothing played."""
    rules = CLASSIC if options.get("rules") == "classic" else rule_set("attack")
    numbers = [card for card in rules.cards if rules.kind(card).number is not None]
    return {"name": "option set", "players": players, "dealer": 0, "options": options,
            "hands": [[numbers[i].code] for i in range(players)],
            "starter": numbers[players].code, "steps": []}


@pytest.mark.parametrize("entry", OPTION_SETS["refused"], ids=lambda e: e["why"][:40])
def test_an_option_set_the_variants_forbid_makes_a_transcript_invalid(
        entry: dict[str, Any]) -> None:
    with pytest.raises(TranscriptError) as info:
        from_dict(_minimal(entry["options"], entry["players"]), source="t.json")
    assert "key 'options'" in str(info.value) or "option" in str(info.value), entry["why"]


@pytest.mark.parametrize("entry", OPTION_SETS["accepted"], ids=lambda e: e["why"][:40])
def test_an_option_set_the_variants_allow_loads(entry: dict[str, Any]) -> None:
    transcript = from_dict(_minimal(entry["options"], entry["players"]), source="t.json")
    assert replay(transcript).passed, entry["why"]
