"""The cattrs converter: the library's values to and from JSON-ready data, strictly, with JSON paths.

`make_converter(converter=None)` registers the library's hooks on a converter
(yours, or a new one) and returns it, as lsprotocol's `get_converter` does. Cards
become strings, actions and events objects tagged with `"type"`, histories and
tuples lists, rules an object naming its `"game"`. Structuring is strict: JSON
types must match exactly, every field is required, unknown keys are rejected,
and a failure names the JSON path of the bad value. What depends on the game
(a view's tricks and results, a rule set's options) is read through the
registered games.
"""

from __future__ import annotations

import enum
import itertools
import json
import operator
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs
import cattrs

from .. import _registry
from .._paths import At, Bad, cause_message, kind_name, locate, step
from ..actions import MAX_SEATS, PLAYS, Deal, Decision, Play, trusted_deal
from ..cards import BY_INDEX, CARD_BY_INDEX, Card, card
from ..errors import InvalidNotationError
from ..history import History
from ..records import Record
from ..rules import Rules
from ..scoring import Score
from ..views import Dealt, PlayerView
from .validation import state_document

if TYPE_CHECKING:
    from ..games import Game

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


# --------------------------------------------------------------------------- plain values


def _int(value: Any, _: Any = None) -> int:
    if type(value) is not int:
        raise Bad(f"expected an integer, not {kind_name(value)}")
    return value


def _bool(value: Any, _: Any = None) -> bool:
    if type(value) is not bool:
        raise Bad(f"expected true or false, not {kind_name(value)}")
    return value


def _str(value: Any, _: Any = None) -> str:
    if type(value) is not str:
        raise Bad(f"expected a string, not {kind_name(value)}")
    return value


_CARDS: Final[dict[str, Card]] = {}


def _card(value: Any, _: Any = None) -> Card:
    found = _CARDS.get(value) if type(value) is str else None
    if found is not None:
        return found
    if type(value) is not str:
        raise Bad(f'expected a card such as "QS" or "42", not {kind_name(value)}')
    try:
        found = card(value)
    except InvalidNotationError as err:
        raise Bad(str(err)) from None
    if len(_CARDS) < 1024:  # canonical and common spellings: a bounded memo
        _CARDS[value] = found
    return found


def _any(value: Any, _: Any = None) -> Any:
    return value


# --------------------------------------------------------------------------- records' fast paths


def _card_names() -> dict[str, Card]:
    """Every card by its canonical name (`"10H"`, `"42"`), as `card` reads it.

    Example:
        >>> _card_names()["10H"] is card("10H")
        True
    """
    names = (str(c) for c in CARD_BY_INDEX if c is not None)
    return {name: card(name) for name in names}


def _play_keys(names: Mapping[str, Card]) -> dict[tuple[Any, ...], Play]:
    """Each `Play` by the key `_known_plays` makes of its object: tag, seat type, seat, card, size.

    Example:
        >>> _play_keys(_card_names())[("play", int, 2, "10H", 3)] is Play(2, "10H")
        True
    """
    return {
        ("play", int, seat, name, 3): PLAYS[seat][c.index]
        for seat in range(len(PLAYS))
        for name, c in names.items()
    }


def _known_plays(items: list[Any], keys: Mapping[tuple[Any, ...], Play]) -> list[Play | None] | None:
    """Each item's `Play` where it is a play of a seat and a canonical card name, else None.

    A speed trick for records and histories, which hold thousands of plays: the items'
    `"type"`, `"seat"` and `"card"` are looked up in C loops (`map`) rather than one item at
    a time. The key holds the seat's exact type and the object's size too, so only an object
    of exactly those three fields with an int seat finds its play, as on `_play`'s fast path.
    None for the whole list if an item is not an object or holds an unhashable value.

    Example:
        >>> plays = _known_plays([{"type": "play", "seat": 1, "card": "2C"}, {"type": "deal"}],
        ...                      _play_keys(_card_names()))
        >>> plays[0] is Play(1, "2C"), plays[1]
        (True, None)
    """
    if set(map(type, items)) - {dict}:
        return None
    get, repeat = dict.get, itertools.repeat
    seats = list(map(get, items, repeat("seat")))
    try:
        return list(
            map(
                keys.get,
                zip(
                    map(get, items, repeat("type")),
                    map(type, seats),
                    seats,
                    map(get, items, repeat("card")),
                    map(len, items),
                    strict=True,
                ),
            )
        )
    except TypeError:  # an unhashable value: the caller's loop names it
        return None


def _gaps(items: list[Any]) -> list[int]:
    """The indexes of the Nones in `items`, found in C loops.

    Example:
        >>> _gaps([1, None, 2, None])
        [1, 3]
    """
    return list(itertools.compress(itertools.count(), map(operator.is_, items, itertools.repeat(None))))


def _known_cards(names: Mapping[str, Card], items: Any) -> tuple[Card, ...] | None:
    """The cards named by a list of canonical card names, looked up in a C loop; else None.

    Example:
        >>> _known_cards(_card_names(), ["2C", "10H"]), _known_cards(_card_names(), ["TH"])
        ((card('2C'), card('10H')), None)
    """
    if type(items) is not list:
        return None
    try:
        return tuple(map(names.__getitem__, items))
    except (KeyError, TypeError):  # another spelling, or not a string: the checked path
        return None


_DEAL_KEYS: Final = frozenset({"type", "hands", "stock", "leader"})


def _known_deal(names: Mapping[str, Card], value: Any) -> Deal | None:
    """A deal whose cards all have canonical names, built without `Deal`'s converters; else None.

    A speed trick for records and histories (a deal for every round): the cards are looked
    up in C loops and each hand sorted by card order, as `Deal(...)` sorts it, then handed
    to `trusted_deal`. The leader must be None or a seat, as `Deal(...)` requires. Anything
    else (another spelling, a wrong type, a missing or unknown field) returns None, for
    the checked path to accept or name.

    Example:
        >>> deal = {"type": "deal", "hands": [["KS", "2C"], []], "stock": [], "leader": None}
        >>> _known_deal(_card_names(), deal) == Deal(hands=[["KS", "2C"], []])
        True
    """
    if type(value) is not dict or value.keys() != _DEAL_KEYS or value["type"] != "deal":
        return None
    hands, leader = value["hands"], value["leader"]
    if leader is not None and not (type(leader) is int and 0 <= leader < MAX_SEATS):
        return None
    if type(hands) is not list:
        return None
    dealt = []
    for hand in hands:
        cards = _known_cards(names, hand)
        if cards is None:
            return None
        dealt.append(tuple(sorted(cards, key=BY_INDEX)))
    stock = _known_cards(names, value["stock"])
    if stock is None:
        return None
    return trusted_deal(tuple(dealt), stock, leader)


# --------------------------------------------------------------------------- the converter


def tagged_classes(games: Iterable[Game[Any]] | None = None) -> dict[str, type]:
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
    games: Mapping[str, Game[Any]], converter: cattrs.Converter | None = None
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
        >>> conv.structure({"name": "cat", "game": "catastrophe"}, cr.Rules)
        Traceback (most recent call last):
        ...
        cucumber_rules.serialization.converter.Bad: $.game: game must be one of 'ladder', not 'catastrophe'
    """
    from ..state import Match, RoundResult, State, Table, Trick

    conv = converter if converter is not None else cattrs.Converter()
    tags = tagged_classes(games.values())
    names = _card_names()
    play_keys = _play_keys(names)
    by_class = {cls: tag for tag, cls in tags.items()}

    # ----------------------------------------------------------------- unstructuring (by runtime type)

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
        head = {"type": tag} if tag is not None else {}

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
        conv.register_unstructure_hook(kind, _enum_value)
    conv.register_unstructure_hook_factory(lambda t: _is_tuple(t) or _is_history(t), lambda _: plain)
    conv.register_unstructure_hook(State, lambda state: state_document(conv, state))

    # ----------------------------------------------------------------- structuring (strict, with paths)

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
                known = _known_cards(names, value)
                if known is not None:
                    return known if build is tuple else build(known)
            hook = hook_for(item_type)
            if plays:  # histories and records hold thousands of plays: the usual ones at once
                found = _known_plays(value, play_keys)
                if found is not None:
                    for i in _gaps(found):
                        try:
                            found[i] = hook(value[i], item_type)
                        except Exception as err:
                            raise At(f"[{i}]", err) from None
                    return build(found)
            out: list[Any] = []
            append = out.append
            if plays:  # histories and records hold thousands of plays: the usual ones inline
                cards, table, seats = _CARDS, PLAYS, len(PLAYS)
                for i, item in enumerate(value):
                    if type(item) is dict and len(item) == 3 and item.get("type") == "play":
                        seat, name = item.get("seat"), item.get("card")
                        if type(seat) is int and 0 <= seat < seats and type(name) is str:
                            c = cards.get(name)
                            if c is not None:
                                append(table[seat][c.index])
                                continue
                    try:
                        append(hook(item, item_type))
                    except Exception as err:
                        raise At(f"[{i}]", err) from None
                return build(out)
            for i, item in enumerate(value):
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
                return _play(value)
            cls = allowed.get(tag) if type(tag) is str else None
            if cls is None:
                if "type" not in value:
                    raise Bad(f"missing field 'type' ({expected})", ".type")
                raise Bad(f"type must be one of {expected}, not {tag!r}", ".type")
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
            if type(value) is not dict:
                raise Bad(f"expected an object, not {kind_name(value)}")
            if tag is not None and value.get("type") != tag:
                raise Bad(f"expected type {tag!r}, not {value.get('type')!r}", ".type")
            for key in value:
                if key not in known and not (tag is not None and key == "type"):
                    raise Bad(f"unknown field {key!r}", step(key))
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

    def rules_structure(value: Any, _: Any = None) -> Rules:
        if type(value) is not dict:
            raise Bad(f"expected an object, not {kind_name(value)}")
        if "game" not in value:
            raise Bad("missing field 'game'", ".game")
        game = value["game"]
        if type(game) is not str or game not in games:
            raise Bad(f"game must be one of {', '.join(repr(g) for g in games)}, not {game!r}", ".game")
        body = {k: v for k, v in value.items() if k != "game"}
        rules_type = games[game].rules_type
        own = {a.name for a in _fields(rules_type)}
        for key in body:
            if key not in own and any(key in {a.name for a in _fields(g.rules_type)} for g in games.values()):
                raise Bad(f"option {key!r} does not apply to the {game} game", step(key))
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
        game = value.get("game")
        if "game" not in value:
            raise Bad("missing field 'game'", ".game")
        if type(game) is not str or game not in games:
            raise Bad(f"game must be one of {', '.join(repr(g) for g in games)}, not {game!r}", ".game")
        return score_hooks[game](value, None)  # type: ignore[no-any-return]

    view_hooks: dict[str, Callable[[Any, Any], Any]] = {}
    score_hooks: dict[str, Callable[[Any, Any], Any]] = {}
    for game in games.values():
        tricks: Any = tuple[game.trick_type, ...]  # type: ignore[name-defined]
        results: Any = tuple[game.result_type, ...]  # type: ignore[name-defined]
        view_hooks[game.name] = attrs_structure(game.view_type, {"tricks": tricks, "results": results})
        score_hooks[game.name] = attrs_structure(game.score_type, {"results": results})

    def state_structure(value: Any, _: Any = None) -> State:
        from .validation import structure_state  # (validation reads a state by replaying it)

        return structure_state(conv, value)

    conv.register_structure_hook(int, _int)
    conv.register_structure_hook(bool, _bool)
    conv.register_structure_hook(str, _str)
    conv.register_structure_hook(Card, _card)
    conv.register_structure_hook(typing.Any, _any)
    conv.register_structure_hook_factory(_is_tuple, lambda t: sequence(typing.get_args(t)[0]))
    conv.register_structure_hook_factory(
        _is_history, lambda t: sequence((typing.get_args(t) or (Any,))[0], History)
    )
    conv.register_structure_hook_factory(_is_union, union)
    conv.register_structure_hook_factory(lambda t: isinstance(t, type) and issubclass(t, enum.Enum), _enum)
    conv.register_structure_hook_factory(
        lambda t: isinstance(t, type) and issubclass(t, Rules), lambda _: rules_structure
    )
    conv.register_structure_hook_factory(
        lambda t: isinstance(t, type) and issubclass(t, PlayerView), lambda _: view_structure
    )
    conv.register_structure_hook(Score, score_structure)
    conv.register_structure_hook(State, state_structure)
    conv.register_structure_hook(Play, _play)
    checked_deal = attrs_structure(Deal)

    def deal_structure(value: Any, _: Any = None) -> Deal:
        return _known_deal(names, value) or checked_deal(value, Deal)

    conv.register_structure_hook(Deal, deal_structure)
    for cls in (Dealt, Record, Trick, RoundResult, Table, Match, *tags.values()):
        if cls is not Play and cls is not Deal:
            conv.register_structure_hook(cls, attrs_structure(cls))
    for game in games.values():
        for cls in (game.trick_type, game.result_type, game.table_type, game.match_type):
            conv.register_structure_hook(cls, attrs_structure(cls))
    return conv


def _play(value: Any, _: Any = None) -> Play:
    """A play, structured on a fast path (records hold thousands of them)."""
    if type(value) is dict and len(value) == 3 and value.get("type") == "play":
        seat, name = value.get("seat"), value.get("card")
        c = _CARDS.get(name) if type(name) is str else None
        if c is not None and type(seat) is int and 0 <= seat < len(PLAYS):
            return PLAYS[seat][c.index]
    if type(value) is not dict:
        raise Bad(f"expected an object, not {kind_name(value)}")
    if value.get("type") != "play":
        raise Bad(f"expected type 'play', not {value.get('type')!r}", ".type")
    for key in value:
        if key not in ("type", "seat", "card"):
            raise Bad(f"unknown field {key!r}", step(key))
    for key in ("seat", "card"):
        if key not in value:
            raise Bad(f"missing field {key!r}", f".{key}")
    try:
        seat = _int(value["seat"])
        if not 0 <= seat < len(PLAYS):
            raise Bad(f"a seat is 0..{len(PLAYS) - 1}, not {seat}")
    except Exception as err:
        raise At(".seat", err) from None
    try:
        c = _card(value["card"])
    except Exception as err:
        raise At(".card", err) from None
    return PLAYS[seat][c.index]


def _enum_value(member: enum.Enum) -> Any:
    return member.value


def _enum(t: type[enum.Enum]) -> Callable[[Any, Any], Any]:
    values = {m.value: m for m in t}
    expected = ", ".join(json.dumps(v) for v in values)

    def structure(value: Any, _: Any = None) -> Any:
        member = values.get(value) if type(value) is str else None
        if member is None:
            found = json.dumps(value) if type(value) is str else kind_name(value)
            raise Bad(f"expected one of {expected}, not {found}")
        return member

    return structure
