"""The registry: `GAMES`, `register_game` and the games of third-party packages (entry points)."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator, Mapping
from importlib import metadata
from typing import TYPE_CHECKING, Any

from ..errors import register_codes
from .base import Game

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import State

__all__ = [
    "ENTRY_POINT_GROUP",
    "GAMES",
    "game_of",
    "register_game",
    "registry_version",
    "unregister_game",
]

ENTRY_POINT_GROUP = "cucumber_rules.games"
"""The entry-point group third-party packages register their games under.

Example:
    >>> ENTRY_POINT_GROUP
    'cucumber_rules.games'
"""


# --------------------------------------------------------------------------- the registry

_GAMES: dict[str, Game] = {}
_plugins_loaded = False
#: Bumped by every registration, so caches built from the registry (the JSON converter) know to rebuild.
_version = [0]
_lock = threading.RLock()


def _load_plugins() -> None:
    """Load the entry points of `cucumber_rules.games` once (the first time the registry is read)."""
    global _plugins_loaded  # noqa: PLW0603 - the registry is process-wide by nature
    if _plugins_loaded:
        return
    with _lock:
        if _plugins_loaded:
            return
        _plugins_loaded = True
        for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
            try:
                found = entry.load()
                if (isinstance(found, type) and issubclass(found, Game)) or (
                    callable(found) and not isinstance(found, Game)
                ):
                    found = found()
                if isinstance(found, Game) and _GAMES.get(found.name) is not found:
                    register_game(found)
            except Exception as error:  # a broken plugin must not break the library
                warnings.warn(
                    f"cucumber_rules: the game plugin {entry.name!r} ({entry.value}) failed to load: "
                    f"{type(error).__name__}: {error}",
                    RuntimeWarning,
                    stacklevel=2,
                )


class _Games(Mapping[str, Game]):
    """The registered games by name (read-only; plugins load on first use)."""

    def __getitem__(self, name: str) -> Game:
        found = _GAMES.get(name)
        if found is None:
            _load_plugins()
            found = _GAMES.get(name)
            if found is None:
                raise KeyError(name)
        return found

    def __iter__(self) -> Iterator[str]:
        _load_plugins()
        return iter(list(_GAMES))

    def __len__(self) -> int:
        _load_plugins()
        return len(_GAMES)

    def __contains__(self, name: object) -> bool:
        if name in _GAMES:
            return True
        _load_plugins()
        return name in _GAMES

    def __repr__(self) -> str:
        return f"GAMES({list(self)!r})"


GAMES: Mapping[str, Game] = _Games()
"""The registered games by name (read-only): `"ladder"`, `"catastrophe"` and any plugin's.

Example:
    >>> import cucumber_rules as cr
    >>> list(cr.GAMES)[:2]
    ['ladder', 'catastrophe']
    >>> cr.GAMES["catastrophe"].presets["catastrophe"].hands
    4
"""


def game_of(rules: Rules) -> Game:
    """The registered game a rule set is for.

    Example:
        >>> import cucumber_rules as cr
        >>> game_of(cr.ruleset("gurka")).name
        'ladder'
    """
    return type(rules)._game  # type: ignore[no-any-return]


def register_game(game: Game) -> Game:
    """Add a game to the registry, with its presets and error codes; return it.

    Registering the same game object again does nothing. Its name, its presets'
    names and aliases, and its error codes must not clash with another game's.
    The engine's hot path calls the game's `legal`, `play` and `apply_play` as they
    were when it was registered (kept on its rules class).

    Args:
        game: An instance of a `Game` subclass.

    Returns:
        The game, so a module can write `GAME = register_game(MyGame())`.

    Raises:
        TypeError: If `game` is not a `Game` or its `rules_type` is not a `Rules` subclass.
        ValueError: If a name, preset, alias or error code is taken, or the presets are not
            rules of this game.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.register_game(cr.GAMES["ladder"]) is cr.GAMES["ladder"]
        True
    """
    from ..rules import Rules

    if not isinstance(game, Game):
        raise TypeError(f"register_game() takes a Game, not {type(game).__name__}")
    with _lock:
        if _GAMES.get(game.name) is game:
            return game
        if not game.name or not isinstance(game.name, str):
            raise ValueError("a game needs a name")
        if game.name in _GAMES:
            raise ValueError(f"a game named {game.name!r} is already registered")
        rules_type = getattr(game, "rules_type", None)
        if not (isinstance(rules_type, type) and issubclass(rules_type, Rules)):
            raise TypeError(f"{game.name}: rules_type must be a subclass of Rules")
        if rules_type.game != game.name:
            raise ValueError(f"{game.name}: its rules class says game {rules_type.game!r}")
        taken = {name: other.name for other in _GAMES.values() for name in (*other.presets, *other.aliases)}
        for name in (*game.presets, *game.aliases):
            if name in taken:
                raise ValueError(f"{game.name}: preset name {name!r} is taken by the {taken[name]} game")
        for name, rules in game.presets.items():
            if type(rules) is not rules_type or rules.name != name:
                raise ValueError(f"{game.name}: preset {name!r} must be {rules_type.__name__} named {name!r}")
        for alias, target in game.aliases.items():
            if target not in game.presets:
                raise ValueError(f"{game.name}: alias {alias!r} names no preset ({target!r})")
        _check_readings(game)  # (before anything is added: a refused game leaves nothing behind)
        register_codes(game.name, game.error_codes)
        _add_readings(game)
        rules_type._game = game
        rules_type._legal, rules_type._play, rules_type._apply_play = game.legal, game.play, game.apply_play
        _GAMES[game.name] = game
        _version[0] += 1
    return game


def _check_readings(game: Game) -> None:
    """Refuse a game whose state reading would hide one of `State`'s own attributes."""
    from ..state import State

    for name in game.state_attributes:
        found = State.__dict__.get(name)
        if found is not None and not getattr(getattr(found, "fget", None), "_reading", False):
            raise ValueError(f"{game.name}: a state reading cannot be named {name!r}: State has it already")


def _add_readings(game: Game) -> None:
    """Make a game's state readings properties of `State`, and its options explain on other rules."""
    from ..rules import Rules, _options_of, foreign_option
    from ..state import State

    for name in game.state_attributes:
        if name not in State.__dict__:
            setattr(State, name, _reading(name))
    for name in _options_of(game.rules_type):
        if not hasattr(Rules, name):
            setattr(Rules, name, foreign_option(name))


def _reading(name: str) -> property:
    def get(state: State) -> Any:
        reading = state.game.state_attributes.get(name)
        if reading is None:
            raise AttributeError(f"a {state.game.name} state has no attribute {name!r}")
        return reading(state)

    prop = property(get, doc=f"A game's reading of its state (`Game.state_attributes`): {name}.")
    prop.fget._reading = True  # type: ignore[union-attr]
    return prop


def unregister_game(name: str) -> Game:
    """Remove a game from the registry, with its presets and error codes; return it.

    For tests that register a game for a while (see `cucumber_rules.testing.registered`);
    states and rules of the game stop working with the engine once it is removed.

    Raises:
        KeyError: If no game of that name is registered.

    Example:
        >>> import cucumber_rules as cr
        >>> "nothing" in cr.GAMES
        False
    """
    from ..errors import _GAME_CODES

    with _lock:
        game = _GAMES.pop(name)
        for code in [c for c, (owner, _) in _GAME_CODES.items() if owner == name]:
            del _GAME_CODES[code]
        _version[0] += 1
    return game


def registry_version() -> int:
    """A number that changes whenever a game is registered (for caches built from the registry).

    Example:
        >>> registry_version() >= 2
        True
    """
    _load_plugins()
    return _version[0]
