"""The body of each kind of document: what follows the envelope (`format`, `kind`) for one game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .. import _registry
from ..actions import Play
from ..errors import ERROR_CODES, MAX_MESSAGE
from ..state import State
from .builder import SchemaBuilder
from .codes import PROTOCOL_CODES
from .source import field_docs, summary_of

#: The document kinds that have a schema: `dumps`' five, then a server's action and error documents.
KINDS: Final = ("rules", "state", "view", "score", "record", "action", "error")
"""The document kinds `json_schema` describes: every kind `dumps` writes, a server's action and error.

Example:
    >>> from cucumber_rules.schema import KINDS, json_schema
    >>> [json_schema(kind)["title"] != "" for kind in KINDS] == [True] * len(KINDS)
    True
"""


def _rules(builder: SchemaBuilder) -> dict[str, Any]:
    return builder.rules_schema()


def _state(builder: SchemaBuilder) -> dict[str, Any]:
    game = builder.game
    docs = field_docs(State)
    match = builder.object_schema(game.match_type, skip=("rules", "players", "first"))
    table = builder.object_schema(game.table_type)
    builder.defs[game.match_type.__name__] = match
    builder.defs[game.table_type.__name__] = table
    extra = game.extra_type
    play = builder.of(Play)
    properties = {
        "rules": builder.rules(),
        "players": builder.players(),
        "first": {"description": "The seat that leads the first trick of the match.", **builder.seat()},
        "to_act": {
            "description": docs.get("to_act", "The seat to act."),
            "anyOf": [builder.seat(), {"const": -1}, {"type": "null"}],
        },
        "match": {"$ref": f"#/$defs/{game.match_type.__name__}"},
        "table": {"anyOf": [{"$ref": f"#/$defs/{game.table_type.__name__}"}, {"type": "null"}]},
        "hands": {
            "description": "Every seat's cards, sorted (secret).",
            "type": "array",
            "items": {"type": "array", "items": builder.card()},
        },
        "trick": {
            "description": "The current trick so far, in play order.",
            "type": "array",
            "items": play,
        },
        "best": {"description": docs.get("best", ""), "anyOf": [play, {"type": "null"}]},
        "extra": {"description": docs.get("extra", ""), **builder.of(extra)},
        "history": {
            "description": "Every action since the start, oldest first.",
            "type": "array",
            "items": builder.action_union(),
        },
    }
    return {
        "description": summary_of(State),
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _view(builder: SchemaBuilder) -> dict[str, Any]:
    schema = builder.object_schema(builder.game.view_type)
    schema["properties"]["players"] = builder.players()
    return schema


def _score(builder: SchemaBuilder) -> dict[str, Any]:
    schema = builder.object_schema(builder.game.score_type)
    schema["properties"]["game"] = {"description": "The game.", "const": builder.game.name}
    return schema


def _record(builder: SchemaBuilder) -> dict[str, Any]:
    from ..records import Record

    schema = builder.object_schema(Record)
    schema["properties"]["players"] = builder.players()
    return schema


def _action(builder: SchemaBuilder) -> dict[str, Any]:
    options = [builder.object_schema(cls) for cls in builder.actions()]
    return {
        "description": "One action as a document of its own: a client's move sent to a server. "
        "Its fields are the action's, beside the envelope.",
        "anyOf": options,
    }


def _error(builder: SchemaBuilder) -> dict[str, Any]:
    return error_body()


#: How each kind's body is built, by kind (in the order of `KINDS`).
_BODIES: Final[dict[str, Callable[[SchemaBuilder], dict[str, Any]]]] = {
    "rules": _rules,
    "state": _state,
    "view": _view,
    "score": _score,
    "record": _record,
    "action": _action,
    "error": _error,
}


def document_body(builder: SchemaBuilder, kind: str) -> dict[str, Any]:
    """The fields of a document of `kind` for the builder's game, after the envelope, and its description.

    Raises:
        ValueError: For an unknown kind.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.schema.builder import SchemaBuilder
        >>> document_body(SchemaBuilder(cr.GAMES["ladder"]), "view")["properties"]["seat"]["description"]
        "The viewer's seat; None for a spectator."
    """
    build = _BODIES.get(kind)
    if build is None:
        raise ValueError(f"unknown kind {kind!r}; kinds are {', '.join(KINDS)}")
    return build(builder)


def error_body() -> dict[str, Any]:
    codes = {**ERROR_CODES, **PROTOCOL_CODES}
    tags = sorted(
        {t for g in _registry.games().values() for t in ("deal", "play", *(d.TAG for d in g.decisions))}
    )
    action: dict[str, Any] = {
        "description": "An action object: its `type` tag and its fields (see the action document).",
        "type": "object",
        "properties": {"type": {"enum": tags}},
        "required": ["type"],
    }
    properties = {
        "code": {
            "description": "What went wrong, as a stable code: an illegal move's code (ERROR_CODES), "
            "or a protocol code (PROTOCOL_CODES). Codes: "
            + "; ".join(f"{code}: {meaning}" for code, meaning in codes.items()),
            "type": "string",
            "enum": list(codes),
        },
        "message": {
            "description": "For people: which rule forbids the move and what would be legal.",
            "type": "string",
            "maxLength": MAX_MESSAGE,
        },
        "seat": {"description": "The seat the refused action was for, if any.", "type": ["integer", "null"]},
        "action": {
            "description": "The refused action as the client sent it, if it could be read.",
            "anyOf": [action, {"type": "null"}],
        },
        "path": {
            "description": "For a malformed document: the JSON path of the bad field, e.g. `$.card`.",
            "type": ["string", "null"],
        },
        "option": {"description": "For bad rules: the option at fault.", "type": ["string", "null"]},
    }
    return {
        "description": "An error a server sends back: the action (or message) was refused, and nothing "
        "was applied.",
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
