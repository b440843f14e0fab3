"""Conformance checks and Hypothesis strategies for testing rules of the Cucumber family.

Use this module to test your own variant (a preset with option overrides), your
own game (a registered `Game`) or code that embeds the library:

- [`check_game`][cucumber_rules.testing.check_game] plays random matches and
  asserts, at every step, the invariants every rule set must keep (see its
  docstring for the list). It needs nothing beyond the library.
- [`rules`][cucumber_rules.testing.rules] and
  [`states`][cucumber_rules.testing.states] are Hypothesis strategies for your
  own property tests. They need Hypothesis, which comes with the `test` extra
  (`pip install "cucumber-rules[test]"`); it is imported only when you call them,
  so importing `cucumber_rules` never needs it.

The checks are grouped by concern in submodules: `state_checks` (turn, cards,
tricks, score), `moves` (legal and illegal actions), `views` (deals, views,
serialization, determinism), played by `match.MatchCheck`; `strategies` holds
the strategies.

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules.testing import check_game
    >>> report = check_game(cr.ruleset("gurka", threshold=21), matches=2, seed=1)
    >>> report.matches, report.actions > 0
    (2, True)
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from typing import Final, Protocol, TypeVar

import attrs

from .. import _registry
from ..actions import seat_number
from ..engine import apply_all, new_game
from ..errors import CORE_CODES, ERROR_CODES
from ..game import registered_games
from ..rules import Rules
from ..state import State
from .hooks import Testing
from .match import MatchCheck
from .shareable import mutable_parts
from .strategies import rules, states

__all__ = [
    "RULE_CODES",
    "GameCheck",
    "Testing",
    "action_bound",
    "check_game",
    "check_state",
    "mutable_parts",
    "registered",
    "rules",
    "states",
]


class _Named(Protocol):
    """A game, as `registered` needs it: its name."""

    @property
    def name(self) -> str: ...


#: A game (of any `Game` class).
G = TypeVar("G", bound=_Named)


@contextlib.contextmanager
def registered(game: G) -> Iterator[G]:
    """Register a game for the length of a `with` block (a test's), then remove it again.

    A game already registered is left registered afterwards.

    Example:
        >>> import cucumber_rules as cr
        >>> with registered(cr.GAMES["ladder"]) as game:
        ...     game.name
        'ladder'
    """
    already = registered_games().get(game.name) is game
    _registry.register(game)
    try:
        yield game
    finally:
        if not already:
            _registry.unregister(game.name)


def rule_codes() -> frozenset[str]:
    """The error codes of the rules of play of every registered game (`ERROR_CODES` minus the core codes).

    Example:
        >>> sorted(rule_codes())
        ['cannot-lead-five', 'must-follow', 'must-follow-marker', 'must-play-lowest']
    """
    return frozenset(ERROR_CODES) - frozenset(CORE_CODES)


RULE_CODES: Final[frozenset[str]] = rule_codes()
"""The error codes of the built-in games' rules of play: what a card held but forbidden now is refused with.

Every code of `ERROR_CODES` except those about turns, hands, deals, decisions and
the end of the match (`rule_codes()` gives them for every game registered since).

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

    It is [`cucumber_rules.max_actions`][cucumber_rules.max_actions], the game's bound.

    Args:
        rules: The rules.
        players: The player count.

    Returns:
        The bound on the number of actions (deals included).

    Example:
        >>> import cucumber_rules as cr
        >>> action_bound(cr.ruleset("catastrophe"), 4)
        164
    """
    from ..outcomes import max_actions

    return max_actions(rules, players)


def _seats_of(players: int | Sequence[int] | None, rules: Rules) -> tuple[int, ...]:
    if players is None:
        return tuple(range(rules.min_players, rules.max_players + 1))
    if isinstance(players, bool):
        raise TypeError("players must be a player count, a sequence of counts, or None")
    if hasattr(type(players), "__index__"):  # any integer, numpy's too
        return (seat_number(players),)
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError(f"players must be a player count, a sequence of counts, or None, not {players!r}")
    counts = tuple(players)
    if not counts or not all(_is_count(n) for n in counts):
        raise TypeError("players must be a non-empty sequence of player counts (ints)")
    return tuple(seat_number(n) for n in counts)


def _is_count(value: object) -> bool:
    return not isinstance(value, bool) and hasattr(type(value), "__index__")


def check_game(
    rules: Rules,
    matches: int | None = None,
    seed: int = 0,
    players: int | Sequence[int] | None = None,
    *,
    max_actions: int | None = None,
) -> GameCheck:
    """Play random matches under `rules` and assert the invariants at every step.

    Match `k` (from 0) is played with player count `players[k % len(players)]`
    (every count the rules allow when `players` is None), from
    `random.Random(seed + k)`: the first seat, the deals and the moves are all
    drawn from it. By default it plays one match per player count: a few
    seconds for any built-in preset (see the docs' Performance page). For a
    deeper run, ask for more matches (`matches=200`) or other seeds; every
    match is checked the same way. For every state reached, it asserts:

    - **termination**: the match ends within `max_actions` actions
      (default: the game's `max_actions`, see [`action_bound`][cucumber_rules.testing.action_bound]);
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
    - **illegal moves**: every card held but not legal is refused with one of the
      game's own codes (`Game.error_codes`); a play by the wrong seat with
      `not-your-turn`; a card not held with `not-in-hand`; a corrupted deal with
      `bad-deal`; a deal, play or decision at the wrong time with
      `unexpected-deal`, `deal-expected`, `decision-expected`, `no-decision` or
      `game-over`.
      `check` returns the same error `apply` raises, and the state is left
      equal (and hash-equal) to before;
    - **immutability**: `apply` never changes its input state;
    - **shareable values**: nothing mutable is reachable from a state, its score,
      every seat's view (fresh and filled in) or a drawn deal, underscore
      attributes included (`testing.shareable.mutable_parts`), at power-of-two
      steps and at the end;
    - **determinism**: replaying the actions, or playing again from the same
      seed while the global `random` module is reseeded between steps, gives
      the same actions and equal states;
    - **no global randomness**: the library never touches the global `random`
      module (its state is compared around every step; `check_game` restores it
      when done);
    - **score**: `score` is consistent with the state (a row per finished
      round, winners exactly when over, standings a ranking of every seat);
    - **the game's own invariants** (`Game.check_state`; Catastrophe: the captured
      cards are the cards of the tricks each seat took);
    - **views and serialization**: every seat's
      `view` shows its own hand, the hand sizes and its legal moves; a seat's
      view after a deal does not depend on the other seats' hidden cards; and
      `loads(dumps(x)) == x` for states, views, scores and rules, and
      `replay(record(state)) == state`, at power-of-two steps and at the end.

    Args:
        rules: The rules to test, e.g. `ruleset("agurk", threshold=30)`.
        matches: How many matches to play; None (the default) plays one per player count.
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
    if matches is not None:
        matches = seat_number(matches, "matches must be an int or None")
        if matches < 0:
            raise ValueError(f"matches must be >= 0, not {matches}")
    seed = seat_number(seed, "seed must be an int")
    if max_actions is not None and (not _is_count(max_actions) or seat_number(max_actions) < 1):
        raise TypeError(f"max_actions must be a positive int or None, not {max_actions!r}")
    max_actions = None if max_actions is None else seat_number(max_actions)
    counts = _seats_of(players, rules)
    if matches is None:
        matches = len(counts)
    for n in counts:  # fail early, with the library's own error, on a bad count
        new_game(rules, n)
    saved = random.getstate()
    total_actions = total_rounds = 0
    played: list[int] = []
    try:
        for k in range(matches):
            n = counts[k % len(counts)]
            actions, rounds = MatchCheck(rules, n, seed + k, max_actions).run()
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
    checker = MatchCheck(
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
