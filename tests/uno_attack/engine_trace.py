"""A fingerprint of the engine's behaviour over seeded random games, for
``test_engine_trace.py``: every seat's legal actions, the refusal of many probe actions
and what each action did, hashed per game. The recorded digests were made by the engine
before its house rules became hooks (six re-recorded since, for the until_playable refusal's
wording); a change that alters a legal move, a refusal's text
or an outcome changes a digest.

``python -m tests.uno_attack.engine_trace > tests/uno_attack/data/engine_trace.json``
records them again (only for a change meant to alter behaviour).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from uno_attack.actions import Action, Verb
from uno_attack.cards import COLORS
from uno_attack.engine import Round
from uno_attack.errors import OptionError
from uno_attack.match import Match
from uno_attack.options import OPTION_SPECS, Options

CASES = 48
STEPS = 120


def case_options(rng: random.Random, players: int) -> Options:
    """Valid options drawn from the declared samples (each at its default half the time)."""
    values: dict[str, Any] = {}
    for spec in OPTION_SPECS.values():
        values[spec.name] = (spec.default if rng.random() < 0.5
                             else rng.choice(spec.parse.samples))
    for spec in OPTION_SPECS.values():
        if spec.needs is not None and values[spec.needs[0]] not in spec.needs[1]:
            values[spec.name] = spec.default
    if values["hand_size"] * players >= 100:
        values["hand_size"] = 3
    values["teams"], values["first_dealer"] = 0, "random"
    try:
        return Options(**values)
    except OptionError:
        return Options(rules=values["rules"], first_dealer="random")


def probes(game: Round, seat: int) -> list[Action]:
    """Actions worth asking the engine about for ``seat``: legal or not."""
    others = [s for s in range(game.players) if s != seat]
    out = [Action(seat, Verb.PRESS), Action(seat, Verb.DRAW), Action.pass_(seat),
           Action.call_uno(seat), Action.challenge(seat), Action.out(seat),
           Action.choose(seat, COLORS[0]), *(Action.catch(seat, o) for o in others)]
    hand = game.hands[seat]
    for card in dict.fromkeys(hand):
        kind = game.kind(card)
        color = COLORS[1] if kind.wild else None
        target = others[0] if kind.names_seat else None
        out.append(Action.play(seat, card, color, target))
        out.append(Action.play(seat, card, color, target, uno=True))
        if hand.count(card) > 1:
            out.append(Action.play(seat, (card, card), color, target))
    return out


def trace(case: int) -> str:
    """The digest of one seeded random game."""
    rng = random.Random(case)
    players = rng.randint(2, 6)
    match = Match([f"p{i}" for i in range(players)], case_options(rng, players), seed=case)
    game, _ = match.deal_round()
    digest = hashlib.sha256(repr(game.options).encode())
    for _ in range(STEPS):
        if game.over:
            break
        choices: list[Action] = []
        for seat in range(players):
            legal = game.legal_actions(seat)
            choices += legal
            digest.update(repr(legal).encode())
            for probe in probes(game, seat):
                digest.update(repr(game.illegal_reason(probe)).encode())
        if not choices:
            break
        action = rng.choice(choices)
        applied = game.apply(action, fired=rng.randint(0, 3),
                             shuffle=random.Random(rng.random()).shuffle)
        digest.update(repr(applied).encode())
        digest.update(repr(game.snapshot()).encode())
    return digest.hexdigest()


if __name__ == "__main__":
    json.dump({str(case): trace(case) for case in range(CASES)}, sys.stdout, indent=1)
    print()
