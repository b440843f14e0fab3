"""The README's Python examples run as written."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_readme_has_examples() -> None:
    assert BLOCKS, "the README should show how to use the library"


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"README.md example {index + 1}", "exec"), {"__name__": "readme"})


def test_readme_picture_is_up_to_date() -> None:
    """`docs/assets/readme-table.svg` is what `tools/readme_image.py` draws from the README's example."""
    sys.path.insert(0, str(README.parent / "tools"))
    import readme_image

    assert f"]({readme_image.TARGET.as_posix()})" in README.read_text(encoding="utf-8"), "the README shows it"
    committed = (README.parent / readme_image.TARGET).read_text(encoding="utf-8")
    assert committed == readme_image.picture(), "out of date: run python tools/readme_image.py"
