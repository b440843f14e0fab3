"""Catastrophe in numbers: the Trick Marker, the card turned up and the captured cucumbers; its deals."""

from __future__ import annotations

from typing import Final, cast

from ...encoding import DealPlan, Encoding, common_observation, common_parts, relative
from ...encoding.hooks import action_table
from ...rules import Rules
from ...state import State
from ...views import PlayerView
from .rules import BONUS, CatastropheRules, Marker, cucumbers_on
from .scoring import starters
from .types import CatastropheView

__all__ = ["CatastropheEncoding"]

#: The Trick Marker's values in the order of the observation's `marker` part.
_MARKERS: Final = (Marker.HIGH, Marker.LOW, Marker.HIGH_BROKEN, Marker.LOW_BROKEN)


class CatastropheEncoding(Encoding):
    """Catastrophe's encoding.

    Example:
        >>> import cucumber_rules as cr
        >>> [name for name, _ in CatastropheEncoding().observation_parts(cr.ruleset("catastrophe"), 3)][-3:]
        ['marker', 'revealed', 'captured']
    """

    __slots__ = ()

    def observation_parts(self, rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
        """The common parts, then `marker` (4), `revealed` (a card id each) and `captured` (per seat)."""
        k = len(self.action_cards(rules))
        return (*common_parts(rules, players), ("marker", 4), ("revealed", k), ("captured", players))

    def observe(self, view: PlayerView) -> list[float]:
        """The common parts, then the Trick Marker, the card turned up and each seat's captured cucumbers."""
        v = cast("CatastropheView", view)
        rules = cast("CatastropheRules", v.rules)
        e = action_table(rules)  # `action_cards` and their ids, worked out once per rule set
        marker = [1.0 if v.marker == m else 0.0 for m in _MARKERS]
        revealed = [0.0] * len(e.cards)
        if v.revealed is not None:
            revealed[e.ids[v.revealed.index]] = 1.0
        per_seat = [float(sum([cucumbers_on(rules, c) for c in got])) for got in v.captured]  # noqa: C419 (a list: faster)
        me = v.seat if v.seat is not None else 0
        captured = relative(per_seat, me) if per_seat else [0.0] * len(v.players)
        out = common_observation(v)  # a new list: the game's parts are added to it in place
        out += marker
        out += revealed
        out += captured
        return out

    def deal_plan(self, state: State) -> DealPlan:
        """Every seat's hand, a stock card per trick with Surprise, the 5-cucumber cards kept in the hands
        with If You Can't Beat 'Em, and the starter drawn among tied seats."""
        rules = cast("CatastropheRules", state.match.rules)
        n = len(state.match.players)
        per = rules.cards_per_player(n)
        tied = starters(state)
        return DealPlan(
            (per,) * n,
            per if rules.surprise else 0,
            rules._plan.deck,
            rules._plan.fives if rules.cant_beat_em else (),
            tied if len(tied) > 1 else (),
        )

    def observation_bounds(self, rules: Rules, players: int) -> dict[str, tuple[float, float]]:
        """Totals and the hand from the rules (a hand's captured cards are at most the whole deck, and
        If You Can't Beat 'Em's bonus is the lowest a hand scores); the marker and the revealed card
        are flags.
        """
        c = cast("CatastropheRules", rules)
        every = float(sum(c.cucumbers))
        low = float(BONUS * c.hand_count) if c.cant_beat_em else 0.0
        flag = (0.0, 1.0)
        return {
            "totals": (low, every * c.hand_count),
            "round": (0.0, float(c.hand_count)),
            "captured": (0.0, every),
            "marker": flag,
            "revealed": flag,
        }
