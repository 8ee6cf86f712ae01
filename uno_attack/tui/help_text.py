"""The help screen's text: the game in short, this table's options, and every key
(RULES.md and VARIANTS.md are the full books).

The cards' names and effects are the rule set's (each kind declares its effect in a few
words); the options come from their declared meanings, so the help never says more or less
than the game in play does.
"""

from __future__ import annotations

from uno_attack.options import OPTION_SPECS, Options
from uno_attack.rules import RuleSet, rule_set

_GOAL = {
    "attack": """\
**Goal:** be the first to get rid of all your cards. Play a card that matches the top
card's **colour** or **symbol**; wild cards always match and name a colour.
Instead of playing you may **press the launcher**: whatever fires is yours and your
turn is over. Most presses fire nothing — the tension builds — then a burst comes.
""",
    "classic": """\
**Goal:** be the first to get rid of all your cards. Play a card that matches the top
card's **colour**, **number** or **symbol**; wild cards always match and name a colour.
Instead of playing you **draw** a card from the pile; you may play it at once if it
matches, or pass.
""",
}

#: What the help says of a rule set's cards beside their table.
_CARD_NOTES = {
    "attack": "",
    "classic": """\

A Wild Draw Four is fair only while its player holds no card of the current colour: the
player it is played on may **challenge** it (`x`) and sees the hand. A bluff draws 4 for its
player; a fair one makes the challenger draw 6.
""",
}

_KEYS = """\
## Keys

The footer shows the keys that do something now; the line above your hand says what
the table waits for.

| key | what it does |
|---|---|
| ← → then Enter | choose a card and play it |
| Home, End | the first card, the last card (then Enter plays it) |
| PgUp, PgDn | the cards a panel above or below, in a hand that scrolls |
| R5, WF … | typing a card's code (its colour letter, then its symbol) goes to it |
| h | a hint: what the hard bot would do in your place, its top choices and their wins |
| t | the hand sorted by colour and value, or as dealt (kept); • marks a card just come |
| 1 … 9, 0 | play card 1 … 10 at once; a card past the tenth: ← → or End, then Enter |
| click a card | play it |
| Space, or click the launcher | press the launcher (classic: draw a card) |
| a | add the card under the cursor to a play of several (multi_play); Enter plays them all |
| j | jump in with the identical card, out of turn (jump_in) |
| x | challenge a Wild Draw Four played on you (classic) |
| p | pass, after a press or a draw that brought a playable card |
| o | go out: your numbers add up to the card played (sum_out) |
| u | call UNO (on your turn: call it with your next play) |
| c | catch a player who has not called UNO (or click their name) |
| s | the players' records: level, wins, streak, favourite cards |
| ? | this help |
| q | quit (the game is saved; `uno-attack play --resume` goes on) |

A card that names a colour asks for it (r y g b); a Trade Hands, or a 7 under
seven_zero, asks whom to trade with. Each card also shows its letter: R red, Y yellow,
G green, B blue, W wild. A ✓ above a card means it can be played now.
"""


def help_markdown(options: Options) -> str:
    """The help for a table played with these options."""
    rules = options.rules
    title = "UNO Attack" if rules == "attack" else "Classic UNO"
    changed = [f"| {spec.name} = {getattr(options, spec.name)} | {spec.help} |"
               for spec in OPTION_SPECS.values()
               if spec.name != "rules" and getattr(options, spec.name) != spec.default]
    played = ("## This table's options\n\n| option | meaning |\n|---|---|\n"
              + "\n".join(changed) + "\n") if changed else \
        "## This table's options\n\nNone: the official rules.\n"
    take = "press" if rules == "attack" else "draw"
    uno = (f"**UNO:** when a play leaves you one card, call UNO (`u`, before or right after "
           f"the play). If you forget, anyone may catch you until the next player acts: "
           f"you {take} {options.uno_penalty}.\n")
    cards = card_table(rule_set(rules)) + _CARD_NOTES[rules]
    return f"# {title} — help\n\n{_GOAL[rules]}\n{cards}\n{uno}\n{played}\n{_KEYS}"


def card_table(rules: RuleSet) -> str:
    """The rule set's cards that do something, with their effects, as a Markdown table."""
    rows = [f"| {kind.name} ({kind.symbol}) | {kind.effect} |"
            for kind in rules.kinds.values() if kind.effect is not None]
    return "| card | effect |\n|---|---|\n" + "\n".join(rows) + "\n"
