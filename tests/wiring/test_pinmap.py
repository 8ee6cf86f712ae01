"""Pin maps: the default loads, and every mistake is caught with the file, key and value."""

from __future__ import annotations

from pathlib import Path

import pytest

from wiring.pinmap import PinMap, PinMapError, find_pin_map, load_pin_map

GOOD = """\
[pins]
button = 17
motor_in1 = 23
motor_in2 = 24
motor_pwm = 18
beam = 27
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pins.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(PinMapError) as info:
        load_pin_map(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message  # every message names the file
    return message


class TestGoodMaps:
    def test_default_map_is_launcher_md(self) -> None:
        pin_map = PinMap.default()
        assert pin_map.pins == {"button": 17, "motor_in1": 23, "motor_in2": 24,
                                "motor_pwm": 18, "beam": 27, "led": 22, "buzzer": 25,
                                "hopper_empty": 5}
        assert pin_map.source.endswith("default_pins.toml")

    def test_minimal_map_with_settings(self, tmp_path: Path) -> None:
        pin_map = load_pin_map(write(tmp_path, GOOD + "[motor]\nduty = 1\n"
                                     "[timing]\njam_ms = 300\nmax_ms = 2500\n"))
        assert pin_map.get("led") is None
        assert pin_map.motor.duty == 1.0
        assert pin_map.timing.jam_ms == 300
        assert pin_map.timing.max_ms == 2500
        assert pin_map.timing.debounce_ms == 20  # a default

    def test_env_var_names_the_map(self, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
        path = write(tmp_path, GOOD)
        monkeypatch.setenv("UNO_ATTACK_PINS", str(path))
        assert find_pin_map() == path
        assert find_pin_map(tmp_path / "other.toml") == tmp_path / "other.toml"


class TestMistakes:
    def test_unknown_role(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD + "buton = 6\n")
        assert "[pins] buton = 6: unknown role" in message

    def test_pin_used_twice(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD.replace("beam = 27", "beam = 23"))
        assert "[pins] beam = 23: GPIO23 is already used by motor_in1" in message

    @pytest.mark.parametrize("pin", [28, 40, -1])
    def test_pin_not_on_the_header(self, tmp_path: Path, pin: int) -> None:
        message = error_of(tmp_path, GOOD.replace("beam = 27", f"beam = {pin}"))
        assert f"[pins] beam = {pin}: GPIO{pin} is not on the 40-pin header" in message

    def test_eeprom_pin_is_reserved(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD + "led = 0\n")
        assert "[pins] led = 0: GPIO0 is reserved for ID_SD" in message

    def test_pwm_role_without_hardware_pwm(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD.replace("motor_pwm = 18", "motor_pwm = 22"))
        assert "[pins] motor_pwm = 22: motor_pwm needs a hardware PWM pin" in message
        assert "12, 13, 18, 19" in message

    @pytest.mark.parametrize("role", ["button", "motor_in1", "motor_in2", "motor_pwm",
                                      "beam"])
    def test_missing_required_role(self, tmp_path: Path, role: str) -> None:
        text = "".join(line + "\n" for line in GOOD.splitlines()
                       if not line.startswith(role + " "))
        message = error_of(tmp_path, text)
        assert f"[pins] has no {role}" in message

    @pytest.mark.parametrize(("value", "shown"), [('"GPIO17"', "'GPIO17'"), ("17.0", "17.0"),
                                                  ("true", "True")])
    def test_pin_of_the_wrong_type(self, tmp_path: Path, value: str, shown: str) -> None:
        message = error_of(tmp_path, GOOD.replace("button = 17", f"button = {value}"))
        assert f"[pins] button = {shown}: expected a BCM GPIO number" in message

    def test_setting_of_the_wrong_type(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD + '[timing]\njam_ms = "fast"\n')
        assert "[timing] jam_ms = 'fast': expected a number" in message

    def test_setting_out_of_range(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD + "[motor]\nduty = 1.5\n")
        assert "[motor] duty = 1.5: must be above 0 and at most 1" in message

    def test_unknown_key(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD + "[timing]\njam_msec = 300\n")
        assert "[timing] jam_msec = 300: unknown key" in message

    def test_unknown_table(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD + "[pin]\nled = 22\n")
        assert "unknown table [pin]" in message

    def test_jam_longer_than_max(self, tmp_path: Path) -> None:
        message = error_of(tmp_path, GOOD + "[timing]\njam_ms = 5000\nmax_ms = 1000\n")
        assert "jam_ms = 5000 is longer than max_ms = 1000" in message

    def test_not_toml(self, tmp_path: Path) -> None:
        assert "not valid TOML" in error_of(tmp_path, "[pins\n")

    def test_missing_file(self, tmp_path: Path) -> None:
        with pytest.raises(PinMapError, match="no such pin map file"):
            load_pin_map(tmp_path / "nope.toml")


def test_the_shipped_map_shows_the_true_defaults() -> None:
    """Each commented-out timing in default_pins.toml, taken in, changes nothing."""
    from wiring.pinmap import default_pin_map_path

    text = default_pin_map_path().read_text(encoding="utf-8")
    shown = [line[2:] for line in text.splitlines() if line.startswith("# ") and " = " in line
             and not line.startswith("#  ")]
    assert len(shown) == 8
    live = "\n".join(line[2:].split("#")[0] if line.startswith("# ") and " = " in line
                     else line for line in text.splitlines())
    taken_in = PinMap.from_toml(live, source="taken in")
    default = PinMap.default()
    assert taken_in.motor == default.motor
    assert taken_in.timing.max_ms == default.timing.max_ms
    assert taken_in.timing.debounce_ms == default.timing.debounce_ms
    assert taken_in.settings.jam_ms == pytest.approx(default.settings.jam_ms, abs=1)
