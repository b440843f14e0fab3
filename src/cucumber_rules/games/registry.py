"""The registry: `GAMES`, `register_game` and the games of third-party packages (entry points).

A plug-in is contained. `register_game` checks a game before anything can see it (its
names clash with nothing, nor with the keys of the JSON documents, its class attributes
have the right types, its decision and event tags are its own, its state readings and
options hide nothing, and its values serialise: a JSON converter is built with it and
its presets' values go there and back); a refused game leaves nothing behind. An entry
point that fails to load in any way, `SystemExit` included, is skipped with a
`RuntimeWarning`, and whatever its loading registered or unregistered is undone.
`unregister_game` undoes a registration completely.
"""

from __future__ import annotations

import os
import sys
import threading
import types
import warnings
from collections.abc import Callable, Mapping
from importlib import metadata
from typing import Any, Final, cast

from .. import _registry
from ..errors import register_codes, unregister_codes
from .base import Game
from .checks import check_game, library_game, prove

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

#: Set once every entry point of the group has been loaded (never before: readers wait for it).
_plugins_loaded = False
#: True while the thread holding `_lock` registers, unregisters or loads plug-ins: a registry read
#: it makes meanwhile (a plug-in's import, a registration's proof) must not start loading plug-ins.
_busy = False
_lock = threading.RLock()
#: The entry points loaded or skipped so far (name, value), and the warnings not yet given.
_ENTRIES_DONE: set[tuple[str, str]] = set()
_PROBLEMS: list[str] = []


def _load_plugins() -> None:
    """Load the entry points of `cucumber_rules.games` once (the first time the registry is read).

    Other threads wait until every plug-in is loaded. A plug-in that fails to load (with any
    exception, `SystemExit` included) is skipped with a `RuntimeWarning`, given once loading is
    done; a `KeyboardInterrupt` stops the loading and propagates, and the next read loads again.
    """
    global _plugins_loaded, _busy  # noqa: PLW0603 - the registry is process-wide by nature
    if _plugins_loaded:
        return
    with _lock:
        if _plugins_loaded or _busy:  # (`_busy`: this very thread is loading or registering)
            return
        _busy = True
        try:
            try:
                entries = list(metadata.entry_points(group=ENTRY_POINT_GROUP))
            except Exception as error:  # broken metadata must not break the library
                entries = []
                _PROBLEMS.append(
                    f"cucumber_rules: could not list the game plugins: {type(error).__name__}: {error}"
                )
            for entry in entries:
                key = (entry.name, entry.value)
                if key in _ENTRIES_DONE:  # (loaded before an interrupt: not again)
                    continue
                problem = _load_entry(entry)
                _ENTRIES_DONE.add(key)
                if problem is not None:
                    _PROBLEMS.append(problem)
            _plugins_loaded = True  # only now: a reader in another thread waited for all of it
            problems = list(_PROBLEMS)
            _PROBLEMS.clear()
        finally:
            _busy = False
    for problem in problems:  # (after the lock: a warnings filter that raises loses no plug-in)
        warnings.warn(problem, RuntimeWarning, stacklevel=_caller_level())


def _caller_level() -> int:
    """The `stacklevel` of the first frame outside the library: the reader's line that loaded the plug-ins."""
    library = os.path.dirname(os.path.dirname(__file__)) + os.sep
    level, frame = 1, sys._getframe(1)
    while frame.f_back is not None and frame.f_code.co_filename.startswith((library, "<frozen ")):
        frame, level = frame.f_back, level + 1
    return level


def _load_entry(entry: metadata.EntryPoint) -> str | None:
    """Load one entry point and register its game; what went wrong (all of it undone), or None."""
    before = dict(_registry.store())
    try:
        found = entry.load()
        if (isinstance(found, type) and issubclass(found, Game)) or (
            callable(found) and not isinstance(found, Game | type)
        ):
            found = found()
        if isinstance(found, Game):
            if _registry.store().get(found.name) is not found:
                register_game(found)
        elif not isinstance(found, types.ModuleType):
            raise TypeError(
                f"it names {type(found).__name__} {found!r}, not a Game, a Game subclass, "
                "a function returning a Game, or a module"
            )
        removed = sorted(name for name, game in before.items() if _registry.store().get(name) is not game)
        if removed:
            raise RuntimeError(f"it unregistered {', '.join(removed)}")
    except KeyboardInterrupt:
        _restore(before)
        raise
    except BaseException as error:  # SystemExit too: a plug-in does not end the host
        _restore(before)
        return (
            f"cucumber_rules: the game plugin {entry.name!r} ({entry.value}) failed to load and was "
            f"skipped: {type(error).__name__}: {error}"
        )
    return None


def _restore(before: Mapping[str, Game[Any]]) -> None:
    """Make the registry hold exactly the games of `before` again, in their order (undo a plug-in)."""
    for name in [n for n, game in _registry.store().items() if before.get(n) is not game]:
        _remove(name)
    for game in before.values():
        if _registry.store().get(game.name) is not game:
            register_game(game)  # it passed before, and nothing it depends on has changed since
    now = _registry.store()
    if list(now) != list(before):
        _registry.replace({name: now[name] for name in before})


game_of: Final = cast("Callable[[object], Game[Any]]", _registry.game_of)
"""The registered game of a rule set, state, view, match or record: the one road to a game.

The registry's `game_of` (`cucumber_rules._registry`), as a [`Game`][cucumber_rules.Game]:
`cucumber_rules.game_of`, `cucumber_rules.games.game_of` and `cucumber_rules.rules.game_of` are
this one function. It takes `Rules`, or anything with a `rules` attribute (`State`, `PlayerView`,
`Match`, `Record`); it raises `TypeError` for anything else, and `LookupError` when the game is not
registered (or was unregistered since).

Example:
    >>> import cucumber_rules as cr
    >>> game_of(cr.ruleset("gurka")).name, game_of(cr.new_game(cr.ruleset("catastrophe"), 3)).name
    ('ladder', 'catastrophe')
    >>> type(game_of(cr.ruleset("gurka")).words).__name__
    'LadderWords'
"""


GAMES: Mapping[str, Game[Any]] = _registry.LiveMapping("GAMES", _registry.games)
"""The registered games by name (read-only): `"ladder"`, `"catastrophe"` and any plugin's.

Example:
    >>> import cucumber_rules as cr
    >>> list(cr.GAMES)[:2]
    ['ladder', 'catastrophe']
    >>> cr.GAMES["catastrophe"].presets["catastrophe"].hand_count
    4
"""


def register_game(game: Game[Any]) -> Game[Any]:
    """Add a game to the registry, with its presets and error codes; return it.

    Registering the same game object again does nothing. Before anything changes,
    the game is checked: its name, its presets' names and aliases, its error codes
    and its decision and event tags must not clash with another game's, nor its
    options and fields with the keys of JSON documents (`format`, `kind`, `type`); its class
    attributes and hook groups must have the documented types; its state class may
    add readings to `State` but no fields, and its options must not hide an
    attribute of `Rules`; and its values must serialise (a JSON converter is built
    with the game, its JSON Schemas are built, and each preset's rules, a new match's
    state, views, score and record, and its `testing.decision_examples`, are written and
    read back). A
    refused game leaves nothing behind. Registration adds nothing to the library's
    classes: the game's own rules class learns its game (`game_of`).

    Args:
        game: An instance of a `Game` subclass.

    Returns:
        The game, so a module can write `GAME = register_game(MyGame())`.

    Raises:
        TypeError: If `game` is not a `Game`, a class attribute has the wrong type (`rules_type`
            not a `Rules` subclass, `result_type` not an attrs `RoundResult`, ...), or its values
            do not serialise or have no JSON Schema (the message names the game, the class and the cause).
        ValueError: If a name, preset, alias, error code, tag, reading or option is taken or
            malformed, a field would be written under a key of the JSON envelope or a tag, or the
            presets are not rules of this game.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.register_game(cr.GAMES["ladder"]) is cr.GAMES["ladder"]
        True
    """
    global _busy  # noqa: PLW0603 - the registry is process-wide by nature
    if not isinstance(game, Game):
        raise TypeError(f"register_game() takes a Game, not {type(game).__name__}")
    with _lock:
        name = game.name
        games: Mapping[str, Game[Any]] = _registry.store()
        if isinstance(name, str) and games.get(name) is game:
            return game
        busy, _busy = _busy, True
        try:
            check_game(game, games)
            rules_type = game.rules_type
            kept = _registry.bound(rules_type)  # (each rules class has its own: `Rules.__init_subclass__`)
            _registry.bind(rules_type, game)
            try:
                if not library_game(game):  # (the library's own: proved by its tests, not at import)
                    prove(game, games)
                register_codes(name, game.error_codes)
            except BaseException:
                _registry.bind(rules_type, kept)
                raise
            _registry.replace({**games, name: game})
        finally:
            _busy = busy
    return game


def unregister_game(name: str) -> Game[Any]:
    """Remove a game from the registry, with its presets and error codes; return it.

    For tests that register a game for a while (see `cucumber_rules.testing.registered`):
    the process is left as it was before the game was registered. States and rules of the
    game stop working with the engine once it is removed. The library's own games cannot
    be removed.

    Raises:
        KeyError: If no game of that name is registered.
        ValueError: If it is one of the library's own games.

    Example:
        >>> import cucumber_rules as cr
        >>> "nothing" in cr.GAMES
        False
    """
    with _lock:
        game: Game[Any] = _registry.store()[name]
        if library_game(game):
            raise ValueError(f"the {name} game is part of cucumber_rules: it cannot be unregistered")
        _remove(name)
    return game


def _remove(name: str) -> None:
    """Remove a registered game and everything its registration added (under the lock)."""
    games = dict(_registry.store())
    game = games.pop(name)
    unregister_codes(name)
    # The class's own marker again, not a deletion: a subclass of another game's rules class
    # (`EvilRules(CatastropheRules)`) would otherwise find its parent's game and play on as it.
    _registry.release(game.rules_type)
    _registry.replace(games)


def registry_version() -> int:
    """A number that changes whenever a game is registered (for caches built from the registry).

    Example:
        >>> registry_version() >= 2
        True
    """
    return _registry.version()


_registry.install(_load_plugins, register_game, unregister_game)
