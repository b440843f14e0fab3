"""Plain values read strictly: JSON's integers, booleans and strings, cards, enum members, and objects' keys.

The converter's structure hooks for single values (each takes the value and, as cattrs passes
it, the type) and the check every object it reads goes through first. A failure is a `Bad`
naming what was expected and what was found; the caller adds the path.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Container
from typing import Any, Final

from .._paths import Bad, kind_name, step
from ..cards import Card, card
from ..errors import InvalidNotationError, quoted


def plain_int(value: Any, _: Any = None) -> int:
    if type(value) is not int:
        raise Bad(f"expected an integer, not {kind_name(value)}")
    return value


def plain_bool(value: Any, _: Any = None) -> bool:
    if type(value) is not bool:
        raise Bad(f"expected true or false, not {kind_name(value)}")
    return value


def plain_str(value: Any, _: Any = None) -> str:
    if type(value) is not str:
        raise Bad(f"expected a string, not {kind_name(value)}")
    return value


CARDS_BY_NAME: Final[dict[str, Card]] = {}


def plain_card(value: Any, _: Any = None) -> Card:
    found = CARDS_BY_NAME.get(value) if type(value) is str else None
    if found is not None:
        return found
    if type(value) is not str:
        raise Bad(f'expected a card such as "QS" or "42", not {kind_name(value)}')
    try:
        found = card(value)
    except InvalidNotationError as err:
        raise Bad(str(err)) from None
    if len(CARDS_BY_NAME) < 1024:  # canonical and common spellings: a bounded memo
        CARDS_BY_NAME[value] = found
    return found


def plain_any(value: Any, _: Any = None) -> Any:
    return value


def enum_value(member: enum.Enum) -> Any:
    return member.value


def plain_enum(t: type[enum.Enum]) -> Callable[[Any, Any], Any]:
    values = {m.value: m for m in t}
    expected = ", ".join(json.dumps(v) for v in values)

    def structure(value: Any, _: Any = None) -> Any:
        member = values.get(value) if type(value) is str else None
        if member is None:
            found = quoted(value) if type(value) is str else kind_name(value)
            raise Bad(f"expected one of {expected}, not {found}")
        return member

    return structure


def check_object(value: Any, fields: Container[str], tag: str | None = None) -> dict[str, Any]:
    """`value`, once it is an object whose keys are all among `fields`; else `Bad`.

    A tagged class's object (`tag` given) must have that `"type"` too, which is then no unknown
    key. Missing fields are the caller's to name, in the order it reads them.

    Example:
        >>> check_object({"type": "play", "seat": 1}, ("seat", "card"), "play")
        {'type': 'play', 'seat': 1}
        >>> check_object({"type": "play", "seat": 1, "x": 2}, ("seat", "card"), "play")
        Traceback (most recent call last):
        ...
        cucumber_rules._paths.Bad: $.x: unknown field 'x'
        >>> check_object({"type": "deal"}, ("seat", "card"), "play")
        Traceback (most recent call last):
        ...
        cucumber_rules._paths.Bad: $.type: expected type 'play', not 'deal'
    """
    if type(value) is not dict:
        raise Bad(f"expected an object, not {kind_name(value)}")
    if tag is not None and value.get("type") != tag:
        raise Bad(f"expected type {tag!r}, not {quoted(value.get('type'))}", ".type")
    for key in value:
        if key not in fields and not (tag is not None and key == "type"):
            raise Bad(f"unknown field {quoted(key)}", step(key))
    return value
