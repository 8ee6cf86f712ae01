"""The PettingZoo environment and the single-agent Gymnasium one: PettingZoo's own API and
seed tests, Gymnasium's checker, the fixed action space against the engine's legal actions
in random games of random rule sets, the observation against the state, rewards, reaction
steps, rendering and bad arguments."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from tests.uno_attack.test_engine_properties import options as any_options
from uno_attack.actions import Action, Verb
from uno_attack.cards import Card
from uno_attack.engine import Round
from uno_attack.env import ACTIONS, OBSERVATION, SingleAgentEnv, action_id, action_of, env, raw_env
from uno_attack.env.layout import CARDS, WAIT, field_slice
from uno_attack.errors import IllegalActionError, InvalidActionError, UnoAttackError
from uno_attack.penalties import FIRE
from uno_attack.turns import reaction_order

DOCS = Path(__file__).resolve().parents[2] / "docs" / "env.md"
TABLES = [
    {},
    {"rules": "classic", "players": 4},
    {"preset": "no-mercy", "players": 3},
    {"options": {"jump_in": "any", "sum_out": True, "false_uno_penalty": 2,
                 "false_catch_penalty": 1}, "players": 5},
    {"rules": "classic", "players": 4, "options": {"teams": 2, "stacking": "up",
                                                   "deflect": True}},
]


def masked_random(mask: np.ndarray, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


class TestPettingZoo:
    @pytest.mark.parametrize("table", TABLES)
    def test_api_test(self, table: dict[str, object]) -> None:
        with warnings.catch_warnings():
            # PettingZoo warns of dict observations but for the classic games it lists
            warnings.filterwarnings("ignore", "Observation is not a NumPy array")
            warnings.filterwarnings("ignore", "Observation space for each agent probably")
            api_test(env(**table), num_cycles=200)

    @pytest.mark.parametrize("table", TABLES)
    def test_seed_test(self, table: dict[str, object]) -> None:
        seed_test(lambda: env(**table), num_cycles=100)

    def test_a_seed_deals_the_same_rounds_and_another_seed_others(self) -> None:
        first, second = raw_env(players=3), raw_env(players=3)
        first.reset(seed=7)
        second.reset(seed=7)
        assert first.seats.game == second.seats.game
        second.reset()  # the next round of seed 7
        first.reset(seed=7)
        first.reset()
        assert first.seats.game == second.seats.game
        first.seed(7)  # as older code seeds: the next reset deals seed 7's first round
        first.reset()
        second.reset(seed=7)
        assert first.seats.game == second.seats.game
        hands = set()
        for seed in range(5):
            first.reset(seed=seed)
            hands.add(tuple(first.seats.game.hands[0]))
        assert len(hands) == 5

    def test_a_round_of_masked_random_agents_ends_with_its_rewards(self) -> None:
        game_env = env(players=4, options={"teams": 2})
        game_env.reset(seed=3)
        rng = random.Random(3)
        rewards = dict.fromkeys(game_env.possible_agents, 0.0)
        for agent in game_env.agent_iter():
            obs, reward, terminated, truncated, _ = game_env.last()
            rewards[agent] += reward
            game_env.step(None if terminated or truncated else
                          masked_random(obs["action_mask"], rng))
        game = game_env.unwrapped.seats.game
        assert game.over
        winners = {f"player_{s}" for s in range(4) if s % 2 == game.winner % 2}
        assert rewards == {a: 1.0 if a in winners else -1.0 for a in rewards}

    def test_an_illegal_action_ends_the_round_with_minus_one_for_its_agent(
            self, caplog: pytest.LogCaptureFixture) -> None:
        game_env = env(players=2)
        game_env.reset(seed=1)
        agent = game_env.agent_selection
        mask = game_env.observe(agent)["action_mask"]
        game_env.step(int(np.flatnonzero(mask == 0)[0]))
        assert "Illegal move made" in caplog.text
        assert game_env.rewards[agent] == -1
        assert all(game_env.terminations.values())

    def test_the_raw_environment_names_what_is_illegal(self) -> None:
        raw = raw_env(players=2)
        raw.reset(seed=1)
        with pytest.raises(IllegalActionError, match=r"action 166 \(wait\).*reaction step"):
            raw.step(WAIT)

    def test_render_shows_every_hand_and_the_last_action(self, capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
        ansi = raw_env(players=2, render_mode="ansi")
        ansi.reset(seed=2)
        game = ansi.seats.game
        text = ansi.render()
        assert text is not None
        assert f"top {game.top}" in text
        for seat, hand in enumerate(game.hands):
            assert f"player_{seat}: " + " ".join(
                c.code for c in game.rules.sort(hand)) in text
        ansi.step(masked_random(ansi.observe(ansi.agent_selection)["action_mask"],
                                random.Random(1)))
        assert "last: player_" in ansi.render()  # type: ignore[operator]
        human = raw_env(players=2, render_mode="human")
        human.reset(seed=2)
        assert human.render() is None
        assert f"top {human.seats.game.top}" in capsys.readouterr().out

    @pytest.mark.parametrize(("arguments", "fragment"), [
        ({"players": 11}, "players = 11: must be 2 to 10"),
        ({"rules": "poker"}, "option 'rules' = 'poker'"),
        ({"options": {"stackin": "up"}}, "unknown option 'stackin'"),
        ({"preset": "wild"}, "unknown preset 'wild'"),
        ({"policy": "wild"}, "unknown policy 'wild'"),
        ({"players": 3, "options": {"teams": 2}}, "option 'teams' = 2: 3 players"),
        ({"players": 10, "options": {"hand_size": 12}}, "hand_size"),
        ({"players": 4.0}, "players = 4.0: must be 2 to 10 (a whole number)"),
        ({"max_steps": 0}, "max_steps = 0: must be 1 or more"),
        ({"max_steps": -1}, "max_steps = -1: must be 1 or more"),
        ({"max_steps": float("inf")}, "max_steps = inf: must be 1 or more (a whole number)"),
        ({"max_steps": True}, "max_steps = True"),
    ])
    def test_bad_arguments_say_what_is_wrong(self, arguments: dict[str, object],
                                             fragment: str) -> None:
        with pytest.raises(UnoAttackError, match=re.escape(fragment)):
            raw_env(**arguments)  # type: ignore[arg-type]

    def test_numpy_integers_are_counts_and_actions(self) -> None:
        raw = raw_env(players=np.int64(4), max_steps=np.int32(50))  # type: ignore[arg-type]
        assert raw.possible_agents == [f"player_{s}" for s in range(4)]
        raw.reset(seed=1)
        legal = np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])
        raw.step(legal[0])  # a NumPy integer, as np.flatnonzero gives it
        assert raw.seats.table.events

    @pytest.mark.parametrize("action", [26.7, 26.0, "26", True, None])
    def test_an_action_that_is_not_an_integer_is_refused(self, action: object) -> None:
        raw = raw_env(players=2)
        raw.reset(seed=1)
        before = [list(hand) for hand in raw.seats.game.hands]
        with pytest.raises(InvalidActionError, match=f"action {action!r}"):
            raw.step(action)  # type: ignore[arg-type]
        assert [list(hand) for hand in raw.seats.game.hands] == before

    def test_a_dead_agent_steps_with_none_and_a_step_after_the_round_is_refused(
            self, caplog: pytest.LogCaptureFixture) -> None:
        raw = raw_env(players=2)
        with pytest.raises(ResetNeeded):
            raw.step(0)
        raw.reset(seed=1)
        rng = random.Random(1)
        for _agent in raw.agent_iter(10_000):
            obs, _, terminated, truncated, _ = raw.last()
            if terminated or truncated:
                with pytest.raises(ValueError, match="only valid action is None"):
                    raw.step(0)  # PettingZoo's rule for a dead agent
                raw.step(None)
                continue
            raw.step(masked_random(obs["action_mask"], rng))
        assert raw.agents == []
        with pytest.raises(ResetNeeded, match="call reset"):
            raw.step(None)
        wrapped = env(players=2)
        wrapped.reset(seed=1)
        for _agent in wrapped.agent_iter(10_000):
            obs, _, terminated, truncated, _ = wrapped.last()
            wrapped.step(None if terminated or truncated
                         else masked_random(obs["action_mask"], rng))
        wrapped.step(None)  # PettingZoo's order enforcing warns and does nothing
        assert "step() called after all agents are terminated" in caplog.text


def decisions(seed: int, players: int, chosen: dict[str, object], steps: int):  # type: ignore[no-untyped-def]
    """Drive the raw environment with masked random ids; yield it at each decision."""
    rng = random.Random(seed)
    game_env = raw_env(players=players, options=chosen, max_steps=steps)
    game_env.reset(seed=seed)
    for agent in game_env.agent_iter(steps):
        obs, _, terminated, truncated, _ = game_env.last()
        if terminated or truncated:
            game_env.step(None)
            continue
        yield game_env, game_env.possible_agents.index(agent), obs
        game_env.step(masked_random(obs["action_mask"], rng))


class TestActionSpace:
    @settings(max_examples=30, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10), data=st.data())
    def test_every_legal_action_has_an_id_and_every_allowed_id_is_legal(
            self, seed: int, players: int, data: st.DataObject) -> None:
        chosen = data.draw(any_options(players)).to_dict()
        for game_env, seat, obs in decisions(seed, players, chosen, 150):
            game: Round = game_env.seats.game
            mask = obs["action_mask"]
            reacting = game_env.seats.reacting
            listed = {action_id(a, players) for a in game.legal_actions(seat)
                      if len(a.cards) <= 1}
            assert listed | ({WAIT} if reacting else set()) == set(np.flatnonzero(mask))
            for i in np.flatnonzero(mask):
                action = action_of(int(i), seat, game)
                assert (action is None) == (i == WAIT)
                assert action is None or game.is_legal(action), ACTIONS[i].text
            for other in range(players):  # nobody else has a move now
                if other != seat:
                    assert not game_env.observe(f"player_{other}")["action_mask"].any()

    def test_seats_are_counted_clockwise_from_the_agent(self) -> None:
        trade = Card.parse("RT")
        assert ACTIONS[action_id(Action.play(3, trade, target=1), 4)].text == "play RT +2"
        assert ACTIONS[action_id(Action.play(1, trade, target=0), 4)].text == "play RT +3"
        assert ACTIONS[action_id(Action.catch(2, 0), 3)].text == "catch +1"
        game_env = raw_env(players=4)
        game_env.reset(seed=0)
        catch = ACTIONS.index(next(s for s in ACTIONS if s.text == "catch +3"))
        assert action_of(catch, 2, game_env.seats.game) == Action.catch(2, 1)
        with pytest.raises(ValueError, match="names a seat this table of 4 does not have"):
            action_of(catch + 1, 2, game_env.seats.game)

    def test_a_play_that_leaves_one_card_calls_uno(self) -> None:
        game_env = raw_env(players=3)
        game_env.reset(seed=4)
        seats = game_env.seats
        game = seats.game
        seat = game.to_act
        card = next(c for c in game.hands[seat] if game.is_legal(Action.play(seat, c)))
        game.hands[seat][:] = [card, Card.parse("B9")] if card is not Card.parse("B9") \
            else [card, Card.parse("Y9")]
        seats._mask = None  # the hand was set by hand
        game_env.step(action_id(Action.play(seat, card), 3))
        assert len(game.hands[seat]) == 1
        assert game.uno_seat is None  # called: nobody may catch
        assert seats.table.events[-1].action == Action.call_uno(seat)

    def test_reaction_steps_ask_each_seat_that_may_act_out_of_turn(self) -> None:
        """Jump-in: after each play, every seat but the one to act that holds the top card
        is asked in reaction order, each may wait, and then the seat to act moves."""
        asked_rounds = 0
        for game_env, seat, obs in decisions(5, 4, {"jump_in": "any"}, 400):
            seats = game_env.seats
            game = seats.game
            asking = seats.table.turns.asking
            if seats.reacting and asking[0] == seat:
                expected = tuple(s for s in reaction_order(game)
                                 if s != game.to_act and game.legal_actions(s))
                if asking == expected:
                    asked_rounds += 1
                assert obs["observation"][field_slice("reacting")][0] == 1
                assert obs["action_mask"][WAIT] == 1
            else:
                assert seat == game.to_act
        assert asked_rounds > 0


class TestObservation:
    def test_the_slices_tell_the_state_from_the_agent_s_seat(self) -> None:
        for game_env, seat, obs in decisions(8, 4, {"stacking": "same"}, 120):
            game = game_env.seats.game
            view = obs["observation"]
            hand = view[field_slice("hand")]
            assert {CARDS[i]: int(n) for i, n in enumerate(hand) if n} == {
                c: game.hands[seat].count(c) for c in game.hands[seat]}
            assert CARDS[int(np.argmax(view[field_slice("top")]))] is game.top
            assert list(view[field_slice("hand_sizes")][:3]) == [
                len(game.hands[(seat + k) % 4]) for k in (1, 2, 3)]
            assert list(view[field_slice("seats")]) == [1, 1, 1, 0, 0, 0, 0, 0, 0]
            assert view[field_slice("discard")].sum() == len(game.discard)
            assert view[field_slice("stock_size")][0] == len(game.stock)
            assert view[field_slice("clockwise")][0] == (game.direction == 1)
            turn = view[field_slice("turn")]
            assert turn[(game.turn - seat) % 4] == 1
            assert turn.sum() == 1
            owed = view[field_slice("owed_by")]
            if game.owed:
                first = game.owed[0]
                assert owed[(first.seat - seat) % 4] == 1
                fire = first.count == FIRE
                assert view[field_slice("owed_until_fire")][0] == fire
                assert view[field_slice("owed_count")][0] == (0 if fire else first.count)
            else:
                assert not owed.any()

    def test_the_document_lists_every_field_and_every_action(self) -> None:
        text = DOCS.read_text(encoding="utf-8")
        start = 0
        for field in OBSERVATION:
            cells = f"| `{field.name}` | {start}–{start + field.size - 1} | {field.size} |"
            assert cells in text, cells
            start += field.size
        first = {}
        for i, slot in enumerate(ACTIONS):
            first.setdefault(slot.verb, i)
        for verb, i in first.items():
            assert f"| {i}" in text, verb
        assert f"{len(ACTIONS)} actions" in text
        assert f"{start} numbers" in text


class TestSingleAgent:
    @pytest.mark.parametrize("table", [
        {}, {"rules": "classic", "players": 4, "opponents": "random"},
        {"players": 3, "opponents": ["basic", "random"], "options": {"jump_in": "any"}}])
    def test_gymnasium_s_checker(self, table: dict[str, object]) -> None:
        check_env(SingleAgentEnv(**table), skip_render_check=True)  # type: ignore[arg-type]

    def test_masked_random_agent_plays_rounds_against_the_bots(self) -> None:
        game_env = SingleAgentEnv(players=3, seat=1, opponents="basic")
        rng = random.Random(2)
        results = []
        for episode in range(10):
            _, info = game_env.reset(seed=episode)
            assert game_env.seats.decider == 1
            assert (info["action_mask"] == game_env.action_masks()).all()
            done, reward = False, 0.0
            while not done:
                _, reward, terminated, truncated, info = game_env.step(
                    masked_random(info["action_mask"], rng))
                done = terminated or truncated
            assert game_env.seats.game.over
            assert reward == (1.0 if game_env.seats.game.winner == 1 else -1.0)
            results.append(reward)
        assert results.count(-1.0) > results.count(1.0)  # basic bots beat random moves

    def test_a_bot_that_lets_a_chance_go_leaves_the_next_reaction_to_the_agent(self) -> None:
        """Jump-ins under "any": the seats asked out of turn are bots and the agent in
        turns; a bot's step makes its own decision only, never the agent's."""
        game_env = SingleAgentEnv(players=3, seat=0, opponents=["basic", "random"],
                                  options={"jump_in": "any"})
        rng = random.Random(5)
        agent_reactions = 0
        for episode in range(30):
            _, info = game_env.reset(seed=episode)
            done = False
            while not done:
                agent_reactions += game_env.seats.reacting
                _, _, terminated, truncated, info = game_env.step(
                    masked_random(info["action_mask"], rng))
                done = terminated or truncated
        assert agent_reactions > 0  # the agent was asked out of turn, after bots

    def test_an_illegal_action_ends_the_episode_and_says_why(self) -> None:
        game_env = SingleAgentEnv()
        _, info = game_env.reset(seed=0)
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
        _, reward, terminated, _, info = game_env.step(illegal)
        assert (reward, terminated) == (-1.0, True)
        assert f"action {illegal}" in info["illegal"]

    @pytest.mark.parametrize("action", [26.7, "26", None])
    def test_an_action_that_is_not_an_integer_is_refused(self, action: object) -> None:
        game_env = SingleAgentEnv()
        game_env.reset(seed=0)
        with pytest.raises(InvalidActionError, match="an action id is an integer"):
            game_env.step(action)  # type: ignore[arg-type]
        _, info = game_env.reset(seed=0)
        game_env.step(np.flatnonzero(info["action_mask"])[0])  # a NumPy integer

    def test_numpy_integer_counts_are_taken(self) -> None:
        game_env = SingleAgentEnv(players=np.int64(3), seat=np.int64(2))  # type: ignore[arg-type]
        game_env.reset(seed=0)
        assert game_env.seats.decider == 2

    def test_a_step_after_the_end_is_refused(self) -> None:
        game_env = SingleAgentEnv(max_steps=3)
        with pytest.raises(ResetNeeded):
            game_env.step(0)
        rng = random.Random(0)
        for ending in ("terminated", "truncated", "illegal"):
            _, info = game_env.reset(seed=4)
            done = False
            while not done:
                mask = info["action_mask"]
                action = (int(np.flatnonzero(mask == 0)[0]) if ending == "illegal"
                          else masked_random(mask, rng))
                _, _, terminated, truncated, info = game_env.step(action)
                done = terminated or truncated
            with pytest.raises(ResetNeeded, match="call reset"):
                game_env.step(masked_random(info["action_mask"], rng) if
                              info["action_mask"].any() else 0)
            game_env.max_steps = 10_000 if ending == "terminated" else 3

    @pytest.mark.parametrize(("arguments", "fragment"), [
        ({"seat": 2}, "seat = 2: must be 0 to 1"),
        ({"seat": 1.0}, "seat = 1.0: must be 0 to 1 (a whole number)"),
        ({"max_steps": 0}, "max_steps = 0: must be 1 or more"),
        ({"max_steps": float("inf")}, "max_steps = inf: must be 1 or more"),
        ({"opponents": "smart2"}, "unknown bot kind 'smart2'"),
        ({"players": 3, "opponents": ["basic"]}, "one bot kind for each of the 2 other seats"),
    ])
    def test_bad_arguments(self, arguments: dict[str, object], fragment: str) -> None:
        with pytest.raises(UnoAttackError, match=re.escape(fragment)):
            SingleAgentEnv(**arguments)  # type: ignore[arg-type]


def test_the_game_never_imports_numpy() -> None:
    code = ("import sys, uno_attack.cli.simulate, uno_attack.session, uno_attack.simulate, "
            "uno_attack.cli.play; assert 'numpy' not in sys.modules, 'numpy was imported'")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr


def test_verbs_of_the_space_are_the_engine_s() -> None:
    engine_verbs = {v.value for v in Verb} - {"press", "draw"}
    assert {slot.verb for slot in ACTIONS} == engine_verbs | {"take", "wait"}
