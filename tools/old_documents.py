"""Write the fixtures of an older JSON format: the documents of a few whole matches, as a release wrote them.

`loads` reads every format cucumber_rules ever wrote; tests/test_serialization.py checks that the
documents in `tests/data/format<N>/` still load to what they held. They are written once, by the
release that wrote that format, and never again (that is their point). To write them, run this file
with that release's source first on the path, e.g. for format 2 (the 0.2 development line):

    git archive <0.2 commit> src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src python tools/old_documents.py tests/data/format2

Only the API every release has is used (`ruleset`, `new_game`, `legal_moves`, `sample_chance`, `apply`,
`view`, `score`, `record`, `dumps`). For each match of `MATCHES` (a seeded random match played to its
end) the files are, by name:

- `<match>.rules.json` and `<match>.record.json` (the whole match);
- `<match>.state-<k>.json`: the state after `k` actions, for the first three, the middle one
  (`MIDDLE`), and the last two;
- `<match>.view-<k>-<seat>.json` and `<match>.score.json`: at the middle action, every seat's
  view and the spectator's (`None`), and the score so far (as tests/data/format1 has them).

Example:
    >>> import cucumber_rules as cr
    >>> documents("gurka", cr.ruleset("gurka", hand_size=1, threshold=2), 2, 1)["gurka.rules.json"][:27]
    '{"format":3,"kind":"rules",'
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cucumber_rules as cr

__all__ = ["MATCHES", "MIDDLE", "documents", "main"]

#: The matches written: file stem, preset, options, players, seed (the seeds chosen for an eventful
#: match: an Agurk mark and eliminations, buy-backs in Gurka with revival, every Catastrophe rule).
MATCHES: tuple[tuple[str, str, dict[str, object], int, int], ...] = (
    ("agurk", "agurk", {}, 4, 1),
    ("gurka-revival", "gurka", {"revival": True, "threshold": 12}, 3, 2),
    ("five-cucumbers", "five-cucumbers", {"threshold": 12}, 3, 1),
    (
        "catastrophe-surprise-cant_beat_em",
        "catastrophe",
        {"surprise": True, "cant_beat_em": True, "hands": 2},
        4,
        1,
    ),
)

#: Where the views are taken: this fraction of the match's actions.
MIDDLE = 0.75


def documents(stem: str, rules: cr.Rules, players: int, seed: int) -> dict[str, str]:
    """The documents of one seeded random match, by file name (see the module docstring)."""
    rng = random.Random(seed)
    states = [cr.new_game(rules, players)]
    while not states[-1].is_over:
        state = states[-1]
        moves = cr.legal_moves(state)
        states.append(cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng)))
    last = len(states) - 1
    middle = int(last * MIDDLE)
    out = {
        f"{stem}.rules.json": cr.dumps(rules),
        f"{stem}.record.json": cr.dumps(cr.record(states[-1])),
        f"{stem}.score.json": cr.dumps(cr.score(states[middle])),
    }
    for k in sorted({1, 2, 3, middle, last - 1, last}):
        out[f"{stem}.state-{k}.json"] = cr.dumps(states[k])
    for seat in (*range(players), None):
        out[f"{stem}.view-{middle}-{seat}.json"] = cr.dumps(cr.view(states[middle], seat))
    return out


def main(argv: list[str]) -> int:
    """Write every match's documents into the directory `argv[0]`."""
    if len(argv) != 1:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    target = Path(argv[0])
    target.mkdir(parents=True, exist_ok=True)
    for stem, preset, options, players, seed in MATCHES:
        for name, text in documents(stem, cr.ruleset(preset, **options), players, seed).items():
            target.joinpath(name).write_text(text + "\n", encoding="utf-8")
    print(f"format {cr.FORMAT_VERSION}: {len(list(target.glob('*.json')))} documents in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
