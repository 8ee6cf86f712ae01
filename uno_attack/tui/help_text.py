"""The help screen's text: the rules in short and every key (RULES.md is the full book)."""

HELP_MARKDOWN = """\
# UNO Attack — help

**Goal:** be the first to get rid of all your cards. Play a card that matches the top
card's **colour** or **symbol**; wild cards always match and name a colour.
Instead of playing you may **press the launcher**: whatever fires is yours and your
turn is over. Most presses fire nothing — the tension builds — then a burst comes.

| card | effect |
|---|---|
| Skip (S) | the next player loses the turn |
| Reverse (R) | direction flips |
| Hit 2 (H) | the next player presses twice and loses the turn |
| Discard All (D) | discard every card of its colour with it |
| Trade Hands (T) | swap hands with a player you choose (not as your last card) |
| Wild (W) | name the colour |
| Wild All Hit (WA) | name the colour; everyone else presses once |
| Wild Hit-Fire (WF) | name the colour; the next player presses until a card fires |

**UNO:** when a play leaves you one card, call UNO (`u`, before or right after the play).
If you forget, anyone may catch you until the next player acts: you press twice.

## Keys

| key | what it does |
|---|---|
| ← → then Enter | choose a card and play it |
| 1 … 9, 0 | play card 1 … 10 at once |
| click a card | play it |
| Space, or click the launcher | press the launcher |
| u | call UNO (on your turn: call it with your next play) |
| c | catch a player who has not called UNO (or click their name) |
| p | pass (only with the play_after_press option) |
| s | the players' records: level, wins, streak, favourite cards |
| ? | this help |
| q | quit (the game is saved; `uno-attack play --resume` goes on) |

Each card also shows its letter: R red, Y yellow, G green, B blue, W wild.
A ✓ above a card means it can be played now.
"""
