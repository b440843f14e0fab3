"""Player views: what one seat (or a spectator) may know about a match.

[`view`][cucumber_rules.view] builds a `PlayerView` by *listing what to
include*: the viewer's own hand, every hand's size, the current and completed
tricks, the scores, whose turn it is, the viewer's legal moves and a public
history of events, plus what the game itself shows (its `Game.view_fields`:
Catastrophe's Trick Marker, revealed and captured cards; the ladder's revival
state). It never copies a `State` and blanks fields, so a field added to
`State` later cannot leak through a view. Each game has its own view class
(`LadderView`, `CatastropheView`) deriving from `PlayerView`.

The history (`PlayerView.events` for the current round, `public_history` for
the whole match) holds the players' own actions (`Play` and a game's decisions,
which everybody sees), `Dealt` events and the game's own events (Catastrophe's
`Revealed`). A `Dealt` is a deal as the viewer saw it: their own cards, how
many cards each seat received and the announced starter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from ._values import Value
from .actions import Deal, Decision, Play, seat_number
from .cards import Card
from .engine import legal_moves
from .rules import Rules
from .state import RoundResult, State, Trick

__all__ = ["Dealt", "Event", "PlayerView", "public_history", "view"]


@attrs.frozen
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


@attrs.frozen(kw_only=True)
class PlayerView(Value):
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

    if TYPE_CHECKING:  # a game's own fields, for type checkers (a class with __getattr__ is slower)

        def __getattr__(self, name: str) -> Any: ...


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
    seat = _check_seat(state, seat)
    game = state.game
    t = state.table
    m = state.match
    sc = game.score(state)
    hands = state.hands
    events = game.public_events(state.history.since(_is_deal), m.rules, seat)
    in_play = t is not None and (bool(state.trick) or any(hands))
    return game.view_type(
        rules=m.rules,
        players=m.players,
        seat=seat,
        first=m.first,
        hand=hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in hands),
        to_act=state.to_act,
        dealer=m.dealer,
        leader=t.leader if t is not None else None,
        trick=state.trick,
        tricks=t.tricks if t is not None else (),
        totals=sc.totals,
        marks=sc.marks,
        eliminated=sc.eliminated,
        winners=sc.winners,
        standings=sc.standings,
        rounds=sc.rounds,
        results=sc.results,
        round_number=m.rounds + 1 if in_play else m.rounds,
        legal=legal_moves(state) if seat is not None and state.to_act == seat else (),  # type: ignore[arg-type]
        events=events,
        **game.view_fields(state, seat),
    )
