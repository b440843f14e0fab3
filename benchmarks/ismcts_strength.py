"""How strong the search bot (`ISMCTSBot`) is against the heuristic and random bots, and how fast.

For each preset and each setting of the bot (by default its default, 200 iterations with heuristic
playouts, and the cheap 40), one `ISMCTSBot` plays against heuristic bots in the other seats, then
against random bots; the seats rotate from match to match. Matches are added in batches (batch k
is seeded `seed + k`) until the 95% Wilson interval of the win rate is at most `2 * half_width`
wide, or `--max-matches` are played; a shared win counts 1/k for each of its k winners. Its speed
is the decisions per second it makes at positions of random matches where it has a choice
(`--timing` of them; the best of 3 timings, in CPU time), on one core.

Run by hand (never part of the test suite); it takes hours for every row (the bot searches every
move), so `--presets`, `--settings` and `--opponents` pick rows:

    python benchmarks/ismcts_strength.py [--settings 200:heuristic 40:heuristic] [--presets catastrophe]
        [--opponents heuristic] [--half-width 0.05] [--seed 2025]
        [--markdown docs/snippets/ismcts_strength.md] [--json docs/data/ismcts_strength.json]

The docs page `docs/bots.md` includes the `--markdown` output; `--json` keeps the
figures (with how they were made) beside the other build-time data in `docs/data/`.

Example:
    >>> rows = measure(3, [(4, "random")], 1, half_width=0.5, batch=2, max_matches=2, timing=2,
    ...                presets=("gurka",), opponents=("random",))
    >>> rows[0].preset, rows[0].wins.games, rows[0].decisions_per_second > 0
    ('gurka', 2, True)
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import platform
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

import cucumber_rules as cr
from cucumber_rules.bots import ISMCTSBot
from cucumber_rules.simulate import WinRate, simulate
from cucumber_rules.testing.strategies import random_play

PRESETS = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe")


@attrs.frozen
class Row:
    """One preset's result at one setting of the bot, against one kind of opponent."""

    preset: str
    players: int
    iterations: int
    rollout: str
    opponent: str
    wins: WinRate
    """The search bot's wins, one seat against `players - 1` bots of the opponent's kind."""
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


def win_rate(
    rules: cr.Rules, players: int, bot: ISMCTSBot, opponent: str, *, seed: int, half_width: float,
    batch: int, max_matches: int, executor: Executor | None = None,
) -> WinRate:  # fmt: skip
    """Play batches of matches until the 95% interval is at most `2 * half_width` wide (or `max_matches`).

    Batch k is `simulate(..., matches=batch, seed=seed + k)`, so the same arguments replay the same
    matches.

    Example:
        >>> r = win_rate(cr.ruleset("gurka"), 3, ISMCTSBot(iterations=2), "random", seed=1, half_width=0.5,
        ...              batch=2, max_matches=4)
        >>> r.games in (2, 4)
        True
    """
    wins, games, k = 0.0, 0, 0
    while games < max_matches:
        result = simulate(
            rules, players=players, bots=[bot, opponent], matches=batch, seed=seed + k, executor=executor
        )
        found = result.bot_rates()["ismcts"]
        wins += found.wins
        games += found.games
        k += 1
        rate = WinRate(wins=wins, games=games)
        if (rate.high - rate.low) / 2 <= half_width:
            break
    return WinRate(wins=wins, games=games)


def measure(
    players: int,
    settings: Sequence[tuple[int, str]],
    seed: int,
    *,
    half_width: float = 0.05,
    batch: int = 50,
    max_matches: int = 800,
    timing: int = 20,
    presets: Sequence[str] = PRESETS,
    opponents: Sequence[str] = ("heuristic", "random"),
    executor: Executor | None = None,
) -> list[Row]:
    """One row per preset, setting `(iterations, rollout)` and opponent (see `win_rate`), with the speed.

    Example:
        >>> rows = measure(3, [(2, "random")], 0, half_width=0.5, batch=1, max_matches=1, timing=1,
        ...                presets=("agurk",), opponents=("random",))
        >>> rows[0].players, rows[0].wins.games
        (3, 1)
    """
    rows = []
    for preset in presets:
        rules = cr.ruleset(preset)
        for iterations, rollout in settings:
            bot = ISMCTSBot(iterations=iterations, rollout=rollout)
            speed = decision_speed(rules, players, bot, timing, seed)
            for opponent in opponents:
                start = time.perf_counter()
                rate = win_rate(
                    rules, players, bot, opponent, seed=seed, half_width=half_width, batch=batch,
                    max_matches=max_matches, executor=executor,
                )  # fmt: skip
                row = Row(
                    preset, players, iterations, rollout, opponent, rate, speed, time.perf_counter() - start
                )
                rows.append(row)
                print(
                    f"{preset:15} {iterations:4} {rollout:9} vs {opponent:9} {rate.rate:6.1%} "
                    f"[{rate.low:.1%}-{rate.high:.1%}] n={rate.games}  {speed:6.1f} decisions/s  "
                    f"{row.seconds:6.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    return rows


def _command(args: argparse.Namespace) -> str:
    settings = " ".join(f"{i}:{r}" for i, r in args.settings)
    return (
        f"python benchmarks/ismcts_strength.py --players {args.players} --settings {settings} "
        f"--presets {' '.join(args.presets)} --opponents {' '.join(args.opponents)} --seed {args.seed} "
        f"--half-width {args.half_width} --batch {args.batch} --max-matches {args.max_matches}"
    )


def markdown(rows: Sequence[Row], *, command: str) -> str:
    """The results as a Markdown table, with how they were made.

    Example:
        >>> print(markdown([], command="python ...").splitlines()[0][:44])
        | preset | players | bot | against | matches
    """
    lines = [
        "| preset | players | bot | against | matches | wins | 95% interval | by chance | decisions/s |",
        "|---|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        w = r.wins
        lines.append(
            f"| `{r.preset}` | {r.players} | `ISMCTSBot(iterations={r.iterations}, rollout={r.rollout!r})` "
            f"| {r.opponent} bots | {w.games} | **{w.rate:.1%}** | {w.low:.1%} – {w.high:.1%} "
            f"| {1 / r.players:.0%} | {r.decisions_per_second:.1f} |"
        )
    lines += [
        "",
        "One search bot against bots of one kind, seats rotated; matches were added in batches until the "
        "95% interval was at most 10 points wide (or the cap). Decisions per second on one core at "
        "positions where the bot has a choice (the best of 3 timings, in CPU time); "
        f"cucumber_rules {cr.__version__}, Python {platform.python_version()}. Made with `{command}`.",
    ]
    return "\n".join(lines) + "\n"


def to_json(rows: Sequence[Row], *, command: str, seed: int) -> dict[str, object]:
    """The results as JSON-ready data, with how they were made.

    Example:
        >>> rows = measure(3, [(2, "random")], 0, half_width=0.5, batch=1, max_matches=1, timing=1,
        ...                presets=("agurk",), opponents=("random",))
        >>> sorted(to_json(rows, command="python ...", seed=0)["rows"][0])[:3]
        ['against', 'decisions_per_second', 'iterations']
    """
    return {
        "made": {
            "command": command,
            "seed": seed,
            "cucumber_rules": cr.__version__,
            "python": platform.python_version(),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        },
        "rows": [
            {
                "preset": r.preset,
                "players": r.players,
                "iterations": r.iterations,
                "rollout": r.rollout,
                "against": r.opponent,
                "wins": r.wins.to_dict(),
                "decisions_per_second": round(r.decisions_per_second, 2),
                "seconds": round(r.seconds, 1),
            }
            for r in rows
        ],
    }


def _merge(files: Sequence[Path], markdown_to: Path | None, json_to: Path | None) -> int:
    """Join the rows of several runs (each row keeps the command that made it) into one table.

    A later file's row of the same bot setting, preset, player count and opponents replaces an
    earlier one in its place (a longer run of the same seed, say).
    """
    runs: list[dict[str, Any]] = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    # a row keeps what it was made with (an earlier merge's rows already say it)
    by_key: dict[tuple[Any, ...], dict[str, Any]] = {}
    for run in runs:
        for row in run["rows"]:
            key = (row["preset"], row["players"], row["iterations"], row["rollout"], row["against"])
            by_key[key] = {
                "command": run["made"]["command"],
                "cucumber_rules": run["made"]["cucumber_rules"],
                **row,
            }
    rows = list(by_key.values())
    versions = sorted({row["cucumber_rules"] for row in rows})
    made: dict[str, Any] = {
        **runs[-1]["made"],
        "command": "several runs: see each row's command",
        "cucumber_rules": " and ".join(versions),
    }
    data = {"made": made, "rows": rows}
    lines = [
        "| preset | players | bot | against | matches | wins | 95% interval | by chance | decisions/s |",
        "|---|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    commands: list[str] = []
    for row in rows:
        w = row["wins"]
        if row["command"] not in commands:
            commands.append(row["command"])
        mark = commands.index(row["command"]) + 1
        lines.append(
            f"| `{row['preset']}` | {row['players']} | `ISMCTSBot(iterations={row['iterations']}, "
            f"rollout={row['rollout']!r})` | {row['against']} bots | {w['games']} ({mark}) "
            f"| **{w['rate']:.1%}** | {w['low']:.1%} – {w['high']:.1%} | {1 / row['players']:.0%} "
            f"| {row['decisions_per_second']:.1f} |"
        )
    lines += [
        "",
        "One search bot against bots of one kind, seats rotated; matches were added in batches until the "
        "95% interval was at most 10 points wide (or the cap). Decisions per second on one core at "
        "positions where the bot has a choice (the best of 3 timings, in CPU time, on a shared machine); "
        f"cucumber_rules {made['cucumber_rules']}, Python {made['python']}, {made['date']}.",
        "",
    ]
    lines += [f"({i}) Made with `{command}`.  " for i, command in enumerate(commands, 1)]
    text = "\n".join(lines) + "\n"
    if json_to is not None:
        json_to.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if markdown_to is not None:
        markdown_to.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


def _setting(text: str) -> tuple[int, str]:
    iterations, _, rollout = text.partition(":")
    return int(iterations), rollout or "heuristic"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement and print (or write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--settings", type=_setting, nargs="+", default=[(200, "heuristic"), (40, "heuristic")],
        help="the bot's settings, ITERATIONS:ROLLOUT (default: 200:heuristic, the bot's default, and the "
        "cheap 40:heuristic)",
    )  # fmt: skip
    parser.add_argument("--presets", nargs="+", default=list(PRESETS))
    parser.add_argument("--opponents", nargs="+", default=["heuristic", "random"])
    parser.add_argument("--half-width", type=float, default=0.05, help="the interval's target half width")
    parser.add_argument("--batch", type=int, default=50, help="matches added at a time")
    parser.add_argument("--max-matches", type=int, default=800, help="the most matches per row")
    parser.add_argument("--timing", type=int, default=20, help="decisions timed per preset and setting")
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--workers", type=int, default=1, help="processes playing matches (same results)")
    parser.add_argument("--markdown", type=Path, help="write the Markdown table to this file")
    parser.add_argument("--json", type=Path, help="write the results to this file")
    parser.add_argument(
        "--merge", type=Path, nargs="+", help="instead of measuring, join the rows of earlier --json files"
    )
    args = parser.parse_args(argv)
    if args.merge:
        return _merge(args.merge, args.markdown, args.json)
    with ProcessPoolExecutor(args.workers) if args.workers > 1 else contextlib.nullcontext() as executor:
        rows = measure(
            args.players, args.settings, args.seed, half_width=args.half_width, batch=args.batch,
            max_matches=args.max_matches, timing=args.timing, presets=args.presets, opponents=args.opponents,
            executor=executor,
        )  # fmt: skip
    command = _command(args)
    text = markdown(rows, command=command)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(to_json(rows, command=command, seed=args.seed), indent=1) + "\n")
    if args.markdown is not None:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
