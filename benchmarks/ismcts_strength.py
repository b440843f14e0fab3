"""How strong the search bot (`ISMCTSBot`) is against the heuristic and random bots, and how fast.

For each preset, one `ISMCTSBot` plays against heuristic bots in the other
seats, then against random bots; the seats rotate from match to match. The table
gives its win rate with a 95% Wilson interval, next to what a seat wins by
chance (1/players); a shared win counts 1/k for each of its k winners. Its speed
is the decisions per second it makes at positions of random matches where it
has a choice (`--timing` of them per preset; the best of 3 timings, in CPU
time), on one core.

Run by hand (never part of the test suite); it takes a while (the bot searches
every move):

    python benchmarks/ismcts_strength.py [--matches 30] [--players 4] [--iterations 40] [--seed 2024]
        [--markdown docs/snippets/ismcts_strength.md] [--json docs/data/ismcts_strength.json]

The docs page `docs/bots.md` includes the `--markdown` output; `--json` keeps the
figures (with how they were made) beside the other build-time data in `docs/data/`.

Example:
    >>> rows = measure(matches=2, players=3, iterations=4, seed=1, timing=2, presets=("gurka",))
    >>> rows[0].preset, rows[0].against_random.games, rows[0].decisions_per_second > 0
    ('gurka', 2, True)
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import platform
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import attrs

import cucumber_rules as cr
from cucumber_rules.bots import ISMCTSBot
from cucumber_rules.simulate import WinRate, simulate
from cucumber_rules.testing.strategies import random_play

PRESETS = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe")


@attrs.frozen
class Row:
    """One preset's result."""

    preset: str
    players: int
    iterations: int
    against_heuristic: WinRate
    """The search bot's wins, one seat against heuristic bots."""
    against_random: WinRate
    """The search bot's wins, one seat against random bots."""
    decisions_per_second: float
    seconds: float


def decision_speed(
    rules: cr.Rules, players: int, bot: ISMCTSBot, positions: int, seed: int, repeats: int = 3
) -> float:
    """Decisions per second at `positions` random points of matches where the seat has a choice.

    The same decisions (each with its own seeded generator, so the same work) are timed `repeats`
    times in CPU time, and the fastest run counts: other programs on the machine slow a run down,
    never speed it up.

    Example:
        >>> decision_speed(cr.ruleset("gurka"), 3, ISMCTSBot(iterations=2), 2, 1) > 0
        True
    """
    rng = random.Random(seed)
    views: list[cr.PlayerView] = []
    while len(views) < positions:
        state = random_play(rules, players, 0, rng.randrange(2**32), rng.randrange(200))
        if state.to_act is not None and state.to_act >= 0 and len(cr.legal_moves(state)) > 1:
            views.append(cr.view(state, state.to_act))
    best = math.inf
    for _ in range(repeats):
        start = time.process_time()
        for i, view in enumerate(views):
            bot.choose(view, random.Random(i))
        best = min(best, time.process_time() - start)
    return positions / best


def measure(
    matches: int,
    players: int,
    iterations: int,
    seed: int,
    timing: int = 20,
    presets: Sequence[str] = PRESETS,
) -> list[Row]:
    """Play `matches` matches per preset and opponent, and time `timing` decisions per preset.

    Example:
        >>> measure(matches=1, players=3, iterations=2, seed=0, timing=1, presets=("agurk",))[0].players
        3
    """
    bot = ISMCTSBot(iterations=iterations)
    rows = []
    for preset in presets:
        start = time.perf_counter()
        rules = cr.ruleset(preset)
        rates = {}
        for other in ("heuristic", "random"):
            result = simulate(rules, players=players, bots=[bot, other], matches=matches, seed=seed)
            rates[other] = result.bot_rates()["ismcts"]
        speed = decision_speed(rules, players, bot, timing, seed)
        rows.append(
            Row(
                preset=preset,
                players=players,
                iterations=iterations,
                against_heuristic=rates["heuristic"],
                against_random=rates["random"],
                decisions_per_second=speed,
                seconds=time.perf_counter() - start,
            )
        )
    return rows


def markdown(rows: Sequence[Row], *, matches: int, seed: int) -> str:
    """The results as a Markdown table, with how they were made.

    Example:
        >>> print(markdown([], matches=0, seed=0).splitlines()[0][:53])
        | preset | players | vs heuristic bots | 95% interval
    """
    lines = [
        "| preset | players | vs heuristic bots | 95% interval | vs random bots | 95% interval | by chance "
        "| decisions/s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        h, x = r.against_heuristic, r.against_random
        lines.append(
            f"| `{r.preset}` | {r.players} | **{h.rate:.0%}** | {h.low:.0%} – {h.high:.0%} "
            f"| **{x.rate:.0%}** | {x.low:.0%} – {x.high:.0%} | {1 / r.players:.0%} "
            f"| {r.decisions_per_second:.1f} |"
        )
    players = rows[0].players if rows else 0
    iterations = rows[0].iterations if rows else 0
    lines += [
        "",
        f"{matches} matches per preset and opponent, one `ISMCTSBot(iterations={iterations})` against "
        f"{players - 1} bots of one kind, seats rotated, seed {seed}; decisions per second on one core "
        f"at positions where the bot has a choice (the best of 3 timings, in CPU time); "
        f"cucumber_rules {cr.__version__}, "
        f"Python {platform.python_version()}. Made with `python benchmarks/ismcts_strength.py "
        f"--matches {matches} --players {players} --iterations {iterations} --seed {seed} "
        "--markdown docs/snippets/ismcts_strength.md --json docs/data/ismcts_strength.json`.",
    ]
    return "\n".join(lines) + "\n"


def to_json(rows: Sequence[Row], *, matches: int, seed: int) -> dict[str, object]:
    """The results as JSON-ready data, with how they were made.

    Example:
        >>> data = to_json(measure(1, 3, 2, 0, timing=1, presets=("agurk",)), matches=1, seed=0)
        >>> sorted(data["presets"][0])[:3]
        ['against_heuristic', 'against_random', 'decisions_per_second']
    """
    players = rows[0].players if rows else 0
    iterations = rows[0].iterations if rows else 0
    return {
        "made": {
            "command": f"python benchmarks/ismcts_strength.py --matches {matches} --players {players} "
            f"--iterations {iterations} --seed {seed}",
            "matches": matches,
            "players": players,
            "iterations": iterations,
            "seed": seed,
            "cucumber_rules": cr.__version__,
            "python": platform.python_version(),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        },
        "presets": [
            {
                "preset": r.preset,
                "players": r.players,
                "against_heuristic": r.against_heuristic.to_dict(),
                "against_random": r.against_random.to_dict(),
                "decisions_per_second": round(r.decisions_per_second, 2),
                "seconds": round(r.seconds, 1),
            }
            for r in rows
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement and print (or write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=30, help="matches per preset and opponent")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=40, help="the bot's iterations per decision")
    parser.add_argument("--timing", type=int, default=20, help="decisions timed per preset")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--markdown", type=Path, help="write the Markdown table to this file")
    parser.add_argument("--json", type=Path, help="write the results to this file")
    args = parser.parse_args(argv)
    rows = measure(args.matches, args.players, args.iterations, args.seed, args.timing)
    for r in rows:
        print(
            f"{r.preset:15} vs heuristic {r.against_heuristic.rate:6.1%}"
            f"  vs random {r.against_random.rate:6.1%}"
            f"  {r.decisions_per_second:6.1f} decisions/s  {r.seconds:6.1f} s",
            file=sys.stderr,
        )
    text = markdown(rows, matches=args.matches, seed=args.seed)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(to_json(rows, matches=args.matches, seed=args.seed), indent=1) + "\n")
    if args.markdown is not None:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
