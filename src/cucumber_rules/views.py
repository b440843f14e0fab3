"""Player views: what one seat (or a spectator) may know about a match.

[`view`][cucumber_rules.view] builds a `PlayerView` by *listing what to
include*: the viewer's own hand, every hand's size, the current and completed
tricks, revealed cards, the Trick Marker, the scores, whose turn it is, the
viewer's legal moves and a public history of events. It never copies a
`State` and blanks fields, so a field added to `State` later cannot leak
through a view.

The history (`PlayerView.events` for the current round, `public_history` for
the whole match) holds the players' own actions (`Play`, `Revive`, which
everybody sees) and two event types of this module:

- `Dealt`: a deal as the viewer saw it: their own cards, how many cards each
  seat received and the announced starter. Other hands and the stock are not
  in it.
- `Revealed`: Surprise Cucumber's lead card turned up from the stock, at the
  moment it is turned.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import attrs

from .actions import Action, Deal, Play, Revive
from .cards import Card
from .engine import legal_moves, score
from .rules import Rules
from .state import Chain, RoundResult, State, Trick

__all__ = ["Dealt", "Event", "PlayerView", "Revealed", "public_history", "view"]


@attrs.frozen
class Dealt:
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


@attrs.frozen
class Revealed:
    """Surprise Cucumber: a trick's lead card turned up from the stock (an event).

    Example:
        >>> import cucumber_rules as cr, random
        >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True), players=3)
        >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
        >>> cr.view(s, None).events[1] == cr.Revealed(s.round.revealed)
        True
    """

    TAG: ClassVar[str] = "reveal"
    card: Card
    """The card revealed."""


Event = Dealt | Revealed | Play | Revive
"""Any event of a view's history: a seat's `Play` or `Revive`, a `Dealt` or a `Revealed`.

Example:
    >>> import cucumber_rules as cr
    >>> isinstance(cr.Play(0, "QS"), Event)
    True
"""


@attrs.frozen
class PlayerView:
    """What one seat (or a spectator) may know at a point of a match. Get one from `view`.

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
    revealed: Card | None
    """Surprise Cucumber: the current trick's revealed lead card."""
    marker: str | None
    """Catastrophe's Trick Marker: `"high"`, `"low"`, `"high-broken"`, `"low-broken"` or None."""
    tricks: tuple[Trick, ...]
    """The completed tricks of the current (or just finished) round."""
    captured: tuple[tuple[Card, ...], ...]
    """Catastrophe: the cards each seat has captured this hand (empty in the ladder games)."""
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
    """Every finished round in detail: who paid with which card, marks, eliminations."""
    round_number: int
    """The number of the round (hand) in play or just finished: the deals so far (0 before the first)."""
    sitting_out: tuple[int, ...]
    """Seats that bought back in and sit out the coming round (revival)."""
    pending: tuple[int, ...]
    """Seats that must still decide whether to buy back in (revival)."""
    legal: tuple[Play | Revive, ...]
    """The viewer's legal moves; empty when it is not their turn (and for a spectator)."""
    events: tuple[Event, ...]
    """The current round's public events, oldest first: its `Dealt`, `Revealed`, `Play` and
    `Revive` events (a view costs the same late in a long match; earlier rounds are
    summed up in `results`, and `public_history` gives the whole log)."""

    @property
    def is_over(self) -> bool:
        """True once the match has winners."""
        return self.to_act is None

    @property
    def is_spectator(self) -> bool:
        """True for a spectator's view (no seat)."""
        return self.seat is None


def _events(actions: Iterable[Action], rules: Rules, seat: int | None) -> tuple[Event, ...]:
    """The public events of `actions` for `seat`: deals reduced to what the viewer saw, reveals added."""
    surprise = bool(rules.surprise)
    out: list[Event] = []
    append = out.append
    # Surprise Cucumber: the deal turns up stock[0]; after every `seats` plays a new trick
    # starts and turns up the next stock card, until the hand's `tricks` tricks are played.
    stock: tuple[Card, ...] = ()
    seats = tricks = played = 0
    for action in actions:
        kind = type(action)
        if kind is Play:
            append(action)  # type: ignore[arg-type]
            if surprise:
                played += 1
                if played % seats == 0 and played // seats < tricks:
                    append(Revealed(stock[played // seats]))
        elif kind is Deal:
            deal: Deal = action  # type: ignore[assignment]
            hand = tuple(sorted(deal.hands[seat])) if seat is not None else ()
            append(Dealt(hand, tuple(len(h) for h in deal.hands), deal.leader))
            if surprise:
                sizes = [len(h) for h in deal.hands if h]
                seats, tricks, played, stock = len(sizes), sizes[0], 0, deal.stock
                append(Revealed(stock[0]))
        else:
            append(action)  # type: ignore[arg-type]
    return tuple(out)


def _current_round(history: Chain[Action]) -> list[Action]:
    """The actions since the last deal, that deal first (walks back only as far as that deal)."""
    out: list[Action] = []
    node: Chain[Action] | None = history
    while node:
        action: Action = node.last  # type: ignore[assignment]
        out.append(action)
        if type(action) is Deal:
            break
        node = node.rest
    out.reverse()
    return out


def _check_seat(state: State, seat: int | None) -> None:
    if not isinstance(state, State):
        raise TypeError(f"expected a State, not {type(state).__name__}")
    if seat is not None:
        n = len(state.players)
        if type(seat) is not int:
            raise TypeError(f"seat must be an int or None, not {type(seat).__name__}")
        if not 0 <= seat < n:
            raise ValueError(f"seat must be a seat 0..{n - 1} or None (spectator), not {seat}")


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
    _check_seat(state, seat)
    return _events(state.history, state.rules, seat)


def view(state: State, seat: int | None) -> PlayerView:
    """Return what `seat` may know about `state`; `seat=None` gives the spectator's view.

    The view holds the seat's own hand but only the *sizes* of the other
    hands, and never the stock or anything from which hidden cards could be
    derived.

    Args:
        state: The state to look at.
        seat: The viewer's seat, or None for a spectator.

    Returns:
        The frozen view.

    Raises:
        TypeError: If `state` is not a `State` or `seat` is neither an int nor None.
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
    _check_seat(state, seat)
    t = state.table
    m = state.match
    sc = score(state)
    hands = state.hands
    events = _events(_current_round(state.history), state.rules, seat)
    in_play = t is not None and (bool(state.trick) or any(hands))
    return PlayerView(
        rules=state.rules,
        players=state.players,
        seat=seat,
        first=state.first,
        hand=hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in hands),
        to_act=state.to_act,
        dealer=m.dealer,
        leader=t.leader if t is not None else None,
        trick=state.trick,
        revealed=t.revealed if t is not None else None,
        marker=state.marker,
        tricks=t.tricks if t is not None else (),
        captured=t.captured if t is not None else (),
        totals=sc.totals,
        marks=sc.marks,
        eliminated=sc.eliminated,
        winners=sc.winners,
        standings=sc.standings,
        rounds=sc.rounds,
        results=sc.results,
        round_number=m.rounds + 1 if in_play else m.rounds,
        sitting_out=m.sitting_out,
        pending=m.pending,
        legal=legal_moves(state) if seat is not None and state.to_act == seat else (),  # type: ignore[arg-type]
        events=events,
    )
