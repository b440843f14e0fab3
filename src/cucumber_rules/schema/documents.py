"""The schemas as documents: their ids, the envelope, one game's schema or every game's, and the files."""

from __future__ import annotations

import json
from typing import Any, Final

from ..game import GameBase, registered_games
from ..serialization import FORMAT_VERSION
from ..state import State
from .builder import SchemaBuilder
from .kinds import KINDS, document_body, error_body

#: The JSON Schema dialect of every schema: draft 2020-12.
DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect every schema here is written in (its `$schema`): draft 2020-12.

Example:
    >>> from cucumber_rules.schema import DIALECT, json_schema
    >>> json_schema("rules")["$schema"] == DIALECT
    True
"""


def schema_id(kind: str, game: str | None = None) -> str:
    """The `$id` of a schema: a URN naming the format version, the game (if one) and the kind.

    It names the schema; it is not where to download it (the docs site publishes the files).

    Example:
        >>> schema_id("view", "ladder"), schema_id("error")
        ('urn:cucumber-rules:format-3:ladder:view', 'urn:cucumber-rules:format-3:error')
    """
    where = f"{game}:" if game is not None else ""
    return f"urn:cucumber-rules:format-{FORMAT_VERSION}:{where}{kind}"


def _envelope(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """`body` (an object schema, or a union of them) with the envelope's `format` and `kind` added."""
    head = {
        "format": {"description": "The format version of the documents.", "const": FORMAT_VERSION},
        "kind": {"const": kind},
    }
    if "anyOf" in body and "properties" not in body:
        options = [
            {**o, "properties": {**head, **o["properties"]}, "required": [*head, *o["required"]]}
            for o in body["anyOf"]
        ]
        return {**body, "anyOf": options}
    return {**body, "properties": {**head, **body["properties"]}, "required": [*head, *body["required"]]}


def _game_schema(kind: str, game: GameBase[State]) -> dict[str, Any]:
    builder = SchemaBuilder(game)
    body = _envelope(kind, document_body(builder, kind))
    title = f"cucumber_rules {kind} document ({game.title or game.name}), format {FORMAT_VERSION}"
    schema = {"$schema": DIALECT, "$id": schema_id(kind, game.name), "title": title, **body}
    if builder.defs:
        schema["$defs"] = dict(sorted(builder.defs.items()))
    return schema


def json_schema(kind: str, game: str | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a kind of document, for one game or for every registered game.

    Every document [`dumps`][cucumber_rules.dumps] writes is valid against the schema of its
    kind (and of its game), and so are the action and error documents of this package. The
    schema for every game (`game=None`) holds each game's schema under `$defs` and accepts a
    document that one of them accepts. The error document's schema is the same for every game.

    Args:
        kind: `"rules"`, `"state"`, `"view"`, `"score"`, `"record"`, `"action"` or `"error"`.
        game: A registered game's name (`"ladder"`, `"catastrophe"`, ...), or None for all.

    Returns:
        A new dict each call: the schema, with `$schema`, `$id`, `title` and descriptions.

    Raises:
        ValueError: For an unknown kind or game.

    Example:
        >>> import cucumber_rules as cr
        >>> schema = json_schema("rules", "catastrophe")
        >>> schema["properties"]["game"]["const"], schema["properties"]["surprise"]["type"]
        ('catastrophe', 'boolean')
        >>> sorted(json_schema("record")["$defs"])
        ['catastrophe', 'ladder']
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; kinds are {', '.join(KINDS)}")
    if game is not None:
        games = registered_games()
        if game not in games:
            raise ValueError(f"unknown game {game!r}; games are {', '.join(games)}")
        if kind != "error":
            return _game_schema(kind, games[game])
    if kind == "error":
        body = _envelope("error", error_body())
        return {
            "$schema": DIALECT,
            "$id": schema_id("error"),
            "title": f"cucumber_rules error document, format {FORMAT_VERSION}",
            **body,
        }
    per_game = {name: _game_schema(kind, g) for name, g in registered_games().items()}
    return {
        "$schema": DIALECT,
        "$id": schema_id(kind),
        "title": f"cucumber_rules {kind} document (every game), format {FORMAT_VERSION}",
        "description": f"A {kind} document of any registered game: one of the games' schemas below.",
        "anyOf": [{"$ref": schema["$id"]} for schema in per_game.values()],
        "$defs": per_game,
    }


def schema_files() -> dict[str, str]:
    """Every schema as the file the docs site publishes: its path under `schemas/`, and its JSON text.

    `<kind>.json` is the schema for every game; `<game>/<kind>.json` one game's.

    Example:
        >>> files = schema_files()
        >>> "view.json" in files and "ladder/view.json" in files and "error.json" in files
        True
    """
    files = {f"{kind}.json": json_schema(kind) for kind in KINDS}
    for game in registered_games():
        files |= {f"{game}/{kind}.json": json_schema(kind, game) for kind in KINDS if kind != "error"}
    return {path: json.dumps(schema, indent=2, ensure_ascii=False) + "\n" for path, schema in files.items()}
