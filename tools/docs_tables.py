"""Markdown tables for the documentation, generated from the library's own data at build time.

The pages call these from `markdown-exec` blocks, so the option tables, the
preset comparison and the error-code table can never drift from the code:

```python exec="on"
import docs_tables
print(docs_tables.options_table("agurk"))
```

`tools/` is put on `sys.path` by the `tools/mkdocs_features.py` hook.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import cucumber_rules as cr
from cucumber_rules import errors as _errors
from cucumber_rules.options import option_definitions

__all__ = [
    "error_classes_table",
    "error_codes_table",
    "facts_table",
    "options_reference",
    "options_table",
    "presets_table",
]


def _cell(text: str) -> str:
    """Escape `|` for a table cell, except inside code spans (where the table reader leaves it alone)."""
    parts = text.replace("\n", " ").split("`")
    return "`".join(p if i % 2 else p.replace("|", r"\|") for i, p in enumerate(parts))


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = [_row(header), "|" + "---|" * len(header)]
    lines += [_row(r) for r in rows]
    return "\n".join(lines) + "\n"


def _cucumbers(counts: Sequence[int]) -> str:
    """Describe a 60-count cucumber table compactly: the exceptions, then the common count."""
    common, _ = Counter(counts).most_common(1)[0]
    parts = []
    for value in sorted(set(counts) - {common}, reverse=True):
        cards = [str(i + 1) for i, c in enumerate(counts) if c == value]
        parts.append(f"{value} on {', '.join(cards)}")
    parts.append(f"{common} on every other card")
    return "; ".join(parts)


def value_text(value: Any) -> str:
    """Write an option value as the user would pass it (code style)."""
    if value is None:
        return "`None`"
    if isinstance(value, tuple) and len(value) > 8:
        return _cucumbers(value)
    return f"`{value!r}`"


def _meaning(option: cr.Option) -> str:
    text = option.meaning
    if option.choices is not None and option.type != "bool":
        text += " (one of " + ", ".join(f"`{c!r}`" for c in option.choices) + ")"
    return text


def options_table(preset: str) -> str:
    """The options of a preset's game (its own table): name, type, the preset's default, meaning."""
    rules = cr.RULESETS[preset]
    rows = [
        (f"`{name}`", f"`{opt.type}`", value_text(getattr(rules, name)), _meaning(opt))
        for name, opt in cr.game_of(rules).options.items()
    ]
    return _table(("option", "type", f"default in `{preset}`", "meaning"), rows)


def options_reference() -> str:
    """Every option: name, type, the games that define it so, meaning (one row for each definition)."""
    rows = [
        (f"`{opt.name}`", f"`{opt.type}`", ", ".join(opt.games), _meaning(opt))
        for opt in option_definitions()
    ]
    return _table(("option", "type", "game", "meaning"), rows)


def presets_table(presets: Sequence[str] | None = None, *, differences_only: bool = False) -> str:
    """Presets side by side: one row per option, one column per preset ("—": not part of that game)."""
    names = list(presets) if presets is not None else list(cr.RULESETS)
    rules = [cr.RULESETS[n] for n in names]
    rows = [("`game`", *(f"`{r.game}`" for r in rules))]
    for name in cr.OPTIONS:
        values = [getattr(r, name) if name in cr.game_of(r).options else "—" for r in rules]
        if differences_only and len({repr(v) for v in values}) == 1:
            continue
        rows.append((f"`{name}`", *(v if v == "—" else value_text(v) for v in values)))
    return _table(("option", *(f"`{n}`" for n in names)), rows)


def facts_table(preset: str) -> str:
    """A preset at a glance: the preset, its deck and players, then its game's own rows (`Game.facts`)."""
    r = cr.RULESETS[preset]
    deck = cr.DECKS[r.deck]
    rows = [
        ("preset", f'`cr.ruleset("{preset}")`'),
        ("deck", f"`{r.deck}`: {len(deck)} cards, {len(set(deck))} distinct"),
        ("players", f"{r.min_players} to {r.max_players}"),
    ]
    shown = {what for what, _ in rows}
    rows += [(what, value) for what, value in cr.game_of(r).words.facts(r) if what not in shown]
    return _table(("", f"`{preset}`"), rows)


def error_codes_table() -> str:
    """Every `IllegalMoveError.code` with where it comes from (the core, or a game) and its meaning."""
    owner = {code: f"`{game.name}`" for game in cr.GAMES.values() for code in game.error_codes}
    return _table(
        ("code", "from", "meaning"),
        ((f"`{code}`", owner.get(code, "every game"), meaning) for code, meaning in cr.ERROR_CODES.items()),
    )


def error_classes_table() -> str:
    """The error classes: name, bases, first docstring line, extra attributes."""
    extra = {
        cr.IllegalMoveError: "`code`, `seat`, `action`, `index`",
        cr.InvalidRulesError: "`option`",
        cr.InvalidStateError: "`path`",
    }
    rows = []
    for name in _errors.__all__:
        cls = getattr(_errors, name)
        if not (isinstance(cls, type) and issubclass(cls, cr.RulesError)):
            continue  # the codes and their registry functions, not error classes
        bases = ", ".join(f"`{b.__name__}`" for b in cls.__bases__)
        doc = (cls.__doc__ or "").strip().splitlines()[0]
        rows.append((f"[`{name}`][cucumber_rules.{name}]", bases, doc, extra.get(cls, "")))
    return _table(("class", "bases", "raised for", "attributes"), rows)
