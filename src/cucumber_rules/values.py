"""Frozen values: what every value class of the library shares, and its one speed trick.

- `Value` is the base of every frozen value class: copying a value (`copy.copy`,
  `copy.deepcopy`) returns the value itself, as it does for tuples and strings.
- `builder(cls)` returns a fast positional constructor for a frozen attrs class:
  the engines build a `State` for every card played, and attrs' generated
  `__init__` sets each slot of a frozen class through `object.__setattr__`.
- `open_twin(cls)` is the trick itself, for code that fills a value field by field
  (`view`).

How it is fast: `open_twin(cls)` is a subclass of `cls` that adds no slots and
takes plain attribute stores (no frozen `__setattr__`), which CPython specialises
to a single slot write. A builder fills a fresh twin instance with plain stores,
then assigns `__class__ = cls`, which Python allows between a class and a subclass
that adds nothing (and checks more cheaply than between unrelated classes of the
same layout). The result is an ordinary instance of `cls`, equal to what
`cls(...)` builds from the same fields (tests/test_values.py checks this for every
class that uses it); it skips converters and validators, so only the engines,
with values they have built themselves, call it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import attrs

__all__ = ["Value", "builder", "exactly", "kept", "open_twin"]

T = TypeVar("T")


def kept(items: Iterable[Any]) -> tuple[Any, ...]:
    """What a value was given, as a tuple (an attrs converter: a value keeps nothing mutable).

    Example:
        >>> kept([1, 2]), kept((3,))
        ((1, 2), (3,))
    """
    return tuple(items)


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


def builder(
    cls: type[T], slots: tuple[str, ...] | None = None, *, taking: tuple[str, ...] = ()
) -> Callable[..., T]:
    """A function that builds an instance of the frozen attrs class `cls` from all its fields, in order.

    It takes exactly the fields that `cls(...)` takes (and those in `taking`), positionally, and neither
    converts nor validates them: it is for values the library has built itself.
    A field that `cls(...)` does not take (`init=False`) gets its default, or the value of the
    expression in its `metadata["builder"]` (written in terms of the other fields).

    Args:
        cls: A frozen, slotted attrs class (or any slotted class, with `slots`).
        slots: For a class that is not an attrs class: its slots, in the order the builder takes them.
        taking: Fields that `cls(...)` does not take but the builder does, in their place among the
            fields (a cache the caller has already filled).

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
        fields = [
            (a.name, a.init or a.name in taking, a.metadata.get("builder", a.default)) for a in attributes
        ]
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

    twin = open_twin(cls)
    namespace["_twin"] = twin
    # `_twin()`: the type call allocates more cheaply than `object.__new__(_twin)`, but it runs the
    # class's own `__new__` (History's), so such a class gets the plain allocation.
    make = "_twin()" if cls.__new__ is object.__new__ else "_new(_twin)"
    body = "".join(f"    o.{n} = {value(n)}\n" for n in names)
    source = f"def build({args}):\n    o = {make}\n{body}    o.__class__ = _cls\n    return o\n"
    exec(compile(source, f"<builder {cls.__name__}>", "exec"), namespace)
    build: Callable[..., T] = namespace["build"]
    return build


def open_twin(cls: type[T]) -> type[T]:
    """The library's one speed trick: a subclass of `cls` that takes plain attribute stores.

    The twin adds no slots, so an instance can become a `cls`: fill a fresh instance of the twin
    with plain attribute stores, then assign `__class__ = cls` (`builder` writes the code that
    does it for a whole class). Only the library's own code uses it, and only on an instance that
    no other code has seen yet (switching a shared instance to the twin and back would let another
    thread see the twin in between).

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


def exactly(kind: type, words: str) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: the value's type must be `kind` itself (a bool is no int), else a `TypeError`
    whose message names the field, what it must be (`words`) and what it got.

    Example:
        >>> import attrs
        >>> @attrs.frozen
        ... class Answer:
        ...     yes: bool = attrs.field(validator=exactly(bool, "True or False"))
        >>> Answer(1)
        Traceback (most recent call last):
        ...
        TypeError: yes must be True or False, not 1
    """

    def check(_: Any, attribute: Any, value: Any) -> None:
        if type(value) is not kind:
            raise TypeError(f"{attribute.name} must be {words}, not {value!r}")

    return check
