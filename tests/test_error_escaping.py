"""Error messages quote what they were given escaped (`errors.quoted`): a key or value holding a lone
surrogate, a control character or a bidirectional override makes a message that any terminal, log and
JSON writer can carry as it is (issue 45)."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest

import cucumber_rules as cr
from cucumber_rules import schema
from cucumber_rules.errors import quoted

HOSTILE = ["\ud800", "\udfff", "a\x1b[2Jb", "new\nline", "\x00", "\u202eevil", "\u2028", "\x7f", "\x9b"]


def is_clean(text: str) -> bool:
    """Printable text only, and valid Unicode: what a terminal shows as it is and UTF-8 can hold."""
    text.encode("utf-8")
    return all(c == " " or unicodedata.category(c)[0] not in "CZ" for c in text)


@pytest.mark.parametrize("value", HOSTILE)
def test_quoted_escapes_what_a_terminal_or_json_would_trip_on(value: str) -> None:
    shown = quoted(value)
    assert is_clean(shown)
    assert shown == repr(value)


def test_quoted_cuts_long_values_short() -> None:
    assert quoted("k" * 10_000) == repr("k" * 60) + "..."
    assert len(quoted(list(range(1000)))) <= 63


def _ruleset_key(bad: str) -> None:
    cr.ruleset("agurk", **{bad: 1})


def _ruleset_value(bad: str) -> None:
    cr.ruleset("agurk", follow=bad)


def _preset(bad: str) -> None:
    cr.ruleset(bad)


def _document_key(bad: str) -> None:
    cr.loads(json.dumps({"format": 3, "kind": "rules", "name": "agurk", "game": "ladder", bad: 1}), cr.Rules)


def _document_kind(bad: str) -> None:
    cr.loads(json.dumps({"format": 3, "kind": bad}), cr.Rules)


def _document_game(bad: str) -> None:
    cr.loads(json.dumps({"format": 3, "kind": "rules", "game": bad}), cr.Rules)


def _action_key(bad: str) -> None:
    schema.read_action({"format": 3, "kind": "action", "type": "play", "seat": 0, "card": "KC", bad: 1})


def _action_type(bad: str) -> None:
    schema.read_action({"format": 3, "kind": "action", "type": bad, "seat": 0})


def _action_card(bad: str) -> None:
    schema.read_action({"format": 3, "kind": "action", "type": "play", "seat": 0, "card": bad})


@pytest.mark.parametrize(
    "make",
    [
        _ruleset_key,
        _ruleset_value,
        _preset,
        _document_key,
        _document_kind,
        _document_game,
        _action_key,
        _action_type,
        _action_card,
    ],
)
@pytest.mark.parametrize("bad", HOSTILE)
def test_errors_quote_user_input_escaped(make: Callable[[str], Any], bad: str) -> None:
    with pytest.raises(cr.RulesError) as raised:
        make(bad)
    error = raised.value
    assert is_clean(str(error)), str(error)
    assert is_clean(getattr(error, "path", None) or "")
    document = schema.error_document(error)
    assert is_clean(document["message"])
    json.dumps(document, ensure_ascii=False).encode("utf-8")  # (was: UnicodeEncodeError)


def test_an_odd_key_is_named_in_the_path_as_json_writes_it() -> None:
    with pytest.raises(cr.InvalidStateError) as raised:
        _action_key("a b\ud800")
    assert raised.value.path == '$["a b\\ud800"]'
    assert json.loads(raised.value.path[2:-1]) == "a b\ud800"
