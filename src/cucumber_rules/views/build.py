"""Building views: `view`, `public_history`, `glance`, and filling a fresh view's fields in."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

import attrs

from .._values import builder, open_twin
from .._view_cache import (
    MatchViews,
    Pending,
    TrickViews,
    _is_deal,
    new_match_views,
    new_trick_shared,
    per_trick,
    with_head,
    with_own,
)
from ..actions import Play, seat_number
from ..engine import legal_moves
from ..rules import game_of
from ..state import State, unplayed
from .types import Dealt, Event, PlayerView, _get_later

__all__ = ["glance", "public_history", "view"]


_dealt: Final = builder(Dealt)
_tuple: Final = tuple.__new__
_setattr: Final = object.__setattr__


def glance(v: PlayerView) -> tuple[int, tuple[Play, ...], tuple[Play, ...], Mapping[str, Any]]:
    """What a bot reads of a view besides `legal`, without filling the view in.

    The number of seats, the viewer's hand as its plays (`Play(seat, card)`, in
    the order of `hand`; empty for a spectator), the current trick, and the
    game's own view fields by name, read-only (Catastrophe's `revealed`,
    `marker` and `captured`). A view's other fields are filled in together the
    first time one is read; a heuristic that needs only these pieces reads them
    here instead, at a fraction of the cost. A view that is already filled in
    (or was loaded) answers from its fields.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
        >>> seats, hand, trick, own = glance(cr.view(s, 0))
        >>> seats, [str(p.card) for p in hand], trick, sorted(own)
        (3, ['5', '7'], (), ['captured', 'marker', 'revealed'])
    """
    try:
        later = _get_later(v)
    except AttributeError:  # built by __init__ (or loaded): every field is set
        later = None
    if later is None:
        seat = v.seat
        hand = () if seat is None else tuple([Play(seat, c) for c in v.hand])
        own = {name: getattr(v, name) for name in _own_fields(type(v))}
        return len(v.players), hand, v.trick, MappingProxyType(own)
    held = later.held
    trick = later.trick
    seat = v.seat
    if trick and v.to_act != seat:  # (the seat to act has played nothing to the trick yet)
        held = unplayed(held, trick, seat)
    return len(later.shared.players), held, trick, MappingProxyType(dict(later.own))


def _own_fields(kind: type[PlayerView]) -> tuple[str, ...]:
    """The fields a game's view class adds to `PlayerView`'s."""
    names = _OWN.get(kind)
    if names is None:
        common = attrs.fields_dict(PlayerView)
        names = _OWN[kind] = tuple(a.name for a in attrs.fields(kind) if a.name not in common)
    return names


#: `_own_fields` by view class (kept once worked out: the classes never change).
_OWN: Final[dict[type[PlayerView], tuple[str, ...]]] = {}


#: `_values.open_twin` of each view class (kept once made: the classes never change).
_OPEN: Final[dict[type[PlayerView], type[Any]]] = {}


def _open(kind: type[PlayerView]) -> type[Any]:
    twin = _OPEN.get(kind)
    if twin is None:
        twin = _OPEN[kind] = open_twin(kind)
    return twin


def _check_seat(state: State, seat: int | None) -> int | None:
    if not isinstance(state, State):
        raise TypeError(f"expected a State, not {type(state).__name__}")
    if seat is None:
        return None
    seat = seat_number(seat, "seat must be an int or None")
    n = len(state.match.players)
    if not 0 <= seat < n:
        raise ValueError(f"seat must be a seat 0..{n - 1} or None (spectator), not {seat}")
    return seat


def public_history(state: State, seat: int | None) -> tuple[Event, ...]:
    """The whole match's public events as `seat` saw them (None: a spectator), oldest first.

    `PlayerView.events` holds only the current round's events, so that a view
    costs the same late in a long match as early; this gives the full log, in
    time proportional to the match.

    Raises:
        TypeError: If `state` is not a `State` or `seat` is neither an int nor None.
        ValueError: If `seat` is not a seat of the match.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["2C"], ["AS"]]))
        >>> s = cr.apply(cr.apply(s, cr.Play(0, "2C")), cr.Play(1, "AS"))
        >>> s = cr.apply(s, cr.Deal(hands=[["3C"], ["KS"]]))
        >>> [type(e).__name__ for e in cr.public_history(s, 0)]
        ['Dealt', 'Play', 'Play', 'Dealt']
        >>> [type(e).__name__ for e in cr.view(s, 0).events]
        ['Dealt']
    """
    seat = _check_seat(state, seat)
    return game_of(state).views.public_events(state.history.items(), state.match.rules, seat)


def view(state: State, seat: int | None) -> PlayerView:
    """Return what `seat` may know about `state`; `seat=None` gives the spectator's view.

    The view holds the seat's own hand but only the *sizes* of the other
    hands, and never the stock or anything from which hidden cards could be
    derived.

    Args:
        state: The state to look at.
        seat: The viewer's seat (any integer), or None for a spectator.

    Returns:
        The frozen view, of the game's view class.

    Raises:
        TypeError: If `state` is not a `State` or `seat` is neither an integer nor None.
        ValueError: If `seat` is not a seat of the match.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> v = cr.view(s, 0)
        >>> [str(c) for c in v.hand], v.hand_sizes, [str(m) for m in v.legal]
        (['2C', 'KS'], (2, 2), ['seat 0 plays 2C', 'seat 0 plays KS'])
        >>> cr.view(s, None).hand, cr.view(s, None).legal
        ((), ())
    """
    if type(seat) is not int or not isinstance(state, State) or not 0 <= seat < len(state.match.players):
        seat = _check_seat(state, seat)
    m = state.match
    rules = m.rules
    game = type(rules)._game  # (`game_of(state)`, inlined: a view is asked for at every decision)
    hooks = game.views
    memo: MatchViews | None = m._views
    if memo is None:
        memo = new_match_views(m)
        _setattr(m, "_views", memo)
    held = state.held
    t = state.table
    head: tuple[Event, ...]
    per: TrickViews | None = None
    if t is None:  # before the first deal
        tail = hooks.public_events(state.history.since(_is_deal), rules, seat)
        shared = new_trick_shared(
            m.players, m.first, m.dealer, memo.score, tuple(map(len, held)), None, (), m.rounds, tail
        )
        head = ()
    else:
        past = state.past
        per = t._views
        if per is None or per.past is not past or per.held is not held or per.match is not m:
            per = per_trick(hooks, rules, m, t, memo, past, held)
            _setattr(t, "_views", per)
        shared = per.shared
        deal = per.deal
        if deal is None:
            head = ()
        else:
            memo = m._views  # (`_per_trick` may have published a newer record)
            heads = memo.heads
            found = heads[0 if seat is None else seat + 1] if memo.heads_deal is deal else None
            if found is None:
                # `skip` None: the deal's other events are in `tail`; its own is a `Dealt`.
                if per.skip is None:
                    hand = deal.hands[seat] if seat is not None else ()
                    found = (_dealt(hand, tuple(map(len, deal.hands)), deal.leader),)
                else:
                    found = hooks.public_events((deal,), rules, seat)
                _setattr(m, "_views", with_head(memo, deal, len(m.players), seat, found))
            head = found
    own: tuple[tuple[str, Any], ...]
    if per is None or not hooks.view_fields_shared:
        own = tuple(hooks.view_fields(state, seat).items())
    else:  # `Game.view_fields_shared`: one answer per trick and value of `extra`, for every seat
        extra = state.extra
        kept = per.own
        if kept is not None and kept[0] is extra:
            own = kept[1]
        else:
            own = tuple(hooks.view_fields(state, seat).items())
            _setattr(t, "_views", with_own(per, extra, own))
    kind = game.view_type
    to_act = state.to_act
    v: Any = (_OPEN.get(kind) or _open(kind))()  # (`_values.open_twin`: plain stores until the class is set)
    v.rules = rules
    v.seat = seat
    v.to_act = to_act
    if seat is None or to_act != seat:
        v.legal = ()
    else:  # (the moves the engine kept as it built the state, else worked out now)
        v.legal = state._legal or legal_moves(state)
    v._later = _tuple(
        Pending, (shared, held[seat] if seat is not None and held else (), state.trick, head, own)
    )
    v.__class__ = kind
    out: PlayerView = v
    return out
