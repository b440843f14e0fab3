"""Dealing hidden cards: the cards left, hands joined, and an assignment that fits what play revealed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain, filterfalse
from typing import Final

from ..cards import BY_INDEX, Card
from ..dealing import deck_members

#: Shuffled deals tried (exactly uniform) before the matching-and-swaps fallback.
REJECTION_TRIES: Final = 48
#: Swap proposals per card of the pool in the fallback's chain.
SWAPS_PER_CARD: Final = 24


# --------------------------------------------------------------------------- assigning cards


def remaining_cards(deck: Sequence[Card], *used: Sequence[Card]) -> list[Card]:
    """The cards of `deck` (copies repeated) once the `used` cards are taken out, in deck order.

    Example:
        >>> from cucumber_rules import DECKS, card
        >>> remaining_cards(DECKS["five-cucumbers-60"], [card("1")], [card("1"), card("2")])[:4]
        [card('1'), card('1'), card('2'), card('2')]
    """
    taken = Counter(chain.from_iterable(used))
    if not taken:
        return list(deck)
    if deck_members(deck) is not None:  # every card once: leave out the used ones (in C)
        return list(filterfalse(taken.__contains__, deck))
    get = taken.get
    out = []
    for c in deck:
        left = get(c)
        if left:
            taken[c] = left - 1
        else:
            out.append(c)
    return out


def joined_hands(
    known: Sequence[Sequence[Card]], hidden: Sequence[Sequence[Card]]
) -> tuple[tuple[Card, ...], ...]:
    """Each seat's known and hidden cards together, sorted (as a `Deal` keeps its hands).

    Example:
        >>> from cucumber_rules import card
        >>> joined_hands([[card("9")], []], [[card("3")], [card("5")]])
        ((card('3'), card('9')), (card('5'),))
    """
    return tuple(tuple(sorted((*k, *h), key=BY_INDEX)) for k, h in zip(known, hidden, strict=True))


def assign_cards(
    pool: Sequence[Card],
    needs: Sequence[int],
    allowed: Callable[[int, Card], bool],
    rng: random.Random,
    *,
    spare: Callable[[Card], bool] | None = None,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] | None:
    """Deal `pool` at random: `needs[s]` cards to each seat `s` that `allowed(s, card)` accepts.

    The cards left over (`len(pool) - sum(needs)` of them) are returned too, in a
    random order; `spare(card)` says which cards may be left over (default: any).
    Rejection first (exactly uniform over the valid deals), then matching and a
    swap chain (see the module docs). Hands come back sorted.

    Args:
        pool: The cards to deal (copies repeated).
        needs: How many cards each seat receives.
        allowed: Which cards each seat may receive.
        rng: The random generator.
        spare: Which cards may stay undealt (default: any).

    Returns:
        `(hands, rest)`, or None if no deal fits.

    Example:
        >>> import random
        >>> from cucumber_rules import card
        >>> pool = [card(n) for n in (1, 2, 3, 4)]
        >>> hands, rest = assign_cards(pool, [2, 1], lambda s, c: s == 0 or c.rank > 3, random.Random(1))
        >>> hands[1], len(hands[0]), len(rest)
        ((card('4'),), 2, 1)
        >>> assign_cards(pool, [1, 1], lambda s, c: c.rank == 4, random.Random(1)) is None
        True
    """
    cards = list(pool)
    seats = len(needs)
    total = sum(needs)
    if total > len(cards):
        return None
    spare_ok = spare if spare is not None else (lambda c: True)
    fits: dict[tuple[int, int], bool] = {}

    def fit(slot: int, c: Card) -> bool:
        key = (slot, c.index)
        found = fits.get(key)
        if found is None:
            found = fits[key] = spare_ok(c) if slot == seats else allowed(slot, c)
        return found

    slot_of: list[int] = []
    for s, k in enumerate(needs):
        slot_of += [s] * k
    slot_of += [seats] * (len(cards) - total)
    rnd = rng.random
    size = len(cards)
    # Rejection. A Fisher-Yates shuffle from the front (one rng.random() a card, see shuffled_deal)
    # draws the card of each position in turn, uniformly from the cards not yet placed, and a try
    # stops at the first card that does not fit its slot. The positions checked are the seats' (laid
    # out first), and the cards left over only if `spare` says which may be; the shuffle goes on over
    # the rest, so the cards left over come back in a random order too. (The last position needs a
    # draw only when it is checked.)
    checked = size if spare is not None else total
    draws = size if checked == size else size - 1
    for _ in range(REJECTION_TRIES):
        for i in range(draws):
            j = i + int(rnd() * (size - i))
            cards[i], cards[j] = cards[j], cards[i]
            if i < checked and not fit(slot_of[i], cards[i]):
                break
        else:
            return _hands_of(cards, slot_of, seats)
    placed = _matching(cards, needs, fit, rng)
    if placed is None:
        return None
    cards = placed
    if size > 1:
        for _ in range(SWAPS_PER_CARD * size):
            i = int(rnd() * size)
            j = int(rnd() * size)
            si, sj = slot_of[i], slot_of[j]
            if si != sj and fit(si, cards[j]) and fit(sj, cards[i]):
                cards[i], cards[j] = cards[j], cards[i]
    return _hands_of(cards, slot_of, seats)


def _hands_of(
    cards: list[Card], slot_of: list[int], seats: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    hands: list[list[Card]] = [[] for _ in range(seats + 1)]
    for slot, c in zip(slot_of, cards, strict=True):
        hands[slot].append(c)
    return tuple(tuple(sorted(h, key=BY_INDEX)) for h in hands[:seats]), tuple(hands[seats])


def _matching(
    cards: list[Card], needs: Sequence[int], fit: Callable[[int, Card], bool], rng: random.Random
) -> list[Card] | None:
    """One valid placement (cards in slot order, as `assign_cards` lays them out), or None."""
    seats = len(needs)
    capacity = [*needs, len(cards) - sum(needs)]
    held: list[list[int]] = [[] for _ in capacity]  # card positions per slot
    order = list(range(len(cards)))
    rng.shuffle(order)
    slots = list(range(len(capacity)))

    def place(i: int, seen: set[int]) -> bool:
        rng.shuffle(slots)
        for slot in list(slots):
            if slot in seen or not fit(slot, cards[i]):
                continue
            seen.add(slot)
            if len(held[slot]) < capacity[slot]:
                held[slot].append(i)
                return True
            for k, other in enumerate(held[slot]):
                if place(other, seen):
                    held[slot][k] = i
                    return True
        return False

    for i in order:
        if not place(i, set()):
            return None
    out: list[Card] = []
    for slot in range(seats + 1):
        out += [cards[i] for i in held[slot]]
    return out
