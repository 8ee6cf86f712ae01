"""The ``gpio`` backend through the launcher interface, as the game opens it."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_attack.errors import LauncherError, UnoAttackError
from uno_attack.launcher import EjectStatus, open_launcher
from wiring.backend import GpioLauncher, GpioSpec


class TestSpecs:
    def test_emulated_options(self) -> None:
        spec = GpioSpec.parse("emulated,fault=jam,fault=bouncy-button,scale=30,jams=0.1")
        assert spec.emulated
        assert spec.faults == ["jam", "bouncy-button"]
        assert spec.time_scale == 30
        assert spec.jam_probability == 0.1
        assert not GpioSpec.parse(None).emulated

    @pytest.mark.parametrize(("arg", "message"), [
        ("emulated,fault=fire", "unknown fault"),
        ("emulated,scale=0", "time scale"),
        ("emulated,colour=red", "unknown option"),
        ("emulatd", "expected 'gpio' or 'gpio:emulated"),
    ])
    def test_bad_specs(self, arg: str, message: str) -> None:
        with pytest.raises(LauncherError, match=message):
            open_launcher(f"gpio:{arg}")

    def test_bad_pin_map_is_refused_before_any_pin(self, tmp_path: Path) -> None:
        bad = tmp_path / "pins.toml"
        bad.write_text("[pins]\nbutton = 17\n", encoding="utf-8")
        with pytest.raises(UnoAttackError, match=r"pins.toml: \[pins\] has no motor_in1"):
            open_launcher("gpio:emulated", config=str(bad))


class TestAWholeGame:
    def test_long_sequence_of_presses(self) -> None:
        """A game's worth of presses; the hopper holds what the game says is inside."""
        with open_launcher("gpio:emulated,scale=25", seed=11, policy="attack") as launcher:
            assert isinstance(launcher, GpioLauncher)
            hardware = launcher.emulation
            assert hardware is not None
            inside = 60
            fired = 0
            for _ in range(200):
                result = launcher.press(available=inside)
                if result.asked > inside:
                    assert result.status is EjectStatus.EMPTY
                    assert result.fired == inside
                else:
                    assert result.status is EjectStatus.OK, result
                    assert result.fired == result.asked
                inside -= result.fired
                fired += result.fired
                if inside < 12:
                    inside = 60   # the discard pile is reshuffled and loaded back in
            assert fired == hardware.world.model.cards_out
            assert fired > 150
            assert "emulated GPIO launcher" in launcher.description
        assert launcher.closed
        assert hardware.world.model.duty == 0

    def test_standalone_hopper_is_reloaded_when_dry(self) -> None:
        with open_launcher("gpio:emulated,scale=25", policy="fixed:12") as launcher:
            hardware = launcher.emulation  # type: ignore[attr-defined]
            hardware.world.fill(5, reload=True)
            first = launcher.press()
            assert (first.status, first.fired) == (EjectStatus.EMPTY, 5)
            second = launcher.press()
            assert (second.status, second.fired) == (EjectStatus.OK, 12)

    def test_real_gpio_without_pins_is_a_clean_error(self,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")  # even on a Pi
        with pytest.raises(LauncherError, match="use gpio:emulated"):
            open_launcher("gpio")


class TestTableLoop:
    def test_bots_play_a_whole_round_on_the_emulated_launcher(self) -> None:
        """The game's own table loop (as ``play`` and ``simulate`` run it) to the end."""
        from uno_attack.bots import make_bot
        from uno_attack.match import Match
        from uno_attack.options import Options
        from uno_attack.table import Table

        names = ["basic-1", "basic-2", "basic-3"]
        match = Match(names, Options(match="single", first_dealer="random"), seed="gpio:1")
        game, record = match.deal_round()
        players = [make_bot("basic", n, seed=f"gpio:{n}") for n in names]
        with open_launcher("gpio:emulated,scale=50", seed=5, policy="attack") as launcher:
            hardware = launcher.emulation  # type: ignore[attr-defined]
            table = Table(game, players, launcher, record, reload_rng=match.reload_rng())
            result = table.play_round()
            assert table.over
            assert result.winner in range(3)
            assert table.takes > 0
            assert table.cards_taken == hardware.world.model.cards_out
