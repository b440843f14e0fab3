"""Player views: what one seat (or a spectator) may know about a match.

[`view`][cucumber_rules.view] builds a `PlayerView` by *listing what to
include*: the viewer's own hand, every hand's size, the current and completed
tricks, the scores, whose turn it is, the viewer's legal moves and a public
history of events, plus what the game itself shows (its `Game.view_fields`:
Catastrophe's Trick Marker, revealed and captured cards; the ladder's revival
state). It never copies a `State` and blanks fields, so a field added to
`State` later cannot leak through a view. Each game has its own view class
(`LadderView`, `CatastropheView`) deriving from `PlayerView`.

A view costs the same at any point of a match. `view` works out only the
seat's legal moves and gathers the other fields from pieces that every view of
the same trick (or match value) shares, kept on the `Table` and `Match` they
come from; it sets the fields a bot reads first (`rules`, `seat`, `to_act`,
`legal`) and fills in the others, from those public pieces only, the first time
one of them is read. The match's score too is worked out then, once per match
value, so a bot that reads only `legal` never pays for it. A view holds no
reference to the state, and equality, hashing, `repr`, pickling and JSON see
every field as usual.

The history (`PlayerView.events` for the current round, `public_history` for
the whole match) holds the players' own actions (`Play` and a game's decisions,
which everybody sees), `Dealt` events and the game's own events (Catastrophe's
`Revealed`). A `Dealt` is a deal as the viewer saw it: their own cards, how
many cards each seat received and the announced starter.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from ._values import Value, builder, open_twin
from ._view_cache import (
    MatchViews,
    Pending,
    TrickViews,
    new_match_views,
    new_pending,
    new_trick_shared,
    new_trick_views,
    with_head,
    with_log,
    with_own,
)
from .actions import Deal, Decision, Play, seat_number
from .cards import Card
from .engine import legal_moves
from .history import History
from .rules import Rules
from .state import Match, RoundResult, State, Table, Trick, unplayed

if TYPE_CHECKING:
    from .actions import Action
    from .games import Game

__all__ = ["Dealt", "Event", "PlayerView", "glance", "public_history", "view"]


@attrs.frozen(weakref_slot=False)
class Dealt(Value):
    """A deal as one viewer saw it (an event of `PlayerView.events`).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> cr.view(s, 0).events[0]
        Dealt(hand=(card('2C'), card('KS')), sizes=(2, 2), leader=None)
    """

    TAG: ClassVar[str] = "dealt"
    hand: tuple[Card, ...]
    """The viewer's own cards from this deal, sorted (empty for a spectator or a seat dealt out)."""
    sizes: tuple[int, ...]
    """How many cards each seat received."""
    leader: int | None = None
    """The starter the deal announced (Catastrophe's tie-break), else None."""


Event = Dealt | Play | Decision | Value
"""Any event of a view's history: a seat's `Play` or decision (`Revive`), a `Dealt`, or a game's
own event (`Revealed`).

Example:
    >>> import cucumber_rules as cr
    >>> isinstance(cr.Play(0, "QS"), Event)
    True
"""


class _Deferred(Value):
    """The base of `PlayerView`: one private slot for the fields a view fills in when first read."""

    __slots__ = ("_later",)


@attrs.frozen(kw_only=True)
class PlayerView(_Deferred):
    """What one seat (or a spectator) may know at a point of a match. Get one from `view`.

    Each game's view class adds what the game shows (`LadderView`, `CatastropheView`).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> v = cr.view(s, 1)
        >>> [str(c) for c in v.hand], v.hand_sizes, v.to_act, v.legal
        (['3H', 'AS'], (2, 2), 0, ())
    """

    rules: Rules
    """The rules of the match."""
    players: tuple[str, ...]
    """Seat labels, seat 0 first."""
    seat: int | None
    """The viewer's seat; None for a spectator."""
    first: int
    """The seat that led the first trick of the match."""
    hand: tuple[Card, ...]
    """The viewer's cards, sorted (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    to_act: int | None
    """The seat to act, `CHANCE` (-1) while a deal is due, None once the match is over."""
    dealer: int
    """The dealer of the current (or last) round."""
    leader: int | None
    """The seat that led (or will lead) the current trick; None before the first deal."""
    trick: tuple[Play, ...]
    """The current trick's plays, in order."""
    tricks: tuple[Trick, ...]
    """The completed tricks of the current (or just finished) round."""
    totals: tuple[int, ...]
    """Running points (or cucumbers) per seat."""
    marks: tuple[int, ...]
    """Cucumber marks per seat (Agurk)."""
    eliminated: tuple[bool, ...]
    """Per seat: out of the match."""
    winners: tuple[int, ...]
    """The winning seats; empty while the match runs."""
    standings: tuple[int, ...]
    """Every seat, best first."""
    rounds: tuple[tuple[int, ...], ...]
    """One row per finished round (Catastrophe: hand): what each seat scored in it."""
    results: tuple[RoundResult, ...]
    """Every finished round in detail (the game's `RoundResult` class)."""
    round_number: int
    """The number of the round (hand) in play or just finished: the deals so far (0 before the first)."""
    legal: tuple[Play | Decision, ...]
    """The viewer's legal moves; empty when it is not their turn (and for a spectator)."""
    events: tuple[Event, ...]
    """The current round's public events, oldest first: its `Dealt`, plays, decisions and the
    game's own events (a view costs the same late in a long match; earlier rounds are summed
    up in `results`, and `public_history` gives the whole log)."""

    @property
    def is_over(self) -> bool:
        """True once the match has winners."""
        return self.to_act is None

    @property
    def is_spectator(self) -> bool:
        """True for a spectator's view (no seat)."""
        return self.seat is None

    def __getattr__(self, name: str) -> Any:
        # Only reached for a field `view` left to be filled in (or a missing attribute). Another
        # thread may finish filling the view in between the miss and the look at `_later`: the
        # field is then read again, never reported missing.
        if not name.startswith("__"):
            try:
                later = _get_later(self)
            except AttributeError:  # built by __init__ (or loaded): every field is set
                later = None
            if later is not None:
                _fill(self, later)
            try:
                return object.__getattribute__(self, name)
            except AttributeError:
                pass
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


_get_later: Final = _Deferred.__dict__["_later"].__get__
_dealt: Final = builder(Dealt)
_setattr: Final = object.__setattr__


def _fill(v: PlayerView, later: Pending) -> None:
    """Set the fields `view` left to be filled in, from the public pieces it kept (`later`).

    Every value is worked out before the first is set; `_later` is cleared last, so a thread that
    finds it cleared finds every field set.
    """
    shared = later.shared
    score = shared.score.get()
    sizes = shared.sizes
    held = later.held
    trick = later.trick
    if trick:
        left = list(sizes)
        for p in trick:
            left[p.seat] -= 1
        sizes = tuple(left)
        held = unplayed(held, trick, v.seat)
    hand = tuple([p.card for p in held])
    head = later.head
    tail = shared.tail
    events = head + tail + trick if trick else head + tail
    values = (
        shared.players, shared.first, hand, sizes, shared.dealer, shared.leader, trick, shared.tricks,
        score.totals, score.marks, score.eliminated, score.winners, score.standings, score.rounds,
        score.results, shared.number, events,
    )  # fmt: skip
    for set_field, value in zip(_FILL, values, strict=True):
        set_field(v, value)
    for name, value in later.own:
        _setattr(v, name, value)
    _set_later(v, None)


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


#: The slot setters of the fields `_fill` sets, in its order (a view may be shared by threads by then,
#: so they are set through the slots, not with `_values.open_twin`'s trick, which `view` uses).
_FILL: Final = tuple(
    PlayerView.__dict__[name].__set__
    for name in (
        "players", "first", "hand", "hand_sizes", "dealer", "leader", "trick", "tricks", "totals", "marks",
        "eliminated", "winners", "standings", "rounds", "results", "round_number", "events",
    )
)  # fmt: skip
_set_later: Final = _Deferred.__dict__["_later"].__set__


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


def _is_deal(action: object) -> bool:
    return type(action) is Deal


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
    return state.game.public_events(state.history.items(), state.match.rules, seat)


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
    if type(seat) is not int or type(state) is not State or not 0 <= seat < len(state.match.players):
        seat = _check_seat(state, seat)
    m = state.match
    rules = m.rules
    game = type(rules)._game
    memo: MatchViews | None = m._views
    if memo is None:
        memo = new_match_views(m)
        _setattr(m, "_views", memo)
    held = state.held
    t = state.table
    head: tuple[Event, ...]
    per: TrickViews | None = None
    if t is None:  # before the first deal
        tail = game.public_events(state.history.since(_is_deal), rules, seat)
        shared = new_trick_shared(
            m.players, m.first, m.dealer, memo.score, tuple(map(len, held)), None, (), m.rounds, tail
        )
        head = ()
    else:
        past = state.past
        per = t._views
        if per is None or per.past is not past or per.held is not held or per.match is not m:
            per = _per_trick(game, rules, m, t, memo, past, held)
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
                    found = game.public_events((deal,), rules, seat)
                _setattr(m, "_views", with_head(memo, deal, len(m.players), seat, found))
            head = found
    own: tuple[tuple[str, Any], ...]
    if per is None or not game.view_fields_shared:
        own = tuple(game.view_fields(state, seat).items())
    else:  # `Game.view_fields_shared`: one answer per trick and value of `extra`, for every seat
        extra = state.extra
        kept = per.own
        if kept is not None and kept[0] is extra:
            own = kept[1]
        else:
            own = tuple(game.view_fields(state, seat).items())
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
    v._later = new_pending(shared, held[seat] if seat is not None and held else (), state.trick, head, own)
    v.__class__ = kind
    out: PlayerView = v
    return out


def _per_trick(
    game: Game,
    rules: Rules,
    m: Match,
    t: Table,
    memo: MatchViews,
    past: History[Action],
    held: tuple[tuple[Play, ...], ...],
) -> TrickViews:
    """What every view during one trick shares (kept on the `Table`, where the stock is too).

    The round's deal, the public events of the round's actions before the trick after the deal's
    `Dealt` (which differs by seat), the hand sizes at the trick's start and the round number
    (the next once a round is in play). A trick that follows the one `memo` saw extends its results
    by the new actions alone, with `Game.round_events`; for a game that cannot tell the events that
    way (it answers None) they are worked out again from the round's actions with
    `Game.public_events`. The match's record is replaced by one with this trick's `RoundLog`.
    """
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
                more = game.round_events(rules, deal, done, new)
                tail = None if more is None else tail + more
                done += len(new)
    if tail is None:  # the round's first trick seen, or a game that needs the whole round
        final = past.last
        since = (final,) if type(final) is Deal else past.since(_is_deal)  # (a round's first trick: no walk)
        deal = since[0] if since and type(since[0]) is Deal else None
        done = len(since)
        skip = None
        if deal is not None:
            tail = game.round_events(rules, deal, 0, since)
        if tail is None:
            skip = 0 if deal is None else len(game.public_events((deal,), rules, None))
            tail = game.public_events(since, rules, None)[skip:] if since else ()
    _setattr(m, "_views", with_log(memo, past, done, tail, deal, skip))
    number = m.rounds + 1 if any(held) else m.rounds  # (a trick's cards are held until it ends)
    shared = new_trick_shared(
        m.players, m.first, m.dealer, memo.score, tuple(map(len, held)), t.leader, t.tricks, number, tail
    )
    return new_trick_views(past, held, m, deal, skip, shared, None)
