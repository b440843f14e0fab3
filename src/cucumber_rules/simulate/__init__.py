"""Bots against bots at scale: seeded matches, win rates with confidence intervals.

[`simulate`][cucumber_rules.simulate.simulate] plays many matches between bots
and summarises them. Every match draws its randomness from its own seed,
derived from the simulation's seed and the match's index, and the results are
aggregated in match order, so a simulation gives the same result however many
workers run it. Give it any `concurrent.futures.Executor` (a process pool, a
`dask.distributed` client's executor, ...) to spread the matches.

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules.simulate import simulate
    >>> result = simulate(cr.ruleset("gurka"), players=3, bots=["heuristic", "random"], matches=6, seed=1)
    >>> len(result.matches), round(sum(r.wins for r in result.seat_rates()), 6)
    (6, 6.0)
"""

from __future__ import annotations

from .play import match_seed, play_match, play_steps
from .results import MatchResult, SimulationResult
from .run import run_matches, simulate
from .stats import Stats, WinRate, wilson

__all__ = [
    "MatchResult",
    "SimulationResult",
    "Stats",
    "WinRate",
    "match_seed",
    "play_match",
    "play_steps",
    "run_matches",
    "simulate",
    "wilson",
]
