"""Shareable values: nothing mutable may be reachable from a value the library returns.

A state, view, score, rule set, record or action may be read by many threads at
once from the moment it is returned, and handed to code the library does not
trust. That holds only if nothing reachable from it can be changed in place:
not its fields, not its caches (underscore attributes included), not what they
hold. [`mutable_parts`][cucumber_rules.testing.shareable.mutable_parts] walks
everything reachable from a value the way an attacker would, through every slot
and every item, and lists what could be changed in place; `check_game` runs it
on the states, views (fresh and filled in), scores and deals of its matches.
"""

from __future__ import annotations

import enum
import types
import weakref
from collections.abc import Iterator
from typing import Any, Final

__all__ = ["mutable_parts"]

#: Values that cannot change and hold nothing that can (classes and functions are code, not data).
_LEAVES: Final = (
    int,
    float,
    complex,
    str,
    bytes,
    bool,
    type(None),
    range,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodWrapperType,
    enum.Enum,
    type(Ellipsis),
)
#: Containers that can be changed in place by anyone who reaches them.
_MUTABLE: Final = (list, dict, set, bytearray, types.MappingProxyType)


def _slots(cls: type) -> Iterator[str]:
    for klass in cls.__mro__:
        names = klass.__dict__.get("__slots__", ())
        for name in (names,) if isinstance(names, str) else names:
            if name not in ("__dict__", "__weakref__"):
                yield name


def _guarded(cls: type) -> bool:
    """True if the class refuses attribute stores and deletions (a frozen attrs class, `History`) and has
    no `__dict__`, or if its objects have nowhere to store anything (no slot and no `__dict__`: a game's
    hook group, such as `LadderViews`, which `view` keeps beside a match's views)."""
    if "__dict__" in dir(cls):
        return False
    setter: object = cls.__setattr__
    deleter: object = cls.__delattr__
    return (setter is not object.__setattr__ and deleter is not object.__delattr__) or not any(_slots(cls))


def mutable_parts(value: Any, name: str = "value", *, limit: int = 100_000) -> list[tuple[str, str]]:
    """Everything mutable reachable from `value`: (path, what) pairs; empty when it is safe to share.

    Walks tuples, frozensets, weak references and every slot of every object
    (underscore attributes included, filled or not). Lists, dicts, sets, bytearrays, mapping proxies, objects
    with a `__dict__` and slotted objects that accept attribute stores or deletions are reported (an
    object with no slot and no `__dict__` holds nothing that could change); so is a value too large to
    walk within `limit` objects.

    Args:
        value: What to walk (a state, view, score, rules, record, action, ...).
        name: The name the paths start with.
        limit: The most objects to walk.

    Returns:
        One `(path, what)` pair per mutable part found, e.g. `("view._later[3]", "list")`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> mutable_parts(cr.view(s, 0)), mutable_parts(s)
        ([], [])
        >>> mutable_parts((1, [2]), "pair")
        [('pair[1]', 'list')]
    """
    found: list[tuple[str, str]] = []
    seen: set[int] = set()
    stack: list[tuple[Any, str]] = [(value, name)]
    while stack:
        obj, path = stack.pop()
        if id(obj) in seen or isinstance(obj, _LEAVES):
            continue
        seen.add(id(obj))
        if len(seen) > limit:
            found.append((path, f"more than {limit:,} objects: not walked further"))
            break
        if type(obj) in (tuple, frozenset) or isinstance(obj, tuple | frozenset):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(obj))
            continue
        if type(obj) is weakref.ref:  # cannot be pointed elsewhere: what it points to is walked
            stack.append((obj(), f"{path}()"))
            continue
        if isinstance(obj, _MUTABLE):
            found.append((path, type(obj).__name__))
            continue
        cls = type(obj)
        if hasattr(obj, "__dict__"):
            found.append((path, f"{cls.__name__} (has a __dict__)"))
            stack.extend((item, f"{path}.{key}") for key, item in vars(obj).items())
        elif not _guarded(cls):
            found.append((path, f"{cls.__name__} (its attributes can be set or deleted)"))
        for slot in _slots(cls):
            try:
                item = object.__getattribute__(obj, slot)
            except AttributeError:  # an empty slot (a field a fresh view fills in later)
                continue
            stack.append((item, f"{path}.{slot}"))
    return sorted(found)
