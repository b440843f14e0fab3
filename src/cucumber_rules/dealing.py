"""Dealing, shared by every game: checking a given deal and drawing a random one."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .actions import Deal
from .cards import Card
from .errors import IllegalMoveError

__all__ = ["deal_error", "next_seat", "shuffled_deal"]


def _bad(message: str, deal: Deal) -> IllegalMoveError:
    return IllegalMoveError("bad-deal", f"bad deal: {message}", action=deal)


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
    """
    if len(deal.hands) != players:
        return _bad(f"{len(deal.hands)} hands for {players} seats", deal)
    dealt = set(seats)
    for seat, hand in enumerate(deal.hands):
        if seat in dealt and len(hand) != per:
            return _bad(f"seat {seat} must receive {per} cards, not {len(hand)}", deal)
        if seat not in dealt and hand:
            return _bad(f"seat {seat} is not dealt in this round and must receive no cards", deal)
    if len(deal.stock) < stock_needed:
        return _bad(f"the stock must hold at least {stock_needed} cards, not {len(deal.stock)}", deal)
    available = Counter(deck)
    used = Counter(c for hand in deal.hands for c in hand)
    used.update(deal.stock)
    for c, count in used.items():
        have = available.get(c, 0)
        if have == 0:
            return _bad(f"{c} is not a card of this deck", deal)
        if count > have:
            times = "once" if have == 1 else f"{have} times"
            return _bad(f"{c} appears {count} times, but the deck holds it {times}", deal)
    return None


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
    """Shuffle `deck` with `rng` and deal `per` cards to each seat in `seats` (hands sorted).

    The rest of the deck, in shuffled order, is the stock if `stock` is true.
    """
    cards = list(deck)
    rng.shuffle(cards)
    hands: list[tuple[Card, ...]] = [() for _ in range(players)]
    for i, seat in enumerate(seats):
        hands[seat] = tuple(sorted(cards[i * per : (i + 1) * per]))
    rest = tuple(cards[len(seats) * per :]) if stock else ()
    return Deal(hands=hands, stock=rest, leader=leader)


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
