"""Match records: the canonical way to store a match, and replaying them.

A `Record` is everything needed to rebuild a match exactly: the rules, the
player names, the first seat and every action in order, chance actions (the
deals) included. Randomness never lives in a state, so replaying a record
reproduces every state of the match. Save records with
[`dumps`][cucumber_rules.dumps]; load them with [`loads`][cucumber_rules.loads].
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from .actions import Action, Deal, Decision, Play, seat_number
from .engine import apply_all, new_game, player_names
from .rules import Rules
from .state import State
from .values import Value

__all__ = ["Record", "record", "replay"]


def _to_players(value: Any) -> tuple[str, ...]:
    if isinstance(value, bytes):
        raise TypeError("players must be a count or a sequence of names, not bytes")
    return player_names(value)


def _to_actions(value: Any) -> tuple[Action, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"actions must be a sequence of actions, not {type(value).__name__}")
    actions = tuple(value)
    for action in actions:
        if type(action) not in (Deal, Play) and not isinstance(action, Decision):
            raise TypeError(f"expected an action (Deal, Play or a decision), not {type(action).__name__}")
    return actions


def _check_rules(_: Any, __: Any, value: Any) -> None:
    if not isinstance(value, Rules):
        raise TypeError(f"rules must be a Rules (see ruleset()), not {type(value).__name__}")


def _to_first(value: Any) -> int:
    return seat_number(value, "first must be a seat number")


@attrs.frozen
class Record(Value):
    """A whole match as data: rules, players, the first seat and every action in order.

    The actions include the chance actions (deals), so `replay` rebuilds every
    state exactly. Build one from a state with `record`.

    Example:
        >>> import cucumber_rules as cr
        >>> rec = cr.Record(cr.ruleset("gurka", hand_size=1), ["Ann", "Bo"], 0,
        ...                 [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
        >>> cr.replay(rec).match.totals
        (0, 13)
        >>> cr.Record(cr.ruleset("gurka"), 2, 0, []).players
        ('seat 0', 'seat 1')
    """

    rules: Rules = attrs.field(validator=_check_rules)
    """The rules of the match."""
    players: tuple[str, ...] = attrs.field(converter=_to_players)
    """The seat labels, seat 0 first (their number is the player count). A count gives
    `"seat 0"`, `"seat 1"`, ... as `new_game` does."""
    first: int = attrs.field(converter=_to_first)
    """The seat that leads the first trick of the match."""
    actions: tuple[Action, ...] = attrs.field(converter=_to_actions)
    """Every action since `new_game`, oldest first: deals, plays and decisions."""


def record(state: State) -> Record:
    """Return the record of a state: its rules, players, first seat and history.

    `replay(record(state)) == state` for every state reached with `apply`.

    Args:
        state: Any state of a match.

    Returns:
        The record.

    Raises:
        TypeError: If `state` is not a `State`.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> s = cr.apply(s, cr.sample_chance(s, random.Random(1)))
        >>> rec = cr.record(s)
        >>> len(rec.actions), cr.replay(rec) == s
        (1, True)
    """
    if not isinstance(state, State):
        raise TypeError(f"record() needs a State, not {type(state).__name__}")
    return Record(rules=state.rules, players=state.players, first=state.first, actions=state.actions)


def replay(rec: Record) -> State:
    """Replay a record from the start and return the final state.

    Every action is checked as `apply` checks it.

    Args:
        rec: The record.

    Returns:
        The state after the last action.

    Raises:
        IllegalMoveError: At the first illegal action; `.index` is its position in
            `rec.actions` and `.code` and the message say why.
        InvalidRulesError: If the players do not fit the rules or `first` is not a seat.
        TypeError: If `rec` is not a `Record`.

    Example:
        >>> import cucumber_rules as cr
        >>> rec = cr.Record(cr.ruleset("gurka", hand_size=1), ["Ann", "Bo"], 0,
        ...                 [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(1, "KS")])
        >>> try:
        ...     cr.replay(rec)
        ... except cr.IllegalMoveError as err:
        ...     print(err.index, err.code)
        1 not-your-turn
    """
    if not isinstance(rec, Record):
        raise TypeError(f"replay() needs a Record, not {type(rec).__name__}")
    return apply_all(new_game(rec.rules, rec.players, first=rec.first), rec.actions)
