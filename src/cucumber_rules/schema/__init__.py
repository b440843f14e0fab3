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
    ('urn:cucumber-rules:format-3:ladder:view', {'const': 'view'})
    >>> action_document(cr.Play(1, "QS"))
    {'format': 3, 'kind': 'action', 'type': 'play', 'seat': 1, 'card': 'QS'}
"""

from __future__ import annotations

from .codes import PROTOCOL_CODES
from .documents import DIALECT, json_schema, schema_files, schema_id
from .kinds import KINDS
from .protocol import action_document, error_document, protocol_error, read_action

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
