"""JSON documents for rules, states, views, scores and records, safe against hostile input.

[`dumps`][cucumber_rules.dumps] writes one compact JSON document;
[`loads`][cucumber_rules.loads] reads it back, checks everything and
re-validates the object before returning it. Every document carries the
format version and its kind:

```json
{"format": 1, "kind": "record", "rules": {...}, "players": [...], "first": 0, "actions": [...]}
```

Kinds: `"rules"` (`Rules`), `"state"` (`State`), `"view"` (`PlayerView`),
`"score"` (`Score`) and `"record"` (`Record`). The document's other keys are
the object's fields, by their Python names. Cards are strings (`"QS"`,
`"10H"`, `"42"`); actions and events are objects with a `"type"` tag (their
`TAG`: `"deal"`, `"play"`, `"revive"`, `"dealt"`, `"reveal"`); history chains
are lists. Every field is required and unknown keys are rejected.

**How a state is checked.** A state document holds the whole `State`,
including its `history`. `loads` replays the history from
`new_game(rules, players, first=first)` and compares the result with the
document field by field: any difference (a tampered hand, a wrong turn, a
forged score) is an `InvalidStateError` naming the first differing field. A
loaded state is therefore always one the engine itself produced. Records are
replayed too; views and scores, which cannot be replayed, are checked for
consistency (seats, sizes, cards of the deck, sums).

Errors: a problem in the rules (wherever they appear) raises
`InvalidRulesError`; anything else raises `InvalidStateError`. Both name the
JSON path of the bad field, e.g. `$.rules.threshold` or `$.history[12].card`.
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Final, TypeVar, overload

import attrs
import cattrs
from cattrs.errors import AttributeValidationNote, IterableValidationNote
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from .actions import Action, Deal, Play, Revive
from .cards import DECKS, Card, card
from .errors import IllegalMoveError, InvalidNotationError, InvalidRulesError, InvalidStateError
from .records import Record
from .rules import OPTIONS, Rules
from .scoring import Score
from .state import CHANCE, Chain, Match, Round, RoundResult, State, Table, Trick
from .views import Dealt, PlayerView, Revealed

__all__ = [
    "FORMAT_VERSION",
    "KINDS",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "Document",
    "RulesDocumentError",
    "dumps",
    "loads",
    "make_converter",
]

FORMAT_VERSION: Final = 1
"""The version of the JSON format, written into every document as `"format"`; `loads` refuses others.

Example:
    >>> import json, cucumber_rules as cr
    >>> json.loads(cr.dumps(cr.ruleset("agurk")))["format"] == FORMAT_VERSION
    True
"""

#: The longest document `loads` reads by default, in characters (or bytes).
MAX_LENGTH: Final = 4_000_000

#: The deepest nesting of JSON arrays and objects `loads` accepts by default.
MAX_DEPTH: Final = 24

#: Anything `dumps` writes and `loads` returns.
Document = Rules | State | PlayerView | Score | Record

#: The document kinds: the `"kind"` of each document type.
KINDS: Final[typing.Mapping[str, type]] = types.MappingProxyType(
    {"rules": Rules, "state": State, "view": PlayerView, "score": Score, "record": Record}
)
_KIND_OF: Final[dict[type, str]] = {cls: kind for kind, cls in KINDS.items()}

#: Classes written as objects with a `"type"` tag.
_TAGGED: Final = (Deal, Play, Revive, Dealt, Revealed)


# The state document keeps a layout of its own, independent of how `State` is
# laid out in memory for speed: the match's rules, players and first seat at the
# top, then `to_act`, `match` (what changes once a round), `round` (the round in
# play, `Round`) and `history`. These two classes are that layout.


@attrs.frozen
class _MatchDocument:
    totals: tuple[int, ...]
    marks: tuple[int, ...]
    out: tuple[int, ...]
    revived: tuple[bool, ...]
    sitting_out: tuple[int, ...]
    pending: tuple[int, ...]
    dealer: int
    payer: int
    rounds: int
    results: Chain[RoundResult]
    winners: tuple[int, ...]


@attrs.frozen
class _StateDocument:
    rules: Rules
    players: tuple[str, ...]
    first: int
    to_act: int | None
    match: _MatchDocument
    round: Round | None
    history: Chain[Action]


_MATCH_DOCUMENT_FIELDS: Final = tuple(f.name for f in attrs.fields(_MatchDocument))


def _state_document(state: State) -> _StateDocument:
    m = state.match
    match = _MatchDocument(*(getattr(m, name) for name in _MATCH_DOCUMENT_FIELDS))
    return _StateDocument(m.rules, m.players, m.first, state.to_act, match, state.round, state.history)


def _state_from_document(doc: _StateDocument) -> State:
    match = Match(doc.rules, doc.players, doc.first, *(getattr(doc.match, n) for n in _MATCH_DOCUMENT_FIELDS))
    r = doc.round
    if r is None:
        return State(doc.to_act, match, hands=((),) * len(doc.players), history=doc.history)
    return State(doc.to_act, match, r.table, r.hands, r.trick, r.high, r.taker, r.marker, doc.history)


_T = TypeVar("_T")


class RulesDocumentError(InvalidRulesError):
    """An `InvalidRulesError` raised by `loads`, also naming the JSON path of the bad option.

    Attributes:
        option: The option at fault (a field of `Rules`, or `"rules"`).
        path: The JSON path, e.g. `$.rules.threshold`.

    Example:
        >>> import cucumber_rules as cr
        >>> text = cr.dumps(cr.ruleset("agurk")).replace('"threshold":21', '"threshold":0')
        >>> try:
        ...     cr.loads(text)
        ... except cr.InvalidRulesError as err:
        ...     print(err.option, err.path)
        threshold $.threshold
    """

    def __init__(self, option: str, message: str, path: str = "$") -> None:
        Exception.__init__(self, f"{path}: {message}")
        self.option = option
        self.path = path
        self.detail = message

    def __reduce__(self) -> Any:
        return (type(self), (self.option, self.detail, self.path))


# --------------------------------------------------------------------------- converter


class _Bad(Exception):
    """A structuring problem at `step` (a path suffix such as `.type`) below the current path."""

    def __init__(self, message: str, step: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.step = step


class _At(Exception):
    """`error` happened below `step` (e.g. `[3]`) of the current path."""

    def __init__(self, step: str, error: BaseException) -> None:
        super().__init__(step)
        self.step = step
        self.error = error


def _kind_name(value: Any) -> str:
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


def _step(key: str) -> str:
    """The path step to a key: `.name`, or `["odd key"]` for a key that is not a plain name."""
    return f".{key}" if key.isidentifier() else f"[{json.dumps(key, ensure_ascii=False)}]"


def _structure_int(value: Any, _: Any) -> int:
    if type(value) is not int:
        raise _Bad(f"expected an integer, not {_kind_name(value)}")
    return value


def _structure_bool(value: Any, _: Any) -> bool:
    if type(value) is not bool:
        raise _Bad(f"expected true or false, not {_kind_name(value)}")
    return value


def _structure_str(value: Any, _: Any) -> str:
    if type(value) is not str:
        raise _Bad(f"expected a string, not {_kind_name(value)}")
    return value


def _structure_card(value: Any, _: Any) -> Card:
    if type(value) is not str:
        raise _Bad(f'expected a card such as "QS" or "42", not {_kind_name(value)}')
    try:
        return card(value)
    except InvalidNotationError as err:
        raise _Bad(str(err)) from None


def _is_tuple(t: Any) -> bool:
    args = typing.get_args(t)
    return typing.get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis


def _is_chain(t: Any) -> bool:
    return t is Chain or typing.get_origin(t) is Chain


def _tagged_union_members(t: Any) -> tuple[type, ...] | None:
    if typing.get_origin(t) not in (typing.Union, types.UnionType):
        return None
    members = typing.get_args(t)
    if members and all(m in _TAGGED for m in members):
        return members
    return None


def _sequence_hook(conv: cattrs.Converter, item_type: Any) -> Callable[[Any], tuple[Any, ...]]:
    """Structure a JSON array (and nothing else) into a tuple, failing at the first bad item."""

    def structure(value: Any) -> tuple[Any, ...]:
        if type(value) is not list:
            raise _Bad(f"expected an array, not {_kind_name(value)}")
        hook = conv.get_structure_hook(item_type)
        out = []
        for i, item in enumerate(value):
            try:
                out.append(hook(item, item_type))
            except Exception as err:
                raise _At(f"[{i}]", err) from None
        return tuple(out)

    return structure


def _attrs_hooks(conv: cattrs.Converter, cls: type) -> None:
    """Register strict structure and unstructure hooks for an attrs class."""
    fields = [f for f in attrs.fields(cls) if f.init]
    names = [f.alias or f.name for f in fields]
    known = set(names)
    tag: str | None = getattr(cls, "TAG", None) if cls in _TAGGED else None
    unstructure: Callable[[Any], dict[str, Any]]
    if cls is Rules:  # the engine's private cache is never written
        unstructure = make_dict_unstructure_fn(cls, conv, _plan=override(omit=True))
    else:
        unstructure = make_dict_unstructure_fn(cls, conv)
    structure: Callable[[Any, Any], Any] = make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=True)

    if tag is None:
        conv.register_unstructure_hook(cls, unstructure)
    else:

        def unstructure_tagged(obj: Any) -> dict[str, Any]:
            return {"type": tag, **unstructure(obj)}

        conv.register_unstructure_hook(cls, unstructure_tagged)

    def structure_checked(value: Any, _: Any) -> Any:
        if type(value) is not dict:
            raise _Bad(f"expected an object, not {_kind_name(value)}")
        if tag is not None:
            if value.get("type") != tag:
                raise _Bad(f"expected type {tag!r}, not {value.get('type')!r}", ".type")
            value = {k: v for k, v in value.items() if k != "type"}
        for key in value:
            if key not in known:
                raise _Bad(f"unknown field {key!r}", _step(key))
        for name in names:
            if name not in value:
                raise _Bad(f"missing field {name!r}", f".{name}")
        return structure(value, cls)

    conv.register_structure_hook(cls, structure_checked)


def _union_hook(conv: cattrs.Converter, members: tuple[type, ...]) -> Callable[[Any, Any], Any]:
    by_tag: dict[str, type] = {m.TAG: m for m in members}  # type: ignore[attr-defined]
    expected = ", ".join(repr(t) for t in by_tag)

    def structure(value: Any, _: Any) -> Any:
        if type(value) is not dict:
            raise _Bad(f'expected an object with a "type" ({expected}), not {_kind_name(value)}')
        tag = value.get("type")
        cls = by_tag.get(tag) if type(tag) is str else None
        if cls is None:
            raise _Bad(f"type must be one of {expected}, not {tag!r}", ".type")
        return conv.get_structure_hook(cls)(value, cls)

    return structure


def make_converter() -> cattrs.Converter:
    """Return a new cattrs converter that maps the library's values to and from JSON-ready data.

    It is the converter [`dumps`][cucumber_rules.dumps] and
    [`loads`][cucumber_rules.loads] use (without the document envelope), and it
    never touches cattrs' global converter. Cards become strings, actions and
    events tagged objects, chains lists. Structuring is strict: JSON types must
    match exactly (no `"5"` for 5, no `1` for true), every field is required
    and unknown keys are rejected. Structured values are *not* re-validated
    against the rules; `loads` does that.

    Returns:
        A fresh converter; register your own hooks on it freely.

    Example:
        >>> import cucumber_rules as cr
        >>> conv = cr.make_converter()
        >>> conv.unstructure(cr.Play(2, cr.card("10H")))
        {'type': 'play', 'seat': 2, 'card': '10H'}
        >>> conv.structure({"type": "play", "seat": 2, "card": "10H"}, cr.Play)
        Play(seat=2, card=card('10H'))
    """
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(int, _structure_int)
    conv.register_structure_hook(bool, _structure_bool)
    conv.register_structure_hook(str, _structure_str)
    conv.register_unstructure_hook(Card, str)
    conv.register_structure_hook(Card, _structure_card)

    def tuple_structure(t: Any) -> Callable[[Any, Any], Any]:
        hook = _sequence_hook(conv, typing.get_args(t)[0])
        return lambda value, _: hook(value)

    def tuple_unstructure(t: Any) -> Callable[[Any], Any]:
        item_type = typing.get_args(t)[0]
        return lambda value: [conv.unstructure(x, item_type) for x in value]

    def chain_structure(t: Any) -> Callable[[Any, Any], Any]:
        args = typing.get_args(t)
        hook = _sequence_hook(conv, args[0] if args else Any)
        return lambda value, _: Chain.of(hook(value))

    def chain_unstructure(t: Any) -> Callable[[Any], Any]:
        args = typing.get_args(t)
        item_type = args[0] if args else Any
        return lambda value: [conv.unstructure(x, item_type) for x in value.items()]

    def union_structure(t: Any) -> Callable[[Any, Any], Any]:
        members = _tagged_union_members(t)
        assert members is not None
        return _union_hook(conv, members)

    conv.register_structure_hook_factory(_is_tuple, tuple_structure)
    conv.register_unstructure_hook_factory(_is_tuple, tuple_unstructure)
    conv.register_structure_hook_factory(_is_chain, chain_structure)
    conv.register_unstructure_hook_factory(_is_chain, chain_unstructure)
    conv.register_structure_hook_factory(lambda t: _tagged_union_members(t) is not None, union_structure)
    conv.register_unstructure_hook_factory(
        lambda t: _tagged_union_members(t) is not None, lambda _: conv.unstructure
    )
    classes: tuple[type, ...] = (
        *_TAGGED,
        Rules,
        Score,
        Record,
        PlayerView,
        _StateDocument,
        _MatchDocument,
        Round,
        Table,
        RoundResult,
        Trick,
    )
    for cls in classes:
        _attrs_hooks(conv, cls)
    structure_document = conv.get_structure_hook(_StateDocument)
    unstructure_document = conv.get_unstructure_hook(_StateDocument)
    conv.register_unstructure_hook(State, lambda state: unstructure_document(_state_document(state)))
    conv.register_structure_hook(
        State, lambda value, _: _state_from_document(structure_document(value, _StateDocument))
    )
    return conv


_converter: cattrs.Converter | None = None


def _conv() -> cattrs.Converter:
    global _converter  # noqa: PLW0603 - a lazily built private converter, never cattrs' global one
    if _converter is None:
        _converter = make_converter()
    return _converter


# --------------------------------------------------------------------------- dumps


def dumps(obj: Document) -> str:
    """Write a `Rules`, `State`, `PlayerView`, `Score` or `Record` as one compact JSON document.

    The document is `{"format": FORMAT_VERSION, "kind": ..., <the object's fields>}`.
    The format is described for clients in other languages in the docs
    ("JSON format").

    Args:
        obj: The value to write.

    Returns:
        The JSON text (no whitespace, UTF-8 characters kept).

    Raises:
        TypeError: If `obj` is not one of the document types.

    Example:
        >>> import cucumber_rules as cr
        >>> rec = cr.Record(cr.ruleset("gurka"), ["Ann", "Bo"], 0, [])
        >>> cr.dumps(rec)[:60]
        '{"format":1,"kind":"record","rules":{"name":"gurka","game":"'
        >>> cr.loads(cr.dumps(rec)) == rec
        True
    """
    kind = _KIND_OF.get(type(obj))
    if kind is None:
        raise TypeError(f"dumps() writes Rules, State, PlayerView, Score or Record, not {type(obj).__name__}")
    body = _conv().unstructure(obj, type(obj))
    return json.dumps(
        {"format": FORMAT_VERSION, "kind": kind, **body},
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )


# --------------------------------------------------------------------------- loads

_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")
_RUN = re.compile(r"[\[{]+|[\]}]+")


def _too_deep(limit: int) -> InvalidStateError:
    return InvalidStateError("$", f"the document is nested too deeply (more than {limit} levels)")


def _check_depth(text: str, limit: int) -> None:
    """Reject nesting deeper than `limit` before parsing, in linear time.

    Escapes are removed, then the insides of strings, then everything but brackets.
    Two rounds remove the innermost bracket pairs (each lowers the depth by one), and a
    scan over the remaining runs of brackets measures the rest.
    """
    if text.count("[") + text.count("{") <= limit:
        return
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[::2])
    brackets = _NOT_BRACKET.sub("", outside)
    removed = 0
    for _ in range(min(2, limit)):
        reduced = _PAIR.sub("", brackets)
        if len(reduced) < len(brackets):
            removed += 1
        brackets = reduced
    depth = 0
    for run in _RUN.finditer(brackets):
        size = run.end() - run.start()
        if run.group()[0] in "[{":
            depth += size
            if depth + removed > limit:
                raise _too_deep(limit)
        else:
            depth -= size
            if depth < 0:
                raise InvalidStateError("$", "not valid JSON: unbalanced brackets")
    if depth:
        raise InvalidStateError("$", "not valid JSON: unbalanced brackets")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _parse(text: str | bytes | bytearray, max_length: int, max_depth: int) -> Any:
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(f"loads() reads a str or bytes, not {type(text).__name__}")
    if len(text) > max_length:
        raise InvalidStateError(
            "$", f"the document is too large: {len(text)} characters, at most {max_length}"
        )
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise InvalidStateError(
                "$", f"the document is not UTF-8: {err.reason} at byte {err.start}"
            ) from None
    _check_depth(text, max_depth)
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise InvalidStateError(
            "$", f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}"
        ) from None
    except (ValueError, RecursionError) as err:
        raise InvalidStateError("$", f"not valid JSON: {err}") from None


def _locate(error: BaseException, path: str) -> tuple[str, BaseException]:
    """Follow a structuring error down to its cause; return the JSON path and the cause."""
    while True:
        if isinstance(error, _At):
            path += error.step
            error = error.error
        elif isinstance(error, _Bad):
            return path + error.step, error
        elif isinstance(error, BaseExceptionGroup) and error.exceptions:
            sub = error.exceptions[0]
            for note in getattr(sub, "__notes__", ()):
                if isinstance(note, AttributeValidationNote):
                    path += f".{note.name}"
                elif isinstance(note, IterableValidationNote):
                    path += f"[{note.index}]"
            error = sub
        else:
            return path, error


def _rules_error(path: str, rules_path: str, message: str, option: str | None = None) -> RulesDocumentError:
    if option is None:
        rest = path[len(rules_path) :].lstrip(".")
        name = re.split(r"[.\[]", rest, maxsplit=1)[0] if rest else ""
        option = name if name in OPTIONS or name in ("name", "game") else "rules"
    return RulesDocumentError(option, message, path)


def _structure(data: dict[str, Any], cls: type[_T], rules_path: str | None) -> _T:
    """Structure a document body, turning every failure into a path-naming library error."""
    try:
        return _conv().structure(data, cls)
    except Exception as error:  # every structuring failure becomes a path-naming error
        path, cause = _locate(error, "$")
        message = cause.message if isinstance(cause, _Bad) else str(cause) or type(cause).__name__
        if isinstance(cause, InvalidRulesError):
            where = rules_path if rules_path is not None else "$"
            in_rules = cause.option in OPTIONS or cause.option in ("name", "game")
            option_path = f"{where}.{cause.option}" if in_rules else where
            raise _rules_error(option_path, where, str(cause), cause.option) from None
        missing = isinstance(cause, _Bad) and cause.message.startswith("missing field")
        if rules_path is not None and path == rules_path and missing and rules_path != "$":
            raise InvalidStateError(path, message) from None
        if rules_path is not None and (
            path == rules_path or path.startswith((rules_path + ".", rules_path + "["))
        ):
            raise _rules_error(path, rules_path, message) from None
        raise InvalidStateError(path, message) from None


@overload
def loads(
    text: str | bytes | bytearray, expect: type[_T], *, max_length: int = ..., max_depth: int = ...
) -> _T: ...


@overload
def loads(
    text: str | bytes | bytearray, expect: None = None, *, max_length: int = ..., max_depth: int = ...
) -> Document: ...


def loads(
    text: str | bytes | bytearray,
    expect: type[Any] | None = None,
    *,
    max_length: int = MAX_LENGTH,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Read a JSON document written by `dumps`, check it completely, and return the object.

    Before parsing, the size and nesting depth are limited. The document must
    have the current `format`, a known `kind`, every field and no other; every
    value must have the right JSON type. Then the object is re-validated: a
    state or record is replayed from its history, and a state must equal the
    replay exactly; views and scores are checked for consistency.

    Args:
        text: The JSON text (str, or UTF-8 bytes).
        expect: If given, the type the document must be (e.g. `State`); any
            other kind is an error.
        max_length: The longest text accepted, in characters (bytes).
        max_depth: The deepest nesting of arrays and objects accepted.

    Returns:
        The `Rules`, `State`, `PlayerView`, `Score` or `Record`.

    Raises:
        InvalidRulesError: If the rules in the document are bad; the error's
            `path` names the option, e.g. `$.rules.threshold`.
        InvalidStateError: For anything else: malformed JSON, a wrong type, a
            missing or unknown field, a bad card, an illegal action, a state
            that does not match its history; `.path` names the field.
        TypeError: If `text` is not str or bytes, or `expect` is not a document type.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.loads(cr.dumps(cr.ruleset("gurka"))) == cr.ruleset("gurka")
        True
        >>> try:
        ...     cr.loads('{"format": 1, "kind": "rules", "name": "agurk"}')
        ... except cr.InvalidRulesError as err:
        ...     print(err)
        $.game: missing field 'game'
        >>> try:
        ...     cr.loads('{"format": 1, "kind": "sandwich"}')
        ... except cr.InvalidStateError as err:
        ...     print(err)
        $.kind: unknown kind 'sandwich'; kinds are 'rules', 'state', 'view', 'score', 'record'
    """
    if expect is not None and expect not in _KIND_OF:
        raise TypeError(f"expect must be one of Rules, State, PlayerView, Score, Record, not {expect!r}")
    doc = _parse(text, max_length, max_depth)
    if type(doc) is not dict:
        raise InvalidStateError("$", f"a document is a JSON object, not {_kind_name(doc)}")
    if "format" not in doc:
        raise InvalidStateError("$.format", "missing field 'format'")
    if doc["format"] != FORMAT_VERSION or type(doc["format"]) is not int:
        raise InvalidStateError(
            "$.format", f"unsupported format {doc['format']!r}; this library reads format {FORMAT_VERSION}"
        )
    kind = doc.get("kind")
    if "kind" not in doc:
        raise InvalidStateError("$.kind", "missing field 'kind'")
    cls = KINDS.get(kind) if type(kind) is str else None
    if cls is None:
        kinds = ", ".join(repr(k) for k in KINDS)
        raise InvalidStateError("$.kind", f"unknown kind {kind!r}; kinds are {kinds}")
    if expect is not None and cls is not expect:
        raise InvalidStateError("$.kind", f"expected a {_KIND_OF[expect]!r} document, not {kind!r}")
    body = {k: v for k, v in doc.items() if k not in ("format", "kind")}
    if cls is State:
        return _validate_state(_structure(body, _StateDocument, "$.rules"))
    obj: Any = _structure(body, cls, "$" if cls is Rules else "$.rules")
    if cls is Record:
        _replay(obj.rules, obj.players, obj.first, obj.actions, "$.actions")
    elif cls is PlayerView:
        _validate_view(obj)
    elif cls is Score:
        _validate_score(obj)
    return obj


# --------------------------------------------------------------------------- re-validation

_CARD_CODES: Final = frozenset(
    {"not-in-hand", "must-follow", "must-play-lowest", "cannot-lead-five", "must-follow-marker"}
)


def _replay(
    rules: Rules, players: tuple[str, ...], first: int, actions: tuple[Action, ...], path: str
) -> State:
    """Replay actions from the start; an illegal one is an `InvalidStateError` at its path."""
    from .engine import apply, new_game

    try:
        state = new_game(rules, players, first=first)
    except InvalidRulesError as err:
        where = "$.first" if err.option == "first" else "$.players"
        raise InvalidStateError(where, str(err).removeprefix(f"{err.option}: ")) from None
    for i, action in enumerate(actions):
        try:
            state = apply(state, action)
        except IllegalMoveError as err:
            where = f"{path}[{i}]"
            if err.code in _CARD_CODES:
                where += ".card"
            elif err.code == "not-your-turn":
                where += ".seat"
            raise InvalidStateError(where, f"illegal action ({err.code}): {err.message}") from None
        except Exception as err:  # an engine failure on hostile input must still be a clean error
            raise InvalidStateError(
                f"{path}[{i}]", f"engine error (please report this bug): {type(err).__name__}: {err}"
            ) from None
    return state


def _diff(expected: Any, found: Any, path: str) -> str | None:
    """The path of the first difference between two values, or None if equal."""
    if expected is found:
        return None
    if type(expected) is Card or isinstance(expected, Rules):
        return None if expected == found else path
    if isinstance(expected, Chain) and isinstance(found, Chain):
        expected, found = expected.items(), found.items()
    if type(expected) is not type(found):
        return path
    if attrs.has(type(expected)):
        for f in attrs.fields(type(expected)):
            if f.eq:
                where = _diff(getattr(expected, f.name), getattr(found, f.name), f"{path}.{f.name}")
                if where is not None:
                    return where
        return None
    if type(expected) is tuple:
        if len(expected) != len(found):
            return path
        for i, (a, b) in enumerate(zip(expected, found, strict=True)):
            where = _diff(a, b, f"{path}[{i}]")
            if where is not None:
                return where
        return None
    return None if expected == found else path


def _validate_state(doc: _StateDocument) -> State:
    state = _replay(doc.rules, doc.players, doc.first, doc.history.items(), "$.history")
    where = _diff(_state_document(state), doc, "$")
    if where is not None:
        raise InvalidStateError(where, "does not match the state rebuilt by replaying the history")
    return state


def _fail(path: str, message: str) -> InvalidStateError:
    return InvalidStateError(path, message)


def _seat_ok(seat: int | None, n: int) -> bool:
    return seat is not None and 0 <= seat < n


def _check_seats(values: tuple[int, ...], n: int, path: str) -> None:
    for i, seat in enumerate(values):
        if not 0 <= seat < n:
            raise _fail(f"{path}[{i}]", f"{seat} is not a seat (0..{n - 1})")


def _check_per_seat(value: tuple[Any, ...], n: int, path: str) -> None:
    if len(value) != n:
        raise _fail(path, f"must have one entry per seat ({n}), not {len(value)}")


def _walk_cards(value: Any, path: str) -> Iterator[tuple[str, Card]]:
    if type(value) is Card:
        yield path, value
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from _walk_cards(item, f"{path}[{i}]")
    elif attrs.has(type(value)) and not isinstance(value, Rules):
        for f in attrs.fields(type(value)):
            yield from _walk_cards(getattr(value, f.name), f"{path}.{f.name}")


def _check_results(sc: Score | PlayerView, n: int) -> None:
    for i, row in enumerate(sc.rounds):
        _check_per_seat(row, n, f"$.rounds[{i}]")
    for i, result in enumerate(sc.results):
        _check_per_seat(result.points, n, f"$.results[{i}].points")
        _check_per_seat(result.totals, n, f"$.results[{i}].totals")
        if result.number != i + 1:
            raise _fail(f"$.results[{i}].number", f"round {i + 1} must have number {i + 1}")
        for name in ("marks", "eliminated", "returned"):
            _check_seats(getattr(result, name), n, f"$.results[{i}].{name}")
        if result.payer is not None and not _seat_ok(result.payer, n):
            raise _fail(f"$.results[{i}].payer", f"{result.payer} is not a seat")
    if sc.rounds != tuple(r.points for r in sc.results):
        raise _fail("$.rounds", "the rows must be the points of the results, in order")
    if sc.results and sc.totals != sc.results[-1].totals:
        raise _fail("$.totals", "the totals must be those after the last result")
    _check_seats(sc.winners, n, "$.winners")
    if sorted(sc.standings) != list(range(n)):
        raise _fail("$.standings", f"must list every seat 0..{n - 1} once")
    if any(sc.eliminated[s] for s in sc.winners):
        raise _fail("$.winners", "an eliminated seat cannot win")


def _validate_score(sc: Score) -> None:
    n = len(sc.totals)
    if not 2 <= n <= 7:
        raise _fail("$.totals", f"a match has 2 to 7 seats, not {n}")
    for name in ("marks", "eliminated"):
        _check_per_seat(getattr(sc, name), n, f"$.{name}")
    _check_results(sc, n)


def _validate_view(v: PlayerView) -> None:
    rules = v.rules
    n = len(v.players)
    if not rules.min_players <= n <= rules.max_players:
        raise _fail(
            "$.players", f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}"
        )
    # Seats.
    if v.seat is not None and not _seat_ok(v.seat, n):
        raise _fail("$.seat", f"{v.seat} is not a seat (0..{n - 1})")
    if not _seat_ok(v.first, n):
        raise _fail("$.first", f"{v.first} is not a seat (0..{n - 1})")
    if v.to_act is not None and v.to_act != CHANCE and not _seat_ok(v.to_act, n):
        raise _fail("$.to_act", f"{v.to_act} is not a seat, CHANCE (-1) or null")
    if not _seat_ok(v.dealer, n):
        raise _fail("$.dealer", f"{v.dealer} is not a seat (0..{n - 1})")
    if v.leader is not None and not _seat_ok(v.leader, n):
        raise _fail("$.leader", f"{v.leader} is not a seat (0..{n - 1})")
    _check_seats(v.sitting_out, n, "$.sitting_out")
    _check_seats(v.pending, n, "$.pending")
    for i, p in enumerate(v.trick):
        if not _seat_ok(p.seat, n):
            raise _fail(f"$.trick[{i}].seat", f"{p.seat} is not a seat")
    for i, t in enumerate(v.tricks):
        if not _seat_ok(t.leader, n) or not _seat_ok(t.taker, n):
            raise _fail(f"$.tricks[{i}]", "the leader and the taker must be seats")
        _check_seats(tuple(p.seat for p in t.plays), n, f"$.tricks[{i}].plays")
    # One entry per seat.
    for name in ("hand_sizes", "totals", "marks", "eliminated"):
        _check_per_seat(getattr(v, name), n, f"$.{name}")
    if v.captured:
        _check_per_seat(v.captured, n, "$.captured")
    # Every card is a card of the deck.
    deck = Counter(DECKS[rules.deck])
    for path, c in _walk_cards(v, "$"):
        if c not in deck:
            raise _fail(path, f"{c} is not a card of the {rules.deck} deck")
    # The hand.
    per = rules.cards_per_player(n)
    for i, size in enumerate(v.hand_sizes):
        if not 0 <= size <= per:
            raise _fail(f"$.hand_sizes[{i}]", f"a hand holds 0 to {per} cards, not {size}")
    if v.seat is None:
        if v.hand:
            raise _fail("$.hand", "a spectator has no hand")
    else:
        if len(v.hand) != v.hand_sizes[v.seat]:
            raise _fail(
                "$.hand", f"the hand holds {len(v.hand)} cards but hand_sizes says {v.hand_sizes[v.seat]}"
            )
        if list(v.hand) != sorted(v.hand):
            raise _fail("$.hand", "the hand must be sorted")
    # The cards of this round appear no more often than the deck holds them.
    visible = [*v.hand, *(p.card for p in v.trick), *(p.card for t in v.tricks for p in t.plays)]
    visible += [t.revealed for t in v.tricks if t.revealed is not None]
    if v.revealed is not None:
        visible.append(v.revealed)
    for c, count in Counter(visible).items():
        if count > deck[c]:
            raise _fail("$.hand", f"{c} appears {count} times in this round, but the deck holds it {deck[c]}")
    # The moves.
    for i, move in enumerate(v.legal):
        if move.seat != v.seat or v.to_act != v.seat:
            raise _fail(f"$.legal[{i}]", "only the seat to act has legal moves, and only its own")
        if type(move) is Play and move.card not in v.hand:
            raise _fail(f"$.legal[{i}].card", f"{move.card} is not in the hand")
    # The trick.
    if len(v.trick) >= n:
        raise _fail("$.trick", f"a trick in progress has fewer than {n} cards")
    if v.marker is not None and v.marker not in ("high", "low", "high-broken", "low-broken"):
        raise _fail("$.marker", f"unknown Trick Marker {v.marker!r}")
    if v.round_number < 0:
        raise _fail("$.round_number", "must be >= 0")
    # The events.
    for i, event in enumerate(v.events):
        if type(event) is Dealt:
            _check_per_seat(event.sizes, n, f"$.events[{i}].sizes")
            if (v.seat is None and event.hand) or (
                v.seat is not None and len(event.hand) != event.sizes[v.seat]
            ):
                raise _fail(f"$.events[{i}].hand", "the viewer's cards do not match the sizes")
        elif type(event) in (Play, Revive) and not _seat_ok(event.seat, n):  # type: ignore[union-attr]
            raise _fail(f"$.events[{i}].seat", f"{event.seat} is not a seat")  # type: ignore[union-attr]
    # The scores.
    _check_results(v, n)
