"""The ``smart`` bot: information-set Monte Carlo tree search with determinisation.

At each decision with more than one thing worth doing it runs a single-observer ISMCTS
(Cowling, Powley & Whitehouse, *Information Set Monte Carlo Tree Search*, 2012) with a
fixed number of playouts (so it is deterministic for a seed; more in classic UNO than in
UNO Attack, :data:`DEFAULT_PLAYOUTS`), cut short by a time cap:

1. **Determinise.** Deal every card it has not seen anew at random into the other hands
   and the stock, keeping each hand's size and what it knows of it: cards it gave away,
   cards a seat showed it lacks by taking instead of playing
   (:func:`~uno_attack.bots.worlds.sample_world`, :class:`~uno_attack.bots.worlds.Memory`).
   In a two-player round of classic UNO the other seat's hand is one of the hands it has
   followed that seat's turns with (:class:`~uno_attack.bots.belief.Belief`: hands with
   which the default policy would have played every turn as that seat did). In UNO
   Attack, where the launcher decides what a press takes and the replays do not follow
   presses, a world in which the default policy holding the other seat's cards would not
   have made that seat's last choice is dealt again instead (a few times at most). A Wild
   Draw Four it must answer is a bluff in the world as the guessed hand makes it, else
   with the chance :mod:`~uno_attack.bots.odds` gives, and the bluffer's hand agrees. In
   UNO Attack each
   press is a chance event: it fires what the table's ejection policy (by name, ``attack``
   by default) would fire, from a tension (empty presses in a row) drawn from how often the
   policy is at each, as the bot is not told of presses.
2. **Search.** The root's candidates share the worlds: each world (with its chance: the
   launcher's draws and the reloads' shuffles) is played once from each candidate, so
   they are compared on the same luck, and sequential halving (Karnin, Koren & Somekh,
   2013) gives the better half of them more worlds, round after round. Below the root the
   tree holds the bot's own later decisions: the default policy's choice first, another
   action only once those tried are well visited (progressive widening,
   :data:`WIDENING`), UCB1 over those tried and available in the world at hand (each
   counted as tried only in the visits where it was available), one new action added
   per playout. Between its decisions the other seats play by the default
   policy (the ``basic`` bot's choice: a model of a sensible opponent), and what they did
   is the edge to its next decision node, so each node is one of its information sets as
   far as it sees the others' moves.
3. **Roll out** with the default policy for every seat to the end of the round (everyone
   calls UNO; jump-ins and going out as the basic bot does): a win (or the team's) is 1,
   a loss 0.
4. **Choose** the candidate with the best results, but keep the default policy's own
   choice unless that candidate beat it, world by world, by more than :data:`CONFIDENCE`
   standard errors (fewer in classic UNO, where it searches more): a round's luck swamps
   most single moves, and a search that followed every lucky difference would play worse
   than the policy it searches with.

Out of turn (UNO calls, catches, jump-ins, going out) and when one candidate is left it
acts as the basic bot. Its candidates are the listed legal actions (a wild naming only
colours it holds, or any colour when it holds none) and the plays of several cards the
basic bot would make of them, never a false call; it calls UNO with a play that leaves one
card.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from sim_launcher.policies import BurstPolicy, PolicyTable, make_policy
from uno_attack.actions import Action, Verb
from uno_attack.bots.basic import BasicBot
from uno_attack.bots.belief import PARTICLES, Belief
from uno_attack.bots.odds import bluff_chance
from uno_attack.bots.worlds import Memory, sample_world
from uno_attack.cards import Card
from uno_attack.config import user_policy_tables
from uno_attack.engine import Round
from uno_attack.penalties import Unit
from uno_attack.scoring import team_of

#: Playouts per decision by default, by what the rule set takes cards with: a move in well
#: under 0.5 s on a small machine. A classic playout is cheaper, and classic needs more of
#: them: its moves differ less than the launcher's luck makes them differ in UNO Attack.
DEFAULT_PLAYOUTS: Mapping[Unit, int] = MappingProxyType({Unit.PRESS: 200, Unit.DRAW: 800})
#: The time cap of a decision by default (milliseconds), whatever the playouts.
DEFAULT_BUDGET_MS = 450.0
#: How many standard errors better than the default policy's choice an action must do to
#: be chosen instead, by rule set (as :data:`DEFAULT_PLAYOUTS`).
CONFIDENCE: Mapping[Unit, float] = MappingProxyType({Unit.PRESS: 1.0, Unit.DRAW: 0.35})
#: Worlds dealt at most before one in which the other seat's last choice is the model's
#: (else the last dealt is kept).
AGREEING_TRIES = 8
#: UCB1's exploration constant, for results between 0 and 1.
EXPLORATION = 0.7
#: Visits per action tried that a decision in the tree needs before another is tried: at
#: a few hundred playouts a move, an action tried at random below the root mostly adds
#: noise, so the tree keeps to the default policy's choice until a node is well visited.
WIDENING = 10
#: Actions after which a playout stops and counts as half a win (a round that will not end).
ROLLOUT_LIMIT = 1000
#: The longest run of empty presses the tension model follows, for a policy with no bound.
_TENSION_CAP = 64
_PLAY, _PRESS, _UNO, _CATCH, _OUT = Verb.PLAY, Verb.PRESS, Verb.UNO, Verb.CATCH, Verb.OUT


@dataclass(frozen=True)
class Search:
    """What the last search did: the playouts made, the visits of each root action, the
    sum of their results, and how long it took (seconds)."""

    playouts: int
    visits: dict[Action, int]
    wins: dict[Action, float]
    seconds: float


class _Node:
    """A decision of the bot (children keyed by its actions) or what follows one of its
    actions (children keyed by what the other seats did until its next decision)."""

    __slots__ = ("avail", "children", "visits", "wins")

    def __init__(self) -> None:
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[object, _Node] = {}


class SmartBot:
    """The search bot (see the module docstring); deterministic given its seed and a
    playout budget (unless the time cap cuts a search short).

    ``playouts``: playouts per decision (``None``: the rule set's
    :data:`DEFAULT_PLAYOUTS`); ``budget_ms``: the time cap per decision (no
    playout is begun that would end after it, were it as slow as the slowest so far);
    ``policy``: the launcher's ejection policy by name; ``forget_uno`` as the basic bot's.
    """

    kind = "smart"

    def __init__(self, name: str = "smart", *, seed: int | str | None = None,
                 forget_uno: float = 0.0, playouts: int | None = None,
                 budget_ms: float = DEFAULT_BUDGET_MS, policy: str = "attack",
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if playouts is not None and playouts < 1:
            raise ValueError(f"playouts={playouts}: a search needs at least one playout")
        if not budget_ms > 0:
            raise ValueError(f"budget_ms={budget_ms}: must be more than 0")
        self.name = name
        self.seed = seed
        self.playouts = playouts
        self.budget_ms = budget_ms
        self.policy = policy
        self.clock = clock
        self.reflex = BasicBot(name, seed=seed, forget_uno=forget_uno)
        self.model = BasicBot(f"{name} (model)")
        self.memory: Memory | None = None
        #: Actions recalled and not yet learnt from: the seat, the table then, the action.
        self._unlearnt: list[tuple[int, Round, Action]] = []
        self.last: Search | None = None

    # -- the table's questions -----------------------------------------------------------
    def react(self, game: Round, seat: int) -> Action | None:
        action = self.reflex.react(game, seat)
        if action is not None:
            self.recall(game, seat, action)
        return action

    def recall(self, game: Round, seat: int, action: Action) -> None:
        """Remember an action of ``seat`` (not yet applied) as it remembers each of its
        own: what it learns follows from the round at its actions alone, so a game
        resumed from its save rebuilds its memory from the saved actions, without a search
        (a reaction it does not make teaches it nothing until it next acts).

        It keeps the table as it was and learns from it at its next decision
        (:meth:`_learn`): the same memory, but a resume that recalls a long round returns
        at once, and following the other seat's turns then runs where the bot thinks."""
        self._unlearnt.append((seat, game.copy(), action))

    def _learn(self) -> None:
        """Bring the memory up to every action recalled since the last decision, in order."""
        for seat, game, action in self._unlearnt:
            memory = self._memory(seat, game)
            memory.observe(game)
            memory.acted(game, action)
        self._unlearnt.clear()

    def choose(self, game: Round, seat: int, legal: Sequence[Action]) -> Action:
        started = self.clock()  # the cap counts what following the other seat takes
        self._learn()
        memory = self._memory(seat, game)
        memory.observe(game)
        candidates = self.candidates(game, seat, legal)
        if len(candidates) == 1:
            action = candidates[0]
        else:
            prior = _bare(self.model.choose(game, seat, legal))
            action = self.search(game, seat, candidates,
                                 prior if prior in candidates else None, started=started)
        if action.verb is _PLAY:
            action = self.reflex.with_call(game, action)
        memory.acted(game, action)
        return action

    def candidates(self, game: Round, seat: int, legal: Sequence[Action]) -> list[Action]:
        """The actions worth searching: a true UNO call, catch or going out alone (they
        cost nothing); else the legal actions, wilds naming colours it holds, with the
        plays of several cards, never a false call."""
        window = game.uno_seat
        for action in legal:
            verb = action.verb
            # A catch names its target, so window is a seat when they are equal.
            if verb is _OUT or (verb is _UNO and window == seat) or (
                    verb is _CATCH and window == action.target
                    and team_of(seat, game.options.teams) != team_of(window, game.options.teams)):  # type: ignore[arg-type]
                return [action]
        held = {card.color for card in game.hands[seat] if card.color is not None}
        found: dict[Action, None] = {}
        for action in legal:
            if action.verb is _UNO or action.verb is _CATCH:
                continue
            if action.color is not None and held and action.color not in held:
                continue
            found[action] = None
            if action.verb is _PLAY and not game.owed:
                found[self.reflex.several(game, action)] = None
        return list(found) or [next(a for a in legal if a.verb not in (_UNO, _CATCH))]

    # -- the search -----------------------------------------------------------------------
    def search(self, game: Round, seat: int, candidates: Sequence[Action],
               prior: Action | None = None, *, started: float | None = None) -> Action:
        """The best of ``candidates`` after the playouts (module docstring); ``prior``,
        the default policy's choice, unless another is clearly better. The time cap runs
        from ``started`` (by default, now)."""
        if started is None:
            started = self.clock()
        deadline = started + self.budget_ms / 1000
        rng = random.Random(f"{self.seed}:{_view(game, seat)}")
        self._learn()
        memory = self._memory(seat)
        guesses = memory.belief.guesses if memory.belief is not None else ()
        bluff = _must_answer_wild_draw_four(game, seat)
        chance = bluff_chance(game, seat) if bluff else 0.0
        launcher = _launcher(self.policy) if game.rules.unit is Unit.PRESS else None
        root = _Node()
        worlds: list[tuple[Round, int, int]] = []  # a world, its chance seed and tension
        outcomes: dict[Action, list[float]] = {a: [] for a in candidates}
        alive = list(candidates)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        unit = game.rules.unit
        playouts = self.playouts or DEFAULT_PLAYOUTS[unit]
        done, slowest = 0, 0.0
        for r in range(rounds):
            left = playouts - done
            share = max(1, left // ((rounds - r) * len(alive)) if r < rounds - 1
                        else -(-left // len(alive)))
            first = len(worlds)
            while len(worlds) < first + share:
                if guesses:
                    guess = guesses[rng.randrange(len(guesses))]
                    world = sample_world(game, seat, rng,
                                         known={1 - seat: Counter(guess.hand)},
                                         bluff=bool(guess.bluff) if bluff else None)
                else:
                    for _ in range(AGREEING_TRIES):
                        world = sample_world(game, seat, rng, known=memory.known,
                                             lacks=memory.lacks,
                                             bluff=rng.random() < chance if bluff else None)
                        if memory.agrees(world, self.model.choose):
                            break
                tension = launcher.tension(rng) if launcher is not None else 0
                worlds.append((world, rng.getrandbits(32), tension))
            for world, luck, tension in worlds[first:]:
                for action in alive:
                    now = self.clock()
                    if done >= playouts or (done and now + slowest >= deadline):
                        break  # no playout is begun that would end after the cap
                    presses = launcher.policy(luck, tension) if launcher is not None else None
                    outcomes[action].append(self._playout(
                        world.copy(), seat, root, action, rng, random.Random(luck).shuffle,
                        presses))
                    done += 1
                    slowest = max(slowest, self.clock() - now)
            if r < rounds - 1:
                ranked = sorted(alive, key=lambda a: -_mean(outcomes[a]))
                alive = [a for i, a in enumerate(ranked) if i < len(ranked) // 2 or a == prior]
            if self.clock() >= deadline:
                break
        tried = {a: o for a, o in outcomes.items() if o}
        self.last = Search(done, {a: len(o) for a, o in tried.items()},
                           {a: sum(o) for a, o in tried.items()}, self.clock() - started)
        best = max(alive, key=lambda a: _mean(outcomes[a]))
        if prior is not None and best != prior and \
                not _clearly_better(outcomes[best], outcomes[prior], CONFIDENCE[unit]):
            return prior
        return best

    def _playout(self, world: Round, seat: int, root: _Node, first: Action,
                 rng: random.Random, shuffle: Callable[[list[Card]], None],
                 presses: BurstPolicy | None) -> float:
        """One playout in ``world`` that starts with ``first``: the bot's later decisions
        by UCB1 down the tree, then everyone by the default policy; its result."""
        node: _Node | None = root
        path: list[_Node] = []
        seen: list[Action] = []  # what other seats did since the bot's last decision
        steps = 0
        model = self.model
        # Once a hand is out the penalties still owed do not change who won.
        while world.winner is None and steps < ROLLOUT_LIMIT:
            actor = world.to_act
            assert actor is not None
            if actor == seat and node is not None:
                if node is root:
                    action = first
                    child = root.children.setdefault(first, _Node())
                    new = False
                else:
                    node = node.children.setdefault(tuple(seen), _Node())
                    listed = world.legal_actions()
                    legal = self.candidates(world, seat, listed)
                    usual = _bare(model.choose(world, seat, listed))
                    child, action, new = _select(node, legal, usual, rng)
                seen = []
                path.append(child)
                node = None if new else child
            else:
                action = model.choose(world, actor, world.legal_actions())
                if node is not None:
                    seen.append(action)
            steps += _step(world, action, presses, shuffle, model,
                           seen if node is not None else None)
        result = _result(world, seat)
        for child in path:
            child.visits += 1
            child.wins += result
        return result

    def _memory(self, seat: int, game: Round | None = None) -> Memory:
        if self.memory is None or self.memory.seat != seat:
            self.memory = Memory(seat)
        if game is not None and self.memory.belief is None and game.players == 2 and \
                game.rules.unit is Unit.DRAW:
            self.memory.belief = Belief(  # no more hands than worlds it deals a decision
                seat, self.model.choose, random.Random(f"{self.seed}:belief:{seat}"),
                particles=min(PARTICLES, self.playouts or DEFAULT_PLAYOUTS[Unit.DRAW]))
        return self.memory


def _bare(action: Action) -> Action:
    """A play without its UNO call, as the candidates are (the call goes with it)."""
    return Action.play(action.seat, action.cards, action.color, action.target) \
        if action.verb is _PLAY else action


def _select(node: _Node, legal: Sequence[Action], usual: Action,
            rng: random.Random) -> tuple[_Node, Action, bool]:
    """The action to take at one of the bot's decisions in the tree: the default policy's
    choice (``usual``) first; another, at random, only once the actions tried have had
    :data:`WIDENING` visits each (progressive widening); else UCB1 over those tried. The
    child, its action, and whether it is new."""
    children = node.children
    tried = [a for a in legal if a in children]
    for action in tried:
        children[action].avail += 1
    pick = None
    if usual in legal and usual not in children:
        pick = usual
    elif len(tried) < len(legal) and \
            sum(children[a].visits for a in tried) >= WIDENING * len(tried):
        untried = [a for a in legal if a not in children]
        pick = untried[rng.randrange(len(untried))]
    if pick is not None:
        child = children[pick] = _Node()
        child.avail = 1
        return child, pick, True
    best, best_score = tried[0], -1.0
    for action in tried:
        child = children[action]
        score = child.wins / child.visits + EXPLORATION * math.sqrt(
            math.log(child.avail) / child.visits)
        if score > best_score:
            best, best_score = action, score
    return children[best], best, False


def _step(world: Round, action: Action, presses: BurstPolicy | None,
          shuffle: Callable[[list[Card]], None], model: BasicBot,
          seen: list[Action] | None) -> int:
    """Apply an action in a playout, then what follows at once: the UNO call of a player
    left holding one card, and jump-ins or going out as the default policy would. Returns
    the number of actions applied."""
    fired = presses.next_burst() if presses is not None and action.verb is _PRESS else 0
    world.push(action, fired=fired, shuffle=shuffle)
    steps = 1
    while world.reactions_open():
        window = world.uno_seat
        if window is not None:
            world.push(Action.call_uno(window))
            steps += 1
            continue
        reaction = None
        for offset in range(1, world.players):
            reaction = model.leap(world, (world.turn + offset) % world.players)
            if reaction is not None:
                break
        if reaction is None:
            break
        world.push(reaction)
        steps += 1
        if seen is not None:
            seen.append(reaction)
    return steps


def _mean(results: Sequence[float]) -> float:
    return sum(results) / len(results) if results else -1.0


def _clearly_better(results: Sequence[float], than: Sequence[float], confidence: float) -> bool:
    """Whether the first results beat the second, world by world (the same worlds, in the
    same order), by more than ``confidence`` standard errors of the difference."""
    n = min(len(results), len(than))
    if n < 2:
        return False
    diffs = [a - b for a, b in zip(results, than, strict=False)]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    return mean > confidence * spread if spread else mean > 0


def _result(world: Round, seat: int) -> float:
    """1 for a round won (by the seat or its team), 0 for one lost, ½ for one unfinished."""
    if world.winner is None:
        return 0.5
    teams = world.options.teams
    return 1.0 if team_of(world.winner, teams) == team_of(seat, teams) else 0.0


def _must_answer_wild_draw_four(game: Round, seat: int) -> bool:
    head = game.owed[0] if game.owed else None
    return head is not None and head.seat == seat and head.cause.challenge is not None \
        and head.cause.challenge.by != seat


def _view(game: Round, seat: int) -> str:
    """The round as ``seat`` sees it, as text: what seeds its search, so a decision
    depends only on what the bot can see (and its seed), never on how it got there."""
    sizes = ",".join(str(len(hand)) for hand in game.hands)
    return (f"{seat}|{' '.join(c.code for c in game.hands[seat])}|"
            f"{' '.join(c.code for c in game.discard)}|{sizes}|{len(game.stock)}|"
            f"{game.color}|{game.direction}|{game.turn}|{game.phase.value}|"
            f"{game.owed_list()}|{game.uno_seat}")


class _LauncherModel:
    """A press as a chance event: what the policy fires, from a tension drawn from how
    often the policy is at each (its stationary distribution)."""

    def __init__(self, table: PolicyTable) -> None:
        self.table = table
        runs: list[float] = []
        stay = 1.0
        for m in range(_TENSION_CAP):
            runs.append(stay)
            fire = table.fire[min(m, len(table.fire) - 1)]
            stay *= 1 - fire
            if stay <= 0:
                break
        self.tensions = list(range(len(runs)))
        self.weights = runs

    def tension(self, rng: random.Random) -> int:
        """A tension drawn from how often the policy is at each."""
        return rng.choices(self.tensions, self.weights)[0]

    def policy(self, seed: int, tension: int) -> BurstPolicy:
        """The policy in play from this tension, its chance drawn from ``seed``."""
        return BurstPolicy(self.table, seed=seed, tension=tension)


@cache
def _launcher(policy: str) -> _LauncherModel:
    return _LauncherModel(make_policy(policy, user_tables=user_policy_tables()).table)
