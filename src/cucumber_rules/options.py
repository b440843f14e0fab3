"""Options: how a game's rules class declares its options, and each game's table of them.

A rules class (`LadderRules`, a plug-in's) declares each of its options as a field made with
[`option`][cucumber_rules.option], so an option's type, choices and meaning live next to it.
Options belong to their game: [`option_table`][cucumber_rules.options.option_table] of a rules
class (its game's `Game.options`) describes each option as that game defines it, so two games
may each have an option of the same name with a type and choices of their own.
[`OPTIONS`][cucumber_rules.OPTIONS] merges every registered game's table by name.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

import attrs

from . import _registry
from .values import Value

__all__ = [
    "INT_LIMIT",
    "OPTIONS",
    "OUT_OF_RANGE",
    "Option",
    "as_int",
    "int_problem",
    "option",
    "option_definitions",
    "option_fields",
    "option_table",
]

_OPTION: Final = "cucumber_rules.option"


@attrs.frozen
class Option(Value):
    """Metadata about one option of `Rules`: for docs, the CLI and validation messages.

    A game's own table (`Game.options`) describes its options as it defines them; `OPTIONS`
    merges the tables of every game.

    Example:
        >>> OPTIONS["threshold"].games
        ('ladder',)
        >>> OPTIONS["hand_size"].games
        ('ladder', 'catastrophe')
    """

    name: str
    """The option's name, a field of the rules."""
    type: str
    """Its type as written in Python, e.g. `"int"`, `"bool"`, `"int | None"`."""
    games: tuple[str, ...]
    """The games that have this option (in a game's own table: that game)."""
    choices: tuple[Any, ...] | None
    """The allowed values, when they are a fixed list."""
    meaning: str
    """What the option does."""


@attrs.frozen
class _OptionInfo:
    meaning: str
    choices: tuple[Any, ...] | None


INT_LIMIT: Final = 2**53 - 1
"""The largest size of an integer option (and of each of Catastrophe's cucumber counts): the integers
every JSON reader holds exactly (JavaScript's safe integers), so that any `Rules` can be written,
read back and shown.

Example:
    >>> INT_LIMIT == 2**53 - 1
    True
"""

OUT_OF_RANGE: Final = "must lie within ±(2**53 - 1), the integers every JSON reader holds exactly"
"""What an integer option beyond `INT_LIMIT` is told (after its name).

Example:
    >>> OUT_OF_RANGE.split(",")[0]
    'must lie within ±(2**53 - 1)'
"""


def as_int(value: Any) -> Any:
    """Integers of any kind (numpy's included) become `int`; anything else is left for validation.

    The converter of every option (`option`), and of Catastrophe's cucumber counts.

    Example:
        >>> import array
        >>> as_int(array.array("q", [7])[0]), as_int(True), as_int("7")
        (7, True, '7')
    """
    if isinstance(value, bool) or type(value) is int or not hasattr(type(value), "__index__"):
        return value
    return operator.index(value)


def int_problem(value: int) -> str | None:
    """Why an integer cannot be an option's value (beyond `INT_LIMIT` in size), or None.

    Example:
        >>> int_problem(21) is None, int_problem(2**53) == OUT_OF_RANGE
        (True, True)
    """
    return None if -INT_LIMIT <= value <= INT_LIMIT else OUT_OF_RANGE


def option(
    default: Any = attrs.NOTHING,
    *,
    meaning: str,
    choices: tuple[Any, ...] | None = None,
    converter: Any = None,
) -> Any:
    """Declare an option of a game's rules class (an attrs field with the option's metadata).

    Integer options accept any integer (`operator.index`) within ±(2**53 - 1), the integers every
    JSON reader holds exactly; a bool is never taken for one.
    The option's type is its annotation; `choices` lists the allowed values when they are fixed.

    Args:
        default: The value when a rule set does not give one.
        meaning: What the option does (the docs and the CLI show it).
        choices: The allowed values, if fixed.
        converter: A further converter for the value (after integers are made `int`).

    Returns:
        The attrs field.

    Example:
        >>> import attrs
        >>> from cucumber_rules import Rules
        >>> @attrs.frozen(kw_only=True)
        ... class TinyRules(Rules):
        ...     game = "tiny"
        ...     rounds: int = option(3, meaning="rounds in a match")
        >>> option_table(TinyRules)["rounds"].meaning
        'rounds in a match'
    """
    info = _OptionInfo(meaning, choices)
    convert = as_int if converter is None else attrs.converters.pipe(as_int, converter)
    return attrs.field(default=default, metadata={_OPTION: info}, converter=convert)


def option_fields(cls: type) -> dict[str, attrs.Attribute[Any]]:
    """The option fields of a rules class, by name, in declaration order.

    Example:
        >>> from cucumber_rules import Rules
        >>> list(option_fields(Rules))
        ['deck', 'min_players', 'max_players', 'hand_size']
    """
    return {a.name: a for a in attrs.fields(cls) if _OPTION in a.metadata}


def _type_name(a: attrs.Attribute[Any]) -> str:
    """An option's type as written in its class (`"tuple[int, ...]"`, `"int | None"`): the annotation
    while it is text, and the same words once attrs has resolved the fields' types (as `loads` and
    the schemas do): a class by its name, anything else as Python writes it."""
    t = a.type
    if isinstance(t, str):
        return t
    return t.__name__ if isinstance(t, type) else repr(t).removeprefix("typing.")


#: `option_table` by rules class, once worked out (a class's fields never change).
_TABLES: dict[type, Mapping[str, Option]] = {}


def option_table(cls: type) -> Mapping[str, Option]:
    """The options of one rules class (so of one game), by name, in declaration order, as it defines them.

    Two games may each have an option of the same name with a type, choices and meaning of their
    own: each game's table describes its own (`Game.options` is its rules class's table). The
    common options (`deck`, `min_players`, `max_players`, `hand_size`) are in every table.

    Example:
        >>> import cucumber_rules as cr
        >>> table = option_table(cr.CatastropheRules)
        >>> list(table)[4:], table["hand_count"].games
        (['surprise', 'cant_beat_em', 'hand_count', 'cucumbers'], ('catastrophe',))
    """
    found = _TABLES.get(cls)
    if found is None:
        options = {}
        for name, a in option_fields(cls).items():
            info: _OptionInfo = a.metadata[_OPTION]
            game = getattr(cls, "game", "")
            options[name] = Option(name, _type_name(a), (game,), info.choices, info.meaning)
        found = _TABLES.setdefault(cls, MappingProxyType(options))
    return found


def option_definitions() -> tuple[Option, ...]:
    """Every registered game's options, one `Option` for each definition, in documentation order.

    An option that several games define alike (the same type and choices: `hand_size`) is one
    entry whose `games` names them all (with the first game's meaning); a name two games define
    differently (a plug-in's own `follow`, of another type or with other choices) is one entry for
    each definition. The docs' and the command line's option tables list these.

    Example:
        >>> [(o.name, o.games) for o in option_definitions()][3:5]
        [('hand_size', ('ladder', 'catastrophe')), ('follow', ('ladder',))]
    """
    found: dict[tuple[str, str, Any], Option] = {}
    for game in _registry.games().values():
        for name, own in option_table(game.rules_type).items():
            key = (name, own.type, own.choices)
            seen = found.get(key)
            found[key] = own if seen is None else attrs.evolve(seen, games=(*seen.games, *own.games))
    return tuple(found.values())


def _all_options() -> dict[str, Option]:
    """Every option name, as the first game that has it defines it (with every game that defines it alike)."""
    found: dict[str, Option] = {}
    for entry in option_definitions():
        found.setdefault(entry.name, entry)
    return found


OPTIONS: Mapping[str, Option] = _registry.LiveMapping("OPTIONS", _all_options)
"""Every option of every game, in documentation order: name -> [`Option`][cucumber_rules.Option].

Options belong to their game: each game's own table is `Game.options` (`option_table` of its
rules class). This mapping merges them: an option several games define alike (the same type and
choices: `hand_size`) is one entry whose `games` names them all, with the first game's meaning.
Should a game define an option of another game's name differently (a plug-in's own `follow`, with
choices of its own), the entry stays the game's that registered first, and its `games` leaves the
other out: ask that game's own table.

Example:
    >>> list(OPTIONS)[:4]
    ['deck', 'min_players', 'max_players', 'hand_size']
    >>> OPTIONS["follow"].choices
    ('optional-lowest', 'forced-lowest')
"""
