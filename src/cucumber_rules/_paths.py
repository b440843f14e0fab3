"""JSON paths in errors: the structuring errors that name where a value went wrong, and diffs that find it.

Every refusal of a document names the JSON path of the value at fault, from `$` (the document's
root): `$.results[3].payer`. `Bad` is a problem at a step below the current path, `At` one found
deeper, `diff` the first difference between two JSON values and `value_diff` between two of the
library's values (a view rebuilt and a view given). The module imports nothing of the library's
but its errors and cards, so that serialization, validation and sampling can all use it.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from .cards import Card, card
from .errors import InvalidNotationError, InvalidStateError, quoted

__all__ = [
    "At",
    "Bad",
    "cause_message",
    "diff",
    "fail",
    "kind_name",
    "locate",
    "same_json",
    "step",
    "value_diff",
]


class Bad(InvalidStateError):
    """A structuring problem at `step` (a path suffix such as `.type`) below the current path.

    An `InvalidStateError` whose `path` starts at `$`, the value given to the converter's
    `structure` (`loads` names the path from the document's root instead).

    Example:
        >>> err = Bad("expected an integer, not a string", ".seat")
        >>> err.path, str(err)
        ('$.seat', '$.seat: expected an integer, not a string')
    """

    def __init__(self, message: str, step: str = "") -> None:
        super().__init__("$" + step, message)
        self.message = message
        self.step = step


class At(InvalidStateError):
    """`error` happened below `step` (e.g. `[3]` or `.hands`) of the current path.

    An `InvalidStateError` that names the whole path down to the cause, from `$`, the value
    given to the converter's `structure`, and the cause's message.

    Example:
        >>> err = At("[2]", At(".seat", Bad("expected an integer, not a string")))
        >>> err.path, str(err)
        ('$[2].seat', '$[2].seat: expected an integer, not a string')
    """

    def __init__(self, step: str, error: BaseException) -> None:
        path, cause = locate(error, "$" + step)
        super().__init__(path, cause_message(cause))
        self.step = step
        self.error = error


def locate(error: BaseException, path: str) -> tuple[str, BaseException]:
    """Follow a structuring error (`At`, `Bad`) down to its cause: the JSON path, and the cause.

    Example:
        >>> path, cause = locate(At(".hands", At("[1]", ValueError("no"))), "$")
        >>> path, cause
        ('$.hands[1]', ValueError('no'))
    """
    while True:
        if isinstance(error, At):
            path += error.step
            error = error.error
        elif isinstance(error, Bad):
            return path + error.step, error
        else:
            return path, error


def cause_message(cause: BaseException) -> str:
    """What went wrong, as a structuring error's cause says it, without a path of its own.

    Example:
        >>> cause_message(Bad("missing field 'seat'", ".seat")), cause_message(KeyError())
        ("missing field 'seat'", 'KeyError')
    """
    if isinstance(cause, Bad):
        return cause.message
    if isinstance(cause, InvalidStateError):
        return str(cause).removeprefix(f"{cause.path}: ")
    return str(cause) or type(cause).__name__


def kind_name(value: Any) -> str:
    """How a JSON value is called in messages: `"a string"`, `"null"`, ...

    Example:
        >>> kind_name([1]), kind_name(None), kind_name(True)
        ('an array', 'null', 'a boolean')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def step(key: str) -> str:
    """The path step to a key: `.name`, or `["odd key"]` for a key that is not a plain name.

    Example:
        >>> step("hands"), step("a b")
        ('.hands', '["a b"]')
    """
    return f".{key}" if key.isidentifier() else f"[{json.dumps(key)}]"  # (escaped: every character ASCII)


def _same_card(expected: str, found: str) -> bool:
    try:
        return card(found) is card(expected)
    except InvalidNotationError:
        return False


def diff(
    expected: Any, found: Any, path: str = "", *, reason: str = "the state rebuilt by replaying the history"
) -> Bad | None:
    """The first difference between two JSON values, as a `Bad` naming its path (relative), or None.

    Cards may be spelled differently (`"TH"` for `"10H"`). A value that differs "does not
    match" `reason`.

    Example:
        >>> diff({"a": [1, 2]}, {"a": [1, 3]}).step
        '.a[1]'
        >>> diff({"a": 1}, {"a": 1, "b": 2}).message
        "unknown field 'b'"
    """
    if type(expected) is dict:
        if type(found) is not dict:
            return Bad(f"expected an object, not {kind_name(found)}", path)
        for key in found:
            if key not in expected:
                return Bad(f"unknown field {quoted(key)}", path + step(key))
        for key, value in expected.items():
            if key not in found:
                return Bad(f"missing field {quoted(key)}", path + step(key))
            bad = diff(value, found[key], path + step(key), reason=reason)
            if bad is not None:
                return bad
        return None
    if type(expected) is list:
        if type(found) is not list:
            return Bad(f"expected an array, not {kind_name(found)}", path)
        for i, (a, b) in enumerate(zip(expected, found, strict=False)):
            bad = diff(a, b, f"{path}[{i}]", reason=reason)
            if bad is not None:
                return bad
        if len(expected) != len(found):
            return Bad(
                f"does not match {reason} ({len(found)} items, not {len(expected)})",
                path,
            )
        return None
    if type(expected) is not type(found):
        wanted = {int: "an integer", bool: "true or false", str: "a string"}.get(type(expected))
        if expected is not None and wanted is not None:
            return Bad(f"expected {wanted}, not {kind_name(found)}", path)
        return Bad(
            f"does not match {reason} (expected {json.dumps(expected)})",
            path,
        )
    if expected == found or (type(expected) is str and _same_card(expected, found)):
        return None
    return Bad(f"does not match {reason} (expected {json.dumps(expected)})", path)


def same_json(expected: Any, found: Any) -> bool:
    """True if two JSON values are written alike, so that `diff` finds nothing: a quick first look.

    `json.dumps` tells apart what `==` does not (`1`, `1.0` and `true`) and runs in C.

    Example:
        >>> same_json({"a": [1, None]}, {"a": [1, None]}), same_json({"a": 1}, {"a": True})
        (True, False)
    """
    write = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":")).encode
    return write(expected) == write(found)


def fail(path: str, message: str) -> InvalidStateError:
    """The `InvalidStateError` for a problem at `path` (a path from `$`).

    Example:
        >>> str(fail("$.seat", "7 is not a seat"))
        '$.seat: 7 is not a seat'
    """
    return InvalidStateError(path, message)


def value_diff(expected: Any, found: Any, path: str = "", *, reason: str) -> Bad | None:
    """The first difference between two of the library's values (attrs values, tuples, scalars), as a
    `Bad` naming its path as the JSON document would (the attrs fields are the document's keys).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> v = cr.view(s, 0)
        >>> import attrs
        >>> value_diff(v, attrs.evolve(v, dealer=0), reason="the match").step
        '.dealer'
        >>> value_diff(v, v, reason="the match") is None
        True
    """
    if type(expected) is not type(found):
        return Bad(f"does not match {reason}", path)
    if isinstance(expected, tuple):
        if len(expected) != len(found):
            return Bad(f"does not match {reason} ({len(expected)} entries, not {len(found)})", path)
        for i, (a, b) in enumerate(zip(expected, found, strict=True)):
            bad = value_diff(a, b, f"{path}[{i}]", reason=reason)
            if bad is not None:
                return bad
        return None
    if attrs.has(type(expected)) and not isinstance(expected, Card):
        for field in attrs.fields(type(expected)):
            if field.eq:
                name = field.name
                at = f"{path}{step(name)}"
                bad = value_diff(getattr(expected, name), getattr(found, name), at, reason=reason)
                if bad is not None:
                    return bad
        return None
    if expected == found:
        return None
    shown = str(expected) if isinstance(expected, Card) else json.dumps(getattr(expected, "value", expected))
    return Bad(f"does not match {reason} (expected {shown})", path)
