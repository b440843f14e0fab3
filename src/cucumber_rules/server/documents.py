"""Writing a table's view documents quickly: `cr.dumps(view)`, reusing the JSON of what did not change.

A view document is mostly the same from one action to the next: the rules, the players, the
finished rounds and their results change once a round, the tricks once a trick. `cr.view`
hands back the very same objects for what did not change, so `ViewWriter` keeps the JSON of
each field with the object it was written from, and writes only the fields whose object is
new; inside those, the JSON of each card, play, trick and event is kept too (they are frozen
values: equal values write equal JSON). That is 10 times cheaper here (0.09 ms for a 3.6 kB
Agurk view instead of 0.87 ms), and the server writes one view per connected seat after
every action.

The text is exactly `cr.dumps(view)`: the first view of each view class a writer meets is
checked against `cr.dumps`, and a writer that ever finds a difference writes with `cr.dumps`
from then on (the library's document layout is the library's to change).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final

import attrs
import cattrs
import orjson

import cucumber_rules as cr

__all__ = ["ViewWriter"]

log = logging.getLogger("cucumber_rules.server")

_encode: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode

_dumps: Final = orjson.dumps  # (compact, UTF-8 as it is: what `_encode` writes, in C)

#: What every view document begins with.
_HEAD: Final = f'{{"format":{cr.FORMAT_VERSION},"kind":"view"'

_layouts: dict[type, tuple[tuple[str, str], ...]] = {}


def _layout(kind: type) -> tuple[tuple[str, str], ...]:
    """A view class's fields in document order, each with the text before its value (`,"key":`)."""
    layout = _layouts.get(kind)
    if layout is None:
        fields = [field for field in attrs.fields(kind) if field.init]
        layout = _layouts[kind] = tuple((f.name, f",{_encode(f.alias or f.name)}:") for f in fields)
    return layout


#: The most values whose JSON a writer keeps (plays, cards, tricks, events, results of its table).
_KNOWN: Final = 4096

_converters: dict[tuple[int, ...], cattrs.Converter] = {}


def _converter() -> cattrs.Converter:
    key = tuple(id(g) for g in cr.GAMES.values())
    conv = _converters.get(key)
    if conv is None:
        _converters.clear()
        conv = _converters[key] = cr.make_converter()
    return conv


class ViewWriter:
    """Writes view documents as `cr.dumps` does, reusing the JSON of the fields whose value is unchanged.

    Use one writer for the views of one table (its memory holds the last value of each field).

    Example:
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> writer = ViewWriter()
        >>> writer.dumps(cr.view(state, 0)) == cr.dumps(cr.view(state, 0))
        True
    """

    def __init__(self) -> None:
        self.memo: dict[str, tuple[Any, str]] = {}
        self.known: dict[Any, str] = {}
        self.checked: set[type] = set()
        self.exact = True

    def dumps(self, view: cr.PlayerView) -> str:
        """The view's document: the same text as `cr.dumps(view)`."""
        if not self.exact:
            return cr.dumps(view)
        kind = type(view)
        text = self._write(view)
        if kind not in self.checked:
            expected = cr.dumps(view)
            if text != expected:
                log.warning(
                    "%s: views written with cr.dumps (a layout this writer does not know)", kind.__name__
                )
                self.exact = False
                return expected
            self.checked.add(kind)
        return text

    def _write(self, view: cr.PlayerView) -> str:
        memo = self.memo
        parts = [_HEAD]
        for name, key in _layout(type(view)):
            value = getattr(view, name)
            kept = memo.get(name)
            if kept is not None and kept[0] is value:
                parts.append(kept[1])
            else:
                text = key + self._encode(value)
                memo[name] = (value, text)
                parts.append(text)
        parts.append("}")
        return "".join(parts)

    def _encode(self, value: Any) -> str:
        """One value's JSON: plain values directly, tuples item by item, the library's values by value.

        The library's values (cards, plays, tricks, events, rules, results) are frozen and
        compare by value, so equal values have equal JSON: it is kept in `known`, by value.
        """
        kind = type(value)
        if kind is int:
            return str(value)
        if value is None:
            return "null"
        if kind is bool:
            return "true" if value else "false"
        if kind is tuple or kind is list:
            return "[" + ",".join(map(self._encode, value)) + "]"
        if kind is str:
            return _dumps(value).decode()
        known = self.known
        try:
            text = known.get(value)
        except TypeError:  # not hashable: written each time
            return _dumps(_converter().unstructure(value)).decode()
        if text is None:
            if len(known) >= _KNOWN:
                known.clear()
            text = known[value] = _dumps(_converter().unstructure(value)).decode()
        return text
