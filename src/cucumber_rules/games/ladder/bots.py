"""The ladder's bot knowledge and statistics: its heuristic, and what a round cost."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, cast

from ...actions import Action, Play
from ...bots import Bots
from ...simulate import Stats
from .types import LadderResult, Revive

if TYPE_CHECKING:
    from ...state import State
    from ...views import PlayerView

__all__ = ["LadderBots", "LadderStats"]


class LadderBots(Bots):
    """The ladder's heuristic: only the last trick costs, and the highest card takes it.

    Example:
        >>> type(LadderBots()).__name__
        'LadderBots'
    """

    __slots__ = ()

    def heuristic(self, view: PlayerView, rng: random.Random, *, caution: float = 1.0) -> Action:
        """Only the last trick costs, and it goes to the highest card: play the highest legal card.

        It sheds high cards while tricks are free, forces the others to throw their
        low cards when it leads high, keeps its lowest card for the end, and always
        buys back in when the revival rule offers it.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
            >>> LadderBots().heuristic(cr.view(s, 0), random.Random(1))
            Play(seat=0, card=card('KS'))
        """
        legal = view.legal
        if legal and type(legal[0]) is Play:  # plays only (sorted, one seat's: by card): the highest is last
            return legal[-1]
        revivals = [a for a in legal if isinstance(a, Revive)]  # else the revival decisions
        if revivals:
            return next((a for a in revivals if a.accept), revivals[0])
        return rng.choice(legal)


class LadderStats(Stats):
    """The ladder's statistics: what the last trick cost its payer, per round.

    Example:
        >>> LadderStats.penalty_words
        'penalty paid for the last trick, per round'
    """

    __slots__ = ()

    penalty_words: ClassVar[str] = "penalty paid for the last trick, per round"

    def penalties(self, state: State) -> tuple[int, ...]:
        """What the last trick cost its payer, per finished round.

        Example:
            >>> import cucumber_rules as cr
            >>> LadderStats().penalties(cr.new_game(cr.ruleset("agurk"), players=3))
            ()
        """
        results = cast("tuple[LadderResult, ...]", state.match.results.items())
        return tuple(r.points[r.payer] for r in results)
