"""Measure cucumber_rules against a hand-tuned mutable baseline, in the same run.

Run by hand (never part of the test suite):

    python benchmarks/run.py [--quick] [--json out.json] [--markdown docs/snippets/performance_results.md]

It measures, on this machine and in this order:

1. that the baseline (`benchmarks/baseline.py`) plays the library's rules: the
   same deals and choices give the same scores, round by round, and its own
   random matches agree with the library's statistically;
2. random playouts through the public API (`legal_moves`, `apply` with full
   validation, `sample_chance` for deals) per preset, in decisions per second
   (a decision is a `Play` or a `Revive`; deals are not counted but their time
   is), against the baseline: library and baseline repeats alternate, and each
   figure is the median of the repeats;
3. that the cost per decision does not grow with the match: a 1,000-round
   fixed-round Agurk match against 10-round ones;
4. the cost of single calls on a mid-match state (`legal_moves`, `check`,
   `apply`, `score`, `view`, `dumps`, `loads`, ...);
5. memory: a mid-match state and a 1,000-round match (its final state and its
   record), by tracemalloc and by a deep size count;
6. the mutable yardstick the project shares beside it (`../shared/bench`, found
   from the project root; `--shared PATH` or the environment variable
   `CUCUMBER_BENCH_SHARED` name another place): its `reference.py` is timed
   beside the library for the presets it plays (Agurk, Five Cucumbers,
   Catastrophe), and its `perf_ratio.py` measurement is run as it runs on its
   own. When the directory is missing, the run says so and the ratios are
   against `benchmarks/baseline.py` alone;
7. bots that see only views: `simulate` with random and heuristic bots against
   raw random playouts of the same preset, and what `view` costs at every
   decision of a match (the first view of each state, as a bot asks for it)
   against `apply`, early and late in a round and in a long match;
8. `cucumber_rules.testing.check_game(rules)` with its defaults, per preset;
9. documents: `loads` of honest states and records (time per character; with
   `--compare-with PATH`, against the 0.1 code at PATH), and of the worst
   documents up to the size limit `loads` accepts.
10. the AI adapters (`benchmarks/adapters.py`): random playouts through OpenSpiel and PettingZoo
    against the core API, and their tensors against OpenSpiel's C++ Hearts.

Times are the CPU time of this process (`time.process_time`), so other work on
the machine disturbs them less than it would wall time.

Example:
    >>> rows = compare_rates("agurk", 4, repeats=1, seconds=0.01)
    >>> rows.decisions_per_s > 0 and rows.baseline_per_s is not None
    True
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import gc
import importlib.util
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import timeit
import tracemalloc
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import adapters
import attrs
import baseline
import hostile_documents as hostile_module
from hardware import cpu_name
from profile_playouts import positive

import cucumber_rules as cr
from cucumber_rules.serialization import MAX_LENGTH

__all__ = [
    "BASELINE_PRESETS",
    "PLANS",
    "BotRow",
    "CallRow",
    "MemoryRow",
    "Plan",
    "RateRow",
    "ScalingRow",
    "StatRow",
    "ViewRow",
    "baseline_match",
    "bot_rates",
    "check_times",
    "compare_rates",
    "deep_size",
    "fixed_round_scaling",
    "honest_documents",
    "hostile_documents",
    "hostile_times",
    "library_match",
    "library_playouts",
    "load_old",
    "load_script",
    "machine",
    "main",
    "memory_rows",
    "mid_match_state",
    "per_call",
    "perf_ratio",
    "render_markdown",
    "run_all",
    "shared_dir",
    "verify_exact",
    "verify_statistics",
    "view_costs",
]

ROOT = Path(__file__).resolve().parent.parent
#: The environment variable that names the shared yardstick directory (else `../shared/bench`).
SHARED_ENV = "CUCUMBER_BENCH_SHARED"
#: The shared reference's function for each preset it plays.
REFERENCE_GAMES = {
    "agurk": "agurk_match",
    "five-cucumbers": "five_cucumbers_match",
    "catastrophe": "catastrophe_match",
}


def shared_dir(path: Path | None = None) -> Path:
    """The shared yardstick directory: `path`, else `$CUCUMBER_BENCH_SHARED`, else `../shared/bench`.

    The default is found from the project root (the parent of `benchmarks/`), so it works from any
    checkout or worktree that sits beside `shared/`.

    Example:
        >>> shared_dir(Path("/tmp/elsewhere"))
        PosixPath('/tmp/elsewhere')
        >>> shared_dir().name
        'bench'
    """
    if path is not None:
        return path
    named = os.environ.get(SHARED_ENV)
    return Path(named) if named else ROOT.parent / "shared" / "bench"


#: The presets the baseline plays.
BASELINE_PRESETS = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe")


# --------------------------------------------------------------------------- the library side


def library_playouts(rules: cr.Rules, players: int, matches: int, rng: random.Random) -> int:
    """Play `matches` random matches through the public API; return the number of decisions.

    At each decision with k > 1 legal moves it applies move `int(rng.random() * k)`, as the baseline does;
    deals come from `cr.sample_chance(state, rng)`. Every action goes through `cr.apply` (validated).

    Example:
        >>> library_playouts(cr.ruleset("gurka"), 2, 1, random.Random(1)) > 0
        True
    """
    rnd = rng.random
    legal_moves = cr.legal_moves
    apply = cr.apply
    sample_chance = cr.sample_chance
    new_game = cr.new_game
    decisions = 0
    for _ in range(matches):
        state = new_game(rules, players)
        while True:
            to_act = state.to_act
            if to_act is None:
                break
            if to_act < 0:
                state = apply(state, sample_chance(state, rng))
                continue
            moves = legal_moves(state)
            k = len(moves)
            state = apply(state, moves[int(rnd() * k)] if k > 1 else moves[0])
            decisions += 1
    return decisions


def _codes(deal: cr.Deal) -> list[list[int]]:
    return [[baseline.card_code(c.rank, c.suit) for c in hand] for hand in deal.hands]


#: A deal in the baseline's terms: each seat's cards as codes, and the starter the deal names (or None).
BaselineDeal = tuple[list[list[int]], int | None]


def library_match(
    rules: cr.Rules, players: int, choices: random.Random, deals: random.Random
) -> tuple[baseline.MatchResult, list[BaselineDeal]]:
    """Play one random match through the public API and describe it in the baseline's terms.

    Choices are drawn from `choices` exactly as the baseline draws them, deals from `deals` (with
    `cr.sample_chance`). Returns the result and the deals, in baseline card codes.

    Example:
        >>> result, deals = library_match(cr.ruleset("agurk"), 4, random.Random(1), random.Random(2))
        >>> len(deals) == result.round_count
        True
    """
    rnd = choices.random
    state = cr.new_game(rules, players)
    decisions = 0
    dealt: list[BaselineDeal] = []
    while state.to_act is not None:
        if state.to_act < 0:
            deal = cr.sample_chance(state, deals)
            assert isinstance(deal, cr.Deal)
            dealt.append((_codes(deal), deal.leader))
            state = cr.apply(state, deal)
            continue
        moves = cr.legal_moves(state)
        k = len(moves)
        state = cr.apply(state, moves[int(rnd() * k)] if k > 1 else moves[0])
        decisions += 1
    score = cr.score(state)
    result = baseline.MatchResult(
        decisions=decisions,
        round_count=len(score.round_points),
        totals=score.totals,
        marks=score.marks if isinstance(score, cr.LadderScore) else (0,) * len(score.totals),  # the ladder's
        out=getattr(state.match, "out", (0,) * len(score.totals)),  # eliminations: the ladder games
        winners=score.winners,
        round_points=score.round_points,
        dealt=tuple(sum(1 for hand in hands if hand) for hands, _ in dealt),
    )
    return result, dealt


def baseline_match(
    preset: str,
    players: int,
    rng: random.Random,
    deals: list[BaselineDeal] | None = None,
    *,
    general: bool = False,
) -> baseline.MatchResult:
    """One baseline match of a preset: its own deals, or the given ones (from `library_match`).

    Example:
        >>> baseline_match("catastrophe", 3, random.Random(1)).decisions
        120
    """
    if preset == "catastrophe":
        return baseline.play_catastrophe(players, rng, deals=None if deals is None else iter(deals))
    hands = None if deals is None else iter([h for h, _ in deals])
    return baseline.play_match(preset, players, rng, deals=hands, general=general)


def verify_exact(preset: str, players: int, matches: int, seed: int = 0) -> int:
    """Check that the baseline, given the library's deals and choice generator, plays the same matches.

    Compares decisions, rounds, every round's score row, totals, marks, eliminations and winners. For
    the ladder presets the general round player is checked too. Returns the number of decisions compared.

    Raises:
        AssertionError: On the first match that differs.

    Example:
        >>> verify_exact("gurka", 3, 2) > 0
        True
    """
    rules = cr.ruleset(preset)
    compared = 0
    for k in range(matches):
        expected, deals = library_match(rules, players, random.Random(seed + k), random.Random(~(seed + k)))
        for general in (False,) if preset == "catastrophe" else (False, True):
            got = baseline_match(preset, players, random.Random(seed + k), deals, general=general)
            if got != expected:
                raise AssertionError(
                    f"baseline differs from the library: {preset}, {players} players, match {k} "
                    f"(general={general}):\nlibrary:  {expected}\nbaseline: {got}"
                )
        compared += expected.decisions
    return compared


@attrs.frozen
class StatRow:
    """One statistic of random matches: the library's and the baseline's mean, and their z-score.

    Example:
        >>> StatRow("rounds per match", 12.7, 12.9, -1.5).z
        -1.5
    """

    statistic: str
    library: float
    baseline: float
    z: float


def _mean_z(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return ma, mb, (ma - mb) / se if se else 0.0


def verify_statistics(preset: str, players: int, matches: int, seed: int = 0) -> list[StatRow]:
    """Compare the baseline's own random matches (its own deals) with the library's, statistically.

    Statistics: rounds per match, decisions per match, the highest score of a round (the penalty paid,
    in the ladder games), the share of rounds where a tie bonus (a negative score) occurs, and the winning
    total. A statistic that is constant on both sides (Catastrophe's rounds) is left out. Each row has a
    z-score (difference of means over its standard error); |z| < 4 is expected.

    Example:
        >>> rows = verify_statistics("agurk", 4, 20)
        >>> [r.statistic for r in rows][:2]
        ['rounds per match', 'decisions per match']
    """
    rules = cr.ruleset(preset)
    lib = [
        library_match(rules, players, random.Random(seed + k), random.Random(~(seed + k)))[0]
        for k in range(matches)
    ]
    rng = random.Random(seed)
    base = [baseline_match(preset, players, rng) for _ in range(matches)]

    def penalties(results: list[baseline.MatchResult]) -> list[float]:
        return [float(max(row)) for r in results for row in r.round_points]

    def bonuses(results: list[baseline.MatchResult]) -> list[float]:
        return [1.0 if min(row) < 0 else 0.0 for r in results for row in r.round_points]

    rows = []
    for name, get in (
        ("rounds per match", lambda rs: [float(r.round_count) for r in rs]),
        ("decisions per match", lambda rs: [float(r.decisions) for r in rs]),
        ("top score per round", penalties),
        ("tie-bonus rounds", bonuses),
        ("winning total", lambda rs: [float(min(r.totals)) for r in rs]),
    ):
        a, b = get(lib), get(base)
        if len(set(a + b)) < 2:
            continue
        ma, mb, z = _mean_z(a, b)
        rows.append(StatRow(name, ma, mb, z))
    return rows


# --------------------------------------------------------------------------- timing helpers

#: Every time here is the CPU time of this process, not wall time: on a machine shared with other work,
#: time spent waiting for a CPU is not counted.
_clock = time.process_time


def _calibrate(run: Callable[[int], int], seconds: float) -> int:
    """How many matches take about `seconds` (at least 1)."""
    count = 1
    while True:
        start = _clock()
        run(count)
        elapsed = _clock() - start
        if elapsed >= seconds / 4 or count >= 1 << 20:
            return max(1, round(count * seconds / max(elapsed, 1e-9)))
        count *= 4


def _rates(runners: Sequence[Callable[[int, int], int]], seconds: float, repeats: int) -> list[list[float]]:
    """Decisions per second of each runner, repeats interleaved (runner(matches, seed) -> decisions)."""
    counts = [_calibrate(lambda m, r=r: r(m, 10_000), seconds) for r in runners]  # type: ignore[misc]
    rates: list[list[float]] = [[] for _ in runners]
    for rep in range(repeats):
        for i, run in enumerate(runners):
            gc.collect()
            start = _clock()
            decisions = run(counts[i], rep)
            rates[i].append(decisions / (_clock() - start))
    return rates


@attrs.frozen
class RateRow:
    """Random playouts of one preset: decisions per second, library vs baseline (medians).

    Example:
        >>> row = compare_rates("gurka", 3, repeats=1, seconds=0.01)
        >>> row.ratio is not None and 0 < row.ratio
        True
    """

    preset: str
    players: int
    decisions_per_s: float
    baseline_per_s: float | None
    ratio: float | None
    """Median of the per-repeat ratios (library / baseline): robust to load drifting between repeats."""
    decisions_per_match: float
    repeats: int
    spread: float
    """(max - min) / median of the library's repeats: how noisy the machine was."""
    reference_per_s: float | None = None
    """The shared mutable reference (`reference.py`), where it plays the preset."""
    reference_ratio: float | None = None
    """Median of the per-repeat ratios library / reference."""


def load_script(path: Path, name: str) -> types.ModuleType | None:
    """Import a Python file as a module, or None if it is missing or does not load.

    Example:
        >>> load_script(Path("/nonexistent/reference.py"), "nothing") is None
        True
    """
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # a yardstick beside the project: never fail the run because of it
        _log(f"{path} is there but does not load ({type(error).__name__}: {error}): left out")
        return None
    return module


def compare_rates(
    preset: str,
    players: int = 4,
    *,
    repeats: int = 5,
    seconds: float = 1.0,
    reference: types.ModuleType | None = None,
) -> RateRow:
    """Measure random playouts of a preset through the public API, the baseline and the reference.

    The baseline (`benchmarks/baseline.py`) plays every built-in preset; the shared `reference` module,
    when given, plays Agurk, Five Cucumbers and Catastrophe (`REFERENCE_GAMES`). All take turns.

    Example:
        >>> compare_rates("gurka", 2, repeats=1, seconds=0.01).players
        2
    """
    rules = cr.ruleset(preset)
    sizes: list[int] = []

    def lib(matches: int, seed: int) -> int:
        decisions = library_playouts(rules, players, matches, random.Random(seed))
        sizes.append(decisions // matches)
        return decisions

    def base(matches: int, seed: int) -> int:
        rng = random.Random(seed)
        return sum(baseline_match(preset, players, rng).decisions for _ in range(matches))

    runners: list[Callable[[int, int], int]] = [lib]
    has_baseline = preset in BASELINE_PRESETS
    if has_baseline:
        runners.append(base)
    play = getattr(reference, REFERENCE_GAMES.get(preset, ""), None) if reference is not None else None
    if play is not None:

        def ref(matches: int, seed: int) -> int:
            return sum(int(play(seed * 100_000 + k, "fast", n_players=players)[0]) for k in range(matches))

        runners.append(ref)
    rates = _rates(runners, seconds, repeats)
    lib_rate = statistics.median(rates[0])
    spread = (max(rates[0]) - min(rates[0])) / lib_rate

    def against(other: list[float]) -> tuple[float, float]:
        return statistics.median(other), statistics.median(
            a / b for a, b in zip(rates[0], other, strict=True)
        )

    base_rate, base_ratio = against(rates[1]) if has_baseline else (None, None)
    ref_rate, ref_ratio = against(rates[-1]) if play is not None else (None, None)
    return RateRow(
        preset,
        players,
        lib_rate,
        base_rate,
        base_ratio,
        statistics.fmean(sizes),
        repeats,
        spread,
        ref_rate,
        ref_ratio,
    )


def perf_ratio(shared: Path, rounds: int, seconds: float) -> dict[str, float] | None:
    """The shared `perf_ratio.py` measurement (library vs reference Agurk, 4 players), as that script runs it.

    Its own loop and clock (wall time), rounds of `seconds` alternating; the medians. None if the
    script is missing.

    Example:
        >>> perf_ratio(Path("/nonexistent"), 1, 0.01) is None
        True
    """
    module = load_script(shared / "perf_ratio.py", "cucumber_perf_ratio")
    if module is None:
        return None
    rules = cr.ruleset("agurk")
    api: list[float] = []
    ref: list[float] = []
    s1 = s2 = 0
    for _ in range(rounds):
        x, s1 = module.api_round(seconds, s1, rules, 4)
        y, s2 = module.ref_round(seconds, s2)
        api.append(x)
        ref.append(y)
    return {
        "api_per_s": statistics.median(api),
        "yardstick_per_s": statistics.median(ref),
        "ratio": statistics.median(a / b for a, b in zip(api, ref, strict=True)),
        "rounds": rounds,
        "seconds": seconds,
    }


# --------------------------------------------------------------------------- a long match


@attrs.frozen
class ScalingRow:
    """Decisions per second of one long fixed-round Agurk match against short ones, timed alternately.

    The long match is played in `segments` equal slices of rounds; before each slice, short matches of
    the same total length are timed. Ratios are long / short for adjacent slices (1.0: no slow-down),
    so a change of machine load between slices cancels out.

    Example:
        >>> fixed_round_scaling(long_rounds=20, segments=2, repeats=1).segments
        2
    """

    short_rounds: int
    long_rounds: int
    segments: int
    short_per_s: float
    long_per_s: float
    ratio: float
    """Median over slices and repeats of long / short."""
    first_ratio: float
    """The long match's first slice against its adjacent short matches (median over repeats)."""
    last_ratio: float
    """The long match's last slice against its adjacent short matches (median over repeats)."""


def _advance(state: cr.State, rng: random.Random, rounds: int) -> tuple[cr.State, int]:
    """Play random moves until `rounds` rounds are finished or the match is over; return it and decisions."""
    rnd = rng.random
    legal_moves = cr.legal_moves
    apply = cr.apply
    decisions = 0
    while True:
        to_act = state.to_act
        if to_act is None:
            break
        if to_act < 0:
            if state.match.rounds >= rounds:
                break
            state = apply(state, cr.sample_chance(state, rng))
            continue
        moves = legal_moves(state)
        k = len(moves)
        state = apply(state, moves[int(rnd() * k)] if k > 1 else moves[0])
        decisions += 1
    return state, decisions


def fixed_round_scaling(
    *, long_rounds: int = 1000, short_rounds: int = 10, segments: int = 10, repeats: int = 3
) -> ScalingRow:
    """Time a `long_rounds` fixed-round Agurk match against `short_rounds` ones, slice by slice.

    Example:
        >>> fixed_round_scaling(long_rounds=20, short_rounds=10, segments=2, repeats=1).long_rounds
        20
    """
    long_rules = cr.ruleset("agurk", fixed_rounds=long_rounds)
    short_rules = cr.ruleset("agurk", fixed_rounds=short_rounds)
    per_segment = max(1, long_rounds // segments)
    shorts_per_segment = max(1, per_segment // short_rounds)
    short_rates: list[float] = []
    long_rates: list[float] = []
    ratios: list[float] = []
    first: list[float] = []
    last: list[float] = []
    for rep in range(repeats):
        gc.collect()
        long_state = cr.new_game(long_rules, 4)
        long_rng = random.Random(rep)
        short_rng = random.Random(~rep)
        for segment in range(segments):
            start = _clock()
            decisions = 0
            for _ in range(shorts_per_segment):
                decisions += _advance(cr.new_game(short_rules, 4), short_rng, short_rounds)[1]
            short_rate = decisions / (_clock() - start)
            target = long_rounds if segment == segments - 1 else (segment + 1) * per_segment
            start = _clock()
            long_state, decisions = _advance(long_state, long_rng, target)
            long_rate = decisions / (_clock() - start)
            short_rates.append(short_rate)
            long_rates.append(long_rate)
            ratios.append(long_rate / short_rate)
            if segment == 0:
                first.append(long_rate / short_rate)
            if segment == segments - 1:
                last.append(long_rate / short_rate)
        assert long_state.is_over
        assert long_state.match.rounds == long_rounds
    return ScalingRow(
        short_rounds,
        long_rounds,
        segments,
        statistics.median(short_rates),
        statistics.median(long_rates),
        statistics.median(ratios),
        statistics.median(first),
        statistics.median(last),
    )


# --------------------------------------------------------------------------- single calls


def mid_match_state(
    rounds: int = 4, plays: int = 9, seed: int = 2024, *, fixed_rounds: int | None = None
) -> cr.State:
    """A 4-player Agurk state after `rounds` finished rounds and `plays` plays into the next (mid-trick).

    With `plays=0` it is the chance state before that round's deal.

    Example:
        >>> s = mid_match_state()
        >>> s.match.rounds, len(s.round.trick) > 0
        (4, True)
    """
    rng = random.Random(seed)
    rules = cr.ruleset("agurk") if fixed_rounds is None else cr.ruleset("agurk", fixed_rounds=fixed_rounds)
    state = cr.new_game(rules, 4)
    while state.to_act is not None and state.match.rounds < rounds:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    if state.to_act is None:
        raise ValueError(f"the match with seed {seed} ends before {rounds} rounds")
    if plays:
        state = cr.apply(state, cr.sample_chance(state, rng))
        for _ in range(plays):
            state = cr.apply(state, rng.choice(cr.legal_moves(state)))
    return state


@attrs.frozen
class CallRow:
    """One call timed with timeit, in microseconds per call (best and median of the repeats).

    `late_*` time the same call on a state 300 rounds into a long (fixed-round) match: a call whose cost
    grows with the match shows it there.

    Example:
        >>> CallRow("legal_moves(state)", 0.8, 0.9, 0.7).late_best_us
        0.7
    """

    call: str
    best_us: float
    median_us: float
    late_best_us: float | None
    note: str = ""


def _time_call(stmt: Callable[[], object], repeats: int, min_seconds: float) -> tuple[float, float]:
    timer = timeit.Timer(stmt, timer=_clock)
    number = 1
    while True:
        if timer.timeit(number) >= min_seconds or number >= 1 << 22:
            break
        number *= 4
    times = [t / number * 1e6 for t in timer.repeat(repeat=repeats, number=number)]
    return min(times), statistics.median(times)


def _optional(name: str) -> Any:
    """A public name another module may not have added yet, or None."""
    return getattr(cr, name, None)


def _calls(state: cr.State, chance: cr.State) -> list[tuple[str, Callable[[], object], str]]:
    """The calls to time on a mid-trick `state` and a `chance` state (before a deal)."""
    moves = cr.legal_moves(state)
    move = moves[len(moves) // 2]
    deal = cr.sample_chance(chance, random.Random(1))
    rng = random.Random(5)
    seat = state.to_act
    calls: list[tuple[str, Callable[[], object], str]] = [
        ("legal_moves(state)", lambda: cr.legal_moves(state), f"{len(moves)} legal moves"),
        ("check(state, move)", lambda: cr.check(state, move), "a legal move"),
        ("apply(state, move)", lambda: cr.apply(state, move), "validates, then builds the new state"),
        ("score(state)", lambda: cr.score(state), ""),
        ("sample_chance(state, rng)", lambda: cr.sample_chance(chance, rng), "draws a 4-player deal"),
        ("apply(state, deal)", lambda: cr.apply(chance, deal), "validates the deal, starts the round"),
    ]
    view = _optional("view")
    if view is not None:
        calls.append(("view(state, seat)", lambda: view(state, seat), "the seat to act"))
        calls.append(("view(state, None)", lambda: view(state, None), "a spectator"))
    dumps, loads = _optional("dumps"), _optional("loads")
    if dumps is not None:
        text = dumps(state)
        calls.append(("dumps(state)", lambda: dumps(state), f"JSON: {len(text):,} characters mid-match"))
        if loads is not None:
            calls.append(("loads(text)", lambda: loads(text), "parses and re-validates the state"))
    record, replay = _optional("record"), _optional("replay")
    if record is not None and replay is not None:
        rec = record(state)
        count = len(state.history)
        calls.append(("replay(record)", lambda: replay(rec), f"{count} actions mid-match, each validated"))
    return calls


def per_call(*, repeats: int = 7, min_seconds: float = 0.05, late_rounds: int = 300) -> list[CallRow]:
    """Time the public calls on a mid-match 4-player Agurk state, and on one `late_rounds` rounds in.

    `view`, `dumps`, `loads`, `record` and `replay` are included when the library has them.

    Example:
        >>> [r.call for r in per_call(repeats=1, min_seconds=0.0, late_rounds=5)][:2]
        ['legal_moves(state)', 'check(state, move)']
    """
    early = _calls(mid_match_state(), mid_match_state(plays=0))
    late = {
        name: stmt
        for name, stmt, _ in _calls(
            mid_match_state(late_rounds, fixed_rounds=1000),
            mid_match_state(late_rounds, 0, fixed_rounds=1000),
        )
    }
    rows = []
    for name, stmt, note in early:
        best, median = _time_call(stmt, repeats, min_seconds)
        late_best = _time_call(late[name], max(1, repeats // 2), min_seconds)[0] if name in late else None
        rows.append(CallRow(name, best, median, late_best, note))
    return rows


# --------------------------------------------------------------------------- memory


@attrs.frozen
class MemoryRow:
    """The memory one object holds: tracemalloc's retained bytes, and a deep size count.

    Example:
        >>> memory_rows(long_rounds=3)[0].deep_bytes > 0
        True
    """

    what: str
    traced_bytes: int
    """Bytes still allocated after building it (tracemalloc), its own garbage collected."""
    deep_bytes: int
    """`sys.getsizeof` summed over every object reachable from it, each counted once, leaving out the
    objects the library shares between all states (interned cards, shared plays, rules, classes)."""
    actions: int
    note: str = ""


def _shared_ids(extra: Sequence[object] = ()) -> set[int]:
    """Ids of objects every state may share: module-level values of the library and what they reach."""
    roots: list[object] = list(extra)
    for name, module in list(sys.modules.items()):
        if name == "cucumber_rules" or name.startswith("cucumber_rules."):
            roots.extend(vars(module).values())
    seen: set[int] = set()
    stack = roots
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        stack.extend(gc.get_referents(obj))
    return seen


def deep_size(obj: object, shared: set[int]) -> int:
    """Sum `sys.getsizeof` over `obj` and everything it reaches, each object once, minus `shared`.

    Example:
        >>> deep_size((1, (2, 3)), set()) > 0
        True
    """
    seen = set(shared)
    total = 0
    stack = [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type | types.ModuleType | types.FunctionType):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        stack.extend(gc.get_referents(o))
    return total


def _traced(build: Callable[[], object]) -> tuple[object, int]:
    """Build an object under tracemalloc; return it and the bytes that stay allocated."""
    build()  # warm caches (rules plans, imports) outside the measurement
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        obj = build()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return obj, after - before


def _play_fixed(rounds: int, seed: int) -> cr.State:
    rng = random.Random(seed)
    return _final_state(cr.ruleset("agurk", fixed_rounds=rounds), rng)


def _final_state(rules: cr.Rules, rng: random.Random) -> cr.State:
    rnd = rng.random
    state = cr.new_game(rules, 4)
    while state.to_act is not None:
        if state.to_act < 0:
            state = cr.apply(state, cr.sample_chance(state, rng))
            continue
        moves = cr.legal_moves(state)
        k = len(moves)
        state = cr.apply(state, moves[int(rnd() * k)] if k > 1 else moves[0])
    return state


def memory_rows(long_rounds: int = 1000) -> list[MemoryRow]:
    """Measure the memory of a mid-match state, a `long_rounds` fixed-round match and its record.

    Example:
        >>> [r.what for r in memory_rows(long_rounds=3)][:1]
        ['mid-match Agurk state (4 players)']
    """
    rows = []
    state, traced = _traced(mid_match_state)
    assert isinstance(state, cr.State)
    shared = _shared_ids([state.rules])
    rows.append(
        MemoryRow(
            "mid-match Agurk state (4 players)",
            traced,
            deep_size(state, shared),
            len(state.history),
            f"after {state.match.rounds} rounds, history included",
        )
    )
    long_state, traced = _traced(lambda: _play_fixed(long_rounds, 7))
    assert isinstance(long_state, cr.State)
    shared = _shared_ids([long_state.rules])
    actions = len(long_state.history)
    rows.append(
        MemoryRow(
            f"final state of a {long_rounds:,}-round Agurk match",
            traced,
            deep_size(long_state, shared),
            actions,
            "history and round results included",
        )
    )
    record = _optional("record")
    if record is not None:
        rec, traced = _traced(lambda: record(long_state))
        note = "cr.record(state)"
        dumps = _optional("dumps")
        if dumps is not None:
            note += f"; dumps(record): {len(dumps(rec)):,} characters of JSON"
        rows.append(
            MemoryRow(
                f"record of the {long_rounds:,}-round match", traced, deep_size(rec, shared), actions, note
            )
        )
    else:
        actions_tuple, traced = _traced(lambda: tuple(long_state.history))
        rows.append(
            MemoryRow(
                f"the {long_rounds:,}-round match's actions as a tuple",
                traced,
                deep_size(actions_tuple, shared),
                actions,
                "cr.record is not available yet: the history as a tuple stands in for a record",
            )
        )
    return rows


# --------------------------------------------------------------------------- bots and views


@attrs.frozen
class BotRow:
    """Matches of bots that see only views (`simulate`) against raw random playouts of one preset.

    Example:
        >>> row = bot_rates("gurka", 3, repeats=1, seconds=0.01)
        >>> row.random_ratio > 0 and row.heuristic_ratio > 0
        True
    """

    preset: str
    players: int
    raw_per_s: float
    """Raw random playouts (`library_playouts`), decisions per second."""
    random_per_s: float
    """`simulate(rules, players, "random", ...)`: every decision a view and a `RandomBot`."""
    heuristic_per_s: float
    """`simulate(rules, players, "heuristic", ...)`."""
    random_ratio: float
    """Median of the per-repeat ratios random-bot matches / raw playouts (the target: 0.5 or more)."""
    heuristic_ratio: float


def bot_rates(preset: str, players: int = 4, *, repeats: int = 5, seconds: float = 1.0) -> BotRow:
    """Time `simulate` with random and with heuristic bots against raw random playouts, taking turns.

    Example:
        >>> bot_rates("five-cucumbers", 3, repeats=1, seconds=0.01).players
        3
    """
    from cucumber_rules.simulate import simulate

    rules = cr.ruleset(preset)

    def raw(matches: int, seed: int) -> int:
        return library_playouts(rules, players, matches, random.Random(seed))

    def bots(name: str) -> Callable[[int, int], int]:
        def run(matches: int, seed: int) -> int:
            result = simulate(rules, players, name, matches=matches, seed=seed)
            return sum(m.decisions for m in result.matches)

        return run

    rates = _rates([raw, bots("random"), bots("heuristic")], seconds, repeats)

    def ratio(i: int) -> float:
        return statistics.median(a / b for a, b in zip(rates[i], rates[0], strict=True))

    return BotRow(
        preset,
        players,
        statistics.median(rates[0]),
        statistics.median(rates[1]),
        statistics.median(rates[2]),
        ratio(1),
        ratio(2),
    )


@attrs.frozen
class ViewRow:
    """What `view(state, seat)` costs against `apply` at the decisions of one kind (microseconds).

    Each view is the first one of its state, asked for in the order of play, as a bot asks: what views
    share (kept on the `Table` and `Match`) is worked out by the first view that needs it.

    Example:
        >>> rows = view_costs("gurka", matches=1)
        >>> rows[0].where, rows[0].decisions > 0
        ('every decision', True)
    """

    preset: str
    where: str
    decisions: int
    view_us: float
    """Mean time of `view(state, state.to_act)`."""
    apply_us: float
    """Mean time of `apply(state, move)` at the same decisions (the move the bot chose)."""
    ratio: float
    """view_us over one `apply`: the mean `apply` at every decision of the same matches (the target: 5
    or less)."""
    same_ratio: float
    """view_us / apply_us: against `apply` at these very decisions (the first card of a trick: the
    cheapest `apply` there is)."""
    worst_ratio: float
    """The 99th percentile of the per-decision ratios view / apply (single calls: noisy)."""


def _view_samples(
    rules: cr.Rules, players: int, seed: int, rounds: range | None = None
) -> list[tuple[Any, ...]]:
    """Play a random match; at each decision time `view` then `apply`: (kinds, view ns, apply ns) rows."""
    clock = time.perf_counter_ns
    rng = random.Random(seed)
    view = cr.view
    state = cr.new_game(rules, players)
    rows: list[tuple[Any, ...]] = []
    while state.to_act is not None:
        if state.to_act < 0:
            if rounds is not None and state.match.rounds >= rounds.stop:
                break
            state = cr.apply(state, cr.sample_chance(state, rng))
            continue
        seat = state.to_act
        t0 = clock()
        v = view(state, seat)
        t1 = clock()
        move = v.legal[int(rng.random() * len(v.legal))]
        t2 = clock()
        after = cr.apply(state, move)
        t3 = clock()
        if rounds is None or state.match.rounds in rounds:
            table = state.table
            kinds = ["every decision"]
            if table is not None and type(move) is cr.Play:
                kinds.append("first card of a trick" if not state.trick else "other cards of a trick")
                if not table.tricks:
                    kinds.append("first trick of a round")
                    if not state.trick:
                        kinds.append("first view of a round")  # nothing shared is kept for it yet
                elif len(state.held[move.seat]) == 1:
                    kinds.append("last trick of a round")
            rows.append((tuple(kinds), t1 - t0, t3 - t2))
        state = after
    return rows


def view_costs(preset: str, players: int = 4, matches: int = 20, *, long_rounds: int = 0) -> list[ViewRow]:
    """`view` against `apply` at every decision of random matches, by kind of decision.

    With `long_rounds`, also a fixed-round match of that many rounds, its first and its last 10 rounds.
    A first match, not counted, warms the interpreter up (Python specialises code as it runs it).

    Example:
        >>> [r.where for r in view_costs("agurk", matches=1, long_rounds=20)][-2:]
        ['rounds 1-10 of a 20-round match', 'rounds 11-20 of a 20-round match']
    """
    rules = cr.ruleset(preset)
    samples: dict[str, list[tuple[Any, Any]]] = {}
    _view_samples(rules, players, 999)  # a warm-up match, not counted (Python specialises early calls)
    for k in range(matches):
        for kinds, v, a in _view_samples(rules, players, 1000 + k):
            for kind in kinds:
                samples.setdefault(kind, []).append((v, a))
    if long_rounds:
        option = "fixed_rounds" if "fixed_rounds" in rules.options() else "hand_count"  # Catastrophe: hands
        long_rules = cr.ruleset(preset, **{option: long_rounds})
        for where, rounds in (
            (f"rounds 1-10 of a {long_rounds:,}-round match", range(10)),
            (
                f"rounds {long_rounds - 9:,}-{long_rounds:,} of a {long_rounds:,}-round match",
                range(long_rounds - 10, long_rounds),
            ),
        ):
            samples[where] = [(v, a) for _, v, a in _view_samples(long_rules, players, 7, rounds)]
    one_apply = statistics.fmean(a for _, a in samples["every decision"])
    rows = []
    for where, pairs in samples.items():
        view_mean = statistics.fmean(v for v, _ in pairs)
        apply_mean = statistics.fmean(a for _, a in pairs)
        ratios = sorted(v / max(a, 1) for v, a in pairs)
        rows.append(
            ViewRow(
                preset,
                where,
                len(pairs),
                view_mean / 1000,
                apply_mean / 1000,
                view_mean / (apply_mean if where.startswith("rounds") else one_apply),
                view_mean / apply_mean,
                ratios[min(len(ratios) - 1, int(0.99 * len(ratios)))],
            )
        )
    return rows


# --------------------------------------------------------------------------- checking a variant


def check_times(presets: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Seconds (CPU) that `cucumber_rules.testing.check_game(rules)` takes with its defaults, per preset.

    Example:
        `check_times(["gurka"])["gurka"]["seconds"]` is a few seconds.
    """
    from cucumber_rules.testing import check_game

    out = {}
    for preset in presets:
        start = _clock()
        report = check_game(cr.ruleset(preset))
        out[preset] = {
            "seconds": _clock() - start,
            "matches": report.matches,
            "actions": report.actions,
            "players": list(report.players),
        }
    return out


# --------------------------------------------------------------------------- documents


def _finished(library: Any, rounds: int, seed: int = 7) -> Any:
    """The final state of a random fixed-round 4-player Agurk match, played by `library` (a module)."""
    rng = random.Random(seed)
    state = library.new_game(library.ruleset("agurk", fixed_rounds=rounds), 4)
    while not state.is_over:
        moves = library.legal_moves(state)
        state = library.apply(state, rng.choice(moves) if moves else library.sample_chance(state, rng))
    return state


def _loads_time(library: Any, text: str, repeats: int) -> float:
    """The best of `repeats` CPU times of `library.loads(text)`, in seconds (an error counts: refused).

    This library reads the text whatever its length (the size limit raised to it when longer).
    """
    kwargs = {"max_length": len(text)} if library is cr and len(text) > MAX_LENGTH else {}
    best = math.inf
    for _ in range(repeats):
        gc.collect()
        start = _clock()
        with contextlib.suppress(Exception):  # refusing is an outcome too
            library.loads(text, **kwargs)
        best = min(best, _clock() - start)
    return best


def honest_documents(
    rounds: Sequence[int] = (100, 1000, 3000), repeats: int = 3, old: Any = None
) -> list[dict[str, Any]]:
    """Time `loads` of honest state and record documents of fixed-round Agurk matches, per character.

    With `old` (the 0.1 package, see `load_old`), the same for documents that 0.1 wrote of its own
    matches of the same length, in the same run.

    Example:
        >>> rows = honest_documents((3,), repeats=1)
        >>> [r["kind"] for r in rows], rows[0]["ns_per_char"] > 0
        (['state', 'record'], True)
    """
    rows = []
    for n in rounds:
        final = _finished(cr, n)
        old_final = _finished(old, n) if old is not None else None
        for kind in ("state", "record"):
            text = cr.dumps(final if kind == "state" else cr.record(final))
            seconds = _loads_time(cr, text, repeats)
            row: dict[str, Any] = {
                "rounds": n,
                "kind": kind,
                "chars": len(text),
                "seconds": seconds,
                "ns_per_char": seconds / len(text) * 1e9,
                "old_chars": None,
                "old_seconds": None,
                "old_ns_per_char": None,
            }
            if old is not None:
                old_text = old.dumps(old_final if kind == "state" else old.record(old_final))
                old_seconds = _loads_time(old, old_text, repeats)
                row.update(
                    old_chars=len(old_text),
                    old_seconds=old_seconds,
                    old_ns_per_char=old_seconds / len(old_text) * 1e9,
                )
            rows.append(row)
    return rows


def load_old(path: Path) -> Any:
    """Import another copy of the library (e.g. 0.1's `src/cucumber_rules`) as `cucumber_rules_old`.

    Example:
        >>> load_old(Path("/nonexistent")) is None
        True
    """
    init = path / "__init__.py"
    if not init.is_file():
        return None
    spec = importlib.util.spec_from_file_location(
        "cucumber_rules_old", init, submodule_search_locations=[str(path)]
    )
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cucumber_rules_old"] = module
    spec.loader.exec_module(module)
    return module


def hostile_documents(limit: int = 0) -> dict[str, str]:
    """Documents up to `limit` characters (default `MAX_LENGTH`) that cost `loads` the most to judge.

    See `benchmarks/hostile_documents.py`: the longest honest states, records and views, the
    same with their last action, field or result wrong, huge lists, and the shapes the size and
    depth limits are for.

    Example:
        >>> sorted(hostile_documents(20_000))[:2]
        ['a flat array of numbers', 'a record with a bad last action (agurk)']
    """
    return hostile_module.documents(limit)


def hostile_times(limit: int = 0, repeats: int = 1) -> list[dict[str, Any]]:
    """Seconds `loads` takes to accept or refuse each of `hostile_documents(limit)`.

    Example:
        >>> rows = hostile_times(20_000)
        >>> all(r["chars"] <= 20_000 for r in rows)
        True
    """
    rows = []
    for name, text in hostile_documents(limit).items():
        try:
            cr.loads(text)
            outcome = "accepted"
        except Exception as err:  # the outcome to report
            outcome = f"refused: {type(err).__name__}"
        rows.append(
            {
                "document": name,
                "chars": len(text),
                "seconds": _loads_time(cr, text, repeats),
                "outcome": outcome,
            }
        )
    return rows


# --------------------------------------------------------------------------- reporting


def machine() -> dict[str, Any]:
    """What the numbers were measured on: Python, CPU, CPU count, platform, library version and commit.

    Example:
        >>> machine()["cpu_count"] == os.cpu_count()
        True
    """
    cpu = cpu_name()
    try:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if dirty:
            commit += " + local changes in src/"
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(terse=True),
        "cucumber_rules": cr.__version__,
        "commit": commit,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def _k(rate: float) -> str:
    return f"{rate / 1000:,.0f} k"


def _us(value: float) -> str:
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def render_markdown(results: dict[str, Any]) -> str:
    """The results as Markdown tables (the snippet that docs/performance.md includes).

    Example:
        `print(render_markdown(json.loads(Path("results.json").read_text())))` rebuilds the tables from
        the JSON that `--json` wrote.
    """
    m = results["machine"]
    load = m.get("load_average")
    lines = [
        f"Measured {m['date']} on {m['cpu']} ({m['cpu_count']} CPUs), {m['python']}, {m['platform']}; "
        f"cucumber_rules {m['cucumber_rules']} at {m['commit']}"
        + (f"; load average {load[0]:.2f} at the start" if load else "")
        + f". {results['mode']} run: medians of {results['repeats']} repeats.",
        "",
        "**Random playouts** (4 players; a decision is a `Play` or `Revive`, deals not counted but timed), "
        "against the project's mutable baseline (`benchmarks/baseline.py`) and the shared mutable reference "
        "(`reference.py`, for the presets it plays):",
        "",
        "| preset | decisions / match | library (decisions/s) | baseline (decisions/s) | library / baseline "
        "| reference (decisions/s) | library / reference |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in results["rates"]:
        base = "—" if row["baseline_per_s"] is None else _k(row["baseline_per_s"])
        ratio = "—" if row["ratio"] is None else f"{row['ratio']:.3f}×"
        ref = "—" if row.get("reference_per_s") is None else _k(row["reference_per_s"])
        ref_ratio = "—" if row.get("reference_ratio") is None else f"{row['reference_ratio']:.3f}×"
        lines.append(
            f"| `{row['preset']}` | {row['decisions_per_match']:.0f} | {_k(row['decisions_per_s'])} | "
            f"{base} | {ratio} | {ref} | {ref_ratio} |"
        )
    shared = results.get("shared")
    if shared is not None and not shared["found"]:
        lines += ["", f"The shared yardstick was not found at `{shared['path']}`: no reference figures."]
    perf = results.get("perf_ratio")
    if perf:
        lines += [
            "",
            "The shared `perf_ratio.py` measurement (its own loop and wall clock, Agurk, 4 players, "
            f"{perf['rounds']} rounds of {perf['seconds']:g} s): the library {_k(perf['api_per_s'])} "
            f"decisions/s, the reference {_k(perf['yardstick_per_s'])}: **{perf['ratio']:.3f}×**.",
        ]
    s = results["scaling"]
    part = s["long_rounds"] // s["segments"]
    lines += [
        "",
        f"**Long matches** (fixed-round Agurk, 4 players): one {s['long_rounds']:,}-round match, played in "
        f"slices of {part:,} rounds, each slice timed right after {s['short_rounds']}-round matches of the "
        "same total length:",
        "",
        "| | decisions/s | long / short |",
        "|---|---:|---:|",
        f"| {s['short_rounds']}-round matches | {_k(s['short_per_s'])} | |",
        f"| the {s['long_rounds']:,}-round match | {_k(s['long_per_s'])} | {s['ratio']:.3f} |",
        f"| its first {part:,} rounds | | {s['first_ratio']:.3f} |",
        f"| its last {part:,} rounds | | {s['last_ratio']:.3f} |",
        "",
        "**Single calls** on a mid-match 4-player Agurk state (round 5), and on one in round "
        f"{results['late_rounds'] + 1} of a long fixed-round match (microseconds per call):",
        "",
        "| call | best | median | best, late in a long match | note |",
        "|---|---:|---:|---:|---|",
    ]
    for row in results["calls"]:
        late = "—" if row["late_best_us"] is None else _us(row["late_best_us"])
        lines.append(
            f"| `{row['call']}` | {_us(row['best_us'])} | {_us(row['median_us'])} | {late} | {row['note']} |"
        )
    if results.get("bots"):
        lines += [
            "",
            "**Bots that see only views** (`simulate`, 4 players, every decision a `view` and a bot's "
            "choice) against raw random playouts of the same preset, decisions per second:",
            "",
            "| preset | raw playouts | random bots | heuristic bots | random / raw | heuristic / raw |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for b in results["bots"]:
            lines.append(
                f"| `{b['preset']}` | {_k(b['raw_per_s'])} | {_k(b['random_per_s'])} | "
                f"{_k(b['heuristic_per_s'])} | {b['random_ratio']:.2f}× | {b['heuristic_ratio']:.2f}× |"
            )
    if results.get("views"):
        lines += [
            "",
            "**What a view costs**: `view(state, seat)` at the decisions of random matches (each the first "
            "view of its state, in the order of play, as a bot asks for it), mean microseconds, against one "
            "`apply` (its mean over every decision of the same matches; in a long match, of the same rounds) "
            "and against `apply` at the same decisions; the last column is the 99th percentile of the "
            "per-decision ratios (single calls, so noisy):",
            "",
            "| preset, decisions | count | view (µs) | apply there (µs) | view / one apply "
            "| view / apply there | 99th percentile |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for v in results["views"]:
            lines.append(
                f"| `{v['preset']}`, {v['where']} | {v['decisions']:,} | {_us(v['view_us'])} | "
                f"{_us(v['apply_us'])} | {v['ratio']:.2f}× | {v['same_ratio']:.2f}× | "
                f"{v['worst_ratio']:.1f}× |"
            )
    if results.get("check_game"):
        lines += [
            "",
            "**Checking a variant**: `cucumber_rules.testing.check_game(rules)` with its defaults (one match "
            "per player count), CPU seconds:",
            "",
            "| preset | players | actions checked | seconds |",
            "|---|---|---:|---:|",
        ]
        for preset, c in results["check_game"].items():
            players = ", ".join(str(n) for n in c["players"])
            lines.append(f"| `{preset}` | {players} | {c['actions']:,} | {c['seconds']:.1f} |")
    if results.get("documents"):
        old = results.get("old")
        versus = (
            f", and cucumber_rules {old['version']} reading its own documents of the same matches"
            if old
            else ""
        )
        lines += [
            "",
            "**Reading documents**: `loads` of honest documents of fixed-round Agurk matches (4 players), "
            f"every action replayed and checked{versus}:",
            "",
            "| document | characters | seconds | ns per character |"
            + (
                f" {old['version']}: characters | {old['version']}: ns per character | faster |"
                if old
                else ""
            ),
            "|---|---:|---:|---:|" + ("---:|---:|---:|" if old else ""),
        ]
        for d in results["documents"]:
            line = (
                f"| {d['kind']} of a {d['rounds']:,}-round match | {d['chars']:,} | {d['seconds']:.3f} | "
                f"{d['ns_per_char']:.0f} |"
            )
            if old:
                speed = d["old_ns_per_char"] / d["ns_per_char"]
                line += f" {d['old_chars']:,} | {d['old_ns_per_char']:.0f} | {speed:.2f}× |"
            lines.append(line)
    if results.get("hostile"):
        lines += [
            "",
            "**Documents up to the size limit**, the costliest to judge: what `loads` does with each, in CPU "
            "seconds:",
            "",
            "| document | characters | seconds | outcome |",
            "|---|---:|---:|---|",
        ]
        for h in results["hostile"]:
            lines.append(f"| {h['document']} | {h['chars']:,} | {h['seconds']:.3f} | {h['outcome']} |")
    lines += [
        "",
        "**Memory** (tracemalloc: bytes left allocated after building it; deep: sizes of every object "
        "reachable, each once, not counting what all states share):",
        "",
        "| object | actions | tracemalloc | deep size | bytes per action (deep) | note |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for row in results["memory"]:
        per = row["deep_bytes"] / row["actions"] if row["actions"] else 0
        lines.append(
            f"| {row['what']} | {row['actions']:,} | {row['traced_bytes'] / 1024:,.1f} KiB | "
            f"{row['deep_bytes'] / 1024:,.1f} KiB | {per:.0f} | {row['note']} |"
        )
    lines += _adapter_lines(results.get("adapters"))
    return "\n".join(lines) + "\n"


def _adapter_lines(found: dict[str, Any] | None) -> list[str]:
    """The adapters' tables (`benchmarks/adapters.py`), where the run measured them."""
    if not found:
        return []
    lines = [
        "",
        "**The AI adapters** (`benchmarks/adapters.py`): random playouts through OpenSpiel (chance a card "
        "at a time) and PettingZoo (an observation at every step), against the core API in the same run; "
        "env is also stepped without observations (`last(observe=False)`, the mask from `info`), and "
        "PettingZoo's floor is its own loop and order checks around an environment that does nothing:",
        "",
        "| preset | core (decisions/s) | OpenSpiel / core | PettingZoo raw_env / core | env / core "
        "| env without observations / core | PettingZoo's floor / core |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in found["rates"]:
        lines.append(
            f"| `{r['preset']}` | {_k(r['core_per_s'])} | {r['openspiel_ratio']:.3f} | "
            f"{r['pettingzoo_raw_ratio']:.3f} | {r['pettingzoo_env_ratio']:.3f} | "
            f"{r['pettingzoo_unobserved_ratio']:.3f} | {r['pettingzoo_floor_ratio']:.3f} |"
        )
    t = found["tensors"]
    lines += [
        "",
        "**Tensors from Python**, at every decision of random matches (microseconds per call), against "
        "OpenSpiel's C++ Hearts:",
        "",
        "| tensor | values | µs per call | speed against Hearts' |",
        "|---|---:|---:|---:|",
        f"| Hearts' information state (C++) | {t['hearts_size']:,} | "
        f"{t['hearts_information_state_us']:.1f} | 1.00 |",
        f"| Catastrophe observation | {t['observation_size']:,} | {t['observation_us']:.1f} | "
        f"{t['observation_speed']:.2f} |",
        f"| Catastrophe information state (perfect recall) | {t['information_state_size']:,} | "
        f"{t['information_state_us']:.1f} | {t['information_state_speed']:.2f} |",
    ]
    return lines


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _presets() -> list[str]:
    """The presets to measure: every baseline preset the library has (Catastrophe came later)."""
    names = [name for name in BASELINE_PRESETS if name in cr.RULESETS]
    return names


@attrs.frozen
class Plan:
    """How much each part of a run measures (`main` picks one per mode).

    Example:
        >>> PLANS["smoke"].check_presets
        ()
    """

    repeats: int
    seconds: float
    verify: int
    long_rounds: int
    late_rounds: int
    call_seconds: float
    bot_seconds: float
    view_matches: int
    view_long_rounds: int
    check_presets: tuple[str, ...] | None
    """None: every preset."""
    document_rounds: tuple[int, ...]
    document_repeats: int
    hostile_limit: int
    """0: `MAX_LENGTH`."""
    perf_rounds: int
    perf_seconds: float


PLANS: dict[str, Plan] = {
    "smoke": Plan(1, 0.005, 1, 20, 5, 0.0, 0.005, 1, 20, (), (3,), 1, 20_000, 0, 0.0),
    "quick": Plan(5, 0.2, 10, 1000, 300, 0.02, 0.2, 10, 310, None, (100, 1000, 3000), 3, 0, 3, 0.5),
    "full": Plan(9, 0.5, 40, 1000, 300, 0.1, 0.5, 40, 1000, None, (100, 1000, 3000), 3, 0, 5, 1.5),
}


def run_all(
    *,
    repeats: int,
    seconds: float,
    verify: int,
    long_rounds: int,
    late_rounds: int,
    call_seconds: float,
    mode: str,
    shared: Path | None = None,
    old: Path | None = None,
    plan: Plan | None = None,
) -> dict[str, Any]:
    """Run every measurement and return the results (JSON-ready); progress goes to standard error.

    `shared` is the shared yardstick directory (None: leave it out); `old` another copy of the
    library to compare `loads` with (0.1's `src/cucumber_rules`).

    Example:
        `run_all(repeats=1, seconds=0.01, verify=1, long_rounds=20, late_rounds=5, call_seconds=0.0,
        mode="smoke")` is the test suite's tiny run.
    """
    plan = plan or PLANS["smoke" if mode == "smoke" else "quick"]
    results: dict[str, Any] = {"machine": machine(), "mode": mode, "repeats": repeats}
    _log(f"machine: {results['machine']}")
    reference = None
    if shared is not None:
        reference = load_script(shared / "reference.py", "cucumber_reference")
        if reference is None:
            _log(
                f"the shared yardstick is not at {shared}, or does not load (give --shared PATH or set "
                f"{SHARED_ENV}): the ratios below are against benchmarks/baseline.py only"
            )
    results["shared"] = None if shared is None else {"path": str(shared), "found": reference is not None}
    checked = {}
    presets = _presets()
    for preset in presets:
        for players in (3, 4):
            checked[f"{preset}/{players}"] = verify_exact(preset, players, verify)
        _log(f"verified: the baseline plays the library's {preset} matches exactly ({verify} matches x 2)")
    stats = {}
    for preset in presets:
        rows = verify_statistics(preset, 4, max(20, verify * 5))
        stats[preset] = [attrs.asdict(r) for r in rows]
        worst = max(abs(r.z) for r in rows)
        shown = ", ".join(f"{r.statistic} {r.library:.2f}/{r.baseline:.2f}" for r in rows)
        _log(f"statistics {preset} (library/baseline): {shown} (max |z| {worst:.1f})")
        if worst > 5:
            raise AssertionError(f"baseline statistics disagree with the library for {preset}: {rows}")
    results["verification"] = {"exact_decisions": checked, "statistics": stats}
    results["rates"] = []
    for preset in presets:
        row = compare_rates(preset, 4, repeats=repeats, seconds=seconds, reference=reference)
        results["rates"].append(attrs.asdict(row))
        line = f"playouts {preset}: library {_k(row.decisions_per_s)} decisions/s"
        if row.ratio is not None:
            line += f", baseline {_k(row.baseline_per_s or 0)}, ratio {row.ratio:.3f}"
        if row.reference_ratio is not None:
            line += f", reference {_k(row.reference_per_s or 0)}, ratio {row.reference_ratio:.3f}"
        _log(f"{line} (spread {row.spread:.0%})")
    results["perf_ratio"] = None
    if shared is not None and plan.perf_rounds:
        results["perf_ratio"] = perf_ratio(shared, plan.perf_rounds, plan.perf_seconds)
        _log(f"perf_ratio.py: {results['perf_ratio']}")
    scaling = fixed_round_scaling(long_rounds=long_rounds, repeats=max(2, repeats // 3))
    results["scaling"] = attrs.asdict(scaling)
    _log(f"scaling: {scaling}")
    calls = per_call(min_seconds=call_seconds, late_rounds=late_rounds)
    results["late_rounds"] = late_rounds
    results["calls"] = [attrs.asdict(r) for r in calls]
    for c in calls:
        _log(f"call {c.call}: {c.best_us:.2f} us (median {c.median_us:.2f})")
    results["bots"] = []
    for preset in presets:
        bots = bot_rates(preset, 4, repeats=repeats, seconds=plan.bot_seconds)
        results["bots"].append(attrs.asdict(bots))
        _log(f"bots {preset}: random {bots.random_ratio:.2f}x, heuristic {bots.heuristic_ratio:.2f}x of raw")
    results["views"] = []
    for preset in presets:
        long_rounds_views = plan.view_long_rounds if preset in ("agurk", "catastrophe") else 0
        for view_row in view_costs(preset, 4, plan.view_matches, long_rounds=long_rounds_views):
            results["views"].append(attrs.asdict(view_row))
            _log(f"view {preset}, {view_row.where}: {view_row.view_us:.2f} us, {view_row.ratio:.2f}x apply")
    check_presets = presets if plan.check_presets is None else list(plan.check_presets)
    results["check_game"] = check_times(check_presets)
    for preset, found in results["check_game"].items():
        _log(f"check_game {preset}: {found['seconds']:.1f} s ({found['actions']} actions)")
    old_library = load_old(old) if old is not None else None
    if old is not None and old_library is None:
        _log(f"no library to compare with at {old}")
    results["documents"] = honest_documents(plan.document_rounds, plan.document_repeats, old_library)
    results["old"] = None if old_library is None else {"path": str(old), "version": old_library.__version__}
    for doc in results["documents"]:
        _log(f"loads {doc}")
    results["hostile"] = hostile_times(plan.hostile_limit, repeats=1 if mode == "smoke" else 3)
    for doc in results["hostile"]:
        _log(f"loads {doc['document']}: {doc['seconds']:.3f} s, {doc['outcome']}")
    memory = memory_rows(long_rounds)
    results["memory"] = [attrs.asdict(r) for r in memory]
    for r in memory:
        _log(f"memory {r.what}: traced {r.traced_bytes:,} B, deep {r.deep_bytes:,} B, {r.actions} actions")
    results["adapters"] = adapters.run_all(repeats=repeats, seconds=plan.bot_seconds)
    # Names other helpers add while this runs: note any that appeared after the calls were timed.
    results["missing"] = [n for n in ("view", "dumps", "loads", "record", "replay") if _optional(n) is None]
    results["machine"]["load_average_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: see the module docstring.

    Example:
        `python benchmarks/run.py --quick --write` (the docs' figures)
    """
    parser = argparse.ArgumentParser(description="Benchmark cucumber_rules against mutable yardsticks.")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats (a minute or two)")
    parser.add_argument("--smoke", action="store_true", help=argparse.SUPPRESS)  # the test suite's tiny run
    parser.add_argument("--json", type=Path, help="write every figure to this JSON file")
    parser.add_argument("--markdown", type=Path, help="write the results tables to this Markdown file")
    parser.add_argument(
        "--write",
        action="store_true",
        help="write docs/data/performance.json and docs/snippets/performance_results.md (the docs' figures)",
    )
    parser.add_argument("--repeats", type=positive(int), help="repeats per measurement (default 9; quick 5)")
    parser.add_argument(
        "--shared",
        type=Path,
        help=f"the shared yardstick directory (default: ${SHARED_ENV}, else ../shared/bench)",
    )
    parser.add_argument(
        "--compare-with",
        type=Path,
        metavar="PATH",
        help="another copy of the library's package (e.g. 0.1's src/cucumber_rules) to compare loads with",
    )
    parser.add_argument("--seconds", type=positive(float), help="seconds per repeat (default 0.5; quick 0.2)")
    args = parser.parse_args(argv)
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    plan = PLANS[mode]
    repeats = args.repeats if args.repeats is not None else plan.repeats
    seconds = args.seconds if args.seconds is not None else plan.seconds
    results = run_all(
        repeats=repeats,
        seconds=seconds,
        verify=plan.verify,
        long_rounds=plan.long_rounds,
        late_rounds=plan.late_rounds,
        call_seconds=plan.call_seconds,
        mode=mode,
        shared=None if args.smoke and args.shared is None else shared_dir(args.shared),
        old=args.compare_with,
        plan=plan,
    )
    text = render_markdown(results)
    print(text)
    json_path = args.json or (ROOT / "docs" / "data" / "performance.json" if args.write else None)
    markdown_path = args.markdown or (
        ROOT / "docs" / "snippets" / "performance_results.md" if args.write else None
    )
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(results, indent=2) + "\n")
    if markdown_path:
        markdown_path.parent.mkdir(parents=True, exist_ok=True)
        markdown_path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
