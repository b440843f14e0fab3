"""Cucumber Catastrophe's rules: `CatastropheRules`, its options, preset, cucumbers per card and markers."""

from __future__ import annotations

import enum
import warnings
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

import attrs

from ...cards import DECKS, Card
from ...errors import InvalidRulesError
from ...options import as_int, int_problem
from ...rules import Rules, option

__all__ = [
    "ALIASES",
    "DEFAULT_CUCUMBERS",
    "MAX_CUCUMBERS",
    "PRESETS",
    "CatastrophePlan",
    "CatastropheRules",
    "Marker",
    "cucumbers_on",
]

#: The cucumbers per card by default (ruling 7): 5 on 5, 15, ..., 55; 1 on every other card.
DEFAULT_CUCUMBERS: Final[tuple[int, ...]] = tuple(5 if n % 10 == 5 else 1 for n in range(1, 61))

#: The most cucumbers one card may carry in the `cucumbers` table (each count is 0..MAX_CUCUMBERS).
#: Checking a view or state document (`loads`) and sampling hidden worlds (`sample_world`) take time
#: and memory in proportion to the counts (the sums of cucumbers a seat's captured cards can make),
#: so a small bound keeps a hostile document's refusal fast; a printed card carries at most a handful.
MAX_CUCUMBERS: Final = 100

#: Captured 5-cucumber cards that earn If You Can't Beat 'Em's -5.
BONUS_FIVES: Final = 4
BONUS: Final = -5


class Marker(enum.StrEnum):
    """The Trick Marker: which card takes the trick and what later players must play.

    The second card of a trick sets it: higher than the lead sets `HIGH`, lower
    sets `LOW`. A player who cannot obey plays any card and breaks it: the
    marker flips (`HIGH_BROKEN`: the lowest card wins; `LOW_BROKEN`: the
    highest) and later players play freely. Values compare equal to their
    strings (`Marker.HIGH == "high"`), which is how JSON writes them.

    Example:
        >>> Marker.HIGH == "high", Marker.HIGH_BROKEN.lowest_wins, Marker.LOW.label
        (True, True, 'Low: lowest wins')
    """

    HIGH = "high"
    LOW = "low"
    HIGH_BROKEN = "high-broken"
    LOW_BROKEN = "low-broken"

    @property
    def lowest_wins(self) -> bool:
        """True when the lowest card takes the trick (`LOW`, `HIGH_BROKEN`)."""
        return self in (Marker.LOW, Marker.HIGH_BROKEN)

    @property
    def broken(self) -> bool:
        """True once a player broke the rule (later players play freely)."""
        return self in (Marker.HIGH_BROKEN, Marker.LOW_BROKEN)

    @property
    def label(self) -> str:
        """How the marker reads at the table, e.g. `"High broken: lowest wins"`."""
        return _LABELS[self]


_LABELS: Final = {
    Marker.HIGH: "High: highest wins",
    Marker.LOW: "Low: lowest wins",
    Marker.HIGH_BROKEN: "High broken: lowest wins",
    Marker.LOW_BROKEN: "Low broken: highest wins",
}


def _counts(value: Any) -> Any:
    """A list or tuple of counts as a tuple, integers of any kind (numpy's included) made `int`;
    anything else is left for `validate` to refuse."""
    if not isinstance(value, list | tuple):
        return value
    out = []
    for x in value:
        try:
            out.append(as_int(x))
        except TypeError:  # (numpy's bool has an __index__ that refuses): left for `validate`
            out.append(x)
    return tuple(out)


@attrs.frozen
class CatastrophePlan:
    """The rules read once into plain values for the engine (private to the engine).

    Example:
        >>> from cucumber_rules import ruleset
        >>> [str(c) for c in ruleset("catastrophe")._plan.fives]
        ['5', '15', '25', '35', '45', '55']
    """

    deck: tuple[Card, ...]
    cucumbers: tuple[int, ...]
    """Cucumbers by card number (index 0 unused)."""
    five: tuple[bool, ...]
    """True at the number of each 5-cucumber card."""
    fives: tuple[Card, ...]
    others: tuple[Card, ...]
    total: int
    """The cucumbers of the whole deck."""
    below: tuple[int, ...]
    """How many of the deck's cards are below each card number 0..61 (the heuristic counts with it)."""
    liability: tuple[float, ...]
    """The heuristic's cost of keeping each card number: its cucumbers beyond one, plus up to 2 for
    the most extreme numbers (they tend to take tricks later)."""


@attrs.frozen(kw_only=True)
class CatastropheRules(Rules):
    """The rules of Cucumber Catastrophe and its variants.

    Example:
        >>> from cucumber_rules import ruleset
        >>> r = ruleset("catastrophe", surprise=True)
        >>> type(r).__name__, r.hand_count, r.surprise, r.cards_per_player(6)
        ('CatastropheRules', 4, True, 8)
    """

    game = "catastrophe"
    renamed: ClassVar[Mapping[str, str]] = {"hands": "hand_count"}
    surprise: bool = option(
        False, meaning="Surprise Cucumber: each trick's lead card is revealed from the stock"
    )
    cant_beat_em: bool = option(
        False,
        meaning="If You Can't Beat 'Em: all six 5-cucumber cards are in play; four or more "
        "captured in a hand score -5",
    )
    hand_count: int = option(4, meaning="hands in a match")
    cucumbers: tuple[int, ...] = option(
        DEFAULT_CUCUMBERS,
        meaning=f"cucumbers printed on cards 1..60 (60 counts, each 0..{MAX_CUCUMBERS})",
        converter=_counts,
    )
    """Cucumbers printed on each card 1..60: 60 counts, each from 0 to `MAX_CUCUMBERS` (100).

    The bound keeps checking documents (`loads`) and sampling hidden worlds (`sample_world`) fast:
    both do work in proportion to the counts."""
    _plan: CatastrophePlan = attrs.field(init=False, eq=False, hash=False, repr=False)
    """The engine's reading of these rules (frozen; derived, never part of the value or its JSON)."""

    def cards_per_player(self, players: int) -> int:
        """Cards dealt to each player: `hand_size`, fewer with Surprise Cucumber if the deck runs short.

        Example:
            >>> from cucumber_rules import ruleset
            >>> ruleset("catastrophe", surprise=True).cards_per_player(6)
            8
        """
        if self.surprise:
            return min(self.hand_size, len(DECKS[self.deck]) // (players + 1))
        return self.hand_size

    @property
    def hands(self) -> int:
        """Deprecated: `hand_count` (`hands` holds cards, as in `State.hands`)."""
        warnings.warn(
            "CatastropheRules.hands is deprecated: use hand_count", DeprecationWarning, stacklevel=2
        )
        return self.hand_count

    def validate(self) -> None:
        """Check Catastrophe's requirements: the numbered deck, 3 to 6 players, the cucumbers table.

        Raises:
            InvalidRulesError: Naming the offending option.

        Example:
            >>> from cucumber_rules import ruleset
            >>> ruleset("catastrophe", cucumbers=None)
            Traceback (most recent call last):
            ...
            cucumber_rules.errors.InvalidRulesError: cucumbers must list 60 counts, one for each card 1..60
        """
        deck_size = len(DECKS[self.deck])
        if self.deck != "numbered-60":
            raise InvalidRulesError("deck", f"catastrophe uses the numbered-60 deck, not {self.deck!r}")
        if self.hand_count < 1:
            raise InvalidRulesError("hand_count", f"hand_count must be at least 1, not {self.hand_count}")
        if self.min_players < 3 or self.max_players > 6:
            raise InvalidRulesError(
                "max_players" if self.max_players > 6 else "min_players", "catastrophe is for 3 to 6 players"
            )
        if type(self.cucumbers) is not tuple or len(self.cucumbers) != 60:
            raise InvalidRulesError("cucumbers", "cucumbers must list 60 counts, one for each card 1..60")
        for i, count in enumerate(self.cucumbers):
            if type(count) is not int or count < 0:
                raise InvalidRulesError(
                    "cucumbers", f"cucumbers[{i}] (card {i + 1}) must be an int >= 0, not {count!r}"
                )
            if count > MAX_CUCUMBERS:  # (work in loads and sample_world grows with the counts)
                shown = str(count) if int_problem(count) is None else "more than 2**53 - 1"
                raise InvalidRulesError(
                    "cucumbers", f"cucumbers[{i}] (card {i + 1}) must be at most {MAX_CUCUMBERS}, not {shown}"
                )
        # Each player must receive a hand (and, with Surprise, every trick needs a reveal).
        fives = sum(1 for count in self.cucumbers if count == 5)
        for players in range(self.min_players, self.max_players + 1):
            per = self.cards_per_player(players)
            needed = per * players + (per if self.surprise else 0)
            if per < 1 or needed > deck_size:
                raise InvalidRulesError(
                    "hand_size", f"{players} players x {self.hand_size} cards need {needed} of {deck_size}"
                )
            if self.cant_beat_em and per * players < fives:
                message = f"If You Can't Beat 'Em needs room in the hands for {fives} 5-cucumber cards"
                raise InvalidRulesError("cant_beat_em", message)

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        deck = DECKS[self.deck]
        cucumbers = (0, *self.cucumbers)
        five = tuple(count == 5 for count in cucumbers)
        plan = CatastrophePlan(
            deck=deck,
            cucumbers=cucumbers,
            five=five,
            fives=tuple(c for c in deck if five[c.rank]),
            others=tuple(c for c in deck if not five[c.rank]),
            total=sum(cucumbers[c.rank] for c in deck),
            below=tuple(sum(1 for c in deck if c.rank < x) for x in range(62)),
            liability=tuple((k - 1) + max(0.0, abs(r - 30.5) - 15.0) / 15.0 for r, k in enumerate(cucumbers)),
        )
        object.__setattr__(self, "_plan", plan)


def cucumbers_on(rules: CatastropheRules, card: Card) -> int:
    """The cucumbers printed on a card under these rules (the `cucumbers` option).

    Example:
        >>> from cucumber_rules import card, ruleset
        >>> cucumbers_on(ruleset("catastrophe"), card("25")), cucumbers_on(ruleset("catastrophe"), card("26"))
        (5, 1)
    """
    return rules._plan.cucumbers[card.rank]


PRESETS: Final = MappingProxyType(
    {
        "catastrophe": CatastropheRules(
            name="catastrophe", deck="numbered-60", min_players=3, max_players=6, hand_size=10,
            surprise=False, cant_beat_em=False, hand_count=4, cucumbers=DEFAULT_CUCUMBERS,
        ),
    }
)  # fmt: skip
"""The Catastrophe preset."""

ALIASES: Final = MappingProxyType({"cucumber-catastrophe": "catastrophe"})
"""Other names of the Catastrophe preset."""
