"""The public state-transition API: `new_game`, `legal_moves`, `check`, `apply`, `score`.

These functions are the same for every game. They check what is common (types,
game over, chance nodes, whose turn) and hand the rest to the game's engine
module (`ladder` or `catastrophe`), chosen by `rules.game`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterable, Sequence
from typing import Protocol, cast

from .actions import Action, Deal, Play, Revive
from .errors import IllegalMoveError, InvalidRulesError
from .rules import Rules
from .scoring import Score
from .state import CHANCE, Match, State

__all__ = [
    "apply",
    "apply_all",
    "check",
    "is_legal",
    "legal_moves",
    "new_game",
    "sample_chance",
    "score",
]


class GameEngine(Protocol):
    """What a game's engine module provides (internal)."""

    def deal_error(self, state: State, deal: Deal) -> IllegalMoveError | None: ...
    def sample_deal(self, state: State, rng: random.Random) -> Deal: ...
    def start_round(self, state: State, deal: Deal) -> State: ...
    def legal(self, state: State) -> tuple[Action, ...]: ...
    def play_error(self, state: State, play: Play) -> IllegalMoveError | None: ...
    def apply_play(self, state: State, play: Play) -> State: ...
    def decision_error(self, state: State, action: Revive) -> IllegalMoveError | None: ...
    def decide(self, state: State, action: Revive) -> State: ...
    def score(self, state: State) -> Score: ...


_ENGINES: dict[str, GameEngine] = {}


def engine_for(state: State) -> GameEngine:
    """The engine module that plays `state`'s game: `rules.game` names it (internal)."""
    game = state.rules.game
    found = _ENGINES.get(game)
    if found is None:
        module: GameEngine = importlib.import_module(f"{__package__}.{game}")
        found = _ENGINES[game] = module
    return found


def new_game(rules: Rules, players: int | Sequence[str] = 4, *, first: int = 0) -> State:
    """Start a match: the returned state waits for the first deal (`to_act == CHANCE`).

    Args:
        rules: The rules, e.g. `ruleset("agurk")`.
        players: The number of players, or their names (labels only).
        first: The seat that leads the first trick of the match.

    Returns:
        The state before the first deal.

    Raises:
        InvalidRulesError: If the player count is outside the rules' range or
            `first` is not a seat (`.option` is `"players"` or `"first"`).
        TypeError: For arguments of the wrong type.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"], first=1)
        >>> s.players, s.first, s.to_act == cr.CHANCE
        (('Ann', 'Bo', 'Cy'), 1, True)
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (see ruleset()), not {type(rules).__name__}")
    if isinstance(players, bool):
        raise TypeError("players must be a count or a list of names")
    if isinstance(players, int):
        names = tuple(f"seat {i}" for i in range(players))
    elif isinstance(players, str) or not isinstance(players, Iterable):
        raise TypeError(f"players must be a count or a list of names, not {type(players).__name__}")
    else:
        names = tuple(players)
        if not all(isinstance(n, str) for n in names):
            raise TypeError("player names must be strings")
    n = len(names)
    if not rules.min_players <= n <= rules.max_players:
        raise InvalidRulesError(
            "players", f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}"
        )
    if type(first) is not int:
        raise TypeError(f"first must be a seat number, not {type(first).__name__}")
    if not 0 <= first < n:
        raise InvalidRulesError("first", f"first must be a seat 0..{n - 1}, not {first}")
    zeros = (0,) * n
    match = Match(
        rules=rules,
        players=names,
        first=first,
        totals=zeros,
        marks=zeros,
        out=zeros,
        revived=(False,) * n,
        dealer=(first - 1) % n,
    )
    return State(to_act=CHANCE, match=match, hands=((),) * n)


def legal_moves(state: State) -> tuple[Action, ...]:
    """The actions the seat to act may take, sorted, without duplicates.

    Returns `()` at a chance node (use `sample_chance` or supply a `Deal`) and
    once the match is over. Identical cards (Five Cucumbers) are listed once.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("agurk"), players=3), cr.Deal(hands=[
        ...     ["2C", "3C", "4C", "5C", "6C", "7C", "KC"],
        ...     ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
        ...     ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]]))
        >>> s = cr.apply(s, cr.Play(0, cr.card("5C")))
        >>> [str(m.card) for m in cr.legal_moves(s)]
        ['2D', '5D', '6D', '7D', '8D']
    """
    try:
        to_act = state.to_act
    except AttributeError:
        raise _not_a_state(state) from None
    if to_act is None or to_act < 0:
        return ()
    return (_ENGINES.get(state.match.rules.game) or engine_for(state)).legal(state)


def _not_a_state(value: object) -> TypeError:
    return TypeError(f"expected a State (from new_game or apply), not {type(value).__name__}")


def check(state: State, action: Action) -> IllegalMoveError | None:
    """Return the `IllegalMoveError` that `apply` would raise, or None if legal (never raises it).

    Raises:
        TypeError: If `action` is not an action.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> cr.check(s, cr.Play(0, cr.card("AS"))).code
        'deal-expected'
    """
    if not isinstance(state, State):
        raise _not_a_state(state)
    kind = type(action)
    if kind is Play:
        return _check_play(state, cast(Play, action))
    if kind is Deal:
        return _check_deal(state, cast(Deal, action))
    if kind is Revive:
        return _check_revive(state, cast(Revive, action))
    raise TypeError(f"expected an action (Deal, Play or Revive), not {kind.__name__}")


def _check_play(state: State, play: Play) -> IllegalMoveError | None:
    to_act = state.to_act
    if to_act is None:
        return _game_over(state, play)
    if to_act < 0:
        return IllegalMoveError(
            "deal-expected",
            f"seat {play.seat} cannot play {play.card}: a deal is due first "
            "(apply a Deal, e.g. from sample_chance)",
            seat=play.seat,
            action=play,
        )
    if play.seat != to_act:
        return IllegalMoveError(
            "not-your-turn",
            f"seat {play.seat} cannot play {play.card}: it is seat {to_act}'s turn",
            seat=play.seat,
            action=play,
        )
    if state.match.pending:
        return IllegalMoveError(
            "decision-expected",
            f"seat {to_act} cannot play now: they must first decide whether to buy back in "
            "(Revive(seat, True) or Revive(seat, False))",
            seat=to_act,
            action=play,
        )
    return engine_for(state).play_error(state, play)


def _check_deal(state: State, deal: Deal) -> IllegalMoveError | None:
    to_act = state.to_act
    if to_act is None:
        return _game_over(state, deal)
    if to_act != CHANCE:
        return IllegalMoveError("unexpected-deal", f"no deal is due: it is seat {to_act}'s turn", action=deal)
    return engine_for(state).deal_error(state, deal)


def _check_revive(state: State, decision: Revive) -> IllegalMoveError | None:
    to_act = state.to_act
    if to_act is None:
        return _game_over(state, decision)
    if not state.match.pending or to_act < 0:
        return IllegalMoveError(
            "no-decision",
            f"seat {decision.seat} has no decision to take now",
            seat=decision.seat,
            action=decision,
        )
    if decision.seat != to_act:
        return IllegalMoveError(
            "not-your-turn",
            f"seat {decision.seat} cannot decide now: seat {to_act} must decide whether to buy back in",
            seat=decision.seat,
            action=decision,
        )
    return engine_for(state).decision_error(state, decision)


def _game_over(state: State, action: Action) -> IllegalMoveError:
    winners = ", ".join(f"seat {s}" for s in state.match.winners)
    return IllegalMoveError(
        "game-over",
        f"the match is over (won by {winners}); no action is possible",
        seat=getattr(action, "seat", None),
        action=action,
    )


def is_legal(state: State, action: Action) -> bool:
    """True if `apply(state, action)` would succeed.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> cr.is_legal(s, cr.sample_chance(s, __import__("random").Random(1)))
        True
    """
    return check(state, action) is None


def apply(state: State, action: Action) -> State:
    """Return the state after `action`; the input state is never changed.

    Args:
        state: The current state.
        action: A `Deal` at a chance node, else the acting seat's `Play` or `Revive`.

    Returns:
        The new state.

    Raises:
        IllegalMoveError: If the action is illegal now; `.code` says why and the
            message says what would be legal.
        TypeError: If `action` is not an action.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s0 = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> s1 = cr.apply(s0, cr.sample_chance(s0, random.Random(7)))
        >>> s2 = cr.apply(s1, cr.legal_moves(s1)[0])
        >>> s1.to_act, s2.to_act, len(s2.history)
        (0, 1, 2)
    """
    if type(action) is Play:
        # The common case, checked inline: the seat to act plays a card.
        try:
            to_act = state.to_act
        except AttributeError:
            raise _not_a_state(state) from None
        m = state.match
        if to_act is not None and to_act >= 0 and action.seat == to_act and not m.pending:
            return (_ENGINES.get(m.rules.game) or engine_for(state)).apply_play(state, action)
    error = check(state, action)
    if error is not None:
        raise error
    engine = engine_for(state)
    kind = type(action)
    if kind is Play:
        return engine.apply_play(state, cast(Play, action))
    if kind is Deal:
        return engine.start_round(state, cast(Deal, action))
    return engine.decide(state, cast(Revive, action))


def apply_all(state: State, actions: Iterable[Action]) -> State:
    """Apply actions in order and return the final state.

    Raises:
        IllegalMoveError: At the first illegal action; `.index` is its position.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> cr.apply_all(s, []) is s
        True
    """
    for index, action in enumerate(actions):
        try:
            state = apply(state, action)
        except IllegalMoveError as error:
            raise error.at(index) from None
    return state


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw the chance action due now (a `Deal`) with the caller's random generator.

    The library never uses the global `random` module: pass your own
    `random.Random(seed)` for reproducible matches.

    Raises:
        IllegalMoveError: With code `game-over` or `unexpected-deal` if no chance action is due.
        TypeError: If `rng` is not a `random.Random`.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> deal = cr.sample_chance(s, random.Random(1))
        >>> [len(h) for h in deal.hands]
        [7, 7]
    """
    if not isinstance(state, State):
        raise _not_a_state(state)
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
    if state.to_act is None:
        raise IllegalMoveError("game-over", "the match is over; no deal is due")
    if state.to_act != CHANCE:
        raise IllegalMoveError("unexpected-deal", f"no deal is due: it is seat {state.to_act}'s turn")
    return engine_for(state).sample_deal(state, rng)


def score(state: State) -> Score:
    """The scores now: totals, a row per finished round, marks, eliminations, winners, standings.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.score(cr.new_game(cr.ruleset("five-cucumbers"), players=2)).totals
        (0, 0)
    """
    if not isinstance(state, State):
        raise _not_a_state(state)
    return engine_for(state).score(state)
