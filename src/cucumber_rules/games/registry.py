"""The registry: `GAMES`, `register_game` and the games of third-party packages (entry points)."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Mapping
from importlib import metadata
from typing import Any

import attrs

from .. import _registry
from ..errors import register_codes
from ..state import State
from .base import Game

__all__ = [
    "ENTRY_POINT_GROUP",
    "GAMES",
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

_plugins_loaded = False
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
                if isinstance(found, Game) and _registry.store().get(found.name) is not found:
                    register_game(found)
            except Exception as error:  # a broken plugin must not break the library
                warnings.warn(
                    f"cucumber_rules: the game plugin {entry.name!r} ({entry.value}) failed to load: "
                    f"{type(error).__name__}: {error}",
                    RuntimeWarning,
                    stacklevel=2,
                )


GAMES: Mapping[str, Game[Any]] = _registry.LiveMapping("GAMES", _registry.games)
"""The registered games by name (read-only): `"ladder"`, `"catastrophe"` and any plugin's.

Example:
    >>> import cucumber_rules as cr
    >>> list(cr.GAMES)[:2]
    ['ladder', 'catastrophe']
    >>> cr.GAMES["catastrophe"].presets["catastrophe"].hands
    4
"""


def register_game(game: Game[Any]) -> Game[Any]:
    """Add a game to the registry, with its presets and error codes; return it.

    Registering the same game object again does nothing. Its name, its presets'
    names and aliases, and its error codes must not clash with another game's.
    Registration adds nothing to the library's classes: the game's own rules class
    learns its game (`game_of`), and `unregister_game` takes that back.

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

    _GAMES: dict[str, Game[Any]] = dict(_registry.store())
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
        state_type = getattr(game, "state_type", None)
        if not (isinstance(state_type, type) and issubclass(state_type, State)):
            raise TypeError(f"{game.name}: state_type must be State or a subclass of it")
        if attrs.fields(state_type) != attrs.fields(State):
            raise TypeError(f"{game.name}: its state class may add readings to State, not fields")
        register_codes(game.name, game.error_codes)
        rules_type._game = game
        _GAMES[game.name] = game
        _registry.replace(_GAMES)
    return game


def unregister_game(name: str) -> Game[Any]:
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
        games: dict[str, Game[Any]] = dict(_registry.store())
        game = games.pop(name)
        for code in [c for c, (owner, _) in _GAME_CODES.items() if owner == name]:
            del _GAME_CODES[code]
        if "_game" in game.rules_type.__dict__:
            del game.rules_type._game
        _registry.replace(games)
    return game


def registry_version() -> int:
    """A number that changes whenever a game is registered (for caches built from the registry).

    Example:
        >>> registry_version() >= 2
        True
    """
    return _registry.version()


_registry.install(_load_plugins)
