"""Catastrophe's part of hidden-information sampling (`cucumber_rules.sampling`).

- `complete_deal`: a hand's deal from what a viewer knows: the stock starts with
  the cards revealed so far (Surprise Cucumber) and If You Can't Beat 'Em keeps
  every 5-cucumber card in the hands;
- `rebuild_hand`: an earlier hand that ends with given cucumbers per seat, built
  directly rather than searched for by playing. First the exact, bounded search
  of `rebuild.construct_hand` (trick counts and card classes per seat, then cards
  with anchors, played in an always-legal order): it builds every hand of the
  kind described there. Only a hand that needs a trick made of 5-cucumber cards
  alone (a custom cucumbers table, or a tiny hand with If You Can't Beat 'Em)
  falls back to the older randomised local search: the hand's cards are grouped
  into tricks, each given to a taker, and cards are moved between tricks (and the
  undealt cards) and takers changed until every seat's cucumbers are right; and
  if that fails too, the game falls back to the generic
  `cucumber_rules.sampling.search_round`, which plays random hands. Every trick
  is played in an order that is always legal: the lead (or the revealed card) is
  the trick's lowest card and the taker plays its highest, so the marker is High
  and everyone obeys it (or the mirror image, Low). The leader never takes a
  trick from hand, so takers of consecutive tricks differ (with Surprise the
  first player may take it). The engine replays the result and checks it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...actions import Action, Deal, Play, trusted_deal
from ...cards import Card
from ...engine import apply
from ...errors import IllegalMoveError
from ...sampling import Sampling
from ...state import State
from .rebuild import construct_hand
from .rules import BONUS, BONUS_FIVES
from .scoring import starters
from .types import Revealed

if TYPE_CHECKING:
    from ...views import Dealt, Event, PlayerView
    from .rules import CatastropheRules

__all__ = ["CatastropheSampling", "complete_deal", "rebuild_hand"]

#: Local-search steps per attempt, and attempts, of `rebuild_hand` (after `construct_hand`).
STEPS = 6000
ATTEMPTS = 6


def complete_deal(
    state: State,
    known: tuple[tuple[Card, ...], ...],
    dealt: Dealt,
    events: tuple[Any, ...],
    allowed: Callable[[int, Card], bool],
    rng: random.Random,
) -> Deal | None:
    """A Catastrophe deal that fits a viewer's knowledge (see `Game.complete_deal`).

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True, hand_size=2), players=3)
        >>> d = cr.Dealt(hand=(cr.card("7"), cr.card("9")), sizes=(2, 2, 2))
        >>> deal = complete_deal(s, ((cr.card("7"), cr.card("9")), (), ()), d,
        ...                      (cr.Revealed(cr.card("30")),), lambda s, c: True, random.Random(1))
        >>> deal.hands[0], deal.stock[0], len(deal.stock)
        ((card('7'), card('9')), card('30'), 54)
    """
    from ...sampling import assign_cards, joined_hands, remaining_cards

    rules = cast("CatastropheRules", state.match.rules)
    p = rules._plan
    reveals = [e.card for e in events if type(e) is Revealed]
    pool = remaining_cards(p.deck, *known, reveals)
    needs = [size - len(hand) for size, hand in zip(dealt.sizes, known, strict=True)]
    five = p.five
    spare = (lambda c: not five[c.rank]) if rules.cant_beat_em else None
    found = assign_cards(pool, needs, allowed, rng, spare=spare)
    if found is None:
        return None
    hidden, rest = found
    hands = joined_hands(known, hidden)
    stock: tuple[Card, ...] = ()
    if rules.surprise:
        left = list(rest)
        rng.shuffle(left)
        if rules.cant_beat_em:
            per = rules.cards_per_player(len(known))
            left = left[: per - len(reveals)]
        stock = (*reveals, *left)
    return trusted_deal(hands, stock, dealt.leader)


def rebuild_hand(state: State, target: Any, rng: random.Random) -> State | None:
    """A legal hand from `state` (its deal due) whose result equals `target`, or None.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
        >>> target = cr.RoundResult(1, (12, 9, 17), (12, 9, 17))
        >>> rebuild_hand(s, target, random.Random(1)).match.totals
        (12, 9, 17)
    """
    found = construct_hand(state, target, rng, _play)
    if found is not None:
        return found
    for _ in range(ATTEMPTS):
        found = _attempt(state, target, rng)
        if found is not None:
            return found
    return None


def _attempt(state: State, target: Any, rng: random.Random) -> State | None:
    m = state.match
    rules = cast("CatastropheRules", m.rules)
    p = rules._plan
    n = len(m.players)
    per = rules.cards_per_player(n)
    surprise = rules.surprise
    cbe = rules.cant_beat_em
    size = n + 1 if surprise else n
    cuc = p.cucumbers
    five = p.five
    tied = starters(state)
    leader = rng.choice(tied)
    goal: Sequence[int] = target.points

    # The hand's cards: every 5-cucumber card with If You Can't Beat 'Em, the rest at random.
    deck = list(p.deck)
    rng.shuffle(deck)
    if cbe:
        others = [c for c in deck if not five[c.rank]]
        chosen = list(p.fives) + others[: per * size - len(p.fives)]
        spare = others[per * size - len(p.fives) :]
    else:
        chosen, spare = deck[: per * size], deck[per * size :]
    rng.shuffle(chosen)
    tricks = [chosen[j * size : (j + 1) * size] for j in range(per)]
    mean = sum(cuc[c.rank] for c in chosen) / per
    bonus = [s for s in range(n) if cbe and goal[s] == BONUS]
    left = sum(cuc[c.rank] for c in chosen) - sum(g for s, g in enumerate(goal) if s not in bonus)
    shares = [
        max(0, left / len(bonus) if s in bonus else g) / mean if mean else 1 for s, g in enumerate(goal)
    ]
    takers = _takers(per, n, leader, surprise, shares, rng)
    value = [sum(cuc[c.rank] for c in t) for t in tricks]
    count = [sum(1 for c in t if five[c.rank]) for t in tricks]

    def bad(trick: list[Card]) -> int:
        # 0 if a legal order exists: an extreme card may lead (or be the revealed card).
        low = min(trick, key=_rank)
        high = max(trick, key=_rank)
        if surprise and not cbe:
            return 0
        return 3 if five[low.rank] and five[high.rank] else 0

    flaws = [bad(t) for t in tricks]

    def cost() -> int:
        got = [0] * n
        fives = [0] * n
        for j, t in enumerate(takers):
            got[t] += value[j]
            fives[t] += count[j]
        total = sum(flaws)
        rest = sum(value) - sum(g for s, g in enumerate(goal) if s not in bonus)
        for s in range(n):
            if s in bonus:  # four 5-cucumber cards or more, and what the others do not take
                total += 6 * max(0, BONUS_FIVES - fives[s]) + abs(got[s] * len(bonus) - rest)
            elif cbe and fives[s] >= BONUS_FIVES:
                total += 6 * (fives[s] - BONUS_FIVES + 1) + abs(got[s] - goal[s])
            else:
                total += abs(got[s] - goal[s])
        return total

    def refresh(j: int) -> None:
        t = tricks[j]
        value[j] = sum(cuc[c.rank] for c in t)
        count[j] = sum(1 for c in t if five[c.rank])
        flaws[j] = bad(t)

    current = cost()
    rnd = rng.random
    for step in range(STEPS):
        if current == 0:
            break
        slack = 0.05 * (1.0 - step / STEPS)  # accept a worse step now and then, less and less often
        move = rnd()
        if move < 0.2 and per > 1:  # another taker for one trick
            j = rng.randrange(per)
            old = takers[j]
            takers[j] = rng.randrange(n)
            if not _takers_ok(takers, leader, surprise):
                takers[j] = old
                continue
            new = cost()
            if new <= current or rnd() < slack:
                current = new
            else:
                takers[j] = old
        elif move < 0.45 and spare:  # a card of a trick for an undealt one
            j = rng.randrange(per)
            i = rng.randrange(size)
            k = rng.randrange(len(spare))
            if cbe and five[tricks[j][i].rank]:
                continue
            tricks[j][i], spare[k] = spare[k], tricks[j][i]
            refresh(j)
            new = cost()
            if new <= current or rnd() < slack:
                current = new
            else:
                tricks[j][i], spare[k] = spare[k], tricks[j][i]
                refresh(j)
        elif per > 1:  # two cards of different tricks trade places
            a, b = rng.sample(range(per), 2)
            i, k = rng.randrange(size), rng.randrange(size)
            tricks[a][i], tricks[b][k] = tricks[b][k], tricks[a][i]
            refresh(a)
            refresh(b)
            new = cost()
            if new <= current or rnd() < slack:
                current = new
            else:
                tricks[a][i], tricks[b][k] = tricks[b][k], tricks[a][i]
                refresh(a)
                refresh(b)
    if current:
        return None
    return _play(state, tricks, takers, leader, tied, spare, rng)


def _rank(c: Card) -> int:
    return c.rank


def _takers(
    per: int, n: int, leader: int, surprise: bool, shares: list[float], rng: random.Random
) -> list[int]:
    """Takers for the tricks: about `shares[s]` tricks each, never the trick's leader (unless Surprise)."""
    total = sum(shares) or 1.0
    want = [x * per / total for x in shares]
    counts = [int(x) for x in want]
    for s in sorted(range(n), key=lambda s: counts[s] - want[s])[: per - sum(counts)]:
        counts[s] += 1
    takers: list[int] = []
    last = leader
    for _ in range(per):
        choices = [s for s in range(n) if counts[s] > 0 and (surprise or s != last)]
        if not choices:
            choices = [s for s in range(n) if surprise or s != last]
        top = max(counts[s] for s in choices)
        t = rng.choice([s for s in choices if counts[s] == top])
        counts[t] -= 1
        takers.append(t)
        last = t
    return takers


def _takers_ok(takers: list[int], leader: int, surprise: bool) -> bool:
    if surprise:
        return True
    last = leader
    for t in takers:
        if t == last:
            return False
        last = t
    return True


def _play(
    state: State,
    tricks: list[list[Card]],
    takers: list[int],
    leader: int,
    tied: tuple[int, ...],
    spare: list[Card],
    rng: random.Random,
) -> State | None:
    """Lay the tricks out as a deal and plays in a legal order; replay them with the engine."""
    m = state.match
    rules = cast("CatastropheRules", m.rules)
    p = rules._plan
    n = len(m.players)
    five = p.five
    surprise = rules.surprise
    hands: list[list[Card]] = [[] for _ in range(n)]
    reveals: list[Card] = []
    plays: list[Action] = []
    lead = leader
    for trick, taker in zip(tricks, takers, strict=True):
        ordered = sorted(trick, key=_rank)
        low, high = ordered[0], ordered[-1]
        if surprise:  # the revealed card is the lowest (High) or the highest (Low)
            rising = not (rules.cant_beat_em and five[low.rank])
            reveal = low if rising else high
            reveals.append(reveal)
            rest = ordered[1:] if rising else ordered[:-1]
            best = rest[-1] if rising else rest[0]
            middle = rest[:-1] if rising else rest[1:]
            seats = [(lead + k) % n for k in range(n)]
            cards: dict[int, Card] = {taker: best}
            others = [s for s in seats if s != taker]
        else:  # the lead is the lowest (High) or the highest (Low); the taker plays the other extreme
            rising = not five[low.rank]
            first, best = (low, high) if rising else (high, low)
            middle = ordered[1:-1]
            seats = [(lead + k) % n for k in range(n)]
            cards = {lead: first, taker: best}
            others = [s for s in seats if s not in cards]
        rng.shuffle(middle)
        for s, c in zip(others, middle, strict=True):
            cards[s] = c
        for s in seats:
            hands[s].append(cards[s])
            plays.append(Play(s, cards[s]))
        lead = taker
    stock: list[Card] = []
    if surprise:
        stock = reveals + ([] if rules.cant_beat_em else spare)
    deal = Deal(hands=hands, stock=stock, leader=leader if len(tied) > 1 else None)
    try:
        after = apply(state, deal)
        for a in plays:
            after = apply(after, a)
    except IllegalMoveError:
        return None
    if after.match.rounds != m.rounds + 1:
        return None
    return after


class CatastropheSampling(Sampling):
    """Catastrophe's sampling: the stock starts with the revealed cards; earlier hands are built.

    Example:
        >>> type(CatastropheSampling()).__name__
        'CatastropheSampling'
    """

    __slots__ = ()

    def complete_deal(
        self,
        state: State,
        known: tuple[tuple[Card, ...], ...],
        dealt: Dealt,
        events: tuple[Event, ...],
        allowed: Callable[[int, Card], bool],
        rng: random.Random,
    ) -> Deal | None:
        """See `complete_deal`: the stock starts with the revealed cards."""
        return complete_deal(state, known, dealt, events, allowed, rng)

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """See `rebuild_hand`: a hand built to end with the view's cucumbers, else searched for."""
        found = rebuild_hand(state, view.results[index], rng)
        return found if found is not None else super().rebuild_round(state, view, index, rng)
