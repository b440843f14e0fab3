"""Every docstring example in the package runs, so the API reference never shows a broken example."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cucumber_rules

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(cucumber_rules.__path__, prefix="cucumber_rules.")
    if not name.endswith("__main__")
)


@pytest.mark.parametrize("name", ["cucumber_rules", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
