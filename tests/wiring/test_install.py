"""Installing on Raspberry Pi OS as it is today (Bookworm: Python 3.11, ``python3-lgpio``
from apt, a venv made with ``--system-site-packages``), as far as it can be done here.

The Pi's system Python is stood in for by this machine's own (Debian 12 is Bookworm; its
``python3.11`` when present), copied into a folder of its own with ``lgpio`` where apt's
``python3-lgpio`` puts it, so nothing of the machine is changed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

import pytest

BOOKWORM_PYTHON = Path("/usr/bin/python3.11")
BLOCK_PIN_LIBRARIES = (
    "import runpy, sys\n"
    "for name in ('lgpio', 'RPi', 'RPi.GPIO', 'pigpio'):\n"
    "    sys.modules[name] = None  # as if none were installed\n"
    "sys.argv = ['uno-attack', 'launcher', 'run', '--launcher', 'gpio']\n"
    "runpy.run_module('uno_attack', run_name='__main__')\n")


def test_the_pi_extra_brings_lgpio_and_gpiozero_drives_it(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    requires = distribution("uno-attack").requires or []
    assert any(r.startswith("lgpio") and 'extra == "pi"' in r for r in requires), requires
    monkeypatch.setenv("LG_WD", str(tmp_path))  # lgpio makes its pipes there on import
    monkeypatch.chdir(tmp_path)
    from gpiozero.pins.lgpio import LGPIOFactory  # imports lgpio itself

    assert LGPIOFactory.__module__ == "gpiozero.pins.lgpio"


@pytest.fixture
def system_python(tmp_path: Path) -> Path:
    """A system Python of its own: the interpreter copied, its standard library linked, and
    lgpio (from this venv's ``pi`` extra) in its system site-packages, as apt installs it."""
    base = BOOKWORM_PYTHON if BOOKWORM_PYTHON.exists() else Path(sys._base_executable)
    root = tmp_path / "system"
    (root / "bin").mkdir(parents=True)
    python = root / "bin" / "python3.11"
    shutil.copy2(base.resolve(), python)
    real_stdlib = Path(subprocess.run(
        [str(base), "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"],
        capture_output=True, text=True, check=True).stdout.strip())
    stdlib = root / "lib" / "python3.11"
    stdlib.mkdir(parents=True)
    for entry in real_stdlib.iterdir():
        if entry.name != "site-packages":
            (stdlib / entry.name).symlink_to(entry)
    site_dirs = subprocess.run([str(python), "-c", "import site; print(*site.getsitepackages(),"
                                " sep='\\n')"], capture_output=True, text=True,
                               check=True).stdout.split()
    dist = Path(site_dirs[-1])        # Debian's python: <prefix>/lib/python3/dist-packages
    assert dist.is_relative_to(root), site_dirs
    dist.mkdir(parents=True, exist_ok=True)
    import lgpio

    here = Path(lgpio.__file__).parent
    for part in (here / "lgpio.py", *here.glob("_lgpio*.so")):
        shutil.copy2(part, dist / part.name)
    return python


def make_venv(python: Path, where: Path, *, system: bool) -> Path:
    flags = ["--system-site-packages"] if system else []
    subprocess.run([str(python), "-m", "venv", "--without-pip", *flags, str(where)],
                   check=True, timeout=120)
    return where / "bin" / "python"


def test_a_venv_with_system_site_packages_sees_the_systems_lgpio(system_python: Path,
                                                                tmp_path: Path) -> None:
    env = {**os.environ, "LG_WD": str(tmp_path)}
    seeing = make_venv(system_python, tmp_path / "venv", system=True)
    found = subprocess.run([str(seeing), "-c", "import lgpio; print(lgpio.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()).is_relative_to(system_python.parents[1])
    blind = make_venv(system_python, tmp_path / "plain", system=False)
    missing = subprocess.run([str(blind), "-c", "import lgpio"], capture_output=True,
                             text=True, env=env, cwd=tmp_path, check=False)
    assert "No module named 'lgpio'" in missing.stderr  # why the docs ask for the flag


def no_pin_library(python: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``launcher run --launcher gpio`` under ``python`` with no pin library importable."""
    project = Path(__file__).parents[2]
    site = [p for p in sys.path if p.endswith("site-packages")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(project), *site]),
           "LG_WD": str(tmp_path)}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    return subprocess.run([str(python), "-c", BLOCK_PIN_LIBRARIES], capture_output=True,
                          text=True, env=env, timeout=60, cwd=tmp_path, check=False)


def test_no_pin_library_names_the_pip_command_of_a_venv_that_cannot_see_apts(
        tmp_path: Path) -> None:
    run = no_pin_library(Path(sys.executable), tmp_path)
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        "uno-attack launcher run: error: gpio: no pin library: gpiozero found none of lgpio, "
        f"RPi.GPIO or pigpio; on any Raspberry Pi run: {Path(sys.prefix)}/bin/pip install "
        "lgpio"]


def test_no_pin_library_names_apt_where_the_venv_sees_the_systems_packages(
        system_python: Path, tmp_path: Path) -> None:
    venv = make_venv(system_python, tmp_path / "venv", system=True)
    run = no_pin_library(venv, tmp_path)
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    assert run.stderr.strip().endswith("on any Raspberry Pi run: sudo apt install "
                                       "python3-lgpio")
