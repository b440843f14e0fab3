"""How much stronger the heuristic bot is than random play, in every preset.

For each preset, one `HeuristicBot` plays against random bots in the other
seats; the seats rotate from match to match so the heuristic sits in every seat
equally often. The table gives its win rate with a 95% Wilson interval, next to
what a seat wins by chance (1/players). A shared win counts 1/k for each of its
k winners.

Run by hand (never part of the test suite):

    python benchmarks/bot_strength.py [--matches 400] [--players 4] [--seed 2024] [--workers 2]
        [--markdown docs/snippets/bot_strength.md] [--json docs/data/bot_strength.json]

The docs page `docs/bots.md` includes `docs/snippets/bot_strength.md`, which is
this script's `--markdown` output, and plots `docs/data/bot_strength.json`, its
`--json` output (win rates with their intervals, and how the final scores of
each bot are spread): rerun it with both after changing a bot.

Example:
    >>> rows = measure(matches=4, players=3, seed=1, presets=("gurka",))
    >>> rows[0].preset, rows[0].rate.games
    ('gurka', 4)
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import platform
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

import attrs

import cucumber_rules as cr
from cucumber_rules.simulate import SimulationResult, WinRate, simulate

PRESETS = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe")


@attrs.frozen
class Row:
    """One preset's result."""

    preset: str
    players: int
    rate: WinRate
    """The heuristic bot's wins out of its matches."""
    random_rate: WinRate
    """The random bots' wins out of their seats."""
    rounds: float
    """Mean rounds (Catastrophe: hands) per match."""
    seconds: float
    totals: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()
    """Per bot, how often each final total occurred: `(bot, ((total, count), ...))`, totals ascending."""
    penalties: tuple[tuple[int, int], ...] = ()
    """How often each penalty occurred (`SimulationResult.penalty_distribution`), ascending."""


def final_totals(result: SimulationResult) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """Per bot name, the final totals of its seats over all matches, counted.

    Example:
        >>> r = simulate(cr.ruleset("gurka", hand_size=1), players=2, bots=["heuristic", "random"],
        ...              matches=2, seed=1)
        >>> [name for name, _ in final_totals(r)], sum(n for _, n in final_totals(r)[0][1])
        (['heuristic', 'random'], 2)
    """
    counts: dict[str, Counter[int]] = {}
    for match in result.matches:
        for seat, name in enumerate(match.bots):
            counts.setdefault(name, Counter())[match.totals[seat]] += 1
    return tuple((name, tuple(sorted(counts[name].items()))) for name in sorted(counts))


def measure(
    matches: int,
    players: int,
    seed: int,
    presets: Sequence[str] = PRESETS,
    executor: Executor | None = None,
) -> list[Row]:
    """Play `matches` matches per preset: one heuristic seat against random seats.

    Example:
        >>> measure(matches=2, players=3, seed=0, presets=("agurk",))[0].players
        3
    """
    rows = []
    for preset in presets:
        start = time.perf_counter()
        result = simulate(
            cr.ruleset(preset),
            players=players,
            bots=["heuristic", "random"],
            matches=matches,
            seed=seed,
            executor=executor,
        )
        rates = result.bot_rates()
        rows.append(
            Row(
                preset=preset,
                players=players,
                rate=rates["heuristic"],
                random_rate=rates["random"],
                rounds=result.rounds_per_match()["mean"],
                seconds=time.perf_counter() - start,
                totals=final_totals(result),
                penalties=tuple(result.penalty_distribution().items()),
            )
        )
    return rows


def markdown(rows: Sequence[Row], *, matches: int, seed: int) -> str:
    """The results as a Markdown table, with how they were made.

    Example:
        >>> print(markdown([], matches=0, seed=0).splitlines()[0])
        | preset | players | heuristic bot wins | 95% interval | by chance | each random seat wins |
    """
    lines = [
        "| preset | players | heuristic bot wins | 95% interval | by chance | each random seat wins |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| `{r.preset}` | {r.players} | **{r.rate.rate:.1%}** | {r.rate.low:.1%} – {r.rate.high:.1%} "
            f"| {1 / r.players:.1%} | {r.random_rate.rate:.1%} |"
        )
    players = rows[0].players if rows else 0
    lines += [
        "",
        f"{matches} matches per preset, one `HeuristicBot` against {players - 1} `RandomBot`s, "
        f"seats rotated, seed {seed}; cucumber_rules {cr.__version__}, Python {platform.python_version()}. "
        f"Made with `python benchmarks/bot_strength.py --matches {matches} --players {players} --seed {seed} "
        "--markdown docs/snippets/bot_strength.md --json docs/data/bot_strength.json`.",
    ]
    return "\n".join(lines) + "\n"


def to_json(rows: Sequence[Row], *, matches: int, seed: int) -> dict[str, object]:
    """The results as JSON-ready data, with how they were made (the docs' plots read this).

    Example:
        >>> data = to_json(measure(matches=2, players=3, seed=0, presets=("agurk",)), matches=2, seed=0)
        >>> data["presets"][0]["preset"], sorted(data["presets"][0]["totals"])
        ('agurk', ['heuristic', 'random'])
    """
    players = rows[0].players if rows else 0
    command = f"python benchmarks/bot_strength.py --matches {matches} --players {players} --seed {seed}"
    return {
        "made": {
            "command": command,
            "matches": matches,
            "players": players,
            "seed": seed,
            "cucumber_rules": cr.__version__,
            "python": platform.python_version(),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        },
        "presets": [
            {
                "preset": r.preset,
                "players": r.players,
                "heuristic": r.rate.to_dict(),
                "random": r.random_rate.to_dict(),
                "rounds_per_match": r.rounds,
                "totals": {name: {str(total): n for total, n in counts} for name, counts in r.totals},
                "penalties": {str(value): n for value, n in r.penalties},
            }
            for r in rows
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement and print (or write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=400, help="matches per preset")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--markdown", type=Path, help="write the Markdown table to this file")
    parser.add_argument("--json", type=Path, help="write the results (for the docs' plots) to this file")
    args = parser.parse_args(argv)
    if args.workers > 1:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
            rows = measure(args.matches, args.players, args.seed, executor=pool)
    else:
        rows = measure(args.matches, args.players, args.seed)
    for r in rows:
        print(
            f"{r.preset:15} heuristic {r.rate.rate:6.1%} [{r.rate.low:.1%}, {r.rate.high:.1%}]"
            f"  random seats {r.random_rate.rate:6.1%}  {r.rounds:5.1f} rounds/match  {r.seconds:5.1f} s",
            file=sys.stderr,
        )
    text = markdown(rows, matches=args.matches, seed=args.seed)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        data = to_json(rows, matches=args.matches, seed=args.seed)
        args.json.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if args.markdown is not None:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
