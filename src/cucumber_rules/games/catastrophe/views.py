"""What a Catastrophe view shows: the Trick Marker, revealed and captured cards, Surprise's reveals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...actions import Action, Deal, Play
from ...cards import Card
from ...rules import Rules
from ...sampling import check_folded
from ...scoring import Score
from ...serialization.format1 import Format1
from ...state import State, Trick
from ...views import Dealt, PlayerView, Views
from .folding import fold_results
from .scoring import score_problem
from .types import CatastropheTable, CatastropheView, Revealed

if TYPE_CHECKING:
    from ...views import Event

__all__ = ["CatastropheFormat1", "CatastropheViews", "captured_problem"]


class CatastropheViews(Views):
    """What a Catastrophe view shows beyond `PlayerView`'s fields, and its public history.

    Example:
        >>> type(CatastropheViews()).__name__, CatastropheViews.view_fields_shared
        ('CatastropheViews', True)
    """

    __slots__ = ()

    view_fields_shared: ClassVar[bool] = (
        True  # the table's revealed and captured cards, the marker in `extra`
    )

    def view_fields(self, state: State, seat: int | None) -> dict[str, Any]:
        """The Trick Marker, the revealed lead card and the captured cards."""
        table = cast("CatastropheTable | None", state.table)
        return {
            "revealed": None if table is None else table.revealed,
            "marker": state.extra,
            "captured": () if table is None else table.captured,
        }

    def public_events(self, actions: Sequence[Action], rules: Rules, seat: int | None) -> tuple[Event, ...]:
        """The public events, with Surprise Cucumber's reveals where they happen.

        The deal turns up `stock[0]`; after every `players` plays a new trick starts
        and turns up the next stock card, until the hand's tricks are played.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True), players=3)
            >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
            >>> [type(e).__name__ for e in CatastropheViews().public_events(s.actions, s.rules, 0)]
            ['Dealt', 'Revealed']
        """
        starts = [i for i, a in enumerate(actions) if type(a) is Deal]  # where each hand starts
        out: list[Event] = list(actions[: starts[0]] if starts else actions)
        for start, end in zip(starts, [*starts[1:], len(actions)], strict=False):  # (no end without a start)
            deal = cast("Deal", actions[start])
            hand = deal.hands[seat] if seat is not None else ()
            out.append(Dealt(hand, tuple([len(h) for h in deal.hands]), deal.leader))
            out.extend(
                self.round_events(rules, deal, 0, actions[start:end])
            )  # the hand's events (reveals too)
        return tuple(out)

    def round_events(
        self, rules: Rules, deal: Deal, done: int, actions: Sequence[Action]
    ) -> tuple[Event, ...]:
        """What `public_events` makes of `actions`, the hand's actions from its `done`-th (the deal: 0th) on.

        For a spectator, without the deal's `Dealt`. Without Surprise Cucumber each play is its own
        event. With it, the deal turns up `stock[0]` and each completed trick but the last the next
        stock card: the reveals depend only on the deal and the count of plays, so a view extends a
        hand's events by each trick's plays alone.

        Example:
            >>> import cucumber_rules as cr, random
            >>> rules = cr.ruleset("catastrophe", surprise=True)
            >>> s = cr.new_game(rules, players=3)
            >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
            >>> deal = s.actions[-1]
            >>> [type(e).__name__ for e in CatastropheViews().round_events(rules, deal, 0, [deal])]
            ['Revealed']
            >>> v = CatastropheViews()
            >>> v.round_events(rules, deal, 0, [deal]) == v.public_events([deal], rules, None)[1:]
            True
        """
        if not rules.surprise:
            return tuple(actions[1:] if done == 0 else actions)
        sizes = [len(h) for h in deal.hands if h]
        seats, tricks, stock = len(sizes), sizes[0], deal.stock
        out: list[Event] = []
        played = done - 1 if done else 0  # (the hand has no other actions than its plays)
        for action in actions:
            if action is deal:
                out.append(Revealed(stock[0]))
                continue
            out.append(action)
            if type(action) is Play:
                played += 1
                if played % seats == 0 and played // seats < tricks:
                    out.append(Revealed(stock[played // seats]))
        return tuple(out)

    def check_view(self, view: PlayerView) -> str | None:
        """A loaded view's captured cards are exactly the cards of the tricks each seat took; then its
        earlier hands are folded into the match without their cards and its current hand is checked.

        Each earlier hand's points must be ones its cards could score (`folding.HandCheck`: every
        seat's points the cucumbers of whole tricks' worth of the deck's cards, the seats' tricks
        adding up to the hand's); the engine then scores the hand, so the totals, the winners and
        the next starter are its own (`folding.fold_results`). The current hand is checked from
        there (`cucumber_rules.sampling.check_folded`). Whether an earlier hand could be
        played out card by card is left to `sample_world`, which rebuilds it.

        Example:
            >>> import attrs, random
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("catastrophe", hand_count=3), players=3)
            >>> rng = random.Random(2)
            >>> while s.match.rounds < 1 or s.to_act != 1:
            ...     moves = cr.legal_moves(s)
            ...     s = cr.apply(s, rng.choice(moves) if moves else cr.sample_chance(s, rng))
            >>> v = cr.view(s, 0)
            >>> CatastropheViews().check_view(v) is None
            True
            >>> odd = attrs.evolve(v.results[0], points=(99, 0, 0), totals=(99, 0, 0))
            >>> odd_view = attrs.evolve(v, results=(odd,), round_points=((99, 0, 0),))
            >>> print(CatastropheViews().check_view(odd_view))
            $.results[0].points[0]: 99 cucumbers cannot be captured in a hand of 3 players
        """
        v = cast("CatastropheView", view)
        if v.captured and len(v.captured) != len(v.players):
            return f"$.captured: must have one entry per seat ({len(v.players)}), not {len(v.captured)}"
        if v.captured or v.tricks:
            problem = captured_problem(v.tricks, v.captured, len(v.players))
            if problem is not None:
                return "$.captured: " + problem
        return check_folded(view, fold_results)

    def check_score(self, score: Score) -> str | None:
        """A loaded score's hands, totals, standings and winners as Catastrophe's scoring makes them
        (`scoring.score_problem`)."""
        return score_problem(score)

    def view_cards(self, view: PlayerView) -> list[Card]:
        """The revealed lead cards of the completed tricks and of the current one."""
        v = cast("CatastropheView", view)
        found = [t.revealed for t in v.tricks if t.revealed is not None]
        return found + ([v.revealed] if v.revealed is not None else [])


def captured_problem(tricks: Sequence[Trick], captured: tuple[tuple[Card, ...], ...], n: int) -> str | None:
    """Why the captured cards are not exactly the cards (and reveals) of the tricks each seat took."""
    won: list[list[int]] = [[] for _ in range(n)]
    for t in tricks:
        revealed = getattr(t, "revealed", None)
        if revealed is not None:
            won[t.taker].append(revealed.index)
        won[t.taker] += [p.card.index for p in t.plays]
    for s in range(n):
        cards = captured[s] if s < len(captured) else ()
        if sorted(c.index for c in cards) != sorted(won[s]):
            return f"seat {s} captured {[str(c) for c in cards]}, not the cards of the tricks it took"
    return None


class CatastropheFormat1(Format1):
    """What cucumber_rules 0.1 (JSON format 1) wrote in a Catastrophe document for the ladder's fields.

    Example:
        >>> sorted(CatastropheFormat1.unused["result"])
        ['card', 'eliminated', 'marks', 'payer', 'returned']
    """

    __slots__ = ()

    unused: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "view": {"sitting_out": [], "pending": []},
        "trick": {},
        "result": {"payer": None, "card": None, "marks": [], "eliminated": [], "returned": []},
    }
