"""A request to create a table, checked: the rules, the seats (people and bots), names, first seat."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

import cucumber_rules as cr

from .. import schema
from .protocol import unknown_field

__all__ = ["REQUEST_FIELDS", "CreateError", "is_name", "read_request"]

_NAME: Final = re.compile(r"^[^\x00-\x1f\x7f]{1,40}$")

#: The fields of a table request.
REQUEST_FIELDS: Final = frozenset(("preset", "options", "seats", "names", "first"))


def is_name(name: Any) -> bool:
    """Whether `name` may name a seat: 1 to 40 characters, no control characters, no space at either end.

    Example:
        >>> is_name("Ann"), is_name(" Ann"), is_name("A" * 41), is_name(7)
        (True, False, False, False)
    """
    return type(name) is str and _NAME.match(name) is not None and name == name.strip()


class CreateError(Exception):
    """A table request that was refused: the HTTP status and the error document to send.

    Example:
        >>> from cucumber_rules import schema
        >>> err = CreateError(503, schema.protocol_error("server-full", "the server is full"))
        >>> err.status, err.document["code"], str(err)
        (503, 'server-full', 'the server is full')
    """

    def __init__(self, status: int, document: dict[str, Any]) -> None:
        super().__init__(document["message"])
        self.status = status
        self.document = document


def read_request(
    request: Any, bot_names: Sequence[str]
) -> tuple[cr.Rules, tuple[str | None, ...], list[str], int]:
    """The rules, seats (None for a person, else a bot's name), names and first seat of a request.

    The request: `{"preset": "agurk", "options": {...}, "seats": ["person", "heuristic", ...],
    "names": ["Ann", ...], "first": 0}` (parsed JSON); only `preset` and `seats` are required,
    and a seat's bot must be one of `bot_names`; at least one seat is a person. Names default to
    "Player 1", "Heuristic bot 1", ...

    Raises:
        CreateError: A bad request (400), its error document naming the bad field.

    Example:
        >>> rules, seats, names, first = read_request({"preset": "agurk", "seats": ["person", "random"]},
        ...                                           ["random"])
        >>> rules.name, seats, names, first
        ('agurk', (None, 'random'), ['Player 1', 'Random bot 1'], 0)
        >>> try:
        ...     read_request({"preset": "agurk", "seats": ["person", "genius"]}, ["random"])
        ... except CreateError as err:
        ...     print(err.status, err.document["path"], err)
        400 $.seats[1] a seat is one of 'person', 'random'
    """

    def bad(message: str, path: str) -> CreateError:
        return CreateError(400, schema.protocol_error("invalid-document", message, path=path))

    if type(request) is not dict:
        raise bad("a table request is a JSON object", "$")
    unknown = unknown_field(request, REQUEST_FIELDS)
    if unknown is not None:
        raise CreateError(400, unknown)
    preset, options = request.get("preset"), request.get("options", {})
    if type(preset) is not str:
        raise bad('preset must be a string, e.g. "agurk"', "$.preset")
    if type(options) is not dict or len(options) > 32:
        raise bad("options must be an object of at most 32 options", "$.options")
    try:
        rules = cr.ruleset(preset, **options)
    except cr.InvalidRulesError as err:
        raise CreateError(400, schema.error_document(err)) from None
    except (TypeError, ValueError) as err:
        raise bad(f"bad options: {err}", "$.options") from None
    wanted = request.get("seats")
    if type(wanted) is not list or not 1 <= len(wanted) <= rules.max_players:
        raise bad(f"seats must be an array of {rules.min_players} to {rules.max_players} seats", "$.seats")
    seats: list[str | None] = []
    for i, kind in enumerate(wanted):
        if kind == "person":
            seats.append(None)
        elif type(kind) is str and kind in bot_names:
            seats.append(kind)
        else:
            choices = ", ".join(repr(b) for b in ("person", *bot_names))
            raise bad(f"a seat is one of {choices}", f"$.seats[{i}]")
    if all(bot is not None for bot in seats):  # (bots play at once: a table of bots alone plays on unwatched)
        raise bad('a table needs at least one "person": the server plays its bots at once', "$.seats")
    names = request.get("names")
    if names is None:
        count: dict[str, int] = {}
        names = []
        for bot in seats:
            label = "Player" if bot is None else f"{bot.capitalize()} bot"
            count[label] = count.get(label, 0) + 1
            names.append(f"{label} {count[label]}")
    if type(names) is not list or len(names) != len(seats):
        raise bad("names must be an array with one name per seat", "$.names")
    for i, name in enumerate(names):
        if not is_name(name):
            raise bad("a name is 1 to 40 characters, without control characters", f"$.names[{i}]")
    first = request.get("first", 0)
    if type(first) is not int or not 0 <= first < len(seats):
        raise bad("first must be a seat of the table", "$.first")
    return rules, tuple(seats), names, first
