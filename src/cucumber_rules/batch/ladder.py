"""The ladder kernel: Agurk, Gurka, Five Cucumbers and Fünf Gurken, every option, as array operations.

One step plays every lane's card at once (the follow rule is a table row: `ge[high] | eq[lowest]`,
forced following an `any`), ends the tricks that are complete, and runs the rare path (scoring,
thresholds, marks, eliminations, revival, winners, the next deal) only on the lanes whose round
ended. Each rule has one function here, named for it, so a test can plant a mutant in it.

Example:
    >>> from cucumber_rules import batch
    >>> env = batch.make("gurka", players=3, size=4)
    >>> s = env.init(1)
    >>> s = env.step(s, s.legal_action_mask.argmax(axis=1))
    >>> s.trick_len.tolist()
    [1, 1, 1, 1]
"""

from __future__ import annotations

import numpy as np

from . import rng
from .backend import Array, Backend
from .lanes import blend, on_lanes, reset_matches, seat_mask, seat_sum, win
from .spec import BITS, NEXT, PREV, SEAT_AT, Spec
from .state import BatchState

__all__ = [
    "advance",
    "comeback_total",
    "deal",
    "deal_cards",
    "decide",
    "end_round",
    "follow",
    "legal",
    "new_matches",
    "offers_revival",
    "pay",
    "reset_total",
    "takes",
    "thresholds",
    "winners",
]

BIG = 1 << 29
#: Fields the ladder's end of a round never reads: Catastrophe's, and the public ones a step makes anew.
UNUSED: frozenset[str] = frozenset({"stock", "marker", "captured", "fives", "low", "legal_action_mask"})


# --------------------------------------------------------------------------- the rules, one function each


def takes(spec: Spec, rank: Array, high: Array, lead: Array, first: Array) -> Array:
    """The card played takes the trick so far: the first card, or one at least as high as the highest
    (the later of equal cards), unless a top-rank card was led (`ace_lead`: it keeps the trick)."""
    take = rank >= high
    if spec.ace >= 0:
        take &= first | (lead != spec.ace)
    return take


def follow(spec: Spec, held: Array, high: Array, low: Array) -> Array:
    """The follow rule: a card at least as high as the highest in the trick, or a lowest card; forced
    following: a lowest card only when none is high enough. (`high` 0 when leading: any card.)"""
    if not spec.forced:  # one row of `either`: ge[high] | eq[low]
        out: Array = spec.either.take(high * spec.eq.shape[0] + low, axis=0) & held
        return out
    # forced: the cards of rank >= high if any is held, else the lowest (`rows`: ge's rows, then eq's)
    some: Array = np.logical_or.reduce(spec.ge.take(high, axis=0) & held, axis=1)
    found: Array = spec.rows.take(np.where(some, high, spec.ge.shape[0] + low), axis=0) & held
    return found


def pay(spec: Spec, played: Array, ranks: Array, taker: Array, taken: Array, order: Array
        ) -> tuple[Array, Array, Array]:  # fmt: skip
    """Who pays for the last trick, at which rank, and how much: the taker pays the value of the card
    taking (with `reverse` the last of the lowest cards pays it), doubled by 1s (`doubling`)."""
    payer, paying = taker, taken
    if spec.reverse:
        low = np.where(played, ranks, BIG)
        lowest = low.min(axis=1)
        last = np.where(played & (low == lowest[:, None]), order, -1)
        payer, paying = last.argmax(axis=1).astype(np.int32), lowest
    amount = spec.value.take(taken)
    if spec.doubling != "none":
        ones = (played & (ranks == 1)).sum(axis=1)
        if spec.doubling == "per-one":
            amount = amount << ones.astype(np.int32)
        else:
            amount = np.where(ones > 0, amount * 2, amount)
    return payer, paying, amount.astype(np.int32)


def thresholds(spec: Spec, totals: Array, marks: Array, payer_total: Array, payer_marks: Array
               ) -> tuple[Array, Array]:  # fmt: skip
    """Reaching the threshold: an elimination on the last life, else a cucumber mark (and a reset)."""
    cross = payer_total >= spec.threshold
    out = cross & (payer_marks + 1 >= spec.lives)
    return out, cross & ~out


def reset_total(totals: Array, dealt: Array, out: Array, payer: Array) -> Array:
    """A marked payer's new total: the highest total of the other seats dealt in and still in (or 0)."""
    others = dealt & (out == 0) & (np.arange(totals.shape[1])[None, :] != payer[:, None])
    found: Array = np.where(others, totals, 0).max(axis=1)
    return found


def comeback_total(totals: Array, dealt: Array, out: Array) -> Array:
    """A seat that sat out a round comes back with the highest total of the seats dealt in, still in."""
    found: Array = np.where(dealt & (out == 0), totals, 0).max(axis=1)
    return found


def offers_revival(spec: Spec, eliminated: Array, revived: Array, others: Array) -> Array:
    """Revival is offered to an eliminated payer who has not used it, while two other players are in."""
    found: Array = eliminated & ~revived & (others >= 2)
    return found


def winners(spec: Spec, totals: Array, alive: Array, seated: Array, number: Array, n: Array,
            pending: Array) -> tuple[Array, Array]:  # fmt: skip
    """The winners once a round is scored (none while the match goes on), and the pending revivals left:
    after `fixed_rounds` the lowest total; else the last seat in; else at the round limit the lowest
    total still in (an eliminated payer then stays out)."""
    if spec.fixed_rounds:
        lowest = np.where(seated, totals, BIG).min(axis=1)
        done = number >= spec.fixed_rounds
        return seated & (totals == lowest[:, None]) & done[:, None], pending
    sole = (alive.sum(axis=1) == 1) & (pending < 0)
    limit = ~sole & (number >= spec.limit.take(n))
    lowest = np.where(alive, totals, BIG).min(axis=1)
    found = alive & (sole[:, None] | (limit[:, None] & (totals == lowest[:, None])))
    return found, np.where(limit, -1, pending)


def legal(bk: Backend, spec: Spec, st: BatchState) -> Array:
    """The legal action ids of every lane's seat to act: its follow rule, or the revival decisions."""
    b = st.current_player.shape[0]
    s, k = spec.seats, spec.num_cards
    p = np.maximum(st.current_player, 0)
    rows = bk.take(st.hands.reshape(b * s, k), np.arange(b, dtype=np.int32) * s + p)
    held = rows.view(bool) if spec.unique else rows > 0  # (0/1 counts are bools already)
    low = spec.rank.take(held.argmax(axis=1))
    high = st.high
    if spec.ace >= 0:  # after a led top card only the lowest cards: a `ge` row with no card
        high = np.where((st.lead == spec.ace) & (st.trick_len > 0), spec.ace + 1, high)
    mask = follow(spec, held, high, low)
    if spec.revival:  # the revival decisions' ids follow the cards'
        deciding = (st.pending >= 0)[:, None]
        mask = np.concatenate([mask, deciding, deciding], axis=1)
    if bk.some(st.over):
        mask = mask | st.over[:, None]
    return mask


# --------------------------------------------------------------------------- a step


def advance(bk: Backend, spec: Spec, st: BatchState, actions: Array, auto_reset: bool) -> BatchState:
    """Apply every lane's action (all lanes in play, each action legal): a card, or a revival decision."""
    if spec.revival:
        deciding = st.pending >= 0
        if bk.some(deciding):
            st = on_lanes(bk, st, deciding, lambda t: decide(bk, spec, t, actions[deciding], auto_reset))
            return on_lanes(bk, st, ~deciding, lambda t: _play(bk, spec, t, actions[~deciding], auto_reset))
    return _play(bk, spec, st, actions, auto_reset)


def _play(bk: Backend, spec: Spec, st: BatchState, a: Array, auto_reset: bool) -> BatchState:
    b = a.shape[0]
    s, k = spec.seats, spec.num_cards
    p = st.current_player
    seat = np.arange(b, dtype=np.int32) * s + p
    hands = bk.add_at(st.hands, seat * k + a, -1)
    trick = bk.set_at(st.trick, seat, a)
    rank = bk.take(spec.rank, a)
    first = st.trick_len == 0
    lead = np.where(first, rank, st.lead) if spec.ace >= 0 else st.lead
    take = takes(spec, rank, st.high, lead, first)
    best = np.where(take, p, st.best)
    high = np.where(take, rank, st.high)
    trick_len = st.trick_len + 1
    end = trick_len == st.in_round
    nxt = bk.take(NEXT, p * BITS + st.seats)
    st = st._replace(hands=hands, trick=trick, lead=lead, best=best, high=high, trick_len=trick_len,
                     current_player=np.where(end, best, nxt))  # fmt: skip
    if not bk.some(end):
        return st
    tricks = st.tricks + end
    over = end & (tricks == spec.hand.take(st.players))
    led = st.leader
    st = st._replace(
        tricks=tricks,
        leader=np.where(end, best, led),
        trick=np.where(end[:, None], -1, trick),
        trick_len=np.where(end, 0, trick_len),
        high=np.where(end, 0, high),
        best=np.where(end, -1, best),
    )
    if not bk.some(over):
        return st
    # the round's last trick: `trick`, `best`, `high` and `led` before they were cleared
    lanes = np.flatnonzero(over)
    last, taker, taken, leader = trick[lanes], best[lanes], high[lanes], led[lanes]
    return on_lanes(
        bk, st, over, lambda t: end_round(bk, spec, t, last, taker, taken, leader, auto_reset), UNUSED
    )


def end_round(bk: Backend, spec: Spec, st: BatchState, last: Array, taker: Array, taken: Array,
              leader: Array, auto_reset: bool) -> BatchState:  # fmt: skip
    """Score the round's last trick (`last`: each seat's card, `taker` its taker at rank `taken`), then
    thresholds, marks, eliminations, revivals, returns and winners; then a deal, a revival decision,
    or the match's end."""
    b, s = last.shape
    n = st.players
    seat = np.arange(s, dtype=np.int32)[None, :]
    seated = seat < n[:, None]
    played = last >= 0
    ranks = np.where(played, spec.rank.take(np.maximum(last, 0)), 0)
    order = (seat - leader[:, None]) % n[:, None]
    payer, paying, amount = pay(spec, played, ranks, taker, taken, order)
    lane = np.arange(b, dtype=np.int32)
    at = lane * s + payer
    totals = bk.add_at(st.totals.copy(), at, amount)
    if spec.tie_bonus:
        bonus = played & (ranks == paying[:, None]) & (seat != payer[:, None])
        totals = np.where(bonus, np.maximum(totals - amount[:, None], 0), totals)
    marks, out, revived, sitting = st.marks.copy(), st.out.copy(), st.revived, st.sitting
    number = st.rounds + 1
    pending = np.full(b, -1, np.int32)
    dealt = seat_mask(st.seats, s)
    if not spec.fixed_rounds:
        eliminated, marked = thresholds(spec, totals, marks, totals.reshape(-1)[at], marks.reshape(-1)[at])
        out = bk.set_at(out, at, np.where(eliminated, number, out.reshape(-1)[at]))
        if spec.revival:
            others = ((out == 0) & seated & (seat != payer[:, None])).sum(axis=1)
            offer = offers_revival(spec, eliminated, revived.reshape(-1)[at], others)
            pending = np.where(offer, payer, -1).astype(np.int32)
        if bk.some(marked):
            marks = bk.add_at(marks, at, marked)
            reset = np.where(marked, reset_total(totals, dealt, out, payer), totals.reshape(-1)[at])
            totals = bk.set_at(totals, at, reset)
    if spec.revival and bk.some(sitting):  # the seats that sat out come back
        totals = np.where(sitting, comeback_total(totals, dealt, out)[:, None], totals)
        sitting = np.zeros_like(sitting)
    found, pending = winners(spec, totals, (out == 0) & seated, seated, number, n, pending)
    done: Array = np.logical_or.reduce(found, axis=1)
    to_act = np.where(pending >= 0, pending, st.current_player)
    st = st._replace(totals=totals, marks=marks, out=out, sitting=sitting, pending=pending, rounds=number,
                     payer=payer, current_player=to_act)  # fmt: skip
    dealing = pending < 0
    if bk.some(done):
        st = win(st, found, done, auto_reset)
        if auto_reset:
            st = reset_matches(bk, st, done)
        else:
            dealing = dealing & ~done
    return deal(bk, spec, st, None if dealing.all() else dealing)


def decide(bk: Backend, spec: Spec, st: BatchState, a: Array, auto_reset: bool) -> BatchState:
    """Revival decisions (`a` = K: buy back in and sit out the next round; K + 1: stay out), then the deal."""
    b = a.shape[0]
    at = np.arange(b, dtype=np.int32) * spec.seats + st.pending
    back = a == spec.num_cards
    out = bk.set_at(st.out.copy(), at, np.where(back, 0, st.out.reshape(-1)[at]))
    revived = bk.set_at(st.revived.copy(), at, back | st.revived.reshape(-1)[at])
    sitting = bk.set_at(st.sitting.copy(), at, back | st.sitting.reshape(-1)[at])
    st = st._replace(out=out, revived=revived, sitting=sitting, pending=np.full_like(st.pending, -1))
    return deal(bk, spec, st)


# --------------------------------------------------------------------------- dealing


def new_matches(bk: Backend, spec: Spec, st: BatchState) -> BatchState:
    """Start the lanes' next matches and deal their first rounds."""
    return deal(bk, spec, reset_matches(bk, st))


def deal_cards(bk: Backend, spec: Spec, key: Array, match: Array, rounds: Array, bits: Array) -> Array:
    """The hands of a deal, (B, S, K) counts: the deck shuffled by (key, match, round), `hand_size`
    cards to each seat of `bits` in seat order. The scalar replays (`to_scalar`) deal with it too."""
    b, s, k = key.shape[0], spec.seats, spec.num_cards
    slots = spec.deck.shape[0]
    order = bk.sort_order(rng.shuffle_keys(rng.seed_of(key, match, rounds, rng.DEAL), slots))
    place = np.empty_like(order)  # each deck slot's place in the shuffled deck
    np.put_along_axis(place, order, np.broadcast_to(np.arange(slots, dtype=np.int32), order.shape), axis=1)
    # the slot at place p goes to the (p // hand_size)-th seat of `bits` (-1: not dealt)
    gets = bk.take(SEAT_AT, bits[:, None] * 8 + np.minimum(place // spec.max_hand, 7))
    held = gets[:, None, :] == np.arange(s, dtype=np.int32)[None, :, None]  # (b, S, slots)
    if spec.unique:
        out: Array = held.astype(np.int8)
    else:  # (the deck lists an id's copies together)
        out = held.reshape(b, s, k, slots // k).sum(axis=3, dtype=np.int8)
    return out


def deal(bk: Backend, spec: Spec, st: BatchState, where: Array | None = None) -> BatchState:
    """Deal the lanes' coming rounds (those of `where`, default all): the seats in play and not sitting
    out, the dealer and the leader."""
    s = spec.seats
    n = st.players
    seat = np.arange(s, dtype=np.int32)[None, :]
    dealt = (st.out == 0) & ~st.sitting & (seat < n[:, None])
    bits = (dealt.astype(np.int32) << seat).sum(axis=1).astype(np.int32)
    if spec.rotate:
        dealer = bk.take(NEXT, st.dealer * BITS + bits)
        leader = bk.take(NEXT, dealer * BITS + bits)
    else:
        payer = np.maximum(st.payer, 0)
        leader = np.where((bits >> payer) & 1 == 1, payer, bk.take(NEXT, payer * BITS + bits))
        dealer = bk.take(PREV, leader * BITS + bits)
    fresh = st.rounds == 0
    dealer = np.where(fresh, (st.first - 1) % n, dealer).astype(np.int32)
    leader = np.where(fresh, st.first, leader).astype(np.int32)
    hands = deal_cards(bk, spec, st.key, st.match, st.rounds, bits)
    return blend(
        st,
        where,
        hands=hands,
        dealt=seat_sum(hands),
        trick=np.full_like(st.trick, -1),
        trick_len=np.zeros_like(st.trick_len),
        best=np.full_like(st.best, -1),
        high=np.zeros_like(st.high),
        lead=np.full_like(st.lead, -1),
        tricks=np.zeros_like(st.tricks),
        seats=bits,
        in_round=dealt.sum(axis=1, dtype=np.int32),
        dealer=dealer,
        leader=leader,
        current_player=leader.copy(),
        pending=np.full_like(st.pending, -1),
    )
