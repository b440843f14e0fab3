"""The events of a view's history: a deal as one viewer saw it (`Dealt`), and what an `Event` is."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..actions import Decision, Play
from ..cards import Card
from ..values import Value

__all__ = ["Dealt", "Event"]


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
