"""The `cucumber-rules` console script and `python -m cucumber_rules`.

The library installs only `attrs` and `cattrs`; the command line also needs
`typer` and `rich`, which come with the `cli` extra. This module imports nothing
beyond the standard library until it knows they are there, so without them the
command prints one line saying how to install them (exit code 1) instead of a
traceback.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

#: The packages the command line needs (the `cli` extra).
CLI_PACKAGES = ("typer", "rich")

#: How to install them.
INSTALL = 'pip install ".[cli]" in a checkout (or "cucumber-rules[cli]" from an index that has it)'


def missing_packages(names: Sequence[str] = CLI_PACKAGES) -> tuple[str, ...]:
    """The packages among `names` that cannot be imported.

    Example:
        >>> missing_packages(["json", "no_such_package_here"])
        ('no_such_package_here',)
    """
    missing: list[str] = []
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return tuple(missing)


def missing_message(missing: Sequence[str]) -> str:
    """The one line printed when the command line's packages are not installed.

    Example:
        >>> print(missing_message(["typer", "rich"]))  # doctest: +NORMALIZE_WHITESPACE
        cucumber-rules: the command line needs typer and rich, which are not installed:
        pip install ".[cli]" in a checkout (or "cucumber-rules[cli]" from an index that has it)
    """
    which = "which is" if len(missing) == 1 else "which are"
    return f"cucumber-rules: the command line needs {' and '.join(missing)}, {which} not installed: {INSTALL}"


def main(args: Sequence[str] | None = None) -> None:
    """Run the command line, or say how to install it (exit code 1) if typer or rich is missing.

    Args:
        args: The arguments (default: the process's own, `sys.argv[1:]`).

    Example:
        >>> main(["--version"])
        Traceback (most recent call last):
        ...
        SystemExit: 0
    """
    missing = missing_packages()
    if missing:
        print(missing_message(missing), file=sys.stderr)
        raise SystemExit(1)
    from .cli import main as run  # only now: typer and rich are there

    run(args)
