"""A take the launcher could not finish, put to a person: what each answer means."""

from __future__ import annotations

import pytest

from uno_attack.actions import Verb
from uno_attack.errors import ActRefused
from uno_attack.launcher_questions import (
    MAX_LISTED_COUNT,
    Fired,
    LauncherQuestion,
    NoRetry,
    PressAgain,
    Remedy,
    Retry,
)


def question(retry: Remedy, *, fired: int = 1, asked: int | None = 3,
             available: int = 10) -> LauncherQuestion:
    return LauncherQuestion(0, Verb.PRESS, fired, retry, asked, available, "", "jammed")


@pytest.mark.parametrize("remedy", [Retry(2), PressAgain()])
def test_retry_is_what_the_question_offers(remedy: Remedy) -> None:
    asked = question(remedy)
    assert asked.answer("retry") == remedy
    assert asked.answer(" fired  2 ") == Fired(2)
    assert asked.prompt().actions == ("retry", "fired 0", "fired 1", "fired 2", "fired 3")


def test_a_lost_count_offers_no_retry() -> None:
    asked = question(NoRetry())
    assert not asked.retryable
    with pytest.raises(ActRefused, match=r"needs an answer first: fired N .*'retry'"):
        asked.answer("retry")
    assert "retry" not in asked.prompt().actions


def test_more_than_the_launcher_held_is_refused() -> None:
    asked = question(Retry(2), fired=1, available=4)
    assert asked.answer("fired 4") == Fired(4)
    with pytest.raises(ActRefused, match="held only 4 cards"):
        asked.answer("fired 5")
    with pytest.raises(ActRefused, match="retry, or fired N"):
        asked.answer("fired -1")


def test_a_take_of_unknown_size_lists_a_bounded_count() -> None:
    prompt = question(NoRetry(), fired=0, asked=None, available=40).prompt()
    assert prompt.actions[-1] == f"fired {MAX_LISTED_COUNT}"
    assert question(NoRetry(), fired=5, asked=None, available=2).prompt().actions[-1] \
        == "fired 5"  # what is known to have come out is always offered
