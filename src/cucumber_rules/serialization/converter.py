"""The cattrs converter: the library's values to and from JSON-ready data, strictly, with JSON paths.

`make_converter(converter=None)` registers the library's hooks on a converter
(yours, or a new one) and returns it, as lsprotocol's `get_converter` does. Cards
become strings, actions and events objects tagged with `"type"`, histories and
tuples lists, rules an object naming its `"game"`. Structuring is strict: JSON
types must match exactly, every field is required, unknown keys are rejected,
and a failure names the JSON path of the bad value. What depends on the game
(a view's tricks and results, a rule set's options) is read through the
registered games.

The single values' hooks are in `plain`, the fast paths for records and histories (thousands
of plays, a deal per round) in `fast`; this module puts them together on a converter.
"""

from __future__ import annotations

import enum
import itertools
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs
import cattrs

from .. import _registry
from .._paths import At, Bad, cause_message, kind_name, locate, step
from ..actions import Deal, Decision, Play
from ..cards import Card
from ..errors import quoted
from ..history import History
from ..records import Record
from ..rules import Rules
from ..scoring import Score
from ..views import Dealt, PlayerView
from .fast import card_names, fast_play, gaps, known_cards, known_deal, known_plays, plays_by_key
from .plain import (
    check_object,
    enum_value,
    plain_any,
    plain_bool,
    plain_card,
    plain_enum,
    plain_int,
    plain_str,
)
from .validation import state_document, structure_state

if TYPE_CHECKING:
    from ..game import GameBase
    from ..state import State

__all__ = [
    "At",
    "Bad",
    "cause_message",
    "converter_for",
    "kind_name",
    "locate",
    "make_converter",
    "tagged_classes",
]


#: The key of a tagged object's tag (`{"type": "play", ...}`): no field of a decision or event may use it.
TAG_KEY: Final = "type"


def tagged_classes(games: Iterable[GameBase[State]] | None = None) -> dict[str, type]:
    """Every class written as an object with a `"type"` tag, by tag: actions, decisions and events.

    A tag keeps the first class that has it: the core tags (`"deal"`, `"play"`, `"dealt"`), then
    each game's in registration order (`register_game` refuses a game whose tag is taken, so a
    later game can never take a tag from the documents of an earlier one).

    Args:
        games: The games whose decisions and events to include; None for the registered games.

    Example:
        >>> sorted(tagged_classes())
        ['deal', 'dealt', 'play', 'reveal', 'revive']
    """
    if games is None:
        games = _registry.games().values()
    found: dict[str, type] = {"deal": Deal, "play": Play, "dealt": Dealt}
    for game in games:
        for cls in (*game.decisions, *game.events):
            found.setdefault(cls.TAG, cls)
    return found


def _fields(cls: type) -> list[attrs.Attribute[Any]]:
    attrs.resolve_types(cls)
    return [a for a in attrs.fields(cls) if a.init]


def _is_tuple(t: Any) -> bool:
    args = typing.get_args(t)
    return typing.get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis


def _is_history(t: Any) -> bool:
    return t is History or typing.get_origin(t) is History


def _is_union(t: Any) -> bool:
    return typing.get_origin(t) in (typing.Union, types.UnionType)


def make_converter(converter: cattrs.Converter | None = None) -> cattrs.Converter:
    """Register the library's hooks on a cattrs converter (a new one by default) and return it.

    It is the converter [`dumps`][cucumber_rules.dumps] and
    [`loads`][cucumber_rules.loads] use (without the document envelope); it
    never touches cattrs' global converter. Pass your own converter to teach it
    the library's values beside yours (as lsprotocol's converter factory does).
    Structuring is strict: a failure to read one of the library's types (or a
    tuple of them) raises [`InvalidStateError`][cucumber_rules.InvalidStateError]
    whose `path` names the bad value from `$`, the value given to `structure`, or,
    for a rule set given as the value itself,
    [`InvalidRulesError`][cucumber_rules.InvalidRulesError] naming the option
    (`loads` also checks what it built as a whole). Inside your own classes,
    lists and dicts, cattrs wraps that error in its own exception group, as it
    does any hook's. A
    structured `State` is replayed from its history, and a structured `Rules`
    validated, so they are always valid; other values are not re-validated.
    It knows the games registered when it is made: make another after
    [`register_game`][cucumber_rules.register_game] (`dumps` and `loads` do).

    Args:
        converter: The converter to register the hooks on; None for a new one.

    Returns:
        The converter.

    Example:
        >>> import cucumber_rules as cr
        >>> conv = cr.make_converter()
        >>> conv.unstructure(cr.Play(2, cr.card("10H")))
        {'type': 'play', 'seat': 2, 'card': '10H'}
        >>> conv.structure({"type": "play", "seat": 2, "card": "10H"}, cr.Play)
        Play(seat=2, card=card('10H'))
        >>> try:
        ...     conv.structure([{"type": "play", "seat": "1", "card": "QS"}], tuple[cr.Action, ...])
        ... except cr.InvalidStateError as err:
        ...     print(err.path, "-", err)
        $[0].seat - $[0].seat: expected an integer, not a string
    """
    return converter_for(dict(_registry.games()), converter)


def converter_for(
    games: Mapping[str, GameBase[State]], converter: cattrs.Converter | None = None
) -> cattrs.Converter:
    """`make_converter` for the given games instead of the registered ones (games by name).

    `register_game` builds one with the registered games and the new one, to prove that the
    new game's types serialise before anything else can see it.

    Args:
        games: The games the converter knows, by name (their rules, views, scores, tags).
        converter: The converter to register the hooks on; None for a new one.

    Returns:
        The converter.

    Example:
        >>> import cucumber_rules as cr
        >>> conv = converter_for({"ladder": cr.GAMES["ladder"]})
        >>> try:
        ...     conv.structure({"name": "cat", "game": "catastrophe"}, cr.Rules)
        ... except cr.InvalidStateError as err:
        ...     print(err)
        $.game: game must be one of 'ladder', not 'catastrophe'
    """
    conv = converter if converter is not None else cattrs.Converter()
    tags = tagged_classes(games.values())
    _unstructure_hooks(conv, {cls: tag for tag, cls in tags.items()})
    _structure_hooks(conv, games, tags)
    return conv


def _unstructure_hooks(conv: cattrs.Converter, by_class: Mapping[type, str]) -> None:
    """Register the hooks that write the library's values (chosen by each value's runtime type)."""
    from ..state import State

    def plain(value: Any) -> Any:
        kind = type(value)
        if kind is Card:
            return str(value)
        if kind is Play:
            return {"type": "play", "seat": value.seat, "card": str(value.card)}
        if kind in (int, str, bool, float) or value is None:
            return value
        if kind is tuple or kind is list or kind is History:
            return [plain(x) for x in value]
        if isinstance(value, enum.Enum):
            return value.value
        return conv.unstructure(value, kind)

    def attrs_unstructure(cls: type) -> Callable[[Any], dict[str, Any]]:
        names = [(a.name, a.alias or a.name) for a in _fields(cls)]
        tag = by_class.get(cls)
        head = {TAG_KEY: tag} if tag is not None else {}

        def unstructure(obj: Any) -> dict[str, Any]:
            return {**head, **{key: plain(getattr(obj, name)) for name, key in names}}

        return unstructure

    def rules_unstructure(cls: type) -> Callable[[Any], dict[str, Any]]:
        names = [a.name for a in _fields(cls) if a.name != "name"]

        def unstructure(rules: Rules) -> dict[str, Any]:
            return {"name": rules.name, "game": rules.game, **{n: plain(getattr(rules, n)) for n in names}}

        return unstructure

    def is_value(cls: Any) -> bool:
        return isinstance(cls, type) and attrs.has(cls) and not issubclass(cls, Rules)

    conv.register_unstructure_hook_factory(
        lambda t: isinstance(t, type) and issubclass(t, Rules), rules_unstructure
    )
    conv.register_unstructure_hook_factory(is_value, attrs_unstructure)
    conv.register_unstructure_hook(Card, str)
    for kind in (enum.Enum, enum.StrEnum, enum.IntEnum):  # before str and int in a member's class order
        conv.register_unstructure_hook(kind, enum_value)
    conv.register_unstructure_hook_factory(lambda t: _is_tuple(t) or _is_history(t), lambda _: plain)
    conv.register_unstructure_hook(State, lambda state: state_document(conv, state))


def _structure_hooks(
    conv: cattrs.Converter, games: Mapping[str, GameBase[State]], tags: Mapping[str, type]
) -> None:
    """Register the hooks that read the library's values, strictly, naming the JSON path of a failure."""
    from ..state import Match, RoundResult, State, Table, Trick

    names = card_names()
    play_keys = plays_by_key(names)
    by_class = {cls: tag for tag, cls in tags.items()}

    def hook_for(t: Any) -> Callable[[Any, Any], Any]:
        return conv.get_structure_hook(t)

    def sequence(item_type: Any, build: Callable[[Any], Any] = tuple) -> Callable[[Any, Any], Any]:
        plays = item_type is Play or Play in typing.get_args(item_type)
        plain = item_type if item_type in (int, str) else None  # checked in one pass when all is well
        card_items = item_type is Card
        inner = typing.get_args(item_type)[0] if _is_tuple(item_type) else None
        rows = inner if inner in (int, str) and build is tuple else None  # e.g. a score's rows

        def structure(value: Any, _: Any = None) -> Any:
            if type(value) is not list:
                raise Bad(f"expected an array, not {kind_name(value)}")
            if plain is not None and not set(map(type, value)) - {plain}:  # in C
                return build(value)
            if (
                rows is not None
                and not set(map(type, value)) - {list}
                and not set(map(type, itertools.chain.from_iterable(value))) - {rows}
            ):
                return tuple(map(tuple, value))
            if card_items:
                known = known_cards(names, value)
                if known is not None:
                    return known if build is tuple else build(known)
            hook = hook_for(item_type)
            if plays:  # histories and records hold thousands of plays: the usual ones at once
                found = known_plays(value, play_keys)
                if found is not None:
                    for i in gaps(found):
                        try:
                            found[i] = hook(value[i], item_type)
                        except Exception as err:
                            raise At(f"[{i}]", err) from None
                    return build(found)
            out: list[Any] = []
            append = out.append
            for i, item in enumerate(value):  # (a play among them takes `fast_play`'s fast path)
                try:
                    append(hook(item, item_type))
                except Exception as err:
                    raise At(f"[{i}]", err) from None
            return build(out)

        return structure

    def tagged(members: tuple[type, ...]) -> Callable[[Any, Any], Any]:
        allowed = {by_class[m]: m for m in members if m in by_class}
        expected = ", ".join(repr(t) for t in allowed)
        hooks: dict[type, Callable[[Any, Any], Any]] = {}  # each member's hook, looked up once
        plays = "play" in allowed and allowed["play"] is Play

        def structure(value: Any, _: Any = None) -> Any:
            if type(value) is not dict:
                raise Bad(f'expected an object with a "type" ({expected}), not {kind_name(value)}')
            tag = value.get("type")
            if tag == "play" and plays:  # records hold thousands of them
                return fast_play(value)
            cls = allowed.get(tag) if type(tag) is str else None
            if cls is None:
                if "type" not in value:
                    raise Bad(f"missing field 'type' ({expected})", ".type")
                raise Bad(f"type must be one of {expected}, not {quoted(tag)}", ".type")
            hook = hooks.get(cls)
            if hook is None:
                hook = hooks[cls] = hook_for(cls)
            return hook(value, cls)

        return structure

    def union(t: Any) -> Callable[[Any, Any], Any]:
        members = typing.get_args(t)
        options = [m for m in members if m is not type(None)]
        if len(options) < len(members) and len(options) == 1:
            inner = options[0]

            def optional(value: Any, _: Any = None) -> Any:
                return None if value is None else hook_for(inner)(value, inner)

            return optional
        expanded: list[type] = []
        for m in options:
            if m is Decision:
                expanded += [c for c in tags.values() if isinstance(c, type) and issubclass(c, Decision)]
            elif m is Dealt or m in by_class:
                expanded.append(m)
            else:  # `Value` in `Event`: every game's own events
                expanded += [c for c in tags.values() if c not in (Deal,)]
        return tagged(tuple(dict.fromkeys(expanded)))

    def attrs_structure(cls: type, types_: Mapping[str, Any] | None = None) -> Callable[[Any, Any], Any]:
        fields = [(a.alias or a.name, (types_ or {}).get(a.name, a.type)) for a in _fields(cls)]
        known = {key for key, _ in fields}
        tag = by_class.get(cls)

        def structure(value: Any, _: Any = None) -> Any:
            check_object(value, known, tag)
            kwargs = {}
            for key, t in fields:
                if key not in value:
                    raise Bad(f"missing field {key!r}", f".{key}")
                try:
                    kwargs[key] = hook_for(t)(value[key], t)
                except Exception as err:
                    raise At(step(key), err) from None
            return cls(**kwargs)

        return structure

    def game_named(value: dict[str, Any]) -> str:
        """The `"game"` of a rules or score object: one of the converter's games."""
        if "game" not in value:
            raise Bad("missing field 'game'", ".game")
        game = value["game"]
        if type(game) is not str or game not in games:
            raise Bad(f"game must be one of {', '.join(repr(g) for g in games)}, not {quoted(game)}", ".game")
        return game

    def rules_structure(value: Any, _: Any = None) -> Rules:
        if type(value) is not dict:
            raise Bad(f"expected an object, not {kind_name(value)}")
        game = game_named(value)
        body = {k: v for k, v in value.items() if k != "game"}
        rules_type = games[game].rules_type
        own = {a.name for a in _fields(rules_type)}
        for key in body:
            if key not in own and any(key in {a.name for a in _fields(g.rules_type)} for g in games.values()):
                raise Bad(f"option {quoted(key)} does not apply to the {game} game", step(key))
        return attrs_structure(rules_type)(body, rules_type)  # type: ignore[no-any-return]

    def view_structure(value: Any, _: Any = None) -> PlayerView:
        if type(value) is not dict:
            raise Bad(f"expected an object, not {kind_name(value)}")
        if "rules" not in value:
            raise Bad("missing field 'rules'", ".rules")
        try:
            rules = rules_structure(value["rules"])
        except Exception as err:
            raise At(".rules", err) from None
        return view_hooks[rules.game](value, None)  # type: ignore[no-any-return]

    def score_structure(value: Any, _: Any = None) -> Score:
        if type(value) is not dict:
            raise Bad(f"expected an object, not {kind_name(value)}")
        return score_hooks[game_named(value)](value, None)  # type: ignore[no-any-return]

    view_hooks: dict[str, Callable[[Any, Any], Any]] = {}
    score_hooks: dict[str, Callable[[Any, Any], Any]] = {}
    for game in games.values():
        tricks: Any = tuple[game.trick_type, ...]  # type: ignore[name-defined]
        results: Any = tuple[game.result_type, ...]  # type: ignore[name-defined]
        view_hooks[game.name] = attrs_structure(game.view_type, {"tricks": tricks, "results": results})
        score_hooks[game.name] = attrs_structure(game.score_type, {"results": results})

    def state_structure(value: Any, _: Any = None) -> State:
        return structure_state(conv, value)  # (a state is read by replaying its history)

    conv.register_structure_hook(int, plain_int)
    conv.register_structure_hook(bool, plain_bool)
    conv.register_structure_hook(str, plain_str)
    conv.register_structure_hook(Card, plain_card)
    conv.register_structure_hook(typing.Any, plain_any)
    conv.register_structure_hook_factory(_is_tuple, lambda t: sequence(typing.get_args(t)[0]))
    conv.register_structure_hook_factory(
        _is_history, lambda t: sequence((typing.get_args(t) or (Any,))[0], History)
    )
    conv.register_structure_hook_factory(_is_union, union)
    conv.register_structure_hook_factory(
        lambda t: isinstance(t, type) and issubclass(t, enum.Enum), plain_enum
    )
    conv.register_structure_hook_factory(
        lambda t: isinstance(t, type) and issubclass(t, Rules), lambda _: rules_structure
    )
    conv.register_structure_hook_factory(
        lambda t: isinstance(t, type) and issubclass(t, PlayerView), lambda _: view_structure
    )
    conv.register_structure_hook(Score, score_structure)
    conv.register_structure_hook(State, state_structure)
    conv.register_structure_hook(Play, fast_play)
    checked_deal = attrs_structure(Deal)

    def deal_structure(value: Any, _: Any = None) -> Deal:
        return known_deal(names, value) or checked_deal(value, Deal)

    conv.register_structure_hook(Deal, deal_structure)
    for cls in (Dealt, Record, Trick, RoundResult, Table, Match, *tags.values()):
        if cls is not Play and cls is not Deal:
            conv.register_structure_hook(cls, attrs_structure(cls))
    for game in games.values():
        for cls in (game.trick_type, game.result_type, game.table_type, game.match_type):
            conv.register_structure_hook(cls, attrs_structure(cls))
