"""What each game's views show: the `Views` hook group (`Game.views`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, Deal
from ..cards import Card
from ..game import HookGroup
from ..rules import Rules
from ..state import State
from .types import Dealt, Event, PlayerView

if TYPE_CHECKING:
    from ..scoring import Score

__all__ = ["Views"]


class Views(HookGroup):
    """The hook group that says what a game's views show: `Game.views` (see `Game`).

    The defaults fit a game whose views show nothing beyond `PlayerView`'s fields and whose
    public history is its actions, a deal reduced to the viewer's `Dealt`. A game overrides
    what it shows more of (Catastrophe: the Trick Marker, revealed and captured cards).

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.GAMES["catastrophe"].views).__name__, cr.Game.views.view_fields_shared
        ('CatastropheViews', False)
    """

    __slots__ = ()
    attribute = "views"  # (`Game.views`)

    view_fields_shared: ClassVar[bool] = False
    """True if `view_fields` answers the same for every seat and the spectator, from the state's
    `match`, `table` and `extra` alone (both built-in games' do). Views then ask once per trick and
    value of `extra`, and share the answer. `check_game` holds a game to it: every seat's answer
    must be the spectator's, and every view's fields what `view_fields` says of its own state."""

    def view_fields(self, state: State, seat: int | None) -> dict[str, Any]:
        """The values of the fields the game's view class adds to `PlayerView`, as `seat` may see them.

        Views never change the dict they get. The values must be frozen (tuples, not lists):
        `check_game`'s `shareable` invariant says so.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> cr.GAMES["catastrophe"].views.view_fields(s, 0)
            {'revealed': None, 'marker': None, 'captured': ((), (), ())}
        """
        return {}

    def public_events(self, actions: Sequence[Action], rules: Rules, seat: int | None) -> tuple[Event, ...]:
        """The public events of a stretch of actions as `seat` saw them (deals reduced to `Dealt`).

        Example:
            >>> import cucumber_rules as cr
            >>> deal = cr.Deal(hands=[["2C"], ["3C"]])
            >>> cr.GAMES["ladder"].views.public_events([deal], cr.ruleset("gurka", hand_size=1), 0)
            (Dealt(hand=(card('2C'),), sizes=(1, 1), leader=None),)
        """
        out: list[Event] = []
        for action in actions:
            if type(action) is Deal:
                hand = action.hands[seat] if seat is not None else ()
                out.append(Dealt(hand, tuple(len(h) for h in action.hands), action.leader))
            else:
                out.append(action)
        return tuple(out)

    def round_events(
        self, rules: Rules, deal: Deal, done: int, actions: Sequence[Action]
    ) -> tuple[Event, ...] | None:
        """The public events of `actions` within `deal`'s round, worked out from them alone; None if not.

        Views extend the events of a round by each trick's new actions with it, instead of calling
        `public_events` on the whole round again. `actions` are the round's actions from its `done`-th
        on, counting its deal as the 0th (so with `done == 0` they start with `deal`); the answer is
        what `public_events` makes of them for a spectator, without the deal's `Dealt` (a seat's events
        may differ from a spectator's only by it). The default answers when the game keeps the
        default `public_events` (every other action is its own event), else None: a game that
        overrides `public_events` alone keeps its views right, at a cost that grows with the round.

        Example:
            >>> import cucumber_rules as cr
            >>> deal = cr.Deal(hands=[["2C"], ["3C"]])
            >>> rules = cr.ruleset("gurka", hand_size=1)
            >>> cr.GAMES["ladder"].views.round_events(rules, deal, 0, [deal, cr.Play(0, "2C")])
            (Play(seat=0, card=card('2C')),)
        """
        if type(self).public_events is Views.public_events:
            return tuple(actions[1:] if done == 0 else actions)
        return None

    def check_view(self, view: PlayerView) -> str | None:
        """Check a loaded view's own fields: `"$.path: message"` for the first problem, or None.

        Example:
            >>> import attrs, cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> v = cr.view(s, 0)
            >>> cr.GAMES["catastrophe"].views.check_view(v) is None
            True
            >>> cr.GAMES["catastrophe"].views.check_view(attrs.evolve(v, captured=((),)))
            '$.captured: must have one entry per seat (3), not 1'
        """
        return None

    def check_score(self, score: Score) -> str | None:
        """Check a loaded score against what the game's scoring can produce without its rules:
        `"$.path: message"` for the first problem, or None (default: nothing beyond the checks
        every score gets: seats, one entry per seat, rows matching results).

        Example:
            >>> import attrs, cucumber_rules as cr
            >>> sc = cr.score(cr.new_game(cr.ruleset("catastrophe"), players=3))
            >>> Views().check_score(sc) is None
            True
            >>> cr.GAMES["catastrophe"].views.check_score(attrs.evolve(sc, standings=(2, 1, 0)))
            '$.standings: must rank the seats by total, then best hand, then seat: [0, 1, 2]'
        """
        return None

    def view_cards(self, view: PlayerView) -> list[Card]:
        """The cards of the round a view shows beyond its hand and tricks (Catastrophe: revealed cards).

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True, hand_size=2), players=3)
            >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
            >>> cr.GAMES["catastrophe"].views.view_cards(cr.view(s, 0))  # the card turned up to lead
            [card('43')]
        """
        return []
