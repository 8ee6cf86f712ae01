"""The ``uno-attack`` command as a user runs it: real subprocesses, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[3] / "shared" / "transcripts"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def test_help_lists_commands() -> None:
    result = run("--help")
    assert result.returncode == 0
    for command in ("play", "replay", "simulate", "launcher stats", "stats", "history"):
        assert command in result.stdout


def test_unknown_command() -> None:
    result = run("dance")
    assert result.returncode == 2
    assert "unknown command 'dance'" in result.stderr


class TestReplay:
    def test_shared_transcripts_pass(self) -> None:
        files = sorted(str(p) for p in SHARED.glob("*.json"))
        assert files
        result = run("replay", *files)
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.strip().splitlines()[-1] == f"{len(files)} passed, 0 failed"

    def test_a_failing_transcript_names_file_step_and_difference(self, tmp_path: Path) -> None:
        data = json.loads((SHARED / "00-example.json").read_text())
        data["steps"][1]["expect"]["turn"] = 1
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data))
        result = run("replay", str(SHARED / "01-hit2.json"), str(bad))
        assert result.returncode == 1
        assert "bad.json" in result.stdout
        assert "step 2" in result.stdout
        assert "expected: 1" in result.stdout
        assert "found:    2" in result.stdout
        assert result.stdout.strip().splitlines()[-1] == "1 passed, 1 failed"

    def test_fires_running_out_fails_with_that_reason(self, tmp_path: Path) -> None:
        data = json.loads((SHARED / "00-example.json").read_text())
        data["fires"] = [1]
        path = tmp_path / "short.json"
        path.write_text(json.dumps(data))
        result = run("replay", str(path))
        assert result.returncode == 1
        assert "fires ran out" in result.stdout

    @pytest.mark.parametrize(("change", "fragment"), [
        (lambda d: d.pop("hands"), "key 'hands' is missing"),
        (lambda d: d["hands"][1].append("R0"),
         "key 'hands[1][3]': unknown card code of UNO Attack (got 'R0')"),
        (lambda d: d.update(options={"jump_out": True}), "unknown option 'jump_out'"),
        (lambda d: d.update(options={"jump_in": True}), "option 'jump_in' = True: expected one"),
        (lambda d: d.update(options={"wild_draw_four": "free"}),
         "option 'wild_draw_four' = 'free': only with rules = classic"),
        (lambda d: d.update(options={"rules": "classic"}), "unknown card code of classic UNO"),
        (lambda d: d.update(players=11), "key 'players'"),
        (lambda d: d["steps"].append("2 fly"), "key 'steps[6]'"),
        (lambda d: d["launcher"].extend(["G2", "G2"]), "G2 named more often than the deck"),
        (lambda d: d.update(rest="some"), "key 'rest'"),
        (lambda d: d.update(colour="red"), "key 'colour': unknown key"),
        (lambda d: d["steps"][1]["expect"].update(legal=[1, "press"]),
         "key 'steps[1].expect.legal'"),
        (lambda d: d["steps"][5]["expect"].update(hands={"2": [["R1"]]}),
         "key 'steps[5].expect.hands"),
    ])
    def test_invalid_transcript_exits_2_naming_file_key_value(
        self, tmp_path: Path, change: object, fragment: str
    ) -> None:
        data = json.loads((SHARED / "00-example.json").read_text())
        change(data)  # type: ignore[operator]
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(data))
        result = run("replay", str(path))
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        assert str(path) in result.stderr
        assert fragment in result.stderr
        assert result.stdout.strip().splitlines()[-1] == "0 passed, 1 failed"

    def test_not_json(self, tmp_path: Path) -> None:
        path = tmp_path / "half.json"
        path.write_text('{"name": ')
        result = run("replay", str(path))
        assert result.returncode == 2
        assert "half.json: not valid JSON" in result.stderr


class TestSimulate:
    def test_same_seed_same_output_and_json_keys(self) -> None:
        args = ("simulate", "--games", "20", "--players", "3", "--bots", "mixed", "--seed", "4",
                "--json")
        first, second = run(*args), run(*args)
        assert first.returncode == 0, first.stderr
        assert first.stdout == second.stdout
        data = json.loads(first.stdout)
        assert set(data) == {"games", "actions", "presses", "cards_fired", "mean_actions",
                             "wins"}
        assert set(data["wins"]) == {"basic", "random-1", "random-2"}
        assert sum(data["wins"].values()) == data["games"] == 20
        assert data["mean_actions"] == pytest.approx(data["actions"] / 20, abs=1e-3)

    def test_saved_rounds_replay(self, tmp_path: Path) -> None:
        result = run("simulate", "--games", "5", "--players", "5", "--bots", "random",
                     "--seed", "2", "--save", str(tmp_path))
        assert result.returncode == 0, result.stderr
        assert "random-5" in result.stdout
        files = sorted(str(p) for p in tmp_path.glob("*.json"))
        assert len(files) == 5
        replayed = run("replay", *files)
        assert replayed.returncode == 0, replayed.stdout
        assert replayed.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"

    @pytest.mark.parametrize("rules", [("--option", "rules=classic"), ("--preset", "party"),
                                       ("--preset", "no-mercy", "--option", "rules=classic")])
    def test_rule_sets_and_presets_play_and_replay(self, tmp_path: Path,
                                                    rules: tuple[str, ...]) -> None:
        result = run("simulate", "--games", "4", "--players", "3", "--bots", "basic",
                     "--seed", "3", "--save", str(tmp_path), *rules)
        assert result.returncode == 0, result.stderr
        files = sorted(str(p) for p in tmp_path.glob("*.json"))
        saved = json.loads(Path(files[0]).read_text())
        assert saved["options"]["match"] == "single"
        if "party" in rules:
            assert saved["options"]["stacking"] == "up"  # the options the preset expands to
        if "rules=classic" in rules:
            assert saved["options"]["rules"] == "classic"
        replayed = run("replay", *files)
        assert replayed.stdout.strip().splitlines()[-1] == "4 passed, 0 failed"

    @pytest.mark.parametrize(("args", "fragment"), [
        (("--option", "stacking=true"), "option 'stacking' = 'true': expected one of off"),
        (("--option", "stackin=up"), "unknown option 'stackin'"),
        (("--option", "rounds=3"), "option 'rounds' = 3: only with match = net"),
        (("--option", "rules=classic", "--option", "play_after_press=true"),
         "option 'play_after_press' = True: only with rules = attack"),
        (("--preset", "wild"), "unknown preset 'wild' (known: party, classic, house"),
        (("--players", "3", "--option", "teams=2"), "option 'teams' = 2: 3 players"),
        (("--option", "target=-5"), "option 'target' = '-5'"),
        (("--policy", "wild"), "unknown policy 'wild'"),
    ])
    def test_bad_input_one_line_no_traceback(self, args: tuple[str, ...], fragment: str) -> None:
        result = run("simulate", "--games", "1", *args)
        assert result.returncode == 2
        assert fragment in result.stderr
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


class TestLauncherStats:
    def test_attack_policy_matches_the_recorded_toy(self) -> None:
        result = run("launcher", "stats", "--policy", "attack", "--presses", "200000",
                     "--seed", "1", "--json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert data["fire_rate"] == pytest.approx(0.352, abs=0.01)
        for gap, expected in {"1": 0.20, "2": 0.08, "3": 0.40, "4": 0.32}.items():
            assert data["gaps"][gap] == pytest.approx(expected, abs=0.01)
        assert set(data["gaps"]) == {"1", "2", "3", "4"}
        assert data["longest_empty_run"] <= 3
        assert {int(k) for k in data["bursts"]} <= set(range(1, 13))
        assert sum(data["bursts"].values()) == pytest.approx(1.0)
        assert data["mean_burst"] == pytest.approx(3.45, abs=0.1)

    def test_text_output_has_histograms(self) -> None:
        result = run("launcher", "stats", "--policy", "fixed:2", "--presses", "50")
        assert result.returncode == 0
        assert "fire rate          1.0000" in result.stdout
        assert "    2 | ####" in result.stdout

    def test_bad_policy(self) -> None:
        result = run("launcher", "stats", "--policy", "fixed:x")
        assert result.returncode == 2
        assert "fixed:x" in result.stderr
        assert "Traceback" not in result.stderr


def test_play_takes_a_preset_and_options_over_it() -> None:
    from uno_attack.cli.play import config_from_args

    config, _ = config_from_args(["--preset", "party", "--option", "stacking=same",
                                  "--match", "single"])
    assert (config.options.stacking, config.options.seven_zero, config.options.match) == (
        "same", True, "single")


@pytest.mark.parametrize("command", ["play", "host"])
def test_an_unknown_preset_is_refused_listing_the_known_ones(command: str) -> None:
    result = run(command, "--preset", "wild")
    assert result.returncode == 2
    assert result.stderr.strip() == (f"uno-attack {command}: error: unknown preset 'wild' "
                                     "(known: party, classic, house, no-mercy, strict)")
