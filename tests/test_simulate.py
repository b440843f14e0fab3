"""Simulation: seeded, independent of executors and workers, summarised with Wilson intervals."""

from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import cucumber_rules as cr
from cucumber_rules.bots import Bot, HeuristicBot, RandomBot
from cucumber_rules.simulate import (
    MatchResult,
    SimulationResult,
    WinRate,
    match_seed,
    play_match,
    play_steps,
    run_matches,
    simulate,
    wilson,
)

GURKA = cr.ruleset("gurka")


def test_match_seeds_are_stable_and_distinct() -> None:
    assert match_seed(0, 0) == match_seed(0, 0)
    seeds = {match_seed(s, i) for s in range(5) for i in range(50)}
    assert len(seeds) == 250
    assert match_seed(1, 0) != match_seed(0, 1)


def test_a_match_is_reproducible_from_its_seed() -> None:
    bots: list[Bot] = [HeuristicBot(), RandomBot(), RandomBot()]
    a = play_match(cr.ruleset("agurk"), bots, seed=42)
    b = play_match(cr.ruleset("agurk"), bots, seed=42)
    c = play_match(cr.ruleset("agurk"), bots, seed=43)
    assert a == b
    assert a.actions != c.actions


def test_deals_do_not_depend_on_the_bots() -> None:
    rules = cr.ruleset("catastrophe")
    a = play_match(rules, [RandomBot()] * 3, seed=8)
    b = play_match(rules, [HeuristicBot()] * 3, seed=8)
    assert a.actions[0] == b.actions[0]  # the first deal
    assert a.actions != b.actions


def test_play_steps_yields_every_transition() -> None:
    steps = list(play_steps(GURKA, [RandomBot(), RandomBot()], seed=1, players=["Ann", "Bo"]))
    assert isinstance(steps[0][1], cr.Deal)
    for (before, action, after), nxt in itertools.pairwise(steps):
        assert cr.apply(before, action) == after
        assert nxt[0] is after
    assert steps[-1][2].is_over
    assert steps[-1][2].players == ("Ann", "Bo")
    with pytest.raises(ValueError, match="3 bots for 2 players"):
        next(play_steps(GURKA, [RandomBot()] * 3, seed=1, players=["Ann", "Bo"]))


def test_simulate_returns_matches_in_order_with_their_seeds() -> None:
    result = simulate(GURKA, players=3, bots="heuristic,random", matches=7, seed=9)
    assert [m.index for m in result.matches] == list(range(7))
    assert [m.seed for m in result.matches] == [match_seed(9, i) for i in range(7)]
    assert result == simulate(GURKA, players=3, bots="heuristic,random", matches=7, seed=9)
    assert result != simulate(GURKA, players=3, bots="heuristic,random", matches=7, seed=10)
    for m in result.matches:
        final = play_match(
            GURKA, [HeuristicBot() if b == "heuristic" else RandomBot() for b in m.bots], seed=m.seed
        )
        assert cr.score(final).winners == m.winners
        assert cr.score(final).totals == m.totals
        assert final.match.rounds == m.rounds


def test_seats_rotate_so_each_bot_sits_everywhere() -> None:
    result = simulate(GURKA, players=3, bots=["heuristic", "random"], matches=6, seed=0)
    assert [m.bots for m in result.matches[:3]] == [
        ("heuristic", "random", "random"),
        ("random", "heuristic", "random"),
        ("random", "random", "heuristic"),
    ]
    fixed = simulate(GURKA, players=3, bots=["heuristic", "random"], matches=3, seed=0, rotate=False)
    assert {m.bots for m in fixed.matches} == {("heuristic", "random", "random")}


def test_results_do_not_depend_on_the_executor_or_chunking() -> None:
    args = {"players": 3, "bots": ["heuristic", "random"], "matches": 9, "seed": 4}
    alone = simulate(GURKA, **args)  # type: ignore[arg-type]
    assert simulate(GURKA, chunk_size=1, **args) == alone  # type: ignore[arg-type]
    with ThreadPoolExecutor(3) as threads:
        assert simulate(GURKA, executor=threads, chunk_size=2, **args) == alone  # type: ignore[arg-type]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as processes:
        assert simulate(GURKA, executor=processes, chunk_size=4, **args) == alone  # type: ignore[arg-type]


def test_progress_is_reported_up_to_the_total() -> None:
    seen: list[int] = []
    simulate(GURKA, players=2, bots="random", matches=10, seed=0, chunk_size=3, progress=seen.append)
    assert seen == [3, 6, 9, 10]
    seen.clear()
    with ThreadPoolExecutor(2) as pool:
        simulate(
            GURKA,
            players=2,
            bots="random",
            matches=10,
            seed=0,
            executor=pool,
            chunk_size=4,
            progress=seen.append,
        )
    assert sorted(seen) == seen
    assert seen[-1] == 10
    assert len(seen) == 3


def test_run_matches_is_the_unit_of_work() -> None:
    chunk = run_matches(GURKA, [RandomBot(), HeuristicBot()], 5, 2, 4)
    whole = simulate(GURKA, players=2, bots=["random", "heuristic"], matches=4, seed=5)
    assert chunk == list(whole.matches[2:4])


# --------------------------------------------------------------------------- statistics


def test_wilson_interval_known_values() -> None:
    low, high = wilson(30, 100)
    assert math.isclose(low, 0.2189, abs_tol=1e-4)
    assert math.isclose(high, 0.3958, abs_tol=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0
    assert math.isclose(high, 0.2775, abs_tol=1e-4)
    low, high = wilson(10, 10)
    assert math.isclose(low, 0.7225, abs_tol=1e-4)
    assert high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(5, 10)[0] < 0.5 < wilson(5, 10)[1]


def _match(index: int, bots: tuple[str, ...], winners: tuple[int, ...]) -> MatchResult:
    n = len(bots)
    return MatchResult(index, index, bots, winners, (0,) * n, 1, 10, (4,))


def test_shared_wins_are_split_and_rates_add_up() -> None:
    result = SimulationResult(
        rules=GURKA,
        players=2,
        bots=("heuristic", "random"),
        seed=0,
        rotate=True,
        matches=(
            _match(0, ("heuristic", "random"), (0,)),
            _match(1, ("random", "heuristic"), (0, 1)),
            _match(2, ("heuristic", "random"), (1,)),
            _match(3, ("random", "heuristic"), (1,)),
        ),
    )
    assert [r.wins for r in result.seat_rates()] == [1.5, 2.5]
    rates = result.bot_rates()
    assert rates["heuristic"] == WinRate(2.5, 4)
    assert rates["random"] == WinRate(1.5, 4)
    assert rates["heuristic"].rate == 0.625
    assert rates["heuristic"].low < 0.625 < rates["heuristic"].high


def test_summaries_and_json() -> None:
    rules = cr.ruleset("agurk", threshold=30)
    result = simulate(rules, players=3, bots="heuristic,random", matches=6, seed=1)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["preset"] == "agurk"
    assert data["options"] == {"threshold": 30}
    assert data["matches"] == 6
    assert data["bots"] == ["heuristic", "random", "random"]
    assert sum(r["wins"] for r in data["seat_win_rates"]) == pytest.approx(6)
    assert data["bot_win_rates"]["random"]["games"] == 12
    assert data["rounds_per_match"]["mean"] == pytest.approx(sum(m.rounds for m in result.matches) / 6)
    # Ladder penalties: what the last trick cost each round, a card value 2..14.
    dist = result.penalty_distribution()
    assert sum(dist.values()) == sum(m.rounds for m in result.matches)
    assert set(dist) <= set(range(2, 15))
    assert data["penalties"]["count"] == sum(dist.values())


def test_catastrophe_penalties_are_cucumbers_per_seat_per_hand() -> None:
    result = simulate(cr.ruleset("catastrophe"), players=3, bots="random", matches=2, seed=1)
    for m in result.matches:
        assert m.rounds == 4
        assert len(m.penalties) == 4 * 3
        assert sum(m.penalties) == sum(m.totals)


def test_empty_simulation() -> None:
    result = simulate(GURKA, players=2, matches=0)
    assert result.matches == ()
    assert result.seat_rates() == (WinRate(0, 0), WinRate(0, 0))
    assert result.to_dict()["penalties"]["count"] == 0


def test_bad_arguments() -> None:
    with pytest.raises(cr.InvalidRulesError, match="players"):
        simulate(cr.ruleset("agurk"), players=2)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(GURKA, players=2, bots="genius")
    with pytest.raises(ValueError, match="3 bots for 2 players"):
        simulate(GURKA, players=2, bots="random,random,random")
    with pytest.raises(ValueError, match="matches must be 0 or more"):
        simulate(GURKA, players=2, matches=-1)
    with pytest.raises(ValueError, match="chunk_size"):
        simulate(GURKA, players=2, matches=3, chunk_size=0)
    with pytest.raises(TypeError):
        simulate("gurka", players=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        simulate(GURKA, players=2, matches=2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        simulate(GURKA, players=["Ann", "Bo"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        simulate(GURKA, players=2, seed=random.Random(1))  # type: ignore[arg-type]
