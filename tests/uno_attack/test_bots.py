"""Every bot, under every rule set and combination of options: only legal actions, in turn
and out of it, decided only from what its seat sees; the registry, and the bots where
users choose them (simulate, play, host, the environment); basic against random."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from uno_attack.actions import Verb
from uno_attack.bots import BOT_KINDS, SmartBot, make_bot
from uno_attack.bots.worlds import set_bluff
from uno_attack.engine import Round
from uno_attack.env import SingleAgentEnv
from uno_attack.errors import OptionError
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import OPTION_SPECS, Options
from uno_attack.simulate import simulate
from uno_attack.table import Table


def test_basic_beats_three_random_bots() -> None:
    """It wins nine rounds in ten; a bot no better than random would win one in four."""
    stats = simulate(300, 4, "mixed", seed=1)
    share = stats.wins["basic"] / stats.games
    assert share >= 0.40, f"basic won {share:.1%} of rounds"


def test_simulation_is_deterministic() -> None:
    assert simulate(30, 3, "random", 5).to_json() == simulate(30, 3, "random", 5).to_json()


def test_the_registry_makes_every_kind_by_name() -> None:
    for kind in BOT_KINDS:
        bot = make_bot(kind, f"a {kind}", seed=1)
        assert (bot.kind, bot.name) == (kind, f"a {kind}")
    with pytest.raises(ValueError, match=r"unknown bot 'clever'.*random, basic, smart"):
        make_bot("clever", "x")


@st.composite
def rule_options(draw: st.DrawFn, players: int) -> Options:
    """Options drawn from their declarations: each option its default or one of its
    samples; an option refused with the others (VARIANTS.md E1) goes back to its default."""
    values: dict[str, Any] = {name: draw(st.sampled_from((spec.default, *spec.parse.samples)))
                              for name, spec in OPTION_SPECS.items()}
    values["hand_size"] = min(values["hand_size"], 7)
    values["first_dealer"] = "random"
    for name, spec in OPTION_SPECS.items():
        if spec.needs is not None and values[spec.needs[0]] not in spec.needs[1]:
            values[name] = spec.default
    try:
        chosen = Options(**values)
        chosen.check_players(players)
    except OptionError:
        chosen = Options(**{**values, "teams": 0})
    return chosen


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, int, Options]:
    players = draw(st.integers(2, 6))
    return players, draw(st.integers(0, 2**32 - 1)), draw(rule_options(players))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
# The smart bot's belief once guessed a card drawn until playable that was not playable.
@example((2, 1, Options(rules="classic", until_playable=True, first_dealer="random")))
# The rule bot, pressing on until a card fits, once picked a false catch among the moves.
@example((4, 0, Options(rules="classic", hand_size=1, until_playable=True,
                        first_dealer="random")))
def test_bots_choose_only_legal_actions(setup: tuple[int, int, Options]) -> None:
    """Seats take the kinds in turn; every choice and every reaction must be legal (the
    engine says why not), and false calls are never made (VARIANTS.md B8)."""
    players, seed, options = setup
    match = Match([f"p{i}" for i in range(players)], options, seed=seed)
    game, record = match.deal_round()
    kinds = [BOT_KINDS[(seed + i) % len(BOT_KINDS)] for i in range(players)]
    bots = [make_bot(kind, f"p{i}", seed=seed, playouts=2)
            for i, kind in enumerate(kinds)]
    table = Table(game, bots, open_launcher("sim", seed=seed), record,
                  reload_rng=match.reload_rng())
    for _ in range(120):
        if game.over:
            break
        seat = game.to_act
        assert seat is not None
        window = game.uno_seat
        action = bots[seat].choose(game, seat, game.legal_actions())
        assert game.illegal_reason(action) is None, (kinds[seat], str(game), action)
        if kinds[seat] != "random":
            assert action.verb is not Verb.UNO or window == seat
            assert action.verb is not Verb.CATCH or window == action.target
        table.perform(action)
        for other in range(players):
            reaction = bots[other].react(game, other)
            if reaction is not None:
                assert game.illegal_reason(reaction) is None, (kinds[other], str(game),
                                                                reaction)
                assert reaction.verb is not Verb.CATCH or game.uno_seat == reaction.target
                table.perform(reaction)
                break


def hidden_dealt_anew(game: Round, seat: int, rng: random.Random) -> Round:
    """A copy of ``game`` that ``seat`` cannot tell from it: the cards of the other hands
    and the stock shuffled among them (each keeping its size), and a Wild Draw Four's bluff
    turned the other way."""
    world = game.copy()
    others = [s for s in range(game.players) if s != seat]
    pool = [card for s in others for card in game.hands[s]] + list(game.stock)
    rng.shuffle(pool)
    for s in others:
        world.hands[s][:] = [pool.pop() for _ in game.hands[s]]
    world.stock.clear()
    world.stock.extend(pool)
    head = world.owed[0] if world.owed else None
    if head is not None and head.cause.challenge is not None:
        set_bluff(world, not head.cause.challenge.bluff)
    return world


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.integers(0, 60), st.sampled_from(BOT_KINDS))
def test_bots_decide_only_from_what_their_seat_sees(
        setup: tuple[int, int, Options], steps: int, kind: str) -> None:
    """The same bot (same seed) makes the same choice, and the smart bot the same search,
    in a round whose hidden cards are dealt otherwise: it never looks at other hands, the
    stock's order or whether a Wild Draw Four was a bluff."""
    players, seed, options = setup
    match = Match([f"p{i}" for i in range(players)], options, seed=seed)
    game, record = match.deal_round()
    table = Table(game, [make_bot("basic", f"p{i}", seed=i) for i in range(players)],
                  open_launcher("sim", seed=seed), record, reload_rng=match.reload_rng())
    for _ in range(steps):
        if game.over:
            break
        table.step()
    seat = game.to_act
    if seat is None:
        return
    decisions = []
    for world in (game, hidden_dealt_anew(game, seat, random.Random(seed))):
        bot = make_bot(kind, "b", seed=seed, playouts=12, budget_ms=600_000)
        action = bot.choose(world.copy(), seat, world.legal_actions())
        search = bot.last if isinstance(bot, SmartBot) else None
        decisions.append((action, search and (search.playouts, search.visits, search.wins),
                          make_bot(kind, "b", seed=seed).react(world.copy(), seat)))
    assert decisions[0] == decisions[1]


def uno_attack(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_simulate_seats_the_smart_bot_beside_another_kind() -> None:
    done = uno_attack("simulate", "--players", "2", "--bots", "smart,basic", "--games", "2",
                      "--seed", "3", "--option", "hand_size=3", "--smart-playouts", "8",
                      "--json")
    assert done.returncode == 0, done.stderr
    wins = json.loads(done.stdout)["wins_by_kind"]
    assert set(wins) == {"smart", "basic"}
    assert sum(wins.values()) == 2


def test_play_and_host_offer_every_bot_kind() -> None:
    for command in ("play", "host"):
        shown = uno_attack(command, "--help")
        assert shown.returncode == 0, shown.stderr
        assert "{" + ",".join(BOT_KINDS) + "}" in shown.stdout, command


def test_the_environment_seats_smart_opponents() -> None:
    """The agent at seat 1 of two: the smart bot deals and moves first or in reply."""
    seat = SingleAgentEnv(players=2, seat=1, opponents="smart", options={"hand_size": 3})
    _, info = seat.reset(seed=4)
    assert isinstance(seat.seats.table.players[0], SmartBot)
    for _ in range(3):
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, terminated, truncated, info = seat.step(action)
        assert "illegal" not in info
        if terminated or truncated:
            break
