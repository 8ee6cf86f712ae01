"""The systemd unit: hardened as far as a GPIO/serial daemon allows, and the motor is off
after the service ends however it ends (``wiring safe`` as its ExecStopPost)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from wiring.cli import safe
from wiring.pinmap import PinMap

UNIT = Path(__file__).parents[2] / "wiring" / "uno-attack-launcher.service"


def service_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_keeps_the_daemon_from_what_it_does_not_need() -> None:
    unit = service_settings()
    expected = {
        "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "PrivateNetwork": "yes",
        "RestrictAddressFamilies": "AF_UNIX", "IPAddressDeny": "any",
        "ProtectSystem": "strict", "ProtectHome": "read-only", "PrivateTmp": "yes",
        "DevicePolicy": "closed", "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes", "ProtectControlGroups": "yes",
        "RestrictNamespaces": "yes", "LockPersonality": "yes", "UMask": "0077",
        "SystemCallArchitectures": "native",
    }
    for key, value in expected.items():
        assert unit.get(key) == [value], key
    assert "@system-service" in unit["SystemCallFilter"]
    assert set(unit["DeviceAllow"]) == {"char-gpiochip rw", "char-ttyACM rw",
                                        "char-ttyUSB rw"}
    assert unit["User"] == ["pi"]                     # never root
    assert unit["ExecStopPost"][0].endswith("uno-attack wiring safe")


def test_systemd_rates_the_unit_safe(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:  # the directives above are what it rates
        pytest.fail("systemd-analyze is needed to rate the unit (apt install systemd)")
    unit = tmp_path / "uno-attack-launcher.service"
    unit.write_text(UNIT.read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run([analyze, "security", "--offline=true", str(unit)],
                         capture_output=True, text=True, timeout=60, check=False)
    last = run.stdout.strip().splitlines()[-1]
    assert "Overall exposure level" in last, run.stdout + run.stderr
    score = float(last.split(":")[1].split()[0])
    assert score <= 1.5, last                        # it was 8.7, EXPOSED


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory(pin_class=MockPWMPin)
    yield mock
    mock.reset()


def test_safe_drives_the_motor_pins_low_after_a_kill(factory: MockFactory) -> None:
    pin_map = PinMap.default()
    for role in ("motor_pwm", "motor_in1"):    # a killed daemon left the motor running
        pin = factory.pin(pin_map.pins[role])
        pin.function = "output"
        pin.state = 1
    assert safe(None, pin_factory=factory) == 0
    for role in ("motor_pwm", "motor_in1", "motor_in2"):
        assert factory.pin(pin_map.pins[role]).state == 0, role


def test_wiring_safe_as_the_service_runs_it() -> None:
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"}
    run = subprocess.run([sys.executable, "-m", "uno_attack", "wiring", "safe"],
                         capture_output=True, text=True, timeout=30, env=env, check=False)
    assert run.returncode == 0, run.stderr
    assert "motor off: GPIO18, GPIO23, GPIO24 driven low" in run.stdout
