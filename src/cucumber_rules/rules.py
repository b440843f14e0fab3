"""Rules: every variant of the family as plain data, the presets, and their validation.

A `Rules` value is a game's rules class (`LadderRules`, `CatastropheRules`, or a
third-party game's) holding every option of that game. The options common to
every game (`deck`, `min_players`, `max_players`, `hand_size`) are declared
here; each game's rules class adds its own, as fields made with `option`, so an
option's type, choices and meaning live next to it. Build rules with
[`ruleset`][cucumber_rules.ruleset]; a bad option, value or combination raises
`InvalidRulesError` naming the option. Asking a rule set for another game's
option raises `AttributeError` saying so.

`OPTIONS` and `RULESETS` are live, read-only views over every registered game.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from ._text import name_problem
from ._values import Value
from .actions import MAX_SEATS
from .cards import DECKS
from .errors import InvalidRulesError

__all__ = ["OPTIONS", "RULESETS", "Option", "Rules", "option", "preset_name", "ruleset"]

_OPTION: Final = "cucumber_rules.option"


@attrs.frozen
class Option(Value):
    """Metadata about one option of `Rules`: for docs, the CLI and validation messages.

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
    """The games that have this option."""
    choices: tuple[Any, ...] | None
    """The allowed values, when they are a fixed list."""
    meaning: str
    """What the option does."""


@attrs.frozen
class _OptionInfo:
    meaning: str
    choices: tuple[Any, ...] | None


def _count(value: Any) -> Any:
    """Integers of any kind (numpy's included) become `int`; anything else is left for validation."""
    if isinstance(value, bool) or type(value) is int or not hasattr(type(value), "__index__"):
        return value
    return operator.index(value)


def option(
    default: Any = attrs.NOTHING,
    *,
    meaning: str,
    choices: tuple[Any, ...] | None = None,
    converter: Any = None,
) -> Any:
    """Declare an option of a game's rules class (an attrs field with the option's metadata).

    Integer options accept any integer (`operator.index`); a bool is never taken for one.
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
        >>> @attrs.frozen(kw_only=True)
        ... class TinyRules(Rules):
        ...     game = "tiny"
        ...     rounds: int = option(3, meaning="rounds in a match")
        >>> attrs.fields(TinyRules).rounds.metadata["cucumber_rules.option"].meaning
        'rounds in a match'
    """
    info = _OptionInfo(meaning, choices)
    convert = _count if converter is None else attrs.converters.pipe(_count, converter)
    return attrs.field(default=default, metadata={_OPTION: info}, converter=convert)


@attrs.frozen(kw_only=True)
class Rules(Value):
    """A complete, validated rule set: which game and every option of it.

    Each game has its own rules class (`LadderRules`, `CatastropheRules`, ...)
    deriving from this one. Build rules with [`ruleset`][cucumber_rules.ruleset]
    rather than directly; constructing a rules class validates all the same. The
    option tables are in the docs ("Variants and options") and in `OPTIONS`.

    Example:
        >>> r = ruleset("gurka", threshold=21)
        >>> r.game, r.threshold, r.follow
        ('ladder', 21, 'forced-lowest')
        >>> r.surprise
        Traceback (most recent call last):
        ...
        AttributeError: option 'surprise' does not apply to the ladder game (gurka)
    """

    game: ClassVar[str] = ""
    """The trick mechanism these rules are for: the name of a registered `Game`."""
    _game: ClassVar[Any]
    """The registered `Game` itself (set by `register_game`)."""
    _legal: ClassVar[Any]
    """`_game.legal`, `_game.play` and `_game.apply_play`, kept on the class by `register_game`: the hot
    path reaches them in one class lookup instead of two."""
    _play: ClassVar[Any]
    _apply_play: ClassVar[Any]
    seats_limit: ClassVar[int] = MAX_SEATS
    """The most players the game can seat (the ladder games: 7)."""
    name: str
    """The preset these rules derive from (e.g. `"agurk"`)."""
    deck: str = option(meaning="the deck: 52 cards 2..A; four each of 1..15; or 1..60", choices=tuple(DECKS))
    min_players: int = option(meaning="the fewest players")
    max_players: int = option(meaning="the most players")
    hand_size: int = option(meaning="cards per player, and so tricks per round or hand")

    def __attrs_post_init__(self) -> None:
        if not type(self).game:
            raise TypeError(
                "Rules is the base of each game's rules class: use ruleset(), or a game's rules class"
            )
        _validate_common(self)
        self.validate()

    def validate(self) -> None:
        """Check what the game itself requires of its options (its rules class overrides this).

        Raises:
            InvalidRulesError: Naming the offending option.

        Example:
            >>> ruleset("agurk").validate()
        """

    if TYPE_CHECKING:  # every game's options, for type checkers (a class with __getattr__ is slower)

        def __getattr__(self, name: str) -> Any: ...

    def replace(self, **options: Any) -> Rules:
        """Return new rules with some options changed (validated).

        Example:
            >>> ruleset("agurk").replace(threshold=30).threshold
            30
        """
        own = _options_of(type(self))
        for key in options:
            if key in own:
                continue
            if key in OPTIONS:
                raise InvalidRulesError(key, f"option {key!r} does not apply to the {self.game} game")
            raise InvalidRulesError(key, f"unknown option {key!r}; options are {', '.join(own)}")
        return attrs.evolve(self, **options)

    def cards_per_player(self, players: int) -> int:
        """Cards dealt to each player, and so tricks per round, for a player count.

        Example:
            >>> ruleset("catastrophe", surprise=True).cards_per_player(6)
            8
        """
        return self.hand_size

    def options(self) -> dict[str, Any]:
        """Every option of these rules with its value, in declaration order.

        Example:
            >>> list(ruleset("catastrophe").options())[:5]
            ['deck', 'min_players', 'max_players', 'hand_size', 'surprise']
        """
        return {name: getattr(self, name) for name in _options_of(type(self))}


def foreign_option(name: str) -> property:
    """A property of `Rules` for an option some game has: on rules of a game without it, it explains.

    `register_game` adds one for each option name it brings, so that asking a rule set for
    another game's option says so (a game's own option is a slot of its class, found first).

    Example:
        >>> try:
        ...     ruleset("agurk").surprise
        ... except AttributeError as err:
        ...     print(err)
        option 'surprise' does not apply to the ladder game (agurk)
    """

    def get(rules: Rules) -> Any:
        raise AttributeError(f"option {name!r} does not apply to the {rules.game} game ({rules.name})")

    return property(
        get, doc=f"Another game's option ({name}): reading it on these rules raises AttributeError."
    )


def _options_of(cls: type) -> dict[str, attrs.Attribute[Any]]:
    """The option fields of a rules class, by name, in declaration order."""
    return {a.name: a for a in attrs.fields(cls) if _OPTION in a.metadata}


def _type_name(a: attrs.Attribute[Any]) -> str:
    t = a.type
    return t if isinstance(t, str) else getattr(t, "__name__", repr(t))


def _validate_common(r: Rules) -> None:
    if type(r.name) is not str:
        raise InvalidRulesError("name", f"name must be str, not {type(r.name).__name__} {r.name!r}")
    problem = name_problem(r.name)  # (shown and written like a player's name: the same rule)
    if problem is not None:
        raise InvalidRulesError("name", f"name {problem}")
    for name, a in _options_of(type(r)).items():
        value = getattr(r, name)
        kind = _type_name(a)
        info: _OptionInfo = a.metadata[_OPTION]
        if kind.endswith("| None") and value is None:
            continue
        base = kind.removesuffix(" | None")
        expected = {"int": int, "bool": bool, "str": str}.get(base)
        if expected is not None and type(value) is not expected:
            raise InvalidRulesError(name, f"{name} must be {base}, not {type(value).__name__} {value!r}")
        if info.choices is not None and value not in info.choices:
            choices = ", ".join(repr(c) for c in info.choices)
            raise InvalidRulesError(name, f"{name} must be one of {choices}, not {value!r}")
    limit = type(r).seats_limit
    if not 2 <= r.min_players <= r.max_players <= limit:
        bad = "min_players" if r.min_players < 2 or r.min_players > r.max_players else "max_players"
        raise InvalidRulesError(bad, f"players must satisfy 2 <= min_players <= max_players <= {limit}")
    if r.hand_size < 1:
        raise InvalidRulesError("hand_size", "hand_size must be at least 1")


# --------------------------------------------------------------------------- live views over the games


class _Options(Mapping[str, Option]):
    """Every option of every registered game: name -> `Option` (common options first)."""

    def _all(self) -> dict[str, Option]:
        from .games import GAMES

        found: dict[str, tuple[attrs.Attribute[Any], list[str]]] = {}
        for game in GAMES.values():
            for name, a in _options_of(game.rules_type).items():
                found.setdefault(name, (a, []))[1].append(game.name)
        out = {}
        for name, (a, games) in found.items():
            info: _OptionInfo = a.metadata[_OPTION]
            out[name] = Option(name, _type_name(a), tuple(games), info.choices, info.meaning)
        return out

    def __getitem__(self, name: str) -> Option:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, name: object) -> bool:
        return name in self._all()

    def __repr__(self) -> str:
        return f"OPTIONS({list(self)!r})"


OPTIONS: Mapping[str, Option] = _Options()
"""Every option of every game, in documentation order: name -> [`Option`][cucumber_rules.Option].

Example:
    >>> list(OPTIONS)[:4]
    ['deck', 'min_players', 'max_players', 'hand_size']
    >>> OPTIONS["follow"].choices
    ('optional-lowest', 'forced-lowest')
"""


class _Presets(Mapping[str, Rules]):
    """Every registered game's presets: name -> `Rules`."""

    def _all(self) -> dict[str, Rules]:
        from .games import GAMES

        return {name: rules for game in GAMES.values() for name, rules in game.presets.items()}

    def __getitem__(self, name: str) -> Rules:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, name: object) -> bool:
        return name in self._all()

    def __repr__(self) -> str:
        return f"RULESETS({list(self)!r})"


RULESETS: Mapping[str, Rules] = _Presets()
"""The presets by canonical name (read-only); [`ruleset`][cucumber_rules.ruleset] also takes aliases.

Example:
    >>> list(RULESETS)
    ['agurk', 'gurka', 'five-cucumbers', 'fuenf-gurken', 'catastrophe']
    >>> RULESETS["gurka"].threshold
    30
"""


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def preset_name(name: str) -> str:
    """Return the canonical preset name for a name or alias (case-insensitive).

    Example:
        >>> preset_name("Danish_Cucumber"), preset_name("Fünf Gurken")
        ('agurk', 'fuenf-gurken')
    """
    from .games import GAMES

    if not isinstance(name, str):
        raise TypeError(f"a preset name is a string, not {type(name).__name__}")
    key = _key(name)
    for game in GAMES.values():
        if key in game.presets:
            return key
        alias = game.aliases.get(key)
        if alias is not None:
            return alias
    raise InvalidRulesError("preset", f"unknown preset {name!r}; presets are {', '.join(RULESETS)}")


def ruleset(name: str, /, **options: Any) -> Rules:
    """Return a preset's rules, optionally with options changed.

    Args:
        name: A preset (`"agurk"`, `"gurka"`, `"five-cucumbers"`, `"fuenf-gurken"`,
            `"catastrophe"`, or a registered game's) or an alias; case-insensitive.
        **options: Option overrides, e.g. `threshold=21`.

    Returns:
        The validated rules.

    Raises:
        InvalidRulesError: For an unknown preset or option, a bad value, or an
            impossible combination; `.option` names it.

    Example:
        >>> ruleset("GURKA", threshold=21, ace_lead=False).ace_lead
        False
        >>> ruleset("agurk", hand_size=8)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidRulesError: hand_size: 7 players x 8 cards need 56 cards, ...
    """
    base = RULESETS[preset_name(name)]
    return base.replace(**options) if options else base
