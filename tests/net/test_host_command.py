"""``uno-attack host`` as a real subprocess: its URLs, its listener, SIGTERM, bad arguments,
its QR codes; and no other command opens a network socket (an audit hook sees every one)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import segno

from tests.tui.ptygame import PtyGame, game_env
from uno_attack.net.client import TableClient
from uno_attack.net.host import lan_address
from uno_attack.transcript import load

EXE = Path(sys.executable).parent / "uno-attack"
URL_LINE = re.compile(r"^(join (?P<name>.+) \(seat (?P<seat>\d+)\)|watch): (?P<url>http://\S+)$")


def listeners(pid: int) -> list[tuple[str, int]]:
    """The (address, port) of every TCP socket the process listens on (from /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                address, port = fields[1].split(":")
                found.append((_address(address), int(port, 16)))
    return found


def _address(hex_address: str) -> str:
    if len(hex_address) == 8:
        return ".".join(str(int(hex_address[i:i + 2], 16)) for i in (6, 4, 2, 0))
    return "::" if set(hex_address) == {"0"} else hex_address


@contextmanager
def host_process(tmp_path: Path, *args: str, stdin: int = subprocess.DEVNULL,
                 ) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """``uno-attack host`` on an ephemeral port; yields it and its URL lines once printed."""
    proc = subprocess.Popen(
        [str(EXE), "host", "--port", "0", "--save", str(tmp_path / "host.json"), "--seed", "2",
         *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=stdin, text=True)
    try:
        lines: list[str] = []
        while not lines or not lines[-1].startswith("watch: "):
            line = proc.stdout.readline()  # type: ignore[union-attr]
            assert line, f"host ended early: {proc.stderr.read()}"  # type: ignore[union-attr]
            lines.append(line.rstrip("\n"))
        yield proc, lines
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def test_host_prints_its_urls_listens_on_loopback_and_ends_cleanly_on_sigterm(
        tmp_path: Path) -> None:
    with host_process(tmp_path, "--humans", "Ann,Bob", "--players", "3", "--no-qr",
                      "--bot-delay", "0") as (proc, lines):
        urls = [URL_LINE.match(line) for line in lines]
        assert all(urls), lines
        assert [(m["name"], m["seat"]) for m in urls] == [  # type: ignore[index]
            ("Ann", "0"), ("Bob", "1"), (None, None)]
        port = int(urls[0]["url"].split(":")[2].split("/")[0])  # type: ignore[index]
        assert all(m["url"].startswith(f"http://127.0.0.1:{port}/?token=") for m in urls)  # type: ignore[index]
        assert listeners(proc.pid) == [("127.0.0.1", port)]

        async def connect_then_wait_for_close() -> int | None:
            client = TableClient(urls[0]["url"])  # type: ignore[index]
            await client.connect()
            proc.send_signal(signal.SIGTERM)
            async for _ in client.messages():
                pass
            code = client._ws.close_code  # type: ignore[union-attr]
            await client.close()
            return code

        assert asyncio.run(connect_then_wait_for_close()) == 1001  # a close frame: going away
        assert proc.wait(10) == 0
        out = proc.stdout.read()  # type: ignore[union-attr]
        assert "Ann (seat 0) joined from 127.0.0.1" in out
        assert "closing the table" in out
        assert proc.stderr.read() == ""  # type: ignore[union-attr]
    replayed = subprocess.run([str(EXE), "replay", str(tmp_path / "host.json")],
                              capture_output=True, text=True, check=False)
    assert replayed.returncode == 0
    assert replayed.stdout.strip() == "1 passed, 0 failed"


def test_host_ends_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    with host_process(tmp_path, "--no-qr") as (proc, _):
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0


def test_host_with_lan_listens_on_every_interface_and_prints_the_lan_address(
        tmp_path: Path) -> None:
    with host_process(tmp_path, "--lan", "--no-qr") as (proc, lines):
        port = int(lines[0].split(":")[3].split("/")[0])
        assert listeners(proc.pid) == [("0.0.0.0", port)]
        assert all(f"http://{lan_address()}:{port}/?token=" in line for line in lines)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0


def test_host_draws_each_join_url_as_a_qr_code(tmp_path: Path) -> None:
    with host_process(tmp_path, "--humans", "Ann", "--qr") as (proc, lines):
        proc.send_signal(signal.SIGTERM)
        out = proc.stdout.read()  # type: ignore[union-attr]
        assert proc.wait(10) == 0
    url = URL_LINE.match(lines[0])["url"]  # type: ignore[index]
    drawn = out.split("\njoin Ann (seat 0)\n", 1)[1]
    matrix = [row for row in segno.make(url, error="m").matrix]
    rows = [line for line in drawn.splitlines() if set(line) <= set(" █▀▄")]
    assert len(rows) == (len(matrix) + 4 + 1) // 2  # two modules a character, border 2
    assert "watch" not in drawn.split("\n\n")[0]  # the watch URL gets no code


@pytest.mark.parametrize(("args", "says"), [
    (["--players", "11"], "--players 11: must be 2 to 10"),
    (["--port", "http"], "argument --port: 'http' is not a whole number"),
    (["--port", "８７６５"], "argument --port: '８７６５' is not a whole number"),
    (["--port", "1_000"], "argument --port: '1_000' is not a whole number"),
    (["--port", " 80"], "argument --port: ' 80' is not a whole number"),
    (["--turn-seconds", "inf"], "argument --turn-seconds: 'inf' is not a number of seconds"),
    (["--turn-seconds", "1e400"], "argument --turn-seconds: '1e400' is not a number"),
    (["--away-seconds", "inf"], "argument --away-seconds: 'inf' is not a number"),
    (["--away-seconds", "١٠"], "argument --away-seconds: '١٠' is not a number"),
    (["--round-pause", "inf"], "argument --round-pause: 'inf' is not a number"),
    (["--round-pause", "nan"], "argument --round-pause: 'nan' is not a number"),
    (["--port", "70000"], "--port 70000: must be 0 to 65535"),
    (["--option", "colour=blue"], "unknown option 'colour'"),
    (["--humans", ","], "name at least one person"),
    (["--humans", "Ann,Ann"], "every name must differ"),
    (["--turn-seconds", "0"], "--turn-seconds 0.0: must be more than 0"),
    (["--launcher", "warp"], "unknown launcher 'warp'"),
    (["--resume", "--save", "/nonexistent/host.json"], "no saved game to resume"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["--start-now", "--start-when-full"],
     "argument --start-when-full: not allowed with argument --start-now"),
    (["--start-after", "inf"], "argument --start-after: 'inf' is not a number"),
    (["--save", "/proc/no/host.json"], "--save /proc/no/host.json: cannot write the journal"),
])
def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path, args: list[str],
                                               says: str) -> None:
    argv = [str(EXE), "host", "--no-qr", "--save", str(tmp_path / "h.json"), *args]
    if "--save" in args:
        argv = [str(EXE), "host", "--no-qr", *args]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert says in done.stderr


@pytest.mark.parametrize(("content", "says"), [
    ("{ not json", "not valid JSON"),
    (None, "was not written by 'uno-attack host'"),
])
def test_resuming_a_journal_that_is_not_a_hosts_is_one_line_and_exit_2(
        tmp_path: Path, content: str | None, says: str) -> None:
    journal = tmp_path / "host.json"
    if content is None:  # a game saved by 'play': a transcript without the host's tokens
        subprocess.run([str(EXE), "simulate", "--games", "1", "--save", str(tmp_path)],
                       capture_output=True, check=True, timeout=60)
        saved = next(tmp_path.glob("*.json"))
        record = load(saved)
        record.meta.update({"format": "uno-attack play 1", "names": record.meta["players"],
                            "kinds": ["human", "basic", "basic", "basic"], "seed": 1,
                            "policy": "attack",
                            "match": {"scores": [0] * 4, "active": [0, 1, 2, 3],
                                      "dealer": record.dealer, "round_no": 1}})
        record.steps = []
        record.fires = []
        record.save(journal)
    else:
        journal.write_text(content)
    done = subprocess.run([str(EXE), "host", "--no-qr", "--resume", "--save", str(journal)],
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert says in done.stderr


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with host_process(tmp_path, "--no-qr") as (proc, lines):
        port = lines[0].split(":")[3].split("/")[0]
        done = subprocess.run([str(EXE), "host", "--no-qr", "--port", port, "--save",
                               str(tmp_path / "other.json")],
                              capture_output=True, text=True, timeout=30, check=False)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1
        assert f"--port {port}: cannot listen" in done.stderr
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0


def test_play_opens_no_network_socket_at_all(tmp_path: Path) -> None:
    """A whole game in a real terminal, under the audit hook, until a stop ends it."""
    game = PtyGame(["--quick", "--save", str(tmp_path / "g.json"), "--players", "2",
                    "--no-record", "--bot-delay", "0.05"], game_env(tmp_path),
                   command=("-c", AUDIT, "play"))
    try:
        game.wait_for(b"Your hand")
        game.proc.send_signal(signal.SIGTERM)
        assert game.wait_exit(timeout=20) == 0
        assert b"INET SOCKETS: []" in game.output
    finally:
        if game.proc.poll() is None:
            game.kill()


AUDIT = """
import socket, sys
opened = []
def hook(event, args):
    if event == "socket.__new__" and args[1] in (socket.AF_INET, socket.AF_INET6):
        opened.append(args[1:])
    if event == "socket.bind":
        opened.append(("bind", args[1]))
sys.addaudithook(hook)
from uno_attack.cli import main
try:
    code = main(sys.argv[1:])
finally:
    print("INET SOCKETS:", opened, file=sys.stderr)
sys.exit(code)
"""


def test_replay_simulate_and_the_launcher_open_no_network_socket_at_all(tmp_path: Path) -> None:
    shared = Path(__file__).parents[3] / "shared" / "transcripts"
    for argv in (["replay", *map(str, sorted(shared.glob("*.json")))],
                 ["simulate", "--games", "50", "--seed", "3"],
                 ["launcher", "run", "--launcher", "gpio:emulated", "--press-every", "0.05",
                  "--presses", "3"]):
        done = subprocess.run([sys.executable, "-c", AUDIT, *argv], capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert "INET SOCKETS: []" in done.stderr


def test_a_host_killed_mid_game_resumes_with_the_same_urls_and_game(tmp_path: Path) -> None:
    async def act_once(url: str) -> tuple[int, list[str]]:
        client = TableClient(url)
        await client.connect()
        view = await client.receive()
        while not view.get("legal") or view["turn"] != client.hello["seat"]:  # type: ignore[index]
            view = await client.receive()
        before = view["step"]
        await client.act(view["legal"][0])
        while view.get("step", before) == before:
            view = await client.receive()
        await client.close()
        return view["step"], view["hand"]

    args = ("--humans", "Ann", "--players", "2", "--no-qr", "--bot-delay", "0")
    with host_process(tmp_path, *args) as (proc, lines):
        step, hand = asyncio.run(act_once(URL_LINE.match(lines[0])["url"]))  # type: ignore[index]
        proc.kill()  # a crash: no clean-up at all
        proc.wait(10)
    with host_process(tmp_path, *args, "--resume") as (again, relines):
        assert [line.split("?token=")[1] for line in relines] == [
            line.split("?token=")[1] for line in lines]

        async def look(url: str) -> dict:
            client = TableClient(url)
            await client.connect()
            view = await client.receive()
            await client.close()
            return view

        view = asyncio.run(look(URL_LINE.match(relines[0])["url"]))  # type: ignore[index]
        assert view["step"] >= step
        assert view["hand"] == hand  # nobody acts for Ann while she is away for < 60 s
        assert any("resumed after" in line for line in view["log"])
        again.send_signal(signal.SIGTERM)
        assert again.wait(10) == 0


def test_a_partial_line_on_the_hosts_input_holds_nothing_up(tmp_path: Path) -> None:
    """The operator's input is a pipe holding half a line: the table still serves views,
    and the line is taken once its newline comes."""
    with host_process(tmp_path, "--no-qr", "--no-record", stdin=subprocess.PIPE) as (
            proc, lines):
        assert proc.stdin is not None
        assert proc.stdout is not None
        proc.stdin.write("fir")
        proc.stdin.flush()
        time.sleep(0.2)  # the host has seen the half line before anyone connects

        async def look(url: str) -> dict:
            client = TableClient(url)
            await client.connect()
            view = await asyncio.wait_for(client.receive(), 5)
            await client.close()
            return view

        view = asyncio.run(asyncio.wait_for(look(lines[-1].split(": ", 1)[1]), 10))
        assert view["type"] == "view"
        proc.stdin.write("ed x\n")
        proc.stdin.flush()
        while "operator:" not in (line := proc.stdout.readline()):
            assert line, "the host ended"
        assert "'fired x'" in line
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0


MALFORMED = [
    "GET /?token={t} HTTP/1.1\r\nHost: x\r\nX: " + "a" * 9000 + "\r\n\r\n",  # a long header
    "GET /?token={t} HTTP/1.1\r\n" + "".join(f"H{i}: v\r\n" for i in range(200)) + "\r\n",
    "GET /?token={t}" + "a" * 9000 + " HTTP/1.1\r\n\r\n",  # an over-long URL
    "POST /?token={t} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
    "Transfer-Encoding: chunked\r\n\r\n",
    "POST /?token={t} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "GET /?token={t} HTTP/9.9\r\n\r\n",
    "GET /\0?token={t} HTTP/1.1\r\n\r\n",
    "GET /?token={t} HTTP/1.1\nHost: x\n\n",  # bare LF
]


def test_malformed_requests_get_400_and_one_log_line_each_without_the_token(
        tmp_path: Path) -> None:
    import socket

    with host_process(tmp_path, "--no-qr", "--no-record") as (proc, lines):
        url = lines[-1].split(": ", 1)[1]
        port, token = int(url.split(":")[2].split("/")[0]), url.split("token=")[1]
        for request in MALFORMED:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(request.format(t=token).encode())
                assert s.recv(100).startswith(b"HTTP/1.0 400 "), request[:40]
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    refused = [line for line in out.splitlines() if "refused a bad HTTP request" in line]
    assert len(refused) == len(MALFORMED), out
    assert token not in out + err
    assert err == ""  # no traceback


def test_a_journal_in_use_is_refused_by_a_second_host_and_by_play(tmp_path: Path) -> None:
    """Two hosts on one journal would overwrite each other: the second says so in one
    line, exits 2, and moves or writes nothing (the lock ends with the first process)."""
    journal = tmp_path / "host.json"
    with host_process(tmp_path, "--no-qr") as (first, lines):
        watch = lines[-1].split("?token=")[1]
        for argv in (["host", "--no-qr", "--port", "0", "--save", str(journal)],
                     ["host", "--no-qr", "--port", "0", "--resume", "--save", str(journal)],
                     ["play", "--resume", "--save", str(journal)]):
            done = subprocess.run([str(EXE), *argv], capture_output=True, text=True,
                                  timeout=30, check=False, stdin=subprocess.DEVNULL)
            assert done.returncode == 2, done.stderr
            assert done.stderr.count("\n") == 1, done.stderr
            assert f"--save {journal}: another game is using it (process {first.pid})" \
                in done.stderr
            assert "--save FILE" in done.stderr
            assert load(journal).meta["host"]["watch"] == watch  # the first host's, still
            assert not journal.with_suffix(".previous.json").exists()
        first.send_signal(signal.SIGTERM)
        assert first.wait(10) == 0
    with host_process(tmp_path, "--no-qr", "--resume") as (again, _):  # free once it ended
        again.send_signal(signal.SIGTERM)
        assert again.wait(10) == 0


def _hosted_journal(tmp_path: Path) -> Path:
    from tests.net.helpers import host_config
    from uno_attack.net.host import open_session

    session = open_session(host_config(tmp_path, humans=("Ann", "Bob"), players=3))
    session.close()
    return tmp_path / "host.json"


@pytest.mark.parametrize(("change", "key", "value"), [
    (lambda t: t["seats"].update({"x": t["seats"].pop("1")}), "meta.host.seats.x", '"x"'),
    (lambda t: t["seats"].update({"7": t["seats"].pop("1")}), "meta.host.seats.7", '"7"'),
    (lambda t: t["seats"].update({"2": t["seats"].pop("1")}), "meta.host.seats.2", '"2"'),
    (lambda t: t["seats"].update({"0": 123456789012345678901234}), "meta.host.seats.0",
     "123456789012345678901234"),
    (lambda t: t["seats"].update({"0": ""}), "meta.host.seats.0", '""'),
    (lambda t: t.update({"watch": "a"}), "meta.host.watch", '"a"'),
    (lambda t: t["seats"].update({"0": "n" * 21}), "meta.host.seats.0", '"nnnnnnnnn'),
    (lambda t: t.update({"watch": t["seats"]["0"]}), "meta.host.watch", '"'),
    (lambda t: t["seats"].update({"1": t["seats"]["0"]}), "meta.host.seats.1", '"'),
])
def test_resume_checks_every_token_before_listening(tmp_path: Path, change: Any, key: str,
                                                    value: str) -> None:
    """A non-numeric seat key, a seat beyond the table or of a bot, a numeric, empty,
    1-character or short token, a token shared by two seats or by a seat and the watch:
    one line naming the file, the key and the value, exit 2, nothing listened."""
    import json

    journal = _hosted_journal(tmp_path)
    data = json.loads(journal.read_text())
    change(data["meta"]["host"])
    journal.write_text(json.dumps(data))
    done = subprocess.run([str(EXE), "host", "--no-qr", "--port", "0", "--resume", "--save",
                           str(journal)], capture_output=True, text=True, timeout=30,
                          check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stdout == ""  # no URL: it never listened
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"{journal}: key '{key}'" in done.stderr
    assert f"(got {value}" in done.stderr
