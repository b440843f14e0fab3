"""The training recipe of docs/ai.md ("Training a seat"): its recorded run, its plot, and the script.

The recorded run (docs/data/training.json) is held to what the page says of it without PyTorch; the
plot needs matplotlib (the docs extra); the script itself (benchmarks/train_batch.py) needs PyTorch,
which CI does not install: those tests are skipped there and run where PyTorch is, e.g.
`.venv-torch/bin/pytest tests/test_training.py` after `pip install -e ".[batch]" pytest` and
`pip install torch --index-url https://download.pytorch.org/whl/cpu`.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import itertools
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "docs" / "data" / "training.json"
PAGE = ROOT / "docs" / "ai.md"
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "benchmarks"))

needs_matplotlib = pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None, reason="the docs extra is not installed: no plot to check"
)
needs_torch = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("numpy") is None,
    reason="PyTorch is not installed (CI does not install it): the training script is not run",
)


def _run(name: str = "training.json") -> dict[str, Any]:
    found: dict[str, Any] = json.loads((RUN.parent / name).read_text(encoding="utf-8"))
    return found


def _section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("## Training a seat")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _script() -> ModuleType:
    return importlib.import_module("train_batch")


# --------------------------------------------------------------------------- the recorded run


def test_the_recorded_run_says_how_it_was_made() -> None:
    made = _run()["made"]
    assert made["command"] == "python benchmarks/train_batch.py --seed 1 --json docs/data/training.json"
    assert made["command"] in _section(), "the page shows the command that made its figures"
    assert (made["preset"], made["players"]) == ("agurk", 4)
    assert made["arguments"]["threads"] == 1, "one PyTorch thread: the figures are reproducible"
    assert made["training_cpu_seconds"] > 0
    assert 0 < made["training_seconds"] <= made["wall_seconds"]
    machine = made["machine"]
    assert machine["cpu_count"] >= 1
    assert len(machine["load_average"]) == 3
    assert machine["torch"].endswith("+cpu"), "trained with the CPU build the page names"


def test_the_trained_seat_beats_random_bots_the_untrained_network_and_its_share() -> None:
    final = _run()["final"]
    trained, untrained = final["trained"], final["untrained"]
    for name, row in ((n, final[s][o]) for s in final for n, o in [(f"{s}/{o}", o) for o in final[s]]):
        assert row["games"] >= 1000, f"{name}: at least 1,000 matches"
        assert row["low"] <= row["rate"] <= row["high"], name
    assert trained["random"]["low"] >= 0.60, "the bar: 60% of the matches against three random bots"
    assert trained["random"]["rate"] >= 0.95, "the page says: nearly every match"
    assert trained["heuristic"]["low"] > 0.5, "the page says: more than twice a seat's share (25%)"
    for opponent in ("random", "heuristic"):
        assert trained[opponent]["low"] > untrained[opponent]["high"]
        assert trained[opponent]["low"] > final["random"][opponent]["high"]
    # the reference seats are what the Bots page says of them
    assert final["heuristic"]["random"]["rate"] > 0.95
    assert final["heuristic"]["heuristic"]["low"] < 0.25 < final["heuristic"]["heuristic"]["high"]
    assert final["random"]["heuristic"]["wins"] == 0, "the page: a random seat never beats 3 heuristic bots"


@pytest.mark.parametrize(
    ("name", "changed"),
    [
        ("training_seed2.json", {"seed": 2}),
        ("training_seed3.json", {"seed": 3}),
        ("training_random.json", {"opponents": "random"}),
        ("training_heuristic.json", {"opponents": "heuristic"}),
        ("training_heuristic_seed2.json", {"seed": 2, "opponents": "heuristic"}),
    ],
)
def test_the_other_runs_change_one_argument(name: str, changed: dict[str, Any]) -> None:
    assert f'"{name}"' in _section(), "the page shows every run"
    data, first = _run(name), _run()
    made = data["made"]
    parts = ["python benchmarks/train_batch.py", f"--seed {changed.get('seed', 1)}"]
    parts += [f"--{key} {value}" for key, value in changed.items() if key != "seed"]
    assert made["command"] == " ".join([*parts, f"--json docs/data/{name}"])
    assert made["arguments"] == {**first["made"]["arguments"], **changed}
    assert made["machine"]["cucumber_rules"] == first["made"]["machine"]["cucumber_rules"]
    trained, recipe = data["final"]["trained"], first["final"]["trained"]
    assert trained["random"]["games"] >= 1000
    if name == "training_heuristic_seed2.json":  # the page: it never won, and lost to random bots too
        assert trained["random"]["rate"] < 0.05
        assert max(point["heuristic"]["wins"] for point in data["curve"]) == 0
        assert data["curve"][1]["random"]["rate"] < 0.05, "within five updates"
        return
    assert trained["random"]["low"] >= 0.60, "the bar holds"
    assert trained["heuristic"]["low"] > 0.25, "above a seat's share"
    if name == "training_random.json":  # the page: it learns less against heuristic bots
        assert trained["heuristic"]["high"] < recipe["heuristic"]["low"]
    if name == "training_heuristic.json":  # the page: with seed 1 it learned the most of all
        assert trained["heuristic"]["low"] > recipe["heuristic"]["high"]


def test_the_curve_starts_untrained_and_ends_where_the_run_ends() -> None:
    data = _run()
    made, curve = data["made"], data["curve"]
    assert (curve[0]["update"], curve[0]["decisions"], curve[0]["seconds"]) == (0, 0, 0)
    assert curve[-1]["update"] == made["arguments"]["updates"]
    assert curve[-1]["decisions"] == made["decisions"] < 1_000_000, "the page says: under a million"
    for before, after in itertools.pairwise(curve):
        assert before["decisions"] < after["decisions"]
        assert before["seconds"] <= after["seconds"]
    for point in curve:
        for opponent in ("random", "heuristic"):
            assert point[opponent]["games"] == made["arguments"]["curve_matches"]


def test_the_page_names_the_cpu_build_of_torch() -> None:
    section = _section()
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in section
    assert 'pip install ".[batch]"' in section
    assert "docs/data/training.json" in section
    assert "docs_plots.learning_curve()" in section


# --------------------------------------------------------------------------- the plot


@needs_matplotlib
def test_the_learning_curve_is_an_accessible_themable_svg() -> None:
    import docs_plots

    assert doctest.testmod(docs_plots).failed == 0
    drawn = docs_plots.learning_curve()
    root = ET.fromstring(drawn)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img"
    label = root.get("aria-label") or ""
    last = _run()["curve"][-1]
    assert f"{100 * last['heuristic']['rate']:.1f}%" in label
    assert "currentColor" in drawn, "axes and text follow the page's text colour"
    assert "#000000" not in drawn
    assert drawn == docs_plots.learning_curve(), "the same data gives the same picture"


@needs_matplotlib
def test_the_learning_curve_reads_its_data(tmp_path: Path) -> None:
    import docs_plots

    data = _run()
    data["curve"][-1]["heuristic"].update(rate=0.123, low=0.1, high=0.15)
    changed = tmp_path / "training.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    assert "12.3% (10.0% to 15.0%)" in docs_plots.learning_curve(changed)


# --------------------------------------------------------------------------- the script (PyTorch)


@needs_torch
def test_the_scripts_examples() -> None:
    result = doctest.testmod(_script(), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


@needs_torch
def test_advantages_follow_each_lane_and_stop_at_its_end() -> None:
    np = pytest.importorskip("numpy")
    script = _script()
    # two lanes' decisions interleaved: lane A at 0, 2, 4 (it wins after 4); lane B at 1, 3 (open at the
    # end: its value bootstraps from the view's value 0.25)
    r = script.Rollout(
        obs=None, mask=None, action=None, logp=None,
        value=np.array([0.5, 0.4, 0.6, 0.3, 0.7], np.float32),
        reward=np.array([0, 0, 0, 0, 1], np.float32),
        done=np.array([False, False, False, False, True]),
        next=np.array([2, 3, 4, -1, -1]),
        tail=np.array([0, 0, 0, 0.25, 0], np.float32),
        steps=(np.array([0, 1]), np.array([2, 3]), np.array([4])),
    )  # fmt: skip
    found = script.advantages(r, gamma=1.0, lam=1.0)
    # with gamma = lambda = 1 an advantage is the return to the end less the value
    assert np.allclose(found, [0.5, -0.15, 0.4, -0.05, 0.3])
    half = script.advantages(r, gamma=1.0, lam=0.5)
    assert np.isclose(half[2], (1 - 0.7) * 0.5 + (0.7 - 0.6))
    assert np.isclose(half[3], 0.25 - 0.3)


@needs_torch
def test_a_small_run_learns_writes_its_figures_and_repeats_them(tmp_path: Path) -> None:
    script = _script()
    small = ["--updates", "4", "--lanes", "64", "--rollout", "32", "--curve-every", "2",
             "--curve-matches", "64", "--eval", "64"]  # fmt: skip
    out = tmp_path / "run.json"
    assert script.main([*small, "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [p["update"] for p in data["curve"]] == [0, 2, 4]
    assert set(data["final"]) == {"trained", "untrained", "random", "heuristic"}
    assert data["made"]["command"].endswith(f"--json {out}")
    again = script.train(script.parse_args(small), log=lambda line: None)

    def figures(found: dict[str, Any]) -> Any:
        return [{k: v for k, v in p.items() if k != "seconds"} for p in found["curve"]], found["final"]

    assert figures(again) == figures(data), "the same arguments give the same figures"
    # four short updates already move the policy away from its untrained play against random bots
    assert data["curve"][-1]["random"]["rate"] != data["curve"][0]["random"]["rate"]
