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

`open_twin(cls)` is the same trick for a class that is not flat (a view class):
a subclass that adds no slots, whose fresh instance `view` fills with plain
stores before it sets `__class__`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["Value", "builder", "open_twin"]

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


def builder(cls: type[T], slots: tuple[str, ...] | None = None) -> Callable[..., T]:
    """A function that builds an instance of the frozen attrs class `cls` from all its fields, in order.

    It takes exactly the fields that `cls(...)` takes, positionally, and neither
    converts nor validates them: it is for values the library has built itself.
    A field that `cls(...)` does not take (`init=False`) gets its default, or the value of the
    expression in its `metadata["builder"]` (written in terms of the other fields).

    Args:
        cls: A frozen, slotted attrs class (or any slotted class, with `slots`).
        slots: For a class that is not an attrs class: its slots, in the order the builder takes them.

    Returns:
        The constructor.

    Example:
        >>> import cucumber_rules as cr
        >>> build = builder(cr.Trick)
        >>> build(0, (), 1) == cr.Trick(leader=0, plays=(), taker=1)
        True
    """
    # (name, taken as an argument, default): every slot the builder fills, in order.
    if slots is None:
        attributes = attrs.fields(cls)  # type: ignore[arg-type]
        fields = [(a.name, a.init, a.metadata.get("builder", a.default)) for a in attributes]
    else:
        fields = [(name, True, None) for name in slots]
    names = [name for name, _, _ in fields]
    args = ", ".join(name for name, init, _ in fields if init)
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    derived: dict[str, str] = {}
    for name, init, default in fields:
        if init:
            continue
        if isinstance(default, str) and slots is None and "builder" in attrs.fields_dict(cls)[name].metadata:  # type: ignore[arg-type]
            derived[name] = f"({default})"  # an expression of the other fields
        elif isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            raise TypeError(f"builder() cannot build {cls.__name__}.{name}: its default is a factory")
        else:
            namespace[f"_default_{name}"] = default  # set to its default: a constant, not a parameter
    taken = {name for name, init, _ in fields if init}

    def value(name: str) -> str:
        return name if name in taken else derived.get(name, f"_default_{name}")

    if _flat(cls):
        # The twin must be instantiable: stub out what is abstract in `cls` or in its bases (an ABC
        # such as `Sequence` lists methods that `cls` itself defines).
        abstract = {n for b in (cls, *cls.__bases__) for n in getattr(b, "__abstractmethods__", ())}
        stubs = dict.fromkeys(sorted(abstract))
        layout = {"__slots__": cls.__slots__, "__init__": object.__init__}  # type: ignore[attr-defined]
        twin = type(f"_{cls.__name__}Twin", cls.__bases__, {**layout, **stubs})
        namespace["_twin"] = twin
        body = "".join(f"    o.{n} = {value(n)}\n" for n in names)
        # `_twin()`: the type call allocates more cheaply than `object.__new__(_twin)`.
        source = f"def build({args}):\n    o = _twin()\n{body}    o.__class__ = _cls\n    return o\n"
        try:
            exec(compile(source, f"<builder {cls.__name__}>", "exec"), namespace)
            build: Callable[..., T] = namespace["build"]
            build(*[None] * len(taken))  # the layouts must match; else fall back below
            return build
        except TypeError:
            pass
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = cls.__dict__[name].__set__ if name in cls.__dict__ else _setter(cls, name)
    body = "".join(f"    _set{i}(o, {value(n)})\n" for i, n in enumerate(names))
    source = f"def build({args}):\n    o = _new(_cls)\n{body}    return o\n"
    exec(compile(source, f"<builder {cls.__name__}>", "exec"), namespace)
    fallback: Callable[..., T] = namespace["build"]
    return fallback


def open_twin(cls: type[T]) -> type[T]:
    """`builder`'s trick for a class that is not flat: a subclass of `cls` that takes plain attribute stores.

    The twin adds no slots, so an instance can become a `cls`: fill a fresh instance of the twin
    with plain attribute stores, then assign `__class__ = cls`. Only the library's own code uses
    it, and only on an instance that no other code has seen yet (switching a shared instance to
    the twin and back would let another thread see the twin in between).

    Example:
        >>> import cucumber_rules as cr
        >>> twin = open_twin(cr.Trick)
        >>> t = twin()
        >>> t.leader, t.plays, t.taker = 0, (), 1
        >>> t.__class__ = cr.Trick
        >>> t == cr.Trick(leader=0, plays=(), taker=1), issubclass(twin, cr.Trick)
        (True, True)
    """
    namespace = {
        "__slots__": (),
        "__init__": object.__init__,
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
        "__module__": cls.__module__,
    }
    return type(f"_{cls.__name__}Open", (cls,), namespace)


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            setter: Callable[[Any, Any], None] = klass.__dict__[name].__set__
            return setter
    raise AttributeError(f"{cls.__name__} has no slot {name!r}")  # pragma: no cover
