"""JSON documents: `dumps` and `loads`, the envelope, the size and depth limits, and error paths.

Every document carries the format version and its kind:

```json
{"format": 3, "kind": "record", "rules": {...}, "players": [...], "first": 0, "actions": [...]}
```

Kinds: `"rules"` (`Rules`), `"state"` (`State`), `"view"` (`PlayerView`),
`"score"` (`Score`) and `"record"` (`Record`). Errors: a problem in the rules
(wherever they appear) raises `InvalidRulesError`; anything else raises
`InvalidStateError`. Both name the JSON path of the bad field, e.g.
`$.rules.threshold` or `$.history[12].card`. Documents of format 1 (written
by cucumber_rules 0.1) and format 2 (the 0.2 development releases) are read
too (`legacy`, `format2`).
"""

from __future__ import annotations

import json
import re
import sys
import types
import typing
from typing import Any, Final, TypeVar, overload

import cattrs

from .. import _registry
from ..actions import seat_number
from ..errors import InvalidRulesError, InvalidStateError, RulesError, quoted
from ..records import Record
from ..rules import OPTIONS, Rules
from ..scoring import Score
from ..state import State
from ..views import PlayerView
from . import format2, legacy
from .converter import At, Bad, cause_message, kind_name, locate, make_converter
from .validation import (
    check_counts,
    check_names,
    replay_actions,
    structure_state,
    validate_score,
    validate_view,
)

__all__ = [
    "FORMAT_VERSION",
    "KINDS",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "Document",
    "RulesDocumentError",
    "dumps",
    "loads",
]

FORMAT_VERSION: Final = 3
"""The version of the JSON format, written into every document as `"format"`.

`loads` reads this format, format 2 (the 0.2 development releases: format 3 renamed its
fields with two meanings, see `serialization.format2`) and format 1 (cucumber_rules 0.1,
one layout for both its games). Format 2 and 3 write each game's own fields (see the
docs' JSON format page).

Example:
    >>> import json, cucumber_rules as cr
    >>> json.loads(cr.dumps(cr.ruleset("agurk")))["format"] == FORMAT_VERSION
    True
"""

#: The keys of the envelope every document has beside its body's fields (`register_game` refuses a
#: game whose top-level fields would be written under them: an option, a view's or score's field).
ENVELOPE: Final = ("format", "kind")

#: The formats `loads` reads.
READABLE_FORMATS: Final = (1, 2, 3)

#: The longest document `loads` reads by default, in characters (or bytes).
MAX_LENGTH: Final = 500_000

#: The deepest nesting of JSON arrays and objects `loads` accepts by default.
MAX_DEPTH: Final = 24

#: Anything `dumps` writes and `loads` returns.
Document = Rules | State | PlayerView | Score | Record

#: The document kinds: the `"kind"` of each document type.
KINDS: Final[typing.Mapping[str, type]] = types.MappingProxyType(
    {"rules": Rules, "state": State, "view": PlayerView, "score": Score, "record": Record}
)

_T = TypeVar("_T")


def _kind_of(obj: object) -> str | None:
    for kind, cls in KINDS.items():
        if isinstance(obj, cls):
            return kind
    return None


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
        RulesError.__init__(self, f"{path}: {message}")  # (shortened like every error's, if huge)
        self.option = option
        self.path = path
        self.detail = str(self).removeprefix(f"{path}: ")

    def __reduce__(self) -> Any:
        return (type(self), (self.option, self.detail, self.path))


# --------------------------------------------------------------------------- the converter in use

_cache: list[Any] = [None, -1]


def converter() -> cattrs.Converter:
    """The converter `dumps` and `loads` use: built once, and again when a game is registered.

    Example:
        >>> converter() is converter()
        True
    """
    version = _registry.version()
    if _cache[1] != version:
        _cache[0], _cache[1] = make_converter(), version
    return _cache[0]  # type: ignore[no-any-return]


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
        '{"format":3,"kind":"record","rules":{"name":"gurka","game":"'
        >>> cr.loads(cr.dumps(rec)) == rec
        True
    """
    kind = _kind_of(obj)
    if kind is None:
        raise TypeError(f"dumps() writes Rules, State, PlayerView, Score or Record, not {type(obj).__name__}")
    body = converter().unstructure(obj, type(obj))
    return json.dumps(
        {"format": FORMAT_VERSION, "kind": kind, **body},
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )


# --------------------------------------------------------------------------- parsing

_RUN = re.compile(rb"[\[{]+|[\]}]+")
_NOT_BRACKET_OR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"')


def _too_deep(limit: int) -> InvalidStateError:
    return InvalidStateError("$", f"the document is nested too deeply (more than {limit} levels)")


def _brackets_outside_strings(text: str) -> bytes:
    """The brackets of `text` that are outside its strings, in order (escapes removed first).

    A speed trick: every step is one C loop over the document, never a Python object per
    string. In UTF-8 no byte of a non-ASCII character is ASCII, so bytes stand for characters
    here. After the escapes go, every byte but brackets and quotes is deleted; a string
    holding no bracket is then a pair of adjacent quotes, and removing those pairs leaves
    every other quote's parity, so only strings that hold brackets are left to split out.

    Example:
        >>> _brackets_outside_strings('{"a[": [1, "]"], "b": {}}')
        b'{[]{}}'
    """
    data = text.encode("utf-8", "surrogatepass")
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = data.translate(None, _NOT_BRACKET_OR_QUOTE)
    if kept.count(b'""') * 2 == kept.count(b'"'):  # no string holds a bracket: drop every quote
        return kept.translate(None, b'"')
    kept = kept.replace(b'""', b"")
    return b"".join(kept.split(b'"')[::2])


def _without_pairs(brackets: bytes) -> bytes:
    """`brackets` without the pairs `[]` and `{}` it holds (those of the text, not new ones).

    Example:
        >>> _without_pairs(b"{[]}[{}]")
        b'{}[]'
    """
    return brackets.replace(b"[]", b" ").replace(b"{}", b" ").replace(b" ", b"")


def _check_depth(text: str, limit: int) -> None:
    """Reject nesting deeper than `limit` before parsing, in linear time.

    Escapes are removed, then the insides of strings, then everything but brackets.
    Two rounds remove the innermost bracket pairs (each lowers the depth by one), and a
    scan over the remaining runs of brackets measures the rest.
    """
    if text.count("[") + text.count("{") <= limit:
        return
    brackets = _brackets_outside_strings(text)
    removed = 0
    for _ in range(min(2, limit)):
        reduced = _without_pairs(brackets)
        if len(reduced) < len(brackets):
            removed += 1
        brackets = reduced
    depth = 0
    for run in _RUN.finditer(brackets):
        size = run.end() - run.start()
        if brackets[run.start()] in b"[{":
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
    out = dict(pairs)
    if len(out) != len(pairs):  # a key twice: name the first one repeated
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {quoted(key)}")
            seen.add(key)
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _limit(value: Any, name: str) -> int:
    """A limit of `loads` as an int: any integer (never a bool) from 0 up; a calling mistake otherwise."""
    limit = seat_number(value, f"{name} must be an int")
    if limit < 0:
        raise ValueError(f"{name} must be at least 0, not {limit}")
    return limit


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
        reason = str(err)
        if "integer string conversion" in reason:  # (Python's own hint is for the reader's programmer)
            reason = f"a number has more than {sys.get_int_max_str_digits()} digits"
        raise InvalidStateError("$", f"not valid JSON: {reason}") from None


# --------------------------------------------------------------------------- errors with paths


def _rules_option(path: str, rules_path: str) -> str:
    rest = path[len(rules_path) :].lstrip(".")
    name = re.split(r"[.\[]", rest, maxsplit=1)[0] if rest else ""
    return name if name in OPTIONS or name in ("name", "game") else "rules"


def _raise(error: BaseException, rules_path: str) -> typing.NoReturn:
    """Turn a structuring failure into the library's path-naming error."""
    path, cause = locate(error, "$")
    if isinstance(cause, InvalidRulesError):
        named = cause.option in OPTIONS or cause.option in ("name", "game")
        raise RulesDocumentError(
            cause.option, str(cause), f"{rules_path}.{cause.option}" if named else rules_path
        ) from None
    message = cause_message(cause)
    if isinstance(cause, InvalidStateError) and not isinstance(cause, Bad):
        raise InvalidStateError(path, message) from None
    missing = isinstance(cause, Bad) and cause.message.startswith("missing field")
    if path == rules_path and missing and rules_path != "$":
        raise InvalidStateError(path, message) from None
    if path == rules_path or path.startswith((rules_path + ".", rules_path + "[")):
        raise RulesDocumentError(_rules_option(path, rules_path), message, path) from None
    raise InvalidStateError(path, message) from None


# --------------------------------------------------------------------------- loads


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
    have a known `format` (2, or 1 from cucumber_rules 0.1) and `kind`, every
    field and no other; every value must have the right JSON type. Then the
    object is re-validated: a state or record is replayed from its history, and
    a state must equal the replay exactly; views and scores are checked for
    consistency.

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
        TypeError: If `text` is not str or bytes, `expect` is not a document type, or a
            limit is not an integer (a bool is not one).
        ValueError: If a limit is negative.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.loads(cr.dumps(cr.ruleset("gurka"))) == cr.ruleset("gurka")
        True
        >>> cr.loads("{}", max_depth=-1)
        Traceback (most recent call last):
        ...
        ValueError: max_depth must be at least 0, not -1
        >>> try:
        ...     cr.loads('{"format": 2, "kind": "rules", "name": "agurk"}')
        ... except cr.InvalidRulesError as err:
        ...     print(err)
        $.game: missing field 'game'
        >>> try:
        ...     cr.loads('{"format": 2, "kind": "sandwich"}')
        ... except cr.InvalidStateError as err:
        ...     print(err)
        $.kind: unknown kind 'sandwich'; kinds are 'rules', 'state', 'view', 'score', 'record'
    """
    max_length = _limit(max_length, "max_length")
    max_depth = _limit(max_depth, "max_depth")
    kinds_of = {cls: kind for kind, cls in KINDS.items()}
    wanted = (
        None
        if expect is None
        else next((c for c in kinds_of if isinstance(expect, type) and issubclass(expect, c)), None)
    )
    if expect is not None and wanted is None:
        raise TypeError(f"expect must be one of Rules, State, PlayerView, Score, Record, not {expect!r}")
    doc = _parse(text, max_length, max_depth)
    if type(doc) is not dict:
        raise InvalidStateError("$", f"a document is a JSON object, not {kind_name(doc)}")
    if "format" not in doc:
        raise InvalidStateError("$.format", "missing field 'format'")
    version = doc["format"]
    if type(version) is not int or version not in READABLE_FORMATS:
        readable = " and ".join(str(v) for v in READABLE_FORMATS)
        raise InvalidStateError(
            "$.format", f"unsupported format {quoted(version)}; this library reads formats {readable}"
        )
    if "kind" not in doc:
        raise InvalidStateError("$.kind", "missing field 'kind'")
    kind = doc["kind"]
    cls = KINDS.get(kind) if type(kind) is str else None
    if cls is None:
        kinds = ", ".join(repr(k) for k in KINDS)
        raise InvalidStateError("$.kind", f"unknown kind {quoted(kind)}; kinds are {kinds}")
    if wanted is not None and cls is not wanted:
        raise InvalidStateError("$.kind", f"expected a {kinds_of[wanted]!r} document, not {quoted(kind)}")
    body = {k: v for k, v in doc.items() if k not in ENVELOPE}
    check_names(body.get("players"))  # (before anything shows a name, or a replay starts)
    # From here only `body` holds the parsed values, and a state's history or a record's actions
    # are let go once structured: the garbage collections during the replay do not walk their
    # thousands of card names.
    del doc
    conv = converter()
    rules_path = "$" if cls is Rules else "$.rules"
    if version == 1 and cls is not State:
        body = legacy.upgrade(kind, body)
    if version < 3 and (version == 2 or cls is not State):
        body = format2.upgrade(kind, body)
    if cls is Score or cls is PlayerView:
        check_counts(body)
    try:
        if cls is State:
            legacy_layout = (lambda s: legacy.state_v1(conv, s)) if version == 1 else None
            if version == 1 and type(body.get("rules")) is dict:
                body["rules"] = format2.upgrade("rules", legacy.upgrade("rules", body["rules"]))
            return structure_state(conv, body, legacy_layout, consume=True)
        obj: Any = conv.structure(body, cls)
        if cls is Record:
            del body  # (see above: the record's actions are structured)
            try:
                replay_actions(obj.rules, obj.players, obj.first, obj.actions)
            except At as err:
                if err.step.startswith("<"):
                    raise At("." + err.step.strip("<>"), err.error) from None
                raise At(".actions", err) from None
    except (Bad, At, InvalidRulesError, InvalidStateError) as error:
        _raise(error, rules_path)
    except Exception as error:  # every structuring failure becomes a path-naming error
        _raise(error, rules_path)
    if cls is PlayerView:
        validate_view(obj)
    elif cls is Score:
        validate_score(obj)
    if expect is not None and not isinstance(obj, expect):
        raise InvalidStateError("$", f"expected a {expect.__name__}, not a {type(obj).__name__}")
    return obj
