"""What a simulation found: every match's `MatchResult`, and the `SimulationResult` that sums them up."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Mapping
from typing import Any

import attrs

from ..rules import RULESETS, Rules
from .stats import WinRate, as_fraction, summary_numbers


@attrs.frozen
class MatchResult:
    """The outcome of one simulated match.

    Example:
        >>> MatchResult(index=0, seed=1, bots=("random", "random"), winners=(1,), totals=(31, 4),
        ...             rounds=5, decisions=70, penalties=(9, 14, 4, 2, 6)).winners
        (1,)
    """

    index: int
    """The match's position in the simulation."""
    seed: int
    """The match's own seed (`match_seed(simulation seed, index)`)."""
    bots: tuple[str, ...]
    """The bot name in each seat."""
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    """Final totals per seat."""
    rounds: int
    """Rounds (Catastrophe: hands) played."""
    decisions: int
    """Player actions taken (deals not counted)."""
    penalties: tuple[int, ...]
    """Ladder: what the last trick cost its payer, per round. Catastrophe: each seat's cucumbers per hand."""


@attrs.frozen
class SimulationResult:
    """Every match of a simulation, in match order, and summaries of them.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.simulate import simulate
        >>> result = simulate(cr.ruleset("gurka"), players=2, bots="random", matches=4, seed=0)
        >>> result.bot_rates()["random"].games, len(result.penalty_distribution()) > 0
        (8, True)
    """

    rules: Rules
    players: int
    bots: tuple[str, ...]
    """The bot in each seat for match 0 (later matches rotate it when `rotate`)."""
    seed: int
    rotate: bool
    matches: tuple[MatchResult, ...]

    def seat_rates(self) -> tuple[WinRate, ...]:
        """The win rate of each seat.

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules.simulate import simulate
            >>> r = simulate(cr.ruleset("gurka"), players=2, bots="random", matches=2, seed=0)
            >>> [x.games for x in r.seat_rates()]
            [2, 2]
        """
        wins = [0.0] * self.players
        for m in self.matches:
            for w in m.winners:
                wins[w] += 1 / len(m.winners)
        return tuple(WinRate(w, len(self.matches)) for w in wins)

    def bot_rates(self) -> Mapping[str, WinRate]:
        """The win rate of each bot (a game is one seat in one match).

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules.simulate import simulate
            >>> r = simulate(cr.ruleset("gurka"), players=3, bots="heuristic,random", matches=3, seed=0)
            >>> sorted(r.bot_rates())
            ['heuristic', 'random']
        """
        wins: dict[str, float] = {}
        games: dict[str, int] = {}
        for m in self.matches:
            for seat, name in enumerate(m.bots):
                games[name] = games.get(name, 0) + 1
                if seat in m.winners:
                    wins[name] = wins.get(name, 0.0) + 1 / len(m.winners)
        return {name: WinRate(wins.get(name, 0.0), games[name]) for name in games}

    def rounds_per_match(self) -> dict[str, float]:
        """Mean, min and max rounds (Catastrophe: hands) per match.

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules.simulate import simulate
            >>> simulate(cr.ruleset("catastrophe"), players=3, bots="random", matches=2, seed=0
            ...          ).rounds_per_match()["mean"]
            4.0
        """
        rounds = [m.rounds for m in self.matches]
        if not rounds:
            return {"mean": 0.0, "min": 0.0, "max": 0.0}
        return {"mean": statistics.fmean(rounds), "min": float(min(rounds)), "max": float(max(rounds))}

    def penalty_distribution(self) -> dict[int, int]:
        """How often each penalty occurred, by value (see `MatchResult.penalties`).

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules.simulate import simulate
            >>> dist = simulate(cr.ruleset("agurk"), players=3, bots="random", matches=2, seed=0
            ...                 ).penalty_distribution()
            >>> all(2 <= value <= 14 for value in dist)
            True
        """
        counts = Counter(p for m in self.matches for p in m.penalties)
        return dict(sorted(counts.items()))

    def penalty_summary(self) -> dict[str, float]:
        """Count, mean, median, 90th percentile and max of the penalties.

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules.simulate import simulate
            >>> r = simulate(cr.ruleset("gurka"), players=2, bots="random", matches=2, seed=0)
            >>> s = r.penalty_summary()
            >>> s["min"] <= s["median"] <= s["max"]
            True
        """
        values = sorted(p for m in self.matches for p in m.penalties)
        if not values:
            return {"count": 0.0, "mean": 0.0, "min": 0.0, "median": 0.0, "p90": 0.0, "max": 0.0}
        return {
            "count": float(len(values)),
            "mean": statistics.fmean(values),
            "min": float(values[0]),
            "median": float(statistics.median(values)),
            "p90": float(values[min(len(values) - 1, math.ceil(0.9 * len(values)) - 1)]),
            "max": float(values[-1]),
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the CLI's `simulate --json`), without the per-match rows.

        Counts are ints (a count of shared wins may be a fraction), and rates,
        interval ends, means and medians are floats rounded to 6 decimals.

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules.simulate import simulate
            >>> r = simulate(cr.ruleset("gurka"), players=2, bots="random", matches=2, seed=0)
            >>> r.to_dict()["matches"]
            2
        """
        base = RULESETS.get(self.rules.name)
        mine = self.rules.options()
        theirs = base.options() if base is not None and type(base) is type(self.rules) else {}
        options = {name: value for name, value in mine.items() if name not in theirs or value != theirs[name]}
        return {
            "preset": self.rules.name,
            "options": options,
            "players": self.players,
            "bots": list(self.bots),
            "rotate": self.rotate,
            "seed": self.seed,
            "matches": len(self.matches),
            "rounds_per_match": summary_numbers(self.rounds_per_match()),
            "decisions_per_match": as_fraction(
                statistics.fmean(m.decisions for m in self.matches) if self.matches else 0
            ),
            "seat_win_rates": [r.to_dict() for r in self.seat_rates()],
            "bot_win_rates": {name: r.to_dict() for name, r in self.bot_rates().items()},
            "penalties": summary_numbers(self.penalty_summary()),
            "penalty_distribution": {str(k): v for k, v in self.penalty_distribution().items()},
        }
