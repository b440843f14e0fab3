"""Draw the README's picture of the table: `docs/assets/readme-table.svg`.

The picture is what the README's own example leaves in `me`: seat 1's view after the deal and
the first card, drawn by `cucumber_rules.render` as a standalone picture (its own dark green
table and light text, so it reads on a light or a dark page). `tests/test_readme.py` checks that
the committed file is up to date; after changing the README's example or the drawing, run:

    python tools/readme_image.py            # rewrite the picture
    python tools/readme_image.py --check    # exit 1 if it is out of date

Example:
    >>> picture().startswith('<svg xmlns="http://www.w3.org/2000/svg" class="cr-picture" role="img"')
    True
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import cucumber_rules as cr
from cucumber_rules import render

ROOT = Path(__file__).resolve().parents[1]
#: The picture, relative to the checkout.
TARGET = Path("docs/assets/readme-table.svg")


def readme_example(root: Path = ROOT) -> str:
    """The README's first Python block."""
    text = (root / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^```python\n(?P<code>.*?)^```$", text, re.MULTILINE | re.DOTALL)
    if found is None:
        raise ValueError("README.md has no ```python block")
    return found["code"]


def picture(root: Path = ROOT) -> str:
    """Run the README's example and draw the view it calls `me`."""
    scope: dict[str, object] = {"__name__": "readme"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(readme_example(root), "README.md", "exec"), scope)
    me = scope.get("me")
    if not isinstance(me, cr.PlayerView):
        raise ValueError("the README's example should leave a PlayerView in `me`")
    return render.svg(me, standalone=True) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the picture, or with `--check` say whether the committed one is up to date."""
    parser = argparse.ArgumentParser(description="Draw the README's picture of the table.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed picture is out of date")
    args = parser.parse_args(argv)
    path = ROOT / TARGET
    drawn = picture()
    if args.check:
        current = path.read_text(encoding="utf-8") if path.is_file() else ""
        if current != drawn:
            print(f"{TARGET} is out of date: run python tools/readme_image.py", file=sys.stderr)
            return 1
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(drawn, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
