"""Profile random playouts through the public API, to find the engine's hot spots.

    python benchmarks/profile_playouts.py [PRESET] [--matches N] [--players P] [--bots NAME]
        [--cprofile] [--top K]

It plays the same loop that `run.py` times (`legal_moves`, validated `apply`,
`sample_chance` for deals), or with `--bots random` (or `heuristic`) matches of
bots that see only views, as `simulate` plays them, under pyinstrument when it
is installed (the `dev` extra), or under cProfile with `--cprofile` or without
pyinstrument, and prints the report.

Example:
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = main(["gurka", "--matches", "2", "--cprofile", "--top", "3"])
    >>> code, "function calls" in out.getvalue()
    (0, True)
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = main(["catastrophe", "--matches", "1", "--bots", "heuristic", "--cprofile", "--top", "10"])
    >>> code, "bots.py" in out.getvalue()  # the heuristic (games/catastrophe/bots.py) is listed
    (0, True)
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pstats
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

import cucumber_rules as cr
from cucumber_rules.bots import BOTS

__all__ = ["bot_matches", "main", "playouts", "positive"]


def playouts(preset: str, players: int, matches: int, seed: int = 1) -> int:
    """Play `matches` random matches of a preset through the public API; return the decisions made.

    Example:
        >>> playouts("gurka", 2, 1) > 0
        True
    """
    rules = cr.ruleset(preset)
    rng = random.Random(seed)
    rnd = rng.random
    decisions = 0
    for _ in range(matches):
        state = cr.new_game(rules, players)
        while state.to_act is not None:
            if state.to_act < 0:
                state = cr.apply(state, cr.sample_chance(state, rng))
                continue
            moves = cr.legal_moves(state)
            k = len(moves)
            state = cr.apply(state, moves[int(rnd() * k)] if k > 1 else moves[0])
            decisions += 1
    return decisions


def bot_matches(preset: str, players: int, matches: int, bots: str, seed: int = 1) -> int:
    """Play `matches` matches of bots that see only views, as `simulate` does; return the decisions made.

    Example:
        >>> bot_matches("gurka", 2, 1, "random") > 0
        True
    """
    from cucumber_rules.simulate import simulate

    result = simulate(cr.ruleset(preset), players, bots, matches=matches, seed=seed)
    return sum(m.decisions for m in result.matches)


def positive(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type: a number of `kind` above zero, else argparse's usage error.

    Example:
        >>> positive(int)("3"), positive(float)("0.5")
        (3, 0.5)
    """

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not value > 0:
            raise argparse.ArgumentTypeError(f"must be a number above 0, not {text!r}")
        return value

    parse.__name__ = kind.__name__  # (argparse names the type in its messages)
    return parse


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: see the module docstring.

    Example:
        `python benchmarks/profile_playouts.py agurk --matches 500`
    """
    parser = argparse.ArgumentParser(description="Profile random playouts of a preset.")
    parser.add_argument("preset", nargs="?", default="agurk", choices=sorted(cr.RULESETS))
    parser.add_argument("--matches", type=positive(int), default=300)
    parser.add_argument("--players", type=positive(int), default=4)
    parser.add_argument("--bots", choices=sorted(BOTS), help="profile matches of these bots instead")
    parser.add_argument("--cprofile", action="store_true", help="use cProfile even if pyinstrument is there")
    parser.add_argument("--top", type=positive(int), default=25, help="cProfile: how many functions to list")
    args = parser.parse_args(argv)
    rules = cr.ruleset(args.preset)
    if not rules.min_players <= args.players <= rules.max_players:
        span = f"{rules.min_players} to {rules.max_players}"
        parser.error(f"{args.preset} is for {span} players, not {args.players}")

    def play(matches: int) -> int:
        if args.bots:
            return bot_matches(args.preset, args.players, matches, args.bots)
        return playouts(args.preset, args.players, matches)

    play(1)  # warm up: imports, rule plans
    try:
        pyinstrument = None if args.cprofile else importlib.import_module("pyinstrument")
    except ImportError:
        print("pyinstrument is not installed: profiling with cProfile", file=sys.stderr)
        pyinstrument = None
    if pyinstrument is not None:
        profiler = pyinstrument.Profiler(interval=0.0002)
        profiler.start()
        play(args.matches)
        profiler.stop()
        print(profiler.output_text(unicode=True, color=False, show_all=False))
        return 0
    profile = cProfile.Profile()
    profile.enable()
    play(args.matches)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
