"""What a fresh view keeps to fill its fields in from: public pieces only, and the match's lazy score.

A view reaches only these values (`Pending`, `TrickShared`, `LazyScore`): never the state, the
table, the match or the deal. `cache` keeps the records that make them, on the match and table.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

import attrs

from ..actions import Play
from ..game import game_of
from ..history import EMPTY
from ..state import Match, Trick, new_state
from ..values import Value, builder

if TYPE_CHECKING:
    from ..scoring import Score
    from .events import Event

__all__ = ["LazyScore", "Pending", "TrickShared", "lazy_score"]

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


TrickShared = tuple[
    tuple[str, ...],
    int,
    int,
    LazyScore,
    tuple[int, ...],
    "int | None",
    tuple[Trick, ...],
    int,
    tuple["Event", ...],
]
"""What every view of one trick shares and keeps until it is filled in, public pieces only, as a plain
tuple (made once a trick, read only when a view is filled in): `(players, first, dealer, score,
sizes, leader, tricks, number, tail)`, where `sizes` are the hand sizes at the trick's start,
`tricks` the round's completed tricks, `number` the round number and `tail` the round's public
events before the trick, but the deal's."""

Pending = tuple[
    TrickShared, tuple[Play, ...], tuple[Play, ...], tuple["Event", ...], tuple[tuple[str, Any], ...]
]
"""A fresh view's fields to fill in (`PlayerView._later`), public pieces only, as a plain tuple (made
at every decision, read only when the view is filled in): `(shared, held, trick, head, own)`,
where `held` are the viewer's plays at the trick's start (empty for a spectator), `trick` the
trick so far, `head` the round's deal as the viewer saw it and `own` the game's own view fields,
by name."""


def lazy_score(match: Match) -> LazyScore:
    """A match's `LazyScore` (its fields read now, the score worked out when first asked).

    Example:
        >>> import cucumber_rules as cr
        >>> lazy_score(cr.new_game(cr.ruleset("agurk"), players=3).match).get().totals
        (0, 0, 0)
    """
    kind = type(match)
    return LazyScore(kind, _match_parts(kind)[0](match))


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
