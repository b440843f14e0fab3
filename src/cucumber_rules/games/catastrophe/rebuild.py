"""An exact construction of an earlier Catastrophe hand from its result (for `sampling.rebuild_hand`).

A view sums up a finished hand in its result: the points each seat scored. Any
legal hand with those points will do, and only the cucumbers a seat captures
count, so the construction works on card *classes* (cards with the same
cucumbers) first and on the cards themselves last:

1. **Tricks and classes.** A depth-first search over the seats chooses how many
   tricks each seat takes and how many cards of each class it captures, so that
   its cucumbers are its points (If You Can't Beat 'Em: four 5-cucumber cards or
   more for a seat that scored -5, three at most for any other), the classes
   last, every trick has `size` cards, and the takers can follow one another (a
   trick's leader never takes it without Surprise Cucumber, so no seat takes two
   tricks running, nor the first trick when it starts the hand). With the
   default cucumbers (1 or 5 a card) a seat's tricks fix its 5-cucumber cards,
   so the search is over trick counts only. A seat's class counts come from a
   table of the sums each suffix of the classes can make (`_reachable`), so every
   partial choice completes; with If You Can't Beat 'Em a seat takes the
   5-cucumber cards the seats after it cannot. With many classes (a custom table
   of distinct counts) a seat has thousands of choices, so the search tries
   `VECTORS` of them per number of tricks before it moves on.
2. **A legal order.** Each trick is played in an order that is always legal:
   its lowest card leads (or is the revealed card) and its taker plays the
   highest, so the Trick Marker is High and everyone obeys it; or the mirror
   image, Low, when the lowest card is a 5-cucumber card (which may not lead).
   So a trick with a 5-cucumber card needs a card of another class outside the
   span of its 5-cucumber cards (an *anchor*); the search asks each seat for a
   card of another class per trick, and a bipartite matching picks the anchors.

The search is exact over these constructions and bounded (`WORK`); the one
family of hands it leaves out is a trick made only of 5-cucumber cards (its
leader holding nothing else), which only a custom cucumbers table or a tiny hand
makes necessary: there `rebuild_hand` falls back to its local search and then
to the generic search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, Final, cast

from ...cards import Card
from ...state import State
from .rules import BONUS, BONUS_FIVES
from .scoring import starters

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from .rules import CatastropheRules

__all__ = ["construct_hand", "taker_order"]

#: Search steps (class choices) before `construct_hand` gives up.
WORK: Final = 50_000
#: Class counts tried per seat and number of tricks at each step of the search.
VECTORS: Final = 20
#: Ways to lay the chosen classes out as cards tried per solution of the search.
LAYOUTS: Final = 4


def construct_hand(
    state: State,
    target: Any,
    rng: random.Random,
    play: Callable[..., State | None],
) -> State | None:
    """A legal hand from `state` (its deal due) that ends with `target`'s points, or None.

    `play(state, tricks, takers, leader, tied, spare, rng)` lays the tricks out as a
    deal and plays (`sampling.play_hand`). None when the bounded search finds nothing
    (see the module docs for the one kind of hand it does not build).

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.games.catastrophe.sampling import play_hand
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=6)
        >>> target = cr.RoundResult(1, (30, 0, 0, 14, 40, 0), (30, 0, 0, 14, 40, 0))
        >>> construct_hand(s, target, random.Random(1), play_hand).match.totals
        (30, 0, 0, 14, 40, 0)
    """
    m = state.match
    rules = cast("CatastropheRules", m.rules)
    p = rules._plan
    n = len(m.players)
    per = rules.cards_per_player(n)
    surprise, cbe = rules.surprise, rules.cant_beat_em
    size = n + 1 if surprise else n
    cuc, five = p.cucumbers, p.five
    goal: Sequence[int] = target.points
    if len(goal) != n:
        return None
    values = sorted({cuc[c.rank] for c in p.deck if not five[c.rank]})
    fives_class = len(values)  # the last class: the 5-cucumber cards
    worth = [*values, 5]
    members: list[list[Card]] = [[] for _ in worth]
    for c in p.deck:
        members[fives_class if five[c.rank] else values.index(cuc[c.rank])].append(c)
    avail = [len(group) for group in members]
    bonus = [cbe and goal[s] == BONUS for s in range(n)]
    anchored = cbe or not surprise  # a trick with a 5-cucumber card needs a card of another class
    tied = starters(state)
    most = per if surprise else (per + 1) // 2
    order = sorted(range(n), key=lambda s: (bonus[s], goal[s]))  # the tightest first, the -5 seats last
    # What the seats from each point of `order` on must capture: cucumbers (the -5 seats aside), -5 seats.
    due = [0] * (n + 1)
    loose = [0] * (n + 1)
    for index in range(n - 1, -1, -1):
        s = order[index]
        due[index] = due[index + 1] + (0 if bonus[s] else goal[s])
        loose[index] = loose[index + 1] + bonus[s]

    def _most_fives(minus_five: bool, count: int, tricks: int) -> int:
        """The most 5-cucumber cards a seat (`minus_five`: one that scored -5) may capture in
        `count` cards, `tricks` tricks."""
        most_f = count - tricks if anchored else count  # a card of another class in each trick
        if cbe and not minus_five:
            most_f = min(most_f, BONUS_FIVES - 1)
        return most_f

    def _trick_counts(s: int, tricks_left: int, left: list[int]) -> list[int]:
        """The numbers of tricks whose cards could carry seat `s`'s cucumbers (ascending)."""
        cap = per // 2 if tied == (s,) and not surprise else most
        found = []
        capped = list(left)
        for t in range(min(cap, tricks_left) + 1):
            most_f = min(left[fives_class], _most_fives(bonus[s], size * t, t))
            if bonus[s]:
                if most_f >= BONUS_FIVES and size * t <= sum(left):
                    found.append(t)
                continue
            capped[fives_class] = most_f
            lo, hi = _span(worth, capped, range(len(worth)), size * t)
            if lo <= goal[s] <= hi:
                found.append(t)
        return found

    work = 0
    failed: set[tuple[int, int, tuple[int, ...]]] = set()
    chosen: list[tuple[int, tuple[int, ...]]] = [(0, ())] * n

    # The classes in the order a seat's counts are chosen: the 5-cucumber cards first (the rules
    # bound how many a seat may capture), then the others by worth; the last takes what is left.
    sequence = [fives_class, *range(fives_class)]

    def vectors(
        count: int, points: int | None, left: list[int], tricks: int, fives: tuple[int, int]
    ) -> Iterator[tuple[int, ...]]:
        """Class counts for one seat: `count` cards worth `points` (None: a -5 seat), from `left`,
        with `fives[0]` to `fives[1]` 5-cucumber cards (what the seats after it leave it)."""
        x = [0] * len(worth)
        last = len(sequence) - 1
        # The fives a seat may capture: -5 seats four or more, other seats three at most
        # (If You Can't Beat 'Em); a card of another class beside them in each trick.
        low_f = max(fives[0], BONUS_FIVES if points is None else 0)
        high_f = min(fives[1], left[fives_class], _most_fives(points is None, count, tricks))
        # The sums the classes after each point can make (exactly: every partial choice completes).
        # With two classes (the default table) the choices are few and a range check does (cheaper).
        exact = points is not None and len(sequence) > 2
        reach = _reachable(worth, left, sequence, count) if exact else None

        def rec(at: int, k: int, sum_left: int) -> Iterator[tuple[int, ...]]:
            nonlocal work
            work += 1
            if work > WORK:
                return
            i = sequence[at]
            if at == last:
                if k <= left[i] and (points is None or k * worth[i] == sum_left):
                    x[i] = k
                    yield tuple(x)
                return
            rest = sequence[at:]
            if points is None:
                if k > sum(left[j] for j in rest):
                    return
            elif reach is None:
                lo, hi = _span(worth, left, rest, k)
                if not lo <= sum_left <= hi:
                    return
            if i == fives_class:
                options = list(range(low_f, high_f + 1))
                rng.shuffle(options)
            else:  # near this class's share of the cards left first (keep rare classes for later)
                share = k * left[i] / (sum(left[j] for j in rest) or 1)
                options = sorted(range(min(k, left[i]) + 1), key=lambda a: abs(a - share) + rng.random())
            if reach is not None:
                after = reach[at + 1]
                options = [
                    a
                    for a in options
                    if sum_left >= a * worth[i] and after[k - a] >> (sum_left - a * worth[i]) & 1
                ]
            for take in options:
                x[i] = take
                yield from rec(at + 1, k - take, sum_left - take * worth[i])
            x[i] = 0

        yield from rec(0, count, points if points is not None else 0)

    def search(index: int, tricks_left: int, left: list[int]) -> bool:
        nonlocal work
        if index == n:  # (the caps on each seat's tricks make an order of takers exist)
            return not tricks_left and not (cbe and left[fives_class])
        key = (index, tricks_left, tuple(left))
        work += 1
        if key in failed or work > WORK:
            return False
        # The seats still to place must be able to capture their cucumbers together.
        if loose[index]:
            fits = left[fives_class] >= BONUS_FIVES * loose[index] and sum(left) >= size * tricks_left
        else:
            lo, hi = _span(worth, left, range(len(worth)), size * tricks_left)
            fits = lo <= due[index] <= hi
        if fits:  # and each alone, with numbers of tricks that add up to those left
            low = high = 0
            for r in range(index, n):
                counts = _trick_counts(order[r], tricks_left, left)
                if not counts:
                    fits = False
                    break
                low += counts[0]
                high += counts[-1]
            fits = fits and low <= tricks_left <= high
        if fits and cbe and not loose[index]:  # every 5-cucumber card in play, three a seat at most
            fits = (
                sum(min(BONUS_FIVES - 1, goal[order[r]] // 5) for r in range(index, n)) >= left[fives_class]
            )
        if not fits or (cbe and tricks_left * size < left[fives_class]):
            failed.add(key)
            return False
        s = order[index]
        last = index == n - 1
        # If You Can't Beat 'Em puts every 5-cucumber card in play: this seat takes what the seats
        # after it cannot (three at most each, or none worth more than its points), and leaves
        # each -5 seat after it four.
        fives = (0, left[fives_class])
        if cbe:
            later = order[index + 1 :]
            room = sum(left[fives_class] if bonus[r] else min(BONUS_FIVES - 1, goal[r] // 5) for r in later)
            fives = (left[fives_class] - room, left[fives_class] - BONUS_FIVES * loose[index + 1])
        cap = per // 2 if tied == (s,) and not surprise else most  # the sole starter: not the 1st trick
        counts_t = [tricks_left] if last else list(range(min(tricks_left, cap) + 1))
        rng.shuffle(counts_t)
        for t in counts_t:
            if t > cap:
                continue
            points = None if bonus[s] else goal[s]
            for x in islice(vectors(size * t, points, left, t, fives), VECTORS):
                chosen[s] = (t, x)
                rest = [a - b for a, b in zip(left, x, strict=True)]
                if search(index + 1, tricks_left - t, rest):
                    return True
            if work > WORK:
                return False
        failed.add(key)
        return False

    if not search(0, per, avail):
        return None
    counts = [chosen[s][0] for s in range(n)]
    for _ in range(LAYOUTS):
        leaders = list(tied)
        rng.shuffle(leaders)
        for leader in leaders:
            takers = taker_order(counts, leader, surprise, rng)
            if takers is None:
                continue
            laid = _lay_out(chosen, takers, members, fives_class, size, anchored, rng)
            if laid is None:
                break
            tricks, spare = laid
            after = play(state, tricks, takers, leader, tied, spare, rng)
            if after is not None and after.match.results[m.rounds].points == tuple(goal):
                return after
            break
    return None


def taker_order(counts: Sequence[int], leader: int, surprise: bool, rng: random.Random) -> list[int] | None:
    """The takers of a hand's tricks, trick by trick: seat `s` takes `counts[s]` of them, or None.

    Without Surprise Cucumber a trick's leader never takes it, so no seat takes two
    tricks running and `leader` does not take the first. The seat with the most
    tricks still to take (ties at random) takes each next trick, which finds an
    order whenever one exists: when no seat has more than half the tricks (rounded
    up) and `leader` no more than half (rounded down).

    Example:
        >>> import random
        >>> taker_order([2, 1, 0], 1, False, random.Random(1))
        [0, 1, 0]
        >>> taker_order([2, 0, 0], 1, False, random.Random(1)) is None
        True
    """
    left = list(counts)
    out: list[int] = []
    if surprise:
        for s, k in enumerate(left):
            out += [s] * k
        rng.shuffle(out)
        return out
    last = leader
    for _ in range(sum(left)):
        top = max((left[s] for s in range(len(left)) if s != last), default=0)
        if top == 0:
            return None
        pick = rng.choice([s for s in range(len(left)) if s != last and left[s] == top])
        left[pick] -= 1
        out.append(pick)
        last = pick
    return out


def _lay_out(
    chosen: Sequence[tuple[int, tuple[int, ...]]],
    takers: Sequence[int],
    members: Sequence[Sequence[Card]],
    fives_class: int,
    size: int,
    anchored: bool,
    rng: random.Random,
) -> tuple[list[list[Card]], list[Card]] | None:
    """Cards for the tricks, in `takers`' order: each seat's classes split into its tricks, anchors
    matched to the tricks with 5-cucumber cards; also the cards left out. None if no anchors fit."""
    n = len(chosen)
    # Each seat's tricks as class lists: a card of another class first, when it has one per trick.
    shapes: list[list[list[int]]] = []
    for s in range(n):
        t, x = chosen[s]
        tokens = [i for i, k in enumerate(x) for _ in range(k)]
        others = [i for i in tokens if i != fives_class]
        rng.shuffle(others)
        tricks: list[list[int]] = [[] for _ in range(t)]
        if len(others) >= t:
            for trick in tricks:
                trick.append(others.pop())
        rest = [*others, *(i for i in tokens if i == fives_class)]
        rng.shuffle(rest)
        for trick in tricks:
            need = size - len(trick)
            trick += rest[:need]
            del rest[:need]
        shapes.append(tricks)
    taken = [0] * n
    layout: list[list[int]] = []
    for s in takers:
        layout.append(shapes[s][taken[s]])
        taken[s] += 1
    # The 5-cucumber cards, in runs: each trick's span is narrow, so anchors are easy to find.
    pool = [list(group) for group in members]
    for group in pool:
        rng.shuffle(group)
    used_fives = sum(trick.count(fives_class) for trick in layout)
    fives = sorted(pool[fives_class][:used_fives], key=_rank)
    cards: list[list[Card]] = [[] for _ in layout]
    positions = list(range(len(layout)))
    rng.shuffle(positions)
    k = 0
    for j in positions:
        count = layout[j].count(fives_class)
        cards[j] += fives[k : k + count]
        k += count
    spare = [c for c in pool[fives_class] if c not in fives]
    left = [list(group) for group in pool[:fives_class]]
    # Anchors: a card of one of the trick's other classes outside its 5-cucumber span (Kuhn's matching).
    needing = [j for j in range(len(layout)) if anchored and cards[j]]
    owner: dict[Card, int] = {}

    def fits(j: int, c: Card) -> bool:
        low, high = cards[j][0].rank, cards[j][-1].rank
        return c.rank < low or c.rank > high

    def candidates(j: int) -> list[Card]:
        found = [c for i in set(layout[j]) if i != fives_class for c in left[i] if fits(j, c)]
        rng.shuffle(found)
        return found

    def place(j: int, seen: set[Card]) -> bool:
        for c in candidates(j):
            if c in seen:
                continue
            seen.add(c)
            if c not in owner or place(owner[c], seen):
                owner[c] = j
                return True
        return False

    for j in needing:
        if not place(j, set()):
            return None
    anchor = {j: c for c, j in owner.items()}
    for c in owner:
        left[_class_of(c, members)].remove(c)
    for j, shape in enumerate(layout):
        wanted = [i for i in shape if i != fives_class]
        if j in anchor:
            cards[j].append(anchor[j])
            wanted.remove(_class_of(anchor[j], members))
        for i in wanted:
            cards[j].append(left[i].pop())
    for group in left:
        spare += group
    return cards, spare


def _span(worth: Sequence[int], left: Sequence[int], classes: Iterable[int], count: int) -> tuple[int, int]:
    """The fewest and the most cucumbers `count` cards of `classes` can carry (`left[i]` cards of
    class `i`, worth `worth[i]` each); `(1, 0)` if there are not enough cards.

    Example:
        >>> _span([1, 5], [3, 2], [0, 1], 4), _span([1, 5], [3, 2], [1], 4)
        ((8, 12), (1, 0))
    """
    pairs = sorted((worth[i], left[i]) for i in classes)
    if count > sum(k for _, k in pairs):
        return 1, 0
    lo = hi = 0
    need = count
    for value, k in pairs:
        take = min(need, k)
        lo += take * value
        need -= take
    need = count
    for value, k in reversed(pairs):
        take = min(need, k)
        hi += take * value
        need -= take
    return lo, hi


def _reachable(
    worth: Sequence[int], left: Sequence[int], sequence: Sequence[int], count: int
) -> list[list[int]]:
    """`reach[at][k]`: the sums `k` cards of the classes `sequence[at:]` can make, as a bit mask
    (bit `v` set for a sum of `v` cucumbers); `k` up to `count`, `left[i]` cards of class `i`.

    Example:
        >>> reach = _reachable([1, 5], [3, 2], [1, 0], 3)
        >>> [bin(m) for m in reach[0]], [bin(m) for m in reach[1]]
        (['0b1', '0b100010', '0b10001000100', '0b100010001000'], ['0b1', '0b10', '0b100', '0b1000'])
    """
    reach = [[1] + [0] * count]
    for i in reversed(sequence):
        after, value = reach[-1], worth[i]
        here = []
        for k in range(count + 1):
            mask = 0
            for take in range(min(k, left[i]) + 1):
                mask |= after[k - take] << (take * value)
            here.append(mask)
        reach.append(here)
    reach.reverse()
    return reach


def _class_of(c: Card, members: Sequence[Sequence[Card]]) -> int:
    for i, group in enumerate(members):
        if c in group:
            return i
    raise ValueError(f"{c} is in no class")


def _rank(c: Card) -> int:
    return c.rank
