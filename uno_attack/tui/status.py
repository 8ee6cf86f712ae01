"""The status line: what the table waits for, in a sentence, from the view alone.

It says whose move it is, what is owed, by whom and why (the engine's words for the
penalty and the host's for its cause: ``Ben owes 4 draws: two Draw Twos stacked (Ann,
Cleo)``), and which keys the seat at the screen may use now, as its ``legal`` lists them.
"""

from __future__ import annotations

from uno_attack.actions import Verb
from uno_attack.tui.seen import Seen
from uno_attack.wording import YOU, possessive

_TAKE = {"press": "press the launcher", "draw": "draw"}


def status_line(seen: Seen) -> str:
    view = seen.view
    me = seen.seat
    prompt = seen.prompt
    if prompt is not None:
        return f"⚠ {prompt['message']}: retry, or say how many came out."
    busy = view.get("busy")
    if busy is not None:
        whose = "your" if busy == me else possessive(seen.name(busy))
        return f"The launcher is running ({whose} {seen.take_verb})…"
    if seen.over:
        winner = view.get("winner")
        return "The round is over." if winner is None else \
            f"{seen.name(winner)} went out: the round is over."
    window = view.get("uno_window")
    if window is not None and me is not None:
        if window == me and not seen.hidden:
            return "You hold one card: call UNO now (u), before someone catches you!"
        if window in seen.people:
            return f"{seen.name(window)} holds one card: call UNO (u)!"
        if any(a.target == window for a in seen.listed(Verb.CATCH)):
            return (f"{seen.name(window)} did not call UNO: catch them (c, or click their "
                    "name)!")
    turn = seen.turn
    assert turn is not None
    owed = seen.owed()
    take = _TAKE.get(seen.take_verb, seen.take_verb)
    if not seen.my_turn:
        if owed and owed[0][0] == turn:
            _, what, why = owed[0]
            text = f"{seen.name(turn)} owes {what}" + (f": {why}." if why else ".")
        elif turn in seen.hello.get("people", ()) and turn not in view.get("connected", ()) \
                and turn not in view.get("away", ()):  # a person the host waits for
            text = f"Waiting for {seen.name(turn)} to connect."
        else:
            text = f"{seen.name(turn)} is thinking…" if me is not None else \
                f"{seen.name(turn)}'s turn."
        jump = seen.jump_ins
        if jump and not seen.hidden:
            text += f" You hold {seen.card_name(jump[0].cards[0])}: jump in (j)!"
        if seen.listed(Verb.OUT) and not seen.hidden:
            text += " Your numbers add up: go out (o)!"
        return text
    solo = len(seen.people) <= 1
    name = seen.name(turn)
    you = "You" if solo or name == YOU else f"{name}, you"
    if seen.listed(Verb.CHOOSE):
        return f"{you} name the colour of the wild starter."
    if owed and owed[0][0] == turn:
        _, what, why = owed[0]
        text = f"{you} owe {what}" + (f" ({why})" if why else "") + f": {take} (Space)"
        if seen.listed(Verb.CHALLENGE):
            text += ", challenge it (x)"
        if seen.listed(Verb.PLAY):
            text += ", or answer with a ✓ card"
        return text + "."
    phase = view.get("phase")
    if phase == "after":
        return "Play a card that just arrived (✓)" + (
            ", or pass: p." if seen.listed(Verb.PASS) else ".")
    if phase == "chain":
        return f"{you} {take} on until a playable card comes: Space."
    turn_words = "Your turn" if solo or name == YOU else f"{name}, your turn"
    keys = "←→ Home End Enter, 1-9, a code (R5), click" if len(seen.hand) > 10 \
        else "←→ Enter, 1-9, click"
    text = f"{turn_words}: play a ✓ card ({keys}) or {take} (Space)"
    if seen.rules.options.multi_play != "off":
        text += "; a: add a card to a play of several"
    if seen.listed(Verb.OUT):
        text += "; o: go out"
    return text + "."
