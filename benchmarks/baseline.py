"""A hand-tuned, mutable, plain-Python baseline of the ladder games: the yardstick for `run.py`.

It plays complete random matches of Agurk, Gurka, Five Cucumbers,
fuenf-gurken and Cucumber Catastrophe with the same rules as the library's presets, as fast as plain
Python allows: no validation, no immutability, no API. Cards are small ints
ordered like the library's cards (`rank * 4 + suit` for the 52-card deck,
`rank * 4` for every copy of a Five Cucumbers card), hands are sorted lists,
and the legal set of a follower is two index ranges found by bisection.

Random choices use the caller's `random.Random` exactly as the library driver
in `run.py` does: at each decision with k > 1 legal moves (listed in the
library's order: sorted, identical cards once) it takes move
`int(rng.random() * k)`; a forced move draws nothing. A deal draws only the
dealt cards, by a partial Fisher-Yates shuffle on `rng.random` (uniform, but
not the deal `cr.sample_chance` would draw). To replay the library's own deals
instead, pass them as `deals`: given the same deals and a generator in the
same state for the choices, the baseline plays the very same match as the
library (`run.verify_exact` checks this).

Example:
    >>> import random
    >>> result = play_match("agurk", 4, random.Random(1))
    >>> len(result.winners), result.decisions == sum(result.dealt) * 7
    (1, True)
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Final

import attrs

__all__ = [
    "PRESETS",
    "BaselineRules",
    "MatchResult",
    "card_code",
    "play_catastrophe",
    "play_match",
]

#: Five Cucumbers' cucumbers by rank (index 0 unused).
_CUCUMBERS: Final = (0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 4, 5)
#: Card value by rank (2..10, J 11, Q 12, K 13, A 14).
_CARD_VALUE: Final = tuple(range(15))
#: The 52-card deck in the library's order (rank, then suit C D H S).
_STANDARD_52: Final = tuple(rank * 4 + suit for rank in range(2, 15) for suit in range(4))
#: The Five Cucumbers deck in the library's order: four identical copies of each of 1..15.
_FIVE_CUCUMBERS_60: Final = tuple(rank * 4 for rank in range(1, 16) for _ in range(4))


@attrs.frozen
class BaselineRules:
    """The rules of one ladder preset, as plain values for the baseline.

    Example:
        >>> PRESETS["gurka"].threshold, PRESETS["gurka"].forced
        (30, True)
    """

    name: str
    deck: tuple[int, ...]
    copies: bool
    """Identical cards in the deck (Five Cucumbers): a legal card is listed once."""
    hand_size: int
    forced: bool
    """forced-lowest following (Gurka) rather than optional-lowest."""
    ace: int
    """The rank of a lead that forces everyone's lowest card (Gurka's Ace), or -1."""
    value: tuple[int, ...]
    """What the last trick costs, by the taker's rank."""
    doubling: str
    """"none", "per-one" or "once"."""
    tie_bonus: bool
    threshold: int
    lives: int
    rotate: bool
    """True: the deal rotates; False: the last payer leads."""


#: The four ladder presets, mirroring the library's `RULESETS`.
PRESETS: Final[dict[str, BaselineRules]] = {
    "agurk": BaselineRules(
        "agurk", _STANDARD_52, False, 7, False, -1, _CARD_VALUE, "none", True, 21, 2, True
    ),
    "gurka": BaselineRules(
        "gurka", _STANDARD_52, False, 7, True, 14, _CARD_VALUE, "none", False, 30, 1, True
    ),
    "five-cucumbers": BaselineRules(
        "five-cucumbers", _FIVE_CUCUMBERS_60, True, 7, False, -1, _CUCUMBERS, "per-one", False, 5, 1, False
    ),
    "fuenf-gurken": BaselineRules(
        "fuenf-gurken", _FIVE_CUCUMBERS_60, True, 7, False, -1, _CUCUMBERS, "once", False, 6, 1, False
    ),
}


@attrs.frozen
class MatchResult:
    """The outcome of one baseline match, in the library's terms.

    Example:
        >>> r = play_match("gurka", 3, random.Random(2))
        >>> len(r.totals), len(r.round_points) == r.round_count
        (3, True)
    """

    decisions: int
    """Plays made (forced ones included; deals are not decisions)."""
    round_count: int
    totals: tuple[int, ...]
    marks: tuple[int, ...]
    """Cucumber marks (warnings) per seat; the crossing that eliminates adds none."""
    out: tuple[int, ...]
    """0 for a seat still in, else the round number that eliminated it."""
    winners: tuple[int, ...]
    round_points: tuple[tuple[int, ...], ...]
    """What each seat scored in each round (a tie bonus is negative), like `cr.score(s).round_points`."""
    dealt: tuple[int, ...]
    """How many players were dealt in, per round."""


# A round player takes the hands (mutated), the followers of each seat in
# clockwise order, the leader, `rng.random`, the rules; it returns the taker of
# the last trick, the taker's rank and the last trick as (seat, card) pairs.
_RoundPlayer = Callable[
    [list[list[int]], list[tuple[int, ...]], int, Callable[[], float], BaselineRules],
    tuple[int, int, list[tuple[int, int]]],
]


def _round_optional_lowest(
    hands: list[list[int]],
    followers: list[tuple[int, ...]],
    leader: int,
    rnd: Callable[[], float],
    rules: BaselineRules,
) -> tuple[int, int, list[tuple[int, int]]]:
    """One round with optional-lowest following, unique cards and no Ace rule (Agurk): the fast path."""
    bl = bisect_left
    for _ in range(rules.hand_size - 1):
        hand = hands[leader]
        card = hand.pop(int(rnd() * len(hand)))  # a leader holds >= 2 cards before the last trick
        high = card & -4  # rank * 4: a card beats or ties it iff card >= high
        taker = leader
        for seat in followers[leader]:
            hand = hands[seat]
            i = bl(hand, high)  # hand[i:] are the cards >= high
            if i == 0:
                card = hand.pop(int(rnd() * len(hand)))
            else:
                j = bl(hand, (hand[0] | 3) + 1)  # hand[:j] are the cards of the lowest rank
                if i <= j:
                    card = hand.pop(int(rnd() * len(hand)))
                else:
                    k = j + len(hand) - i
                    r = int(rnd() * k) if k > 1 else 0
                    card = hand.pop(r if r < j else r - j + i)
            if card >= high:
                high = card & -4
                taker = seat
        leader = taker
    # The last trick: one card each, all forced.
    card = hands[leader].pop()
    high = card & -4
    taker = leader
    last = [(leader, card)]
    for seat in followers[leader]:
        card = hands[seat].pop()
        last.append((seat, card))
        if card >= high:
            high = card & -4
            taker = seat
    return taker, high >> 2, last


def card_code(rank: int, suit: str | None) -> int:
    """The baseline's code for a card: `rank * 4 + suit` (C D H S), or `rank * 4` for a numbered card.

    Example:
        >>> card_code(12, "S"), card_code(7, None)
        (51, 28)
    """
    return rank * 4 + ("CDHS".index(suit) if suit is not None else 0)


def _round_forced_lowest(
    hands: list[list[int]],
    followers: list[tuple[int, ...]],
    leader: int,
    rnd: Callable[[], float],
    rules: BaselineRules,
) -> tuple[int, int, list[tuple[int, int]]]:
    """One round with forced-lowest following and the Ace lead, unique cards (Gurka): the fast path."""
    bl = bisect_left
    ace = rules.ace * 4 if rules.ace > 0 else 1 << 30
    for _ in range(rules.hand_size - 1):
        hand = hands[leader]
        card = hand.pop(int(rnd() * len(hand)))
        high = card & -4
        taker = leader
        if high == ace:  # everyone plays a card of their lowest rank; the Ace takes the trick
            for seat in followers[leader]:
                hand = hands[seat]
                j = bl(hand, (hand[0] | 3) + 1)
                hand.pop(int(rnd() * j) if j > 1 else 0)
            continue
        for seat in followers[leader]:
            hand = hands[seat]
            i = bl(hand, high)  # hand[i:] are the cards >= high
            m = len(hand)
            if i < m:  # must play one of them
                k = m - i
                card = hand.pop(i + int(rnd() * k) if k > 1 else i)
                high = card & -4
                taker = seat
            else:  # nothing high enough: a card of the lowest rank
                j = bl(hand, (hand[0] | 3) + 1)
                hand.pop(int(rnd() * j) if j > 1 else 0)
        leader = taker
    card = hands[leader].pop()
    high = card & -4
    taker = leader
    last = [(leader, card)]
    ace_led = high == ace
    for seat in followers[leader]:
        card = hands[seat].pop()
        last.append((seat, card))
        if card >= high and not ace_led:
            high = card & -4
            taker = seat
    return taker, high >> 2, last


def _round_copies(
    hands: list[list[int]],
    followers: list[tuple[int, ...]],
    leader: int,
    rnd: Callable[[], float],
    rules: BaselineRules,
) -> tuple[int, int, list[tuple[int, int]]]:
    """One round with optional-lowest following and identical copies (Five Cucumbers): the fast path.

    Identical cards have the same code, and a legal card is listed once however many copies are held.
    """
    bl = bisect_left
    fromkeys = dict.fromkeys
    for _ in range(rules.hand_size - 1):
        hand = hands[leader]
        legal = list(fromkeys(hand))
        k = len(legal)
        card = legal[int(rnd() * k)] if k > 1 else legal[0]
        hand.remove(card)
        high = card
        taker = leader
        for seat in followers[leader]:
            hand = hands[seat]
            low = hand[0]
            i = bl(hand, high)  # hand[i:] are the cards >= high
            # Every card is legal, or the lowest card and those >= high:
            legal = list(fromkeys(hand)) if i == 0 or hand[i - 1] == low else [low, *fromkeys(hand[i:])]
            k = len(legal)
            card = legal[int(rnd() * k)] if k > 1 else legal[0]
            hand.remove(card)
            if card >= high:
                high = card
                taker = seat
        leader = taker
    card = hands[leader].pop()
    high = card
    taker = leader
    last = [(leader, card)]
    for seat in followers[leader]:
        card = hands[seat].pop()
        last.append((seat, card))
        if card >= high:
            high = card
            taker = seat
    return taker, high >> 2, last


def _distinct(cards: list[int]) -> list[int]:
    return list(dict.fromkeys(cards))


def _round_general(
    hands: list[list[int]],
    followers: list[tuple[int, ...]],
    leader: int,
    rnd: Callable[[], float],
    rules: BaselineRules,
) -> tuple[int, int, list[tuple[int, int]]]:
    """One round under any ladder preset: forced following, the Ace lead, identical cards."""
    bl = bisect_left
    forced = rules.forced
    copies = rules.copies
    ace = rules.ace * 4 if rules.ace > 0 else -1
    last: list[tuple[int, int]] = []
    high = 0
    taker = leader
    for trick in range(rules.hand_size):
        is_last = trick == rules.hand_size - 1
        hand = hands[leader]
        legal = _distinct(hand) if copies else hand
        k = len(legal)
        card = legal[int(rnd() * k)] if k > 1 else legal[0]
        hand.remove(card)
        high = card & -4
        taker = leader
        ace_led = high == ace
        if is_last:
            last.append((leader, card))
        for seat in followers[leader]:
            hand = hands[seat]
            j = bl(hand, (hand[0] | 3) + 1)
            if ace_led:
                legal = hand[:j]
            else:
                i = bl(hand, high)
                if i == 0:
                    legal = hand
                elif forced:
                    legal = hand[i:] if i < len(hand) else hand[:j]
                elif i <= j:
                    legal = hand
                else:
                    legal = hand[:j] + hand[i:]
            if copies:
                legal = _distinct(legal)
            k = len(legal)
            card = legal[int(rnd() * k)] if k > 1 else legal[0]
            hand.remove(card)
            if is_last:
                last.append((seat, card))
            if card >= high and not ace_led:
                high = card & -4
                taker = seat
        leader = taker
    return taker, high >> 2, last


def _next_seats(active: list[int], players: int) -> list[int]:
    """`result[s]`: the first active seat clockwise after seat s (s itself only if it is the only one)."""
    result = []
    for seat in range(players):
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if candidate in active:
                result.append(candidate)
                break
    return result


def _followers(active: list[int], players: int) -> list[tuple[int, ...]]:
    """`result[s]`: the active seats after s, clockwise (for each active s)."""
    result: list[tuple[int, ...]] = [() for _ in range(players)]
    m = len(active)
    for k, seat in enumerate(active):
        result[seat] = tuple(active[(k + step) % m] for step in range(1, m))
    return result


def play_match(
    preset: str | BaselineRules,
    players: int,
    rng: random.Random,
    *,
    deals: Iterator[Sequence[Sequence[int]]] | None = None,
    first: int = 0,
    fixed_rounds: int | None = None,
    general: bool = False,
) -> MatchResult:
    """Play one complete random match and return its result.

    Args:
        preset: A name in `PRESETS` (or a `BaselineRules`).
        players: The number of seats.
        rng: The random generator: its `random()` draws every choice (and the deals unless `deals`).
        deals: The deals to play, one per round: each seat's cards as codes (see `card_code`), an empty
            hand for a seat not dealt in; by default the baseline deals with `rng`.
        first: The seat that leads the first trick.
        fixed_rounds: Play this many rounds without elimination (the lowest total wins, ties share).
        general: Use the general round player even where a fast path applies (to check one against the
            other).

    Returns:
        The result.

    Example:
        >>> r = play_match("five-cucumbers", 4, random.Random(3))
        >>> max(r.totals) >= 5, len(r.winners)
        (True, 1)
    """
    rules = preset if isinstance(preset, BaselineRules) else PRESETS[preset]
    play_round: _RoundPlayer = _round_general
    if not general and rules.ace < 0 and not rules.forced:
        play_round = _round_copies if rules.copies else _round_optional_lowest
    elif not general and rules.forced and not rules.copies:
        play_round = _round_forced_lowest
    rnd = rng.random
    n = players
    per = rules.hand_size
    deck = list(rules.deck)
    size = len(deck)
    value = rules.value
    threshold = rules.threshold
    lives = rules.lives
    rotate = rules.rotate
    tie_bonus = rules.tie_bonus
    doubling = rules.doubling
    doubles = doubling != "none"
    per_one = doubling == "per-one"
    totals = [0] * n
    marks = [0] * n
    out = [0] * n
    active = list(range(n))
    followers = _followers(active, n)
    after = _next_seats(active, n)
    dealer = (first - 1) % n
    leader = first
    payer = -1
    rounds = 0
    decisions = 0
    rows: list[tuple[int, ...]] = []
    dealt: list[int] = []
    winners: tuple[int, ...] = ()
    while not winners:
        if rounds:
            if rotate:
                dealer = after[dealer]
                leader = after[dealer]
            else:
                leader = payer if out[payer] == 0 else after[payer]
        m = len(active)
        hands: list[list[int]]
        if deals is None:
            for i in range(m * per):  # a partial Fisher-Yates shuffle: just the dealt cards
                j = i + int(rnd() * (size - i))
                deck[i], deck[j] = deck[j], deck[i]
            hands = [[] for _ in range(n)]
            k = 0
            for seat in active:
                hand = deck[k : k + per]
                hand.sort()
                hands[seat] = hand
                k += per
        else:
            hands = [sorted(h) for h in next(deals)]
        payer, rank, last = play_round(hands, followers, leader, rnd, rules)
        decisions += m * per
        rounds += 1
        dealt.append(m)
        # Score the last trick: its taker pays.
        amount = value[rank]
        if doubles:
            ones = 0
            for _, c in last:
                if c >> 2 == 1:
                    ones += 1
            if per_one:
                amount <<= ones
            elif ones:
                amount *= 2
        row = [0] * n
        totals[payer] += amount
        row[payer] = amount
        if tie_bonus:
            for seat, c in last:
                if seat != payer and c >> 2 == rank:
                    new_total = totals[seat] - amount
                    if new_total < 0:  # noqa: PLR1730 (faster than max())
                        new_total = 0
                    row[seat] = new_total - totals[seat]
                    totals[seat] = new_total
        rows.append(tuple(row))
        if fixed_rounds is None:
            if totals[payer] >= threshold:
                if marks[payer] + 1 >= lives:  # the last life: out (a mark is only a warning)
                    out[payer] = rounds
                    active.remove(payer)
                    followers = _followers(active, n)
                    after = _next_seats(active, n)
                    if len(active) == 1:
                        winners = (active[0],)
                else:  # a cucumber mark, and the score resets to the highest of the others
                    marks[payer] += 1
                    totals[payer] = max([totals[s] for s in active if s != payer], default=0)
        elif rounds >= fixed_rounds:
            best = min(totals)
            winners = tuple(s for s in range(n) if totals[s] == best)
    return MatchResult(
        decisions=decisions,
        round_count=rounds,
        totals=tuple(totals),
        marks=tuple(marks),
        out=tuple(out),
        winners=winners,
        round_points=tuple(rows),
        dealt=tuple(dealt),
    )


# --------------------------------------------------------------------------- Cucumber Catastrophe

#: Cucumbers per card 1..60 (index 0 unused): the default table, 5 on 5, 15, ..., 55 and 1 on the others.
_CATASTROPHE_CUCUMBERS: Final = (0, *(5 if c % 10 == 5 else 1 for c in range(1, 61)))
_FIVE: Final = tuple(count == 5 for count in _CATASTROPHE_CUCUMBERS)


def _catastrophe_hand(
    hands: list[list[int]], followers: list[tuple[int, ...]], leader: int, rnd: Callable[[], float], per: int
) -> list[int]:
    """One hand of Catastrophe (cards are their numbers); returns the cucumbers each seat captured."""
    five = _FIVE
    cucumbers = _CATASTROPHE_CUCUMBERS
    bl = bisect_left
    points = [0] * len(hands)
    for trick in range(per):
        forced = trick == per - 1
        hand = hands[leader]
        if forced:
            lead = hand.pop()
        else:
            legal = [c for c in hand if not five[c]] or hand  # no 5-cucumber lead while others are held
            k = len(legal)
            lead = legal[int(rnd() * k)] if k > 1 else legal[0]
            hand.remove(lead)
        order = followers[leader]
        hand = hands[order[0]]
        best = hand.pop() if forced else hand.pop(int(rnd() * len(hand)))  # the second card: free
        taker = order[0]
        high = best > lead  # the rule: True while the highest card wins
        broken = False
        won = cucumbers[lead] + cucumbers[best]
        for seat in order[1:]:
            hand = hands[seat]
            m = len(hand)
            if forced:
                card = hand.pop()
                if not broken and (card < lead if high else card > lead):
                    broken = True
                    high = not high
                    best = card
                    taker = seat
                elif card > best if high else card < best:
                    best = card
                    taker = seat
            elif broken:
                card = hand.pop(int(rnd() * m))
                if card > best if high else card < best:
                    best = card
                    taker = seat
            elif high:
                i = bl(hand, lead)  # hand[i:] are the cards above the lead (the lead is not in any hand)
                if i < m:
                    k = m - i
                    card = hand.pop(i + int(rnd() * k) if k > 1 else i)
                    if card > best:
                        best = card
                        taker = seat
                else:  # cannot obey: any card, and the rule breaks; it is the lowest card so far
                    card = hand.pop(int(rnd() * m))
                    broken = True
                    high = False
                    best = card
                    taker = seat
            else:
                i = bl(hand, lead)  # hand[:i] are the cards below the lead
                if i:
                    card = hand.pop(int(rnd() * i) if i > 1 else 0)
                    if card < best:
                        best = card
                        taker = seat
                else:
                    card = hand.pop(int(rnd() * m))
                    broken = True
                    high = True
                    best = card
                    taker = seat
            won += cucumbers[card]
        points[taker] += won
        leader = taker
    return points


def play_catastrophe(
    players: int,
    rng: random.Random,
    *,
    deals: Iterator[tuple[Sequence[Sequence[int]], int | None]] | None = None,
    first: int = 0,
    hand_count: int = 4,
    hand_size: int = 10,
) -> MatchResult:
    """Play one random match of Cucumber Catastrophe (the core preset) and return its result.

    Args:
        players: The number of seats (3 to 6).
        rng: The random generator: its `random()` draws every choice, the deals unless `deals`, and the
            starter of a hand when several seats tie for the highest total.
        deals: The deals to play, one per hand: each seat's cards as codes (`card_code(n, None)`), and the
            starter the deal names on a tie (else None).
        first: The seat that starts the first hand.
        hand_count: Hands in the match.
        hand_size: Cards per player.

    Returns:
        The result (`marks` and `out` are all 0).

    Example:
        >>> r = play_catastrophe(4, random.Random(1))
        >>> r.decisions, r.round_count, len(r.winners) >= 1
        (160, 4, True)
    """
    rnd = rng.random
    n = players
    deck = list(range(1, 61))
    size = len(deck)
    active = list(range(n))
    followers = _followers(active, n)
    totals = [0] * n
    rows: list[tuple[int, ...]] = []
    leader = first
    for number in range(hand_count):
        if deals is None:
            for i in range(n * hand_size):
                j = i + int(rnd() * (size - i))
                deck[i], deck[j] = deck[j], deck[i]
            dealt = [sorted(deck[k * hand_size : (k + 1) * hand_size]) for k in range(n)]
            named: int | None = None
        else:
            codes, named = next(deals)
            dealt = [sorted(c >> 2 for c in hand) for hand in codes]
        if number:
            top = max(totals)
            tied = [s for s in range(n) if totals[s] == top]
            if named is not None:
                leader = named
            elif len(tied) > 1 and deals is None:
                leader = tied[int(rnd() * len(tied))]
            else:
                leader = tied[0]
        points = _catastrophe_hand(dealt, followers, leader, rnd, hand_size)
        rows.append(tuple(points))
        for s in range(n):
            totals[s] += points[s]
    best = min(totals)
    tied = [s for s in range(n) if totals[s] == best]
    lowest = {s: min(row[s] for row in rows) for s in tied}
    low = min(lowest.values())
    return MatchResult(
        decisions=n * hand_size * hand_count,
        round_count=hand_count,
        totals=tuple(totals),
        marks=(0,) * n,
        out=(0,) * n,
        winners=tuple(s for s in tied if lowest[s] == low),
        round_points=tuple(rows),
        dealt=(n,) * hand_count,
    )
