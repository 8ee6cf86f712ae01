"""Scoring a finished round and deciding the match (RULES.md 8, VARIANTS.md B10, B11).

The round engine only says who went out; this module turns the hands left into each seat's
points for the round, the match totals after it and, once the match mode says so, its
winner. The replay of a transcript, the table and the match all score with
:func:`score_round`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from uno_attack.cards import Card
from uno_attack.options import Options
from uno_attack.rules import RuleSet

#: A match winner: one seat, several seats for a shared win, or nobody yet.
MatchWinner = int | tuple[int, ...] | None


@dataclass(frozen=True)
class RoundResult:
    """The outcome of a finished round.

    ``round_points`` are what each seat scores this round under the match mode;
    ``scores`` the match totals after it; ``eliminated`` the seats out of an
    ``elimination`` match after it.
    """

    winner: int
    round_points: tuple[int, ...]
    scores: tuple[int, ...]
    match_winner: MatchWinner
    eliminated: tuple[int, ...] = ()

    @property
    def match_over(self) -> bool:
        return self.match_winner is not None


def _best(scores: Sequence[int], seats: Sequence[int], *, lowest: bool) -> MatchWinner:
    """The seat(s) with the best total among ``seats``; a tie is a shared win (and a team's
    seats share their team's total, so a team wins as all its seats)."""
    pick = min if lowest else max
    best = pick(scores[s] for s in seats)
    winners = tuple(s for s in seats if scores[s] == best)
    return winners[0] if len(winners) == 1 else winners


def team_of(seat: int, teams: int) -> int:
    """Seat ``s`` plays in team ``s mod teams`` (VARIANTS.md B10); ``teams`` 0 is none."""
    return seat % teams if teams else seat


def score_round(
    hands: Sequence[Sequence[Card]],
    winner: int,
    *,
    rules: RuleSet,
    options: Options,
    scores: Sequence[int] | None = None,
    round_no: int = 1,
) -> RoundResult:
    """Score a round that ``winner`` went out of, given the match totals before it and
    (for ``net``) the round's number. With ``teams`` every seat shows its team's figures
    (VARIANTS.md B10)."""
    n = len(hands)
    before = tuple(scores) if scores is not None else (0,) * n
    if len(before) != n:
        raise ValueError(f"scores list {len(before)} seats, the round has {n}")
    mode, target = options.match, options.target
    own = [rules.hand_points(hand) for hand in hands]
    team = [team_of(seat, options.teams) for seat in range(n)]
    team_hand = Counter[int]()
    for seat, hand_points in enumerate(own):
        team_hand[team[seat]] += hand_points
    if mode in ("points", "single"):  # the winning team scores every other team's hands
        won = sum(p for t, p in team_hand.items() if t != team[winner])
        points = [won if team[seat] == team[winner] else 0 for seat in range(n)]
    elif mode == "net":  # B11: the others lose their hands, the winner gains them all
        points = [-own[seat] for seat in range(n)]
        points[winner] = sum(own)
    else:  # lowest, elimination: each player (team) adds their own hand
        points = [team_hand[team[seat]] for seat in range(n)]
    totals = tuple(b + add for b, add in zip(before, points, strict=True))
    seats = range(n)
    match_winner: MatchWinner = None
    eliminated: tuple[int, ...] = ()
    if mode == "single":
        winners = tuple(s for s in seats if team[s] == team[winner])
        match_winner = winners[0] if len(winners) == 1 else winners
    elif mode == "points":
        if max(totals) >= target:
            match_winner = _best(totals, seats, lowest=False)
    elif mode == "lowest":
        if max(totals) >= target:
            match_winner = _best(totals, seats, lowest=True)
    elif mode == "net":
        if round_no >= options.rounds:
            match_winner = _best(totals, seats, lowest=False)
    else:  # elimination
        eliminated = tuple(s for s in seats if totals[s] >= target)
        left = [s for s in seats if s not in eliminated]
        if n == 2:
            match_winner = winner  # two players decide the match in one round
        elif len(left) == 1:
            match_winner = left[0]
        elif not left:
            match_winner = _best(totals, seats, lowest=True)
    return RoundResult(winner, tuple(points), totals, match_winner, eliminated)
