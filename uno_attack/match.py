"""A match: rounds dealt from a seeded deck until the match mode's end (RULES.md 3 and 8).

The round engine knows nothing of seeds or scores; this is where the deck is shuffled, the
first dealer drawn, the next dealer chosen, rounds scored (:mod:`uno_attack.scoring`),
scores carried and players eliminated. Every random choice comes from one
``random.Random`` per round, derived from the match seed and the round number, so a match
can be resumed from its round number alone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from uno_attack.cards import Card
from uno_attack.engine import Round
from uno_attack.errors import OptionError
from uno_attack.options import Options
from uno_attack.rules import RuleSet, rule_set
from uno_attack.scoring import RoundResult, score_round
from uno_attack.transcript import Transcript
from uno_attack.wording import article


def round_rng(seed: int | str | None, round_no: int, purpose: str) -> random.Random:
    """The random source for one purpose of one round of a match with this seed."""
    return random.Random(f"{seed}:{round_no}:{purpose}")


def deal(
    rules: RuleSet, deck: Sequence[Card], players: int, dealer: int, hand_size: int
) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """Deal from ``deck`` (top first): hands one card at a time clockwise from the dealer's
    left, then starters until one is not of a kind that is put back (those go under the
    stock). The hands leave a starter (:meth:`~uno_attack.options.Options.check_deal`).

    Returns the hands, the starters turned up, and the stock's cards (top first).
    """
    hands: list[list[Card]] = [[] for _ in range(players)]
    cards = iter(deck)
    for _ in range(hand_size):
        for i in range(1, players + 1):
            hands[(dealer + i) % players].append(next(cards))
    rest = list(cards)
    starters = []
    put_back = {card for card in rules.cards if rules.kind(card).put_back}
    while True:
        card = rest.pop(0)
        starters.append(card)
        if card not in put_back:
            break
        if all(c in put_back for c in rest):
            raise OptionError("no card left to start the round")
    return hands, starters, rest


def draw_for_dealer(rules: RuleSet, players: int, rng: random.Random) -> int:
    """Each player takes a card; the highest number deals; draw again on ties and
    non-numbers (RULES.md 3; a classic 0 counts as a number)."""
    contenders = list(range(players))
    while True:
        deck = list(rules.deck)
        rng.shuffle(deck)
        draws: dict[int, int] = {}
        for seat in contenders:
            number = rules.kind(deck.pop()).number
            while number is None:
                number = rules.kind(deck.pop()).number
            draws[seat] = number
        best = max(draws.values())
        contenders = [s for s in contenders if draws[s] == best]
        if len(contenders) == 1:
            return contenders[0]


@dataclass
class Match:
    """Players (by name), options, seed, scores and who is still in.

    Seats of a round are the players still in the match (``active``), in order.
    """

    names: list[str]
    options: Options = field(default_factory=Options)
    seed: int | str | None = None
    scores: list[int] = field(default_factory=list)
    active: list[int] = field(default_factory=list)
    round_no: int = 0
    dealer: int | None = None  # player index of the next round's dealer
    winner: int | tuple[int, ...] | None = None
    history: list[RoundResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 2 <= len(self.names) <= 10:
            raise OptionError(f"a match needs 2 to 10 players, not {len(self.names)}")
        self.options.check_players(len(self.names))
        self.scores = self.scores or [0] * len(self.names)
        self.active = self.active or list(range(len(self.names)))

    @property
    def rules(self) -> RuleSet:
        return rule_set(self.options.rules)

    @property
    def over(self) -> bool:
        return self.winner is not None

    def _first_dealer(self) -> int:
        rule = self.options.first_dealer
        rng = round_rng(self.seed, 0, "dealer")
        if rule == "random":
            return rng.randrange(len(self.active))
        if rule == "draw":
            return draw_for_dealer(self.rules, len(self.active), rng)
        return int(rule)

    def deal_round(self) -> tuple[Round, Transcript]:
        """Shuffle and deal the next round; the transcript records its set-up."""
        if self.over:
            raise OptionError("the match is over")
        self.round_no += 1
        if self.dealer is None:
            self.dealer = self.active[self._first_dealer()]
        dealer_seat = self.active.index(self.dealer)
        rules = self.rules
        deck = list(rules.deck)
        round_rng(self.seed, self.round_no, "deck").shuffle(deck)
        n = len(self.active)
        self.options.check_deal(n, where="the table")
        hands, starters, stock = deal(rules, deck, n, dealer_seat, self.options.hand_size)
        # a starter that is put back goes to a random place of the stock (RULES.md 3.3,
        # VARIANTS.md A3); the transcript records the stock as it then is
        *put_back, starter = starters
        place = round_rng(self.seed, self.round_no, "put-back")
        for card in put_back:
            stock.insert(place.randrange(len(stock) + 1), card)
        scores = [self.scores[p] for p in self.active]
        game = Round.setup(hands=hands, dealer=dealer_seat, starter=starter, stock=stock,
                           options=self.options)
        record = Transcript(
            name=f"round {self.round_no} of {article(self.options.match)} {self.options.match} "
                 f"match (seed {self.seed})",
            players=n, dealer=dealer_seat, hands=[list(h) for h in hands], starter=[starter],
            launcher=stock, rest="none", options=self.options, scores=scores,
            round_no=self.round_no,
            meta={"round": self.round_no, "seed": self.seed,
                  "players": [self.names[p] for p in self.active]},
        )
        return game, record

    def reload_rng(self) -> random.Random:
        """The random source that shuffles this round's reloads of the stock."""
        return round_rng(self.seed, self.round_no, "reload")

    def score(self, game: Round) -> RoundResult:
        """Score this match's current round, once its hand is out and nothing is owed."""
        if not game.over or game.winner is None:
            raise ValueError("the round is not over")
        return score_round(game.hands, game.winner, rules=game.rules, options=self.options,
                           scores=[self.scores[p] for p in self.active],
                           round_no=self.round_no)

    def end_round(self, result: RoundResult) -> None:
        """Carry a finished round's scores, eliminations and next dealer into the match."""
        players = self.active
        for seat, total in enumerate(result.scores):
            self.scores[players[seat]] = total
        self.history.append(result)
        winner_player = players[result.winner]
        if isinstance(result.match_winner, tuple):
            self.winner = tuple(players[s] for s in result.match_winner)
        elif result.match_winner is not None:
            self.winner = players[result.match_winner]
        dealer_seat = players.index(self.dealer) if self.dealer in players else 0
        rule = self.options.next_dealer
        if rule == "left":
            next_dealer = players[(dealer_seat + 1) % len(players)]
        elif rule == "winner_starts":  # the seat before the winner deals (B12)
            next_dealer = players[(result.winner - 1) % len(players)]
        else:
            next_dealer = winner_player
        out = {players[s] for s in result.eliminated}
        if out and not self.over:
            self.active = [p for p in players if p not in out]
            while next_dealer in out:  # the deal passes on to the next player still in
                next_dealer = players[(players.index(next_dealer) + 1) % len(players)]
        self.dealer = next_dealer
