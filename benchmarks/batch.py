"""Decisions per second of `cucumber_rules.batch` against the scalar API, measured in the same run.

Run by hand (never part of the test suite, which only smoke-tests it):

    python benchmarks/batch.py [--rounds 3] [--seconds 1.0] [--players 4] [--markdown out.md] [--check]

The workload is the same for every contender: random playouts of whole matches, the policy included.

- **scalar**: the public API as `benchmarks/run.py` plays it: `legal_moves`, `apply` (validated) and
  `sample_chance` for the deals, a uniformly random legal move at each decision;
- **numpy B**: `batch.make(preset, players, size=B)` with auto-reset, stepped with
  `batch.random_actions(state.legal_action_mask, rng)`: every lane takes one decision per step, so a
  step is B decisions; B = 1, 64, 1,024 and 8,192;
- **numpy 1,024 + observe**: the same at B = 1,024 with `env.observe(state)` built at every step (what
  a learner reads);
- **jax B** (only when jax is installed, e.g. in a virtual environment of its own; never in CI):
  the same with `backend="jax"` (each step compiled with `jax.jit`, called from the Python loop;
  compiling is done before the clock starts), at B = 64 and 1,024.

A decision is a `Play` or a revival decision; deals are not counted, their time is. Times are the CPU
time of this process (`time.process_time`). The contenders take turns within each round (scalar, then
each batch size), so a busy machine slows them alike; each ratio is taken within a round and the median
over the rounds is reported, with the load average before and after. `--check` exits with status 1
unless numpy at B = 1,024 is at least 5x the scalar API for every preset, and at least 2x with the
observation built at every step.

Example:
    >>> rate = scalar_rate(cr.ruleset("gurka"), 2, 0.05, random.Random(1))
    >>> rate > 0 and batch_rate(cr.ruleset("gurka"), 2, 8, 0.05, observe=False) > 0
    True
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from hardware import cpu_name

import cucumber_rules as cr
from cucumber_rules import batch

__all__ = ["JAX_SIZES", "PRESETS", "SIZES", "batch_rate", "has_jax", "machine", "main", "measure", "render",
           "scalar_rate"]  # fmt: skip

PRESETS = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe")
SIZES = (1, 64, 1024, 8192)
JAX_SIZES = (64, 1024)


def has_jax() -> bool:
    """Whether jax is installed (then the JAX backend is measured too).

    Example:
        >>> has_jax() in (True, False)
        True
    """
    return importlib.util.find_spec("jax") is not None


def scalar_rate(rules: cr.Rules, players: int, seconds: float, rng: random.Random) -> float:
    """Decisions per CPU second of random playouts through the public API (whole matches).

    Example:
        >>> scalar_rate(cr.ruleset("agurk"), 3, 0.02, random.Random(0)) > 0
        True
    """
    rnd = rng.random
    decisions = 0
    start = time.process_time()
    while True:
        state = cr.new_game(rules, players)
        while (to_act := state.to_act) is not None:
            if to_act < 0:
                state = cr.apply(state, cr.sample_chance(state, rng))
                continue
            moves = cr.legal_moves(state)
            k = len(moves)
            state = cr.apply(state, moves[int(rnd() * k)] if k > 1 else moves[0])
            decisions += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return decisions / spent


def batch_rate(
    rules: cr.Rules,
    players: int,
    size: int,
    seconds: float,
    *,
    observe: bool,
    seed: int = 0,
    backend: str = "numpy",
) -> float:
    """Decisions per CPU second of random playouts in a batch of `size` lanes (auto-reset, policy included).

    The environment is made and its lanes dealt before the clock starts; a few steps warm it up.

    Example:
        >>> batch_rate(cr.ruleset("catastrophe"), 4, 16, 0.02, observe=True) > 0
        True
    """
    env = batch.make(rules, players=players, size=size, backend=backend)
    state = env.init(seed)
    gen = np.random.default_rng(seed)
    for _ in range(3):
        if observe:
            env.observe(state)
        state = env.step(state, batch.random_actions(state.legal_action_mask, gen))
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(8):
            if observe:
                env.observe(state)
            state = env.step(state, batch.random_actions(state.legal_action_mask, gen))
        steps += 8
        spent = time.process_time() - start
        if spent >= seconds:
            return steps * size / spent


def measure(
    presets: tuple[str, ...],
    players: int,
    rounds: int,
    seconds: float,
    sizes: tuple[int, ...] = SIZES,
    jax_sizes: tuple[int, ...] = (),
) -> dict[str, dict[str, list[float]]]:
    """Every contender's rate per round, interleaved: {preset: {contender: [rate per round]}}.

    Example:
        >>> out = measure(("gurka",), 2, 1, 0.01, sizes=(4,))
        >>> sorted(out["gurka"])
        ['numpy 1,024 + observe', 'numpy 4', 'scalar']
    """
    out: dict[str, dict[str, list[float]]] = {p: {} for p in presets}
    for r in range(rounds):
        for preset in presets:
            rules = cr.ruleset(preset)
            rows = out[preset]
            rows.setdefault("scalar", []).append(scalar_rate(rules, players, seconds, random.Random(r)))
            for size in sizes:
                rate = batch_rate(rules, players, size, seconds, observe=False, seed=r)
                rows.setdefault(f"numpy {size:,}", []).append(rate)
            rate = batch_rate(rules, players, 1024, seconds, observe=True, seed=r)
            rows.setdefault("numpy 1,024 + observe", []).append(rate)
            for size in jax_sizes:
                rate = batch_rate(rules, players, size, seconds, observe=False, seed=r, backend="jax")
                rows.setdefault(f"jax {size:,}", []).append(rate)
    return out


def machine() -> dict[str, Any]:
    """What the figures were measured on.

    Example:
        >>> machine()["cpus"] == os.cpu_count()
        True
    """
    cpu = cpu_name()
    return {
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "jax": importlib.import_module("jax").__version__ if has_jax() else None,
        "cucumber_rules": cr.__version__,
        "load": os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0),
    }


def render(results: dict[str, dict[str, list[float]]], players: int, info: dict[str, Any], after: Any) -> str:
    """A Markdown table: each contender's median rate and its median ratio to the scalar API.

    Example:
        >>> print(render({"gurka": {"scalar": [10.0], "numpy 4": [25.0]}}, 2, machine(), (0, 0, 0)))
        ... # doctest: +ELLIPSIS
        | preset (2 players) | scalar API | numpy 4 |
        ...
    """
    names = list(next(iter(results.values())))
    lines = ["| preset " + f"({players} players) | scalar API | " + " | ".join(names[1:]) + " |"]
    lines.append("|---|" + "---:|" * len(names))
    for preset, rows in results.items():
        base = rows["scalar"]
        cells = [f"{statistics.median(base) / 1e3:,.0f}k"]
        for name in names[1:]:
            ratio = statistics.median(x / y for x, y in zip(rows[name], base, strict=True))
            cells.append(f"{statistics.median(rows[name]) / 1e3:,.0f}k (**{ratio:.1f}x**)")
        lines.append(f"| {preset} | " + " | ".join(cells) + " |")
    load = ", ".join(f"{x:.1f}" for x in info["load"])
    load_after = ", ".join(f"{x:.1f}" for x in after)
    lines.append("")
    lines.append(
        f"Decisions per CPU second (median of the rounds) and, in bold, the median of the per-round ratios "
        f"to the scalar API. {info['cpu']}, {info['cpus']} CPUs, Python {info['python']}, numpy "
        f"{info['numpy']}{', jax ' + info['jax'] if info.get('jax') else ''}, cucumber_rules "
        f"{info['cucumber_rules']}; load average {load} before, "
        f"{load_after} after (the machine is shared)."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print (or write) the table.

    Example:
        >>> main(["--rounds", "1", "--seconds", "0.01", "--presets", "gurka", "--sizes", "4"]) in (0, 1)
        ... # doctest: +ELLIPSIS
        | preset ...
        True
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per contender per round")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--sizes", nargs="*", type=int, default=list(SIZES))
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    parser.add_argument(
        "--jax-sizes", nargs="*", type=int, default=list(JAX_SIZES) if has_jax() else [],
        help="batch sizes for the JAX backend (default 64 and 1,024 when jax is installed)",
    )  # fmt: skip
    parser.add_argument(
        "--check", action="store_true", help="exit 1 unless B=1,024 is >= 5x (>= 2x observed)"
    )
    args = parser.parse_args(argv)
    info = machine()
    results = measure(
        tuple(args.presets), args.players, args.rounds, args.seconds, tuple(args.sizes), tuple(args.jax_sizes)
    )
    table = render(results, args.players, info, os.getloadavg() if hasattr(os, "getloadavg") else (0, 0, 0))
    print(table)
    if args.markdown:
        args.markdown.write_text(table + "\n")
    failed = []
    for preset, rows in results.items():
        for name, gate in (("numpy 1,024", 5.0), ("numpy 1,024 + observe", 2.0)):
            if name in rows:
                ratio = statistics.median(x / y for x, y in zip(rows[name], rows["scalar"], strict=True))
                if ratio < gate:
                    failed.append(f"{preset}: {name} is {ratio:.1f}x the scalar API (needs {gate:.0f}x)")
    for line in failed:
        print(line, file=sys.stderr)
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
