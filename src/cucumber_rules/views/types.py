"""The view values: `PlayerView` (what one seat may know), `Dealt` (a deal as one viewer saw it), `Event`."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from ..actions import Decision, Play
from ..cards import Card
from ..rules import Rules
from ..state import RoundResult, Trick, unplayed
from ..values import Value
from .events import Dealt, Event

if TYPE_CHECKING:
    from .pending import Pending

__all__ = ["Dealt", "Event", "PlayerView", "fill"]


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

    renamed: ClassVar[Mapping[str, str]] = {"rounds": "round_points"}
    """Fields JSON format 2 called otherwise (read by `loads`)."""
    retired: ClassVar[Mapping[str, Any]] = {"marks": 0, "eliminated": False}
    """Fields format 2 wrote for every game, with their value per seat where a game has none."""
    per_seat: ClassVar[tuple[str, ...]] = ()
    """The fields a game's view class adds that hold one value per seat (checked when loaded)."""
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
    winners: tuple[int, ...]
    """The winning seats; empty while the match runs."""
    standings: tuple[int, ...]
    """Every seat, best first."""
    round_points: tuple[tuple[int, ...], ...]
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

    @property
    def rounds(self) -> tuple[tuple[int, ...], ...]:
        """Deprecated: `round_points` (`rounds` counts rounds, as `Match.rounds` does)."""
        _moved("PlayerView.rounds", "PlayerView.round_points")
        return self.round_points

    @property
    def marks(self) -> tuple[int, ...]:
        """Deprecated: marks are the ladder's (`LadderView.marks`); other games' views have none."""
        _moved("PlayerView.marks", "LadderView.marks (other games have no marks)")
        return (0,) * len(self.players)

    @property
    def eliminated(self) -> tuple[bool, ...]:
        """Deprecated: eliminations are the ladder's (`LadderView.eliminated`)."""
        _moved("PlayerView.eliminated", "LadderView.eliminated (no one is eliminated in other games)")
        return (False,) * len(self.players)

    def __getattr__(self, name: str) -> Any:
        # Only reached for a field `view` left to be filled in (or a missing attribute: a private
        # name is never a field, and asking for one fills nothing in). Another thread may finish
        # filling the view in between the miss and the look at `_later`: the field is then read
        # again, never reported missing.
        if not name.startswith("_"):
            try:
                later = later_of(self)
            except AttributeError:  # built by __init__ (or loaded): every field is set
                later = None
            if later is not None:
                fill(self, later)
            try:
                return object.__getattribute__(self, name)
            except AttributeError:
                pass
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def _moved(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=3)


# --------------------------------------------------------------------------- what each game shows


later_of = _Deferred.__dict__["_later"].__get__

_setattr: Final = object.__setattr__


def fill(v: PlayerView, later: Pending) -> None:
    """Set the fields `view` left to be filled in, from the public pieces it kept (`later`).

    Every value is worked out before the first is set; `_later` is cleared last, so a thread that
    finds it cleared finds every field set.
    """
    shared, held, trick, head, own = later
    players, first, dealer, lazy, sizes, leader, tricks, number, tail = shared
    score = lazy.get()
    if trick:
        left = list(sizes)
        for p in trick:
            left[p.seat] -= 1
        sizes = tuple(left)
        held = unplayed(held, trick, v.seat)
    hand = tuple([p.card for p in held])
    events = head + tail + trick if trick else head + tail
    values = (
        players, first, hand, sizes, dealer, leader, trick, tricks,
        score.totals, score.winners, score.standings, score.round_points, score.results, number,
        events,
    )  # fmt: skip
    for set_field, value in zip(_FILL, values, strict=True):
        set_field(v, value)
    for name, value in own:
        _setattr(v, name, value)
    _set_later(v, None)


#: The slot setters of the fields `fill` sets, in its order (a view may be shared by threads by then,
#: so they are set through the slots, not with `values.open_twin`'s trick, which `view` uses).
_FILL: Final = tuple(
    PlayerView.__dict__[name].__set__
    for name in (
        "players", "first", "hand", "hand_sizes", "dealer", "leader", "trick", "tricks", "totals",
        "winners", "standings", "round_points", "results", "round_number", "events",
    )
)  # fmt: skip
_set_later: Final = _Deferred.__dict__["_later"].__set__
