"""Ejection policies: seeded, bounded, and user tables checked with clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim_launcher.policies import BUILTIN_POLICIES, PolicyError, make_policy
from sim_launcher.stats import measure
from uno_attack.config import ConfigError, load_policy_tables


@pytest.mark.parametrize("name", [*BUILTIN_POLICIES, "fixed:1", "fixed:12"])
def test_same_seed_same_presses(name: str) -> None:
    first = [make_policy(name, seed=3).next_burst() for _ in range(500)]
    again = [make_policy(name, seed=3).next_burst() for _ in range(500)]
    assert first == again


def test_attack_never_more_than_three_empty_presses() -> None:
    stats = measure(make_policy("attack", seed=11), 20_000)
    assert stats.longest_empty_run == 3
    assert max(stats.bursts) <= 12


def test_gentle_and_brutal_differ_as_named() -> None:
    attack = measure(make_policy("attack", seed=1), 20_000)
    gentle = measure(make_policy("gentle", seed=1), 20_000)
    brutal = measure(make_policy("brutal", seed=1), 20_000)
    assert gentle.fire_rate < attack.fire_rate < brutal.fire_rate
    assert gentle.mean_burst < attack.mean_burst < brutal.mean_burst


def test_fixed_fires_exactly_n() -> None:
    policy = make_policy("fixed:3", seed=1)
    assert {policy.next_burst() for _ in range(100)} == {3}


@pytest.mark.parametrize("name", ["fixed:0", "fixed:00"])
def test_a_policy_that_never_fires_is_refused(name: str) -> None:
    with pytest.raises(PolicyError, match="never fires"):
        make_policy(name)


@pytest.mark.parametrize("fire", [[0.0], [0.5, 0.0], [0.2, 0.3, 0.0]])
def test_a_table_whose_empty_run_can_last_for_ever_is_refused(tmp_path: Path,
                                                               fire: list[float]) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[policies.stuck]\nfire = {fire}\nweights = [1]\n")
    with pytest.raises(PolicyError) as info:
        load_policy_tables(config)
    assert str(info.value).startswith(f"{config}: [policies.stuck]")
    assert f"fire[{len(fire) - 1}] = 0.0" in str(info.value)
    assert "no press ever fires again" in str(info.value)


def test_a_zero_chance_before_a_sure_one_is_fine(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[policies.late]\nfire = [0.0, 0.0, 1.0]\nweights = [1]\n")
    policy = make_policy("late", seed=1, user_tables=load_policy_tables(config))
    assert [policy.next_burst() for _ in range(6)] == [0, 0, 1, 0, 0, 1]


@pytest.mark.parametrize("name", ["fixed:13", "fixed:-1", "fixed:", "storm", "fixed:１２",
                                  "fixed:٣", "fixed: 3", "fixed:+3", "fixed:3.0"])
def test_bad_names(name: str) -> None:
    with pytest.raises(PolicyError, match=repr(name)[1:-1].split(":")[0]):
        make_policy(name)


def test_user_table(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[policies.party]\nfire = [0.5, 1.0]\nweights = [0, 1]\n')
    tables = load_policy_tables(config)
    policy = make_policy("party", seed=2, user_tables=tables)
    bursts = [policy.next_burst() for _ in range(200)]
    assert set(bursts) == {0, 2}
    assert "00" not in "".join(map(str, bursts))  # at most one empty press in a row


@pytest.mark.parametrize(("text", "fragment"), [
    ('[policies.x]\nfire = [1.5]\nweights = [1]\n', "fire[0] = 1.5"),
    ('[policies.x]\nfire = [1.0]\nweights = []\n', "'weights' must list"),
    ('[policies.x]\nfire = [1.0]\nweights = [1]\nwieghts = [2]\n', "unknown key 'wieghts'"),
    ('[policies.x]\nfire = "often"\nweights = [1]\n', "key 'fire' must be a list"),
    ('[policies.attack]\nfire = [1.0]\nweights = [1]\n', "taken by a built-in"),
    ('[policies.x\n', "not valid TOML"),
    ('[policies.x]\nfire = [1.0]\nweights = [nan]\n', "weights[0] = nan"),
    ('[policies.x]\nfire = [1.0]\nweights = [1, inf]\n', "weights[1] = inf"),
    ('[policies.x]\nfire = [nan]\nweights = [1]\n', "fire[0] = nan"),
    ('[policies.x]\nfire = [1.0]\nweights = [1]\ndescription = [1]\n', "'description'"),
    ('policies = 3\n', "key 'policies' must be a table"),
])
def test_bad_user_tables_name_file_and_key(tmp_path: Path, text: str, fragment: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text)
    with pytest.raises((PolicyError, ConfigError)) as info:
        load_policy_tables(config)
    assert fragment in str(info.value)
    assert str(config) in str(info.value)
