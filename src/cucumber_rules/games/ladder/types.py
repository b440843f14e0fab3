"""What only the ladder games keep: their match, round results, views and the revival decision."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..._values import exactly
from ...actions import Decision
from ...cards import Card
from ...state import Match, RoundResult
from ...views import PlayerView

__all__ = ["LadderMatch", "LadderResult", "LadderView", "Revive"]


@attrs.frozen
class Revive(Decision):
    """An eliminated player's decision to buy back in (`accept=True`) or not (the revival rule).

    Example:
        >>> str(Revive(1, True))
        'seat 1 buys back in'
    """

    TAG: ClassVar[str] = "revive"
    accept: bool = attrs.field(validator=exactly(bool, "True or False"))

    def __str__(self) -> str:
        return f"seat {self.seat} " + ("buys back in" if self.accept else "stays out")


@attrs.frozen(kw_only=True)
class LadderMatch(Match):
    """A ladder match: beside the common fields, lives, eliminations and revivals, and the last payer.

    Example:
        >>> import cucumber_rules as cr
        >>> m = cr.new_game(cr.ruleset("agurk"), players=3).match
        >>> type(m).__name__, m.marks, m.out, m.payer
        ('LadderMatch', (0, 0, 0), (0, 0, 0), -1)
    """

    marks: tuple[int, ...]
    """Cucumber marks per seat: crossings of the threshold that cost a life but did not
    eliminate (Agurk's first-life warning); always below `lives`."""
    out: tuple[int, ...]
    """0 for a seat in play, else the round number that eliminated it."""
    revived: tuple[bool, ...]
    """Seats that have used their one revival."""
    sitting_out: tuple[int, ...] = ()
    """Seats that bought back in and sit out the coming round."""
    pending: tuple[int, ...] = ()
    """Seats that must decide whether to buy back in, in order."""
    payer: int = -1
    """Who paid for the last trick of the last round; -1 before any."""

    @property
    def eliminated(self) -> tuple[bool, ...]:
        """Per seat: eliminated and not (yet) back."""
        return tuple(map(bool, self.out))  # (`out` holds 0 or a round number)


@attrs.frozen
class LadderResult(RoundResult):
    """A finished ladder round: who paid for the last trick with which card, marks and eliminations.

    Example:
        >>> from cucumber_rules import card
        >>> r = LadderResult(1, (0, 12, 0), (0, 12, 0), payer=1, card=card("QS"))
        >>> r.payer, r.card, r.eliminated
        (1, card('QS'), ())
    """

    payer: int
    """The seat that paid for the last trick."""
    card: Card
    """The card whose value was paid (the highest card of the last trick)."""
    marks: tuple[int, ...] = ()
    """Seats that drew a cucumber mark (and had their score reset)."""
    eliminated: tuple[int, ...] = ()
    """Seats eliminated by this round."""
    returned: tuple[int, ...] = ()
    """Seats that came back from a revival with this round's end."""


@attrs.frozen(kw_only=True)
class LadderView(PlayerView):
    """A ladder seat's view: beside the common fields, the revival rule's public state.

    Example:
        >>> import cucumber_rules as cr
        >>> v = cr.view(cr.new_game(cr.ruleset("gurka", revival=True), players=3), 0)
        >>> type(v).__name__, v.sitting_out, v.pending
        ('LadderView', (), ())
    """

    sitting_out: tuple[int, ...]
    """Seats that bought back in and sit out the coming round (revival)."""
    pending: tuple[int, ...]
    """Seats that must still decide whether to buy back in (revival)."""
