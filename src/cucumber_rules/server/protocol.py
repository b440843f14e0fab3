"""The messages of the table protocol as text: read with one JSON parser, written with one serializer.

Every message the server sends is written here, by orjson (a real serializer, in C: no JSON is
put together by hand), and a document already written (a view, from `ViewWriter`) goes in as it
is (`orjson.Fragment`). Every message it reads is parsed here (orjson: strict JSON, valid
Unicode only, nesting bounded), and the one check of unknown fields lives here too
(`unknown_field`), for the table requests and the WebSocket messages alike.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any, Final

import orjson

from .. import schema
from ..errors import quoted

__all__ = [
    "PONG",
    "NotJSON",
    "dumps",
    "error_message",
    "parse",
    "refusal",
    "table_message",
    "unknown_field",
    "view_message",
]

PONG: Final = '{"type":"pong"}'
"""The answer to a `ping` (the same text every time: written once, here).

Example:
    >>> parse(PONG)
    {'type': 'pong'}
"""


class NotJSON(ValueError):
    """Text that is not a JSON document the server reads (bad syntax, a lone surrogate, too deep)."""


def parse(text: str | bytes) -> Any:
    """A message's JSON value.

    Strict, as a client in another language would be: no `NaN`, valid Unicode only (a lone
    surrogate escape such as `"\\ud800"` is refused), at most 1,024 levels deep.

    Raises:
        NotJSON: Not a JSON document; its message says why, never quoting the text.

    Example:
        >>> parse('{"type": "ping"}')
        {'type': 'ping'}
        >>> parse('{"link": "\\\\ud800"}')
        Traceback (most recent call last):
        ...
        cucumber_rules.server.protocol.NotJSON: not valid JSON: ...
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as err:
        reason = str(err.msg).split(":", 1)[0]
        raise NotJSON(f"not valid JSON: {reason} (at character {err.pos})") from None


def dumps(value: Any) -> str:
    r"""A value as compact JSON text (UTF-8 characters as they are); `orjson.Fragment`s go in as written.

    A string that no UTF-8 text can hold (a lone surrogate, which only Python code can make:
    every message read is valid Unicode) is written escaped, as the text `\ud800`, instead of failing.

    Example:
        >>> dumps({"type": "view", "at": 3, "view": orjson.Fragment('{"seat":0}')})
        '{"type":"view","at":3,"view":{"seat":0}}'
        >>> dumps({"message": "x\ud800"})
        '{"message":"x\\\\ud800"}'
    """
    try:
        return orjson.dumps(value).decode("utf-8")
    except TypeError:  # (orjson.JSONEncodeError) a lone surrogate somewhere: the slow road
        return orjson.dumps(_escaped(value)).decode("utf-8")


def _escaped(value: Any) -> Any:
    """A value with every lone surrogate of its strings (keys too) written as a visible escape."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, Mapping):
        return {_escaped(k): _escaped(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_escaped(v) for v in value]
    return value


def error_message(document: Mapping[str, Any]) -> str:
    """The message that carries an error document.

    Example:
        >>> error_message(schema.protocol_error("spectator", "no"))[:30]
        '{"type":"error","error":{"form'
    """
    return dumps({"type": "error", "error": document})


def refusal(code: str, message: str, path: str | None = None) -> str:
    """An error message of a protocol code (see `schema.PROTOCOL_CODES`).

    Example:
        >>> parse(refusal("too-large", "at most 4096 bytes"))["error"]["code"]
        'too-large'
    """
    return error_message(schema.protocol_error(code, message, path=path))


def view_message(
    at: int, view: str, picture: str | None = None, told: Mapping[str, Any] | None = None
) -> str:
    """A `view` message: the view document (already written), and its picture if asked for, with what
    a picture's reader is told beside it (`said` and `last_trick`, the same for every seat).

    Example:
        >>> view_message(5, '{"seat":0}')
        '{"type":"view","at":5,"view":{"seat":0}}'
        >>> view_message(5, '{"seat":0}', "<svg/>", {"said": ["Ann plays 7C"], "last_trick": None})[40:]
        '"picture":"<svg/>","said":["Ann plays 7C"],"last_trick":null}'
    """
    body: dict[str, Any] = {"type": "view", "at": at, "view": orjson.Fragment(view)}
    if picture is not None:
        body["picture"] = picture
    if told is not None:
        body.update(told)
    return dumps(body)


def table_message(seat: int | None, seats: Iterable[tuple[str, str | None, bool]], spectators: bool) -> str:
    """A `table` message: the seat it is sent to, and each seat's name, bot and whether it is here.

    Example:
        >>> table_message(0, [("Ann", None, True), ("Bo", "random", True)], False)[:40]
        '{"type":"table","seat":0,"seats":[{"name'
    """
    listed = [{"name": name, "bot": bot, "online": online} for name, bot, online in seats]
    return dumps({"type": "table", "seat": seat, "seats": listed, "spectators": spectators})


def unknown_field(value: Mapping[str, Any], fields: Collection[str], at: str = "$") -> dict[str, Any] | None:
    """The error document for the first key of an object that is not one of `fields`, or None.

    The key is shown escaped (`errors.quoted`); the path names it when it is a plain name of at
    most 40 characters, else the object holding it.

    Example:
        >>> unknown_field({"type": "ping"}, ("type",)) is None
        True
        >>> doc = unknown_field({"type": "act", "admin": True}, ("type", "at", "action"))
        >>> doc["message"], doc["path"]
        ("unknown field 'admin'", '$.admin')
        >>> unknown_field({"\\x1b[2J": 1}, ())["message"], unknown_field({"\\x1b[2J": 1}, ())["path"]
        ("unknown field '\\\\x1b[2J'", '$')
    """
    for key in value:
        if key not in fields:
            path = f"{at}.{key}" if key.isidentifier() and len(key) <= 40 else at
            return schema.protocol_error("invalid-document", f"unknown field {quoted(key)}", path=path)
    return None
