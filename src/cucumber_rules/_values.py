"""Frozen values: what every value class of the library shares, and its one speed trick.

- `Value` is the base of every frozen value class: copying a value (`copy.copy`,
  `copy.deepcopy`) returns the value itself, as it does for tuples and strings.
- `builder(cls)` returns a fast positional constructor for a frozen attrs class:
  the engines build a `State` for every card played, and attrs' generated
  `__init__` sets each slot of a frozen class through `object.__setattr__`.

How `builder` is fast: for a *flat* class (all its fields are slots of the class
itself, no `__weakref__` slot, and its base adds no slots), it makes a twin class
with the same slots and no frozen `__setattr__`, fills a twin instance with plain
attribute stores (which CPython specialises to a single slot write) and then
assigns `__class__` to the frozen class, which Python allows between classes of
identical layout. Any other class falls back to the slots' descriptors. Either
way the result is an ordinary instance of `cls`, equal to what `cls(...)` builds
from the same fields (tests/test_values.py checks this for every class that
uses it); it skips converters and validators, so only the engines, with values
they have built themselves, call it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["Value", "builder"]

T = TypeVar("T")


class Value:
    """The base of the library's frozen value classes: copies are the value itself.

    Example:
        >>> import copy, cucumber_rules as cr
        >>> r = cr.ruleset("agurk")
        >>> copy.copy(r) is r, copy.deepcopy(r) is r
        (True, True)
    """

    __slots__ = ()

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: Any) -> Any:
        return self


def _flat(cls: type) -> bool:
    """True if every slot of `cls` is its own and instances have no `__dict__` or `__weakref__`."""
    base = cls.__base__
    return (
        base is not None
        and cls.__dictoffset__ == 0
        and cls.__weakrefoffset__ == 0
        and base.__basicsize__ == object.__basicsize__
        and base.__dictoffset__ == 0
    )


def builder(cls: type[T]) -> Callable[..., T]:
    """A function that builds an instance of the frozen attrs class `cls` from all its fields, in order.

    It takes exactly the fields, positionally, and neither converts nor
    validates them: it is for values the library has built itself.

    Args:
        cls: A frozen, slotted attrs class.

    Returns:
        The constructor.

    Example:
        >>> import cucumber_rules as cr
        >>> build = builder(cr.Trick)
        >>> build(0, (), 1) == cr.Trick(leader=0, plays=(), taker=1)
        True
    """
    names = [a.name for a in attrs.fields(cls)]  # type: ignore[arg-type]
    args = ", ".join(names)
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    if _flat(cls):
        stubs = dict.fromkeys(getattr(cls, "__abstractmethods__", ()))
        twin = type(f"_{cls.__name__}Twin", cls.__bases__, {"__slots__": cls.__slots__, **stubs})  # type: ignore[attr-defined]
        namespace["_twin"] = twin
        body = "".join(f"    o.{n} = {n}\n" for n in names)
        source = f"def build({args}):\n    o = _new(_twin)\n{body}    o.__class__ = _cls\n    return o\n"
        try:
            exec(compile(source, f"<builder {cls.__name__}>", "exec"), namespace)
            build: Callable[..., T] = namespace["build"]
            build(*([None] * len(names)))  # the layouts must match; else fall back below
            return build
        except TypeError:
            pass
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = cls.__dict__[name].__set__ if name in cls.__dict__ else _setter(cls, name)
    body = "".join(f"    _set{i}(o, {n})\n" for i, n in enumerate(names))
    source = f"def build({args}):\n    o = _new(_cls)\n{body}    return o\n"
    exec(compile(source, f"<builder {cls.__name__}>", "exec"), namespace)
    fallback: Callable[..., T] = namespace["build"]
    return fallback


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            setter: Callable[[Any, Any], None] = klass.__dict__[name].__set__
            return setter
    raise AttributeError(f"{cls.__name__} has no slot {name!r}")  # pragma: no cover
