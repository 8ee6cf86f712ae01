"""The ``basic`` bot: good play by rules of thumb, under every rule set and house rule.

What is allowed it asks the engine (the legal actions of its seat, in turn and out of it;
``is_legal`` for a play of several cards, which is legal but never listed; ``hand_after``
for what a play leaves it) and what a card is it asks the game (``game.kind(card)``). Its
rules of thumb are only about what a play is worth:

- A play is worth the points it sheds: several cards of one kind at once where
  ``multi_play`` allows, the last one of the colour it holds most of; a Discard All the
  cards it lays down too. Going out beats everything.
- Wilds are kept for need (worth almost nothing) and name the colour it holds most of.
  A Wild Draw Four is played fairly; as a bluff only when the next player is about to go
  out and a challenge is the lesser risk (VARIANTS.md A5).
- A card that costs the next player a turn is worth more when that player is an opponent
  close to going out, and less when it is a team-mate (VARIANTS.md B10).
- A card that moves hands (Trade Hands, a 7 or 0 under ``seven_zero``) is played when
  it leaves the bot fewer cards, aimed at the opponent whose hand does that best: the
  smallest.
- It does not keep a hand that cannot end the round (only Trade Hands, or under
  ``last_card = no_action`` only action cards and wilds): it plays those first.
- A penalty owed is stacked or deflected whenever a card in hand answers it; else a Wild
  Draw Four is challenged when :mod:`~uno_attack.bots.odds` says the odds are good.
- It presses or draws only when no play is worth making (or when it must), and after a
  press or draw plays what came if that is worth it, else passes.
- Out of turn it catches an opponent who forgot UNO, calls its own, goes out on a sum
  (``sum_out``) and jumps in with the identical card (``jump_in``). It never makes a false
  call or catch (VARIANTS.md B8).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from uno_attack.actions import Action, Verb
from uno_attack.bots.dice import Dice
from uno_attack.bots.odds import challenge_pays
from uno_attack.bots.worlds import swaps_hands
from uno_attack.cards import COLORS, Card, Color
from uno_attack.engine import Round
from uno_attack.scoring import team_of

#: The worth of a play that must never be made (a wild naming a colour it does not hold).
NEVER = -1000.0
_PLAY, _UNO, _CATCH, _OUT = Verb.PLAY, Verb.UNO, Verb.CATCH, Verb.OUT


class BasicBot:
    """A sensible player (see the module docstring); deterministic given its seed.

    ``forget_uno`` is the chance that it plays its second-last card without calling UNO,
    as people do, so a person at the table gets a chance to catch it.
    """

    kind = "basic"

    def __init__(self, name: str = "basic", *, seed: int | str | None = None,
                 forget_uno: float = 0.0) -> None:
        self.name = name
        self.forget_uno = forget_uno
        self._forget_dice = Dice(f"{seed}:forget")

    # -- out of turn -----------------------------------------------------------------
    def react(self, game: Round, seat: int) -> Action | None:
        """Catch an opponent who forgot UNO, call its own, go out, or jump in."""
        window = game.uno_seat
        if window is not None:
            if window == seat:
                return Action.call_uno(seat)
            if _opponents(game, seat, window):
                return Action.catch(seat, window)
        return self.leap(game, seat)

    def leap(self, game: Round, seat: int) -> Action | None:
        """Go out on the number just played, or jump in with the card on top, if it may."""
        if seat == game.to_act:
            return None  # its own turn is not out of turn
        if game.out_value is not None:
            out = Action.out(seat)
            if game.is_legal(out):
                return out
        jumps = [a for a in game.legal_actions(seat) if a.verb is _PLAY]
        if not jumps:
            return None
        best, worth = self.best_play(game, seat, jumps)
        return self.with_call(game, best) if worth >= 0 else None

    # -- on its turn -----------------------------------------------------------------
    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        window = game.uno_seat
        plays: list[Action] = []
        take = challenge = None
        for action in legal:
            verb = action.verb
            if verb is _PLAY:
                plays.append(action)
            elif verb is _OUT:
                return action
            elif verb is _UNO or verb is _CATCH:  # true ones only, never a false one (B8)
                # A catch names its target, so window is a seat when they are equal.
                if (window == seat if verb is _UNO else
                        window == action.target and _opponents(game, seat, window)):  # type: ignore[arg-type]
                    return action
            elif verb is Verb.CHOOSE:
                return Action.choose(seat, _Hand(game, seat).colour)
            elif verb is Verb.CHALLENGE:
                challenge = action
            else:  # press, draw or pass
                take = action
        if game.owed:  # any play now answers the penalty (stacks or deflects it)
            if plays:
                return self.with_call(game, self.best_play(game, seat, plays)[0])
            if challenge is not None and challenge_pays(game, seat):
                return challenge
        if not plays:
            assert take is not None, f"nothing to do for seat {seat} in {game!r}"
            return take
        best, worth = self.best_play(game, seat, plays, several=True)
        if worth < 0 and take is not None:
            return take
        return self.with_call(game, best)

    def best_play(self, game: Round, seat: int, plays: Sequence[Action], *,
                  several: bool = False) -> tuple[Action, float]:
        """The best of these legal plays (with ``several``, made of several cards where
        that is legal), and its worth; a worth below 0 means taking a card is better."""
        hand = _Hand(game, seat)
        best, best_rank, best_worth = plays[0], -float("inf"), NEVER
        for action in plays:
            if action.color is not None and action.color is not hand.colour:
                continue  # a wild names the colour it holds most of
            worth, rank = self._worth(game, action, hand)
            if rank > best_rank:
                best, best_rank, best_worth = action, rank, worth
        return (self.several(game, best, hand) if several else best), best_worth

    def several(self, game: Round, action: Action, hand: _Hand | None = None) -> Action:
        """The play with every other card of its kind in hand played with it, the last one
        of the colour it holds most of after them (VARIANTS.md B3), or with as many as
        is legal; the play alone if none is."""
        if game.options.multi_play == "off":
            return action
        card = action.card
        assert card is not None
        kind = game.kind(card)
        if kind.multi is None:
            return action
        hand = hand or _Hand(game, action.seat)
        same = [c for c in hand.cards if game.kind(c) is kind]
        same.remove(card)
        if not same:
            return action
        keep = _most_held(_without(hand.cards, [card, *same]))
        same.sort(key=lambda c: c.color is keep)  # the kept colour last, on top
        for n in range(len(same), 0, -1):
            play = Action.play(action.seat, [card, *same[-n:]], action.color)
            if game.is_legal(play):
                return play
        return action

    def with_call(self, game: Round, action: Action) -> Action:
        """UNO called with the play that leaves one card (unless it forgets, as people do)."""
        card = action.card
        assert card is not None
        kind = game.kind(card)
        if len(game.hands[action.seat]) - len(action.cards) > 1 and \
                kind.lays_down is None and not swaps_hands(kind):
            return action  # it will hold more than one card
        if game.hand_after(action) == 1 and not self._forgets(game, action.seat):
            return action.with_uno()
        return action

    def _forgets(self, game: Round, seat: int) -> bool:
        return self.forget_uno > 0 and \
            self._forget_dice.at(game.steps, seat) < self.forget_uno

    def recall(self, game: Round, seat: int, action: Action) -> None:
        """It remembers nothing between decisions: each is read from the round."""

    # -- what a play is worth ----------------------------------------------------------
    def _worth(self, game: Round, action: Action, hand: _Hand) -> tuple[float, float]:
        """(worth, rank): the play's worth, and the worth it is ranked by among plays (less
        when it keeps a hand that cannot end the round)."""
        cards = action.cards
        kind = game.kind(cards[0])
        left = len(hand.cards) - len(cards)
        if left <= 0:
            return 500.0, 500.0  # it goes out
        if kind.wild:
            worth = 0.5 * len(cards)
            if kind.hits:
                worth += 10 + (40 if hand.threat else 0)
            if kind.fair is not None and game.options.wild_draw_four == "challenge" and \
                    not kind.fair(_without(hand.cards, cards), game.color):
                worth -= 30  # a bluff may be challenged
            if len(hand.cards) <= 2:
                worth += 60
        elif swaps_hands(kind):
            if action.target is not None and not _opponents(game, action.seat, action.target):
                return NEVER, NEVER
            gain = left - game.hand_after(action)
            if gain > 0:
                worth = kind.points + 20 * gain
            elif kind.number is None:
                worth = -200.0  # a Trade Hands is never worth a bigger hand
            else:
                worth = kind.points - 15 * (1 - gain)
        else:
            colour = cards[-1].color
            worth = float(kind.points * len(cards) + 8 * (len(cards) - 1))
            if kind.lays_down is not None:
                worth += 15 * len(kind.lays_down(game.rules, _without(hand.cards, cards),
                                                 cards[-1]))
            if kind.skips:
                worth += 40 if hand.threat else -30 if hand.mate_next else 0
            # Not a wild (the first branch takes those): the card has a colour.
            worth += 2 * (hand.counts[colour] - sum(1 for c in cards if c.color is colour))  # type: ignore[index]
        finishers = hand.finishers - sum(1 for c in cards if game.kind(c).end_refusal is None)
        return worth, worth if finishers > 0 else worth - 40


def _without(cards: Sequence[Card], played: Sequence[Card]) -> list[Card]:
    """The cards left once ``played`` are taken out of ``cards``."""
    rest = list(cards)
    for card in played:
        rest.remove(card)
    return rest


class _Hand:
    """A seat's hand as a decision sees it: the cards, how many it holds of each colour
    and the one it holds most of, how many could end the round, and whether the next
    player is an opponent close to going out, or a team-mate."""

    __slots__ = ("cards", "colour", "counts", "finishers", "mate_next", "threat")

    def __init__(self, game: Round, seat: int) -> None:
        cards = self.cards = game.hands[seat]
        counts = self.counts = dict.fromkeys(COLORS, 0)
        kind = game.kind
        finishers = 0
        for card in cards:
            if card.color is not None:
                counts[card.color] += 1
            if kind(card).end_refusal is None:
                finishers += 1
        self.finishers = finishers
        self.colour = max(COLORS, key=counts.__getitem__)  # the first of a tie
        after = game.next_seat(seat)
        opponent = _opponents(game, seat, after)
        self.threat = opponent and len(game.hands[after]) <= 2
        self.mate_next = not opponent


def _most_held(cards: Iterable[Card]) -> Color:
    """The colour most of these cards have (red, yellow, green, blue on a tie or none)."""
    counts = dict.fromkeys(COLORS, 0)
    for card in cards:
        if card.color is not None:
            counts[card.color] += 1
    return max(COLORS, key=counts.__getitem__)


def _opponents(game: Round, seat: int, other: int) -> bool:
    """Whether ``other`` plays against ``seat`` (not the same seat, not a team-mate)."""
    teams = game.options.teams
    return other != seat and team_of(seat, teams) != team_of(other, teams)

