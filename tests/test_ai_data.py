"""The recorded runs behind the AI pages: the search bot's strength and the adapters' speed.

Each file in docs/data/ says how it was made (the command and its seed); these tests hold the files to
what the pages claim of them. The trained seat's run has its own tests (tests/test_training.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data"


def _load(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return found


def test_every_search_bot_row_is_narrow_or_capped_and_in_the_table() -> None:
    data = _load("ismcts_strength.json")
    table = (ROOT / "docs" / "snippets" / "ismcts_strength.md").read_text(encoding="utf-8")
    assert data["rows"]
    for row in data["rows"]:
        command = row["command"]
        assert command.startswith("python benchmarks/ismcts_strength.py")
        assert command in table
        assert "--seed " in command
        cap = int(re.search(r"--max-matches (\d+)", command).group(1))  # type: ignore[union-attr]
        wins = row["wins"]
        assert wins["low"] <= wins["rate"] <= wins["high"]
        narrow = (wins["high"] - wins["low"]) / 2 <= 0.05 + 1e-9
        assert narrow or wins["games"] >= cap, f"{row}: neither narrow nor at the cap"
        assert f"| `{row['preset']}` | {row['players']} |" in table
        assert f"**{wins['rate']:.1%}**" in table


def test_the_adapters_run_covers_every_preset() -> None:
    data = _load("adapters.json")
    assert data["command"].startswith("python benchmarks/adapters.py")
    assert {r["preset"] for r in data["rates"]} == {
        "agurk",
        "gurka",
        "five-cucumbers",
        "fuenf-gurken",
        "catastrophe",
    }
    for r in data["rates"]:
        assert 0 < r["openspiel_ratio"] < 1
        assert 0 < r["pettingzoo_env_ratio"] <= r["pettingzoo_floor_ratio"] * 1.5
    assert data["tensors"]["hearts_size"] == 5088
