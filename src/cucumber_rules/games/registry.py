"""The registry: `GAMES`, `register_game` and the games of third-party packages (entry points).

A plug-in is contained. `register_game` checks a game before anything can see it (its
names clash with nothing, its class attributes have the right types, its decision and
event tags are its own, its state readings and options hide nothing, and its values
serialise: a JSON converter is built with it and its presets' values go there and back);
a refused game leaves nothing behind. An entry point that fails to load in any way,
`SystemExit` included, is skipped with a `RuntimeWarning`, and whatever its loading
registered or unregistered is undone. `unregister_game` undoes a registration completely.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import keyword
import os
import sys
import threading
import types
import typing
import warnings
from collections.abc import Iterator, Mapping
from importlib import metadata
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import check_codes, register_codes, unregister_codes
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
#: Set once every entry point of the group has been loaded (never before: readers wait for it).
_plugins_loaded = False
#: True while the thread holding `_lock` registers, unregisters or loads plug-ins: a registry read
#: it makes meanwhile (a plug-in's import, a registration's proof) must not start loading plug-ins.
_busy = False
#: Bumped by every registration, so caches built from the registry (the JSON converter) know to rebuild.
_version = [0]
_lock = threading.RLock()
#: The properties the registry added to `State` (games' readings) and to `Rules` (games' options).
_STATE_READINGS: set[str] = set()
_RULES_OPTIONS: set[str] = set()
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
    before = dict(_GAMES)
    try:
        found = entry.load()
        if (isinstance(found, type) and issubclass(found, Game)) or (
            callable(found) and not isinstance(found, Game | type)
        ):
            found = found()
        if isinstance(found, Game):
            if _GAMES.get(found.name) is not found:
                register_game(found)
        elif not isinstance(found, types.ModuleType):
            raise TypeError(
                f"it names {type(found).__name__} {found!r}, not a Game, a Game subclass, "
                "a function returning a Game, or a module"
            )
        removed = sorted(name for name, game in before.items() if _GAMES.get(name) is not game)
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


def _restore(before: Mapping[str, Game]) -> None:
    """Make the registry hold exactly the games of `before` again, in their order (undo a plug-in)."""
    global _GAMES  # noqa: PLW0603 - the registry is process-wide by nature
    for name in [n for n, game in _GAMES.items() if before.get(n) is not game]:
        _remove(name)
    for game in before.values():
        if _GAMES.get(game.name) is not game:
            register_game(game)  # it passed before, and nothing it depends on has changed since
    if list(_GAMES) != list(before):
        _GAMES = {name: _GAMES[name] for name in before}  # (one assignment: readers see one or the other)


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

    Registering the same game object again does nothing. Before anything changes,
    the game is checked: its name, its presets' names and aliases, its error codes
    and its decision and event tags must not clash with another game's; its class
    attributes must have the documented types; its state readings and options must
    not hide an attribute of `State` or `Rules`; and its values must serialise (a
    JSON converter is built with the game, and each preset's rules, a new match's
    state, views, score and record, and its `decision_examples`, are written and
    read back). A refused game leaves nothing behind. The engine's hot path calls
    the game's `legal`, `play` and `apply_play` as they were when it was registered
    (kept on its rules class).

    Args:
        game: An instance of a `Game` subclass.

    Returns:
        The game, so a module can write `GAME = register_game(MyGame())`.

    Raises:
        TypeError: If `game` is not a `Game`, a class attribute has the wrong type (`rules_type`
            not a `Rules` subclass, `result_type` not an attrs `RoundResult`, ...), or its values
            do not serialise (the message names the game, the class and the cause).
        ValueError: If a name, preset, alias, error code, tag, reading or option is taken or
            malformed, or the presets are not rules of this game.

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
        if isinstance(name, str) and _GAMES.get(name) is game:
            return game
        busy, _busy = _busy, True
        try:
            _check_game(game)
            rules_type = game.rules_type
            kept = {key: rules_type.__dict__[key] for key in _HOOKS if key in rules_type.__dict__}
            rules_type._game = game
            rules_type._legal, rules_type._play = game.legal, game.play
            rules_type._apply_play = game.apply_play
            try:
                _sync_shared((*_GAMES.values(), game))
                if not _library_game(game):  # (the library's own: proved by its tests, not at import)
                    _prove(game)
                register_codes(name, game.error_codes)
            except BaseException:
                for key in _HOOKS:
                    if key in kept:
                        setattr(rules_type, key, kept[key])
                    elif key in rules_type.__dict__:
                        delattr(rules_type, key)
                _sync_shared(_GAMES.values())
                raise
            _GAMES[name] = game
            _version[0] += 1
        finally:
            _busy = busy
    return game


#: A game's value classes (each derives from the library's class of that role).
_VALUE_TYPES = ("match_type", "table_type", "trick_type", "result_type", "view_type")
#: What `register_game` keeps on a game's rules class.
_HOOKS = ("_game", "_legal", "_play", "_apply_play")


def _library_game(game: Game) -> bool:
    """True for the library's own games (the ladder games, Catastrophe), False for a plug-in."""
    return type(game).__module__.startswith(__name__.rsplit(".", 2)[0] + ".")


def _check_game(game: Game) -> None:
    """Refuse a game that is malformed or clashes with a registered one (before anything changes)."""
    from ..rules import Rules

    name = game.name
    if not isinstance(name, str):
        raise TypeError(f"a game's name must be a string, not {type(name).__name__}")
    if not name or _canonical(name) != name:
        raise ValueError(
            f"a game needs a name in lower case, words joined by '-' ('high-card'), not {name!r}"
        )
    if name in _GAMES:
        raise ValueError(f"a game named {name!r} is already registered")
    for attr, kind in (("title", str), ("unit", str), ("penalty_words", str)):
        _expect(game, attr, kind)
    for attr in ("shows_dealer", "view_fields_shared"):
        _expect(game, attr, bool)
    rules_type = getattr(game, "rules_type", None)
    if not (isinstance(rules_type, type) and issubclass(rules_type, Rules) and attrs.has(rules_type)):
        raise TypeError(f"{name}: rules_type must be a subclass of Rules")
    if game.rules_type.game != name:
        raise ValueError(f"{name}: its rules class says game {game.rules_type.game!r}")
    _check_types(game)
    _check_presets(game)
    check_codes(name, game.error_codes)
    _check_tags(game)
    _check_readings(game)
    _check_options(game)
    unused = game.format1_unused
    if not isinstance(unused, Mapping) or (unused and not _library_game(game)):
        raise ValueError(
            f"{name}: format1_unused is for the games cucumber_rules 0.1 wrote (format 1 knew no other)"
        )


def _expect(game: Game, attr: str, kind: type) -> Any:
    value = getattr(game, attr, None)
    if type(value) is not kind:
        raise TypeError(f"{game.name}: {attr} must be {kind.__name__}, not {type(value).__name__}")
    return value


def _mapping(game: Game, attr: str) -> Mapping[Any, Any]:
    value = getattr(game, attr, None)
    if not isinstance(value, Mapping):
        raise TypeError(f"{game.name}: {attr} must be a mapping, not {type(value).__name__}")
    return value


def _canonical(name: str) -> str:
    from ..rules import _key

    return _key(name)


def _check_types(game: Game) -> None:
    """Each of the game's value classes is an attrs class deriving from the library's own."""
    from ..actions import MAX_SEATS
    from ..state import Match, RoundResult, Table, Trick
    from ..views import PlayerView

    limit = game.rules_type.seats_limit
    if type(limit) is not int or not 2 <= limit <= MAX_SEATS:
        raise ValueError(
            f"{game.name}: seats_limit of its rules must be an int 2..{MAX_SEATS}, not {limit!r}"
        )
    for attr, base in zip(_VALUE_TYPES, (Match, Table, Trick, RoundResult, PlayerView), strict=True):
        cls = getattr(game, attr, None)
        if not (isinstance(cls, type) and issubclass(cls, base) and attrs.has(cls)):
            raise TypeError(f"{game.name}: {attr} must be an attrs subclass of {base.__name__}, not {cls!r}")


def _check_presets(game: Game) -> None:
    """Presets and aliases: canonical names, rules of this game, taken by no other game."""
    presets, aliases = _mapping(game, "presets"), _mapping(game, "aliases")
    titles = _mapping(game, "preset_titles")
    rules_type = game.rules_type
    taken = {key: other.name for other in _GAMES.values() for key in (*other.presets, *other.aliases)}
    for key in (*presets, *aliases):
        if not isinstance(key, str) or not key or _canonical(key) != key:
            raise ValueError(f"{game.name}: preset name {key!r} must be in lower case, words joined by '-'")
        if key in taken:
            raise ValueError(f"{game.name}: preset name {key!r} is taken by the {taken[key]} game")
    for key, rules in presets.items():
        if type(rules) is not rules_type or rules.name != key:
            raise ValueError(f"{game.name}: preset {key!r} must be {rules_type.__name__} named {key!r}")
    for alias, target in aliases.items():
        if not isinstance(target, str) or target not in presets:
            raise ValueError(f"{game.name}: alias {alias!r} names no preset ({target!r})")
    for key, title in titles.items():
        if not isinstance(key, str) or not isinstance(title, str):
            raise TypeError(f"{game.name}: preset_titles must map preset names to strings")


def _tags_of(games: Any) -> dict[str, tuple[type, str]]:
    from ..actions import Deal, Play
    from ..views import Dealt

    found: dict[str, tuple[type, str]] = {c.TAG: (c, "the core actions") for c in (Deal, Play, Dealt)}
    for other in games:
        for cls in (*other.decisions, *other.events):
            found.setdefault(cls.TAG, (cls, f"the {other.name} game"))
    return found


def _check_tags(game: Game) -> None:
    """Decision and event classes: attrs classes with a `TAG` of their own that no other class has."""
    from ..actions import Decision

    taken = _tags_of(_GAMES.values())
    own: dict[str, type] = {}
    for attr in ("decisions", "events"):
        classes = getattr(game, attr, None)
        if type(classes) is not tuple:
            raise TypeError(f"{game.name}: {attr} must be a tuple of classes, not {type(classes).__name__}")
        for cls in classes:
            if not (isinstance(cls, type) and attrs.has(cls)):
                raise TypeError(f"{game.name}: {attr} must hold attrs classes, not {cls!r}")
            if (attr == "decisions") != issubclass(cls, Decision):
                wrong = "must derive from Decision" if attr == "decisions" else "cannot be a Decision"
                raise TypeError(f"{game.name}: {cls.__name__} in {attr} {wrong}")
            tag = cls.__dict__.get("TAG")
            if type(tag) is not str or not tag:
                raise TypeError(f'{game.name}: {cls.__name__} needs a TAG of its own (JSON\'s "type")')
            other, owner = taken.get(tag, (cls, ""))
            if other is not cls:
                taker = f"{owner} ({other.__name__})"
                raise ValueError(f"{game.name}: tag {tag!r} of {cls.__name__} is taken by {taker}")
            if own.setdefault(tag, cls) is not cls:
                both = f"{own[tag].__name__} and {cls.__name__}"
                raise ValueError(f"{game.name}: tag {tag!r} is used by both {both}")


def _check_readings(game: Game) -> None:
    """Refuse a state reading that is not a plain public name or would hide one of `State`'s attributes."""
    from ..state import State

    for name, reading in _mapping(game, "state_attributes").items():
        if not _public(name):
            raise ValueError(f"{game.name}: a state reading needs a public name, not {name!r}")
        if name not in _STATE_READINGS and _has(State, name):
            raise ValueError(f"{game.name}: a state reading cannot be named {name!r}: State has it already")
        if not callable(reading):
            raise TypeError(f"{game.name}: state reading {name!r} must be callable, not {reading!r}")


def _check_options(game: Game) -> None:
    """Refuse an option that is not a plain public name or would hide one of `Rules`' attributes."""
    from ..rules import Rules, _options_of

    common = set(_options_of(Rules))
    for name in _options_of(game.rules_type):
        if not _public(name):
            raise ValueError(f"{game.name}: an option needs a public name, not {name!r}")
        if name not in common and name not in _RULES_OPTIONS and _has(Rules, name):
            raise ValueError(f"{game.name}: an option cannot be named {name!r}: Rules has it already")


def _public(name: object) -> bool:
    """True for a name a reading or option may have: an identifier, not a keyword, no leading `_`."""
    return (
        isinstance(name, str)
        and name.isidentifier()
        and not name.startswith("_")
        and not keyword.iskeyword(name)
    )


def _has(cls: type, name: str) -> bool:
    try:
        inspect.getattr_static(cls, name)
    except AttributeError:
        return False
    return True


def _sync_shared(games: Any) -> None:
    """Make `State`'s readings and `Rules`' foreign options exactly those the given games need."""
    from ..rules import Rules, _options_of, foreign_option
    from ..state import State

    games = tuple(games)
    readings = {name for game in games for name in game.state_attributes}
    common = set(_options_of(Rules))
    options = {name for game in games for name in _options_of(game.rules_type)} - common
    for names, wanted, cls, make in (
        (_STATE_READINGS, readings, State, _reading),
        (_RULES_OPTIONS, options, Rules, foreign_option),
    ):
        for name in sorted(names - wanted):
            delattr(cls, name)
            names.discard(name)
        for name in sorted(wanted - names):
            if not _has(cls, name):
                setattr(cls, name, make(name))
                names.add(name)


def _reading(name: str) -> property:
    def get(state: State) -> Any:
        reading = state.game.state_attributes.get(name)
        if reading is None:
            raise AttributeError(f"a {state.game.name} state has no attribute {name!r}")
        return reading(state)

    prop = property(get, doc=f"A game's reading of its state (`Game.state_attributes`): {name}.")
    prop.fget._reading = True  # type: ignore[union-attr]
    return prop


# --------------------------------------------------------------------------- the proof that it serialises


def _prove(game: Game) -> None:
    """Build the JSON converter with the game and send its values there and back.

    The converter's hooks are built for each of the game's classes and the types of their
    fields; each preset's rules, a new match of it (state, the spectator's and seat 0's views,
    score, record) and the game's `decision_examples` are written as JSON and read back equal.

    Raises:
        TypeError: Naming the game, the class or value, and the cause.
    """
    from ..actions import Action
    from ..engine import new_game, score
    from ..records import Record, record
    from ..rules import Rules
    from ..scoring import Score
    from ..serialization.converter import converter_for
    from ..state import State
    from ..views import PlayerView, view

    classes = [
        *((attr, getattr(game, attr)) for attr in ("rules_type", *_VALUE_TYPES)),
        *(("decisions", cls) for cls in game.decisions),
        *(("events", cls) for cls in game.events),
    ]
    for attr, cls in classes:
        with _proving(game, f"the annotations of {cls.__qualname__} ({attr})"):
            attrs.resolve_types(cls)
    with _proving(game, "the JSON converter with it"):
        conv = converter_for({**_GAMES, game.name: game})
    seen: set[Any] = set()
    for attr, cls in classes:
        with _proving(game, f"the JSON hooks of {cls.__qualname__} ({attr})"):
            _hooks(conv, cls, seen)
    samples: list[tuple[str, Any, Any]] = []
    for preset, rules in game.presets.items():
        match = f"a new match of {preset!r}"
        with _proving(game, match):
            state = new_game(rules, rules.min_players)
            samples += [
                (f"preset {preset!r}", rules, Rules),
                (match, state, State),
                (f"the spectator's view of {match}", view(state, None), PlayerView),
                (f"seat 0's view of {match}", view(state, 0), PlayerView),
                (f"the score of {match}", score(state), Score),
                (f"the record of {match}", record(state), Record),
            ]
    with _proving(game, "decision_examples(0)"):
        samples += [(repr(d), (d,), tuple[Action, ...]) for d in game.decision_examples(0)]
    for what, value, kind in samples:
        with _proving(game, what):
            _round_trip(conv, value, kind)


@contextlib.contextmanager
def _proving(game: Game, what: str) -> Iterator[None]:
    """Turn a failure of one step of `_prove` into the `TypeError` that names the game and the step."""
    try:
        yield
    except Exception as error:
        message = f"{game.name}: its values do not serialise: {what} failed: {type(error).__name__}: {error}"
        raise TypeError(message) from error


def _hooks(conv: Any, t: Any, seen: set[Any]) -> None:
    """Build the converter's hooks for a type and its fields' types (cattrs builds most lazily)."""
    if t in seen or t is type(None) or t is typing.Any:
        return
    seen.add(t)
    conv.get_structure_hook(t)
    origin = typing.get_origin(t)
    if origin is typing.Literal:
        return
    if origin is not None:
        args = [arg for arg in typing.get_args(t) if arg is not Ellipsis and arg is not type(None)]
        if origin in (typing.Union, types.UnionType) and len(args) > 1:
            args = [arg for arg in args if attrs.has(arg)]  # (its hook reads the other members itself)
        for arg in args:
            _hooks(conv, arg, seen)
        return
    conv.get_unstructure_hook(t)
    if isinstance(t, type) and attrs.has(t):
        attrs.resolve_types(t)
        for field in attrs.fields(t):
            if field.init:
                _hooks(conv, field.type, seen)


def _round_trip(conv: Any, value: Any, kind: Any) -> None:
    """Write a value as JSON and read it back; it must come back equal."""
    data = conv.unstructure(value, kind if typing.get_origin(kind) else type(value))
    text = json.dumps(data, allow_nan=False)
    back = conv.structure(json.loads(text), kind)
    if back != value:
        raise ValueError(f"it reads back as {back!r}, not {value!r}")


# --------------------------------------------------------------------------- removal


def unregister_game(name: str) -> Game:
    """Remove a game from the registry, with its presets, error codes, readings and options; return it.

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
        game = _GAMES[name]
        if _library_game(game):
            raise ValueError(f"the {name} game is part of cucumber_rules: it cannot be unregistered")
        _remove(name)
    return game


def _remove(name: str) -> None:
    """Remove a registered game and everything its registration added (under the lock)."""
    game = _GAMES.pop(name)
    unregister_codes(name)
    rules_type = game.rules_type
    for key in _HOOKS:
        if key in rules_type.__dict__:
            delattr(rules_type, key)
    _sync_shared(_GAMES.values())
    _version[0] += 1


def registry_version() -> int:
    """A number that changes whenever a game is registered (for caches built from the registry).

    Example:
        >>> registry_version() >= 2
        True
    """
    _load_plugins()
    return _version[0]
