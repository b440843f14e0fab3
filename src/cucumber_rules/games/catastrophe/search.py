"""Catastrophe's earlier hands found by a randomised local search (where `rebuild.construct_hand` cannot).

The hand's cards are grouped into tricks, each given to a taker, and cards are moved between
tricks (and the undealt cards) and takers changed until every seat's cucumbers are right;
the tricks are then laid out as a deal and plays in an order that is always legal
(`sampling.play_hand`, which `rebuild.construct_hand` uses too), and the engine replays them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ...cards import Card
from ...state import State
from .rules import BONUS, BONUS_FIVES, CatastropheRules
from .scoring import starters

#: Local-search steps per attempt, and attempts, of `rebuild_hand` (after `construct_hand`).
STEPS = 6000
ATTEMPTS = 6


def search_hand(
    state: State, target: Any, rng: random.Random, play: Callable[..., State | None]
) -> State | None:
    """A legal hand from `state` (its deal due) whose result equals `target`, searched for; or None.

    Up to `ATTEMPTS` searches of `STEPS` steps each, each from a new random start. `play(state,
    tricks, takers, leader, tied, spare, rng)` lays the tricks found out as a deal and plays
    (`sampling.play_hand`), as for `rebuild.construct_hand`.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.games.catastrophe.sampling import play_hand
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
        >>> target = cr.RoundResult(1, (12, 9, 17), (12, 9, 17))
        >>> search_hand(s, target, random.Random(1), play_hand).match.totals
        (12, 9, 17)
    """
    for _ in range(ATTEMPTS):
        found = _attempt(state, target, rng, play)
        if found is not None:
            return found
    return None


def _attempt(
    state: State, target: Any, rng: random.Random, play: Callable[..., State | None]
) -> State | None:
    m = state.match
    rules = m.rules
    assert isinstance(rules, CatastropheRules)
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
        low = min(trick, key=rank_key)
        high = max(trick, key=rank_key)
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
    return play(state, tricks, takers, leader, tied, spare, rng)


def rank_key(c: Card) -> int:
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
