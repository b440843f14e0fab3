"""What only the ladder games keep: their states, match, round results, score, views and the revival."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final

import attrs

from ...actions import Decision
from ...cards import Card
from ...scoring import Score
from ...state import Match, RoundResult, State
from ...values import exactly
from ...views import PlayerView

if TYPE_CHECKING:
    from .rules import LadderRules

__all__ = [
    "LadderMatch",
    "LadderResult",
    "LadderScore",
    "LadderState",
    "LadderView",
    "Revive",
    "dealt_seats",
]


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

    if TYPE_CHECKING:
        rules: LadderRules

    @property
    def eliminated(self) -> tuple[bool, ...]:
        """Per seat: eliminated and not (yet) back."""
        return tuple(map(bool, self.out))  # (`out` holds 0 or a round number)

    def is_out(self, seat: int) -> bool:
        """An eliminated seat is out, once it cannot buy back in (it is not deciding whether to).

        Example:
            >>> import cucumber_rules as cr
            >>> rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
            >>> s = cr.apply(cr.new_game(rules, players=3), cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
            >>> s = cr.apply_all(s, [cr.Play(0, "2C"), cr.Play(1, "3C"), cr.Play(2, "9S")])
            >>> s.match.is_out(2), cr.apply(s, cr.Revive(2, False)).match.is_out(2)
            (False, True)
        """
        return self.out[seat] != 0 and seat not in self.pending


class LadderState(State):
    """A state of a ladder match: `State`, with the ladder's reading `high`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["9C"], ["2D"]]))
        >>> type(s).__name__, s.high, cr.apply(s, cr.Play(0, "9C")).high
        ('LadderState', 0, 9)
    """

    __slots__ = ()

    if TYPE_CHECKING:
        match: LadderMatch

    @property
    def high(self) -> int:
        """The highest rank in the current trick (0 before its first card)."""
        best = self.best
        return 0 if best is None else best.card.rank


@attrs.frozen
class LadderResult(RoundResult):
    """A finished ladder round: who paid for the last trick with which card, marks and eliminations.

    Example:
        >>> from cucumber_rules import card
        >>> r = LadderResult(1, (0, 12, 0), (0, 12, 0), payer=1, card=card("QS"))
        >>> r.payer, r.card, r.went_out
        (1, card('QS'), ())
    """

    renamed: ClassVar[Mapping[str, str]] = {"marks": "marked", "eliminated": "went_out"}
    """Fields JSON format 2 called otherwise (read by `loads`)."""
    payer: int
    """The seat that paid for the last trick."""
    card: Card
    """The card whose value was paid (the highest card of the last trick)."""
    marked: tuple[int, ...] = ()
    """The seats that drew a cucumber mark in this round (and had their score reset)."""
    went_out: tuple[int, ...] = ()
    """The seats eliminated by this round."""
    returned: tuple[int, ...] = ()
    """The seats that came back from a revival with this round's end."""

    @property
    def marks(self) -> tuple[int, ...]:
        """Deprecated: `marked` (`marks` is a count per seat, as in `LadderScore.marks`)."""
        _moved("LadderResult.marks", "LadderResult.marked")
        return self.marked

    @property
    def eliminated(self) -> tuple[int, ...]:
        """Deprecated: `went_out` (`eliminated` is a flag per seat, as in `LadderScore.eliminated`)."""
        _moved("LadderResult.eliminated", "LadderResult.went_out")
        return self.went_out


def _moved(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=3)


@attrs.frozen(weakref_slot=False)
class LadderScore(Score):
    """A ladder match's score: `Score`, with cucumber marks and eliminations per seat.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.score(cr.new_game(cr.ruleset("agurk"), players=3))
        >>> type(s).__name__, s.marks, s.eliminated
        ('LadderScore', (0, 0, 0), (False, False, False))
    """

    per_seat: ClassVar[tuple[str, ...]] = ("marks", "eliminated")
    marks: tuple[int, ...] = ()
    """Cucumber marks per seat (Agurk's first-life warnings)."""
    eliminated: tuple[bool, ...] = ()
    """Per seat: out of the match."""

    if TYPE_CHECKING:  # (a ladder score's results are the ladder's)
        results: tuple[LadderResult, ...] = ()


@attrs.frozen(kw_only=True)
class LadderView(PlayerView):
    """A ladder seat's view: beside the common fields, the revival rule's public state.

    Example:
        >>> import cucumber_rules as cr
        >>> v = cr.view(cr.new_game(cr.ruleset("gurka", revival=True), players=3), 0)
        >>> type(v).__name__, v.marks, v.sitting_out, v.pending
        ('LadderView', (0, 0, 0), (), ())
    """

    per_seat: ClassVar[tuple[str, ...]] = ("marks", "eliminated")
    marks: tuple[int, ...]
    """Cucumber marks per seat (Agurk's first-life warnings)."""
    eliminated: tuple[bool, ...]
    """Per seat: out of the match."""
    sitting_out: tuple[int, ...]
    """Seats that bought back in and sit out the coming round (revival)."""
    pending: tuple[int, ...]
    """Seats that must still decide whether to buy back in (revival)."""


_ALL_SEATS: Final = tuple(tuple(range(n)) for n in range(8))


def dealt_seats(match: LadderMatch) -> tuple[int, ...]:
    """The seats that receive cards in the coming round: in play and not sitting out.

    Example:
        >>> import cucumber_rules as cr
        >>> dealt_seats(cr.new_game(cr.ruleset("agurk"), players=4).match)
        (0, 1, 2, 3)
    """
    if not match.sitting_out and not any(match.out):
        return _ALL_SEATS[len(match.out)]
    return tuple(s for s, out in enumerate(match.out) if out == 0 and s not in match.sitting_out)
