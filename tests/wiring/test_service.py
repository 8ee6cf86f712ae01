"""The systemd units: written for the user the maker has, hardened as far as each service
allows, run as that user, and the motor is off after the service ends however it ends
(``wiring safe`` as the ExecStopPost)."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import pwd
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from uno_attack.errors import UnoAttackError
from uno_attack.launcher import open_launcher
from uno_attack.net.host import Host
from wiring.backend import GpioLauncher
from wiring.cli import safe
from wiring.pinmap import PinMap
from wiring.service import Account, account, render_unit, uno_attack_command

EXE = Path(sys.executable).parent / "uno-attack"
MAKER = Account("ann", "ann", "/home/ann", frozenset({"ann", "gpio", "dialout"}))


def settings(text: str) -> dict[str, list[str]]:
    """``[Service]`` key -> every value it is given, in order."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


def analyze(*args: str, unit: Path) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:  # the directives are what it rates
        pytest.fail("systemd-analyze is needed to check the units (apt install systemd)")
    return subprocess.run([analyze, *args, str(unit)], capture_output=True, text=True,
                          timeout=60, check=False, cwd=unit.parent)


def exposure(unit: Path) -> float:
    run = analyze("security", "--offline=true", unit=unit)
    last = run.stdout.strip().splitlines()[-1]
    assert "Overall exposure level" in last, run.stdout + run.stderr
    return float(last.split(":")[1].split()[0])


def written(tmp_path: Path, kind: str, args: list[str] | None = None) -> Path:
    unit = tmp_path / f"uno-attack-{'host' if kind == 'host' else 'launcher'}.service"
    unit.write_text(render_unit(kind, MAKER, EXE, args), encoding="utf-8")
    return unit


# -- the standalone launcher ----------------------------------------------------------


def test_the_launcher_unit_keeps_the_daemon_from_what_it_does_not_need(tmp_path: Path) -> None:
    unit = settings(written(tmp_path, "standalone").read_text(encoding="utf-8"))
    expected = {
        "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "PrivateNetwork": "yes",
        "RestrictAddressFamilies": "AF_UNIX", "IPAddressDeny": "any",
        "ProtectSystem": "strict", "ProtectHome": "read-only", "PrivateTmp": "yes",
        "DevicePolicy": "closed", "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes", "ProtectControlGroups": "yes",
        "RestrictNamespaces": "yes", "LockPersonality": "yes", "UMask": "0077",
        "SystemCallArchitectures": "native", "User": "ann", "Group": "ann",
        "WorkingDirectory": "/home/ann",
    }
    for key, value in expected.items():
        assert unit.get(key) == [value], key
    assert "@system-service" in unit["SystemCallFilter"]
    assert set(unit["DeviceAllow"]) == {"char-gpiochip rw", "char-ttyACM rw",
                                        "char-ttyUSB rw"}
    assert unit["ExecStart"] == [f"{EXE} launcher run --launcher gpio --policy attack"]
    assert unit["ExecStopPost"] == [f"{EXE} wiring safe"]


def test_systemd_rates_the_launcher_unit_safe(tmp_path: Path) -> None:
    unit = written(tmp_path, "standalone")
    assert analyze("verify", unit=unit).returncode == 0
    assert exposure(unit) <= 1.0  # 0.8 SAFE; it was 8.7, EXPOSED, before the hardening


# -- the hosted table -------------------------------------------------------------------


def test_the_host_unit_serves_the_lan_and_nothing_else(tmp_path: Path) -> None:
    unit = settings(written(tmp_path, "host").read_text(encoding="utf-8"))
    start = shlex.split(unit["ExecStart"][0])
    assert start[:5] == [str(EXE), "host", "--lan", "--launcher", "gpio"]
    assert unit["ExecStopPost"] == [f"{EXE} wiring safe"]   # after every stop, any stop
    assert unit["User"] == ["ann"]
    assert unit["SupplementaryGroups"] == ["gpio"]
    assert unit["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6 AF_NETLINK"]
    assert unit["IPAddressDeny"] == ["any"]
    allowed = unit["IPAddressAllow"][0].split()
    assert "0.0.0.0/0" not in allowed
    assert {"localhost", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"} <= set(allowed)
    assert unit["DeviceAllow"] == ["char-gpiochip rw"]
    assert unit["CapabilityBoundingSet"] == [""]
    assert unit["ProtectSystem"] == ["strict"]
    assert "PrivateNetwork" not in unit


def test_systemd_verifies_the_host_unit_and_rates_it(tmp_path: Path) -> None:
    unit = written(tmp_path, "host", ["--humans", "Ann,Bob", "--players", "4"])
    run = analyze("verify", unit=unit)
    assert run.returncode == 0, run.stderr
    # 1.6 OK: a network service cannot have PrivateNetwork, and a search bot's process may
    # lower its own priority (setpriority, of @resources) so the table's work comes first
    assert exposure(unit) <= 1.6


def test_options_after_the_double_dash_reach_the_command_as_given(tmp_path: Path) -> None:
    unit = settings(written(tmp_path, "host", ["--humans", "Ann 100%,$Bob"]).read_text(
        encoding="utf-8"))
    start = unit["ExecStart"][0]
    assert start.endswith("--humans 'Ann 100%%,$$Bob'")  # systemd's % and $ kept literal


def test_install_service_writes_the_unit_for_the_user_named(tmp_path: Path) -> None:
    me = pwd.getpwuid(os.getuid()).pw_name if os.getuid() != 0 else "nobody"
    out = tmp_path / "unit.service"
    run = subprocess.run([str(EXE), "wiring", "install-service", "--host", "--user", me,
                          "--output", str(out), "--", "--players", "4"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    unit = settings(out.read_text(encoding="utf-8"))
    assert unit["User"] == [me]
    assert unit["WorkingDirectory"] == [pwd.getpwnam(me).pw_dir]
    assert unit["ExecStart"][0].startswith(f"{uno_attack_command()} host --lan")
    assert unit["ExecStart"][0].endswith(" --players 4")
    assert "systemctl enable --now uno-attack-host" in run.stdout


@pytest.mark.parametrize(("user", "message"), [
    ("root", "--user root: the service never runs as root"),
    ("no-such-user-here", "--user no-such-user-here: no such user on this machine"),
])
def test_install_service_refuses_root_and_strangers(tmp_path: Path, user: str,
                                                    message: str) -> None:
    run = subprocess.run([str(EXE), "wiring", "install-service", "--user", user, "--output",
                          str(tmp_path / "unit")], capture_output=True, text=True, timeout=60,
                         check=False)
    assert run.returncode != 0
    assert message in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "unit").exists()
    with pytest.raises(UnoAttackError, match="--user"):
        account(user)


# -- as systemd runs it: ExecStart as the user, SIGTERM, then ExecStopPost ----------------


class UnitRun:
    """Runs a unit's commands the way systemd does for it here, where systemd is not PID 1:
    its ``%S``/``%t`` directories made for the user, its ``Environment=``, its
    ``WorkingDirectory``, the user's identity (when the test runs as root), ExecStart, the
    ``KillSignal`` within ``TimeoutStopSec``, then ExecStopPost."""

    def __init__(self, unit: dict[str, list[str]], root: Path, who: pwd.struct_passwd) -> None:
        self.unit = unit
        self.who = who
        self.dirs = {"%S": root / "state", "%t": root / "run"}
        for name, base in (("StateDirectory", "%S"), ("RuntimeDirectory", "%t")):
            made = self.dirs[base] / unit[name][0]
            made.mkdir(parents=True)
            os.chown(made, who.pw_uid, who.pw_gid)
        self.env = {"PATH": os.environ["PATH"], "HOME": unit["WorkingDirectory"][0],
                    "USER": who.pw_name, "LANG": "C.UTF-8"}
        for assignment in unit.get("Environment", []):
            key, _, value = self.expand(assignment).partition("=")
            self.env[key] = value

    def expand(self, text: str) -> str:
        for specifier, path in self.dirs.items():
            text = text.replace(specifier, str(path))
        return text

    def argv(self, key: str) -> list[str]:
        words = shlex.split(self.expand(self.unit[key][0]))
        if os.getuid() == 0:  # become the unit's user, as systemd's User= does
            return ["setpriv", f"--reuid={self.who.pw_uid}", f"--regid={self.who.pw_gid}",
                    "--init-groups", "--", *words]
        return words

    def start(self, argv: list[str], **env: str) -> subprocess.Popen[str]:
        return subprocess.Popen(argv, cwd=self.unit["WorkingDirectory"][0],
                                env={**self.env, **env}, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture
def unit_user() -> pwd.struct_passwd:
    """The user the unit is written for: this one, or ``nobody`` when the tests run as root
    (the unit never runs as root)."""
    return pwd.getpwuid(os.getuid()) if os.getuid() != 0 else pwd.getpwnam("nobody")


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder the unit's user can reach (pytest's own are the test runner's only)."""
    path = Path(tempfile.mkdtemp(prefix="uno-attack-unit-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path)


def test_the_host_unit_runs_as_its_user_and_the_motor_is_off_after_it_stops(
        open_dir: Path, unit_user: pwd.struct_passwd) -> None:
    tmp_path = open_dir
    home = tmp_path / "home"  # nobody's own home does not exist
    home.mkdir()
    os.chown(home, unit_user.pw_uid, unit_user.pw_gid)
    who = dataclasses.replace(account(unit_user.pw_name), home=str(home))
    unit = settings(render_unit("host", who, EXE))
    run = UnitRun(unit, tmp_path, unit_user)
    argv = run.argv("ExecStart")
    # What differs here: no Pi (the emulated launcher), no LAN, and any free port.
    argv[argv.index("gpio")] = "gpio:emulated"
    argv.remove("--lan")
    host = run.start([*argv, "--port", "0", "--humans", "Ann", "--players", "2"])
    try:
        lines = []
        while not lines or not lines[-1].startswith("watch: "):
            line = host.stdout.readline()  # type: ignore[union-attr]
            assert line, host.stderr.read()  # type: ignore[union-attr]
            lines.append(line.strip())
        status = Path(f"/proc/{host.pid}/status").read_text(encoding="utf-8")
        uid = next(line.split()[1:] for line in status.splitlines()
                   if line.startswith("Uid:"))
        assert set(uid) == {str(unit_user.pw_uid)}            # every uid: the unit's user
        assert (tmp_path / "state" / "uno-attack" / "host.json").exists()
        assert unit["KillSignal"] == ["SIGTERM"]
        host.send_signal(signal.SIGTERM)
        assert host.wait(float(unit["TimeoutStopSec"][0])) == 0
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
    # ExecStopPost, on pins that exist here: gpiozero's mock pins.
    post = run.start(run.argv("ExecStopPost"), GPIOZERO_PIN_FACTORY="mock",
                     GPIOZERO_MOCK_PIN_CLASS="mockpwmpin")
    out, err = post.communicate(timeout=60)
    assert post.returncode == 0, err
    assert "motor off: GPIO18, GPIO23, GPIO24 driven low" in out


async def test_a_host_stopped_while_the_motor_runs_leaves_it_off(tmp_path: Path) -> None:
    """SIGTERM during an eject: the host's stop closes the launcher, which stops the motor."""
    from tests.net.helpers import host_config

    launcher = open_launcher("gpio:emulated,scale=1", seed=1, policy="fixed:12")
    assert isinstance(launcher, GpioLauncher)
    hardware = launcher.emulation
    assert hardware is not None
    host = Host(host_config(tmp_path, launcher="gpio:emulated"), out=io.StringIO(),
                launcher=launcher)
    await host.start()
    loop = asyncio.get_running_loop()
    firing = loop.run_in_executor(None, launcher.press)
    while hardware.world.model.duty == 0:  # the roller is turning
        await asyncio.sleep(0.01)
    await host.stop()
    await firing
    assert hardware.world.model.duty == 0
    assert launcher.closed


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
