"""JSON Schemas for every document the library writes, and the action and error documents of a server.

A program in another language that receives the library's documents (a web front end, a
bot, a server's storage) can check them against a JSON Schema (draft 2020-12) instead of
reading Python. [`json_schema`][cucumber_rules.schema.json_schema] builds one for each
kind of document, for one game or for every registered game:

- `"rules"`, `"state"`, `"view"`, `"score"`, `"record"`: what [`dumps`][cucumber_rules.dumps]
  writes;
- `"action"`: one action as a document of its own, the way a client sends a move to a
  server ([`action_document`][cucumber_rules.schema.action_document] writes one,
  [`read_action`][cucumber_rules.schema.read_action] reads it);
- `"error"`: what a server sends back when it refuses something
  ([`error_document`][cucumber_rules.schema.error_document]).

The schemas are generated from the library itself: the fields and types of each game's
classes (its rules, view, tricks, round results, match and table), the options' choices
and meanings, the registered games' decks, decisions and events, and the error codes. The
descriptions are the docstrings the API reference shows. A game added with
`register_game` gets its schemas too.

A schema checks the *shape* of a document: every field present with its JSON type, no
unknown field, cards spelled canonically, options among their choices. What needs the
rules to decide (is this state what its history gives? is this move legal now?) is for
[`loads`][cucumber_rules.loads] and the engine, which check everything.

Example:
    >>> import cucumber_rules as cr
    >>> schema = json_schema("view", "ladder")
    >>> schema["$id"], schema["properties"]["kind"]
    ('urn:cucumber-rules:format-2:ladder:view', {'const': 'view'})
    >>> action_document(cr.Play(1, "QS"))
    {'format': 2, 'kind': 'action', 'type': 'play', 'seat': 1, 'card': 'QS'}
"""

from __future__ import annotations

import ast
import enum
import inspect
import itertools
import json
import textwrap
import types
import typing
from collections.abc import Mapping
from typing import Any, Final

import attrs
import cattrs

from .actions import MAX_SEATS, Action, Deal, Decision, Play
from .cards import DECKS, Card
from .errors import (
    ERROR_CODES,
    MAX_MESSAGE,
    IllegalMoveError,
    InvalidNotationError,
    InvalidRulesError,
    InvalidStateError,
    RulesError,
)
from .games import GAMES, Game
from .history import History
from .rules import OPTIONS, Rules, ruleset
from .scoring import Score
from .serialization import FORMAT_VERSION, make_converter
from .state import Match, RoundResult, Table, Trick
from .views import Dealt, Event, PlayerView

__all__ = [
    "DIALECT",
    "KINDS",
    "PROTOCOL_CODES",
    "action_document",
    "error_document",
    "json_schema",
    "protocol_error",
    "read_action",
    "schema_files",
    "schema_id",
]

#: The JSON Schema dialect of every schema: draft 2020-12.
DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"

#: The document kinds that have a schema: `dumps`' five, then a server's action and error documents.
KINDS: Final = ("rules", "state", "view", "score", "record", "action", "error")

PROTOCOL_CODES: Mapping[str, str] = types.MappingProxyType(
    {
        "invalid-document": "The message is not a valid document; `path` names the bad field.",
        "invalid-rules": "The rules or options asked for are not valid; `option` names the culprit.",
        "not-your-seat": "The action is for a seat that this link does not hold.",
        "spectator": "A spectator's link acts for no seat.",
        "chance-action": "Deals and other chance actions are the server's to make, never a client's.",
        "stale": "The action was chosen at an earlier point of the match than the current one; "
        "nothing was applied (look at the latest view and choose again).",
        "too-large": "The message is longer than the server accepts.",
        "rate-limited": "Too many messages in a short time: nothing was applied; wait, then send again.",
        "unknown-link": "The link names no seat of any table.",
        "server-full": "The server holds as many tables (or connections) as it may.",
    }
)
"""The codes of the errors a server sends about a message rather than a move, with their meanings.

An error document's `code` is one of these or an `IllegalMoveError` code from
[`ERROR_CODES`][cucumber_rules.ERROR_CODES] (a move the rules forbid).

Example:
    >>> sorted(PROTOCOL_CODES)[:3]
    ['chance-action', 'invalid-document', 'invalid-rules']
"""


def schema_id(kind: str, game: str | None = None) -> str:
    """The `$id` of a schema: a URN naming the format version, the game (if one) and the kind.

    It names the schema; it is not where to download it (the docs site publishes the files).

    Example:
        >>> schema_id("view", "ladder"), schema_id("error")
        ('urn:cucumber-rules:format-2:ladder:view', 'urn:cucumber-rules:format-2:error')
    """
    where = f"{game}:" if game is not None else ""
    return f"urn:cucumber-rules:format-{FORMAT_VERSION}:{where}{kind}"


# --------------------------------------------------------------------------- descriptions from the source


def _field_docs(cls: type) -> Mapping[str, str]:
    """The docstrings written under the fields of `cls` and its bases (what the API reference shows).

    Example:
        >>> _field_docs(PlayerView)["seat"]
        "The viewer's seat; None for a spectator."
    """
    cached = _DOCS.get(cls)
    if cached is not None:
        return cached
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass is object or not attrs.has(klass):
            continue
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):  # no source (a class made at run time): no descriptions
            continue
        body = ast.parse(source).body
        if not body or not isinstance(body[0], ast.ClassDef):
            continue
        statements = body[0].body
        for node, after in itertools.pairwise(statements):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                found[node.target.id] = " ".join(inspect.cleandoc(after.value.value).split())
    result = _DOCS[cls] = types.MappingProxyType(found)
    return result


_DOCS: dict[type, Mapping[str, str]] = {}
"""`_field_docs` by class (the source of a class does not change while it lives)."""


def _summary(obj: Any) -> str:
    """The first paragraph of an object's docstring, on one line."""
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


# --------------------------------------------------------------------------- the schema of one game


def _fields(cls: type) -> list[attrs.Attribute[Any]]:
    attrs.resolve_types(cls)
    return [a for a in attrs.fields(cls) if a.init]


def _decks_of(game: Game[Any]) -> tuple[str, ...]:
    """The decks a game's rules may name: those its presets accept (asked of the rules themselves)."""
    found: list[str] = []
    for preset in game.presets:
        for deck in DECKS:
            if deck in found:
                continue
            try:
                ruleset(preset, deck=deck)
            except InvalidRulesError:
                continue
            found.append(deck)
    return tuple(found) or tuple(DECKS)


#: The member of `Event` that stands for any game's own event (the values' base class).
_ANY_EVENT: Final = tuple(t for t in typing.get_args(Event) if t not in (Dealt, Play, Decision))


def _tag(cls: type) -> str | None:
    tag = getattr(cls, "TAG", None)
    return tag if isinstance(tag, str) and cls is not Decision else None


class _Builder:
    """Builds the schema of one kind for one game, gathering the definitions it refers to."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.defs: dict[str, Any] = {}
        self.by_base: dict[type, type] = {
            Trick: game.trick_type,
            RoundResult: game.result_type,
            Table: game.table_type,
            Match: game.match_type,
            PlayerView: game.view_type,
        }

    # ----------------------------------------------------------------- references

    def ref(self, name: str, build: typing.Callable[[], dict[str, Any]]) -> dict[str, Any]:
        if name not in self.defs:
            self.defs[name] = {}  # (a class may refer to itself)
            self.defs[name] = build()
        return {"$ref": f"#/$defs/{name}"}

    def card(self) -> dict[str, Any]:
        def build() -> dict[str, Any]:
            decks = _decks_of(self.game)
            names = list(dict.fromkeys(str(c) for deck in decks for c in DECKS[deck]))
            return {
                "description": "A card, written canonically: rank then suit for the 52-card deck "
                '("QS", "10H"), the number for numbered decks ("7"). '
                f"This game's decks: {', '.join(decks)}.",
                "type": "string",
                "enum": names,
            }

        return self.ref("card", build)

    def seat(self) -> dict[str, Any]:
        limit = getattr(self.game.rules_type, "seats_limit", MAX_SEATS)
        return self.ref(
            "seat",
            lambda: {
                "description": "A seat: 0 for the first player, then clockwise.",
                "type": "integer",
                "minimum": 0,
                "maximum": limit - 1,
            },
        )

    def rules(self) -> dict[str, Any]:
        return self.ref("rules", self.rules_schema)

    def actions(self) -> list[type]:
        return [Deal, Play, *self.game.decisions]

    def events(self) -> list[type]:
        return [Dealt, Play, *self.game.decisions, *self.game.events]

    # ----------------------------------------------------------------- types

    def of(self, t: Any, field: str = "") -> dict[str, Any]:
        """The schema of a field's annotated type."""
        origin = typing.get_origin(t)
        if t is Any:
            return {}
        if t is type(None):
            return {"type": "null"}
        if t is bool:
            return {"type": "boolean"}
        if t is int:
            return self.seat() if field == "seat" else {"type": "integer"}
        if t is str:
            return {"type": "string"}
        if t is float:
            return {"type": "number"}
        if t is Card:
            return self.card()
        if t is History or origin is History or (origin is tuple and len(typing.get_args(t)) == 2):
            args = typing.get_args(t)
            return {"type": "array", "items": self.of(args[0] if args else Any, field)}
        if origin in (typing.Union, types.UnionType):
            return self.union(typing.get_args(t), field)
        if isinstance(t, type) and issubclass(t, enum.Enum):
            return {"enum": [m.value for m in t]}
        if isinstance(t, type) and issubclass(t, Rules):
            return self.rules()
        if t is Decision:
            return self.union(tuple(self.game.decisions), field)
        if isinstance(t, type) and t in self.by_base:
            return self.value(self.by_base[t])
        if t in _ANY_EVENT:  # the base class in `Event`: the game's own events
            return self.union(tuple(self.game.events), field)
        if isinstance(t, type) and attrs.has(t):
            return self.value(t)
        raise TypeError(f"no JSON Schema for the type {t!r}")

    def union(self, members: tuple[Any, ...], field: str = "") -> dict[str, Any]:
        options: list[dict[str, Any]] = []
        for member in members:
            if member is Decision:
                options += [self.of(d) for d in self.game.decisions]
            elif member in _ANY_EVENT:
                options += [self.of(e) for e in self.game.events]
            else:
                options.append(self.of(member, field))
        unique = list({json.dumps(o, sort_keys=True): o for o in options}.values())
        if len(unique) == 1:
            return unique[0]
        if not unique:
            return {"not": {}}
        if all(list(o) == ["type"] and isinstance(o["type"], str) for o in unique):
            return {"type": [o["type"] for o in unique]}  # e.g. ["integer", "null"]
        return {"anyOf": unique}

    def value(self, cls: type) -> dict[str, Any]:
        """A reference to an attrs class's object schema: every field, required, nothing else."""
        return self.ref(cls.__name__, lambda: self.object_schema(cls))

    def object_schema(self, cls: type, skip: tuple[str, ...] = ()) -> dict[str, Any]:
        docs = _field_docs(cls)
        properties: dict[str, Any] = {}
        tag = _tag(cls)
        if tag is not None:
            properties["type"] = {"const": tag}
        for a in _fields(cls):
            if a.name in skip:
                continue
            key = a.alias or a.name
            schema = dict(self.of(a.type, key))
            if a.name in docs:
                schema = {"description": docs[a.name], **schema} if "$ref" not in schema else schema
                if "$ref" in schema:
                    schema = {"description": docs[a.name], "allOf": [schema]}
            properties[key] = schema
        out: dict[str, Any] = {"description": _summary(cls)} if _summary(cls) else {}
        out |= {
            "type": "object",
            "properties": properties,
            "required": list(properties),
            "additionalProperties": False,
        }
        return out

    def rules_schema(self) -> dict[str, Any]:
        cls = self.game.rules_type
        docs = _field_docs(cls)
        properties: dict[str, Any] = {
            "name": {
                "description": docs.get("name", "The preset.")
                + f" This game's presets: {', '.join(self.game.presets)}.",
                "type": "string",
            },
            "game": {"description": f"The game: {self.game.name!r}.", "const": self.game.name},
        }
        for a in _fields(cls):
            if a.name == "name":
                continue
            schema = dict(self.of(a.type))
            option = OPTIONS.get(a.name)
            if option is not None:
                schema = {"description": option.meaning, **schema}
                if option.choices is not None and a.name == "deck":
                    schema["enum"] = list(_decks_of(self.game))
                elif option.choices is not None and option.type != "bool":
                    schema["enum"] = list(option.choices)
            properties[a.alias or a.name] = schema
        return {
            "description": f"{self.game.title or self.game.name}: the rules (a preset and every option).",
            "type": "object",
            "properties": properties,
            "required": list(properties),
            "additionalProperties": False,
        }

    def action_union(self) -> dict[str, Any]:
        return self.ref("action", lambda: self.union(tuple(self.actions())))

    def players(self) -> dict[str, Any]:
        limit = getattr(self.game.rules_type, "seats_limit", MAX_SEATS)
        return {
            "description": "Seat labels (names), seat 0 first; their number is the player count.",
            "type": "array",
            "items": {"type": "string"},
            "minItems": 1,
            "maxItems": limit,
        }

    # ----------------------------------------------------------------- the kinds

    def body(self, kind: str) -> dict[str, Any]:
        """The fields of a document of `kind` after the envelope, and its description."""
        if kind == "rules":
            schema = self.rules_schema()
            return schema
        if kind == "view":
            schema = self.object_schema(self.game.view_type)
            schema["properties"]["players"] = self.players()
            return schema
        if kind == "score":
            schema = self.object_schema(Score)
            schema["properties"]["game"] = {"description": "The game.", "const": self.game.name}
            return schema
        if kind == "record":
            from .records import Record

            schema = self.object_schema(Record)
            schema["properties"]["players"] = self.players()
            return schema
        if kind == "state":
            return self.state_schema()
        if kind == "action":
            return self.action_schema()
        if kind == "error":
            return _error_body()
        raise ValueError(f"unknown kind {kind!r}; kinds are {', '.join(KINDS)}")

    def state_schema(self) -> dict[str, Any]:
        from .state import State

        docs = _field_docs(State)
        match = self.object_schema(self.game.match_type, skip=("rules", "players", "first"))
        table = self.object_schema(self.game.table_type)
        self.defs[self.game.match_type.__name__] = match
        self.defs[self.game.table_type.__name__] = table
        extra = self.game.extra_type
        play = self.of(Play)
        properties = {
            "rules": self.rules(),
            "players": self.players(),
            "first": {"description": "The seat that leads the first trick of the match.", **self.seat()},
            "to_act": {
                "description": docs.get("to_act", "The seat to act."),
                "anyOf": [self.seat(), {"const": -1}, {"type": "null"}],
            },
            "match": {"$ref": f"#/$defs/{self.game.match_type.__name__}"},
            "table": {"anyOf": [{"$ref": f"#/$defs/{self.game.table_type.__name__}"}, {"type": "null"}]},
            "hands": {
                "description": "Every seat's cards, sorted (secret).",
                "type": "array",
                "items": {"type": "array", "items": self.card()},
            },
            "trick": {
                "description": "The current trick so far, in play order.",
                "type": "array",
                "items": play,
            },
            "best": {"description": docs.get("best", ""), "anyOf": [play, {"type": "null"}]},
            "extra": {"description": docs.get("extra", ""), **self.of(extra)},
            "history": {
                "description": "Every action since the start, oldest first.",
                "type": "array",
                "items": self.action_union(),
            },
        }
        return {
            "description": _summary(State),
            "type": "object",
            "properties": properties,
            "required": list(properties),
            "additionalProperties": False,
        }

    def action_schema(self) -> dict[str, Any]:
        options = []
        for cls in self.actions():
            schema = self.object_schema(cls)
            options.append(schema)
        return {
            "description": "One action as a document of its own: a client's move sent to a server. "
            "Its fields are the action's, beside the envelope.",
            "anyOf": options,
        }


def _error_body() -> dict[str, Any]:
    codes = {**ERROR_CODES, **PROTOCOL_CODES}
    tags = sorted({t for g in GAMES.values() for t in ("deal", "play", *(d.TAG for d in g.decisions))})
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


def _game_schema(kind: str, game: Game[Any]) -> dict[str, Any]:
    builder = _Builder(game)
    body = _envelope(kind, builder.body(kind))
    title = f"cucumber_rules {kind} document ({game.title or game.name}), format {FORMAT_VERSION}"
    schema = {"$schema": DIALECT, "$id": schema_id(kind, game.name), "title": title, **body}
    if builder.defs:
        schema["$defs"] = dict(sorted(builder.defs.items()))
    return schema


def json_schema(kind: str, game: str | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a kind of document, for one game or for every registered game.

    Every document [`dumps`][cucumber_rules.dumps] writes is valid against the schema of its
    kind (and of its game), and so are the action and error documents of this module. The
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
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; games are {', '.join(GAMES)}")
        if kind != "error":
            return _game_schema(kind, GAMES[game])
    if kind == "error":
        body = _envelope("error", _error_body())
        return {
            "$schema": DIALECT,
            "$id": schema_id("error"),
            "title": f"cucumber_rules error document, format {FORMAT_VERSION}",
            **body,
        }
    per_game = {name: _game_schema(kind, g) for name, g in GAMES.items()}
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
    for game in GAMES:
        files |= {f"{game}/{kind}.json": json_schema(kind, game) for kind in KINDS if kind != "error"}
    return {path: json.dumps(schema, indent=2, ensure_ascii=False) + "\n" for path, schema in files.items()}


# --------------------------------------------------------------------------- action documents

_converters: dict[tuple[int, ...], cattrs.Converter] = {}


def _converter() -> cattrs.Converter:
    """The library's converter for the games registered now (built again when they change)."""
    key = tuple(id(g) for g in GAMES.values())
    conv = _converters.get(key)
    if conv is None:
        _converters.clear()
        conv = _converters[key] = make_converter()
    return conv


def action_document(action: Action) -> dict[str, Any]:
    """An action as a document of its own (JSON-ready): the envelope, then the action's fields.

    Example:
        >>> import cucumber_rules as cr
        >>> action_document(cr.Revive(2, True))
        {'format': 2, 'kind': 'action', 'type': 'revive', 'seat': 2, 'accept': True}
    """
    if not isinstance(action, Deal | Play | Decision):
        raise TypeError(f"expected an action (Deal, Play or a decision), not {type(action).__name__}")
    body = _converter().unstructure(action, type(action))
    return {"format": FORMAT_VERSION, "kind": "action", **body}


def read_action(document: Any) -> Action:
    """Read an action document (already parsed from JSON), strictly, as `loads` reads its documents.

    Args:
        document: The parsed JSON value.

    Returns:
        The action (not checked against any state: `check` or `apply` does that).

    Raises:
        InvalidStateError: If it is not an action document; `.path` names the bad field.

    Example:
        >>> read_action({"format": 2, "kind": "action", "type": "play", "seat": 1, "card": "QS"})
        Play(seat=1, card=card('QS'))
        >>> try:
        ...     read_action({"format": 2, "kind": "action", "type": "play", "seat": 1, "card": "QX"})
        ... except InvalidStateError as err:
        ...     print(err.path)
        $.card
    """
    if type(document) is not dict:
        raise InvalidStateError("$", "an action document is a JSON object")
    if document.get("format") != FORMAT_VERSION or type(document.get("format")) is not int:
        raise InvalidStateError("$.format", f"expected format {FORMAT_VERSION}")
    if document.get("kind") != "action":
        raise InvalidStateError("$.kind", "expected kind 'action'")
    body = {k: v for k, v in document.items() if k not in ("format", "kind")}
    try:
        action: Action = _converter().structure(body, Action)  # type: ignore[arg-type]
    except InvalidStateError:
        raise
    except Exception as err:  # a converter failure that is not the library's own error
        raise InvalidStateError("$", f"not an action: {err}") from None
    return action


# --------------------------------------------------------------------------- error documents


def error_document(error: RulesError) -> dict[str, Any]:
    """The error document for one of the library's errors: an illegal move, bad rules, bad data.

    An `IllegalMoveError` keeps its code; `InvalidStateError` and `InvalidNotationError`
    become `"invalid-document"`, `InvalidRulesError` `"invalid-rules"`.

    Example:
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> doc = error_document(cr.check(state, cr.Play(0, "QS")))
        >>> doc["code"], doc["seat"], doc["action"]
        ('deal-expected', 0, {'type': 'play', 'seat': 0, 'card': 'QS'})
    """
    if isinstance(error, IllegalMoveError):
        action = error.action
        body = None if action is None else _converter().unstructure(action, type(action))
        return protocol_error(error.code, error.message, seat=error.seat, action=body)
    if isinstance(error, InvalidRulesError):
        return protocol_error("invalid-rules", str(error), option=getattr(error, "option", None))
    if isinstance(error, InvalidStateError):
        return protocol_error("invalid-document", str(error), path=error.path)
    if isinstance(error, InvalidNotationError):
        return protocol_error("invalid-document", str(error), path="$")
    raise TypeError(f"expected one of the library's errors, not {type(error).__name__}")


def protocol_error(
    code: str,
    message: str,
    *,
    seat: int | None = None,
    action: Mapping[str, Any] | None = None,
    path: str | None = None,
    option: str | None = None,
) -> dict[str, Any]:
    """An error document from its fields; `code` is a protocol code or an illegal move's code.

    Example:
        >>> protocol_error("spectator", "a spectator's link acts for no seat")["code"]
        'spectator'
    """
    if code not in PROTOCOL_CODES and code not in ERROR_CODES:
        raise ValueError(f"unknown error code {code!r}")
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    return {
        "format": FORMAT_VERSION,
        "kind": "error",
        "code": code,
        "message": message,
        "seat": seat,
        "action": None if action is None else dict(action),
        "path": path,
        "option": option,
    }
