"""The like-for-like bench's picker keeps to RLCard's move semantics in our engine."""

from __future__ import annotations

import random

from benchmarks.bench_like_for_like import ROUND_LIMIT, rlcard_pick
from uno_attack.actions import Verb
from uno_attack.engine import Phase
from uno_attack.match import Match
from uno_attack.options import Options


def test_plays_when_it_can_a_draw_four_last_and_the_drawn_card_when_it_fits() -> None:
    options = Options(rules="classic", match="single", first_dealer="random",
                      wild_draw_four="free")
    seen = {"play", "draw four", "draw", "drawn played", "drawn kept"}
    for seed in range(60):
        match = Match(["a", "b", "c"], options, seed=seed)
        game, _ = match.deal_round()
        pick, shuffle = random.Random(seed).random, match.reload_rng().shuffle
        for _ in range(ROUND_LIMIT):
            if game.phase is Phase.OVER:
                break
            legal = game.legal_actions()
            action = rlcard_pick(game, legal, pick)
            assert action in legal
            plays = [a for a in legal if a.verb is Verb.PLAY]
            if game.phase is Phase.AFTER:
                drawn = game.hands[game.to_act][-1]
                fits = bool(plays) and (game.kind(drawn).wild or drawn.color is game.color)
                assert (action.verb is Verb.PLAY) == fits
                seen.discard("drawn played" if fits else "drawn kept")
            elif game.phase is Phase.PLAY:
                fours = [a for a in plays if game.kind(a.cards[0]).fair is not None]
                if len(fours) < len(plays):
                    assert action in plays
                    assert action not in fours
                    seen.discard("play")
                elif fours:
                    assert action in fours
                    seen.discard("draw four")
                else:
                    assert action.verb is Verb.DRAW
                    seen.discard("draw")
            game.push(action, shuffle=shuffle)
        assert game.phase is Phase.OVER
    assert seen == set()  # every case came up
