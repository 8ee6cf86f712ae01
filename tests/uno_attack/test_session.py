"""The session without a screen: save path, forgetful bots, press problems, resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.helpers import deal
from uno_attack.actions import Action, Verb
from uno_attack.bots import BasicBot, RandomBot, SmartBot
from uno_attack.launcher import EjectStatus, PressResult
from uno_attack.options import Options
from uno_attack.session import (
    GameConfig,
    ResumeError,
    Session,
    default_save_path,
    press_problem,
)


def test_the_save_goes_under_xdg_state_home(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_save_path() == tmp_path / "uno-attack" / "game.json"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_save_path() == tmp_path / ".local" / "state" / "uno-attack" / "game.json"


def test_a_launcher_that_ran_out_is_no_problem_but_a_jam_is() -> None:
    assert not press_problem(PressResult(2, 5, EjectStatus.EMPTY), available=2)
    assert press_problem(PressResult(1, 5, EjectStatus.EMPTY), available=9)
    assert press_problem(PressResult(0, 2, EjectStatus.JAM), available=9)
    assert not press_problem(PressResult(0, 0), available=0)


def test_a_forgetful_bot_drops_its_uno_call(tmp_path: Path) -> None:
    config = GameConfig(players=2, launcher="fixed:1", seed=1, save=None, forget_uno=1.0)
    session = Session(config)
    session.use_deal(deal(["G1 G2 G3", "R7 B2"], "R3", dealer=0))
    bot = session.players[1]
    assert isinstance(bot, BasicBot)
    assert bot.forget_uno == config.forget_uno > 0
    action = session.bot_choice(1)
    assert action.verb is Verb.PLAY
    assert not action.uno
    session.perform(action)
    assert session.game.uno_seat == 1
    assert session.table is not None
    assert session.table.bot_reaction() == Action.call_uno(1)  # remembers, if nobody catches


def test_search_bots_model_the_table_s_ejection_policy() -> None:
    session = Session(GameConfig(players=3, bots="smart", policy="brutal", launcher="sim",
                                 seed=1, save=None))
    session.start_round()
    bots = session.players[1:]
    assert all(isinstance(bot, SmartBot) for bot in bots)
    assert [bot.policy for bot in bots] == ["brutal", "brutal"]


def test_resume_replays_the_journal_to_the_same_state(tmp_path: Path) -> None:
    config = GameConfig(players=3, seed=4, save=tmp_path / "g.json", launcher="sim")
    session = Session(config)
    session.start_round()
    for _ in range(60):  # the person presses; bots move; reloads happen on the way
        game = session.game
        if game.over:
            break
        seat = game.to_act
        assert seat is not None
        if session.is_human(seat):
            session.perform(Action.press(seat), press=session.table.press_launcher())
        else:
            action = session.bot_choice(seat)
            if action.verb is Verb.PRESS:
                session.perform(action, press=session.table.press_launcher())
            else:
                session.perform(action)
        reaction = session.table.bot_reaction()
        if reaction is not None:
            session.perform(reaction)
    again = Session.resume(GameConfig(save=tmp_path / "g.json"))
    assert again.game.snapshot() == session.game.snapshot()
    assert again.names == session.names
    assert again.launcher.tension == session.launcher.tension
    nxt = session.launcher.press(available=50)
    assert again.launcher.press(available=50) == nxt  # the launcher's dice go on alike


def test_resume_without_a_save_says_so(tmp_path: Path) -> None:
    with pytest.raises(ResumeError, match="no saved game"):
        Session.resume(GameConfig(save=tmp_path / "none.json"))


def test_a_match_of_bots_only_plays_to_its_end_headless() -> None:
    """``--humans none`` in the game; without a screen, the session plays it alone."""
    session = Session(GameConfig(humans=[], players=3, launcher="sim", seed=2, save=None,
                                 options=Options(target=60)))
    rounds = 0
    while not session.match.over:
        session.start_round()
        session.table.play_round()
        session.finish_round()
        rounds += 1
    assert session.human_seats == []
    assert session.match.winner is not None
    assert max(session.match.scores) >= 60
    assert len(session.match.history) == rounds


def test_resuming_a_classic_game_ejects_nothing(tmp_path: Path) -> None:
    """A classic draw ejects its cards from the launcher serving as the pile; rebuilding the
    game from its journal must not eject them again."""
    from uno_attack.launcher import open_launcher
    from uno_attack.options import Options

    save = tmp_path / "classic.json"
    config = GameConfig(humans=[], players=3, seed=2, save=save, launcher="fixed:1",
                        options=Options(rules="classic"))
    launcher = open_launcher("gpio:emulated,scale=50", seed=2, policy="fixed:1")
    session = Session(config, launcher=launcher)
    session.start_round()
    for _ in range(30):
        if session.game.over:
            break
        session.perform(session.bot_choice(session.game.to_act))
    ejected = launcher.emulation.world.model.cards_out  # type: ignore[attr-defined]
    assert ejected == session.table.cards_taken > 0
    session.close()
    again = open_launcher("gpio:emulated,scale=50", seed=2, policy="fixed:1")
    resumed = Session.resume(GameConfig(save=save), launcher=again)
    assert resumed.game.snapshot() == session.game.snapshot()
    assert again.emulation.world.model.cards_out == 0  # type: ignore[attr-defined]
    resumed.close()


def _play_bots(session: Session, *, until: int) -> None:
    """Bots play on as self-play does, one decision at a time."""
    table = session.table
    assert table is not None
    while not table.over and table.actions < until:
        table.step()


@pytest.mark.parametrize(("bots", "seed"), [("random", 11), ("smart", 10)])  # long rounds
def test_a_game_saved_and_resumed_plays_on_as_it_would_have(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bots: str, seed: int) -> None:
    """Bots draw their dice by (seed, round, step, seat), so a resume that never asks them
    again goes on with the very game: the same actions, presses and reloads to the end."""
    import shutil

    import uno_attack.session
    from uno_attack.bots import make_bot

    def quick_bot(*args: object, **kwargs: object) -> object:  # a search cut by playouts,
        return make_bot(*args, playouts=12, budget_ms=1e9, **kwargs)  # never by the clock

    monkeypatch.setattr(uno_attack.session, "make_bot", quick_bot)
    save, copy = tmp_path / "game.json", tmp_path / "saved.json"
    config = GameConfig(humans=[], players=3, bots=bots, seed=seed, launcher="sim", save=save)
    session = Session(config)
    session.start_round()
    _play_bots(session, until=60)
    assert session.table is not None
    assert not session.table.over
    shutil.copy(save, copy)
    _play_bots(session, until=10_000)
    played = session.table.record
    assert len(played.steps) > 70

    asked: list[int] = []
    with monkeypatch.context() as patched:
        for kind in (RandomBot, BasicBot, SmartBot):
            for question in ("choose", "react"):
                patched.setattr(kind, question, lambda self, game, seat, *_: asked.append(seat))
        resumed = Session.resume(GameConfig(humans=[], save=copy))
    assert asked == []  # no bot was asked anything again
    assert resumed.table is not None
    assert resumed.table.actions == 60
    _play_bots(resumed, until=10_000)
    again = resumed.table.record
    assert [s.text for s in again.steps] == [s.text for s in played.steps]  # type: ignore[union-attr]
    assert again.fires == played.fires
    assert again.reloads == played.reloads
    assert resumed.game.snapshot() == session.game.snapshot()
    session.close()
    resumed.close()


def test_a_two_player_resume_follows_no_turn_until_the_bot_decides(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a two-player classic round the smart bot follows the other seat's every turn
    (its belief): a resume only keeps the tables, so it returns at once however long the
    round, and the bot learns from them at its next decision, into the very same game."""
    import shutil

    import uno_attack.session
    from uno_attack.bots import make_bot
    from uno_attack.bots.belief import Belief

    def quick_bot(*args: object, **kwargs: object) -> object:  # cut by playouts, not time
        return make_bot(*args, playouts=12, budget_ms=1e9, **kwargs)

    monkeypatch.setattr(uno_attack.session, "make_bot", quick_bot)
    save, copy = tmp_path / "game.json", tmp_path / "saved.json"
    config = GameConfig(humans=[], players=2, bots="smart", seed=9, launcher="sim", save=save,
                        options=Options(rules="classic"))
    session = Session(config)
    session.start_round()
    _play_bots(session, until=60)
    assert session.table is not None
    assert not session.table.over
    shutil.copy(save, copy)
    _play_bots(session, until=10_000)

    followed: list[int] = []
    real_follow = Belief.follow
    monkeypatch.setattr(Belief, "follow", lambda self, *args: (followed.append(self.seat),
                                                               real_follow(self, *args))[1])
    resumed = Session.resume(GameConfig(humans=[], save=copy))
    assert followed == []
    assert resumed.table is not None
    _play_bots(resumed, until=10_000)
    assert followed  # learnt at its next decision
    assert [s.text for s in resumed.table.record.steps] == \
        [s.text for s in session.table.record.steps]  # type: ignore[union-attr]
    session.close()
    resumed.close()


def test_a_save_of_the_first_format_still_loads_and_plays_on(tmp_path: Path) -> None:
    """A save as ``play`` wrote them in December 2026 (no match key, start time or points
    by round; a match history since dropped) resumes where it stopped, and is written in
    today's form from the next action on."""
    import json
    import shutil

    from uno_attack.replay import replay
    from uno_attack.transcript import load

    save = tmp_path / "game.json"
    shutil.copy(Path(__file__).parent / "data" / "save-format-1.json", save)
    record = load(save)
    assert "match_key" not in record.meta
    assert "history" in record.meta["match"]
    resumed = Session.resume(GameConfig(save=save))
    assert resumed.table is not None
    assert resumed.table.actions == len(record.steps)
    assert resumed.game.snapshot() == replay(record).round.snapshot()
    assert resumed.launcher.state() == {"presses": len(record.fires)}
    seat = resumed.game.to_act
    assert seat is not None
    action = Action.press(seat) if resumed.is_human(seat) else resumed.bot_choice(seat)
    resumed.perform(action, press=resumed.table.press_launcher()
                    if action.verb is Verb.PRESS else None)
    meta = json.loads(save.read_text())["meta"]
    assert meta["match_key"] == resumed.match_key
    assert len(json.loads(save.read_text())["steps"]) == len(record.steps) + 1
    resumed.close()
