"""What a game says about its numbers for machine learning: the `Encoding` hook group (`Game.encoding`)."""

from __future__ import annotations

from ..actions import Decision
from ..cards import DECKS, Card
from ..rules import Rules, game_of
from ..state import State
from ..views import PlayerView
from .chance import DealPlan, default_deal_plan
from .observations import common_observation, common_parts

__all__ = ["Encoding"]


class Encoding:
    """The hook group `cucumber_rules.encoding` asks: `Game.encoding` (see `Game`).

    The defaults fit a game whose actions are its deck's distinct cards, whose
    observation is the common layout (`encoding.common_parts`) and whose deals are
    uniform over its deck.

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.GAMES["ladder"].encoding).__name__
        'LadderEncoding'
        >>> len(cr.Game.encoding.action_cards(cr.ruleset("agurk")))
        52
    """

    __slots__ = ()

    def action_cards(self, rules: Rules) -> tuple[Card, ...]:
        """The cards a seat may play, in action-id order: ids `0..len-1` (default: each distinct card
        of `rules.deck`, in card order).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].encoding.action_cards(cr.ruleset("five-cucumbers"))[:3]
            (card('1'), card('2'), card('3'))
        """
        return tuple(dict.fromkeys(DECKS[rules.deck]))

    def action_decisions(self, rules: Rules, seat: int) -> tuple[Decision, ...]:
        """Every decision `seat` may take under `rules`, in action-id order after the cards (default:
        none). There must be as many for every seat.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].encoding.action_decisions(cr.ruleset("agurk", revival=True), 0)
            (Revive(seat=0, accept=True), Revive(seat=0, accept=False))
        """
        return ()

    def observation_parts(self, rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
        """The named parts of the observation vector, with sizes (default: `encoding.common_parts`).

        Example:
            >>> import cucumber_rules as cr
            >>> Encoding().observation_parts(cr.ruleset("gurka"), 2)[:2]
            (('hand', 52), ('seen', 52))
        """
        return common_parts(rules, players)

    def observe(self, view: PlayerView) -> list[float]:
        """A seat's view as the floats `observation_parts` lays out (`encoding.common_observation`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> parts = Encoding().observation_parts(s.rules, 2)
            >>> len(Encoding().observe(cr.view(s, 0))) == sum(size for _, size in parts)
            True
        """
        return common_observation(view)

    def deal_plan(self, state: State) -> DealPlan:
        """How the deal due now is made, for dealing it card by card (`encoding.DealPlan`).

        The default (`encoding.default_deal_plan`) fits deals that are uniform over `rules.deck`.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
            >>> plan = cr.GAMES["ladder"].encoding.deal_plan(s)
            >>> plan.hands, plan.stock, len(plan.deck)
            ((1, 1), 0, 52)
        """
        return default_deal_plan(game_of(state), state)

    def observation_bounds(self, rules: Rules, players: int) -> dict[str, tuple[float, float]]:
        """The lowest and highest value of the observation's parts whose range depends on the game's
        scoring (`totals`, `round`, the game's own parts), by part name (default: none known, so
        `encoding.observation_bounds` gives them `±UNKNOWN_BOUND`). Flags and card counts are known
        without the game.

        Example:
            >>> import cucumber_rules as cr
            >>> Encoding().observation_bounds(cr.ruleset("agurk"), 3)
            {}
            >>> ladder = cr.GAMES["ladder"].encoding
            >>> ladder.observation_bounds(cr.ruleset("gurka", fixed_rounds=10), 3)["totals"]
            (0.0, 140.0)
        """
        return {}
