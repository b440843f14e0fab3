"""The ladder in tests: random options for Hypothesis, and the decisions `check_game` tries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import DECKS
from ...testing.hooks import Testing
from .types import Revive

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

    from ...actions import Decision
    from ...rules import Rules

__all__ = ["LadderTesting"]


class LadderTesting(Testing):
    """The ladder's test hooks.

    Example:
        >>> LadderTesting().decision_examples(1)
        (Revive(seat=1, accept=True), Revive(seat=1, accept=False))
    """

    __slots__ = ()

    def draw_options(self, draw: DrawFn, base: Rules) -> dict[str, Any]:
        """Random valid option overrides of a ladder preset (thresholds kept small so matches stay short).

        `round_limit` is sometimes a few rounds, so that matches ending at the limit are exercised.

        Example:
            >>> from hypothesis import given, settings, strategies as st
            >>> import cucumber_rules as cr
            >>> agurk = cr.ruleset("agurk")
            >>> @settings(max_examples=5, database=None)
            ... @given(st.composite(lambda draw: LadderTesting().draw_options(draw, agurk))())
            ... def test(options):
            ...     cr.ruleset("agurk", **options)
            >>> test()
        """
        from hypothesis import strategies as st

        def maybe(name: str, values: SearchStrategy[Any]) -> Any:
            return draw(values) if draw(st.booleans()) else getattr(base, name)

        deck = maybe("deck", st.sampled_from(["standard-52", "five-cucumbers-60"]))
        five = deck == "five-cucumbers-60"
        penalty = maybe("penalty", st.sampled_from(["card-value", "cucumbers"] if five else ["card-value"]))
        if not five:
            penalty = "card-value"
        doubling = maybe("doubling", st.sampled_from(["none", "per-one", "once"] if five else ["none"]))
        if not five:
            doubling = "none"
        most = len(DECKS[deck]) // base.max_players
        hand_size = min(maybe("hand_size", st.integers(1, most)), most)
        top = 45 if penalty == "card-value" else 8
        threshold = min(maybe("threshold", st.integers(1, top)), top)
        fixed_rounds = maybe("fixed_rounds", st.none() | st.integers(1, 4))
        limit = maybe("round_limit", st.none() | st.integers(1, 6))  # small: matches that reach it
        if fixed_rounds is not None:
            limit = None
        revival = maybe("revival", st.booleans())
        if fixed_rounds is not None or base.max_players < 3:
            revival = False
        return {
            "deck": deck,
            "penalty": penalty,
            "doubling": doubling,
            "hand_size": hand_size,
            "threshold": threshold,
            "fixed_rounds": fixed_rounds,
            "round_limit": limit,
            "revival": revival,
            "follow": maybe("follow", st.sampled_from(["optional-lowest", "forced-lowest"])),
            "ace_lead": maybe("ace_lead", st.booleans()),
            "tie_bonus": maybe("tie_bonus", st.booleans()),
            "lives": maybe("lives", st.integers(1, 3)),
            "next_leader": maybe("next_leader", st.sampled_from(["rotate", "penalized"])),
            "reverse": maybe("reverse", st.booleans()),
        }

    def decision_examples(self, seat: int) -> tuple[Decision, ...]:
        """Buying back in and staying out."""
        return (Revive(seat, True), Revive(seat, False))
