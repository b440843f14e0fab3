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

from collections.abc import Callable, Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from ._values import Value, builder, open_twin
from .actions import Deal, Decision, Play, seat_number
from .cards import Card
from .engine import legal_moves
from .history import EMPTY, History
from .rules import Rules
from .state import Match, RoundResult, State, Table, Trick, new_state, unplayed

if TYPE_CHECKING:
    from .actions import Action
    from .games import Game
    from .scoring import Score

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
        # Only reached for a field `view` left to be filled in (or a missing attribute).
        try:
            later = _get_later(self)
        except AttributeError:  # built by __init__ (or loaded): every field is set
            later = None
        if later is None or name.startswith("__"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        _fill(self, later)
        return object.__getattribute__(self, name)


_get_later: Final = _Deferred.__dict__["_later"].__get__
_dealt: Final = builder(Dealt)
_setattr: Final = object.__setattr__


def _fill(v: PlayerView, later: tuple[Any, ...]) -> None:
    """Set the fields `view` left to be filled in, from the public pieces it kept (`later`)."""
    shared, held, trick, head, extra = later
    players, first, dealer, scores, sizes, leader, tricks, number, tail = shared
    score = _score_of(scores)
    seat = v.seat
    if trick:
        left = list(sizes)
        for p in trick:
            left[p.seat] -= 1
        sizes = tuple(left)
        held = unplayed(held, trick, seat)
    hand = tuple([p.card for p in held])
    if type(head) is list:  # the seat's `Dealt`, made by the first view of the round filled in
        if len(head) == 3:
            head.append((_dealt(*head),))  # (views of other threads may append theirs: equal values)
        head = head[3]
    events = head + tail + trick if trick else head + tail
    values = (
        players, first, hand, sizes, dealer, leader, trick, tricks, score.totals, score.marks,
        score.eliminated, score.winners, score.standings, score.rounds, score.results, number, events,
    )  # fmt: skip
    for set_field, value in zip(_FILL, values, strict=True):
        set_field(v, value)
    for name, value in extra.items():
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
    shared, held, trick, _, own = later
    seat = v.seat
    if trick and v.to_act != seat:  # (the seat to act has played nothing to the trick yet)
        held = unplayed(held, trick, seat)
    return len(shared[0]), held, trick, MappingProxyType(own)


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
    memo: _MatchMemo | None = m._views
    if memo is None:
        memo = _MatchMemo(_scores(game, m))
        _setattr(m, "_views", memo)
    held = state.held
    t = state.table
    head: tuple[Event, ...] | list[Any] | None
    fields: list[tuple[object, dict[str, Any]] | None] | None = None
    if t is None:  # before the first deal
        tail = game.public_events(state.history.since(_is_deal), rules, seat)
        shared = (m.players, m.first, m.dealer, memo.scores, tuple(map(len, held)), None, (), m.rounds, tail)
        head = ()
    else:
        past = state.past
        per_trick = t._views
        if (
            per_trick is None
            or per_trick[0] is not past
            or per_trick[1] is not held
            or per_trick[2] is not memo
        ):
            per_trick = _per_trick(game, rules, m, t, memo, past, held)
            _setattr(t, "_views", per_trick)
        _, _, _, deal, skip, shared, fields = per_trick
        if deal is None:
            head = ()
        else:
            heads = memo.heads
            if heads[0] is not deal:  # the first view of this deal's round (or of another round)
                heads = memo.heads = (deal, {})
            head = heads[1].get(seat)
            if head is None:
                # `skip` None: the deal's other events are in `tail`; its own is a `Dealt`, made on filling.
                if skip is None:
                    hand = deal.hands[seat] if seat is not None else ()
                    head = [hand, tuple(map(len, deal.hands)), deal.leader]
                else:
                    head = game.public_events((deal,), rules, seat)
                heads[1][seat] = head
    if fields is None:
        own = game.view_fields(state, seat)
    else:  # `Game.view_fields_shared`: one answer per trick and value of `extra`, for every seat
        extra = state.extra
        found = fields[0]
        if found is not None and found[0] is extra:
            own = found[1]
        else:
            own = game.view_fields(state, seat)
            fields[0] = (extra, own)  # (one assignment: views of other threads read either pair)
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
    v._later = (
        shared,
        held[seat] if seat is not None and held else (),
        state.trick,
        head,
        own,
    )
    v.__class__ = kind
    out: PlayerView = v
    return out


class _MatchMemo:
    """What views share while the `Match` value is the same (kept on it; not part of its value).

    `scores`: the game's score, worked out once per match value when a view's score fields are first
    read (a game's score depends on the match alone, as every built-in game's does).
    `last`: the last trick worked out, as one tuple `(past, done, tail, deal, skip)`: the history
    before it, how many actions of the round it holds, the deal included (`done`), their public
    events but the deal's `Dealt` (`tail`), the round's deal (hidden: a view keeps no reference to
    the match) and
    `skip`: None when `Game.round_events` gave `tail`, else how many events `Game.public_events`
    makes of the deal for a spectator; the next trick's are extended from it.
    `heads`: `(deal, {seat: the deal's events as that seat saw them})`; a seat's `Dealt` is kept as
    `[hand, sizes, leader]` until a view fills it in, then as `[the events]` (the views of the round
    share one).

    A `Match` can outlive a round (the one that follows a round's end until the next deal, or
    longer), and states of several branches share it: each entry names the deal it belongs to,
    and each is replaced by one assignment, so views of any of these states, in any order and
    from several threads, read consistent entries.
    """

    __slots__ = ("heads", "last", "scores")

    def __init__(self, scores: _Scores) -> None:
        self.scores = scores
        self.last: tuple[History[Action], int, tuple[Event, ...], Deal | None, int | None] | None = None
        self.heads: tuple[Deal | None, dict[int | None, tuple[Event, ...] | list[Any]]] = (None, {})


#: A match's score for its views, worked out the first time one of them is filled in (`_score_of`):
#: `[score or None, game, match class, the match's fields]`. It keeps the match's fields, not the
#: match (whose caches hold the history, which a view must not reach). A bot that reads only a view's
#: `legal` never pays for the score.
_Scores = list[Any]


def _scores(game: Game, match: Match) -> _Scores:
    kind = type(match)
    parts = _MATCH_PARTS.get(kind) or _match_parts(kind)
    return [None, game, kind, parts[0](match)]


def _score_of(scores: _Scores) -> Score:
    """The score: worked out once, from a copy of the match alone in a `State` (a game's score
    depends on the match alone), then kept (threads that race compute equal values)."""
    score: Score | None = scores[0]
    if score is None:
        _, game, kind, fields = scores
        match = _match_parts(kind)[1](*fields)
        score = scores[0] = game.score(new_state(None, match, None, (), (), None, None, EMPTY))
    return score


_MatchParts = tuple[Callable[[Match], tuple[Any, ...]], Callable[..., Match]]
#: `_match_parts` by `Match` class (kept once worked out: the classes never change).
_MATCH_PARTS: Final[dict[type[Match], _MatchParts]] = {}


def _match_parts(kind: type[Match]) -> _MatchParts:
    """For a `Match` class: a reader of the fields its constructor takes (as a tuple), and a builder."""
    parts = _MATCH_PARTS.get(kind)
    if parts is None:
        names = [a.name for a in attrs.fields(kind) if a.init]
        read = attrgetter(*names) if len(names) > 1 else (lambda m: (getattr(m, names[0]),))
        parts = _MATCH_PARTS[kind] = (read, builder(kind))
    return parts


#: What every view of a trick shares and keeps until it is filled in (public pieces only): players,
#: first, dealer, the match's scores, the hand sizes at the trick's start, leader, the round's
#: completed tricks, the round number, and the round's public events before the trick but the deal's.
_Shared = tuple[
    tuple[str, ...], int, int, _Scores, tuple[int, ...], int | None, tuple[Trick, ...], int, tuple[Event, ...]
]
#: What `_per_trick` keeps on a `Table`: past, held, memo (what it is valid for), deal, skip, shared,
#: and for a game whose `view_fields_shared` is true a one-entry cell `[(extra, its view fields)]`
#: (None until a view fills it; the entry for another `extra` is replaced), else None.
_PerTrick = tuple[
    "History[Action]",
    tuple[tuple[Play, ...], ...],
    _MatchMemo,
    Deal | None,
    int | None,
    _Shared,
    "list[tuple[object, dict[str, Any]] | None] | None",
]


def _per_trick(
    game: Game,
    rules: Rules,
    m: Match,
    t: Table,
    memo: _MatchMemo,
    past: History[Action],
    held: tuple[tuple[Play, ...], ...],
) -> _PerTrick:
    """What every view during one trick shares (kept on the `Table`, where the stock is too).

    The round's deal, the public events of the round's actions before the trick after the deal's
    `Dealt` (which differs by seat), the hand sizes at the trick's start and the round number
    (the next once a round is in play). A trick that follows the one `memo` saw extends its results by the
    new actions alone, with `Game.round_events`; for a game that cannot tell the events that way (it
    answers None) they are worked out again from the round's actions with `Game.public_events`.
    """
    last = memo.last
    tail: tuple[Event, ...] | None = None
    if last is not None:
        old, done, tail, deal, skip = last
        new = past.added_since(old)
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
    memo.last = (past, done, tail, deal, skip)
    number = m.rounds + 1 if any(held) else m.rounds  # (a trick's cards are held until it ends)
    shared = (
        m.players,
        m.first,
        m.dealer,
        memo.scores,
        tuple(map(len, held)),
        t.leader,
        t.tricks,
        number,
        tail,
    )
    return (past, held, memo, deal, skip, shared, [None] if game.view_fields_shared else None)
