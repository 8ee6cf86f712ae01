"""The ``uno-attack`` command as a user runs it: real subprocesses, real files."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from uno_attack.cli import main as cli_main
from uno_attack.replay import replay
from uno_attack.transcript import load

SHARED = Path(__file__).resolve().parents[3] / "shared" / "transcripts"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_attack", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def run_with_terminal_stderr(*args: str) -> subprocess.CompletedProcess[str]:
    """The command with its stderr on a pseudo-terminal (as in a shell) and its stdout
    piped; what the terminal showed comes back as ``stderr``."""
    main, terminal = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"}
    with subprocess.Popen([sys.executable, "-m", "uno_attack", *args], stdout=subprocess.PIPE,
                          stderr=terminal, stdin=subprocess.DEVNULL, env=env) as child:
        os.close(terminal)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal closed with the command
                break
            if not chunk:
                break
            shown += chunk
        assert child.stdout is not None
        out = child.stdout.read()
        returncode = child.wait(timeout=120)
    os.close(main)
    return subprocess.CompletedProcess(child.args, returncode, out.decode(),
                                       shown.decode(errors="replace"))


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
                             "wins", "wins_by_kind"}
        assert set(data["wins"]) == {"basic", "random-1", "random-2"}
        assert sum(data["wins"].values()) == data["games"] == 20
        wins = data["wins"]
        assert data["wins_by_kind"] == {"basic": wins["basic"],
                                        "random": wins["random-1"] + wins["random-2"]}
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

    def test_first_dealer_deals_every_round(self, tmp_path: Path) -> None:
        result = run("simulate", "--games", "6", "--players", "4", "--seed", "3",
                     "--option", "first_dealer=1", "--save", str(tmp_path))
        assert result.returncode == 0, result.stderr
        rounds = [load(p) for p in sorted(tmp_path.glob("*.json"))]
        assert [r.dealer for r in rounds] == [1] * 6
        assert {r.options.first_dealer for r in rounds} == {1}
        assert all(replay(r).passed for r in rounds)

    def test_the_match_mode_scores_each_round_and_is_recorded(self, tmp_path: Path) -> None:
        result = run("simulate", "--games", "4", "--players", "3", "--seed", "5",
                     "--option", "match=lowest", "--option", "target=40",
                     "--save", str(tmp_path))
        assert result.returncode == 0, result.stderr
        for path in sorted(tmp_path.glob("*.json")):
            record = load(path)
            assert (record.options.match, record.options.target) == ("lowest", 40)
            played = replay(record)
            assert played.passed, played.failure
            game = played.round
            result = record.score(game)
            assert result is not None
            # lowest: every player adds their own hand (RULES.md 8)
            assert list(result.round_points) == [game.rules.hand_points(h) for h in game.hands]
            if max(result.scores) >= 40:
                assert result.match_winner is not None

    @pytest.mark.parametrize("rules", [("--option", "rules=classic"), ("--preset", "party"),
                                       ("--preset", "no-mercy", "--option", "rules=classic")])
    def test_rule_sets_and_presets_play_and_replay(self, tmp_path: Path,
                                                    rules: tuple[str, ...]) -> None:
        result = run("simulate", "--games", "4", "--players", "3", "--bots", "basic",
                     "--seed", "3", "--save", str(tmp_path), *rules)
        assert result.returncode == 0, result.stderr
        files = sorted(str(p) for p in tmp_path.glob("*.json"))
        saved = json.loads(Path(files[0]).read_text())
        assert "match" not in saved["options"]  # the default points match, as asked
        if "party" in rules:
            assert saved["options"]["stacking"] == "up"  # the options the preset expands to
        if "rules=classic" in rules:
            assert saved["options"]["rules"] == "classic"
        replayed = run("replay", *files)
        assert replayed.stdout.strip().splitlines()[-1] == "4 passed, 0 failed"

    def test_workers_change_nothing_in_the_output_or_the_saved_rounds(
            self, tmp_path: Path) -> None:
        args = ("simulate", "--games", "40", "--players", "3", "--bots", "basic,random,random",
                "--seed", "11", "--option", "jump_in=any")
        one, two = tmp_path / "one", tmp_path / "two"
        alone = run(*args, "--workers", "1", "--save", str(one))
        spread = run(*args, "--workers", "2", "--save", str(two))
        assert alone.returncode == spread.returncode == 0, spread.stderr
        assert alone.stdout == spread.stdout
        assert "wins by kind" in alone.stdout
        saved = sorted(p.name for p in one.iterdir())
        assert saved == sorted(p.name for p in two.iterdir())
        assert len(saved) == 40
        assert all((one / name).read_bytes() == (two / name).read_bytes() for name in saved)
        assert alone.stderr == spread.stderr == ""  # piped: no progress bar

    @pytest.mark.parametrize("workers", ["1", "2"])
    def test_a_progress_bar_on_a_terminal_only(self, workers: str) -> None:
        args = ("simulate", "--games", "120", "--bots", "random", "--seed", "5",
                "--workers", workers)
        shown = run_with_terminal_stderr(*args)
        assert shown.returncode == 0
        assert "rounds" in shown.stderr
        assert "120/120" in shown.stderr  # the bar ends full
        assert shown.stdout == run(*args).stdout  # and the output is the same
        quiet = run_with_terminal_stderr(*args, "--json")
        assert quiet.returncode == 0
        assert quiet.stderr == ""
        assert json.loads(quiet.stdout)["games"] == 120

    def test_a_list_of_kinds_counts_each_kind_and_sets_the_players(self) -> None:
        result = run("simulate", "--games", "30", "--bots", "basic,random", "--seed", "2",
                     "--json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert list(data["wins"]) == ["basic-1", "random-2"]  # two seats, from the list
        assert data["wins_by_kind"] == {"basic": data["wins"]["basic-1"],
                                        "random": data["wins"]["random-2"]}
        text = run("simulate", "--games", "30", "--bots", "basic,random", "--seed", "2")
        by_kind = text.stdout.split("wins by kind\n")[1].split()
        assert by_kind == [word for kind, won in data["wins_by_kind"].items()
                           for word in (kind, str(won), f"{100 * won / 30:.1f}", "%")]

    @pytest.mark.parametrize(("args", "fragment"), [
        (("--bots", "smart2,basic", "--players", "2"),
         "--bots smart2,basic: unknown bot kind 'smart2' (known: random, basic"),
        (("--bots", "basic,random", "--players", "3"), "2 kinds for 3 players"),
        (("--workers", "0"), "--workers 0: must be a whole number from 1 to 256"),
        (("--workers", "two"), "--workers two: must be a whole number from 1 to 256"),
        (("--workers", "-2"), "--workers -2: must be a whole number"),
        (("--workers", "1000"), "--workers 1000: must be a whole number from 1 to 256"),
        (("--option", "stacking=true"), "option 'stacking' = 'true': expected one of off"),
        (("--option", "stackin=up"), "unknown option 'stackin'"),
        (("--option", "rounds=3"), "option 'rounds' = 3: only with match = net"),
        (("--option", "rules=classic", "--option", "play_after_press=true"),
         "option 'play_after_press' = True: only with rules = attack"),
        (("--preset", "wild"), "unknown preset 'wild' (known: party, classic, house"),
        (("--players", "3", "--option", "teams=2"), "option 'teams' = 2: 3 players"),
        (("--option", "target=-5"), "option 'target' = '-5'"),
        (("--policy", "wild"), "unknown policy 'wild'"),
        (("--option", "first_dealer=9"), "option 'first_dealer' = 9: no such seat among 4"),
        (("--option", "hand_size=40"), "option 'hand_size' = 40"),
        (("--option", "next_dealer=left"), "--option next_dealer: every simulated round"),
        (("--seed", "٣"), "argument --seed: '٣' is not a whole number"),
        (("--games", "1e3"), "argument --games: '1e3' is not a whole number"),
        (("--players", "11"), "--players 11: must be 2 to 10"),
        (("--smart-playouts", "0"), "--smart-playouts 0: must be at least 1"),
        (("--smart-ms", "nan"), "argument --smart-ms: 'nan' is not a number of milliseconds"),
        (("--smart-ms", "0.5"), "'0.5' is not a number of milliseconds from 1 to 60000"),
    ])
    def test_bad_input_one_line_no_traceback(self, tmp_path: Path, args: tuple[str, ...],
                                             fragment: str) -> None:
        rounds = tmp_path / "rounds"
        result = run("simulate", "--games", "1", "--save", str(rounds), *args)
        assert result.returncode == 2
        assert fragment in result.stderr
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        assert not rounds.exists()  # refused before anything is written

    def test_a_save_folder_with_an_earlier_runs_rounds_is_refused(self, tmp_path: Path) -> None:
        first = run("simulate", "--games", "2", "--seed", "1", "--save", str(tmp_path))
        assert first.returncode == 0, first.stderr
        before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
        again = run("simulate", "--games", "1", "--seed", "2", "--save", str(tmp_path))
        assert again.returncode == 2, again.stdout
        assert again.stderr.strip().splitlines() == [
            f"uno-attack simulate: error: --save {tmp_path}: holds 2 rounds of an earlier run "
            "(round-00001.json …); give an empty folder, or remove them first"]
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before

    def test_save_folders_that_cannot_hold_rounds(self, tmp_path: Path) -> None:
        file = tmp_path / "file.json"
        file.write_text("mine")
        missing = tmp_path / "no"
        for folder, fragment in [(file, "is a file, not a folder"),
                                 (missing / "rounds", f"the folder {missing} does not exist"),
                                 (Path("/proc/rounds"), "cannot write in /proc")]:
            result = run("simulate", "--games", "1", "--save", str(folder))
            assert result.returncode == 2, result.stdout
            assert f"--save {folder}: {fragment}" in result.stderr
            assert len(result.stderr.strip().splitlines()) == 1
        assert file.read_text() == "mine"


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

    @pytest.mark.parametrize(("args", "fragment"), [
        (("--presses", "١٠"), "argument --presses: '١٠' is not a whole number"),
        (("--presses", "１２"), "argument --presses: '１２' is not a whole number"),
        (("--presses", "1_0"), "argument --presses: '1_0' is not a whole number"),
        (("--presses", "+3"), "argument --presses: '+3' is not a whole number"),
        (("--presses", " 7 "), "argument --presses: ' 7 ' is not a whole number"),
        (("--presses", "0"), "--presses 0: must be at least 1"),
        (("--seed", ""), "argument --seed: '' is not a seed"),
        (("--policy", "fixed:99"), "invalid policy 'fixed:99'"),
    ])
    def test_bad_input_one_line(self, capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                fragment: str) -> None:
        assert cli_main(["launcher", "stats", "--presses", "10", *args]) == 2
        err = capsys.readouterr().err
        assert fragment in err
        assert len(err.strip().splitlines()) == 1, err

    def test_a_seed_is_a_number_or_a_word(self, capsys: pytest.CaptureFixture[str]) -> None:
        def stats(seed: str) -> str:
            assert cli_main(["launcher", "stats", "--presses", "200", "--seed", seed]) == 0
            return capsys.readouterr().out
        assert "(seed ٣)" in stats("٣")  # the word, as README says, not seed 3
        assert stats("٣").replace("٣", "3") != stats("3")
        assert "(seed x)" in stats("x")

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


def test_the_readme_states_the_config_files_size_limit() -> None:
    from uno_attack.config import MAX_BYTES

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert MAX_BYTES == 1 << 20
    assert "The config file (like a pin map) is read only if it is a regular file of at most " \
           "1 MiB" in " ".join(readme.split())
