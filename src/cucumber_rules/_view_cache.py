"""What views share, and where they keep it: named frozen records, each built whole, then published.

`view` costs the same at any point of a match because every view of one trick
(and of one match value) shares what it can, kept on the values it comes from:

- on the `Match` (`Match._views`), a `MatchViews`: the match's score for views
  (`LazyScore`), the round's public events worked out so far (`RoundLog`) and
  each seat's view of the round's deal (`heads`);
- on the `Table` (`Table._views`), a `TrickViews`: what every view during one
  trick shares (`TrickShared`, public pieces only) and the game's own view
  fields when they are the same for every seat;
- on a fresh `PlayerView` (`_later`), a `Pending`: the public pieces its other
  fields are filled in from when one of them is first read.

Every record is a named tuple holding only frozen values. A cache is never
changed in place: a new record replaces the old one in one slot store, so a
thread reading a cache sees a whole record, the old or the new. Two threads that
race compute equal records; either may stay. The one lazy field, a
`LazyScore`'s score, is likewise worked out whole and then stored in one step.
A view reaches only `TrickShared`, `Pending` and `LazyScore` values: public
pieces, never the state, the table, the match or the deal.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import attrs

from ._values import Value, builder
from .actions import Action, Deal, Play
from .history import EMPTY, History
from .rules import game_of
from .state import Match, Table, Trick, new_state

if TYPE_CHECKING:
    from .rules import Rules
    from .scoring import Score
    from .views import Event, Views

__all__ = [
    "LazyScore",
    "MatchViews",
    "Pending",
    "RoundLog",
    "TrickShared",
    "TrickViews",
    "lazy_score",
    "new_match_views",
    "new_pending",
    "new_trick_shared",
    "new_trick_views",
    "per_trick",
    "with_head",
    "with_log",
    "with_own",
]

_setattr: Final = object.__setattr__


@attrs.frozen(weakref_slot=False)
class LazyScore(Value):
    """A match's score for its views, worked out the first time one of them reads a score field.

    It keeps the match's fields (`kind(*fields)` rebuilds the match without its caches), not the
    match: the match's caches hold the round's deal, which a view must never reach. A bot that
    reads only a view's `legal` never pays for the score.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> lazy = lazy_score(s.match)
        >>> lazy.get() == cr.score(s), lazy.get() is lazy.get()
        (True, True)
    """

    kind: type[Match]
    """The match's class."""
    fields: tuple[Any, ...]
    """The match's fields, in the order its constructor takes them."""
    _score: Score | None = attrs.field(init=False, default=None, eq=False, hash=False, repr=False)
    """The score once worked out (a cache, not part of the value)."""

    def get(self) -> Score:
        """The score: worked out whole on the first call, then kept (racing threads compute equal scores)."""
        score = self._score
        if score is None:
            match = _match_parts(self.kind)[1](*self.fields)
            state = new_state(None, match, None, (), (), None, None, EMPTY)
            score = game_of(match).score(state)
            _setattr(self, "_score", score)
        return score


class RoundLog(NamedTuple):
    """The public events of a round's actions, worked out up to some trick (extended trick by trick)."""

    past: History[Action]
    """The history before the trick it was worked out for."""
    done: int
    """How many of the round's actions it covers, its deal included."""
    tail: tuple[Event, ...]
    """Their public events as a spectator sees them, but the deal's `Dealt`."""
    deal: Deal | None
    """The round's deal (None before the first deal)."""
    skip: int | None
    """None when `Game.round_events` gave `tail`; else how many events `Game.public_events` makes of
    the deal for a spectator (the game needs its whole round to tell the events)."""


class MatchViews(NamedTuple):
    """What views share while the `Match` value is the same (kept on it as `Match._views`).

    A `Match` can outlive a round (until the next deal, or longer), and states of several
    branches share it: each entry names what it belongs to (`log.past`, `heads_deal`), and a new
    record replaces the old one whole, so views of any of these states, in any order and from
    several threads, read consistent entries.
    """

    score: LazyScore
    """The match's score for views."""
    log: RoundLog | None
    """The last trick's public events worked out."""
    heads_deal: Deal | None
    """The deal `heads` belong to."""
    heads: tuple[tuple[Event, ...] | None, ...]
    """By seat + 1 (0: the spectator): the deal's events as that viewer saw them, once worked out."""


class TrickShared(NamedTuple):
    """What every view of one trick shares and keeps until it is filled in: public pieces only."""

    players: tuple[str, ...]
    first: int
    dealer: int
    score: LazyScore
    sizes: tuple[int, ...]
    """The hand sizes at the trick's start."""
    leader: int | None
    tricks: tuple[Trick, ...]
    """The round's completed tricks."""
    number: int
    """The round number."""
    tail: tuple[Event, ...]
    """The round's public events before the trick, but the deal's."""


class TrickViews(NamedTuple):
    """What views keep on a `Table` for one trick (`Table._views`), and what it is valid for."""

    past: History[Action]
    held: tuple[tuple[Play, ...], ...]
    match: Match
    deal: Deal | None
    """The round's deal (hidden: views get only what `TrickShared` holds)."""
    skip: int | None
    shared: TrickShared
    own: tuple[object, tuple[tuple[str, Any], ...]] | None
    """For a game whose `view_fields_shared` is true: `(extra, its view fields)` once asked."""


class Pending(NamedTuple):
    """A fresh view's fields to fill in (`PlayerView._later`): public pieces only."""

    shared: TrickShared
    held: tuple[Play, ...]
    """The viewer's plays at the trick's start (empty for a spectator)."""
    trick: tuple[Play, ...]
    head: tuple[Event, ...]
    """The round's deal as the viewer saw it."""
    own: tuple[tuple[str, Any], ...]
    """The game's own view fields, by name."""


_tuple: Final = tuple.__new__


def new_trick_shared(*fields: Any) -> TrickShared:
    """A `TrickShared` from its fields in order (one C call: views are built at every decision)."""
    return _tuple(TrickShared, fields)


def new_trick_views(*fields: Any) -> TrickViews:
    """A `TrickViews` from its fields in order."""
    return _tuple(TrickViews, fields)


def new_pending(*fields: Any) -> Pending:
    """A `Pending` from its fields in order."""
    return _tuple(Pending, fields)


def _new_log(*fields: Any) -> RoundLog:
    return _tuple(RoundLog, fields)


def _new_match_views(*fields: Any) -> MatchViews:
    return _tuple(MatchViews, fields)


def lazy_score(match: Match) -> LazyScore:
    """A match's `LazyScore` (its fields read now, the score worked out when first asked).

    Example:
        >>> import cucumber_rules as cr
        >>> lazy_score(cr.new_game(cr.ruleset("agurk"), players=3).match).get().totals
        (0, 0, 0)
    """
    kind = type(match)
    return LazyScore(kind, _match_parts(kind)[0](match))


def new_match_views(match: Match) -> MatchViews:
    """The views' record of a match value no view has seen yet.

    Example:
        >>> import cucumber_rules as cr
        >>> new_match_views(cr.new_game(cr.ruleset("agurk"), players=3).match).log is None
        True
    """
    return _new_match_views(lazy_score(match), None, None, ())


def with_log(memo: MatchViews, past: History[Action], done: int, tail: tuple[Event, ...],
             deal: Deal | None, skip: int | None) -> MatchViews:  # fmt: skip
    """`memo` with another `RoundLog`."""
    return _new_match_views(memo.score, _new_log(past, done, tail, deal, skip), memo.heads_deal, memo.heads)


def with_head(
    memo: MatchViews, deal: Deal, seats: int, seat: int | None, head: tuple[Event, ...]
) -> MatchViews:
    """`memo` with one viewer's events of `deal` (the others' kept if they are of the same deal)."""
    heads: list[tuple[Event, ...] | None] = (
        list(memo.heads) if memo.heads_deal is deal else [None] * (seats + 1)
    )
    heads[0 if seat is None else seat + 1] = head
    return _new_match_views(memo.score, memo.log, deal, tuple(heads))


def with_own(per: TrickViews, extra: object, own: tuple[tuple[str, Any], ...]) -> TrickViews:
    """`per` with the game's shared view fields for `extra`."""
    return new_trick_views(per.past, per.held, per.match, per.deal, per.skip, per.shared, (extra, own))


_MatchParts = tuple[Callable[[Match], tuple[Any, ...]], Callable[..., Match]]
#: `_match_parts` by `Match` class (kept once worked out: a class's fields never change).
_MATCH_PARTS: Final[dict[type[Match], _MatchParts]] = {}


def _match_parts(kind: type[Match]) -> _MatchParts:
    """For a `Match` class: a reader of the fields its constructor takes (as a tuple), and a builder."""
    parts = _MATCH_PARTS.get(kind)
    if parts is None:
        names = [a.name for a in attrs.fields(kind) if a.init]
        read = attrgetter(*names) if len(names) > 1 else (lambda m: (getattr(m, names[0]),))
        parts = _MATCH_PARTS[kind] = (read, builder(kind))
    return parts


def per_trick(
    hooks: Views,
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
    (`hooks` is the game's `Views` group.)
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
                more = hooks.round_events(rules, deal, done, new)
                tail = None if more is None else tail + more
                done += len(new)
    if tail is None:  # the round's first trick seen, or a game that needs the whole round
        final = past.last
        since = (final,) if type(final) is Deal else past.since(_is_deal)  # (a round's first trick: no walk)
        deal = since[0] if since and type(since[0]) is Deal else None
        done = len(since)
        skip = None
        if deal is not None:
            tail = hooks.round_events(rules, deal, 0, since)
        if tail is None:
            skip = 0 if deal is None else len(hooks.public_events((deal,), rules, None))
            tail = hooks.public_events(since, rules, None)[skip:] if since else ()
    _setattr(m, "_views", with_log(memo, past, done, tail, deal, skip))
    number = m.rounds + 1 if any(held) else m.rounds  # (a trick's cards are held until it ends)
    shared = new_trick_shared(
        m.players, m.first, m.dealer, memo.score, tuple(map(len, held)), t.leader, t.tricks, number, tail
    )
    return new_trick_views(past, held, m, deal, skip, shared, None)


def _is_deal(action: object) -> bool:
    return type(action) is Deal
