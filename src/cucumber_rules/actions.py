"""Actions: the chance action `Deal` and the players' `Play` and `Revive`.

Actions are frozen values. Every player action carries its seat, so logs are
self-describing and "not your turn" can be checked.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any, ClassVar

import attrs

from .cards import Card, card

__all__ = ["Action", "Deal", "Play", "Revive"]


_INDEX = attrgetter("index")


def _to_card(value: Any) -> Card:
    if type(value) is Card or isinstance(value, str):
        return card(value)
    raise TypeError(f"a card must be a Card or card text such as 'QS', not {type(value).__name__}")


def _to_cards(value: Any) -> tuple[Card, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"expected a sequence of cards, not {type(value).__name__}")
    return tuple(_to_card(v) for v in value)


def _to_hands(value: Any) -> tuple[tuple[Card, ...], ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"hands must be a sequence of card sequences, not {type(value).__name__}")
    return tuple(tuple(sorted(_to_cards(h), key=_INDEX)) for h in value)


def _seat(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"a seat is an int, not {type(value).__name__}")
    return value


def _optional_seat(value: Any) -> int | None:
    return None if value is None else _seat(value)


@attrs.frozen
class Deal:
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

    def __str__(self) -> str:
        text = " | ".join(" ".join(str(c) for c in h) or "-" for h in self.hands)
        if self.leader is not None:
            text += f" (leader {self.leader})"
        return f"deal {text}"


_DEAL_SETTERS = tuple(Deal.__dict__[a.name].__set__ for a in attrs.fields(Deal))


def trusted_deal(
    hands: tuple[tuple[Card, ...], ...], stock: tuple[Card, ...] = (), leader: int | None = None
) -> Deal:
    """Build a `Deal` without converting its fields again (internal: the library's own dealer).

    `hands` must be tuples of shared cards, each sorted by card order, as `Deal(...)`
    would make them; anything else should call `Deal(...)`.

    Example:
        >>> from cucumber_rules import card
        >>> trusted_deal(((card("2C"),), (card("3C"),))) == Deal(hands=[["2C"], ["3C"]])
        True
    """
    deal = object.__new__(Deal)
    set_hands, set_stock, set_leader = _DEAL_SETTERS
    set_hands(deal, hands)
    set_stock(deal, stock)
    set_leader(deal, leader)
    return deal


@attrs.frozen
class Play:
    """A player plays a card.

    Example:
        >>> Play(2, "QS") == Play(2, card("QS"))
        True
        >>> str(Play(2, "QS"))
        'seat 2 plays QS'
    """

    TAG: ClassVar[str] = "play"
    seat: int = attrs.field(converter=_seat)
    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@attrs.frozen
class Revive:
    """An eliminated player's decision to buy back in (`accept=True`) or not (revival rule).

    Example:
        >>> str(Revive(1, True))
        'seat 1 buys back in'
    """

    TAG: ClassVar[str] = "revive"
    seat: int = attrs.field(converter=_seat)
    accept: bool = attrs.field(validator=attrs.validators.instance_of(bool))

    def __str__(self) -> str:
        return f"seat {self.seat} " + ("buys back in" if self.accept else "stays out")


Action = Deal | Play | Revive
"""Any action: a [`Deal`][cucumber_rules.Deal], a [`Play`][cucumber_rules.Play] or a
[`Revive`][cucumber_rules.Revive].

Example:
    >>> isinstance(Play(0, "QS"), Action)
    True
"""
