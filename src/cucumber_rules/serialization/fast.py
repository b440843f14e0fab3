"""The fast paths of records and histories, which hold thousands of plays and a deal for every round.

A play or a deal written as the library writes it (canonical card names, exactly its fields)
is looked up rather than checked field by field, most of it in C loops; anything else
returns None (or takes the checked path), where the converter accepts it or names what is
wrong. Every speed trick of reading documents lives here.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Mapping
from typing import Any, Final

from .._paths import At, Bad
from ..actions import MAX_SEATS, PLAYS, Deal, Play, trusted_deal
from ..cards import BY_INDEX, CARD_BY_INDEX, Card, card
from .plain import CARDS_BY_NAME, check_object, plain_card, plain_int


def card_names() -> dict[str, Card]:
    """Every card by its canonical name (`"10H"`, `"42"`), as `card` reads it.

    Example:
        >>> card_names()["10H"] is card("10H")
        True
    """
    names = (str(c) for c in CARD_BY_INDEX if c is not None)
    return {name: card(name) for name in names}


def plays_by_key(names: Mapping[str, Card]) -> dict[tuple[Any, ...], Play]:
    """Each `Play` by the key `known_plays` makes of its object: tag, seat type, seat, card, size.

    Example:
        >>> plays_by_key(card_names())[("play", int, 2, "10H", 3)] is Play(2, "10H")
        True
    """
    return {
        ("play", int, seat, name, 3): PLAYS[seat][c.index]
        for seat in range(len(PLAYS))
        for name, c in names.items()
    }


def known_plays(items: list[Any], keys: Mapping[tuple[Any, ...], Play]) -> list[Play | None] | None:
    """Each item's `Play` where it is a play of a seat and a canonical card name, else None.

    A speed trick for records and histories, which hold thousands of plays: the items'
    `"type"`, `"seat"` and `"card"` are looked up in C loops (`map`) rather than one item at
    a time. The key holds the seat's exact type and the object's size too, so only an object
    of exactly those three fields with an int seat finds its play, as on `_known_play`'s fast path.
    None for the whole list if an item is not an object or holds an unhashable value.

    Example:
        >>> plays = known_plays([{"type": "play", "seat": 1, "card": "2C"}, {"type": "deal"}],
        ...                      plays_by_key(card_names()))
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


def gaps(items: list[Any]) -> list[int]:
    """The indexes of the Nones in `items`, found in C loops.

    Example:
        >>> gaps([1, None, 2, None])
        [1, 3]
    """
    return list(itertools.compress(itertools.count(), map(operator.is_, items, itertools.repeat(None))))


def known_cards(names: Mapping[str, Card], items: Any) -> tuple[Card, ...] | None:
    """The cards named by a list of canonical card names, looked up in a C loop; else None.

    Example:
        >>> known_cards(card_names(), ["2C", "10H"]), known_cards(card_names(), ["TH"])
        ((card('2C'), card('10H')), None)
    """
    if type(items) is not list:
        return None
    try:
        return tuple(map(names.__getitem__, items))
    except (KeyError, TypeError):  # another spelling, or not a string: the checked path
        return None


_DEAL_KEYS: Final = frozenset({"type", "hands", "stock", "leader"})


def known_deal(names: Mapping[str, Card], value: Any) -> Deal | None:
    """A deal whose cards all have canonical names, built without `Deal`'s converters; else None.

    A speed trick for records and histories (a deal for every round): the cards are looked
    up in C loops and each hand sorted by card order, as `Deal(...)` sorts it, then handed
    to `trusted_deal`. The leader must be None or a seat, as `Deal(...)` requires. Anything
    else (another spelling, a wrong type, a missing or unknown field) returns None, for
    the checked path to accept or name.

    Example:
        >>> deal = {"type": "deal", "hands": [["KS", "2C"], []], "stock": [], "leader": None}
        >>> known_deal(card_names(), deal) == Deal(hands=[["KS", "2C"], []])
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
        cards = known_cards(names, hand)
        if cards is None:
            return None
        dealt.append(tuple(sorted(cards, key=BY_INDEX)))
    stock = known_cards(names, value["stock"])
    if stock is None:
        return None
    return trusted_deal(tuple(dealt), stock, leader)


def _known_play(value: Any) -> Play | None:
    """The play an object names, on the fast path; else None, for `fast_play`'s checked path.

    The fast path takes an object of exactly `"type": "play"`, an int `"seat"` of a seat and a
    `"card"` spelled as a card read before (`plain_card` keeps the spellings it met): one dict lookup,
    no check field by field. `known_plays` takes the same objects, a list at once.

    Example:
        >>> play = {"type": "play", "seat": 1, "card": "2C"}
        >>> fast_play(play) is Play(1, "2C")  # (read once: the card's name is known from then on)
        True
        >>> _known_play(play) is Play(1, "2C"), _known_play({**play, "seat": "1"})
        (True, None)
    """
    if type(value) is dict and len(value) == 3 and value.get("type") == "play":
        seat, name = value.get("seat"), value.get("card")
        c = CARDS_BY_NAME.get(name) if type(name) is str else None
        if c is not None and type(seat) is int and 0 <= seat < len(PLAYS):
            return PLAYS[seat][c.index]
    return None


def fast_play(value: Any, _: Any = None) -> Play:
    """A play: on the fast path (`_known_play`), else read field by field, naming what is wrong.

    Example:
        >>> fast_play({"type": "play", "seat": 1, "card": "TH"})
        Play(seat=1, card=card('10H'))
        >>> import cucumber_rules as cr
        >>> try:
        ...     fast_play({"type": "play", "seat": -1, "card": "TH"})
        ... except cr.InvalidStateError as err:
        ...     print(err)
        $.seat: a seat is 0..15, not -1
    """
    found = _known_play(value)
    if found is not None:
        return found
    check_object(value, ("seat", "card"), "play")
    for key in ("seat", "card"):
        if key not in value:
            raise Bad(f"missing field {key!r}", f".{key}")
    try:
        seat = plain_int(value["seat"])
        if not 0 <= seat < len(PLAYS):
            raise Bad(f"a seat is 0..{len(PLAYS) - 1}, not {seat}")
    except Exception as err:
        raise At(".seat", err) from None
    try:
        c = plain_card(value["card"])
    except Exception as err:
        raise At(".card", err) from None
    return PLAYS[seat][c.index]
