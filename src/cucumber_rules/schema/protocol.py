"""A server's documents of its own: one action as a document, and the error documents it sends back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cattrs

from ..actions import Action, Deal, Decision, Play
from ..errors import (
    ERROR_CODES,
    MAX_MESSAGE,
    IllegalMoveError,
    InvalidNotationError,
    InvalidRulesError,
    InvalidStateError,
    RulesError,
)
from ..game import registered_games
from ..serialization import FORMAT_VERSION, make_converter
from ..serialization.documents import ENVELOPE
from .codes import PROTOCOL_CODES

# --------------------------------------------------------------------------- action documents

_converters: dict[tuple[int, ...], cattrs.Converter] = {}


def _converter() -> cattrs.Converter:
    """The library's converter for the games registered now (built again when they change)."""
    key = tuple(id(g) for g in registered_games().values())
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
        {'format': 3, 'kind': 'action', 'type': 'revive', 'seat': 2, 'accept': True}
    """
    if not isinstance(action, Deal | Play | Decision):
        raise TypeError(f"expected an action (Deal, Play or a decision), not {type(action).__name__}")
    body = _converter().unstructure(action, type(action))
    return {"format": FORMAT_VERSION, "kind": "action", **body}


_ACTION_FORMATS = (2, FORMAT_VERSION)
"""Formats whose action documents `read_action` reads: an action's layout did not change in format 3."""


def read_action(document: Any) -> Action:
    """Read an action document (already parsed from JSON), strictly, as `loads` reads its documents.

    Format 2 action documents (the 0.2 development releases' server) read too: the layout is the same.

    Args:
        document: The parsed JSON value.

    Returns:
        The action (not checked against any state: `check` or `apply` does that).

    Raises:
        InvalidStateError: If it is not an action document; `.path` names the bad field.

    Example:
        >>> read_action({"format": 3, "kind": "action", "type": "play", "seat": 1, "card": "QS"})
        Play(seat=1, card=card('QS'))
        >>> try:
        ...     read_action({"format": 3, "kind": "action", "type": "play", "seat": 1, "card": "QX"})
        ... except InvalidStateError as err:
        ...     print(err.path)
        $.card
        >>> read_action({"format": 2, "kind": "action", "type": "play", "seat": 0, "card": "2H"})
        Play(seat=0, card=card('2H'))
    """
    if type(document) is not dict:
        raise InvalidStateError("$", "an action document is a JSON object")
    if document.get("format") not in _ACTION_FORMATS or type(document.get("format")) is not int:
        raise InvalidStateError("$.format", f"expected format {FORMAT_VERSION} (or 2, the same layout)")
    if document.get("kind") != "action":
        raise InvalidStateError("$.kind", "expected kind 'action'")
    body = {k: v for k, v in document.items() if k not in ENVELOPE}
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
    if option is not None and not option.isidentifier():  # a client's key: text any JSON writer can hold
        option = option.encode("utf-8", "backslashreplace").decode("utf-8")
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
