"""The ladder's part of hidden-information sampling: rebuilding an earlier round from its result.

Only a round's last trick scores, so a round with a given result is built from
its last trick: the payer keeps the paid card, the seats that earned a tie bonus
keep cards of its rank, the 1s that doubled the penalty go to other seats, and
every other seat keeps a lower card (or one of the same rank, if none is lower).
Random other cards fill the hands, and the earlier tricks are played at random,
each seat keeping its last card (half the tries mostly shed the highest legal
card, as a cautious player does, and so keep low cards). The engine replays each try and keeps the first
whose result is the wanted one (with `reverse`, the payer and the seats of its
rank hold the lowest cards, another seat the paid one); when the tries fail (or
for an all-1s last trick) the game falls back to the generic search
(`cucumber_rules.sampling.search_round`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

from ...actions import trusted_deal
from ...cards import BY_INDEX, Card
from ...engine import apply, legal_moves
from ...errors import IllegalMoveError
from ...sampling import Sampling
from ...state import CHANCE, State
from .types import LadderMatch, LadderView, Revive, dealt_seats

if TYPE_CHECKING:
    from ...views import PlayerView
    from .rules import LadderRules

__all__ = ["LadderSampling", "rebuild_round"]

#: Deals tried before the generic search.
ATTEMPTS = 200


def rebuild_round(state: State, target: Any, rng: random.Random) -> State | None:
    """A legal round from `state` (its deal due) whose result is `target`, or None.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> target = cr.LadderResult(1, (0, 12, 0), (0, 12, 0), payer=1, card=cr.card("QH"))
        >>> rebuild_round(s, target, random.Random(1)).match.results[0] == target
        True
    """
    m = cast("LadderMatch", state.match)
    rules: LadderRules = m.rules
    plan = rules._plan
    rank = target.card.rank
    if rank == min(c.rank for c in plan.deck):
        return None
    seats = dealt_seats(m)
    payer = target.payer
    ties = [s for s in seats if s != payer and target.points[s] < 0]
    ones = 0
    value = plan.value[rank]
    if rules.doubling != "none" and value:
        ratio = target.points[payer] // value
        ones = ratio.bit_length() - 1 if rules.doubling == "per-one" else (1 if ratio == 2 else 0)
    doubled = rules.doubling != "none"
    others = [s for s in seats if s != payer and s not in ties]
    if ones > len(others):
        return None
    for _ in range(ATTEMPTS):
        found = _attempt(state, target, seats, payer, ties, ones, others, doubled, rng)
        if found is not None:
            return found
    return None


def _attempt(
    state: State,
    target: Any,
    seats: tuple[int, ...],
    payer: int,
    ties: list[int],
    ones: int,
    others: list[int],
    doubled: bool,
    rng: random.Random,
) -> State | None:
    rules = cast("LadderRules", state.match.rules)
    card: Card = target.card
    rank = card.rank
    pool = list(rules._plan.deck)
    pool.remove(card)
    rng.shuffle(pool)
    last: dict[int, Card] = {payer: card}

    def take(fits: Any) -> Card | None:
        for i, c in enumerate(pool):
            if fits(c):
                return pool.pop(i)
        return None

    chosen = list(others)
    rng.shuffle(chosen)
    if rules.reverse:  # the lowest card pays: the payer holds some rank below the taken card's
        return _reverse(state, target, seats, payer, ties, chosen, pool, last, rng)
    wanted = [(s, lambda c: c.rank == rank) for s in ties]
    wanted += [(s, lambda c: c.rank == 1) for s in chosen[:ones]]
    wanted += [(s, lambda c: c.rank < rank and not (doubled and c.rank == 1)) for s in chosen[ones:]]
    for s, fits in wanted:
        # No lower card left (the paid card is the lowest but for 1s): the same rank, played before
        # the payer's, takes nothing (it earns a tie bonus only where that rule is on).
        got = take(fits) or take(lambda c: c.rank == rank)
        if got is None:
            return None
        last[s] = got
    return _play_out(state, target, seats, last, pool, rng)


def _reverse(
    state: State,
    target: Any,
    seats: tuple[int, ...],
    payer: int,
    ties: list[int],
    others: list[int],
    pool: list[Card],
    last: dict[int, Card],
    rng: random.Random,
) -> State | None:
    """A last trick for `reverse`: someone takes the paid card, the payer (and ties) hold the lowest."""
    card: Card = target.card
    rank = card.rank
    del last[payer]
    pool.append(card)
    if not others:  # only the payer and the seats of its rank: every card of one rank, the payer's last
        wanted = [(payer, -1), *((s, rank) for s in ties)]
    else:
        taker = others[0]
        low = rng.choice([r for r in range(1, rank) if any(c.rank == r for c in pool)] or [0])
        if low == 0:
            return None
        wanted = [(taker, -1), (payer, low), *((s, low) for s in ties)]
        wanted += [(s, rng.randint(low + 1, rank) if low + 1 <= rank else rank) for s in others[1:]]
    for s, r in wanted:
        got = card if r == -1 else next((c for c in pool if c.rank == r), None)
        if got is None:
            return None
        pool.remove(got)
        last[s] = got
    return _play_out(state, target, seats, last, pool, rng)


def _play_out(
    state: State,
    target: Any,
    seats: tuple[int, ...],
    last: dict[int, Card],
    pool: list[Card],
    rng: random.Random,
) -> State | None:
    """Deal each seat its last card and random others; play the earlier tricks keeping the last cards."""
    rules = cast("LadderRules", state.match.rules)
    n = len(state.match.players)
    hands: list[tuple[Card, ...]] = [()] * n
    for s in seats:  # (shared cards, sorted as a `Deal` keeps them: no conversion; `apply` still checks it)
        hands[s] = tuple(sorted([last[s], *(pool.pop() for _ in range(rules.hand_size - 1))], key=BY_INDEX))
    try:
        after = apply(state, trusted_deal(tuple(hands)))
    except IllegalMoveError:
        return None
    number = state.match.rounds
    keep = {s: last[s] for s in seats}
    shed = rng.random() < 0.5  # half the tries shed high cards (and so keep low ones), half play at random
    rnd = rng.random
    while after.match.rounds == number and after.to_act is not None and after.to_act != CHANCE:
        seat = after.to_act
        moves = legal_moves(after)
        if len(after.held[seat]) > 1:  # (at its turn a seat's held cards are its hand)
            kept = keep[seat]
            moves = tuple([a for a in moves if a.card is not kept]) or moves  # type: ignore[union-attr]
        after = apply(after, moves[-1] if shed and rnd() < 0.8 else moves[int(rnd() * len(moves))])
    if after.match.rounds != number + 1 or after.match.results[number] != target:
        return None
    return after


class LadderSampling(Sampling):
    """The ladder's sampling: an earlier round rebuilt from its last trick, then its revival decision.

    Example:
        >>> type(LadderSampling()).__name__
        'LadderSampling'
    """

    __slots__ = ()

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """A round built from its last trick (`rebuild_round`; else searched for with the generic
        `cucumber_rules.sampling.search_round`), then the revival decision it led to.

        A seat eliminated with the revival rule decided to buy back in exactly when it
        sat out the next round: it came back at that round's end (`returned`), or sits
        out the round in play.
        """
        found = rebuild_round(state, view.results[index], rng)
        after = found if found is not None else super().rebuild_round(state, view, index, rng)
        m = cast("LadderMatch", after.match)
        v = cast("LadderView", view)
        for seat in m.pending:
            later = v.results[index + 1] if index + 1 < len(v.results) else None
            back = seat in later.returned if later is not None else seat in v.sitting_out
            after = apply(after, Revive(seat, back))
        return after
