"""The table loop: it reads the engine's result; a launcher can serve as classic's draw pile."""

from __future__ import annotations

from uno_attack.actions import Action
from uno_attack.bots import make_bot
from uno_attack.launcher import open_launcher
from uno_attack.match import Match
from uno_attack.options import Options
from uno_attack.rules import CLASSIC
from uno_attack.table import Table
from uno_attack.transcript import Transcript


def test_a_launcher_serves_as_the_draw_pile_one_eject_per_draw() -> None:
    """VARIANTS.md A2: a draw of n cards is one eject of exactly n by the real GPIO driver
    (on emulated pins): the dispenser's count is the cards the table drew."""
    names = ["basic-1", "basic-2", "basic-3"]
    match = Match(names, Options(rules="classic", match="single", first_dealer="random"),
                  seed="draw-pile")
    game, record = match.deal_round()
    players = [make_bot("basic", n, seed=f"pile:{n}") for n in names]
    with open_launcher("gpio:emulated,scale=50", seed=5, policy="fixed:1") as launcher:
        hardware = launcher.emulation  # type: ignore[attr-defined]
        table = Table(game, players, launcher, record, reload_rng=match.reload_rng())
        for _ in range(40):
            if game.over:
                break
            event = table.step()
            if event is not None and event.action.verb.value == "draw":
                assert event.press is not None
                assert event.press.asked == event.press.fired == len(event.fired)
        assert table.takes > 0
        assert hardware.world.model.cards_out == table.cards_taken
        assert record.fires == []  # a draw uses no fires number (VARIANTS.md E2)


def test_the_log_says_what_the_result_says() -> None:
    match = Match(["a", "b", "c"], Options(rules="classic", stacking="up", first_dealer=0),
                  seed=3)
    game, record = match.deal_round()
    table = Table(game, [make_bot("basic", n) for n in "abc"], open_launcher("sim"), record,
                  reload_rng=match.reload_rng())
    lines = []
    for _ in range(60):
        if game.over:
            break
        event = table.step()
        if event is None:
            continue
        lines.append(event.describe())
        if event.action.verb.value == "draw":
            n = len(event.fired)
            assert f"drew {n} card" in lines[-1]
    assert any(" played " in line for line in lines)


def test_the_log_tells_a_jump_in_from_a_play_in_turn() -> None:
    """VARIANTS.md B2: a seat that plays the very card on top out of turn jumped in."""
    record = Transcript(name="jump-in", players=3, dealer=2,
                        hands=[CLASSIC.parse_cards(h.split())
                               for h in ("R5 B1 B2", "Y1 Y2 Y3", "R5 G1 G2")],
                        starter=CLASSIC.parse_cards(["R3"]),
                        options=Options(rules="classic", jump_in="numbers"))
    game = record.new_round()
    table = Table(game, [make_bot("basic", n) for n in ("Ada", "Bo", "Cy")],
                  open_launcher("sim"), record)
    in_turn = table.perform(Action.parse("0 play R5", rules=game.rules))
    jump = table.perform(Action.parse("2 play R5", rules=game.rules))
    assert in_turn.describe() == "Ada played red 5"
    assert jump.describe() == "Cy jumped in with red 5"
    assert game.to_act == 0  # play goes on from the seat that jumped in
