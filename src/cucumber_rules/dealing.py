"""Dealing, shared by every game: checking a given deal and drawing a random one.

This module is public for game authors: a [`Game`][cucumber_rules.Game]'s
`deal_error`, `sample_deal` and `start_round` are usually a few lines around it.

- [`deal_error`][cucumber_rules.dealing.deal_error] checks a `Deal` a caller
  gives (hand sizes, seats dealt in, cards of the deck, the stock) and returns
  the `bad-deal` error, or None;
- [`shuffled_deal`][cucumber_rules.dealing.shuffled_deal] draws a random deal
  with the caller's `random.Random` (never the global one);
- [`after_table`][cucumber_rules.dealing.after_table],
  [`next_seat`][cucumber_rules.dealing.next_seat] and
  [`previous_seat`][cucumber_rules.dealing.previous_seat] find who plays next
  among the seats dealt in (a `Table`'s `after`);
- [`deck_limits`][cucumber_rules.dealing.deck_limits] says how often a deck holds each card, and
  [`deck_members`][cucumber_rules.dealing.deck_members] whether it holds each once.

Example:
    >>> import random
    >>> import cucumber_rules as cr
    >>> deck = cr.DECKS["standard-52"]
    >>> deal = shuffled_deal(random.Random(3), deck, players=3, seats=(0, 1, 2), per=2, stock=False)
    >>> deal_error(deal, players=3, seats=(0, 1, 2), per=2, deck=deck) is None
    True
    >>> after_table((0, 1, 2), 3)
    (1, 2, 0)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from operator import itemgetter

from .actions import PLAYS, Deal, Play, trusted_deal
from .cards import CARD_BY_INDEX, Card
from .errors import IllegalMoveError

__all__ = [
    "after_table",
    "deal_error",
    "deck_indexes",
    "deck_limits",
    "deck_members",
    "next_seat",
    "previous_seat",
    "shuffled_deal",
]


def _bad(message: str, deal: Deal) -> IllegalMoveError:
    return IllegalMoveError("bad-deal", f"bad deal: {message}", action=deal)


def _many(count: int, noun: str) -> str:
    """`count` and the noun, plural unless one: "1 card", "2 cards"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def deal_error(
    deal: Deal,
    *,
    players: int,
    seats: Sequence[int],
    per: int,
    deck: Sequence[Card],
    stock_needed: int = 0,
) -> IllegalMoveError | None:
    """Return why `deal` does not fit, or None.

    Checks: one hand per seat; `per` cards to each seat in `seats` and none to
    the others; only cards of `deck`, none more often than the deck holds it
    (hands and stock together); and at least `stock_needed` cards in the stock.

    Example:
        >>> from cucumber_rules import Deal, DECKS
        >>> deal_error(Deal(hands=[["2C"], ["2C"]]), players=2, seats=(0, 1), per=1,
        ...            deck=DECKS["standard-52"]).message
        'bad deal: 2C appears 2 times, but the deck holds it once'
    """
    if len(deal.hands) != players:
        return _bad(f"{_many(len(deal.hands), 'hand')} for {_many(players, 'seat')}", deal)
    for seat, hand in enumerate(deal.hands):
        if seat in seats:
            if len(hand) != per:
                return _bad(f"seat {seat} must receive {_many(per, 'card')}, not {len(hand)}", deal)
        elif hand:
            return _bad(f"seat {seat} is not dealt in this round and must receive no cards", deal)
    if len(deal.stock) < stock_needed:
        return _bad(
            f"the stock must hold at least {_many(stock_needed, 'card')}, not {len(deal.stock)}", deal
        )
    limits, members, _ = _deck_info(deck)
    if members is not None:  # every card once: no repeats, all from the deck (set operations in C)
        distinct = set().union(*deal.hands, deal.stock)
        if len(distinct) == per * len(seats) + len(deal.stock) and distinct <= members:
            return None
    elif all(limits[c.index] >= k for c, k in Counter(chain(*deal.hands, deal.stock)).items()):
        return None
    left = list(limits)  # find the first card used too often, for the message
    for c in chain(*deal.hands, deal.stock):
        i = c.index
        if left[i] <= 0:
            return _bad(_overuse(c, deal, deck), deal)
        left[i] -= 1
    raise AssertionError("unreachable: some card is used too often")  # pragma: no cover


def _overuse(c: Card, deal: Deal, deck: Sequence[Card]) -> str:
    have = sum(1 for d in deck if d == c)
    if have == 0:
        return f"{c} is not a card of this deck"
    count = sum(1 for h in (*deal.hands, deal.stock) for d in h if d == c)
    times = "once" if have == 1 else f"{have} times"
    return f"{c} appears {count} times, but the deck holds it {times}"


#: Per deck tuple (by id, with the deck kept alive and checked): its limits by card index, and
#: the set of its cards when it holds each card once (else None). A bounded memo, not state. Only
#: tuples are kept: a list (or other sequence) can change in place, so it is read afresh each time.
_DECKS: dict[int, tuple[Sequence[Card], tuple[int, ...], frozenset[Card] | None, tuple[int, ...]]] = {}


def _deck_info(deck: Sequence[Card]) -> tuple[tuple[int, ...], frozenset[Card] | None, tuple[int, ...]]:
    found = _DECKS.get(id(deck))
    if found is None or found[0] is not deck:
        if isinstance(deck, str):  # (a deck's name: DECKS has the deck)
            raise TypeError(
                f"expected a deck of cards, not the string {deck!r} (DECKS[name] is a named deck)"
            )
        limits = [0] * len(CARD_BY_INDEX)
        for c in deck:
            if type(c) is not Card:
                raise TypeError(f"a deck holds cards (Card), not {type(c).__name__}")
            limits[c.index] += 1
        members = frozenset(deck) if max(limits, default=0) <= 1 else None
        found = (deck, tuple(limits), members, tuple(c.index for c in deck))
        if type(deck) is tuple:
            if len(_DECKS) > 64:
                _DECKS.clear()
            _DECKS[id(deck)] = found
    return found[1], found[2], found[3]


def deck_limits(deck: Sequence[Card]) -> tuple[int, ...]:
    """How often the deck holds each card, indexed by `Card.index` (memoised per deck tuple).

    Raises:
        TypeError: If `deck` is not a sequence of cards (a deck's name, say).

    Example:
        >>> from cucumber_rules import DECKS, card
        >>> deck_limits(DECKS["five-cucumbers-60"])[card("7").index]
        4
    """
    return _deck_info(deck)[0]


def deck_members(deck: Sequence[Card]) -> frozenset[Card] | None:
    """The set of a deck's cards if it holds each card once, else None (memoised per deck tuple).

    Raises:
        TypeError: If `deck` is not a sequence of cards (a deck's name, say).

    Example:
        >>> from cucumber_rules import DECKS
        >>> len(deck_members(DECKS["standard-52"])), deck_members(DECKS["five-cucumbers-60"])
        (52, None)
        >>> deck_members("standard-52")
        Traceback (most recent call last):
        ...
        TypeError: expected a deck of cards, not the string 'standard-52' (DECKS[name] is a named deck)
    """
    return _deck_info(deck)[1]


def shuffled_deal(
    rng: random.Random,
    deck: Sequence[Card],
    *,
    players: int,
    seats: Sequence[int],
    per: int,
    stock: bool,
    leader: int | None = None,
) -> Deal:
    """Deal `per` random cards of `deck` to each seat in `seats` (hands sorted), using `rng`.

    The rest of the deck, in random order, is the stock if `stock` is true.

    Raises:
        ValueError: If the seats need more cards than the deck holds.

    Example:
        >>> import random
        >>> from cucumber_rules import DECKS
        >>> d = shuffled_deal(random.Random(1), DECKS["standard-52"], players=3, seats=(0, 2), per=2,
        ...                   stock=False)
        >>> [len(h) for h in d.hands], d.stock
        ([2, 0, 2], ())
        >>> shuffled_deal(random.Random(1), DECKS["standard-52"], players=6, seats=range(6), per=9,
        ...               stock=False)
        Traceback (most recent call last):
        ...
        ValueError: cannot deal 9 cards to each of 6 seats: that needs 54 cards, and the deck holds 52
    """
    # A partial Fisher-Yates shuffle: only the cards that are dealt (or, with a
    # stock, the whole deck) are drawn, one `rng.random()` each. `floor(random() * m)`
    # is uniform on 0..m-1 up to a bias below m / 2**53, far beneath anything a
    # simulation can see; it costs half of `rng.sample`'s exact `_randbelow`
    # (and `floor` a quarter less than `int`, with the same result on these floats).
    # It shuffles the cards' indexes, not the cards: a hand sorts as plain ints, and
    # one lookup per hand makes both its cards and its seat's plays, which the deal
    # keeps for `State.held` (`dealt_held`). The draws, and so the deals, are the
    # same as shuffling the cards themselves. (A tuple deck, such as a rules' own, has its
    # indexes memoised; another, such as the cards If You Can't Beat 'Em deals, is read once.)
    pool = list(deck_indexes(deck)) if type(deck) is tuple else [c.index for c in deck]
    size = len(pool)
    needed = len(seats) * per
    if needed > size:
        raise ValueError(
            f"cannot deal {per} cards to each of {len(seats)} seats: that needs {needed} cards, "
            f"and the deck holds {size}"
        )
    draw = size if stock else needed
    rnd = rng.random
    for i in range(draw):
        j = i + _floor(rnd() * (size - i))
        pool[i], pool[j] = pool[j], pool[i]
    hands: list[tuple[Card, ...]] = [()] * players
    held: list[tuple[Play, ...]] = [()] * players
    start = 0
    for seat in seats:
        end = start + per
        dealt = pool[start:end]
        dealt.sort()
        if per:
            get = itemgetter(*dealt)
            cards, plays = get(CARD_BY_INDEX), get(PLAYS[seat])
            if per == 1:  # (`itemgetter` of one index returns the item, not a 1-tuple)
                cards, plays = (cards,), (plays,)
            hands[seat] = cards
            held[seat] = plays
        start = end
    rest: tuple[Card, ...] = tuple([CARD_BY_INDEX[i] for i in pool[start:draw]]) if stock else ()  # type: ignore[misc]
    return trusted_deal(tuple(hands), rest, leader, tuple(held))


def deck_indexes(deck: Sequence[Card]) -> tuple[int, ...]:
    """The indexes of a deck's cards, in its order (memoised per deck tuple).

    Raises:
        TypeError: If `deck` is not a sequence of cards (a deck's name, say).

    Example:
        >>> from cucumber_rules import DECKS
        >>> deck_indexes(DECKS["five-cucumbers-60"])[:5]
        (1, 1, 1, 1, 2)
    """
    return _deck_info(deck)[2]


def next_seat(seat: int, among: Sequence[int] | frozenset[int], players: int) -> int:
    """The first seat of `among` clockwise after `seat` (not `seat` itself unless it is the only one).

    Example:
        >>> next_seat(2, (0, 1, 2), 3), next_seat(2, (1, 2), 3)
        (0, 1)
    """
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if candidate in among:
            return candidate
    raise ValueError("no seat to choose from")


def previous_seat(seat: int, among: Sequence[int], players: int) -> int:
    """The first seat of `among` counter-clockwise before `seat`.

    Example:
        >>> previous_seat(0, (0, 1, 2), 3), previous_seat(2, (0, 2), 3)
        (2, 0)
    """
    for step in range(1, players + 1):
        candidate = (seat - step) % players
        if candidate in among:
            return candidate
    raise ValueError("no seat to choose from")


def after_table(seats: Sequence[int], players: int) -> tuple[int, ...]:
    """`after[s]`: the seat of `seats` that plays after seat `s` (-1 for seats not dealt in).

    Example:
        >>> after_table((0, 2, 3), 4)
        (2, -1, 3, 0)
    """
    key = (tuple(seats), players)
    found = _AFTER.get(key)
    if found is None:
        found = _AFTER[key] = tuple(
            next_seat(s, seats, players) if s in seats else -1 for s in range(players)
        )
    return found


#: after_table's results by (seats, players): at most 7 x 2**7 small tuples, filled as they are needed.
_AFTER: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}


_floor = math.floor
