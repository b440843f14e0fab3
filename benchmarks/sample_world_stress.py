"""Stress `sample_world`: random views of random matches, each sampled with several seeds.

For every preset (with 3 to 6 players, as its rules allow) and every Catastrophe
variant (Surprise Cucumber, If You Can't Beat 'Em, both), matches are played at
random; at random points of each, a random seat's view is sampled with several
seeds. Each call is timed and checked (`view(world, seat) == view` and
`replay(record(world)) == world`); a call that raises or gives a wrong world is a
failure, listed with what reproduces it. Everything is seeded: the same arguments
give the same views and seeds.

Run by hand (never part of the test suite):

    python benchmarks/sample_world_stress.py [--matches 6] [--cuts 6] [--seeds 3] [--seed 0]

Example:
    >>> report = stress(matches=1, cuts=1, seeds=1, configs=[("gurka", {}, 3)])
    >>> report.calls, report.failures
    (1, [])
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

import attrs

import cucumber_rules as cr
from cucumber_rules.testing.strategies import random_play

#: Catastrophe's variants: option overrides of its preset.
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"surprise": True},
    {"cant_beat_em": True},
    {"surprise": True, "cant_beat_em": True},
)

Config = tuple[str, dict[str, Any], int]


def configs() -> list[Config]:
    """Every preset with 3 to 6 players (as allowed), and every Catastrophe variant.

    Example:
        >>> len([c for c in configs() if c[0] == "catastrophe"])
        16
    """
    out: list[Config] = []
    for preset in sorted(cr.RULESETS):
        base = cr.ruleset(preset)
        variants = VARIANTS if base.game == "catastrophe" else ({},)
        for options in variants:
            for players in range(max(3, base.min_players), min(6, base.max_players) + 1):
                out.append((preset, options, players))
    return out


@attrs.frozen
class Failure:
    """A call of `sample_world` that raised or gave a wrong world, and how to reproduce it."""

    preset: str
    options: dict[str, Any]
    players: int
    match_seed: int
    cut: int
    seat: int
    seed: int
    error: str


@attrs.frozen
class Report:
    """What a stress run found."""

    calls: int
    failures: list[Failure]
    slowest: float
    slowest_call: tuple[str, dict[str, Any], int, int, int, int, int] | None
    total: float


def view_of(preset: str, options: dict[str, Any], players: int, match_seed: int, cut: int, seat: int) -> Any:
    """The view a stress run samples: `seat`'s after `cut` actions of the seeded random match.

    Example:
        >>> view_of("gurka", {}, 3, 1, 4, 0).round_number
        1
    """
    rules = cr.ruleset(preset, **options)
    full = random_play(rules, players, 0, match_seed, 100_000)
    state = cr.replay(cr.Record(rules, players, 0, full.actions[:cut]))
    return cr.view(state, seat)


def stress(
    *, matches: int, cuts: int, seeds: int, seed: int = 0, configs: Sequence[Config] | None = None
) -> Report:
    """Sample `seeds` worlds of `cuts` random views of `matches` random matches per config."""
    chosen = list(configs) if configs is not None else globals()["configs"]()
    picker = random.Random(seed)
    calls = 0
    failures: list[Failure] = []
    slowest = 0.0
    slowest_call = None
    total = 0.0
    for preset, options, players in chosen:
        rules = cr.ruleset(preset, **options)
        for _ in range(matches):
            match_seed = picker.randrange(2**32)
            full = random_play(rules, players, 0, match_seed, 100_000)
            for _ in range(cuts):
                cut = picker.randrange(len(full.actions) + 1)
                seat = picker.randrange(players)
                state = cr.replay(cr.Record(rules, players, 0, full.actions[:cut]))
                v = cr.view(state, seat)
                for _ in range(seeds):
                    sample_seed = picker.randrange(2**32)
                    calls += 1
                    start = time.perf_counter()
                    error = ""
                    try:
                        world = cr.sample_world(v, random.Random(sample_seed))
                    except Exception as caught:
                        error = f"{type(caught).__name__}: {caught}"
                    spent = time.perf_counter() - start
                    total += spent
                    if not error:
                        if cr.view(world, seat) != v:
                            error = "wrong view"
                        elif cr.replay(cr.record(world)) != world:
                            error = "does not replay"
                    if spent > slowest:
                        slowest = spent
                        slowest_call = (preset, options, players, match_seed, cut, seat, sample_seed)
                    if error:
                        failures.append(
                            Failure(preset, options, players, match_seed, cut, seat, sample_seed, error)
                        )
    return Report(calls, failures, slowest, slowest_call, total)


def main(argv: Sequence[str] | None = None) -> None:
    """Run from the command line and print the failures, the failure rate and the slowest call."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=6, help="matches per config")
    parser.add_argument("--cuts", type=int, default=6, help="views per match")
    parser.add_argument("--seeds", type=int, default=3, help="sample_world seeds per view")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run")
    parser.add_argument("--only", default=None, help="only this preset")
    args = parser.parse_args(argv)
    chosen = [c for c in configs() if args.only is None or c[0] == args.only]
    report = stress(matches=args.matches, cuts=args.cuts, seeds=args.seeds, seed=args.seed, configs=chosen)
    for f in report.failures:
        print(
            f"FAIL {f.preset} {f.options} players={f.players} match_seed={f.match_seed} cut={f.cut} "
            f"seat={f.seat} seed={f.seed}: {f.error}"
        )
    rate = len(report.failures) / report.calls if report.calls else 0.0
    print(f"calls {report.calls}, failures {len(report.failures)} ({rate:.3%})")
    print(f"slowest call {report.slowest:.3f} s: {report.slowest_call}")
    print(f"mean call {report.total / max(report.calls, 1) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
