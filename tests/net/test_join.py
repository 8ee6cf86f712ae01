"""``uno-attack join``: the terminal client of a hosted table, under Textual's pilot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from textual.widgets import OptionList, Static

from tests.net.helpers import NOTHING_FIRES, host_config, log_of, running_host, url_of
from uno_attack.net.join_app import JoinApp, action_label

EXE = Path(sys.executable).parent / "uno-attack"


async def wait_for(check, pilot, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await pilot.pause(0.02)
    raise AssertionError("the screen never showed it")


def text_of(app: JoinApp, widget: str) -> str:
    return str(app.query_one(widget, Static).render())


async def test_join_shows_the_seat_and_sends_the_chosen_action(tmp_path: Path) -> None:
    config = host_config(tmp_path, humans=("Ann",), players=2, launcher=NOTHING_FIRES)
    async with running_host(config) as host:
        flow = host.flow
        app = JoinApp(url_of(host, "Ann"))
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(lambda: app.view is not None and app.view["turn"] == 0
                           and flow.busy is None, pilot)
            assert "Ann (seat 0) · connected" in text_of(app, "#status")
            hand = text_of(app, "#hand")
            assert all(c.code in hand for c in flow.game.hands[0])
            options = app.query_one("#actions", OptionList)
            labels = [str(options.get_option_at_index(i).prompt)
                      for i in range(options.option_count)]
            assert "press the launcher" in labels
            assert options.highlighted == 0
            first = flow.game.legal_actions(0)[0]
            steps = len(flow.session.table.record.steps)  # type: ignore[union-attr]
            await pilot.press("down", "up", "enter")  # the first listed action
            await wait_for(lambda: len(flow.session.table.record.steps) > steps, pilot)  # type: ignore[union-attr]
            assert flow.session.table.record.steps[steps].action == first  # type: ignore[union-attr]
            await wait_for(lambda: flow.game.to_act == 0 and flow.busy is None
                           and app.view is not None and app.view["turn"] == 0
                           and "press" in app.view["legal"], pilot)
            await pilot.press("space")
            await wait_for(lambda: "Ann pressed the launcher" in text_of(app, "#log"), pilot)


async def test_join_watching_shows_no_hand_and_reports_a_refusal(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        app = JoinApp(url_of(host, None))
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(lambda: app.view is not None, pilot)
            assert "watching · connected" in text_of(app, "#status")
            assert text_of(app, "#hand") == "(watching: no hand)"
            await app.client.act("press")
            await wait_for(lambda: "a watcher cannot act" in text_of(app, "#status"), pilot)


async def test_join_reconnects_after_the_connection_drops(tmp_path: Path) -> None:
    async with running_host(host_config(tmp_path)) as host:
        app = JoinApp(url_of(host, "Ann"))
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(lambda: app.view is not None, pilot)
            for conn in list(host.server.connections):
                await conn.ws.close()
            await wait_for(lambda: "connected again after 1 drop" in text_of(app, "#status"),
                           pilot)
            assert app.view is not None
            assert app.client.seq == app.view["seq"] >= 1
            assert log_of(host).count("Ann (seat 0) joined") == 2


def test_action_labels_name_cards_colours_and_seats() -> None:
    names = ["Ann", "Bob", "Cleo"]
    assert action_label("play W red", names) == "play Wild, naming red"
    assert action_label("play RT 2", names) == "play red Trade Hands, trading with Cleo"
    assert action_label("catch 1", names) == "catch Bob (no UNO call)"
    assert action_label("fired 3", names) == "the launcher fired 3 card(s)"


def test_join_refuses_a_url_without_a_token_in_one_line() -> None:
    done = subprocess.run([str(EXE), "join", "http://127.0.0.1:8765/"], capture_output=True,
                          text=True, timeout=30, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "has no ?token=" in done.stderr
