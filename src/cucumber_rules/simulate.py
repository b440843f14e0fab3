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

import hashlib
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from typing import Any, ClassVar

import attrs

from .actions import Action, Deal, seat_number
from .bots import Bot, resolve_bots
from .engine import apply, new_game, sample_chance, score
from .rules import RULESETS, Rules, game_of
from .state import CHANCE, State

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


def match_seed(seed: int, index: int) -> int:
    """The seed of match `index` of a simulation seeded with `seed`.

    Derived with SHA-256, so neighbouring seeds and indexes give unrelated matches,
    and the result does not depend on the Python version or hash randomisation.

    Example:
        >>> match_seed(7, 0) == match_seed(7, 0) != match_seed(7, 1)
        True
    """
    digest = hashlib.sha256(f"cucumber_rules:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _rngs(seed: int) -> tuple[random.Random, random.Random]:
    """Separate generators for the deals and the bots, so the deals do not depend on the bots."""
    return random.Random(match_seed(seed, -1)), random.Random(match_seed(seed, -2))


def play_steps(
    rules: Rules,
    bots: Sequence[Bot],
    *,
    seed: int,
    players: Sequence[str] | None = None,
    first: int = 0,
    state: State | None = None,
) -> Iterator[tuple[State, Action, State]]:
    """Play a match between bots, yielding `(before, action, after)` for every action.

    Deals are drawn with one generator and the bots' choices with another, both
    derived from `seed`. Each bot sees only its own `PlayerView`.

    Args:
        rules: The rules.
        bots: One bot per seat.
        seed: The match's seed.
        players: Seat names (default `"seat 0"`, ...).
        first: The seat that leads the first trick.
        state: Continue from this state instead of starting a new match.

    Yields:
        The state before, the action, and the state after, until the match is over.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.bots import RandomBot
        >>> steps = list(play_steps(cr.ruleset("gurka"), [RandomBot(), RandomBot()], seed=3))
        >>> steps[0][1].TAG, steps[-1][2].is_over
        ('deal', True)
    """
    from .views import view

    if state is None:
        state = new_game(rules, len(bots) if players is None else players, first=first)
    if len(bots) != len(state.players):
        raise ValueError(f"{len(bots)} bots for {len(state.players)} players")
    deal_rng, bot_rng = _rngs(seed)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        if seat == CHANCE:
            action = sample_chance(state, deal_rng)
        else:
            action = bots[seat].choose(view(state, seat), bot_rng)
        after = apply(state, action)
        yield state, action, after
        state = after


def play_match(rules: Rules, bots: Sequence[Bot], *, seed: int, first: int = 0) -> State:
    """Play a whole match between bots and return the final state.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.bots import HeuristicBot, RandomBot
        >>> final = play_match(cr.ruleset("agurk"), [HeuristicBot(), RandomBot(), RandomBot()], seed=2)
        >>> final.is_over, len(cr.score(final).winners)
        (True, 1)
    """
    from .views import view

    state = new_game(rules, len(bots), first=first)
    deal_rng, bot_rng = _rngs(seed)  # as `play_steps` draws them
    choose = [bot.choose for bot in bots]
    while state.to_act is not None:
        seat = state.to_act
        if seat == CHANCE:
            state = apply(state, sample_chance(state, deal_rng))
        else:
            state = apply(state, choose[seat](view(state, seat), bot_rng))
    return state


# --------------------------------------------------------------------------- results


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
            "rate": _fraction(self.rate),
            "low": _fraction(self.low),
            "high": _fraction(self.high),
        }


#: The decimals every fraction of a JSON summary keeps (rates, interval ends, means, shared wins).
_DECIMALS = 6


def _fraction(value: float) -> float:
    """A rate or a mean for JSON: a float rounded to `_DECIMALS` (`3.040446`, `4.0`).

    Example:
        >>> _fraction(3.0404459991254917), _fraction(4)
        (3.040446, 4.0)
    """
    return round(float(value), _DECIMALS)


def _count(value: float) -> float:
    """A count for JSON: an int when whole (`509`, not `509.0`); a count of shared wins stays a fraction.

    Example:
        >>> _count(509.0), _count(8.166666666666664)
        (509, 8.166667)
    """
    rounded = _fraction(value)
    return int(rounded) if rounded.is_integer() else rounded


def _summary_numbers(values: Mapping[str, float]) -> dict[str, float]:
    """`rounds_per_match()` or `penalty_summary()` for JSON: means and medians fractions, the rest counts."""
    return {k: _fraction(v) if k in ("mean", "median") else _count(v) for k, v in values.items()}


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


def _penalties(state: State) -> tuple[int, ...]:
    """What the finished rounds cost, in the game's terms (`Stats.penalties`)."""
    return game_of(state).stats.penalties(state)


def _run_one(rules: Rules, lineup: Sequence[Bot], seed: int, index: int) -> MatchResult:
    own_seed = match_seed(seed, index)
    final = play_match(rules, lineup, seed=own_seed)
    actions = final.history.items()
    decisions = len(actions) - list(map(type, actions)).count(Deal)  # (every action but the deals, in C)
    final_score = score(final)
    return MatchResult(
        index=index,
        seed=own_seed,
        bots=tuple(b.name for b in lineup),
        winners=final_score.winners,
        totals=final_score.totals,
        rounds=final.match.rounds,
        decisions=decisions,
        penalties=_penalties(final),
    )


def _lineup(bots: Sequence[Bot], index: int, rotate: bool) -> tuple[Bot, ...]:
    if not rotate:
        return tuple(bots)
    n = len(bots)
    shift = index % n
    return tuple(bots[(seat - shift) % n] for seat in range(n))


def run_matches(
    rules: Rules, bots: Sequence[Bot], seed: int, start: int, stop: int, rotate: bool = True
) -> list[MatchResult]:
    """Play matches `start..stop-1` of a simulation (the unit of work sent to an executor).

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.bots import RandomBot
        >>> [r.index for r in run_matches(cr.ruleset("gurka"), [RandomBot()] * 2, 0, 3, 5)]
        [3, 4]
    """
    return [_run_one(rules, _lineup(bots, i, rotate), seed, i) for i in range(start, stop)]


@attrs.frozen
class SimulationResult:
    """Every match of a simulation, in match order, and summaries of them.

    Example:
        >>> import cucumber_rules as cr
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
            "rounds_per_match": _summary_numbers(self.rounds_per_match()),
            "decisions_per_match": _fraction(
                statistics.fmean(m.decisions for m in self.matches) if self.matches else 0
            ),
            "seat_win_rates": [r.to_dict() for r in self.seat_rates()],
            "bot_win_rates": {name: r.to_dict() for name, r in self.bot_rates().items()},
            "penalties": _summary_numbers(self.penalty_summary()),
            "penalty_distribution": {str(k): v for k, v in self.penalty_distribution().items()},
        }


# --------------------------------------------------------------------------- simulate


def simulate(
    rules: Rules,
    players: int = 4,
    bots: str | Bot | Sequence[str | Bot] = "random",
    matches: int = 100,
    seed: int = 0,
    executor: Executor | None = None,
    *,
    rotate: bool = True,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play `matches` matches between bots and collect the results.

    Match `i` is seeded with `match_seed(seed, i)`, and with `rotate` its seats
    are the bot list shifted by `i` places, so every bot sits in every seat
    equally often. The result does not depend on the executor or on how many
    workers it has.

    Args:
        rules: The rules, e.g. `cr.ruleset("agurk")`.
        players: The number of players.
        bots: A bot or bot name, or a list of them (one per seat; a shorter list is
            filled with its last bot), or a comma-separated string of names.
        matches: How many matches to play.
        seed: The simulation's seed.
        executor: Any `concurrent.futures.Executor` to run the matches on (for example a
            `ProcessPoolExecutor`, or `distributed.Client(...).get_executor()`); None runs
            them in this process. The rules and bots must be picklable.
        rotate: Rotate the bots round the seats from match to match.
        chunk_size: Matches per task sent to the executor (default: about 1/16 of them, at most 100).
        progress: Called with the number of matches finished so far, as chunks finish.

    Returns:
        The results, in match order.

    Raises:
        InvalidRulesError: If the player count does not fit the rules.
        ValueError: For an unknown bot, more bots than players, or a negative number of matches.

    Example:
        >>> import cucumber_rules as cr
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> rules = cr.ruleset("five-cucumbers")
        >>> alone = simulate(rules, players=3, bots=["heuristic", "random"], matches=8, seed=5)
        >>> with ThreadPoolExecutor(2) as pool:
        ...     pooled = simulate(rules, players=3, bots=["heuristic", "random"], matches=8, seed=5,
        ...                       executor=pool, chunk_size=3)
        >>> alone == pooled
        True
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (see ruleset()), not {type(rules).__name__}")
    matches = seat_number(matches, "matches must be an int")  # any integer (numpy's too), never a bool
    if matches < 0:
        raise ValueError(f"matches must be 0 or more, not {matches}")
    players = seat_number(players, "players must be an int")
    seed = seat_number(seed, "seed must be an int")
    new_game(rules, players)  # validates the player count (InvalidRulesError)
    lineup = resolve_bots(bots, players)
    size = chunk_size if chunk_size is not None else max(1, min(100, matches // 16))
    if size < 1:
        raise ValueError(f"chunk_size must be at least 1, not {size}")
    bounds = [(start, min(matches, start + size)) for start in range(0, matches, size)]
    chunks: list[list[MatchResult]] = []
    done = 0
    if executor is None:
        for start, stop in bounds:
            chunk = run_matches(rules, lineup, seed, start, stop, rotate)
            chunks.append(chunk)
            done += len(chunk)
            if progress is not None:
                progress(done)
    else:
        futures: list[Future[list[MatchResult]]] = [
            executor.submit(run_matches, rules, lineup, seed, start, stop, rotate) for start, stop in bounds
        ]
        for future in as_completed(futures):
            done += len(future.result())
            if progress is not None:
                progress(done)
        chunks = [f.result() for f in futures]
    results = tuple(m for chunk in chunks for m in chunk)
    return SimulationResult(
        rules=rules,
        players=players,
        bots=tuple(b.name for b in lineup),
        seed=seed,
        rotate=rotate,
        matches=results,
    )


class Stats:
    """The hook group of a game's statistics for simulation summaries: `Game.stats` (see `Game`).

    Example:
        >>> import cucumber_rules as cr
        >>> cr.GAMES["ladder"].stats.penalty_words
        'penalty paid for the last trick, per round'
    """

    __slots__ = ()

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
