"""The schema of a game's values: its types, cards, seats and rules, with the definitions they refer to."""

from __future__ import annotations

import enum
import json
import types
import typing
from typing import TYPE_CHECKING, Any, Final

import attrs

from ..actions import MAX_SEATS, Deal, Decision, Play
from ..cards import DECKS, Card
from ..errors import InvalidRulesError
from ..history import History
from ..options import option_table
from ..rules import Rules, ruleset
from ..state import Match, RoundResult, Table, Trick
from ..views import Dealt, Event, PlayerView
from .source import field_docs, summary_of

if TYPE_CHECKING:
    from ..game import GameBase
    from ..state import State

# --------------------------------------------------------------------------- the schema of one game


def _fields(cls: type) -> list[attrs.Attribute[Any]]:
    attrs.resolve_types(cls)
    return [a for a in attrs.fields(cls) if a.init]


def _decks_of(game: GameBase[State]) -> tuple[str, ...]:
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


class SchemaBuilder:
    """Builds the schema of one kind for one game, gathering the definitions it refers to."""

    def __init__(self, game: GameBase[State]) -> None:
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
        if t is History or origin is History or t is tuple:
            args = typing.get_args(t)
            return {"type": "array", "items": self.of(args[0] if args else Any, field)}
        if origin is tuple:
            return self.tuple_of(typing.get_args(t), field)
        if origin is typing.Literal:
            values = [v.value if isinstance(v, enum.Enum) else v for v in typing.get_args(t)]
            return {"const": values[0]} if len(values) == 1 else {"enum": values}
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

    def tuple_of(self, args: tuple[Any, ...], field: str = "") -> dict[str, Any]:
        """A tuple's schema: `tuple[X, ...]` an array of X; `tuple[X, Y]` exactly an X then a Y."""
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.of(args[0], field)}
        if not args:  # `tuple[()]`
            return {"type": "array", "maxItems": 0}
        return {
            "type": "array",
            "prefixItems": [self.of(arg, field) for arg in args],
            "items": False,
            "minItems": len(args),
        }

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
        docs = field_docs(cls)
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
        out: dict[str, Any] = {"description": summary_of(cls)} if summary_of(cls) else {}
        out |= {
            "type": "object",
            "properties": properties,
            "required": list(properties),
            "additionalProperties": False,
        }
        return out

    def rules_schema(self) -> dict[str, Any]:
        cls = self.game.rules_type
        docs = field_docs(cls)
        options = option_table(cls)  # (the game's own: another game may define an option of this name)
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
            option = options.get(a.name)
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
