"""Conformance checks and Hypothesis strategies for testing rules of the Cucumber family.

Use this module to test your own variant (a preset with option overrides) or
code that embeds the library:

- [`check_game`][cucumber_rules.testing.check_game] plays random matches and
  asserts, at every step, the invariants every rule set must keep (see its
  docstring for the list). It needs nothing beyond the library.
- [`rules`][cucumber_rules.testing.rules] and
  [`states`][cucumber_rules.testing.states] are Hypothesis strategies for your
  own property tests. They need Hypothesis, which comes with the `test` extra
  (`pip install "cucumber-rules[test]"`); it is imported only when you call them,
  so importing `cucumber_rules` never needs it.

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules.testing import check_game
    >>> report = check_game(cr.ruleset("gurka", threshold=21), matches=2, seed=1)
    >>> report.matches, report.actions > 0
    (2, True)
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NoReturn

import attrs

from .actions import Action, Deal, Play, Revive
from .cards import DECKS, Card
from .engine import apply, apply_all, check, is_legal, legal_moves, new_game, sample_chance, score
from .errors import ERROR_CODES, IllegalMoveError
from .records import record, replay
from .rules import RULESETS, Rules, preset_name, ruleset
from .serialization import dumps, loads
from .state import CHANCE, Round, State
from .views import view

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

__all__ = ["RULE_CODES", "GameCheck", "action_bound", "check_game", "check_state", "rules", "states"]

#: Codes of errors that are not about a rule of play (turn, hand, deal, decision, game over).
_STRUCTURAL_CODES: Final = frozenset(
    {
        "not-your-turn",
        "not-in-hand",
        "deal-expected",
        "unexpected-deal",
        "bad-deal",
        "decision-expected",
        "no-decision",
        "game-over",
    }
)

RULE_CODES: Final[frozenset[str]] = frozenset(ERROR_CODES) - _STRUCTURAL_CODES
"""The error codes of the rules of play: what a card held but forbidden now is refused with.

Every code of `ERROR_CODES` except those about turns, hands, deals, decisions and
the end of the match.

Example:
    >>> sorted(RULE_CODES)
    ['cannot-lead-five', 'must-follow', 'must-follow-marker', 'must-play-lowest']
"""


@attrs.frozen
class GameCheck:
    """What [`check_game`][cucumber_rules.testing.check_game] played, once every invariant held.

    Example:
        >>> import cucumber_rules as cr
        >>> check_game(cr.ruleset("five-cucumbers"), matches=1, seed=3, players=2).players
        (2,)
    """

    matches: int
    """Matches played to the end."""
    actions: int
    """Actions applied, over all matches (deals included)."""
    rounds: int
    """Rounds (Catastrophe: hands) finished, over all matches."""
    players: tuple[int, ...]
    """The player count of each match."""


def action_bound(rules: Rules, players: int) -> int:
    """The most actions `check_game` allows a match before failing the termination invariant.

    The bound is generous: it allows several times more rounds than random play
    needs (every round some seat pays towards `threshold` for each of its
    `lives`, or the match has a fixed number of rounds or hands).

    Args:
        rules: The rules.
        players: The player count.

    Returns:
        The bound on the number of actions (deals included).

    Example:
        >>> import cucumber_rules as cr
        >>> action_bound(cr.ruleset("catastrophe"), 4)
        184
    """
    per_round = players * (rules.hand_size + 1) + 2
    if rules.game == "catastrophe":
        rounds = rules.hands or 1
    elif rules.fixed_rounds is not None:
        rounds = rules.fixed_rounds
    else:
        threshold = rules.threshold or 1
        lives = rules.lives or 1
        rounds = 4 * players * lives * (threshold + 1) * (2 if rules.revival else 1) + 50
    return rounds * per_round


def _action_key(action: Action) -> tuple[int, int, int]:
    if type(action) is Play:
        return (1, action.seat, action.card.index)
    if type(action) is Revive:
        return (2, action.seat, int(action.accept))
    return (0, -1, 0)


def _describe(rules: Rules) -> str:
    """The preset name and the options that differ from it, e.g. `agurk (threshold=30)`."""
    base = RULESETS.get(rules.name)
    if base is None:
        return repr(rules.name)
    changed = [
        f"{f.name}={getattr(rules, f.name)!r}"
        for f in attrs.fields(Rules)
        if f.init and f.name != "name" and getattr(rules, f.name) != getattr(base, f.name)
    ]
    return f"{rules.name} ({', '.join(changed)})" if changed else rules.name


def _seats_of(players: int | Sequence[int] | None, rules: Rules) -> tuple[int, ...]:
    if players is None:
        return tuple(range(rules.min_players, rules.max_players + 1))
    if isinstance(players, bool):
        raise TypeError("players must be a player count, a sequence of counts, or None")
    if isinstance(players, int):
        return (players,)
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError(f"players must be a player count, a sequence of counts, or None, not {players!r}")
    counts = tuple(players)
    if not counts or not all(type(n) is int for n in counts):
        raise TypeError("players must be a non-empty sequence of player counts (ints)")
    return counts


def check_game(
    rules: Rules,
    matches: int = 20,
    seed: int = 0,
    players: int | Sequence[int] | None = None,
    *,
    max_actions: int | None = None,
) -> GameCheck:
    """Play random matches under `rules` and assert the invariants at every step.

    Match `k` (from 0) is played with player count `players[k % len(players)]`
    (every count the rules allow when `players` is None), from
    `random.Random(seed + k)`: the first seat, the deals and the moves are all
    drawn from it. For every state reached, it asserts:

    - **termination**: the match ends within `max_actions` actions
      (default [`action_bound`][cucumber_rules.testing.action_bound]);
    - **card conservation**: the last deal (hands and stock) uses only cards of
      the deck (the rest were never dealt); every seat's dealt cards are the
      cards it still holds plus the cards it played in this round's completed
      tricks and current trick; the stock plus the revealed cards is the deal's
      stock; captured cards are exactly the cards of the tricks each seat took;
      tricks hold one card per seat dealt in, in clockwise order from the leader;
    - **whose turn**: `to_act` is None exactly when the match has winners; in a
      trick it is the leader or the seat after the last card;
    - **legal moves**: `legal_moves` is `()` at a chance node and once over, and
      otherwise non-empty, sorted (by card), free of duplicates, all for the
      seat to act; every legal move passes `check`/`is_legal` and applies, and
      extends the history by itself;
    - **illegal moves**: every card held but not legal is refused with a rule
      code (`RULE_CODES`); a play by the wrong seat with `not-your-turn`; a card
      not held with `not-in-hand`; a corrupted deal with `bad-deal`; a deal,
      play or decision at the wrong time with `unexpected-deal`,
      `deal-expected`, `decision-expected`, `no-decision` or `game-over`.
      `check` returns the same error `apply` raises, and the state is left
      equal (and hash-equal) to before;
    - **immutability**: `apply` never changes its input state;
    - **determinism**: replaying the actions, or playing again from the same
      seed while the global `random` module is reseeded between steps, gives
      the same actions and equal states;
    - **no global randomness**: the library never touches the global `random`
      module (its state is compared around every step; `check_game` restores it
      when done);
    - **score**: `score` is consistent with the state (a row per finished
      round, winners exactly when over, standings a ranking of every seat);
    - **views and serialization**: every seat's
      `view` shows its own hand, the hand sizes and its legal moves; a seat's
      view after a deal does not depend on the other seats' hidden cards; and
      `loads(dumps(x)) == x` for states, views, scores and rules, and
      `replay(record(state)) == state`, at power-of-two steps and at the end.

    Args:
        rules: The rules to test, e.g. `ruleset("agurk", threshold=30)`.
        matches: How many matches to play.
        seed: The seed of the first match; match `k` uses `seed + k`.
        players: A player count, a sequence of counts to cycle through, or None
            for every count the rules allow.
        max_actions: The termination bound per match (None: `action_bound`).

    Returns:
        A summary of what was played.

    Raises:
        AssertionError: When an invariant breaks. The message names the
            invariant, the rules, the seed, the player count and the action
            index (the number of actions applied before the failing step), and
            gives the `check_game` call that reproduces it.
        InvalidRulesError: If a player count is outside the rules' range.
        TypeError: For arguments of the wrong type.

    Example:
        >>> import cucumber_rules as cr
        >>> check_game(cr.ruleset("agurk", hand_size=3), matches=3, seed=7, players=[3, 5]).players
        (3, 5, 3)
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (see ruleset()), not {type(rules).__name__}")
    for name, value in (("matches", matches), ("seed", seed)):
        if type(value) is not int:
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if matches < 0:
        raise ValueError(f"matches must be >= 0, not {matches}")
    if max_actions is not None and (type(max_actions) is not int or max_actions < 1):
        raise TypeError(f"max_actions must be a positive int or None, not {max_actions!r}")
    counts = _seats_of(players, rules)
    for n in counts:  # fail early, with the library's own error, on a bad count
        new_game(rules, n)
    saved = random.getstate()
    total_actions = total_rounds = 0
    played: list[int] = []
    try:
        for k in range(matches):
            n = counts[k % len(counts)]
            actions, rounds = _MatchCheck(rules, n, seed + k, max_actions).run()
            total_actions += actions
            total_rounds += rounds
            played.append(n)
    finally:
        random.setstate(saved)
    return GameCheck(matches=matches, actions=total_actions, rounds=total_rounds, players=tuple(played))


def check_state(state: State, *, seed: int = 0) -> None:
    """Assert the invariants of one state, from anywhere (your own tests, a fuzzer, a server).

    Runs the per-state checks of [`check_game`][cucumber_rules.testing.check_game]
    on `state`: card conservation against the last deal in its history, whose
    turn, the score, the legal moves (each applied), illegal moves of every kind
    (refused with the right code, the state left equal), immutability, no use
    of the global `random` module, every seat's view, serialization round
    trips, and that replaying its history from a new game gives an equal state.
    At a chance node it also applies a deal drawn with `random.Random(seed)`.

    Args:
        state: Any state reached from `new_game` by `apply`.
        seed: Seeds the random choices of the illegal actions tried.

    Raises:
        AssertionError: When an invariant breaks; the message names it.
        TypeError: If `state` is not a State.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
        >>> check_state(cr.apply(s, cr.legal_moves(s)[0]))
    """
    if not isinstance(state, State):
        raise TypeError(f"state must be a State, not {type(state).__name__}")
    checker = _MatchCheck(
        state.rules, len(state.players), seed, None, reproduce=f"check_state(state, seed={seed})"
    )
    checker.adopt(state)
    saved = random.getstate()
    try:
        checker.step(state, random.Random(seed), full=True)
        start = checker.call(
            "determinism", "new_game", new_game, state.rules, list(state.players), first=state.first
        )
        replayed = checker.call("determinism", "apply_all", apply_all, start, state.history)
        if replayed != state:
            checker.fail("determinism", "replaying the state's history from a new game gives another state")
    finally:
        random.setstate(saved)


def _is_checkpoint(index: int) -> bool:
    return index & (index - 1) == 0


def _fingerprint(state: State) -> str:
    """Everything in a state but its rules and history, as text (compared after each step).

    The `repr` of the frozen values spells out every field, card and play, so any
    change made in place to the state (or to a value it shares) shows up in it.
    """
    return repr((state.to_act, state.players, state.first, state.round, state.match))


class _MatchCheck:
    """One match of `check_game` (or one state of `check_state`): plays it and checks every state."""

    def __init__(
        self, rules: Rules, players: int, seed: int | None, max_actions: int | None, reproduce: str = ""
    ) -> None:
        self.rules = rules
        self.rules_copy = copy.deepcopy(rules)
        self.n = players
        self.seed = seed if seed is not None else 0
        self.reproduce = reproduce or f"check_game(rules, matches=1, seed={seed}, players={players})"
        self.index = 0
        self.bound = max_actions if max_actions is not None else action_bound(rules, players)
        self.deck: Counter[Card] = Counter(DECKS[rules.deck])
        self.aux = random.Random(f"cucumber-rules-aux-{seed}")
        self.noise = random.Random(f"cucumber-rules-noise-{seed}")
        self.deck_indexes = sorted(c.index for c in DECKS[rules.deck])
        self.deal: Deal | None = None
        self.dealt: list[list[int]] = []
        self.stock: list[int] = []
        self.never_dealt: list[int] = []

    # ----------------------------------------------------------------- reporting

    def where(self) -> str:
        seed = "" if self.reproduce.startswith("check_state") else f"seed: {self.seed}; "
        return (
            f"  rules: {_describe(self.rules)}; players: {self.n}; {seed}action index: {self.index}\n"
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
            if _is_checkpoint(self.index):
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
        full = (_is_checkpoint(self.index) or state.is_over) if full is None else full
        before_random = random.getstate()
        guard = self.guard(state, full=full)

        self.check_turn(state)
        self.check_cards(state)
        self.check_score(state)
        legal = self.call("legal-moves", "legal_moves", legal_moves, state)
        results = self.check_legal(state, legal)
        self.check_unchanged(state, guard, "applying a legal move")
        self.check_illegal(state, legal)
        self.check_unchanged(state, guard, "refusing an illegal action")
        self.check_views(state, legal, every_seat=full)
        if full:
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
        history = (len(state.history), state.history.last, state.history.rest)
        small_hash = hash((state.to_act, state.round, state.match))
        return (_fingerprint(state), history, small_hash, hash(state) if full else None)

    def check_unchanged(self, state: State, guard: tuple[Any, ...], when: str) -> None:
        fingerprint, history, small_hash, full_hash = guard
        if _fingerprint(state) != fingerprint:
            self.fail("immutability", f"the input state changed during {when}")
        if (len(state.history), state.history.last, state.history.rest) != history:
            self.fail("immutability", f"the input state's history changed during {when}")
        if state.rules != self.rules_copy:
            self.fail("immutability", f"the rules changed during {when}")
        if hash((state.to_act, state.round, state.match)) != small_hash or (
            full_hash is not None and hash(state) != full_hash
        ):
            self.fail("immutability", f"the state's hash changed during {when}")

    def adopt(self, state: State) -> None:
        """Take the deal in play from a state's history (for `check_state`)."""
        self.index = len(state.history)
        node = state.history
        while node.length:
            if type(node.last) is Deal:
                deal: Deal = node.last
                used = Counter(c for h in deal.hands for c in h) + Counter(deal.stock)
                self.remember(deal, used)
                return
            node = node.rest  # type: ignore[assignment]

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

    # ----------------------------------------------------------------- invariants of a state

    def check_turn(self, state: State) -> None:
        m = state.match
        to_act = state.to_act
        if (to_act is None) != bool(m.winners) or state.is_over != bool(m.winners):
            self.fail("turn", f"to_act is {to_act} but the winners are {m.winners}")
        if any(not 0 <= w < self.n for w in m.winners) or len(set(m.winners)) != len(m.winners):
            self.fail("turn", f"winners {m.winners} are not distinct seats")
        if to_act is None or to_act == CHANCE:
            return
        if not 0 <= to_act < self.n:
            self.fail("turn", f"to_act {to_act} is not a seat, CHANCE or None")
        if m.pending:
            if to_act != m.pending[0]:
                self.fail("turn", f"seat {m.pending[0]} must decide, but to_act is {to_act}")
            return
        r = state.round
        if r is None:
            self.fail("turn", f"seat {to_act} is to act before any deal")
        if to_act not in r.seats:
            self.fail("turn", f"seat {to_act} is to act but is not dealt in ({r.seats})")
        expected = r.leader if not r.trick else r.after[r.trick[-1].seat]
        if to_act != expected:
            self.fail("turn", f"seat {expected} should act (trick {_plays(r.trick)}), not seat {to_act}")

    def check_cards(self, state: State) -> None:
        """Card conservation: every card of the deck is accounted for, each seat's cards too."""
        r = state.round
        if r is None:
            if any(state.hands):
                self.fail("card-conservation", "cards are held before the first deal")
            return
        deal = self.deal
        if deal is None:
            self.fail("card-conservation", "a round is in play but no deal was applied")
        n = self.n
        if len(r.hands) != n:
            self.fail("card-conservation", f"{len(r.hands)} hands for {n} seats")
        played: list[list[Card]] = [[] for _ in range(n)]
        revealed: list[Card] = []
        for number, trick in enumerate(r.tricks, 1):
            self.check_trick_order(r, trick.plays, trick.leader, f"trick {number}", complete=True)
            if trick.taker not in r.seats:
                self.fail("tricks", f"trick {number} was taken by seat {trick.taker}, who is not dealt in")
            for p in trick.plays:
                played[p.seat].append(p.card)
            if trick.revealed is not None:
                revealed.append(trick.revealed)
        self.check_trick_order(r, r.trick, r.leader, "the current trick", complete=False)
        for p in r.trick:
            played[p.seat].append(p.card)
        if r.revealed is not None:
            revealed.append(r.revealed)
        everything = list(self.never_dealt)
        for s in range(n):
            hand = r.hands[s]
            indexes = [c.index for c in hand]
            if indexes != sorted(indexes):
                self.fail("card-conservation", f"seat {s}'s hand {_cards(hand)} is not sorted")
            if s not in r.seats and (hand or played[s]):
                self.fail("card-conservation", f"seat {s} is not dealt in but holds or played cards")
            indexes += [c.index for c in played[s]]
            everything += indexes
            if sorted(indexes) != self.dealt[s]:
                self.fail(
                    "card-conservation",
                    f"seat {s} was dealt {_cards(deal.hands[s])} but holds {_cards(hand)} "
                    f"and played {_cards(played[s])}",
                )
        stock = [c.index for c in r.stock] + [c.index for c in revealed]
        everything += stock
        if sorted(stock) != self.stock:
            self.fail(
                "card-conservation",
                f"the stock {_cards(r.stock)} plus the revealed cards {_cards(revealed)} "
                f"is not the dealt stock {_cards(deal.stock)}",
            )
        if sorted(everything) != self.deck_indexes:
            self.fail(
                "card-conservation",
                "hands + tricks + stock + revealed + never-dealt cards are not the deck",
            )
        if r.captured:
            won: list[list[int]] = [[] for _ in range(n)]
            for t in r.tricks:
                if t.revealed is not None:
                    won[t.taker].append(t.revealed.index)
                won[t.taker] += [p.card.index for p in t.plays]
            for s in range(n):
                if sorted(c.index for c in r.captured[s]) != sorted(won[s]):
                    self.fail(
                        "card-conservation",
                        f"seat {s} captured {_cards(r.captured[s])}, not the cards of the tricks it took",
                    )

    def check_trick_order(
        self, r: Round, plays: tuple[Play, ...], leader: int, what: str, *, complete: bool
    ) -> None:
        seats = [p.seat for p in plays]
        size = len(r.seats)
        if (complete and len(plays) != size) or len(plays) > size or len(set(seats)) != len(seats):
            self.fail("tricks", f"{what} {_plays(plays)} does not hold one card per seat of {r.seats}")
        if plays and plays[0].seat != leader:
            self.fail("tricks", f"{what} {_plays(plays)} was not started by its leader, seat {leader}")
        for a, b in itertools.pairwise(plays):
            if r.after[a.seat] != b.seat:
                self.fail("tricks", f"in {what} {_plays(plays)}, seat {b.seat} played out of turn")

    def check_score(self, state: State) -> None:
        sc = self.call("score", "score", score, state)
        m = state.match
        if len(sc.totals) != self.n or sc.winners != m.winners or sc.is_final != state.is_over:
            self.fail("score", f"score {sc} does not match the state (winners {m.winners})")
        if sorted(sc.standings) != list(range(self.n)):
            self.fail("score", f"standings {sc.standings} are not a ranking of every seat")
        if len(sc.rounds) != m.rounds or any(len(row) != self.n for row in sc.rounds):
            self.fail("score", f"{len(sc.rounds)} score rows after {m.rounds} rounds")
        if sc.winners and any(sc.standings.index(w) >= len(sc.winners) for w in sc.winners):
            self.fail("score", f"winners {sc.winners} do not head the standings {sc.standings}")

    # ----------------------------------------------------------------- moves

    def check_legal(self, state: State, legal: tuple[Action, ...]) -> dict[Action, State]:
        """Check the legal moves, apply each, and return the states they lead to."""
        to_act = state.to_act
        if type(legal) is not tuple:
            self.fail("legal-moves", f"legal_moves returned a {type(legal).__name__}, not a tuple")
        if to_act is None or to_act == CHANCE:
            if legal:
                where = "over" if to_act is None else "at a chance node"
                self.fail("legal-moves", f"legal_moves is {legal} {where}, not ()")
            return {}
        if not legal:
            self.fail("legal-moves", f"legal_moves is empty while seat {to_act} is to act")
        if len(set(legal)) != len(legal):
            self.fail("legal-moves", f"legal_moves {_actions(legal)} has duplicates")
        if list(legal) != sorted(legal, key=_action_key):
            self.fail("legal-moves", f"legal_moves {_actions(legal)} is not sorted")
        results: dict[Action, State] = {}
        for move in legal:
            if getattr(move, "seat", None) != to_act:
                self.fail("legal-moves", f"legal move {move} is not for seat {to_act}, who is to act")
            error = check(state, move)
            if error is not None or not is_legal(state, move):
                self.fail("legal-moves", f"legal move {move} fails check: {error}")
            results[move] = self.apply_legal(state, move)
        if state.match.pending:
            return results
        hand = state.hands[to_act]
        for c in dict.fromkeys(hand):
            move = Play(to_act, c)
            if move in results:
                continue
            self.expect_illegal(state, move, RULE_CODES, "a held card that is not a legal move")
        if any(type(m) is Play and m.card not in hand for m in legal):
            self.fail("legal-moves", f"legal_moves {_actions(legal)} plays a card not in hand")
        return results

    def expect_illegal(self, state: State, action: Action, codes: frozenset[str], what: str) -> None:
        error = self.call("illegal-moves", f"check(state, {action})", check, state, action)
        if error is None or error.code not in codes:
            got = "no error" if error is None else f"code {error.code!r} ({error})"
            self.fail("illegal-moves", f"{action} ({what}) should be refused with {_codes(codes)}, got {got}")
        if error.action != action or not str(error):
            self.fail("illegal-moves", f"the error for {action} does not carry the action and a message")
        if is_legal(state, action):
            self.fail("illegal-moves", f"is_legal says {action} is legal, but check refuses it")
        try:
            apply(state, action)
        except IllegalMoveError as raised:
            if raised.code != error.code:
                self.fail(
                    "illegal-moves", f"apply({action}) raised {raised.code!r} but check gave {error.code!r}"
                )
        except Exception as exc:
            self.fail("illegal-moves", f"apply({action}) raised {type(exc).__name__}: {exc}")
        else:
            self.fail("illegal-moves", f"apply({action}) accepted an action check refuses ({error.code})")

    def check_illegal(self, state: State, legal: tuple[Action, ...]) -> None:
        """Try actions that are wrong now, each with the code it must get."""
        aux = self.aux
        n = self.n
        to_act = state.to_act
        some_card = aux.choice(DECKS[self.rules.deck])
        empty = Deal(hands=[()] * n)
        if to_act is None:
            for action in (Play(aux.randrange(n), some_card), empty, Revive(aux.randrange(n), True)):
                self.expect_illegal(state, action, frozenset({"game-over"}), "an action after the end")
            return
        if to_act == CHANCE:
            self.expect_illegal(
                state, Play(aux.randrange(n), some_card), frozenset({"deal-expected"}), "a play"
            )
            self.expect_illegal(
                state, Revive(aux.randrange(n), True), frozenset({"no-decision"}), "a decision"
            )
            self.expect_illegal(state, self.bad_deal(state), frozenset({"bad-deal"}), "a corrupted deal")
            return
        self.expect_illegal(state, empty, frozenset({"unexpected-deal"}), "a deal during play")
        other = aux.choice([s for s in range(n) if s != to_act])
        other_hand = state.hands[other]
        wrong_card = aux.choice(other_hand) if other_hand else some_card
        if state.match.pending:
            self.expect_illegal(state, Play(to_act, some_card), frozenset({"decision-expected"}), "a play")
            self.expect_illegal(state, Revive(other, True), frozenset({"not-your-turn"}), "the wrong seat")
            return
        self.expect_illegal(state, Play(other, wrong_card), frozenset({"not-your-turn"}), "the wrong seat")
        self.expect_illegal(state, Revive(to_act, True), frozenset({"no-decision"}), "a decision")
        hand = set(state.hands[to_act])
        missing = [c for c in dict.fromkeys(DECKS[self.rules.deck]) if c not in hand]
        if missing:
            self.expect_illegal(
                state, Play(to_act, aux.choice(missing)), frozenset({"not-in-hand"}), "a card not held"
            )

    def bad_deal(self, state: State) -> Deal:
        """A deal drawn at random, then corrupted: a card moved to another seat, or a card doubled."""
        deal = self.call("chance", "sample_chance", sample_chance, state, self.aux)
        hands = [list(h) for h in deal.hands]
        givers = [s for s, h in enumerate(hands) if h]
        giver = self.aux.choice(givers)
        takers = [s for s in range(self.n) if s != giver]
        other = self.aux.choice(takers)
        copy_of = hands[other][0] if hands[other] else None
        if copy_of is None or self.deck[copy_of] > 1 or self.aux.random() < 0.5:
            hands[other].append(hands[giver].pop(0))  # a card moved to another seat
        else:
            hands[giver][0] = copy_of  # a card replaced by a copy of another seat's card
        return Deal(hands=hands, stock=deal.stock, leader=deal.leader)

    # ----------------------------------------------------------------- deals, views, serialization

    def check_dealt(self, before: State, deal: Deal, after: State) -> None:
        used = Counter(c for h in deal.hands for c in h) + Counter(deal.stock)
        if used - self.deck:
            self.fail(
                "card-conservation",
                f"the deal uses cards beyond the deck: {_cards((used - self.deck).elements())}",
            )
        r = after.round
        if r is None or [sorted(h) for h in deal.hands] != [list(h) for h in r.hands]:
            self.fail("card-conservation", "the hands after the deal are not the dealt hands")
        self.remember(deal, used)
        if after.to_act is not None and after.to_act >= 0:
            self.check_deal_secrecy(before, deal, after, after.to_act)

    def check_deal_secrecy(self, before: State, deal: Deal, after: State, seat: int) -> None:
        """Seat `seat`'s view must not depend on how the other seats' hidden cards were dealt."""
        others = [s for s in range(self.n) if s != seat and deal.hands[s]]
        pool = [c for s in others for c in deal.hands[s]]
        never = self.deck - Counter(c for h in deal.hands for c in h) - Counter(deal.stock)
        for candidates in (pool + list(never.elements()), pool):
            shuffled = list(candidates)
            self.aux.shuffle(shuffled)
            hands = [list(h) for h in deal.hands]
            for s in others:
                size = len(hands[s])
                hands[s], shuffled = shuffled[:size], shuffled[size:]
            alternative = Deal(hands=hands, stock=deal.stock, leader=deal.leader)
            if is_legal(before, alternative):
                break
        else:
            return
        other_state = apply(before, alternative)
        mine = self.call("views", f"view(state, {seat})", view, after, seat)
        theirs = self.call("views", f"view(state, {seat})", view, other_state, seat)
        if mine != theirs:
            self.fail("views", f"seat {seat}'s view after a deal depends on the other seats' hidden cards")
        if view(after, None) != view(other_state, None):
            self.fail("views", "the spectator's view after a deal depends on the hidden cards")

    def check_views(self, state: State, legal: tuple[Action, ...], *, every_seat: bool) -> None:
        """Views show the seat's own hand, the public facts and its legal moves.

        Every step checks the seat to act; checkpoints check every seat and the spectator.
        """
        to_act = state.to_act
        seats: list[int | None] = [None, *range(self.n)] if every_seat else []
        if not every_seat and to_act is not None and to_act >= 0:
            seats.append(to_act)
        r = state.round
        public = (
            ("hand_sizes", tuple(len(h) for h in state.hands)),
            ("to_act", to_act),
            ("trick", state.trick),
            ("tricks", () if r is None else r.tricks),
            ("marker", state.marker),
            ("revealed", None if r is None else r.revealed),
            ("totals", state.match.totals),
            ("winners", state.match.winners),
        )
        for seat in seats:
            v = self.call("views", f"view(state, {seat})", view, state, seat)
            expected: tuple[tuple[str, Any], ...] = (
                ("seat", seat),
                ("hand", () if seat is None else state.hands[seat]),
                ("legal", legal if seat is not None and seat == to_act else ()),
                *public,
            )
            wrong = [name for name, want in expected if getattr(v, name) != want]
            if wrong:
                self.fail("views", f"view(state, {seat}) has wrong {', '.join(wrong)}")
            if every_seat and v != view(state, seat):
                self.fail("views", f"view(state, {seat}) is not deterministic")

    def check_round_trips(self, state: State) -> None:
        values: list[tuple[str, Any]] = [("rules", self.rules), ("state", state), ("score", score(state))]
        values += [(f"view {seat}", view(state, seat)) for seat in (None, *range(self.n))]
        for what, value in values:
            text = self.call("serialization", f"dumps({what})", dumps, value)
            back = self.call("serialization", f"loads(dumps({what}))", loads, text)
            if back != value:
                self.fail("serialization", f"loads(dumps({what})) is not equal to the {what}")
            if dumps(back) != text:
                self.fail("serialization", f"dumps is not stable for the {what}")
        rec = self.call("serialization", "record(state)", record, state)
        again = self.call("serialization", "replay(record(state))", replay, rec)
        if again != state:
            self.fail("serialization", "replay(record(state)) is not equal to the state")
        back_rec = self.call("serialization", "loads(dumps(record))", loads, dumps(rec))
        if back_rec != rec:
            self.fail("serialization", "loads(dumps(record)) is not equal to the record")

    def check_determinism(
        self,
        start: State,
        first: int,
        actions: list[Action],
        checkpoints: dict[int, State],
        final: State,
    ) -> None:
        """Replay the actions, and replay the sampling with the global `random` reseeded at each step."""
        end = self.index
        self.index = 0
        again = new_game(self.rules, self.n, first=first)
        if again != start:
            self.fail("determinism", "new_game gave different states for the same arguments")
        replayed = self.call("determinism", "apply_all", apply_all, again, actions)
        if replayed != final:
            self.fail("determinism", "apply_all of the same actions gave a different final state")
        rng = random.Random(self.seed)
        if rng.randrange(self.n) != first:
            self.fail("determinism", "the first seat was drawn differently")
        noise = random.Random(f"cucumber-rules-noise-2-{self.seed}")
        state = again
        for i, expected in enumerate(actions):
            self.index = i
            random.seed(noise.getrandbits(64))
            action = sample_chance(state, rng) if state.to_act == CHANCE else rng.choice(legal_moves(state))
            if action != expected:
                self.fail("determinism", f"the same seed drew {action}, not {expected}")
            state = apply(state, action)
            if i + 1 in checkpoints and state != checkpoints[i + 1]:
                self.fail("determinism", "the same actions gave a different state")
        self.index = end


# --------------------------------------------------------------------------- formatting


def _cards(cards: Any) -> str:
    listed = [str(c) for c in cards]
    return "[" + " ".join(listed) + "]"


def _plays(plays: tuple[Play, ...]) -> str:
    return "[" + ", ".join(f"{p.seat}:{p.card}" for p in plays) + "]"


def _actions(actions: tuple[Action, ...]) -> str:
    return "[" + ", ".join(str(a) for a in actions) + "]"


def _codes(codes: frozenset[str]) -> str:
    return " or ".join(repr(c) for c in sorted(codes))


# --------------------------------------------------------------------------- Hypothesis strategies


_NEEDS_HYPOTHESIS = (
    'the strategies of cucumber_rules.testing need Hypothesis: pip install "cucumber-rules[test]"'
)


def rules(presets: Sequence[str] | None = None) -> SearchStrategy[Rules]:
    """A Hypothesis strategy of valid rules: a preset with random valid option overrides.

    Ladder presets get random `deck`, `hand_size`, `follow`, `ace_lead`,
    `penalty`, `doubling`, `tie_bonus`, `threshold`, `lives`, `next_leader`,
    `reverse`, `revival` and `fixed_rounds` (thresholds kept small so matches
    stay short); Catastrophe gets random `surprise`, `cant_beat_em`, `hands`,
    `hand_size` and `cucumbers` tables (at most six 5-cucumber cards). Every
    drawn combination is valid: `InvalidRulesError` is never raised. Needs
    Hypothesis (the `test` extra).

    Args:
        presets: Preset names or aliases to draw from (default: all of `RULESETS`).

    Returns:
        A strategy of `Rules`.

    Raises:
        InvalidRulesError: If a name in `presets` is not a preset.

    Example:
        >>> from hypothesis import given, settings
        >>> @settings(max_examples=5, database=None)
        ... @given(rules(["agurk", "gurka"]))
        ... def test_matches_end(r):
        ...     check_game(r, matches=1)
        >>> test_matches_end()
    """
    try:
        from hypothesis import strategies as st
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(_NEEDS_HYPOTHESIS) from exc
    names = sorted(RULESETS) if presets is None else sorted({preset_name(p) for p in presets})
    if not names:
        raise ValueError("presets must name at least one preset")

    @st.composite
    def build(draw: DrawFn) -> Rules:
        name = draw(st.sampled_from(names))
        base = RULESETS[name]
        options = _ladder_options(draw, base) if base.game == "ladder" else _catastrophe_options(draw, base)
        return ruleset(name, **options)

    return build()


_rules_strategy = rules


def _ladder_options(draw: DrawFn, base: Rules) -> dict[str, Any]:
    from hypothesis import strategies as st

    def maybe(name: str, values: SearchStrategy[Any]) -> Any:
        return draw(values) if draw(st.booleans()) else getattr(base, name)

    deck = maybe("deck", st.sampled_from(["standard-52", "five-cucumbers-60"]))
    five = deck == "five-cucumbers-60"
    penalty = maybe("penalty", st.sampled_from(["card-value", "cucumbers"] if five else ["card-value"]))
    if not five:
        penalty = "card-value"
    doubling = maybe("doubling", st.sampled_from(["none", "per-one", "once"] if five else ["none"]))
    if not five:
        doubling = "none"
    most = len(DECKS[deck]) // base.max_players
    hand_size = maybe("hand_size", st.integers(1, most))
    hand_size = min(hand_size, most)
    top = 45 if penalty == "card-value" else 8
    threshold = maybe("threshold", st.integers(1, top))
    threshold = min(threshold, top)
    fixed_rounds = maybe("fixed_rounds", st.none() | st.integers(1, 4))
    revival = maybe("revival", st.booleans())
    if fixed_rounds is not None or base.max_players < 3:
        revival = False
    return {
        "deck": deck,
        "penalty": penalty,
        "doubling": doubling,
        "hand_size": hand_size,
        "threshold": threshold,
        "fixed_rounds": fixed_rounds,
        "revival": revival,
        "follow": maybe("follow", st.sampled_from(["optional-lowest", "forced-lowest"])),
        "ace_lead": maybe("ace_lead", st.booleans()),
        "tie_bonus": maybe("tie_bonus", st.booleans()),
        "lives": maybe("lives", st.integers(1, 3)),
        "next_leader": maybe("next_leader", st.sampled_from(["rotate", "penalized"])),
        "reverse": maybe("reverse", st.booleans()),
    }


def _catastrophe_options(draw: DrawFn, base: Rules) -> dict[str, Any]:
    from hypothesis import strategies as st

    def maybe(name: str, values: SearchStrategy[Any]) -> Any:
        return draw(values) if draw(st.booleans()) else getattr(base, name)

    cucumbers = base.cucumbers
    if draw(st.booleans()):
        fives = draw(st.sets(st.integers(0, 59), max_size=6))
        counts = draw(st.lists(st.integers(0, 4), min_size=60, max_size=60))
        cucumbers = tuple(5 if i in fives else counts[i] for i in range(60))
    return {
        "surprise": maybe("surprise", st.booleans()),
        "cant_beat_em": maybe("cant_beat_em", st.booleans()),
        "hands": maybe("hands", st.integers(1, 4)),
        "hand_size": maybe("hand_size", st.integers(2, 10)),
        "cucumbers": cucumbers,
    }


def states(
    rules: Rules | SearchStrategy[Rules] | None = None,
    *,
    players: int | None = None,
    max_actions: int = 400,
) -> SearchStrategy[State]:
    """A Hypothesis strategy of states reached by random play from a new game.

    Draws the rules (from [`rules`][cucumber_rules.testing.rules] unless
    given), a player count (unless given), the first seat, a seed and a number
    of actions up to `max_actions`, then plays that many random actions (deals
    from `sample_chance`, moves from `legal_moves`) with `random.Random(seed)`,
    stopping early at the end of the match. Needs Hypothesis (the `test` extra).

    Args:
        rules: Fixed rules, a strategy of rules, or None for `rules()`.
        players: A fixed player count, or None to draw one the rules allow.
        max_actions: The most actions to play from the new game.

    Returns:
        A strategy of `State`.

    Example:
        >>> from hypothesis import given, settings
        >>> import cucumber_rules as cr
        >>> @settings(max_examples=10, database=None)
        ... @given(states(cr.ruleset("agurk"), players=3))
        ... def test_hands_shrink(state):
        ...     assert all(len(h) <= 7 for h in state.hands)
        >>> test_hands_shrink()
    """
    try:
        from hypothesis import strategies as st
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(_NEEDS_HYPOTHESIS) from exc
    if rules is None:
        source: SearchStrategy[Rules] = _rules_strategy()
    elif isinstance(rules, Rules):
        source = st.just(rules)
    else:
        source = rules
    if type(max_actions) is not int or max_actions < 0:
        raise ValueError(f"max_actions must be an int >= 0, not {max_actions!r}")

    @st.composite
    def build(draw: DrawFn) -> State:
        r = draw(source)
        n = players if players is not None else draw(st.integers(r.min_players, r.max_players))
        first = draw(st.integers(0, n - 1))
        seed = draw(st.integers(0, 2**32 - 1))
        steps = draw(st.integers(0, max_actions))
        return _random_play(r, n, first, seed, steps)

    return build()


def _random_play(rules: Rules, players: int, first: int, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = new_game(rules, players, first=first)
    for _ in range(steps):
        if state.is_over:
            break
        action = sample_chance(state, rng) if state.to_act == CHANCE else rng.choice(legal_moves(state))
        state = apply(state, action)
    return state
