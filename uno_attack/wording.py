"""English for the screens and the game log: counts with their nouns, articles, and the
person at the keyboard, whose seat is named "You", spoken to as "you".

The engine's refusals name seats as fields, and word themselves with these names
(:mod:`uno_attack.refusal`).
"""

from __future__ import annotations

YOU = "You"  # the name of the only person at the keyboard


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``1 press``, ``2 presses``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def article(word: str) -> str:
    """``a`` or ``an`` before ``word`` (by its first letter, as the match modes need)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def as_object(name: str) -> str:
    """``Ada`` or ``you``: the player as the object of a sentence."""
    return "you" if name == YOU else name


def possessive(name: str) -> str:
    """``Ada's`` or ``your``."""
    return "your" if name == YOU else f"{name}'s"


def verb_for(name: str, third: str, second: str) -> str:
    """The verb that agrees with ``name``: ``Ada owes`` but ``you owe``."""
    return second if name == YOU else third


def wins(name: str) -> str:
    """``Ada wins`` but ``You win``."""
    return f"{name} {verb_for(name, 'wins', 'win')}"


#: Each option of :data:`~uno_attack.options.OPTION_SPECS` as the new-game screen names
#: it: a plain label and a one-line meaning (the raw key stays in ``--option`` and in
#: the line's tooltip; the rule books' sections stay in the help).
OPTION_WORDS: dict[str, tuple[str, str]] = {
    "rules": ("Rules", "UNO Attack with its launcher, or classic UNO with a draw pile"),
    "hand_size": ("Cards dealt", "how many cards each player starts with"),
    "target": ("Points to win", "the score that ends a match"),
    "match": ("Match", "points: first to the target; lowest: fewest points; elimination: "
                       "the last one standing; single: one round; net: a set of rounds"),
    "rounds": ("Rounds", "how many rounds a net match lasts"),
    "play_after_press": ("Play what comes out", "with nothing to play, you may play a card "
                                                "the launcher just fired, or pass"),
    "trade_hands_last": ("Trade Hands to finish", "Trade Hands may be your last card"),
    "first_dealer": ("First dealer", "draw (highest card deals), random, or a seat number"),
    "next_dealer": ("Next dealer", "the winner deals, the deal passes left, or the winner "
                                   "plays first"),
    "stacking": ("Stack Draw cards", "answer a Draw card with another and pass on the sum "
                                     "(same: the same card; up: the same or bigger)"),
    "jump_in": ("Jump in", "anyone holding the very same card may play it out of turn"),
    "multi_play": ("Several at once", "play several cards of one number (or symbol) together"),
    "seven_zero": ("7-0", "a 7 swaps hands with a player you name; a 0 passes every hand on"),
    "until_playable": ("Until it fits", "press or draw on until a card you can play comes, "
                                        "then play it"),
    "deflect": ("Deflect", "a Skip or Reverse passes a Draw card's penalty to the next player"),
    "last_card": ("Last card", "any card may go out, or only a number or a card that makes "
                               "others take"),
    "uno_penalty": ("Caught without UNO", "cards you take when caught not calling UNO"),
    "false_uno_penalty": ("False UNO", "0: a wrong UNO call is refused; more: it costs that "
                                       "many cards"),
    "false_catch_penalty": ("False catch", "0: catching someone who called is refused; more: "
                                           "it costs that many cards"),
    "sum_out": ("Sum out", "go out at once when your numbers add up to the number just played"),
    "teams": ("Teams", "0: each for themselves; 2 to 5 teams, partners sitting apart"),
    "forced_play": ("Must play", "a player who can play must play (no pressing or drawing "
                                 "instead)"),
    "wild_draw_four": ("Wild Draw Four", "challenge: it may be challenged; fair_only: only "
                                         "when you have no card of the colour; free: any time"),
}

#: The values of a choice as the new-game screen lists them, where the value's own word
#: is not plain enough (the value itself stays what ``--option`` takes).
VALUE_WORDS: dict[tuple[str, str], str] = {
    ("match", "points"): "points (to the target)",
    ("match", "lowest"): "lowest score",
    ("match", "elimination"): "elimination",
    ("match", "single"): "one round",
    ("match", "net"): "net (a set of rounds)",
    ("next_dealer", "winner"): "the winner",
    ("next_dealer", "left"): "to the left",
    ("next_dealer", "winner_starts"): "winner plays first",
    ("stacking", "same"): "the same card",
    ("stacking", "up"): "same or bigger",
    ("jump_in", "numbers"): "numbers",
    ("jump_in", "any"): "any card",
    ("multi_play", "numbers"): "numbers",
    ("multi_play", "symbols"): "any symbol",
    ("last_card", "any"): "any card",
    ("last_card", "no_action"): "no action card",
    ("wild_draw_four", "challenge"): "may be challenged",
    ("wild_draw_four", "fair_only"): "only when fair",
    ("wild_draw_four", "free"): "any time",
}
