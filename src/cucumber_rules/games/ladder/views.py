"""What a ladder view shows beyond `PlayerView`: marks, eliminations, the revival rule's state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...sampling import check_folded
from ...scoring import Score
from ...serialization.format1 import Format1
from ...state import State
from ...views import PlayerView, Views
from .sampling import fold_results
from .scoring import score_problem
from .types import LadderMatch

__all__ = ["LadderFormat1", "LadderViews"]


class LadderViews(Views):
    """What a ladder view shows beyond `PlayerView`: marks, eliminations and the revival rule's state.

    Example:
        >>> import cucumber_rules as cr
        >>> LadderViews().view_fields(cr.new_game(cr.ruleset("agurk"), players=3), None)
        {'marks': (0, 0, 0), 'eliminated': (False, False, False), 'sitting_out': (), 'pending': ()}
    """

    __slots__ = ()

    view_fields_shared: ClassVar[bool] = True  # the match's, the same for every seat

    def view_fields(self, state: State, seat: int | None) -> dict[str, Any]:
        """The match's marks and eliminations, and the revival rule's public state."""
        m = state.match
        if TYPE_CHECKING:  # (a ladder state's match: `typing.cast` is a call, and views are many)
            assert isinstance(m, LadderMatch)
        return {
            "marks": m.marks,
            "eliminated": m.eliminated,
            "sitting_out": m.sitting_out,
            "pending": m.pending,
        }

    def check_view(self, view: PlayerView) -> str | None:
        """A loaded view's earlier results rebuilt into the match, then its current round checked.

        Only a round's last trick scores, so each result is rebuilt from a last trick alone
        (`sampling.score_round`), which the engine plays and scores: the result must be exactly the
        view's, and the match after it (totals, marks, eliminations, revivals, the next dealer) is
        the engine's (`sampling.fold_results`). The view's current round is then checked from there
        (`cucumber_rules.sampling.check_folded`). A round costs a handful of plays.

        Example:
            >>> import attrs
            >>> import cucumber_rules as cr
            >>> rules = cr.ruleset("gurka", hand_size=1)
            >>> s = cr.apply(cr.new_game(rules, players=2), cr.Deal(hands=[["9C"], ["2D"]]))
            >>> s = cr.apply_all(s, [cr.Play(0, "9C"), cr.Play(1, "2D"), cr.Deal(hands=[["3C"], ["KD"]])])
            >>> v = cr.view(s, 1)
            >>> LadderViews().check_view(v) is None
            True
            >>> late = attrs.evolve(v.results[0], payer=1)
            >>> print(LadderViews().check_view(attrs.evolve(v, results=(late,))))
            $.results[0].points: does not match what the ladder's scoring gives (expected [0, 9])
        """
        return check_folded(view, fold_results)

    def check_score(self, score: Score) -> str | None:
        """A loaded score's winners and standings as the ladder's scoring makes them
        (`scoring.score_problem`)."""
        return score_problem(score)


class LadderFormat1(Format1):
    """What cucumber_rules 0.1 (JSON format 1) wrote in a ladder document for Catastrophe's fields.

    Example:
        >>> LadderFormat1.unused["trick"]
        {'marker': None, 'revealed': None}
    """

    __slots__ = ()

    unused: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "view": {"revealed": None, "marker": None, "captured": []},
        "trick": {"marker": None, "revealed": None},
        "result": {},
    }
