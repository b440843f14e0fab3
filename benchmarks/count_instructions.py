"""Count the machine instructions a decision costs, with callgrind: steadier than the clock.

    python benchmarks/count_instructions.py [PRESET] [--bots NAME] [--matches N] [--players P]
        [--src DIR ...]

It plays the loops of `profile_playouts.py` (raw random playouts as `run.py` times
them, or with `--bots random` or `heuristic` matches of bots that see only views,
as `simulate` plays them) under `valgrind --tool=callgrind`, once with N matches
and once with 2N, and prints the extra instructions over the extra decisions:
start-up, imports and warm-up cancel out. Give `--src` one or more `src`
directories to count other trees of the library with the same loop and seeds (each
is put first on `PYTHONPATH`), e.g. a worktree of an older commit beside this one.

Instruction counts do not depend on the machine's load, so a change of 1 % shows
where the clock swings by 10 %. They are not the targets: those are judged by the
clock (`run.py`, `../shared/bench/perf_ratio.py`), and an instruction can cost more
time in one loop than another (cache misses). Needs valgrind, which is not a Python
package (Debian: `apt-get install valgrind`); callgrind runs the loop some fifty
times slower, so a count of the default 3 and 6 matches takes about a minute.

Example:
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = main(["gurka", "--play", "1", "--players", "3"])
    >>> code, int(out.getvalue()) > 0  # the loop alone, as callgrind runs it: its decisions
    (0, True)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from profile_playouts import bot_matches, playouts, positive

import cucumber_rules as cr
from cucumber_rules.bots import BOTS

__all__ = ["collected", "count", "main", "per_decision"]

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def collected(report: str) -> int:
    """The instructions callgrind counted, from what it writes to standard error.

    Raises:
        ValueError: If the report has no count (callgrind did not run to the end).

    Example:
        >>> collected("==7== Events    : Ir\\n==7== Collected : 123456\\n==7== I   refs:      123,456")
        123456
    """
    found = _COLLECTED.search(report)
    if found is None:
        raise ValueError("no instruction count in callgrind's report:\n" + report[-2000:])
    return int(found.group(1))


def per_decision(small: tuple[int, int], large: tuple[int, int]) -> float:
    """Instructions per decision: the extra instructions of the larger run over its extra decisions.

    Each run is `(instructions, decisions)`.

    Raises:
        ValueError: If the larger run made no more decisions.

    Example:
        >>> per_decision((1_000_000, 100), (3_000_000, 200))
        20000.0
    """
    if large[1] <= small[1]:
        raise ValueError(f"the larger run made {large[1]} decisions, not more than {small[1]}")
    return (large[0] - small[0]) / (large[1] - small[1])


def count(
    preset: str, players: int, matches: int, bots: str | None = None, src: Path | None = None
) -> tuple[int, int]:
    """Run the loop of `matches` matches under callgrind in a new process: `(instructions, decisions)`.

    `src` puts another tree of the library first on `PYTHONPATH`. Hash randomisation is off
    (`PYTHONHASHSEED=0`), so a run counts the same every time.

    Example:
        `count("agurk", 4, 3)`: about a billion instructions (start-up and imports most of them) over
        some 950 decisions.
    """
    command = [sys.executable, str(Path(__file__).resolve()), preset, "--play", str(matches)]
    command += ["--players", str(players)] + (["--bots", bots] if bots else [])
    env = dict(os.environ, PYTHONHASHSEED="0")
    if src is not None:
        paths = [str(src.resolve()), env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"callgrind failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return collected(done.stderr), int(done.stdout.split()[-1])


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: see the module docstring. Exit status 2 without valgrind.

    Example:
        `python benchmarks/count_instructions.py agurk --bots random --src /tmp/base/src src`
    """
    parser = argparse.ArgumentParser(description="Instructions per decision, counted with callgrind.")
    parser.add_argument("preset", nargs="?", default="agurk", choices=sorted(cr.RULESETS))
    parser.add_argument("--players", type=positive(int), default=4)
    parser.add_argument("--matches", type=positive(int), default=3, help="the smaller run (the larger twice)")
    parser.add_argument("--bots", choices=sorted(BOTS), help="count matches of these bots instead")
    parser.add_argument("--src", type=Path, nargs="+", help="the library's src directories to count")
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)  # (the loop alone, run under callgrind)
    args = parser.parse_args(argv)
    for src in args.src or ():
        if not (src / "cucumber_rules" / "__init__.py").is_file():
            parser.error(f"--src {src}: no cucumber_rules package there (give a tree's src directory)")
    rules = cr.ruleset(args.preset)
    if not rules.min_players <= args.players <= rules.max_players:
        span = f"{rules.min_players} to {rules.max_players}"
        parser.error(f"{args.preset} is for {span} players, not {args.players}")
    if args.play is not None:
        if args.bots:
            print(bot_matches(args.preset, args.players, args.play, args.bots))
        else:
            print(playouts(args.preset, args.players, args.play))
        return 0
    if shutil.which("valgrind") is None:
        print("count_instructions.py needs valgrind (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    what = f"{args.preset}, {args.players} players, " + (f"{args.bots} bots" if args.bots else "raw playouts")
    for src in args.src or [None]:
        small = count(args.preset, args.players, args.matches, args.bots, src)
        large = count(args.preset, args.players, 2 * args.matches, args.bots, src)
        where = "installed library" if src is None else str(src)
        print(
            f"{what}: {per_decision(small, large):,.0f} instructions per decision "
            f"over {large[1] - small[1]} decisions ({where})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
