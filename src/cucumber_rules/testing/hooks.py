"""What a game adds to its tests: the `Testing` hook group (`Game.testing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Decision
from ..cards import Card
from ..game import HookGroup
from ..rules import Rules
from ..state import State

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn

__all__ = ["Testing"]


class Testing(HookGroup):
    """The hook group `check_game` and the Hypothesis strategies ask: `Game.testing` (see `Game`).

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.GAMES["ladder"].testing).__name__, cr.Game.testing.decision_examples(0)
        ('LadderTesting', ())
    """

    __slots__ = ()
    attribute = "testing"  # (`Game.testing`)

    def draw_options(self, draw: DrawFn, base: Rules) -> dict[str, Any]:
        """Random valid option overrides of a preset, for Hypothesis (`testing.rules()`); default none."""
        return {}

    def round_cards(self, state: State) -> list[Card]:
        """The round's cards that are in no hand, no trick and not in the stock (Catastrophe: reveals).

        `check_game` counts them with the rest to check that every card is accounted for.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True, hand_size=2), players=3)
            >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
            >>> cr.GAMES["catastrophe"].testing.round_cards(s)
            [card('43')]
        """
        return []

    def decision_examples(self, seat: int) -> tuple[Decision, ...]:
        """Some decisions of `seat`, for `check_game` to try when none is due (default: none).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].testing.decision_examples(1)
            (Revive(seat=1, accept=True), Revive(seat=1, accept=False))
        """
        return ()

    def check_state(self, state: State) -> str | None:
        """A game's own invariants of a state (for `testing.check_game`): a failure message, or None.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> cr.GAMES["catastrophe"].testing.check_state(s) is None  # its captured cards are its tricks'
            True
        """
        return None
