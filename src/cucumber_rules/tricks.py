"""The trick toolkit for game authors: the steps of a round, as keyword-only builders of states.

A game's engine hooks return new states. These four functions build them, so a
game says only what its rules decide (who leads, who plays next, who takes the
trick, what the round scored) and never lays out a `State` by hand:

- `round_started(state, deal, leader=...)`: the deal's hands are held, `leader` acts;
- `next_turn(state, play, to_act=..., best=...)`: a card that leaves the trick open;
- `take_trick(state, play, taker=...)`: the trick's last card; `taker` takes it and leads
  next (the one end-of-trick step every game shares: the trick joins the table's
  completed tricks, its cards leave the hands and join the history);
- `end_round(state, match=...)`: the round is scored; a deal is due next, or the match is over.

A card played mid-trick stays in its seat's `State.held` until the trick ends
(`State.hand` leaves it out): the steps keep that layout, so a game never needs
to. Each returns a state of the same class as the one it is given (the game's
`state_type`). `round_over(state)` says when a trick taken was the round's last.

Example:
    >>> import cucumber_rules as cr
    >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
    >>> s = round_started(s, cr.Deal(hands=[["2C"], ["9S"]]), leader=0)
    >>> s = next_turn(s, cr.Play(0, "2C"), to_act=1, best=cr.Play(0, "2C"))
    >>> s = take_trick(s, cr.Play(1, "9S"), taker=1)
    >>> s.to_act, round_over(s), [str(p.card) for p in s.table.tricks[0].plays]
    (1, True, ['2C', '9S'])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

import attrs

from .actions import Action, Deal, Play
from .cards import not_in_hand
from .dealing import after_table
from .errors import IllegalMoveError
from .state import CHANCE, Match, State, Table, Trick, dealt_held, without_trick
from .values import builder

__all__ = [
    "end_round",
    "next_turn",
    "not_held",
    "round_over",
    "round_started",
    "state_builder",
    "take_trick",
    "trick_taken",
]

S = TypeVar("S", bound=State)

#: `state_builder(cls)` by class, made once (a class's builder never changes).
_BUILDERS: Final[dict[type[State], Callable[..., Any]]] = {}
_new_trick: Final = builder(Trick)


def state_builder(cls: type[S]) -> Callable[..., S]:
    """The fast positional builder of a `State` class (`values.builder`), with the legal moves kept.

    `build(to_act, match, table, held, trick, best, extra, past, legal)` makes a state of `cls`
    without validation: the steps below use it; a game's engine may too, for values it built.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> build = state_builder(type(s))  # (the ladder's own class: `LadderState`)
        >>> build(s.to_act, s.match, None, s.held, (), None, None, s.past, None) == s
        True
    """
    found = _BUILDERS.get(cls)
    if found is None:
        if attrs.fields(cls) != attrs.fields(State):
            raise TypeError(
                f"{cls.__name__} adds fields to State: a game's state class may add readings only"
            )
        found = _BUILDERS[cls] = builder(cls, taking=("_legal",))
    return found


def round_started(
    state: S,
    deal: Deal,
    *,
    leader: int,
    table: Table | None = None,
    match: Match | None = None,
    legal: tuple[Action, ...] | None = None,
) -> S:
    """The state of a round just dealt: the deal's hands are held, `leader` acts, the deal joins the history.

    Args:
        state: The state the deal was applied to.
        deal: The (checked) deal.
        leader: The seat that leads the first trick.
        table: The round's table; default a `Table` of the seats dealt a card, clockwise, led by
            `leader`, holding the deal's stock (a game with a table class of its own passes one).
        match: The match, if the deal changes it (a new dealer); default the state's.
        legal: The leader's legal moves, if the engine has worked them out (else found when asked).

    Returns:
        The new state, of the same class as `state`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = round_started(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...                   cr.Deal(hands=[["2C"], ["9S"]]), leader=1)
        >>> s.to_act, s.table.seats, s.table.after, [str(c) for c in s.hand(1)]
        (1, (0, 1), (1, 0), ['9S'])
    """
    if table is None:
        n = len(state.match.players)
        seats = tuple(s for s, hand in enumerate(deal.hands) if hand)
        table = Table(seats=seats, after=after_table(seats, n), leader=leader, stock=deal.stock)
    past = state.past.append(deal)
    m = state.match if match is None else match
    return state_builder(type(state))(leader, m, table, dealt_held(deal), (), None, None, past, legal)


def next_turn(
    state: S,
    play: Play,
    *,
    to_act: int,
    best: Play,
    extra: Any = None,
    legal: tuple[Action, ...] | None = None,
) -> S:
    """The state after a card that leaves the trick open: `to_act` plays next.

    Args:
        state: The state before the card.
        play: The (checked) card played.
        to_act: The seat that plays next.
        best: The play taking the trick so far.
        extra: The game's own per-trick value (`State.extra`; Catastrophe: the Trick Marker).
        legal: The next seat's legal moves, if worked out.

    Returns:
        The new state, of the same class as `state`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["2C"], ["9S"]]))
        >>> t = next_turn(s, cr.Play(0, "2C"), to_act=1, best=cr.Play(0, "2C"))
        >>> t.to_act, t.trick, t.hand(0)
        (1, (Play(seat=0, card=card('2C')),), ())
    """
    trick = state.trick + (play,)  # noqa: RUF005 (unpacking builds a list: slower)
    build = state_builder(type(state))
    return build(to_act, state.match, state.table, state.held, trick, best, extra, state.past, legal)


def take_trick(
    state: S,
    play: Play,
    *,
    taker: int,
    trick: Trick | None = None,
    table: Table | None = None,
    legal: tuple[Action, ...] | None = None,
) -> S:
    """The end-of-trick step every game shares: after the trick's last card, `taker` takes it.

    The trick's cards leave their seats' hands and join the history; the completed trick
    joins the table's tricks, and `taker` leads the next one (it is `to_act`). When the
    trick was the round's last (`round_over`), the game scores the round next (`end_round`).

    Args:
        state: The state before the trick's last card.
        play: The trick's last card.
        taker: The seat that takes the trick.
        trick: The completed trick, for a game whose `Trick` class says more (Catastrophe: the
            marker); default `Trick(leader, plays, taker)`.
        table: The table after the trick, for a game whose table changes more (Catastrophe: the
            captured cards); default the state's, with the trick added and `taker` leading.
        legal: The taker's legal moves, if worked out.

    Returns:
        The new state, of the same class as `state`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "3C"], ["9S", "8S"]]))
        >>> s = cr.apply(s, cr.Play(0, "2C"))
        >>> t = take_trick(s, cr.Play(1, "9S"), taker=1)
        >>> t.to_act, t.table.leader, len(t.table.tricks), [str(c) for c in t.hand(1)], round_over(t)
        (1, 1, 1, ['8S'], False)
    """
    plays = state.trick + (play,)  # noqa: RUF005
    if table is None:
        t = state.table
        assert t is not None
        done = _new_trick(t.leader, plays, taker) if trick is None else trick
        table = attrs.evolve(t, leader=taker, tricks=t.tricks + (done,))  # noqa: RUF005
    return trick_taken(state, plays, taker, table, without_trick(state.held, plays), legal)


def trick_taken(
    state: S,
    plays: tuple[Play, ...],
    taker: int,
    table: Table,
    held: tuple[tuple[Play, ...], ...],
    legal: tuple[Action, ...] | None,
) -> S:
    """`take_trick` once the table and the hands after it are made (`without_trick`), positionally.

    The built-in engines' end of a trick: keyword arguments with defaults cost a measurable
    share of a trick's last card, and an engine that knows the taker's moves passes them.
    """
    build: Callable[..., S] = _BUILDERS.get(type(state)) or state_builder(type(state))
    return build(taker, state.match, table, held, (), None, None, state.past.extend(plays), legal)


def not_held(state: State, play: Play) -> IllegalMoveError | None:
    """The `not-in-hand` error for a play of the seat to act of a card it does not hold, else None.

    A fact of every game, which a game's `play_error` asks first: the error says what the seat
    holds, and calls a card that is not in the rules' deck so.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["2C"], ["9S"]]))
        >>> not_held(s, cr.Play(0, "2C")) is None, not_held(s, cr.Play(0, "3C")).message
        (True, 'seat 0 cannot play 3C: it is not in their hand (they hold 2C)')
    """
    seat = play.seat
    if play in state.held[seat]:
        return None
    return not_in_hand(seat, play.card, state.hand(seat), play, state.match.rules.deck)


def round_over(state: State) -> bool:
    """True once no seat holds a card: the trick just taken was the round's last.

    Example:
        >>> import cucumber_rules as cr
        >>> round_over(cr.new_game(cr.ruleset("gurka"), players=2))
        True
    """
    return not any(state.held)


def end_round(state: S, *, match: Match, to_act: int = CHANCE) -> S:
    """The state after a round is scored: a deal is due next (`CHANCE`), or the match is over.

    Args:
        state: The state after the round's last trick (`take_trick`).
        match: The match with the round's result: totals, results, `rounds`, and `winners` once
            the match is over (then `to_act` is None).
        to_act: Who acts next while the match goes on: `CHANCE` (a deal), or a seat that has a
            decision to take first (the ladder's revival).

    Returns:
        The new state, of the same class as `state`; the finished round's table stays in it.

    Example:
        >>> import attrs, cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["2C"], ["9S"]]))
        >>> s = take_trick(cr.apply(s, cr.Play(0, "2C")), cr.Play(1, "9S"), taker=1)
        >>> end_round(s, match=attrs.evolve(s.match, rounds=1)).to_act == cr.CHANCE
        True
        >>> end_round(s, match=attrs.evolve(s.match, rounds=1, winners=(0,))).to_act is None
        True
    """
    build: Callable[..., S] = _BUILDERS.get(type(state)) or state_builder(type(state))
    return build(
        None if match.winners else to_act, match, state.table, state.held, (), None, None, state.history, None
    )
