"""What a game draws in the pictures: the `Pictures` hook group and the `Badge` beside a trick."""

from __future__ import annotations

import attrs

from ..cards import Card
from ..game import HookGroup
from ..rules import Rules
from ..state import RoundResult, Trick
from ..views import PlayerView

__all__ = ["Badge", "Pictures"]


@attrs.frozen
class Badge:
    """A sign a picture draws beside a trick: Catastrophe's Trick Marker (see `Pictures.trick_extras`).

    Example:
        >>> b = Badge("HIGH", "▲", "highest wins", "Trick Marker High", "high", "high")
        >>> b.struck, b.side
        (False, 'high')
    """

    word: str
    """The big word on the badge (`"HIGH"`, or `"?"` while unset)."""
    arrow: str
    """A small sign under it (`"▲"`), or empty."""
    meaning: str
    """A caption under the badge (`"broken: lowest wins"`)."""
    text: str
    """What it says, for screen readers."""
    key: str | None
    """A value for the picture's `data-` attribute and styling (`"high-broken"`); None when unset."""
    side: str | None
    """Which of the game's sides it shows (picks the colour: `"high"`, `"low"`); None when unset."""
    struck: bool = False
    """Crossed out (Catastrophe: a broken rule)."""


class Pictures(HookGroup):
    """The hook group of what a game draws: `Game.pictures` (see `Game`).

    The defaults draw plain cards, points, no badge and no notes.

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.GAMES["catastrophe"].pictures).__name__, cr.Game.pictures.points_word(cr.ruleset("agurk"))
        ('CatastrophePictures', 'points')
    """

    __slots__ = ()
    attribute = "pictures"  # (`Game.pictures`)

    def card_icons(self, rules: Rules, card: Card) -> int:
        """How many cucumbers are printed on a card's face (default: none).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].pictures.card_icons(cr.ruleset("catastrophe"), cr.card("55"))
            5
        """
        return 0

    def points_word(self, rules: Rules) -> str:
        """What the totals count, in one word (`"points"`; Five Cucumbers and Catastrophe: `"cucumbers"`).

        Example:
            >>> import cucumber_rules as cr
            >>> [cr.GAMES["ladder"].pictures.points_word(cr.ruleset(p)) for p in ("agurk", "five-cucumbers")]
            ['points', 'cucumbers']
        """
        return "points"

    def trick_extras(self, source: Trick | PlayerView) -> tuple[Card | None, Badge | None]:
        """What a picture shows beside a trick's plays: a card turned up from the stock and a badge.

        `source` is a completed trick, or a view for the trick in progress. Default: neither.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> s = cr.apply_all(s, [cr.Play(0, "30"), cr.Play(1, "31"), cr.Play(2, "20")])
            >>> card, badge = cr.GAMES["catastrophe"].pictures.trick_extras(s.table.tricks[0])
            >>> card, badge.meaning  # 31 set High, 20 broke it
            (None, 'broken: lowest wins')
        """
        return None, None

    def seat_note(self, view: PlayerView, seat: int) -> str:
        """A note a picture shows beside a seat's hand (Catastrophe: what it has captured); default none.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> s = cr.apply_all(s, [cr.Play(0, "30"), cr.Play(1, "31"), cr.Play(2, "20")])
            >>> cr.GAMES["catastrophe"].pictures.seat_note(cr.view(s, 0), 2)
            'captured 3 cards, 3 cucumbers'
        """
        return ""

    def is_out(self, view: PlayerView, seat: int) -> bool:
        """True for a seat out of the match, drawn as "out" (the ladder's eliminations); default never.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.Game.pictures.is_out(cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0), 1)
            False
        """
        return False

    def total_note(self, view: PlayerView, seat: int) -> str:
        """Text after a seat's total (the ladder: `", 1 mark ✱"` for a cucumber mark); default none.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.Game.pictures.total_note(cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0), 1)
            ''
        """
        return ""

    def results_note(self, view: PlayerView) -> str:
        """A line under the results table (the ladder: who has cucumber marks); default none.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.Game.pictures.results_note(cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0))
            ''
        """
        return ""

    def result_note(self, result: RoundResult, seat: int) -> str:
        """A mark after a seat's points in a results table (the ladder: ` ✱` for a cucumber mark).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> cr.Game.pictures.result_note(s.match.results[0], 1)
            ''
        """
        return ""
