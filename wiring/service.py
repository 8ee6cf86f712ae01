"""The systemd units, written for the user the maker has: ``wiring install-service``.

Two units ship in ``wiring/units/``: the standalone launcher (``launcher run``, no
network) and the hosted table (``host --lan --launcher gpio``). Each is a template whose
``@USER@``, ``@GROUP@``, ``@HOME@``, ``@UNO_ATTACK@`` and ``@ARGS@`` are filled in here
from the account (current Raspberry Pi OS has no ``pi`` user: the one made at first boot
has the maker's own name) and from this very installation's ``uno-attack`` command.
The service never runs as root.
"""

from __future__ import annotations

import grp
import os
import pwd
import shlex
import sys
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from uno_attack.errors import UnoAttackError

UNITS = {"standalone": "uno-attack-launcher.service", "host": "uno-attack-host.service"}
SYSTEM_UNITS = Path("/etc/systemd/system")
#: The groups whose devices the services open: the GPIO chips, and serial ports (standalone).
DEVICE_GROUPS = {"standalone": ("gpio", "dialout"), "host": ("gpio",)}


@dataclass(frozen=True)
class Account:
    """Who the service runs as."""

    user: str
    group: str
    home: str
    groups: frozenset[str]


def account(name: str) -> Account:
    """The account ``name``, checked: it exists and is not root."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise UnoAttackError(f"--user {name}: no such user on this machine (the user "
                             "you log in as: see 'whoami')") from None
    if entry.pw_uid == 0:
        raise UnoAttackError(f"--user {name}: the service never runs as root; name the "
                             "user you log in as")
    group = grp.getgrgid(entry.pw_gid).gr_name
    member_of = {g.gr_name for g in grp.getgrall() if name in g.gr_mem} | {group}
    return Account(name, group, entry.pw_dir, frozenset(member_of))


def default_user() -> str:
    """The user who ran ``sudo``, else the one running this."""
    return os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name


def uno_attack_command() -> Path:
    """This installation's ``uno-attack`` (beside the running interpreter: the venv's)."""
    return Path(sys.executable).parent / "uno-attack"


def _exec_words(args: list[str]) -> str:
    """Extra command-line words as systemd reads them (``%`` and ``$`` are its own)."""
    quoted = shlex.join(args).replace("%", "%%").replace("$", "$$")
    return f" {quoted}" if args else ""


def render_unit(kind: str, who: Account, command: Path, args: list[str] | None = None) -> str:
    """The unit ``kind`` (``standalone`` or ``host``) filled in for ``who``."""
    template = files("wiring").joinpath("units", UNITS[kind]).read_text(encoding="utf-8")
    for word, value in (("@USER@", who.user), ("@GROUP@", who.group), ("@HOME@", who.home),
                        ("@UNO_ATTACK@", str(command)),
                        ("@ARGS@", _exec_words(args or []))):
        template = template.replace(word, value)
    return template


def install(kind: str, user: str | None, output: str | None, args: list[str]) -> int:
    """Write the unit (to ``/etc/systemd/system`` unless ``output``) and say what next."""
    who = account(user or default_user())
    command = uno_attack_command()
    if not command.exists():
        raise UnoAttackError(f"{command}: no uno-attack command beside this Python; run "
                             "this from the project's venv (.venv/bin/uno-attack)")
    text = render_unit(kind, who, command, args)
    if output == "-":
        sys.stdout.write(text)
        return 0
    target = Path(output) if output else SYSTEM_UNITS / UNITS[kind]
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        hint = " (run it with sudo)" if output is None else ""
        raise UnoAttackError(f"cannot write {target}: {exc.strerror}{hint}") from None
    name = UNITS[kind].removesuffix(".service")
    print(f"wrote {target}: {name} runs '{command} ...' as {who.user} (group {who.group})")
    for missing in (g for g in DEVICE_GROUPS[kind] if g not in who.groups):
        print(f"  {who.user} is not in the {missing} group yet: sudo adduser {who.user} "
              f"{missing}", file=sys.stderr)
    print(f"next: sudo systemctl daemon-reload && sudo systemctl enable --now {name}\n"
          f"      journalctl -u {name} -f    # {'the join URLs, then' if kind == 'host' else ''}"
          " every press and outcome")
    return 0
