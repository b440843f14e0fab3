"""What only Cucumber Catastrophe keeps: its match, tables, tricks, views and the Revealed event."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from ...cards import Card
from ...state import Match, State, Table, Trick
from ...values import Value
from ...views import PlayerView
from .rules import Marker

if TYPE_CHECKING:
    from .rules import CatastropheRules

__all__ = [
    "CatastropheMatch",
    "CatastropheState",
    "CatastropheTable",
    "CatastropheTrick",
    "CatastropheView",
    "Revealed",
]


@attrs.frozen(kw_only=True)
class CatastropheMatch(Match):
    """A Catastrophe match: beside the common fields, who starts the next hand.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.new_game(cr.ruleset("catastrophe"), players=3, first=2).match.starter
        2
    """

    starter: int
    """The seat that starts the next hand when it is certain: `first` before the first hand, then
    the highest cumulative total; -1 when a tie leaves it to the deal (`Deal.leader`)."""

    if TYPE_CHECKING:
        rules: CatastropheRules


@attrs.frozen
class CatastropheTable(Table):
    """A Catastrophe hand's table: beside the common fields, the revealed lead and the captured cards.

    Example:
        >>> CatastropheTable((0, 1, 2), (1, 2, 0), 0, captured=((), (), ())).revealed is None
        True
    """

    revealed: Card | None = None
    """Surprise Cucumber: this trick's lead card, turned up from the stock."""
    captured: tuple[tuple[Card, ...], ...] = ()
    """The cards each seat has captured this hand."""

    if TYPE_CHECKING:  # (a Catastrophe hand's tricks are Catastrophe's)
        tricks: tuple[CatastropheTrick, ...] = ()


@attrs.frozen
class CatastropheTrick(Trick):
    """A completed Catastrophe trick, with its final Trick Marker and its revealed lead card.

    Example:
        >>> import cucumber_rules as cr
        >>> t = CatastropheTrick(0, (cr.Play(0, "22"), cr.Play(1, "30")), 1, marker=Marker.HIGH)
        >>> t.marker, t.revealed
        (<Marker.HIGH: 'high'>, None)
    """

    marker: Marker | None = None
    """The Trick Marker when the trick ended."""
    revealed: Card | None = None
    """Surprise Cucumber: the lead card revealed from the stock."""


@attrs.frozen(kw_only=True)
class CatastropheView(PlayerView):
    """A Catastrophe seat's view: beside the common fields, the marker, the revealed and captured cards.

    Example:
        >>> import cucumber_rules as cr
        >>> v = cr.view(cr.new_game(cr.ruleset("catastrophe"), players=3), 0)
        >>> type(v).__name__, v.marker, v.captured
        ('CatastropheView', None, ())
    """

    revealed: Card | None
    """Surprise Cucumber: the current trick's revealed lead card."""
    marker: Marker | None
    """The Trick Marker, or None before the trick's second card."""
    captured: tuple[tuple[Card, ...], ...]
    """The cards each seat has captured this hand."""

    if TYPE_CHECKING:  # (a Catastrophe view's tricks are Catastrophe's)
        tricks: tuple[CatastropheTrick, ...]


@attrs.frozen
class Revealed(Value):
    """Surprise Cucumber: a trick's lead card turned up from the stock (an event of a view).

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


class CatastropheState(State):
    """A state of a Catastrophe match: `State`, with its readings `marker` and `lead`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
        >>> s = cr.apply(s, cr.Play(0, "7"))
        >>> type(s).__name__, s.lead, s.marker, cr.apply(s, cr.Play(1, "9")).marker
        ('CatastropheState', card('7'), None, <Marker.HIGH: 'high'>)
    """

    __slots__ = ()

    if TYPE_CHECKING:
        match: CatastropheMatch
        table: CatastropheTable | None

    @property
    def marker(self) -> Marker | None:
        """The Trick Marker (`State.extra`); None before the trick's second card."""
        found: Marker | None = self.extra
        return found

    @property
    def lead(self) -> Card | None:
        """The trick's lead card (the revealed card in Surprise Cucumber); None before it."""
        table = self.table
        if table is not None and table.revealed is not None:
            return table.revealed
        return self.trick[0].card if self.trick else None
