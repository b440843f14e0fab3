"""Griffe extension: a package attribute shadowing a same-named submodule is documented as the attribute.

`cucumber_rules.testing` has a submodule `states` (the state invariants) and
imports the Hypothesis strategy `states` from `strategies` into its namespace.
Python binds the name to the function (the import runs after the submodule is
loaded), so `cucumber_rules.testing.states` *is* the strategy. Griffe, reading
the sources, sets the submodule over the imported name, and the API page would
document a module instead of the function users call. After the package is
loaded, this extension looks each such name up at run time and, when the value
is not a module, points the name at the object Python actually binds.

Registered in `mkdocs.yml` under the mkdocstrings python handler's `extensions`.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from griffe import Alias, Extension, GriffeLoader, Module


def runtime_target(package: str, name: str) -> str | None:
    """The import path of what `package.name` is at run time, when that is not a module; else None.

    Example:
        >>> runtime_target("cucumber_rules.testing", "states")
        'cucumber_rules.testing.strategies.states'
        >>> runtime_target("cucumber_rules.testing", "match") is None
        True
    """
    try:
        value = getattr(importlib.import_module(package), name)
    except (ImportError, AttributeError):
        return None
    if inspect.ismodule(value):
        return None
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not module or not qualname:
        return None
    return f"{module}.{qualname}"


def _modules(module: Module) -> list[Module]:
    found = [module]
    for member in module.members.values():
        if not member.is_alias and member.is_module:
            found += _modules(member)  # type: ignore[arg-type]
    return found


class ShadowedSubmodules(Extension):
    """Point a package's name at its run-time value where Griffe put a same-named submodule."""

    def on_package(self, *, pkg: Module, loader: GriffeLoader, **kwargs: Any) -> None:
        """Called by Griffe once a package and its submodules are loaded."""
        for module in _modules(pkg):
            for name, member in list(module.members.items()):
                if member.is_alias or not member.is_module:
                    continue
                target = runtime_target(module.path, name)
                if target is not None:
                    module.members[name] = Alias(name, target, parent=module)
