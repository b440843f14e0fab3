"""Many matches between bots, on any executor: the same results however many workers play them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, as_completed

from ..actions import Deal, seat_number
from ..bots import Bot, resolve_bots
from ..engine import new_game, score
from ..game import game_of
from ..rules import Rules
from ..state import State
from .play import match_seed, play_match
from .results import MatchResult, SimulationResult
from .stats import Stats


def _penalties(state: State) -> tuple[int, ...]:
    """What the finished rounds cost, in the game's terms (`Stats.penalties`)."""
    return Stats.of(game_of(state)).penalties(state)


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
