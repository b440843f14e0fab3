"""Cards, card notation and the decks of the Cucumber family.

Every card the library hands out is *interned*: there is exactly one `Card`
object per distinct card, so identical copies in the Five Cucumbers deck are
the same object, and comparisons in the hot path are identity checks.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Final

import attrs

from .errors import IllegalMoveError, InvalidNotationError
from .values import Value

__all__ = ["DECKS", "SUITS", "Card", "card", "card_list", "deck_cards", "not_in_hand", "rank_label"]

#: Suit letters, in ascending sort order (clubs, diamonds, hearts, spades).
SUITS = ("C", "D", "H", "S")
_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
_FACE = {11: "J", 12: "Q", 13: "K", 14: "A"}
_FACE_PARSE = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}
_SUITED_BASE = 64  # numbered cards use indexes 1..60; suited cards start here


@attrs.frozen(eq=False, repr=False, cache_hash=False)
class Card(Value):
    """One playing card.

    A suited card of a 52-card deck has `rank` 2..14 (J=11, Q=12, K=13, A=14)
    and a `suit` letter; a card of a numbered deck (Five Cucumbers, Catastrophe)
    has its printed number as `rank` and no suit. Cards are equal when rank and
    suit are equal, and order by rank, then suit (clubs < diamonds < hearts <
    spades).

    There is exactly one instance of each card: `Card(12, "S")` returns the
    same object as `card("QS")`, so equality is identity. Build cards from text
    with [`card`][cucumber_rules.card].

    Example:
        >>> card("QS").rank, card("QS").suit
        (12, 'S')
        >>> str(card("10H")), card("7") < card("42"), Card(12, "S") is card("QS")
        ('10H', True, True)
    """

    rank: int
    """The rank: 2..14 for suited cards (A=14), or the printed number."""
    suit: str | None = None
    """`"S"`, `"H"`, `"D"` or `"C"`; `None` for numbered cards."""
    index: int = attrs.field(init=False, repr=False)
    """A small integer unique to the card and increasing with its sort order."""

    def __attrs_post_init__(self) -> None:
        if type(self.rank) is not int:
            raise TypeError(f"card rank must be an int, not {type(self.rank).__name__}")
        if self.suit is None:
            if not 1 <= self.rank <= 60:
                raise InvalidNotationError(f"no numbered card {self.rank}: numbers run 1..60")
            index = self.rank
        else:
            if self.suit not in SUITS:
                raise InvalidNotationError(f"no suit {self.suit!r}: suits are S, H, D, C")
            if not 2 <= self.rank <= 14:
                raise InvalidNotationError(f"no suited card of rank {self.rank}: ranks run 2..14")
            index = _SUITED_BASE + (self.rank - 2) * 4 + SUITS.index(self.suit)
        object.__setattr__(self, "index", index)

    def __new__(cls, rank: int, suit: str | None = None) -> Card:
        # Every card exists once: Card(12, "S") is card("QS"). Equality and
        # hashing are then object identity (eq=False keeps object's own, at C
        # speed), in every hand, trick and set of cards.
        if type(rank) is int and (suit is None or type(suit) is str):
            found = _INTERNED.get((rank, suit))
            if found is not None:
                return found
        return super().__new__(cls)

    # Identity equality, written out: a class that defines ordering in Python gets
    # CPython's generic comparison slot, and inheriting object's `__eq__` through
    # it is slower than this. The hash stays object's own (C).
    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __str__(self) -> str:
        if self.suit is None:
            return str(self.rank)
        return rank_label(self.rank) + self.suit

    def __repr__(self) -> str:
        return f"card({str(self)!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (card, (str(self),))


def rank_label(rank: int, *, suited: bool = True) -> str:
    """Return how a rank is written: `"Q"` for 12 on a 52-card deck, else the number.

    Example:
        >>> rank_label(12), rank_label(10), rank_label(12, suited=False)
        ('Q', '10', '12')
    """
    if suited:
        return _FACE.get(rank, str(rank))
    return str(rank)


_INTERNED: dict[tuple[int, str | None], Card] = {}
for _rank in range(1, 61):
    _INTERNED[(_rank, None)] = Card(_rank)
for _rank in range(2, 15):
    for _suit in SUITS:
        _INTERNED[(_rank, _suit)] = Card(_rank, _suit)

#: Every interned card by its index (None where no card has that index).
CARD_BY_INDEX: tuple[Card | None, ...] = tuple(
    next((c for c in _INTERNED.values() if c.index == i), None) for i in range(_SUITED_BASE + 52)
)


#: The card order as a sort key (`Card.index`): a `Deal` keeps its hands sorted by it.
BY_INDEX: Final = operator.attrgetter("index")


def intern(c: Card) -> Card:
    """Return the shared instance equal to `c` (internal helper)."""
    found = CARD_BY_INDEX[c.index]
    assert found is not None
    return found


def card(text: str | Card | int) -> Card:
    """Parse card notation and return the shared `Card`.

    Accepts `"QS"`, `"10H"`, `"TH"`, `"A♠"`, lower case, and numbered cards
    `"7"`, `"42"` (ASCII digits only), or the number itself, `42`. A `Card` is
    returned as its shared instance.

    Args:
        text: The card's notation, or the number of a numbered card.

    Returns:
        The card.

    Raises:
        InvalidNotationError: If the text is not a card.
        TypeError: If `text` is neither a string, a Card nor an integer (`bool` is refused).

    Example:
        >>> card("A♠") == card("as") == card("AS")
        True
        >>> card("TH"), card("42"), card(42)
        (card('10H'), card('42'), card('42'))
    """
    if type(text) is Card:
        return intern(text)
    if not isinstance(text, str):
        if isinstance(text, bool) or not hasattr(type(text), "__index__"):
            raise TypeError(
                f"a card is written as a string such as 'QS' or '42' (or a number), not {type(text).__name__}"
            )
        number = operator.index(text)  # type: ignore[arg-type]
        found = _INTERNED.get((number, None))
        if found is None:
            raise InvalidNotationError(f"{number} is not a card: numbered cards run 1..60")
        return found
    raw = text.strip().upper()
    if not raw or len(raw) > 3:
        raise InvalidNotationError(f"{text!r} is not a card: write e.g. 'QS', '10H', 'A♠' or '42'")
    if raw.isascii() and raw.isdigit():
        number = int(raw)
        found = _INTERNED.get((number, None))
        if found is None:
            raise InvalidNotationError(f"{text!r} is not a card: numbered cards run 1..60")
        return found
    suit = _SUIT_SYMBOLS.get(raw[-1], raw[-1])
    rank_text = raw[:-1]
    if not rank_text:  # one character that is no number: a rank without its suit, or no card at all
        raise InvalidNotationError(
            f"{text!r} is not a card: a suited card is a rank and a suit, e.g. 'QS' or '10H' "
            "(numbered cards 1..60)"
        )
    if rank_text in _FACE_PARSE:
        rank = _FACE_PARSE[rank_text]
    elif rank_text.isascii() and rank_text.isdigit():
        rank = int(rank_text)
    else:
        raise InvalidNotationError(f"{text!r} is not a card: unknown rank {rank_text!r}")
    found = _INTERNED.get((rank, suit))
    if found is None:
        raise InvalidNotationError(f"{text!r} is not a card: ranks are 2-10, J, Q, K, A and suits S, H, D, C")
    return found


def card_list(cards: Iterable[Card]) -> str:
    """Cards as text for messages: each distinct card once, comma-separated, in the given order.

    Example:
        >>> card_list([card("3C"), card("KS"), card("3C")])
        '3C, KS'
    """
    return ", ".join(str(c) for c in dict.fromkeys(cards))


def not_in_hand(
    seat: int, played: Card, hand: Iterable[Card], action: object, deck: str | None = None
) -> IllegalMoveError:
    """The `not-in-hand` error for a card that the seat does not hold (every game's wording).

    Given the name of the game's deck (`Rules.deck`), a card that is not in that deck is called so.

    Example:
        >>> not_in_hand(2, card("9H"), [card("3C")], None).message
        'seat 2 cannot play 9H: it is not in their hand (they hold 3C)'
        >>> not_in_hand(2, card("5"), [card("3C")], None, deck="standard-52").message
        'seat 2 cannot play 5: it is not a card of the standard-52 deck (they hold 3C)'
    """
    where = "in their hand"
    if deck is not None and played not in DECKS[deck]:
        where = f"a card of the {deck} deck"
    return IllegalMoveError(
        "not-in-hand",
        f"seat {seat} cannot play {played}: it is not {where} (they hold {card_list(hand)})",
        seat=seat,
        action=action,
    )


def _numbered(copies: int, top: int) -> tuple[Card, ...]:
    return tuple(_INTERNED[(r, None)] for r in range(1, top + 1) for _ in range(copies))


DECKS: Mapping[str, tuple[Card, ...]] = MappingProxyType(
    {
        "standard-52": tuple(_INTERNED[(r, s)] for r in range(2, 15) for s in SUITS),
        "five-cucumbers-60": _numbered(4, 15),
        "numbered-60": _numbered(1, 60),
    }
)
"""The decks by name: each a sorted tuple of its cards (copies repeated).

Example:
    >>> {name: len(cards) for name, cards in DECKS.items()}
    {'standard-52': 52, 'five-cucumbers-60': 60, 'numbered-60': 60}
    >>> DECKS["five-cucumbers-60"][:5]
    (card('1'), card('1'), card('1'), card('1'), card('2'))
"""


def deck_cards(name: str) -> tuple[Card, ...]:
    """Return the cards of a deck by name, sorted.

    Example:
        >>> len(deck_cards("standard-52")), deck_cards("five-cucumbers-60")[:5]
        (52, (card('1'), card('1'), card('1'), card('1'), card('2')))
    """
    return DECKS[name]
