"""The worst documents up to `loads`' size limit, and the CPU time to accept or refuse each.

The library promises that `loads` accepts or refuses any document up to its default size
limit (`cucumber_rules.serialization.MAX_LENGTH`) within 0.5 s of CPU on the project's
machine. This script builds the costliest documents known, each as long as the limit
allows, and reports what `loads` does with each and how much CPU time it takes (the best
of a few runs; `time.process_time`, so other work on the machine disturbs it less than wall
time). The documents:

- the longest honest record and state of a fixed-round Agurk match and of a long
  Catastrophe match (every action replayed), and each with its last action (or a field)
  wrong, refused only after the replay;
- the view with the most results (Agurk with fixed rounds; Catastrophe with many hands),
  honest, and with its last result impossible: every earlier result is folded into the
  match before the last one is refused;
- a view with a huge event list, a score with a huge round list, a record with a huge
  player list, and the shapes the size and depth limits are for.

Run by hand (never part of the test suite; `tests/test_benchmarks_smoke.py` runs it small):

    python benchmarks/hostile_documents.py [--limit 1000000] [--repeats 3] [--sample-world]

With `--sample-world`, the views are also given to `sample_world` (which checks a view as
`loads` does before rebuilding any earlier round), and that time is reported too.

Example:
    >>> rows = measure(limit=30_000, repeats=1)
    >>> all(r.chars <= 30_000 for r in rows), {r.outcome for r in rows} >= {"accepted"}
    (True, True)
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import json
import math
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs

import cucumber_rules as cr
from cucumber_rules.serialization import MAX_LENGTH

__all__ = ["Row", "documents", "main", "measure"]

#: The budget the library promises, in CPU seconds, at the default size limit.
BUDGET = 0.5


@attrs.frozen
class Row:
    """One document: its name, length, what `loads` did, and its CPU time (and `sample_world`'s)."""

    document: str
    chars: int
    outcome: str
    seconds: float
    sample_world: float | None = None


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _play(rules: cr.Rules, players: int, rounds: int, seed: int = 7) -> cr.State:
    """A random match of `rules` played until `rounds` rounds are over (or the match is)."""
    rng = random.Random(seed)
    state = cr.new_game(rules, players)
    while not state.is_over and state.match.rounds < rounds:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    return state


def _longest(make: Callable[[int], str], target: int) -> str:
    """`make(rounds)` for about the most rounds whose text fits in `target` characters (within 2%)."""
    rounds, text = 20, make(20)
    best = text if len(text) <= target else ""
    for _ in range(8):
        rounds = max(1, int(rounds * target / len(text) * 0.995))
        text = make(rounds)
        if len(best) < len(text) <= target:
            best = text
        if 0.98 * target <= len(best):
            break
    return best or text


def _mid_round(rules: cr.Rules, players: int, rounds: int) -> cr.State:
    """A state of a long match a few plays into round `rounds + 1`."""
    state = _play(rules, players, rounds)
    rng = random.Random(3)
    for _ in range(3):
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    return state


def _record_text(rules: cr.Rules, players: int, rounds: int) -> str:
    """The record, as a document, of a match played until `rounds` rounds are over."""
    return cr.dumps(cr.record(_play(rules, players, rounds)))


def _state_text(rules: cr.Rules, players: int, rounds: int) -> str:
    """The state, as a document, of a match played until `rounds` rounds are over."""
    return cr.dumps(_play(rules, players, rounds))


def _view_text(rules: cr.Rules, players: int, rounds: int) -> str:
    """Seat 0's view, as a document, of a match a few plays into round `rounds + 1`."""
    return cr.dumps(cr.view(_mid_round(rules, players, rounds), 0))


def _impossible_last(view_text: str) -> str:
    """The view with its last result impossible, every count and sum still agreeing.

    A point added to one seat's points in the last result, to its total there and to its
    row: the shape is right, the arithmetic agrees, but no round scores that.
    """
    doc = json.loads(view_text)
    last = doc["results"][-1]
    seat = max(range(len(last["points"])), key=lambda s: last["points"][s])
    last["points"][seat] += 1
    last["totals"][seat] += 1
    doc["round_points"][-1][seat] += 1
    doc["totals"][seat] += 1
    return _compact(doc)


def documents(limit: int = 0) -> dict[str, str]:
    """The costliest documents known up to `limit` characters (default `MAX_LENGTH`), by name.

    Example:
        >>> sorted(documents(20_000))[:2]
        ['a flat array of numbers', 'a record with a bad last action (agurk)']
    """
    limit = limit or MAX_LENGTH
    target = limit - 300
    agurk = cr.ruleset("agurk", fixed_rounds=10**6)
    catastrophe = cr.ruleset("catastrophe", hand_count=10**6)
    out: dict[str, str] = {}
    # The most results per character: the fewest players; a last trick of 7 cards, each result
    # found by a later candidate trick (the lowest card pays, ties earn a bonus).
    views = (
        ("gurka, 2 players", cr.ruleset("gurka", fixed_rounds=10**6), 2),
        ("catastrophe, 3 players", catastrophe, 3),
        ("agurk reversed, 7 players", cr.ruleset("agurk", fixed_rounds=10**6, reverse=True), 7),
    )
    for name, rules, players in views:
        view = _longest(functools.partial(_view_text, rules, players), target)
        out[f"the view with the most results ({name})"] = view
        out[f"a view whose last result is impossible ({name})"] = _impossible_last(view)
    for name, rules, players in (("agurk", agurk, 4), ("catastrophe", catastrophe, 6)):
        record = _longest(functools.partial(_record_text, rules, players), target)
        doc = json.loads(record)
        last = doc["actions"][-1]
        bad = dict(last, card="2C" if name == "agurk" else "60") if last["type"] == "play" else last
        out[f"the longest honest record ({name})"] = record
        wrong = dict(doc, actions=[*doc["actions"][:-1], bad])
        out[f"a record with a bad last action ({name})"] = _compact(wrong)
        state = _longest(functools.partial(_state_text, rules, players), target)
        out[f"the longest honest state ({name})"] = state
        out[f"a state with a bad field ({name})"] = _compact(dict(json.loads(state), to_act=9))
    small = json.loads(cr.dumps(cr.view(_mid_round(agurk, 4, 2), 0)))
    play = {"type": "play", "seat": 1, "card": "2C"}
    room = (target - len(_compact(small))) // (len(_compact(play)) + 1)
    out["a view with a huge event list"] = _compact(dict(small, events=[*small["events"], *[play] * room]))
    score = json.loads(cr.dumps(cr.score(_play(agurk, 4, 3))))
    row = score["round_points"][0]
    rows = (target - len(_compact(score))) // (len(_compact(row)) + 1)
    out["a score with a huge round list"] = _compact(
        dict(score, round_points=[*score["round_points"], *[row] * rows])
    )
    record = json.loads(cr.dumps(cr.record(_play(agurk, 4, 1))))
    out["a record with a huge player list"] = _compact(
        dict(record, players=["p"] * ((limit - 1000) // 4), actions=[])
    )
    depth = (limit - 10) // 2
    out["nesting at the size limit"] = "[" * depth + "]" * depth
    out["one string at the size limit"] = json.dumps("x" * (limit - 10))
    out["a flat array of numbers"] = "[" + ",".join(["1"] * ((limit - 2) // 2)) + "]"
    return {name: text[:limit] for name, text in sorted(out.items())}


def _cpu(call: Callable[[], Any], repeats: int) -> float:
    """The best of `repeats` CPU times of `call()`, in seconds (an error counts: refused)."""
    best = math.inf
    for _ in range(repeats):
        gc.collect()
        start = time.process_time()
        with contextlib.suppress(Exception):  # refusing is an outcome too
            call()
        best = min(best, time.process_time() - start)
    return best


def measure(limit: int = 0, repeats: int = 3, *, sample_world: bool = False) -> list[Row]:
    """What `loads` does with each of `documents(limit)`, and its CPU time (best of `repeats`).

    With `sample_world`, the time `sample_world` takes on each view document that `loads` reads
    as a view (the loaded one, or for a refused one the same view built without `loads`' checks).

    Example:
        >>> [r.document for r in measure(limit=20_000, repeats=1)][:1]
        ['a flat array of numbers']
    """
    rows = []
    for name, text in documents(limit).items():
        try:
            cr.loads(text, max_length=len(text))
            outcome = "accepted"
        except Exception as err:  # the outcome to report
            outcome = f"refused: {type(err).__name__} at {getattr(err, 'path', '?')}"
        seconds = _cpu(functools.partial(cr.loads, text, max_length=len(text)), repeats)
        world: float | None = None
        if sample_world and "view" in name and "event list" not in name:
            view = _unchecked_view(text)
            world = _cpu(functools.partial(cr.sample_world, view, random.Random(1)), 1)
        rows.append(Row(name, len(text), outcome, seconds, world))
    return rows


def _unchecked_view(text: str) -> cr.PlayerView:
    """The view a document holds, built by the converter alone (none of `loads`' checks)."""
    body = {k: v for k, v in json.loads(text).items() if k not in ("format", "kind")}
    view: cr.PlayerView = cr.make_converter().structure(body, cr.PlayerView)
    return view


def main(argv: list[str] | None = None) -> int:
    """Build the documents and print a table of CPU times (the script's entry point).

    Example:
        >>> main(["--limit", "20000", "--repeats", "1"])  # doctest: +ELLIPSIS
        | document | characters | outcome | loads, CPU s |...
        0
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="the size limit (default: MAX_LENGTH)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per document; the best counts")
    parser.add_argument("--sample-world", action="store_true", help="also time sample_world on the views")
    args = parser.parse_args(argv)
    if args.limit < 0 or args.repeats < 1:
        parser.error("--limit must be >= 0 and --repeats >= 1")
    rows = measure(args.limit, args.repeats, sample_world=args.sample_world)
    worlds = args.sample_world
    print("| document | characters | outcome | loads, CPU s |" + (" sample_world, CPU s |" if worlds else ""))
    print("| --- | ---: | --- | ---: |" + (" ---: |" if worlds else ""))
    for r in rows:
        world = "" if r.sample_world is None else f"{r.sample_world:.3f}"
        extra = f" {world} |" if worlds else ""
        print(f"| {r.document} | {r.chars:,} | {r.outcome} | {r.seconds:.3f} |{extra}")
    worst = max(rows, key=lambda r: r.seconds)
    limit = args.limit or MAX_LENGTH
    verdict = "within" if worst.seconds <= BUDGET else "OVER"
    print(f"\nworst: {worst.document}, {worst.seconds:.3f} s: {verdict} the {BUDGET} s budget", end="")
    print(f" at {limit:,} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
