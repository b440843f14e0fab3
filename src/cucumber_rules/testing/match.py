"""One match of `check_game` (or one state of `check_state`): playing it and checking every step.

`MatchCheck` plays a match with one random generator and, at every state,
runs the invariant groups of the mixins it is built from: `StateChecks`
(turn, cards, tricks, score, the game's own), `MoveChecks` (legal and illegal
actions) and `ViewChecks` (deals, views, serialization, determinism).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any, Final, NoReturn

import attrs

from ..actions import Action, Deal, Play
from ..cards import DECKS, Card
from ..engine import apply, check, legal_moves, new_game, sample_chance
from ..game import game_of
from ..history import History
from ..rules import RULESETS, Rules
from ..state import CHANCE, State, remember_legal
from .base import actions_text
from .moves import MoveChecks
from .state_checks import StateChecks
from .views import ViewChecks

__all__ = ["MatchCheck", "describe_rules", "is_checkpoint"]


def is_checkpoint(index: int) -> bool:
    """True at the action indexes where the costlier checks run: powers of two (and 0).

    Example:
        >>> [i for i in range(10) if is_checkpoint(i)]
        [0, 1, 2, 4, 8]
    """
    return index & (index - 1) == 0


def describe_rules(rules: Rules) -> str:
    """The preset name and the options that differ from it, e.g. `agurk (threshold=30)`.

    Example:
        >>> import cucumber_rules as cr
        >>> describe_rules(cr.ruleset("agurk", threshold=30))
        'agurk (threshold=30)'
    """
    base = RULESETS.get(rules.name)
    if base is None or type(base) is not type(rules):
        return repr(rules.name)
    mine, theirs = rules.options(), base.options()
    changed = [f"{name}={value!r}" for name, value in mine.items() if value != theirs[name]]
    return f"{rules.name} ({', '.join(changed)})" if changed else rules.name


def state_fingerprint(state: State, *, full: bool = True, names: dict[type, Any] | None = None) -> object:
    """Everything in a state but its rules and history, to compare after each step.

    With `full`, the `repr` of the frozen values: it spells out every field, card and
    play, so any change made in place to the state (or to a value it shares) shows up in
    it. Without, the identity of every value reachable from the state's fields (each
    value field of an attrs value, each item of a list; caches left out; a tuple cannot
    change, what it holds is walked), so that a field set again in place, to anything,
    shows up; of the finished rounds'
    results only the number and the last one are walked (the earlier ones are earlier
    rounds' values, spelled out at the checkpoints), and cards and plays (interned
    values every state shares) only by identity. It costs the same late in a long match.
    `names` keeps each class's value fields between calls.
    """
    m = state.match
    if full:
        return repr((state.to_act, state.players, state.first, state.round, m))
    names = {} if names is None else names
    own = [getattr(m, name) for name in _value_fields(type(m), names) if name != "results"]
    roots = [state.to_act, state.table, state.held, state.trick, state.best, state.extra]
    roots += [*own, m.results.last]
    return (len(m.results), _identities(roots, names))


#: Values walked no further: immutable, or interned and spelled out at the checkpoints.
_LEAVES: Final = frozenset({int, str, float, bool, type(None), Card, Play})


def _value_fields(cls: type, names: dict[type, Any]) -> Any:
    """The names of the fields of an attrs class that make its value (not its caches), kept in `names`."""
    found = names.get(cls)
    if found is None:
        # type(None) marks a class that is not an attrs class
        found = tuple(a.name for a in attrs.fields(cls) if a.eq) if attrs.has(cls) else type(None)
        names[cls] = found
    return found


def _identities(roots: list[Any], names: dict[type, Any]) -> list[int]:
    """The ids of `roots` and of everything they reach, in a fixed order (see `state_fingerprint`)."""
    out: list[int] = []
    seen: set[int] = set()
    stack = roots[::-1]
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen:
            continue
        seen.add(key)
        out.append(key)
        kind = type(obj)
        if kind in _LEAVES:
            continue
        if kind is tuple:  # cannot change: only what it holds that can is walked
            stack.extend([x for x in obj if type(x) not in _LEAVES])
            continue
        if kind is list:
            items = list(obj)
        elif kind is History:
            out.append(len(obj))
            continue
        elif kind is dict:
            items = [*obj.keys(), *obj.values()]
        else:
            fields = _value_fields(kind, names)
            if fields is type(None):  # anything else a game keeps (an enum member, ...): spelled out
                out.append(hash(repr(obj)))
                continue
            items = [getattr(obj, name) for name in fields]
        out.extend(map(id, items))
        stack.extend(items)
    return out


class MatchCheck(StateChecks, MoveChecks, ViewChecks):
    """Plays one match (or adopts one state) and checks every invariant at every step.

    Example:
        >>> import cucumber_rules as cr
        >>> MatchCheck(cr.ruleset("gurka", threshold=21), 2, 1, None).run()  # (actions, rounds)
        (45, 3)
    """

    def __init__(
        self, rules: Rules, players: int, seed: int | None, max_actions: int | None, reproduce: str = ""
    ) -> None:
        self.rules = rules
        self.rules_copy = copy.deepcopy(rules)
        self.rules_repr = repr(rules)
        self.game = game_of(rules)
        self.n = players
        self.seed = seed if seed is not None else 0
        bound = "" if max_actions is None else f", max_actions={max_actions}"
        self.reproduce = reproduce or f"check_game(rules, matches=1, seed={seed}, players={players}{bound})"
        self.index = 0
        self.bound = max_actions if max_actions is not None else self.game.max_actions(rules, players)
        self.deck: Counter[Card] = Counter(DECKS[rules.deck])
        self.aux = random.Random(f"cucumber-rules-aux-{seed}")
        self.noise = random.Random(f"cucumber-rules-noise-{seed}")
        self.deck_indexes = sorted(c.index for c in DECKS[rules.deck])
        self.deal: Deal | None = None
        self.names: dict[type, Any] = {}  # for `state_fingerprint`
        self.dealt: list[list[int]] = []
        self.stock: list[int] = []
        self.never_dealt: list[int] = []

    # ----------------------------------------------------------------- reporting

    def where(self) -> str:
        seed = "" if self.reproduce.startswith("check_state") else f"seed: {self.seed}; "
        return (
            f"  rules: {describe_rules(self.rules)}; players: {self.n}; {seed}action index: {self.index}\n"
            f"  reproduce: {self.reproduce}"
        )

    def fail(self, invariant: str, detail: str) -> NoReturn:
        raise AssertionError(f"invariant {invariant!r} broke: {detail}\n{self.where()}")

    def call(self, invariant: str, what: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        """Call a library function; an unexpected exception fails `invariant`."""
        try:
            return func(*args, **kwargs)
        except AssertionError:
            raise
        except Exception as exc:
            raise AssertionError(
                f"invariant {invariant!r} broke: {what} raised {type(exc).__name__}: {exc}\n{self.where()}"
            ) from exc

    # ----------------------------------------------------------------- the match

    def run(self) -> tuple[int, int]:
        rng = random.Random(self.seed)
        first = rng.randrange(self.n)
        start = self.call("new-game", "new_game", new_game, self.rules, self.n, first=first)
        state: State = start
        actions: list[Action] = []
        checkpoints: dict[int, State] = {0: state}
        while True:
            random.seed(self.noise.getrandbits(64))  # noise: the library must not depend on it
            outcome = self.step(state, rng)
            if outcome is None:
                break
            action, state = outcome
            actions.append(action)
            self.index += 1
            if is_checkpoint(self.index):
                checkpoints[self.index] = state
        checkpoints[self.index] = state
        self.check_determinism(start, first, actions, checkpoints, state)
        return len(actions), state.match.rounds

    def step(
        self, state: State, rng: random.Random, *, full: bool | None = None
    ) -> tuple[Action, State] | None:
        """Check one state; return the action drawn with `rng` and the next state (None once over).

        `full` (default: at power-of-two action indexes and at the end) adds the checks that cost
        more: every seat's view, serialization round trips and the whole-state hash.
        """
        full = (is_checkpoint(self.index) or state.is_over) if full is None else full
        before_random = random.getstate()
        guard = self.guard(state, full=full)

        self.check_turn(state)
        self.check_cards(state)
        self.check_score(state)
        self.check_game_invariants(state)
        kept = state._legal  # the moves the engine worked out as it built this state, if it did
        remember_legal(state, None)  # (a cache, not part of the value): ask the game afresh
        legal = self.call("legal-moves", "legal_moves", legal_moves, state)
        results = self.check_legal(state, legal)
        if full:  # else the check at the end of the step covers these too (a change would stay)
            self.check_unchanged(state, guard, "applying a legal move")
        self.check_illegal(state, legal)
        if kept is not None and kept != legal:
            self.fail(
                "legal-moves",
                f"the moves kept as the state was built, {actions_text(kept)}, are not the game's "
                f"legal moves {actions_text(legal)}",
            )
        if full:
            self.check_unchanged(state, guard, "refusing an illegal action")
        self.check_views(state, legal, every_seat=full)
        if full:
            self.check_shareable(state)
            self.check_round_trips(state)

        outcome: tuple[Action, State] | None = None
        if state.to_act == CHANCE:
            deal = self.call("chance", "sample_chance", sample_chance, state, rng)
            if type(deal) is not Deal:
                self.fail("chance", f"sample_chance returned {deal!r}, not a Deal")
            error = check(state, deal)
            if error is not None:
                self.fail("chance", f"sample_chance drew an illegal deal ({error.code}: {error})")
            after = self.apply_legal(state, deal)
            self.check_dealt(state, deal, after)
            if full:
                self.check_shareable(deal)
            outcome = (deal, after)
        elif state.to_act is not None:
            action = rng.choice(legal)
            outcome = (action, results[action])

        self.check_unchanged(state, guard, "this step")
        if random.getstate() != before_random:
            self.fail("global-random", "the library used the global random module")
        if outcome is not None and self.index + 1 > self.bound:
            self.fail("termination", f"the match is not over after {self.bound} actions")
        return outcome

    def guard(self, state: State, *, full: bool) -> tuple[Any, ...]:
        """What must not change in `state`: its fingerprint, history, hash (all of it when `full`)."""
        history = (len(state.history), state.history.last)
        try:
            small_hash = hash((state.to_act, state.round, state.match))
            full_hash = hash(state) if full else None
        except TypeError as error:  # a list or a dict kept in the state: say which, as the invariant does
            self.check_shareable(state)
            self.fail("shareable", f"the state cannot be hashed ({error}): it keeps something mutable")
        fingerprint = state_fingerprint(state, full=full, names=self.names)
        return (fingerprint, history, small_hash, full_hash)

    def check_unchanged(self, state: State, guard: tuple[Any, ...], when: str) -> None:
        fingerprint, history, small_hash, full_hash = guard
        if state_fingerprint(state, full=full_hash is not None, names=self.names) != fingerprint:
            self.fail("immutability", f"the input state changed during {when}")
        if (len(state.history), state.history.last) != history:
            self.fail("immutability", f"the input state's history changed during {when}")
        if state.rules != self.rules_copy or repr(state.rules) != self.rules_repr:
            self.fail("immutability", f"the rules changed during {when}")
        if hash((state.to_act, state.round, state.match)) != small_hash or (
            full_hash is not None and hash(state) != full_hash
        ):
            self.fail("immutability", f"the state's hash changed during {when}")

    def adopt(self, state: State) -> None:
        """Take the deal in play from a state's history (for `check_state`)."""
        self.index = len(state.history)
        for action in reversed(state.history.items()):
            if type(action) is Deal:
                used = Counter(c for h in action.hands for c in h) + Counter(action.stock)
                self.remember(action, used)
                return

    def remember(self, deal: Deal, used: Counter[Card]) -> None:
        self.deal = deal
        self.dealt = [sorted(c.index for c in h) for h in deal.hands]
        self.stock = sorted(c.index for c in deal.stock)
        self.never_dealt = [c.index for c in (self.deck - used).elements()]

    def apply_legal(self, state: State, action: Action) -> State:
        after: State = self.call("legal-moves", f"apply(state, {action})", apply, state, action)
        if len(after.history) != len(state.history) + 1 or after.history.last != action:
            self.fail("history", f"apply({action}) did not append exactly that action to the history")
        if after.rules is not state.rules or after.players != state.players or after.first != state.first:
            self.fail("history", f"apply({action}) changed the rules, players or first seat")
        return after
