"""The ladder in numbers: its revival decisions' action ids, its observation parts, its deals."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, cast

from ...encoding import DealPlan, Encoding, common_observation, common_parts
from ...encoding.hooks import action_table
from .rules import penalty_value, round_limit
from .types import LadderMatch, LadderView, Revive, dealt_seats

if TYPE_CHECKING:
    from ...actions import Decision
    from ...rules import Rules
    from ...state import State
    from ...views import PlayerView
    from .rules import LadderRules

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
        order = [*range(me, n), *range(me)]  # the seats from the viewer on (`relative`)
        eliminated, marks, sitting_out, pending = v.eliminated, v.marks, v.sitting_out, v.pending
        out = common_observation(v)  # a new list: the game's parts are added to it in place
        out += [1.0 if eliminated[s] else 0.0 for s in order]
        out += [float(marks[s]) for s in order]
        out += [1.0 if s in sitting_out else 0.0 for s in order]
        out += [1.0 if s in pending else 0.0 for s in order]
        return out

    def deal_plan(self, state: State) -> DealPlan:
        """The hand size to every seat dealt in; no stock."""
        m = cast("LadderMatch", state.match)
        seats = dealt_seats(m)
        sizes = tuple(m.rules.hand_size if s in seats else 0 for s in range(len(m.players)))
        return DealPlan(sizes, 0, m.rules._plan.deck)

    def observation_bounds(self, rules: Rules, players: int) -> dict[str, tuple[float, float]]:
        """Totals, the round and marks, from the rules; eliminations, seats sitting out and pending
        revivals are flags.

        A total grows by at most one round's penalty (the highest card's value, doubled by the 1s
        of the last trick); below the threshold, or for fixed rounds, it keeps growing; a total
        that reaches the threshold is put out or reset below it.
        """
        r = cast("LadderRules", rules)
        cards = action_table(rules).cards
        copies = max(Counter(c.index for c in r._plan.deck).values())
        most = max(penalty_value(r.penalty, rank) for rank in {c.rank for c in cards})
        ones = min(players, copies)  # a last trick holds at most this many 1s
        most <<= ones if r.doubling == "per-one" else 1 if r.doubling == "once" else 0
        rounds = round_limit(r, players)
        top = most * rounds if r.fixed_rounds is not None else r.threshold - 1 + most
        flag = (0.0, 1.0)
        return {
            "totals": (0.0, float(top)),
            "round": (0.0, float(rounds)),
            "marks": (0.0, float(r.lives)),
            "eliminated": flag,
            "sitting_out": flag,
            "pending": flag,
        }
