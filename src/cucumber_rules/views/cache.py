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

Every record is a frozen value (or, for the two a view reads only when it is filled in, a named
tuple: one C call to make) holding only frozen values. A cache is never
changed in place: a new record replaces the old one in one slot store, so a
thread reading a cache sees a whole record, the old or the new. Two threads that
race compute equal records; either may stay. The one lazy field, a
`LazyScore`'s score, is likewise worked out whole and then stored in one step.
A view reaches only `TrickShared`, `Pending` and `LazyScore` values: public
pieces, never the state, the table, the match or the deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import attrs

from ..actions import Action, Deal, Play
from ..game import game_of
from ..history import History
from ..state import Match
from ..values import Value, builder, open_twin
from .hooks import Views
from .pending import LazyScore, Pending, TrickShared, lazy_score

if TYPE_CHECKING:
    from .events import Event

__all__ = [
    "LazyScore",
    "MatchViews",
    "Pending",
    "RoundLog",
    "TrickShared",
    "TrickViews",
    "ViewPlan",
    "lazy_score",
    "new_log",
    "new_match_views",
    "new_match_views_of",
    "new_trick_views",
    "view_plan",
    "with_head",
    "with_log",
    "with_own",
]

_setattr: Final = object.__setattr__


@attrs.frozen(weakref_slot=False)
class RoundLog(Value):
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


@attrs.frozen(weakref_slot=False)
class ViewPlan(Value):
    """What `view` asks of a match's game at every decision, looked up once per match value.

    The game's `Views` group, whether its view fields are the same for every seat, its view class
    and that class's open twin (`values.open_twin`, which `view` fills with plain stores).

    Example:
        >>> import cucumber_rules as cr
        >>> plan = view_plan(cr.new_game(cr.ruleset("agurk"), players=3).match)
        >>> plan.kind.__name__, plan.shared, issubclass(plan.twin, plan.kind)
        ('LadderView', True, True)
    """

    hooks: Views
    """The game's `Views` group."""
    shared: bool
    """Its `view_fields_shared`."""
    kind: type[Any]
    """The game's view class."""
    twin: type[Any]
    """The view class's open twin."""

    def __reduce__(self) -> tuple[Any, ...]:
        # (A twin is made at run time and has no importable name: a pickled match makes it anew.)
        return (_plan_of, (self.hooks, self.shared, self.kind))


@attrs.frozen(weakref_slot=False)
class MatchViews(Value):
    """What views share while the `Match` value is the same (kept on it as `Match._views`).

    A `Match` can outlive a round (until the next deal, or longer), and states of several
    branches share it: each entry names what it belongs to (`log.past`, `heads_deal`), and a new
    record replaces the old one whole, so views of any of these states, in any order and from
    several threads, read consistent entries.
    """

    score: LazyScore
    """The match's score for views."""
    plan: ViewPlan
    """What the views ask of the match's game."""
    log: RoundLog | None
    """The last trick's public events worked out."""
    heads_deal: Deal | None
    """The deal `heads` belong to."""
    heads: tuple[tuple[Event, ...] | None, ...]
    """By seat + 1 (0: the spectator): the deal's events as that viewer saw them, once worked out."""


@attrs.frozen(weakref_slot=False)
class TrickViews(Value):
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


#: Fast constructors (`values.builder`) of the records views read at every decision: slotted values
#: (a named tuple's field is read through a descriptor that Python does not specialise: slower).
new_trick_views: Final = builder(TrickViews)
new_log: Final = builder(RoundLog)
new_match_views_of: Final = builder(MatchViews)

#: `open_twin` of each view class (kept once made: the classes never change).
_TWINS: Final[dict[type[Any], type[Any]]] = {}


def _plan_of(hooks: Views, shared: bool, kind: type[Any]) -> ViewPlan:
    """A `ViewPlan` of these parts, with the view class's open twin (made once per class)."""
    twin = _TWINS.get(kind)
    if twin is None:
        twin = _TWINS.setdefault(kind, open_twin(kind))
    return ViewPlan(hooks, shared, kind, twin)


def view_plan(match: Match) -> ViewPlan:
    """What `view` asks of a match's game (its `ViewPlan`), found through `game_of`.

    Example:
        >>> import cucumber_rules as cr
        >>> view_plan(cr.new_game(cr.ruleset("catastrophe"), players=3).match).kind.__name__
        'CatastropheView'
    """
    game = game_of(match.rules)
    hooks = Views.of(game)
    return _plan_of(hooks, hooks.view_fields_shared, game.view_type)


def new_match_views(match: Match) -> MatchViews:
    """The views' record of a match value no view has seen yet.

    Example:
        >>> import cucumber_rules as cr
        >>> new_match_views(cr.new_game(cr.ruleset("agurk"), players=3).match).log is None
        True
    """
    return new_match_views_of(lazy_score(match), view_plan(match), None, None, ())


def with_log(memo: MatchViews, past: History[Action], done: int, tail: tuple[Event, ...],
             deal: Deal | None, skip: int | None) -> MatchViews:  # fmt: skip
    """`memo` with another `RoundLog`."""
    log = new_log(past, done, tail, deal, skip)
    return new_match_views_of(memo.score, memo.plan, log, memo.heads_deal, memo.heads)


def with_head(
    memo: MatchViews, deal: Deal, seats: int, seat: int | None, head: tuple[Event, ...]
) -> MatchViews:
    """`memo` with one viewer's events of `deal` (the others' kept if they are of the same deal)."""
    heads: list[tuple[Event, ...] | None] = (
        list(memo.heads) if memo.heads_deal is deal else [None] * (seats + 1)
    )
    heads[0 if seat is None else seat + 1] = head
    return new_match_views_of(memo.score, memo.plan, memo.log, deal, tuple(heads))


def with_own(per: TrickViews, extra: object, own: tuple[tuple[str, Any], ...]) -> TrickViews:
    """`per` with the game's shared view fields for `extra`."""
    return new_trick_views(per.past, per.held, per.match, per.deal, per.skip, per.shared, (extra, own))
