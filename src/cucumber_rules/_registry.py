"""The registry's store: the registered games by name and each rules class's game, read by the core.

`cucumber_rules.games.registry` checks a game and writes it here (`register_game`);
the core reads it (`rules.ruleset`, `RULESETS`, `OPTIONS`) through `games()`, which
first loads the plug-ins of the entry-point group once, with the loader the games
package installs. Keeping the store apart keeps the import graph free of cycles:
rules, states and views never need the registry's checks at import.

A registered game is bound to its own rules class (`bind`, `release`), and
[`game_of`][cucumber_rules.game_of] is the one road from a value to its game: the
binding is read here and nowhere else (but in the engine's two hot paths, which
read it inline: see `cucumber_rules.engine`).

`LiveMapping` is the read-only mapping every live view over the registry uses
(`GAMES`, `RULESETS`, `OPTIONS`): worked out afresh from the store at each use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Final, Generic, TypeVar

__all__ = [
    "NOT_REGISTERED",
    "LiveMapping",
    "bind",
    "bound",
    "game_of",
    "games",
    "install",
    "register",
    "release",
    "replace",
    "store",
    "unregister",
    "version",
]

V = TypeVar("V")

#: The registered games by name, in registration order. Replaced whole (never changed in place), so a
#: reader sees one registry or the next, never one half changed.
_store: Mapping[str, Any] = MappingProxyType({})
#: Bumped by every change of the registry, so caches built from it (the JSON converter) know to rebuild.
_version = 0
#: Loads the entry-point plug-ins once (installed by `cucumber_rules.games.registry`).
_loader: Callable[[], None] | None = None
#: `register_game` and `unregister_game` (installed by `cucumber_rules.games.registry`): for the code
#: below the games (`testing.registered`) that registers a game for a while.
_register: Callable[[Any], Any] | None = None
_unregister: Callable[[str], Any] | None = None


def install(
    loader: Callable[[], None],
    register: Callable[[Any], Any] | None = None,
    unregister: Callable[[str], Any] | None = None,
) -> None:
    """Set the function that loads the plug-ins, and those that register and unregister a game.

    The games package does, when imported: the store never imports it.

    Example:
        >>> callable(_loader), callable(_register)
        (True, True)
    """
    global _loader, _register, _unregister  # noqa: PLW0603 - the registry is process-wide by nature
    _loader = loader
    if register is not None:
        _register = register
    if unregister is not None:
        _unregister = unregister


def register(game: Any) -> Any:
    """`cucumber_rules.register_game(game)`, for code below the games package.

    Example:
        >>> import cucumber_rules as cr
        >>> register(cr.GAMES["ladder"]) is cr.GAMES["ladder"]
        True
    """
    if _register is None:
        raise RuntimeError("the games package is not imported: no game can be registered")
    return _register(game)


def unregister(name: str) -> Any:
    """`cucumber_rules.games.unregister_game(name)`, for code below the games package.

    Example:
        >>> unregister("nothing")
        Traceback (most recent call last):
        ...
        KeyError: 'nothing'
    """
    if _unregister is None:
        raise RuntimeError("the games package is not imported: no game can be unregistered")
    return _unregister(name)


def store() -> Mapping[str, Any]:
    """The registered games by name, as they are now, without loading plug-ins.

    Example:
        >>> list(store())[:2]
        ['ladder', 'catastrophe']
    """
    return _store


def replace(games: Mapping[str, Any]) -> None:
    """Make `games` the registry, in one step (for the registry's own use).

    Example:
        >>> before = store()
        >>> replace(before)
        >>> store() == before
        True
    """
    global _store, _version  # noqa: PLW0603 - the registry is process-wide by nature
    _store = MappingProxyType(dict(games))
    _version += 1


def version() -> int:
    """A number that changes whenever the registry does (for caches built from it), plug-ins loaded.

    Example:
        >>> version() >= 2
        True
    """
    if _loader is not None:
        _loader()
    return _version


def games() -> Mapping[str, Any]:
    """The registered games by name, once the plug-ins of the entry-point group are loaded.

    Example:
        >>> "ladder" in games()
        True
    """
    if _loader is not None:
        _loader()
    return _store


class LiveMapping(Mapping[str, V], Generic[V]):
    """A read-only mapping worked out afresh from the registry (`build()`) each time it is read.

    Example:
        >>> squares = LiveMapping("SQUARES", lambda: {"two": 4})
        >>> squares["two"], list(squares), "two" in squares, squares
        (4, ['two'], True, SQUARES(['two']))
    """

    __slots__ = ("_build", "_name")
    _build: Callable[[], Mapping[str, V]]
    _name: str

    def __init__(self, name: str, build: Callable[[], Mapping[str, V]]) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_build", build)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{self._name} is read-only: register or unregister a game to change it")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{self._name} is read-only: register or unregister a game to change it")

    def __getitem__(self, key: str) -> V:
        return self._build()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._build()))

    def __len__(self) -> int:
        return len(self._build())

    def __contains__(self, key: object) -> bool:
        return key in self._build()

    def __repr__(self) -> str:
        return f"{self._name}({list(self)!r})"


# --------------------------------------------------------------------------- each rules class's game


class _NotRegistered:
    """The game of a rules class whose game is not registered: every hook it is asked for says so."""

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


NOT_REGISTERED: Final = _NotRegistered()
"""The game a rules class is bound to while its game is not registered (`release`).

Example:
    >>> NOT_REGISTERED
    <no registered game>
"""


def release(rules_type: type) -> None:
    """Bind a rules class to no game (`NOT_REGISTERED`): each rules class has a binding of its own.

    `Rules.__init_subclass__` releases every new rules class, so a subclass of a registered game's
    rules class never plays as its parent's game; `unregister_game` releases the game's.

    Example:
        >>> import attrs, cucumber_rules as cr
        >>> Evil = attrs.frozen(kw_only=True)(type("Evil", (cr.CatastropheRules,), {"game": "evil"}))
        >>> bound(Evil)
        <no registered game>
    """
    rules_type._game = NOT_REGISTERED  # type: ignore[attr-defined]


def bind(rules_type: type, game: Any) -> None:
    """Bind a rules class to its registered game (`register_game` does, for the game's own class).

    Example:
        >>> import cucumber_rules as cr
        >>> bind(cr.LadderRules, cr.GAMES["ladder"])  # (as it is)
        >>> game_of(cr.ruleset("agurk")) is cr.GAMES["ladder"]
        True
    """
    rules_type._game = game  # type: ignore[attr-defined]


def bound(rules_type: type) -> Any:
    """The game a rules class itself is bound to (`NOT_REGISTERED` while none is).

    Example:
        >>> import cucumber_rules as cr
        >>> bound(cr.CatastropheRules) is cr.GAMES["catastrophe"], bound(cr.Rules)
        (True, <no registered game>)
    """
    return rules_type.__dict__["_game"]


def game_of(value: Any) -> Any:
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
    game = getattr(value, "_game", None)  # (rules: their class's binding; not a rules class itself)
    if game is None or type(value) is type:
        try:
            game = value.match.rules._game  # (a state)
        except AttributeError:
            rules = getattr(value, "rules", None)  # (a view, a match or a record)
            game = getattr(rules, "_game", None)
            if game is None:
                raise TypeError(
                    f"game_of() takes rules, a state, a view, a match or a record, not {type(value).__name__}"
                ) from None
    if game is NOT_REGISTERED:
        raise LookupError(_unregistered(value))
    return game


def _unregistered(value: Any) -> str:
    """Why `game_of(value)` found no game: its rules class says none, or its game is not registered."""
    rules = getattr(value, "rules", value)
    if not rules.game:
        return (
            f"the rules class {type(rules).__name__} says no game: set `game` on it to the name of its "
            "Game, and register the game (cucumber_rules.register_game)"
        )
    return f"the {rules.game} game is not registered (cucumber_rules.register_game)"
