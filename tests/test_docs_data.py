"""The recorded runs behind the docs' plots, the plots, and the script that records the bots' run."""

from __future__ import annotations

import doctest
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import cucumber_rules as cr

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data"
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "benchmarks"))

pytest.importorskip("matplotlib", reason="the docs extra is not installed: the plots are not checked")

import bot_strength  # noqa: E402
import docs_plots  # noqa: E402


def _bots() -> dict[str, object]:
    data: dict[str, object] = json.loads((DATA / "bot_strength.json").read_text(encoding="utf-8"))
    return data


def test_docstring_examples() -> None:
    for module in (docs_plots, bot_strength):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_the_bots_run_covers_every_preset_and_every_match() -> None:
    data = _bots()
    made = data["made"]
    assert isinstance(made, dict)
    assert made["matches"] >= 200, "a few hundred matches per preset"
    rows = data["presets"]
    assert isinstance(rows, list)
    assert [r["preset"] for r in rows] == list(bot_strength.PRESETS)
    assert set(bot_strength.PRESETS) == set(cr.RULESETS)
    for row in rows:
        seats = made["matches"] * made["players"]
        counted = sum(sum(counts.values()) for counts in row["totals"].values())
        assert counted == seats, f"{row['preset']}: every seat of every match has a final total"
        assert row["heuristic"]["games"] == made["matches"]
        assert row["heuristic"]["low"] <= row["heuristic"]["rate"] <= row["heuristic"]["high"]


def test_the_snippet_table_and_the_json_come_from_the_same_run() -> None:
    table = (ROOT / "docs" / "snippets" / "bot_strength.md").read_text(encoding="utf-8")
    rows = _bots()["presets"]
    assert isinstance(rows, list)
    for row in rows:
        assert f"| `{row['preset']}` | {row['players']} | **{row['heuristic']['rate']:.1%}** |" in table


def test_the_performance_run_has_a_rate_for_every_preset() -> None:
    data = json.loads((DATA / "performance.json").read_text(encoding="utf-8"))
    presets = [r["preset"] for r in data["rates"]]
    assert set(presets) == set(cr.RULESETS)
    for row in data["rates"]:
        assert row["decisions_per_s"] > 0
        assert row["baseline_per_s"] > 0


@pytest.mark.parametrize("plot", ["win_rates", "score_distributions", "decisions_per_second"])
def test_plots_are_accessible_themable_svg(plot: str) -> None:
    drawn = getattr(docs_plots, plot)()
    root = ET.fromstring(drawn)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img"
    label = root.get("aria-label") or ""
    for preset in cr.RULESETS:
        assert f"{preset}:" in label, f"{plot}: the text alternative should give {preset}'s figures"
    assert "currentColor" in drawn, "axes and text follow the page's text colour"
    assert "#000000" not in drawn
    assert drawn == getattr(docs_plots, plot)(), "the same data gives the same picture"


def test_the_plots_read_their_data(tmp_path: Path) -> None:
    data = _bots()
    rows = data["presets"]
    assert isinstance(rows, list)
    rows[0]["heuristic"].update(rate=0.123, low=0.1, high=0.15)
    changed = tmp_path / "bots.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    assert f"{rows[0]['preset']}: heuristic bot 12.3%" in docs_plots.win_rates(changed)


def test_bot_strength_writes_json_and_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json, out_md = tmp_path / "b.json", tmp_path / "b.md"
    assert (
        bot_strength.main(
            ["--matches", "3", "--players", "3", "--json", str(out_json), "--markdown", str(out_md)]
        )
        == 0
    )
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["made"]["matches"] == 3
    assert [r["preset"] for r in data["presets"]] == list(bot_strength.PRESETS)
    assert "--json docs/data/bot_strength.json" in out_md.read_text(encoding="utf-8")
    assert re.search(r"agurk\s+heuristic", capsys.readouterr().err)
