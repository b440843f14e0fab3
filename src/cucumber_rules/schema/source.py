"""Descriptions from the source: the docstrings the API reference shows, read for the schemas."""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
import types
from collections.abc import Mapping
from typing import Any

import attrs


def field_docs(cls: type) -> Mapping[str, str]:
    """The docstrings written under the fields of `cls` and its bases (what the API reference shows).

    Example:
        >>> from cucumber_rules import PlayerView
        >>> field_docs(PlayerView)["seat"]
        "The viewer's seat; None for a spectator."
    """
    cached = _DOCS.get(cls)
    if cached is not None:
        return cached
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass is object or not attrs.has(klass):
            continue
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):  # no source (a class made at run time): no descriptions
            continue
        body = ast.parse(source).body
        if not body or not isinstance(body[0], ast.ClassDef):
            continue
        statements = body[0].body
        for node, after in itertools.pairwise(statements):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                found[node.target.id] = " ".join(inspect.cleandoc(after.value.value).split())
    result = _DOCS[cls] = types.MappingProxyType(found)
    return result


_DOCS: dict[type, Mapping[str, str]] = {}
"""`field_docs` by class (the source of a class does not change while it lives)."""


def summary_of(obj: Any) -> str:
    """The first paragraph of an object's docstring, on one line."""
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())
