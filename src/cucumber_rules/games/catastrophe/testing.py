"""Catastrophe in tests: random options for Hypothesis, its own invariants, the cards turned up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ...cards import Card
from ...rules import Rules
from ...state import State
from ...testing.hooks import Testing
from .types import CatastropheTable
from .views import captured_problem

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

__all__ = ["CatastropheTesting"]


class CatastropheTesting(Testing):
    """Catastrophe's test hooks.

    Example:
        >>> import cucumber_rules as cr
        >>> CatastropheTesting().round_cards(cr.new_game(cr.ruleset("catastrophe"), players=3))
        []
    """

    __slots__ = ()

    def draw_options(self, draw: DrawFn, base: Rules) -> dict[str, Any]:
        """Random valid option overrides: Surprise, If You Can't Beat 'Em, hands, hand size, cucumbers tables.

        Example:
            >>> from hypothesis import given, settings, strategies as st
            >>> import cucumber_rules as cr
            >>> base = cr.ruleset("catastrophe")
            >>> @settings(max_examples=5, database=None)
            ... @given(st.composite(lambda draw: CatastropheTesting().draw_options(draw, base))())
            ... def test(options):
            ...     assert cr.ruleset("catastrophe", **options).game == "catastrophe"
            >>> test()
        """
        from hypothesis import strategies as st

        def maybe(name: str, values: SearchStrategy[Any]) -> Any:
            return draw(values) if draw(st.booleans()) else getattr(base, name)

        cucumbers = base.cucumbers
        if draw(st.booleans()):
            fives = draw(st.sets(st.integers(0, 59), max_size=6))
            counts = draw(st.lists(st.integers(0, 4), min_size=60, max_size=60))
            cucumbers = tuple(5 if i in fives else counts[i] for i in range(60))
        return {
            "surprise": maybe("surprise", st.booleans()),
            "cant_beat_em": maybe("cant_beat_em", st.booleans()),
            "hand_count": maybe("hand_count", st.integers(1, 4)),
            "hand_size": maybe("hand_size", st.integers(2, 10)),
            "cucumbers": cucumbers,
        }

    def check_state(self, state: State) -> str | None:
        """The captured cards are exactly the cards (and reveals) of the tricks each seat took."""
        table = cast("CatastropheTable | None", state.table)
        if table is None:
            return None
        return captured_problem(table.tricks, table.captured, len(state.match.players))

    def round_cards(self, state: State) -> list[Card]:
        """The revealed lead cards (Surprise Cucumber): turned up from the stock, not from a hand."""
        table = cast("CatastropheTable | None", state.table)
        if table is None:
            return []
        found = [t.revealed for t in table.tricks if t.revealed is not None]
        return found + ([table.revealed] if table.revealed is not None else [])
