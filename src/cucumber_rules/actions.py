"""Actions: the chance action `Deal`, a player's `Play`, and the base of games' decisions.

Actions are frozen values. Every player action carries its seat, so logs are
self-describing and "not your turn" can be checked. A game that needs more than
cards (Gurka's revival) adds its own `Decision` classes.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from types import MappingProxyType
from typing import Any, ClassVar, Final, cast

import attrs

from .cards import BY_INDEX, CARD_BY_INDEX, Card, card
from .values import Value

__all__ = ["MAX_SEATS", "PLAYS", "PLAY_OF", "Action", "Deal", "Decision", "Play", "seat_number"]

#: The most seats any game may have; seats are 0..MAX_SEATS-1.
MAX_SEATS: Final = 16


def seat_number(value: Any, what: str = "a seat is an int") -> int:
    """`value` as a plain int: any integer (`operator.index`), but never a bool or a float.

    Raises:
        TypeError: For a bool, a float or anything that is not an integer.

    Example:
        >>> import array
        >>> seat_number(3), seat_number(array.array("q", [2])[0])
        (3, 2)
        >>> seat_number(True)
        Traceback (most recent call last):
        ...
        TypeError: a seat is an int, not bool
    """
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{what}, not {type(value).__name__}")
    return operator.index(value)


def seat_in(value: Any, players: int) -> int:
    """`value` as a seat 0..players-1: a `TypeError` as `seat_number` gives, or a `ValueError`."""
    if type(value) is int and 0 <= value < players:
        return value
    seat = seat_number(value, "seat must be an int")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be a seat 0..{players - 1}, not {seat}")
    return seat


def _to_card(value: Any) -> Card:
    if type(value) is Card or isinstance(value, str):
        return card(value)
    if not isinstance(value, bool) and hasattr(type(value), "__index__"):
        return card(operator.index(value))
    raise TypeError(f"a card must be a Card, card text such as 'QS', or a number, not {type(value).__name__}")


def _to_cards(value: Any) -> tuple[Card, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"expected a sequence of cards, not {type(value).__name__}")
    return tuple(_to_card(v) for v in value)


def _to_hands(value: Any) -> tuple[tuple[Card, ...], ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"hands must be a sequence of card sequences, not {type(value).__name__}")
    return tuple(tuple(sorted(_to_cards(h), key=BY_INDEX)) for h in value)


def _seat(value: Any) -> int:
    seat = seat_number(value)
    if not 0 <= seat < MAX_SEATS:
        raise ValueError(f"a seat is 0..{MAX_SEATS - 1}, not {seat}")
    return seat


def _optional_seat(value: Any) -> int | None:
    return None if value is None else _seat(value)


@attrs.frozen
class Deal(Value):
    """The chance action that deals a round or hand.

    `hands[s]` is the cards of seat `s` (an empty list for a seat that receives
    none, such as an eliminated one); cards may be `Card`s or card text, and each
    hand is kept sorted (the order of a hand carries no meaning). `stock`
    is the undealt deck in order, top first: needed only where cards are revealed
    from the deck (Surprise Cucumber), else optional. `leader` is given only where
    the rules break a tie at random (Catastrophe's next starter).

    Example:
        >>> d = Deal(hands=[["KS", "2C"], ["3H", "AS"]])
        >>> d.hands[0]
        (card('2C'), card('KS'))
    """

    TAG: ClassVar[str] = "deal"
    hands: tuple[tuple[Card, ...], ...] = attrs.field(converter=_to_hands)
    stock: tuple[Card, ...] = attrs.field(default=(), converter=_to_cards)
    leader: int | None = attrs.field(default=None, converter=_optional_seat)
    _drawn_for: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    """A weak reference to the state the library drew this deal for (`sample_chance`, or a complete
    `encoding.Dealing`, which checks it first), set once before the deal is returned (not part of
    the value): `apply` need not check the deal on that state."""
    _held: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    """The hands as `State.held` when the library's dealer drew them (`state.dealt_held`; not part of
    the value)."""

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.hands, self.stock, self.leader)

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        for setter, value in zip(_DEAL_SETTERS, (*values, None, None), strict=True):
            setter(self, value)

    def __str__(self) -> str:
        text = " | ".join(" ".join(str(c) for c in h) or "-" for h in self.hands)
        if self.leader is not None:
            text += f" (leader {self.leader})"
        return f"deal {text}"


_DEAL_SETTERS = tuple(Deal.__dict__[a.name].__set__ for a in attrs.fields(Deal))


#: Mark a deal as drawn (and checked) for a state (`sample_chance` and `Dealing.deal`, once, before
#: anyone else sees the deal).
drawn_for: Final = Deal.__dict__["_drawn_for"].__set__


def trusted_deal(
    hands: tuple[tuple[Card, ...], ...],
    stock: tuple[Card, ...] = (),
    leader: int | None = None,
    held: tuple[tuple[Play, ...], ...] | None = None,
) -> Deal:
    """Build a `Deal` without converting its fields again (internal: the library's own dealer).

    `hands` must be tuples of shared cards, each sorted by card order, as `Deal(...)`
    would make them; anything else should call `Deal(...)`. `held`, when given, must be
    `state.held_cards(hands)`: the deal keeps it for the state it starts (`state.dealt_held`).

    Example:
        >>> from cucumber_rules import card
        >>> trusted_deal(((card("2C"),), (card("3C"),))) == Deal(hands=[["2C"], ["3C"]])
        True
    """
    deal = object.__new__(Deal)
    set_hands, set_stock, set_leader, set_drawn_for, set_held = _DEAL_SETTERS
    set_hands(deal, hands)
    set_stock(deal, stock)
    set_leader(deal, leader)
    set_drawn_for(deal, None)
    set_held(deal, held)
    return deal


@attrs.frozen(eq=False)
class Play(Value):
    """A player plays a card.

    There is one `Play` object for each seat and card: `Play(2, "QS")` returns
    the same object every time, so plays compare (and hash) by identity, quickly,
    in every hand, trick and set of moves. The card may be a `Card`, card text or,
    for numbered decks, its number.

    Example:
        >>> Play(2, "QS") == Play(2, card("QS")), Play(2, "QS") is Play(2, "QS")
        (True, True)
        >>> str(Play(2, "QS")), Play(0, 42).card
        ('seat 2 plays QS', card('42'))
    """

    TAG: ClassVar[str] = "play"
    seat: int = attrs.field(converter=_seat)
    card: Card = attrs.field(converter=_to_card)

    def __new__(cls, seat: Any, card: Any) -> Play:
        return PLAYS[_seat(seat)][_to_card(card).index]

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.seat, str(self.card)))


def _make_plays() -> tuple[tuple[Play, ...], ...]:
    set_seat, set_card = (Play.__dict__[a.name].__set__ for a in attrs.fields(Play))
    rows = []
    for seat in range(MAX_SEATS):
        row: list[Play | None] = []
        for c in CARD_BY_INDEX:
            if c is None:
                row.append(None)
                continue
            p = object.__new__(Play)
            set_seat(p, seat)
            set_card(p, c)
            row.append(p)
        rows.append(tuple(row))
    return cast("tuple[tuple[Play, ...], ...]", tuple(rows))


PLAYS: Final = _make_plays()
"""`PLAYS[seat][card.index]`: the one `Play` of each seat and card (indexes that name no card hold None).

Example:
    >>> from cucumber_rules import card
    >>> PLAYS[1][card("QS").index] is Play(1, "QS")
    True
"""


PLAY_OF: Final = tuple(MappingProxyType({p.card: p for p in row if p is not None}) for row in PLAYS)
"""`PLAY_OF[seat][card]`: the one `Play` of each seat and card, looked up by the card.

Example:
    >>> from cucumber_rules import card
    >>> PLAY_OF[1][card("QS")] is Play(1, "QS")
    True
"""


@attrs.frozen
class Decision(Value):
    """The base of a game's decision actions: a seat's choice that is not a card (e.g. `Revive`).

    A game lists its decision classes in `Game.decisions`; each has a `TAG` for
    JSON and a `seat`.

    Example:
        >>> import cucumber_rules as cr
        >>> isinstance(cr.Revive(1, True), Decision)
        True
    """

    TAG: ClassVar[str] = "decision"
    seat: int = attrs.field(converter=_seat)


Action = Deal | Play | Decision
"""Any action: a [`Deal`][cucumber_rules.Deal], a [`Play`][cucumber_rules.Play] or a game's
[`Decision`][cucumber_rules.Decision] (such as [`Revive`][cucumber_rules.Revive]).

Example:
    >>> isinstance(Play(0, "QS"), Action)
    True
"""
