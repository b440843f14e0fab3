"""The registry's store: the registered games by name, read by the core without importing `games`.

`cucumber_rules.games.registry` checks a game and writes it here (`register_game`);
the core reads it (`rules.ruleset`, `RULESETS`, `OPTIONS`) through `games()`, which
first loads the plug-ins of the entry-point group once, with the loader the games
package installs. Keeping the store apart keeps the import graph free of cycles:
rules, states and views never need the registry's checks at import.

`LiveMapping` is the read-only mapping every live view over the registry uses
(`GAMES`, `RULESETS`, `OPTIONS`): worked out afresh from the store at each use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Generic, TypeVar

__all__ = ["LiveMapping", "games", "install", "replace", "store", "version"]

V = TypeVar("V")

#: The registered games by name, in registration order. Replaced whole (never changed in place), so a
#: reader sees one registry or the next, never one half changed.
_store: Mapping[str, Any] = MappingProxyType({})
#: Bumped by every change of the registry, so caches built from it (the JSON converter) know to rebuild.
_version = 0
#: Loads the entry-point plug-ins once (installed by `cucumber_rules.games.registry`).
_loader: Callable[[], None] | None = None


def install(loader: Callable[[], None]) -> None:
    """Set the function that loads the plug-ins (the games package does, when imported).

    Example:
        >>> callable(_loader)
        True
    """
    global _loader  # noqa: PLW0603 - the registry is process-wide by nature
    _loader = loader


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
