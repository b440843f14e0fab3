"""The public state-transition API: `new_game`, `legal_moves`, `check`, `apply`, `score`.

These functions are the same for every game. They check what is common (types,
game over, chance nodes, whose turn) and hand the rest to the state's game (a
registered [`Game`][cucumber_rules.Game], found through the rules).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

from ._text import name_problem
from .actions import Action, Deal, Decision, Play, drawn_for, seat_number
from .errors import IllegalMoveError, InvalidRulesError
from .game import GameBase, game_of
from .history import EMPTY
from .rules import Rules
from .scoring import Score
from .state import CHANCE, State, remember_legal
from .tricks import state_builder

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


def _not_a_state(value: object) -> TypeError:
    hint = (
        " (a PlayerView cannot be played on: use the State it was made from)"
        if hasattr(value, "hand")
        else ""
    )
    return TypeError(f"expected a State (from new_game or apply), not {type(value).__name__}{hint}")


def new_game(rules: Rules, players: int | Sequence[str] = 4, *, first: int = 0) -> State:
    """Start a match: the returned state waits for the first deal (`to_act == CHANCE`).

    Args:
        rules: The rules, e.g. `ruleset("agurk")`.
        players: The number of players (any integer), or their names (labels only).
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
    names = player_names(players, rules)
    first = seat_number(first, "first must be a seat number")
    n = len(names)
    if not 0 <= first < n:
        raise InvalidRulesError("first", f"first must be a seat 0..{n - 1}, not {first}")
    game = game_of(rules)
    match = game.new_match(rules, names, first)
    build = state_builder(game.state_type)
    return build(CHANCE, match, None, ((),) * n, (), None, None, EMPTY, None)  # nobody holds cards yet


def player_names(players: int | Sequence[str], rules: Rules | None = None) -> tuple[str, ...]:
    """Seat labels from a count (`"seat 0"`, ...) or a list of names; the count is checked first.

    A name must be one line of valid Unicode text: 1 to 64 characters, not all white space,
    with no lone surrogate, control character, line or paragraph separator or bidirectional
    formatting character (the rule is written once, in `cucumber_rules._text`; `loads`
    applies the same rule to the names in documents).

    Raises:
        InvalidRulesError: If `rules` is given and the count is outside its range, or a
            name breaks the rule above (`.option` is `"players"`).
        TypeError: For something that is neither a count nor a list of strings.

    Example:
        >>> player_names(3), player_names(["Ann", "Bo"])
        (('seat 0', 'seat 1', 'seat 2'), ('Ann', 'Bo'))
        >>> try:
        ...     player_names(["Ann", "Bo\\x1b]0;pwned\\x07"])
        ... except InvalidRulesError as err:
        ...     print(err.option, "-", err)
        players - players: player 1's name holds a control character (U+001B) at index 2
    """
    if isinstance(players, bool):
        raise TypeError("players must be a count or a list of names")
    if isinstance(players, str):
        raise TypeError("players must be a count or a list of names, not str")
    if hasattr(type(players), "__index__"):
        count = seat_number(players, "players must be a count or a list of names")
        _check_count(count, rules)
        return tuple(f"seat {i}" for i in range(count))
    if not isinstance(players, Iterable):
        raise TypeError(f"players must be a count or a list of names, not {type(players).__name__}")
    names = tuple(players)
    if not all(isinstance(name, str) for name in names):
        raise TypeError("player names must be strings")
    _check_count(len(names), rules)
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            raise InvalidRulesError("players", f"player {seat}'s name {problem}")
    return names


def _check_count(n: int, rules: Rules | None) -> None:
    if rules is not None and not rules.min_players <= n <= rules.max_players:
        raise InvalidRulesError(
            "players", f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}"
        )


def legal_moves(state: State) -> tuple[Action, ...]:
    """The actions the seat to act may take, sorted, without duplicates.

    Returns `()` at a chance node (use `sample_chance` or supply a `Deal`) and
    once the match is over. Identical cards (Five Cucumbers) are listed once.

    Raises:
        TypeError: If `state` is not a `State` (a `PlayerView` lists its seat's moves as `view.legal`).

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
        found = state._legal
    except AttributeError:
        raise _not_a_state(state) from None
    if found is None:
        to_act = state.to_act
        if to_act is None or to_act < 0:
            return ()
        found = game_of(state.match.rules).legal(state)
        remember_legal(state, found)  # a cache, not part of the value: apply checks moves against it
    return found


def check(state: State, action: Action) -> IllegalMoveError | None:
    """Return the `IllegalMoveError` that `apply` would raise, or None if legal (never raises it).

    Raises:
        TypeError: If `state` is not a `State` or `action` is not an action.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> cr.check(s, cr.Play(0, cr.card("AS"))).code
        'deal-expected'
    """
    if not isinstance(state, State):
        raise _not_a_state(state)
    game = game_of(state)
    kind = type(action)
    if kind is Play:
        return _check_play(state, game, action)  # type: ignore[arg-type]
    if kind is Deal:
        return _check_deal(state, game, action)  # type: ignore[arg-type]
    if isinstance(action, Decision):
        return _check_decision(state, game, action)
    raise TypeError(f"expected an action (Deal, Play or a game's decision), not {kind.__name__}")


def _check_play(state: State, game: GameBase[Any], play: Play) -> IllegalMoveError | None:
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
    return game.play_error(state, play)


def _check_deal(state: State, game: GameBase[Any], deal: Deal) -> IllegalMoveError | None:
    to_act = state.to_act
    if to_act is None:
        return _game_over(state, deal)
    if to_act != CHANCE:
        return IllegalMoveError("unexpected-deal", f"no deal is due: it is seat {to_act}'s turn", action=deal)
    return game.deal_error(state, deal)


def _check_decision(state: State, game: GameBase[Any], decision: Decision) -> IllegalMoveError | None:
    if state.to_act is None:
        return _game_over(state, decision)
    if type(decision) not in game.decisions:
        return IllegalMoveError(
            "no-decision",
            f"seat {decision.seat} has no decision to take: the {game.name} game has no "
            f"{type(decision).__name__} decisions",
            seat=decision.seat,
            action=decision,
        )
    return game.decision_error(state, decision)


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
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> cr.is_legal(s, cr.Play(0, "KS"))
        True
        >>> cr.is_legal(s, cr.Play(1, "AS"))  # seat 0 is to play, not seat 1
        False
        >>> cr.is_legal(s, cr.Play(0, "3H"))  # seat 0 does not hold 3H
        False
    """
    return check(state, action) is None


def apply(state: State, action: Action) -> State:
    """Return the state after `action`; the input state is never changed.

    Args:
        state: The current state.
        action: A `Deal` at a chance node, else the acting seat's `Play` or decision.

    Returns:
        The new state.

    Raises:
        IllegalMoveError: If the action is illegal now; `.code` says why and the
            message says what would be legal.
        TypeError: If `state` is not a `State` or `action` is not an action.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s0 = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> s1 = cr.apply(s0, cr.sample_chance(s0, random.Random(7)))
        >>> s2 = cr.apply(s1, cr.legal_moves(s1)[0])
        >>> s1.to_act, s2.to_act, len(s2.history)
        (0, 1, 2)
    """
    try:
        legal = state._legal
    except AttributeError:
        raise _not_a_state(state) from None
    if legal is not None:
        # Once `legal_moves` has listed the moves, a move among them is legal (moves are shared
        # objects, so `in` compares identities). This one line reads the registry's binding of the
        # rules class to its game itself: `game_of(state)`, inlined (a call there costs 1.5 % of a
        # random playout's instructions; `cucumber_rules._registry` owns the binding).
        if type(action) is Play and action in legal:
            return state.match.rules._game.play(state, action)  # type: ignore[no-any-return]
    elif type(action) is Play and state.to_act is not None and action.seat == state.to_act:
        # A play of the seat to act, checked by the game as it is applied.
        return game_of(state.match.rules).apply_play(state, action)
    if type(action) is Deal and (mark := action._drawn_for) is not None and mark() is state:
        # The deal sample_chance drew for this very state: the game's own dealer made it legal,
        # so it is not checked again.
        return game_of(state.match.rules).start_round(state, action)
    error = check(state, action)
    if error is not None:
        raise error
    game = game_of(state)
    if type(action) is Play:
        return game.apply_play(state, action)  # pragma: no cover
    if type(action) is Deal:
        return game.start_round(state, action)
    return game.decide(state, action)  # type: ignore[arg-type]


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
    if not isinstance(state, State):
        raise _not_a_state(state)
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
    deal = game_of(state.match.rules).sample_deal(state, rng)
    if type(deal) is Deal and deal._drawn_for is None:
        # apply(state, deal) need not check it again. The mark is set once, before anyone else
        # sees the deal (a game that hands out the same deal twice keeps the first mark), and it
        # holds the state weakly: a deal in a long match's history keeps no old state alive.
        drawn_for(deal, weakref.ref(state))
    return deal


def score(state: State) -> Score:
    """The scores now: totals, a row per finished round, marks, eliminations, winners, standings.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.score(cr.new_game(cr.ruleset("five-cucumbers"), players=2)).totals
        (0, 0)
    """
    if not isinstance(state, State):
        raise _not_a_state(state)
    return game_of(state).score(state)
