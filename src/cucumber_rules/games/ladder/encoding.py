"""The ladder in numbers: its revival decisions' action ids, its observation parts, its deals."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...encoding import DealPlan, Encoding, common_observation, common_parts, relative
from .types import LadderMatch, LadderView, Revive, dealt_seats

if TYPE_CHECKING:
    from ...actions import Decision
    from ...rules import Rules
    from ...state import State
    from ...views import PlayerView

__all__ = ["LadderEncoding"]


class LadderEncoding(Encoding):
    """The ladder's encoding: revival decisions, and marks, eliminations, revivals in the observation.

    Example:
        >>> import cucumber_rules as cr
        >>> [name for name, _ in LadderEncoding().observation_parts(cr.ruleset("agurk"), 3)][-4:]
        ['eliminated', 'marks', 'sitting_out', 'pending']
    """

    __slots__ = ()

    def action_decisions(self, rules: Rules, seat: int) -> tuple[Decision, ...]:
        """With `revival`: buying back in, then staying out."""
        return (Revive(seat, True), Revive(seat, False)) if rules.revival else ()

    def observation_parts(self, rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
        """The common parts, then `eliminated`, `marks`, `sitting_out` and `pending` (per relative seat)."""
        extra = (("eliminated", players), ("marks", players), ("sitting_out", players), ("pending", players))
        return (*common_parts(rules, players), *extra)

    def observe(self, view: PlayerView) -> list[float]:
        """The common parts, then eliminations, cucumber marks, the seats sitting out and those to decide."""
        v = cast("LadderView", view)
        n = len(v.players)
        me = v.seat if v.seat is not None else 0
        out = [1.0 if gone else 0.0 for gone in v.eliminated]
        sitting = [1.0 if s in v.sitting_out else 0.0 for s in range(n)]
        pending = [1.0 if s in v.pending else 0.0 for s in range(n)]
        marks = [float(m) for m in v.marks]
        return [
            *common_observation(v),
            *relative(out, me),
            *relative(marks, me),
            *relative(sitting, me),
            *relative(pending, me),
        ]

    def deal_plan(self, state: State) -> DealPlan:
        """The hand size to every seat dealt in; no stock."""
        m = cast("LadderMatch", state.match)
        seats = dealt_seats(m)
        sizes = tuple(m.rules.hand_size if s in seats else 0 for s in range(len(m.players)))
        return DealPlan(sizes, 0, m.rules._plan.deck)
