"""Transcripts that are not valid (TRANSCRIPTS.md: the shape, the keys, the deck; RULES.md 9 and
VARIANTS.md E1: the options) are refused before anything is played: the real ``replay``
command names each file, the key and the value, and exits 2. One command replays them all."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[2]

#: A valid transcript: seat 1 (left of the dealer) plays R1 on R5.
VALID: dict[str, Any] = {
    "name": "seat 1 plays a red 1", "players": 3, "dealer": 0,
    "hands": [["R3", "R2"], ["R1", "G2"], ["B1", "B2"]], "starter": "R5",
    "launcher": ["Y1"], "rest": "none", "fires": [1], "steps": ["1 play R1"],
}

#: file name -> (changes to VALID, fragment the refusal must hold)
INVALID: dict[str, tuple[dict[str, Any], str]] = {
    "players-and-hands": ({"players": 4}, "key 'hands': expected a list of 4 hands"),
    "one-player": ({"players": 1, "hands": [["R1"]]}, "key 'players'"),
    "dealer-no-seat": ({"dealer": 3}, "key 'dealer': expected a whole number 0…2 (got 3)"),
    "starter-not-put-back": ({"starter": ["R6", "R5"]}, "key 'starter[0]'"),
    "last-starter-trade-hands": ({"starter": "RT"}, "key 'starter': the last starter may not"),
    "negative-fires": ({"fires": [-1]}, "key 'fires[0]'"),
    "boolean-fires": ({"fires": [True]}, "key 'fires[0]'"),
    "card-of-classic": ({"launcher": ["W+4"]}, "key 'launcher[0]': unknown card code"),
    "too-many-copies": ({"hands": [["R1", "R1"], ["R1", "G2"], ["B1", "B2"]]},
                        "R1 named more often than the deck holds"),
    "rounds-without-net": ({"options": {"rounds": 3}}, "option 'rounds' = 3: only with match"),
    "wild-draw-four-in-attack": ({"options": {"wild_draw_four": "free"}},
                                 "option 'wild_draw_four' = 'free'"),
    "trade-hands-last-in-classic": (
        {"options": {"rules": "classic", "trade_hands_last": True},
         "hands": [["R3", "R2"], ["R1", "G2"], ["B1", "B2"]], "fires": []},
        "option 'trade_hands_last' = True"),
    "teams-do-not-divide": ({"options": {"teams": 2}}, "option 'teams' = 2: 3 players"),
    "teams-in-elimination": ({"options": {"teams": 3, "match": "elimination"}},
                             "option 'teams' = 3: only with match"),
    "uno-penalty-zero": ({"options": {"uno_penalty": 0}}, "option 'uno_penalty' = 0"),
    "classic-fires": ({"options": {"rules": "classic"}}, "key 'fires'"),
    "scores-per-seat": ({"match": {"scores": [1, 2]}}, "key 'match.scores'"),
    "unknown-expectation": ({"steps": [{"expect": {"colour": "red"}}]},
                            "key 'steps[0].expect.colour'"),
    "owed-shape": ({"steps": [{"expect": {"owed": [[1]]}}]}, "key 'steps[0].expect.owed'"),
    "turn-as-text": ({"steps": [{"expect": {"turn": "1"}}]}, "key 'steps[0].expect.turn'"),
    "colour-no-colour": ({"steps": [{"expect": {"color": "purple"}}]},
                         "key 'steps[0].expect.color': expected red, yellow"),
    "top-no-card": ({"steps": [{"expect": {"top": "ZZ"}}]},
                    "key 'steps[0].expect.top': expected a card code of UNO Attack"),
    "direction-up": ({"steps": [{"expect": {"direction": "up"}}]},
                     "key 'steps[0].expect.direction'"),
    "hand-sizes-of-two": ({"steps": [{"expect": {"hand_sizes": [2, 2]}}]},
                          "key 'steps[0].expect.hand_sizes': expected 3 numbers"),
    "turn-no-seat": ({"steps": [{"expect": {"turn": -1}}]},
                     "key 'steps[0].expect.turn': expected one of seats 0…2"),
    "hands-no-seat": ({"steps": [{"expect": {"hands": {"3": []}}}]},
                      "key 'steps[0].expect.hands': expected hands of seats 0…2"),
    "hands-no-card": ({"steps": [{"expect": {"hands": {"1": ["W+4"]}}}]},
                      "key 'steps[0].expect.hands': expected card codes of UNO Attack"),
    "legal-no-action": ({"steps": [{"expect": {"legal": ["fly"]}}]},
                        "key 'steps[0].expect.legal': expected action strings"),
    "owed-no-seat": ({"steps": [{"expect": {"owed": [[4, 2]]}}]},
                     "key 'steps[0].expect.owed': expected presses owed by seats 0…2"),
    "unknown-verb": ({"steps": ["1 fly"]}, "key 'steps[0]': invalid action"),
    "wild-without-colour": ({"steps": ["1 play W"]}, "key 'steps[0]': invalid action"),
    "reject-not-text": ({"steps": [{"reject": 5}]}, "key 'steps[0].reject'"),
    "unknown-key": ({"colour": "red"}, "key 'colour'"),
}


def _write(folder: Path, name: str, changes: dict[str, Any]) -> Path:
    data = copy.deepcopy(VALID)
    data.update(copy.deepcopy(changes))
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_valid_transcript_passes(tmp_path: Path) -> None:
    path = _write(tmp_path, "valid", {})
    done = subprocess.run([sys.executable, "-m", "uno_attack", "replay", str(path)],
                          cwd=PROJECT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_invalid_transcript_is_named_with_its_key_and_exits_2(tmp_path: Path) -> None:
    paths = {name: _write(tmp_path, name, changes) for name, (changes, _) in INVALID.items()}
    done = subprocess.run([sys.executable, "-m", "uno_attack", "replay",
                           *map(str, paths.values())],
                          cwd=PROJECT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.strip().splitlines()[-1] == f"0 passed, {len(INVALID)} failed"
    lines = done.stderr.splitlines()
    for name, (_, fragment) in INVALID.items():
        said = [line for line in lines if f"{paths[name]}:" in line]
        assert len(said) == 1, (name, said)
        assert said[0].startswith("INVALID "), said[0]
        assert fragment in said[0], (name, said[0])
