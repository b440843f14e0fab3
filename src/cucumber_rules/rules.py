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
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from . import _registry
from ._text import name_problem
from ._values import Value
from .actions import MAX_SEATS
from .cards import DECKS
from .errors import InvalidRulesError, quoted

if TYPE_CHECKING:
    from .games import Game

__all__ = ["OPTIONS", "RULESETS", "Option", "Rules", "game_of", "option", "preset_name", "ruleset"]

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


#: The largest size of an integer option (and of each of Catastrophe's cucumber counts): the integers
#: every JSON reader holds exactly (JavaScript's safe integers), so that any `Rules` can be written,
#: read back and shown.
_INT_LIMIT: Final = 2**53 - 1


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


class _NotRegistered:
    """`Rules._game` of a rules class whose game is not registered: every hook it is asked for says so."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise LookupError(
            "the game of these rules is not registered (cucumber_rules.register_game), "
            "or was unregistered since"
        )

    def __repr__(self) -> str:
        return "<no registered game>"


_NOT_REGISTERED: Final = _NotRegistered()


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
        AttributeError: 'LadderRules' object has no attribute 'surprise'
    """

    game: ClassVar[str] = ""
    """The trick mechanism these rules are for: the name of a registered `Game`."""
    _game: ClassVar[Any] = _NOT_REGISTERED
    """The registered `Game` (`register_game` sets it on the game's own rules class; `game_of` reads it)."""
    renamed: ClassVar[Mapping[str, str]] = {}
    """Options renamed since an earlier release: old name -> new name. `ruleset` and `replace` still
    take the old name, with a `DeprecationWarning`."""
    seats_limit: ClassVar[int] = MAX_SEATS
    """The most players the game can seat (the ladder games: 7)."""
    name: str
    """The preset these rules derive from (e.g. `"agurk"`)."""
    deck: str = option(meaning="the deck: 52 cards 2..A; four each of 1..15; or 1..60", choices=tuple(DECKS))
    min_players: int = option(meaning="the fewest players")
    max_players: int = option(meaning="the most players")
    hand_size: int = option(meaning="cards per player, and so tricks per round or hand")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give each rules class a `_game` of its own: unregistered until `register_game` sets it.

        So a subclass of a registered game's rules class (a plug-in's `EvilRules(CatastropheRules)`)
        never plays as its parent's game: not before its own game is registered, nor after it is
        unregistered. The lookup `type(rules)._game` finds the class's own attribute at once.

        Example:
            >>> import attrs, cucumber_rules as cr
            >>> Evil = attrs.frozen(kw_only=True)(type("Evil", (cr.CatastropheRules,), {"game": "evil"}))
            >>> Evil._game
            <no registered game>
        """
        super().__init_subclass__(**kwargs)
        cls._game = _NOT_REGISTERED

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
        for key in list(options):
            if key in own:
                continue
            new = type(self).renamed.get(key)
            if new is not None and new in own and new not in options:
                warnings.warn(
                    f"option {key!r} of the {self.game} game is now called {new!r}",
                    DeprecationWarning,
                    stacklevel=2,
                )
                options[new] = options.pop(key)
                continue
            if key in OPTIONS:
                raise InvalidRulesError(key, f"option {quoted(key)} does not apply to the {self.game} game")
            raise InvalidRulesError(key, f"unknown option {quoted(key)}; options are {', '.join(own)}")
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


def game_of(value: Any) -> Game[Any]:
    """The registered game of a rule set, state, view, match or record: the one road to a game.

    Args:
        value: `Rules`, or anything with a `rules` attribute (`State`, `PlayerView`, `Match`,
            `Record`).

    Returns:
        The `Game` registered for the rules' game.

    Raises:
        TypeError: If `value` is none of these.
        LookupError: If the game is not registered (or was unregistered since).

    Example:
        >>> import cucumber_rules as cr
        >>> game_of(cr.ruleset("gurka")).name, game_of(cr.new_game(cr.ruleset("catastrophe"), 3)).name
        ('ladder', 'catastrophe')
    """
    rules = value if isinstance(value, Rules) else getattr(value, "rules", None)
    if not isinstance(rules, Rules):
        raise TypeError(
            f"game_of() takes rules, a state, a view, a match or a record, not {type(value).__name__}"
        )
    game = type(rules)._game
    if game is _NOT_REGISTERED:
        raise LookupError(f"the {rules.game} game is not registered (cucumber_rules.register_game)")
    found: Game[Any] = game
    return found


def _options_of(cls: type) -> dict[str, attrs.Attribute[Any]]:
    """The option fields of a rules class, by name, in declaration order."""
    return {a.name: a for a in attrs.fields(cls) if _OPTION in a.metadata}


def _type_name(a: attrs.Attribute[Any]) -> str:
    """An option's type as written in its class (`"tuple[int, ...]"`, `"int | None"`): the annotation
    while it is text, and the same words once attrs has resolved the fields' types (as `loads` and
    the schemas do): a class by its name, anything else as Python writes it."""
    t = a.type
    if isinstance(t, str):
        return t
    return t.__name__ if isinstance(t, type) else repr(t).removeprefix("typing.")


_OUT_OF_RANGE: Final = "must lie within ±(2**53 - 1), the integers every JSON reader holds exactly"


def _int_problem(value: int) -> str | None:
    """Why an integer cannot be an option's value (beyond `_INT_LIMIT` in size), or None."""
    return None if -_INT_LIMIT <= value <= _INT_LIMIT else _OUT_OF_RANGE


def _validate_common(r: Rules) -> None:
    if type(r.name) is not str:
        raise InvalidRulesError("name", f"name must be str, not {type(r.name).__name__} {quoted(r.name)}")
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
            raise InvalidRulesError(
                name, f"{name} must be {base}, not {type(value).__name__} {quoted(value)}"
            )
        if expected is int and _int_problem(value) is not None:
            raise InvalidRulesError(name, f"{name} {_OUT_OF_RANGE}")
        if info.choices is not None and value not in info.choices:
            choices = ", ".join(repr(c) for c in info.choices)
            raise InvalidRulesError(name, f"{name} must be one of {choices}, not {quoted(value)}")
    limit = type(r).seats_limit
    if not 2 <= r.min_players <= r.max_players <= limit:
        bad = "min_players" if r.min_players < 2 or r.min_players > r.max_players else "max_players"
        raise InvalidRulesError(bad, f"players must satisfy 2 <= min_players <= max_players <= {limit}")
    if r.hand_size < 1:
        raise InvalidRulesError("hand_size", "hand_size must be at least 1")


# --------------------------------------------------------------------------- live views over the games


def _all_options() -> dict[str, Option]:
    """Every option of every registered game: name -> `Option` (common options first)."""
    found: dict[str, tuple[attrs.Attribute[Any], list[str]]] = {}
    for game in _registry.games().values():
        for name, a in _options_of(game.rules_type).items():
            found.setdefault(name, (a, []))[1].append(game.name)
    out = {}
    for name, (a, games) in found.items():
        info: _OptionInfo = a.metadata[_OPTION]
        out[name] = Option(name, _type_name(a), tuple(games), info.choices, info.meaning)
    return out


OPTIONS: Mapping[str, Option] = _registry.LiveMapping("OPTIONS", _all_options)
"""Every option of every game, in documentation order: name -> [`Option`][cucumber_rules.Option].

Example:
    >>> list(OPTIONS)[:4]
    ['deck', 'min_players', 'max_players', 'hand_size']
    >>> OPTIONS["follow"].choices
    ('optional-lowest', 'forced-lowest')
"""


def _all_presets() -> dict[str, Rules]:
    """Every registered game's presets: name -> `Rules`."""
    return {name: rules for game in _registry.games().values() for name, rules in game.presets.items()}


RULESETS: Mapping[str, Rules] = _registry.LiveMapping("RULESETS", _all_presets)
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
    if not isinstance(name, str):
        raise TypeError(f"a preset name is a string, not {type(name).__name__}")
    key = _key(name)
    for game in _registry.games().values():
        if key in game.presets:
            return key
        alias: str | None = game.aliases.get(key)
        if alias is not None:
            return alias
    raise InvalidRulesError("preset", f"unknown preset {quoted(name)}; presets are {', '.join(RULESETS)}")


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
    if not options:
        return base
    for old, new in type(base).renamed.items():
        if old in options and new not in options:
            warnings.warn(
                f"option {old!r} of the {base.game} game is now called {new!r}",
                DeprecationWarning,
                stacklevel=2,
            )
            options[new] = options.pop(old)
    return base.replace(**options)
