"""Scoring a round and deciding a match, for the four match modes of RULES.md section 8."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from uno_attack.cards import Card, hand_points

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
    """The seat(s) with the best total among ``seats``; a tie is a shared win."""
    pick = min if lowest else max
    best = pick(scores[s] for s in seats)
    winners = tuple(s for s in seats if scores[s] == best)
    return winners[0] if len(winners) == 1 else winners


def score_round(
    mode: str,
    target: int,
    hands: Sequence[Sequence[Card]],
    winner: int,
    scores_before: Sequence[int],
) -> RoundResult:
    """Score a round that ``winner`` went out of, by ``mode``, given the totals before it."""
    n = len(hands)
    own = [hand_points(hand) for hand in hands]
    if mode in ("points", "single"):
        points = [0] * n
        points[winner] = sum(own)
    else:  # lowest, elimination: each player adds their own hand
        points = own
    scores = tuple(before + add for before, add in zip(scores_before, points, strict=True))
    seats = range(n)
    match_winner: MatchWinner = None
    eliminated: tuple[int, ...] = ()
    if mode == "single":
        match_winner = winner
    elif mode == "points":
        if max(scores) >= target:
            match_winner = _best(scores, seats, lowest=False)
    elif mode == "lowest":
        if max(scores) >= target:
            match_winner = _best(scores, seats, lowest=True)
    else:  # elimination
        eliminated = tuple(s for s in seats if scores[s] >= target)
        left = [s for s in seats if s not in eliminated]
        if n == 2:
            match_winner = winner  # two players decide the match in one round
        elif len(left) == 1:
            match_winner = left[0]
        elif not left:
            match_winner = _best(scores, seats, lowest=True)
    return RoundResult(winner, tuple(points), scores, match_winner, eliminated)
