"""Rules: every variant of the family as plain data, the presets, and their validation.

A `Rules` value is a game's rules class (`LadderRules`, `CatastropheRules`, or a
third-party game's) holding every option of that game. The options common to
every game (`deck`, `min_players`, `max_players`, `hand_size`) are declared
here; each game's rules class adds its own, as fields made with `option`, so an
option's type, choices and meaning live next to it. Build rules with
[`ruleset`][cucumber_rules.ruleset]; a bad option, value or combination raises
`InvalidRulesError` naming the option. Asking a rule set for another game's
option raises `AttributeError` saying so.

Options belong to their game: `Game.options` (`option_table` of its rules class) describes
each of a game's options as that game defines it. `OPTIONS` and `RULESETS` are live, read-only
views over every registered game.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from . import _registry
from ._registry import game_of
from ._text import name_problem
from .actions import MAX_SEATS
from .cards import DECKS
from .errors import InvalidRulesError, quoted
from .options import OPTIONS, OUT_OF_RANGE, Option, int_problem, option, option_fields, option_table
from .values import Value

__all__ = [
    "OPTIONS",
    "RULESETS",
    "Option",
    "Rules",
    "canonical_name",
    "game_of",
    "option",
    "preset_name",
    "ruleset",
]


@attrs.frozen(kw_only=True)
class Rules(Value):
    """A complete, validated rule set: which game and every option of it.

    Each game has its own rules class (`LadderRules`, `CatastropheRules`, ...)
    deriving from this one. Build rules with [`ruleset`][cucumber_rules.ruleset]
    rather than directly; constructing a rules class validates all the same. The
    option tables are in the docs ("Variants and options") and in each game's `Game.options`.

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
    _game: ClassVar[Any] = _registry.NOT_REGISTERED
    """The registered `Game`: the registry's binding (`_registry.bind`), read by `game_of` alone."""
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
        """Give each rules class a game of its own: unregistered until `register_game` binds it.

        So a subclass of a registered game's rules class (a plug-in's `EvilRules(CatastropheRules)`)
        never plays as its parent's game: not before its own game is registered, nor after it is
        unregistered (`_registry.release`).

        Example:
            >>> import attrs, cucumber_rules as cr
            >>> Evil = attrs.frozen(kw_only=True)(type("Evil", (cr.CatastropheRules,), {"game": "evil"}))
            >>> cr.game_of(Evil(**cr.ruleset("catastrophe").options(), name="catastrophe"))
            Traceback (most recent call last):
            ...
            LookupError: the evil game is not registered (cucumber_rules.register_game)
        """
        super().__init_subclass__(**kwargs)
        _registry.release(cls)

    def __attrs_post_init__(self) -> None:
        if type(self) is Rules:
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
        own = option_fields(type(self))
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
        return {name: getattr(self, name) for name in option_fields(type(self))}


def _validate_common(r: Rules) -> None:
    if type(r.name) is not str:
        raise InvalidRulesError("name", f"name must be str, not {type(r.name).__name__} {quoted(r.name)}")
    problem = name_problem(r.name)  # (shown and written like a player's name: the same rule)
    if problem is not None:
        raise InvalidRulesError("name", f"name {problem}")
    for name, info in option_table(type(r)).items():
        value = getattr(r, name)
        kind = info.type
        if kind.endswith("| None") and value is None:
            continue
        base = kind.removesuffix(" | None")
        expected = {"int": int, "bool": bool, "str": str}.get(base)
        if expected is not None and type(value) is not expected:
            raise InvalidRulesError(
                name, f"{name} must be {base}, not {type(value).__name__} {quoted(value)}"
            )
        if expected is int and int_problem(value) is not None:
            raise InvalidRulesError(name, f"{name} {OUT_OF_RANGE}")
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


def canonical_name(name: str) -> str:
    """A preset or game name in canonical form: lower case, words joined by `-`.

    Example:
        >>> canonical_name(" Danish_Cucumber "), canonical_name("Fünf Gurken")
        ('danish-cucumber', 'fünf-gurken')
    """
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def preset_name(name: str) -> str:
    """Return the canonical preset name for a name or alias (case-insensitive).

    Example:
        >>> preset_name("Danish_Cucumber"), preset_name("Fünf Gurken")
        ('agurk', 'fuenf-gurken')
    """
    if not isinstance(name, str):
        raise TypeError(f"a preset name is a string, not {type(name).__name__}")
    key = canonical_name(name)
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
