"""What `register_game` checks before registering a game: its shape, its names, and that its values serialise.

A plug-in is contained: everything here runs before anything changes, and a failure raises
(`TypeError` for something of the wrong kind, `ValueError` for a name that is taken or
malformed) naming the game and what is wrong.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import keyword
import random
import types
import typing
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, Final

import attrs

from ..errors import check_codes
from .base import FLAT_HOOKS, Game, LazyGroup

__all__ = ["check_game", "library_game", "prove"]

#: What Python itself puts in a class's namespace (not a reading of the game's).
_CLASS_MACHINERY = frozenset(
    {"__module__", "__qualname__", "__doc__", "__slots__", "__annotations__", "__orig_bases__",
     "__parameters__", "__firstlineno__", "__static_attributes__", "__weakref__", "_abc_impl"}
)  # fmt: skip
#: A game's value classes (each derives from the library's class of that role).
_VALUE_TYPES = ("match_type", "table_type", "trick_type", "result_type", "view_type")
#: Each hook group's attribute, with the data its class must hold: name -> type.
_GROUP_DATA: dict[str, dict[str, type]] = {
    "views": {"view_fields_shared": bool},
    "stats": {"penalty_words": str},
}


def _check_groups(game: Game[Any]) -> None:
    """Each hook group is an object of its default's class (or a subclass) holding data of the right types."""
    for attr in sorted({group for group, _ in FLAT_HOOKS.values()}):
        if isinstance(inspect.getattr_static(type(game), attr, None), LazyGroup):
            continue  # declared with `group(...)`: its class is checked when it is first built
        found = getattr(game, attr, None)
        default = getattr(Game, attr)
        if not isinstance(found, type(default)):
            raise TypeError(
                f"{game.name}: its {attr} group must be a {type(default).__name__} (or a subclass), "
                f"not {type(found).__name__}"
            )
        for name, kind in _GROUP_DATA.get(attr, {}).items():
            value = getattr(found, name, None)
            if type(value) is not kind:
                raise TypeError(
                    f"{game.name}: {attr}.{name} must be {kind.__name__}, not {type(value).__name__}"
                )


def library_game(game: Game[Any]) -> bool:
    """True for the library's own games (the ladder games, Catastrophe), False for a plug-in."""
    return type(game).__module__.startswith("cucumber_rules.")


def check_game(game: Game[Any], games: Mapping[str, Game[Any]]) -> None:
    """Refuse a game that is malformed or clashes with a registered one (before anything changes)."""
    from ..rules import Rules

    name = game.name
    if not isinstance(name, str):
        raise TypeError(f"a game's name must be a string, not {type(name).__name__}")
    if not name or _canonical(name) != name:
        raise ValueError(
            f"a game needs a name in lower case, words joined by '-' ('high-card'), not {name!r}"
        )
    if name in games:
        raise ValueError(f"a game named {name!r} is already registered")
    for attr, kind in (("title", str), ("unit", str)):
        _expect(game, attr, kind)
    _expect(game, "shows_dealer", bool)
    _check_groups(game)
    rules_type = getattr(game, "rules_type", None)
    if not (isinstance(rules_type, type) and issubclass(rules_type, Rules) and attrs.has(rules_type)):
        raise TypeError(f"{name}: rules_type must be a subclass of Rules")
    _check_rules_class(game, rules_type)
    _check_types(game)
    _check_presets(game, games)
    check_codes(name, game.error_codes)
    _check_tags(game, games)
    _check_options(game)
    _check_keys(game)
    _check_engine(game)
    unused = game.format1.unused
    if not isinstance(unused, Mapping) or (unused and not library_game(game)):
        raise ValueError(
            f"{name}: format1.unused is for the games cucumber_rules 0.1 wrote (format 1 knew no other)"
        )


#: The class of what `attrs.field` (and so `option`) returns before its class is made an attrs class.
_FIELD: Final = type(attrs.field())
#: The engine hooks every game writes (`Game`'s raise `NotImplementedError`), with what each is for.
_ENGINE_HOOKS: dict[str, str] = {
    "deal_error": "why a given deal does not fit the coming round",
    "sample_deal": "a random deal for the coming round",
    "start_round": "the state after a deal",
    "legal": "the legal actions of the seat to act",
    "play_error": "why a card may not be played now",
    "play": "the state after a legal play",
    "max_actions": "a hard bound on the actions of a match, for the adapters and the tests",
}
#: The hooks a game with decisions writes too.
_DECISION_HOOKS: dict[str, str] = {
    "decide": "the state after a decision",
}


def _check_engine(game: Game[Any]) -> None:
    """Every engine hook the game must write is written (not `Game`'s, which raises `NotImplementedError`)."""
    hooks = dict(_ENGINE_HOOKS)
    if getattr(game, "decisions", ()):
        hooks.update(_DECISION_HOOKS)
    for hook, meaning in hooks.items():
        if getattr(type(game), hook, None) is getattr(Game, hook):
            raise TypeError(f"{game.name}: it does not define the engine hook {hook} ({meaning})")


def _check_rules_class(game: Game[Any], rules_type: type[Any]) -> None:
    """The rules class says this game, and every class between it and `Rules` is an attrs class.

    A subclass of `Rules` that is not decorated with `@attrs.frozen(kw_only=True)` inherits its base's
    fields: the options it declares are no fields at all (they vanish from its rules, `OPTIONS` and
    the JSON), so it is refused with the decorator to add.
    """
    from ..rules import Rules

    for cls in rules_type.__mro__:
        if cls is Rules:
            break
        if "__attrs_attrs__" in cls.__dict__:
            continue
        declared = sorted(
            {n for n, v in vars(cls).items() if isinstance(v, _FIELD)}
            | {n for n, t in vars(cls).get("__annotations__", {}).items() if "ClassVar" not in str(t)}
        )
        if declared:
            raise TypeError(
                f"{game.name}: its rules class {cls.__name__} is not an attrs class, so its options "
                f"{', '.join(declared)} would vanish; declare it with @attrs.frozen(kw_only=True)"
            )
    said = rules_type.game
    if said == game.name:
        return
    if not said:
        raise ValueError(
            f"{game.name}: its rules class {rules_type.__name__} does not say its game; "
            f"set game = {game.name!r} on the class"
        )
    owner = next(c for c in rules_type.__mro__ if "game" in c.__dict__)
    inherited = f" (inherited from {owner.__name__})" if owner is not rules_type else ""
    raise ValueError(
        f"{game.name}: its rules class says game {said!r}{inherited}; set game = {game.name!r} on "
        f"{rules_type.__name__}"
    )


def _expect(game: Game[Any], attr: str, kind: type) -> Any:
    value = getattr(game, attr, None)
    if type(value) is not kind:
        raise TypeError(f"{game.name}: {attr} must be {kind.__name__}, not {type(value).__name__}")
    return value


def _mapping(game: Game[Any], attr: str) -> Mapping[Any, Any]:
    value = getattr(game, attr, None)
    if not isinstance(value, Mapping):
        raise TypeError(f"{game.name}: {attr} must be a mapping, not {type(value).__name__}")
    if isinstance(value, MutableMapping):  # (a class's dicts are made read-only; an instance's are not)
        raise TypeError(
            f"{game.name}: {attr} must be read-only (a game is reachable from its states): give it as a "
            "class attribute, or as a types.MappingProxyType"
        )
    return value


def _canonical(name: str) -> str:
    from ..rules import canonical_name

    return canonical_name(name)


def _check_types(game: Game[Any]) -> None:
    """Each of the game's value classes is an attrs class deriving from the library's own."""
    from ..actions import MAX_SEATS
    from ..scoring import Score
    from ..state import Match, RoundResult, State, Table, Trick
    from ..views import PlayerView

    limit = game.rules_type.seats_limit
    if type(limit) is not int or not 2 <= limit <= MAX_SEATS:
        raise ValueError(
            f"{game.name}: seats_limit of its rules must be an int 2..{MAX_SEATS}, not {limit!r}"
        )
    for attr, base in zip(_VALUE_TYPES, (Match, Table, Trick, RoundResult, PlayerView), strict=True):
        cls = getattr(game, attr, None)
        if not (isinstance(cls, type) and issubclass(cls, base) and attrs.has(cls)):
            raise TypeError(f"{game.name}: {attr} must be an attrs subclass of {base.__name__}, not {cls!r}")
    score_type = getattr(game, "score_type", None)
    if not (isinstance(score_type, type) and issubclass(score_type, Score) and attrs.has(score_type)):
        raise TypeError(f"{game.name}: score_type must be an attrs subclass of Score, not {score_type!r}")
    state_type = getattr(game, "state_type", None)
    if not (isinstance(state_type, type) and issubclass(state_type, State)):
        raise TypeError(f"{game.name}: state_type must be State or a subclass of it, not {state_type!r}")
    if attrs.fields(state_type) != attrs.fields(State) or "__dict__" in dir(state_type):
        raise TypeError(
            f"{game.name}: its state class {state_type.__name__} may add readings (properties) to State, "
            "not fields or a __dict__ (give it `__slots__ = ()`)"
        )
    own = vars(state_type) if state_type is not State else {}  # (State's own slots are no readings)
    readings = [n for n in own if n not in _CLASS_MACHINERY]
    for name in readings:
        if not _public(name) or (state_type is not State and _has(State, name)):
            raise ValueError(f"{game.name}: a state reading cannot be named {name!r}")


def _check_presets(game: Game[Any], games: Mapping[str, Game[Any]]) -> None:
    """Presets and aliases: canonical names, rules of this game, taken by no other game."""
    presets, aliases = _mapping(game, "presets"), _mapping(game, "aliases")
    titles = _mapping(game, "preset_titles")
    rules_type = game.rules_type
    taken = {key: other.name for other in games.values() for key in (*other.presets, *other.aliases)}
    for key in (*presets, *aliases):
        if not isinstance(key, str) or not key or _canonical(key) != key:
            raise ValueError(f"{game.name}: preset name {key!r} must be in lower case, words joined by '-'")
        if key in taken:
            raise ValueError(f"{game.name}: preset name {key!r} is taken by the {taken[key]} game")
    for key, rules in presets.items():
        if type(rules) is not rules_type or rules.name != key:
            raise ValueError(f"{game.name}: preset {key!r} must be {rules_type.__name__} named {key!r}")
    for alias, target in aliases.items():
        if not isinstance(target, str) or target not in presets:
            raise ValueError(f"{game.name}: alias {alias!r} names no preset ({target!r})")
    for key, title in titles.items():
        if not isinstance(key, str) or not isinstance(title, str):
            raise TypeError(f"{game.name}: preset_titles must map preset names to strings")


def _tags_of(games: Any) -> dict[str, tuple[type, str]]:
    from ..actions import Deal, Play
    from ..views import Dealt

    found: dict[str, tuple[type, str]] = {c.TAG: (c, "the core actions") for c in (Deal, Play, Dealt)}
    for other in games:
        for cls in (*other.decisions, *other.events):
            found.setdefault(cls.TAG, (cls, f"the {other.name} game"))
    return found


def _check_tags(game: Game[Any], games: Mapping[str, Game[Any]]) -> None:
    """Decision and event classes: attrs classes with a `TAG` of their own that no other class has."""
    from ..actions import Decision

    taken = _tags_of(games.values())
    own: dict[str, type] = {}
    for attr in ("decisions", "events"):
        classes = getattr(game, attr, None)
        if type(classes) is not tuple:
            raise TypeError(f"{game.name}: {attr} must be a tuple of classes, not {type(classes).__name__}")
        for cls in classes:
            if not (isinstance(cls, type) and attrs.has(cls)):
                raise TypeError(f"{game.name}: {attr} must hold attrs classes, not {cls!r}")
            if (attr == "decisions") != issubclass(cls, Decision):
                wrong = "must derive from Decision" if attr == "decisions" else "cannot be a Decision"
                raise TypeError(f"{game.name}: {cls.__name__} in {attr} {wrong}")
            tag = cls.__dict__.get("TAG")
            if type(tag) is not str or not tag:
                raise TypeError(f'{game.name}: {cls.__name__} needs a TAG of its own (JSON\'s "type")')
            other, owner = taken.get(tag, (cls, ""))
            if other is not cls:
                taker = f"{owner} ({other.__name__})"
                raise ValueError(f"{game.name}: tag {tag!r} of {cls.__name__} is taken by {taker}")
            if own.setdefault(tag, cls) is not cls:
                both = f"{own[tag].__name__} and {cls.__name__}"
                raise ValueError(f"{game.name}: tag {tag!r} is used by both {both}")


def _check_options(game: Game[Any]) -> None:
    """Refuse an option that is not a plain public name or would hide one of `Rules`' attributes."""
    from ..options import option_fields
    from ..rules import Rules

    common = set(option_fields(Rules))
    for name in option_fields(game.rules_type):
        if not _public(name):
            raise ValueError(f"{game.name}: an option needs a public name, not {name!r}")
        if name not in common and _has(Rules, name):
            raise ValueError(f"{game.name}: an option cannot be named {name!r}: Rules has it already")


def _check_keys(game: Game[Any]) -> None:
    """Refuse a field whose JSON key the documents already use for something else.

    A document's top-level fields sit beside its envelope (`format`, `kind`): an option, a field of
    the game's view or score class, or a decision's field (an action document) named like one would
    overwrite it. A decision's or event's field named like the tag's key (`type`) would overwrite its tag.
    """
    from ..options import option_fields
    from ..serialization.converter import TAG_KEY
    from ..serialization.documents import ENVELOPE

    def taken(keys: tuple[str, ...]) -> str:
        return ", ".join(repr(k) for k in keys)

    for name in option_fields(game.rules_type):
        if name in ENVELOPE:
            raise ValueError(
                f"{game.name}: an option cannot be named {name!r}: JSON documents use it for their "
                f"envelope ({taken(ENVELOPE)})"
            )
    checked: list[tuple[str, type, tuple[str, ...]]] = [
        (attr, getattr(game, attr), ENVELOPE) for attr in ("view_type", "score_type")
    ]
    checked += [("decisions", cls, (*ENVELOPE, TAG_KEY)) for cls in game.decisions]
    checked += [("events", cls, (TAG_KEY,)) for cls in game.events]
    for attr, cls, reserved in checked:
        for field in attrs.fields(cls):
            key = field.alias or field.name
            if field.init and key in reserved:
                use = "the tag of a decision or event" if key == TAG_KEY else "the envelope of documents"
                raise ValueError(
                    f"{game.name}: {cls.__name__} ({attr}) cannot have a field written as {key!r}: "
                    f"JSON uses it for {use} ({taken(reserved)} are taken)"
                )


def _public(name: object) -> bool:
    """True for a name a reading or option may have: an identifier, not a keyword, no leading `_`."""
    return (
        isinstance(name, str)
        and name.isidentifier()
        and not name.startswith("_")
        and not keyword.iskeyword(name)
    )


def _has(cls: type, name: str) -> bool:
    try:
        inspect.getattr_static(cls, name)
    except AttributeError:
        return False
    return True


# --------------------------------------------------------------------------- the proof that it serialises


def prove(game: Game[Any], games: Mapping[str, Game[Any]]) -> None:
    """Build the JSON converter with the game and send its values there and back.

    The converter's hooks are built for each of the game's classes and the types of their
    fields (and its `extra_type`), and its JSON Schema of each kind of document; each preset's
    rules, a new match of it (state, the spectator's and seat 0's views, score, record) and the
    game's `decision_examples` are written as JSON and read back equal; and each preset is dealt
    to its fewest and its most players (a deal that needs more cards than the deck holds is named).

    Raises:
        TypeError: Naming the game, the class or value, and the cause.
    """
    from ..actions import Action
    from ..engine import apply, new_game, sample_chance, score
    from ..records import Record, record
    from ..rules import Rules
    from ..scoring import Score
    from ..serialization.converter import converter_for
    from ..state import State
    from ..views import PlayerView, view

    classes = [
        *((attr, getattr(game, attr)) for attr in ("rules_type", *_VALUE_TYPES, "score_type")),
        *(("decisions", cls) for cls in game.decisions),
        *(("events", cls) for cls in game.events),
    ]
    for attr, cls in classes:
        with _proving(game, f"the annotations of {cls.__qualname__} ({attr})"):
            attrs.resolve_types(cls)
    with _proving(game, "the JSON converter with it"):
        conv = converter_for({**games, game.name: game})
    seen: set[Any] = set()
    for attr, cls in classes:
        with _proving(game, f"the JSON hooks of {cls.__qualname__} ({attr})"):
            _hooks(conv, cls, seen)
    with _proving(game, f"the JSON hooks of its extra_type {game.extra_type!r}"):
        _hooks(conv, game.extra_type, seen)
    _prove_schemas(game)
    samples: list[tuple[str, Any, Any]] = []
    for preset, rules in game.presets.items():
        match = f"a new match of {preset!r}"
        with _proving(game, match):
            state = new_game(rules, rules.min_players)
            samples += [
                (f"preset {preset!r}", rules, Rules),
                (match, state, State),
                (f"the spectator's view of {match}", view(state, None), PlayerView),
                (f"seat 0's view of {match}", view(state, 0), PlayerView),
                (f"the score of {match}", score(state), Score),
                (f"the record of {match}", record(state), Record),
            ]
    with _proving(game, "testing.decision_examples(0)"):
        samples += [(repr(d), (d,), tuple[Action, ...]) for d in game.testing.decision_examples(0)]
    for what, value, kind in samples:
        with _proving(game, what):
            _round_trip(conv, value, kind)
    for preset, rules in game.presets.items():
        for players in sorted({rules.min_players, rules.max_players}):
            with _proving(game, f"dealing {preset!r} to {players} players", claim=""):
                state = new_game(rules, players)
                apply(state, sample_chance(state, random.Random(0)))


def _prove_schemas(game: Game[Any]) -> None:
    """Build the game's JSON Schema of each kind of document (`schema.json_schema`).

    The schemas of every game are built together (`json_schema(kind)`, `schema_files`, the reference
    server when it starts), so a type of the game that has no JSON Schema would break them for all.
    """
    from ..schema.builder import SchemaBuilder
    from ..schema.kinds import KINDS, document_body

    for kind in KINDS:
        if kind != "error":  # (the same for every game)
            with _proving(game, f"its JSON Schema of {kind} documents"):
                json.dumps(document_body(SchemaBuilder(game), kind), allow_nan=False)


@contextlib.contextmanager
def _proving(game: Game[Any], what: str, claim: str = "its values do not serialise: ") -> Iterator[None]:
    """Turn a failure of one step of `prove` into the `TypeError` that names the game and the step."""
    try:
        yield
    except Exception as error:
        raise TypeError(f"{game.name}: {claim}{what} failed: {type(error).__name__}: {error}") from error


def _hooks(conv: Any, t: Any, seen: set[Any]) -> None:
    """Build the converter's hooks for a type and its fields' types (cattrs builds most lazily)."""
    if t in seen or t is type(None) or t is typing.Any:
        return
    seen.add(t)
    conv.get_structure_hook(t)
    origin = typing.get_origin(t)
    if origin is typing.Literal:
        return
    if origin is not None:
        args = [arg for arg in typing.get_args(t) if arg is not Ellipsis and arg is not type(None)]
        if origin in (typing.Union, types.UnionType) and len(args) > 1:
            args = [arg for arg in args if attrs.has(arg)]  # (its hook reads the other members itself)
        for arg in args:
            _hooks(conv, arg, seen)
        return
    conv.get_unstructure_hook(t)
    if isinstance(t, type) and attrs.has(t):
        attrs.resolve_types(t)
        for field in attrs.fields(t):
            if field.init:
                _hooks(conv, field.type, seen)


def _round_trip(conv: Any, value: Any, kind: Any) -> None:
    """Write a value as JSON and read it back; it must come back equal."""
    data = conv.unstructure(value, kind if typing.get_origin(kind) else type(value))
    text = json.dumps(data, allow_nan=False)
    back = conv.structure(json.loads(text), kind)
    if back != value:
        raise ValueError(f"it reads back as {back!r}, not {value!r}")
