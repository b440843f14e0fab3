"""Building views: `view`, `public_history`, `glance`, and filling a fresh view's fields in."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

import attrs

from ..actions import Action, Deal, Play, seat_number
from ..engine import legal_moves
from ..game import game_of
from ..history import History
from ..rules import Rules
from ..state import Match, State, Table, unplayed
from ..values import builder
from .cache import (
    MatchViews,
    TrickShared,
    TrickViews,
    ViewPlan,
    new_log,
    new_match_views,
    new_match_views_of,
    new_trick_views,
    with_head,
    with_own,
)
from .hooks import Views
from .types import Dealt, Event, PlayerView, later_of

__all__ = ["glance", "is_deal", "public_history", "view"]


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
        later = later_of(v)
    except AttributeError:  # built by __init__ (or loaded): every field is set
        later = None
    if later is None:
        seat = v.seat
        hand = () if seat is None else tuple([Play(seat, c) for c in v.hand])
        own = {name: getattr(v, name) for name in _own_fields(type(v))}
        return len(v.players), hand, v.trick, MappingProxyType(own)
    shared, held, trick, _, own = later
    seat = v.seat
    if trick and v.to_act != seat:  # (the seat to act has played nothing to the trick yet)
        held = unplayed(held, trick, seat)
    return len(shared[0]), held, trick, MappingProxyType(dict(own))


def _own_fields(kind: type[PlayerView]) -> tuple[str, ...]:
    """The fields a game's view class adds to `PlayerView`'s."""
    names = _OWN.get(kind)
    if names is None:
        common = attrs.fields_dict(PlayerView)
        names = _OWN[kind] = tuple(a.name for a in attrs.fields(kind) if a.name not in common)
    return names


#: `_own_fields` by view class (kept once worked out: the classes never change).
_OWN: Final[dict[type[PlayerView], tuple[str, ...]]] = {}


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
    return Views.of(game_of(state)).public_events(state.history.items(), state.match.rules, seat)


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
    memo: MatchViews | None = m._views
    if memo is None:  # (a new match value: its game's plan for views, found through `game_of`)
        memo = new_match_views(m)
        _setattr(m, "_views", memo)
    plan = memo.plan
    hooks = plan.hooks
    held = state.held
    t = state.table
    head: tuple[Event, ...]
    per: TrickViews | None = None
    if t is None:  # before the first deal
        tail = hooks.public_events(state.history.since(is_deal), rules, seat)
        shared: TrickShared = (
            m.players,
            m.first,
            m.dealer,
            memo.score,
            tuple(map(len, held)),
            None,
            (),
            m.rounds,
            tail,
        )
        head = ()
    else:
        past = state.past
        per = t._views
        if per is None or per.past is not past or per.held is not held or per.match is not m:
            per = _per_trick(plan, rules, m, t, memo, past, held, state, seat)
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
    if per is None or not plan.shared:
        own = tuple(hooks.view_fields(state, seat).items())
    else:  # `Game.view_fields_shared`: one answer per trick and value of `extra`, for every seat
        extra = state.extra
        kept = per.own
        if kept is not None and kept[0] is extra:
            own = kept[1]
        else:
            own = tuple(hooks.view_fields(state, seat).items())
            _setattr(t, "_views", with_own(per, extra, own))
    to_act = state.to_act
    v: Any = plan.twin()  # (`values.open_twin`: plain stores until the class is set)
    v.rules = rules
    v.seat = seat
    v.to_act = to_act
    if seat is None or to_act != seat:
        v.legal = ()
    else:  # (the moves the engine kept as it built the state, else worked out now)
        v.legal = state._legal or legal_moves(state)
    v._later = (shared, held[seat] if seat is not None and held else (), state.trick, head, own)
    v.__class__ = plan.kind
    out: PlayerView = v
    return out


def _per_trick(
    plan: ViewPlan,
    rules: Rules,
    m: Match,
    t: Table,
    memo: MatchViews,
    past: History[Action],
    held: tuple[tuple[Play, ...], ...],
    state: State,
    seat: int | None,
) -> TrickViews:
    """What every view during one trick shares (kept on the `Table`, where the stock is too).

    The round's deal, the public events of the round's actions before the trick after the deal's
    `Dealt` (which differs by seat), the hand sizes at the trick's start and the round number
    (the next once a round is in play). A trick that follows the one `memo` saw extends its results
    by the new actions alone, with `Game.round_events`; for a game that cannot tell the events that
    way (it answers None) they are worked out again from the round's actions with
    `Game.public_events`. The match's record is replaced by one with this trick's `RoundLog`.
    A game whose view fields are the same for every seat (`plan.shared`) has them worked out here
    too, for `state`'s `extra`.
    """
    hooks = plan.hooks
    last = memo.log
    tail: tuple[Event, ...] | None = None
    if last is not None:
        tail, done, deal, skip = last.tail, last.done, last.deal, last.skip
        new = past.added_since(last.past)
        if new is None or deal is None or skip is not None:
            tail = None  # another line of play, no round yet, or a game that needs its whole round
        elif new:
            for action in new:  # (a loop: cheaper than a call, or `any` over a generator)
                if type(action) is Deal:  # another round has started
                    tail = None
                    break
            else:
                more = hooks.round_events(rules, deal, done, new)
                tail = None if more is None else tail + more
                done += len(new)
    if tail is None:  # the round's first trick seen, or a game that needs the whole round
        final = past.last
        since = (final,) if type(final) is Deal else past.since(is_deal)  # (a round's first trick: no walk)
        deal = since[0] if since and type(since[0]) is Deal else None
        done = len(since)
        skip = None
        if deal is not None:
            tail = hooks.round_events(rules, deal, 0, since)
        if tail is None:
            skip = 0 if deal is None else len(hooks.public_events((deal,), rules, None))
            tail = hooks.public_events(since, rules, None)[skip:] if since else ()
    log = new_log(past, done, tail, deal, skip)
    _setattr(m, "_views", new_match_views_of(memo.score, memo.plan, log, memo.heads_deal, memo.heads))
    number = m.rounds + 1 if any(held) else m.rounds  # (a trick's cards are held until it ends)
    shared: TrickShared = (
        m.players,
        m.first,
        m.dealer,
        memo.score,
        tuple(map(len, held)),
        t.leader,
        t.tricks,
        number,
        tail,
    )
    own = (state.extra, tuple(hooks.view_fields(state, seat).items())) if plan.shared else None
    return new_trick_views(past, held, m, deal, skip, shared, own)


def is_deal(action: object) -> bool:
    """True for a `Deal` (the start of a round in a history: `history.since(is_deal)`).

    Example:
        >>> import cucumber_rules as cr
        >>> is_deal(cr.Deal(hands=[["2C"], ["3C"]])), is_deal(cr.Play(0, "2C"))
        (True, False)
    """
    return type(action) is Deal
