"""Statistics of simulations: win rates with Wilson intervals, numbers for JSON, and a game's `Stats`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import ClassVar

import attrs

from ..game import HookGroup
from ..state import State


def wilson(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Example:
        >>> low, high = wilson(30, 100)
        >>> round(low, 3), round(high, 3)
        (0.219, 0.396)
        >>> wilson(0, 0)
        (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / trials + z2 / (4 * trials * trials))) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


@attrs.frozen
class WinRate:
    """Wins out of games, with a 95% Wilson interval.

    A win shared by k winners counts 1/k for each, so `wins` can be fractional
    and the seats' win rates of a simulation add up to 1.

    Example:
        >>> r = WinRate(wins=30, games=100)
        >>> r.rate, f"{r.low:.3f}..{r.high:.3f}"
        (0.3, '0.219..0.396')
    """

    wins: float
    games: int

    @property
    def rate(self) -> float:
        """`wins / games` (0 for no games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def low(self) -> float:
        """The lower end of the 95% interval."""
        return wilson(self.wins, self.games)[0]

    @property
    def high(self) -> float:
        """The upper end of the 95% interval."""
        return wilson(self.wins, self.games)[1]

    def to_dict(self) -> dict[str, float]:
        """A JSON-ready dict: `wins` an int when whole, the rate and interval rounded to 6 decimals.

        Example:
            >>> WinRate(1, 4).to_dict()
            {'wins': 1, 'games': 4, 'rate': 0.25, 'low': 0.045587, 'high': 0.699358}
            >>> WinRate(1 / 3 + 1 / 3 + 1 / 2 + 7, 10).to_dict()["wins"]  # shared wins: 1/k each
            8.166667
        """
        return {
            "wins": _count(self.wins),
            "games": self.games,
            "rate": as_fraction(self.rate),
            "low": as_fraction(self.low),
            "high": as_fraction(self.high),
        }


#: The decimals every fraction of a JSON summary keeps (rates, interval ends, means, shared wins).
_DECIMALS = 6


def as_fraction(value: float) -> float:
    """A rate or a mean for JSON: a float rounded to `_DECIMALS` (`3.040446`, `4.0`).

    Example:
        >>> as_fraction(3.0404459991254917), as_fraction(4)
        (3.040446, 4.0)
    """
    return round(float(value), _DECIMALS)


def _count(value: float) -> float:
    """A count for JSON: an int when whole (`509`, not `509.0`); a count of shared wins stays a fraction.

    Example:
        >>> _count(509.0), _count(8.166666666666664)
        (509, 8.166667)
    """
    rounded = as_fraction(value)
    return int(rounded) if rounded.is_integer() else rounded


def summary_numbers(values: Mapping[str, float]) -> dict[str, float]:
    """`rounds_per_match()` or `penalty_summary()` for JSON: means and medians fractions, the rest counts."""
    return {k: as_fraction(v) if k in ("mean", "median") else _count(v) for k, v in values.items()}


class Stats(HookGroup):
    """The hook group of a game's statistics for simulation summaries: `Game.stats` (see `Game`).

    Example:
        >>> import cucumber_rules as cr
        >>> cr.GAMES["ladder"].stats.penalty_words
        'penalty paid for the last trick, per round'
    """

    __slots__ = ()
    attribute = "stats"  # (`Game.stats`)

    penalty_words: ClassVar[str] = "points per seat per round"
    """What `penalties` counts, in words."""

    def penalties(self, state: State) -> tuple[int, ...]:
        """What the finished rounds cost, for statistics (default: every seat's positive points).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> Stats().penalties(s)
            (13,)
        """
        return tuple(p for r in state.match.results for p in r.points if p > 0)
