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

from . import rng
from .backend import Array, Backend
from .lanes import blend, on_lanes, reset_matches, seat_mask, win
from .spec import BITS, NEXT, PREV, Spec
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
        take = take & (first | (lead != spec.ace))
    return take


def follow(bk: Backend, spec: Spec, held: Array, high: Array, low: Array) -> Array:
    """The follow rule: a card at least as high as the highest in the trick, or a lowest card; forced
    following: a lowest card only when none is high enough. (`high` 0 when leading: any card.)"""
    if not spec.forced:  # one row of `either`: ge[high] | eq[low]
        out: Array = bk.take(spec.either, high * spec.eq.shape[0] + low) & held
        return out
    # forced: the cards of rank >= high if any is held, else the lowest (`rows`: ge's rows, then eq's)
    some = bk.any_rows(bk.take(spec.ge, high) & held)
    found: Array = bk.take(spec.rows, bk.xp.where(some, high, spec.ge.shape[0] + low)) & held
    return found


def pay(bk: Backend, spec: Spec, played: Array, ranks: Array, taker: Array, taken: Array, order: Array
        ) -> tuple[Array, Array, Array]:  # fmt: skip
    """Who pays for the last trick, at which rank, and how much: the taker pays the value of the card
    taking (with `reverse` the last of the lowest cards pays it), doubled by 1s (`doubling`)."""
    xp = bk.xp
    payer, paying = taker, taken
    if spec.reverse:
        low = xp.where(played, ranks, BIG)
        lowest = low.min(axis=1)
        last = xp.where(played & (low == lowest[:, None]), order, -1)
        payer, paying = last.argmax(axis=1).astype(xp.int32), lowest
    amount = bk.take(spec.value, taken)
    if spec.doubling != "none":
        ones = (played & (ranks == 1)).sum(axis=1, dtype=xp.int32)
        amount = amount << ones if spec.doubling == "per-one" else xp.where(ones > 0, amount * 2, amount)
    return payer, paying, amount.astype(xp.int32)


def thresholds(spec: Spec, totals: Array, marks: Array, payer_total: Array, payer_marks: Array
               ) -> tuple[Array, Array]:  # fmt: skip
    """Reaching the threshold: an elimination on the last life, else a cucumber mark (and a reset)."""
    cross = payer_total >= spec.threshold
    out = cross & (payer_marks + 1 >= spec.lives)
    return out, cross & ~out


def reset_total(bk: Backend, totals: Array, dealt: Array, out: Array, payer: Array) -> Array:
    """A marked payer's new total: the highest total of the other seats dealt in and still in (or 0)."""
    xp = bk.xp
    others = dealt & (out == 0) & (xp.arange(totals.shape[1], dtype=xp.int32)[None, :] != payer[:, None])
    found: Array = xp.where(others, totals, 0).max(axis=1)
    return found


def comeback_total(bk: Backend, totals: Array, dealt: Array, out: Array) -> Array:
    """A seat that sat out a round comes back with the highest total of the seats dealt in, still in."""
    found: Array = bk.xp.where(dealt & (out == 0), totals, 0).max(axis=1)
    return found


def offers_revival(spec: Spec, eliminated: Array, revived: Array, others: Array) -> Array:
    """Revival is offered to an eliminated payer who has not used it, while two other players are in."""
    found: Array = eliminated & ~revived & (others >= 2)
    return found


def winners(bk: Backend, spec: Spec, totals: Array, alive: Array, seated: Array, number: Array, n: Array,
            pending: Array) -> tuple[Array, Array]:  # fmt: skip
    """The winners once a round is scored (none while the match goes on), and the pending revivals left:
    after `fixed_rounds` the lowest total; else the last seat in; else at the round limit the lowest
    total still in (an eliminated payer then stays out)."""
    xp = bk.xp
    if spec.fixed_rounds:
        lowest = xp.where(seated, totals, BIG).min(axis=1)
        done = number >= spec.fixed_rounds
        return seated & (totals == lowest[:, None]) & done[:, None], pending
    sole = (alive.sum(axis=1, dtype=xp.int32) == 1) & (pending < 0)
    limit = ~sole & (number >= bk.take(spec.limit, n))
    lowest = xp.where(alive, totals, BIG).min(axis=1)
    found = alive & (sole[:, None] | (limit[:, None] & (totals == lowest[:, None])))
    return found, xp.where(limit, -1, pending)


def legal(bk: Backend, spec: Spec, st: BatchState) -> Array:
    """The legal action ids of every lane's seat to act: its follow rule, or the revival decisions."""
    xp = bk.xp
    b = st.current_player.shape[0]
    s, k = spec.seats, spec.num_cards
    p = xp.maximum(st.current_player, 0)
    rows = bk.take(st.hands.reshape(b * s, k), bk.starts(b, s) + p)
    held = bk.as_bool(rows) if spec.unique else rows > 0
    low = bk.take(spec.rank, held.argmax(axis=1))
    high = st.high
    if spec.ace >= 0:  # after a led top card only the lowest cards: a `ge` row with no card
        high = xp.where((st.lead == spec.ace) & (st.trick_len > 0), spec.ace + 1, high)
    mask = follow(bk, spec, held, high, low)
    if spec.revival:  # the revival decisions' ids follow the cards'
        deciding = (st.pending >= 0)[:, None]
        mask = xp.concatenate([mask, deciding, deciding], axis=1)
    if bk.some(st.over):
        mask = mask | st.over[:, None]
    return mask


# --------------------------------------------------------------------------- a step


def advance(bk: Backend, spec: Spec, st: BatchState, actions: Array, auto_reset: bool) -> BatchState:
    """Apply every lane's action (all lanes in play, each action legal): a card, or a revival decision."""
    if spec.revival:
        deciding = st.pending >= 0
        if bk.some(deciding):
            st = on_lanes(bk, st, deciding, lambda t, a: decide(bk, spec, t, a, auto_reset), extra=(actions,))
            return on_lanes(
                bk, st, ~deciding, lambda t, a: _play(bk, spec, t, a, auto_reset), extra=(actions,)
            )
    return _play(bk, spec, st, actions, auto_reset)


def _play(bk: Backend, spec: Spec, st: BatchState, a: Array, auto_reset: bool) -> BatchState:
    xp = bk.xp
    k = spec.num_cards
    p = st.current_player
    # the card leaves the hand (a count of one copy in a deck of distinct cards: set to 0)
    hands = bk.set_lane(st.hands, p * k + a, 0) if spec.unique else bk.add_lane(st.hands, p * k + a, -1)
    trick = bk.set_lane(st.trick, p, a)
    rank = bk.take(spec.rank, a)
    first = st.trick_len == 0
    lead = xp.where(first, rank, st.lead) if spec.ace >= 0 else st.lead
    take = takes(spec, rank, st.high, lead, first)
    best = xp.where(take, p, st.best)
    high = xp.where(take, rank, st.high)
    trick_len = st.trick_len + 1
    end = trick_len == st.in_round
    nxt = bk.take(NEXT, p * BITS + st.seats)
    st = st._replace(hands=hands, trick=trick, lead=lead, best=best, high=high, trick_len=trick_len,
                     current_player=xp.where(end, best, nxt))  # fmt: skip
    if not bk.some(end):
        return st
    tricks = st.tricks + end
    over = end & (tricks == bk.take(spec.hand, st.players))
    led = st.leader
    ending = bk.some(over)
    last = trick.copy() if ending else trick  # (the trick is cleared in place below)
    st = st._replace(
        tricks=tricks,
        leader=xp.where(end, best, led),
        trick=bk.fill(trick, end, -1),
        trick_len=xp.where(end, 0, trick_len),
        high=xp.where(end, 0, high),
        best=xp.where(end, -1, best),
    )
    if not ending:
        return st
    # the round's last trick: `trick`, `best`, `high` and `led` before they were cleared
    return on_lanes(
        bk,
        st,
        over,
        lambda t, last, taker, taken, leader: end_round(bk, spec, t, last, taker, taken, leader, auto_reset),
        UNUSED,
        (last, best, high, led),
    )


def end_round(bk: Backend, spec: Spec, st: BatchState, last: Array, taker: Array, taken: Array,
              leader: Array, auto_reset: bool) -> BatchState:  # fmt: skip
    """Score the round's last trick (`last`: each seat's card, `taker` its taker at rank `taken`), then
    thresholds, marks, eliminations, revivals, returns and winners; then a deal, a revival decision,
    or the match's end."""
    xp = bk.xp
    b, s = last.shape
    n = st.players
    seated = bk.take(spec.seated, n)
    played = last >= 0
    ranks = xp.where(played, bk.take(spec.rank, xp.maximum(last, 0)), 0)
    order = bk.take(spec.relative, n * s + leader)
    payer, paying, amount = pay(bk, spec, played, ranks, taker, taken, order)
    totals = bk.add_lane(st.totals.copy(), payer, amount)
    if spec.tie_bonus:
        bonus = played & (ranks == paying[:, None]) & bk.take(spec.other_seats, payer)
        totals = xp.where(bonus, xp.maximum(totals - amount[:, None], 0), totals)
    marks, out, revived, sitting = st.marks.copy(), st.out.copy(), st.revived, st.sitting
    number = st.rounds + 1
    pending = xp.full(b, -1, xp.int32)
    dealt = seat_mask(bk, spec, st.seats)
    if not spec.fixed_rounds:
        paid = bk.get_lane(totals, payer)
        eliminated, marked = thresholds(spec, totals, marks, paid, bk.get_lane(marks, payer))
        out = bk.set_lane(out, payer, xp.where(eliminated, number, bk.get_lane(out, payer)))
        if spec.revival:
            others = ((out == 0) & seated & bk.take(spec.other_seats, payer)).sum(axis=1, dtype=xp.int32)
            offer = offers_revival(spec, eliminated, bk.get_lane(revived, payer), others)
            pending = xp.where(offer, payer, -1).astype(xp.int32)
        if bk.some(marked):
            marks = bk.add_lane(marks, payer, marked.astype(xp.int32))
            reset = xp.where(marked, reset_total(bk, totals, dealt, out, payer), paid)
            totals = bk.set_lane(totals, payer, reset)
    if spec.revival and bk.some(sitting):  # the seats that sat out come back
        totals = xp.where(sitting, comeback_total(bk, totals, dealt, out)[:, None], totals)
        sitting = xp.zeros_like(sitting)
    found, pending = winners(bk, spec, totals, (out == 0) & seated, seated, number, n, pending)
    done = bk.any_rows(found)
    to_act = xp.where(pending >= 0, pending, st.current_player)
    st = st._replace(totals=totals, marks=marks, out=out, sitting=sitting, pending=pending, rounds=number,
                     payer=payer, current_player=to_act)  # fmt: skip
    dealing = pending < 0
    if bk.some(done):
        st = win(bk, st, found, done, auto_reset)
        if auto_reset:
            st = reset_matches(bk, st, done)
        else:
            dealing = dealing & ~done
    return deal(bk, spec, st, None if bk.every(dealing) else dealing)


def decide(bk: Backend, spec: Spec, st: BatchState, a: Array, auto_reset: bool) -> BatchState:
    """Revival decisions (`a` = K: buy back in and sit out the next round; K + 1: stay out), then the deal."""
    xp = bk.xp
    at = xp.maximum(st.pending, 0)
    back = a == spec.num_cards
    out = bk.set_lane(st.out.copy(), at, xp.where(back, 0, bk.get_lane(st.out, at)))
    revived = bk.set_lane(st.revived.copy(), at, back | bk.get_lane(st.revived, at))
    sitting = bk.set_lane(st.sitting.copy(), at, back | bk.get_lane(st.sitting, at))
    st = st._replace(out=out, revived=revived, sitting=sitting, pending=xp.full_like(st.pending, -1))
    return deal(bk, spec, st)


# --------------------------------------------------------------------------- dealing


def new_matches(bk: Backend, spec: Spec, st: BatchState) -> BatchState:
    """Start the lanes' next matches and deal their first rounds."""
    return deal(bk, spec, reset_matches(bk, st))


def deal_cards(bk: Backend, spec: Spec, key: Array, match: Array, rounds: Array, bits: Array) -> Array:
    """The hands of a deal, (B, S, K) counts: the deck shuffled by (key, match, round), `hand_size`
    cards to each seat of `bits` in seat order. The scalar replays (`to_scalar`) deal with it too."""
    xp = bk.xp
    b, s, k = key.shape[0], spec.seats, spec.num_cards
    order = bk.sort_order(rng.shuffle_keys(rng.seed_of(key, match, rounds, rng.DEAL), spec.deck.shape[0]))
    cards = order if spec.unique else bk.take(spec.deck, order)  # the card at each place
    owner = bk.take(spec.deal_seats, bits)  # the seat each place goes to: hand_size to each seat of `bits`
    out: Array = bk.counts(xp.where(owner >= 0, owner * k + cards, -1), s * k, spec.unique).reshape(b, s, k)
    return out


def deal(bk: Backend, spec: Spec, st: BatchState, where: Array | None = None) -> BatchState:
    """Deal the lanes' coming rounds (those of `where`, default all): the seats in play and not sitting
    out, the dealer and the leader."""
    xp = bk.xp
    s = spec.seats
    n = st.players
    dealt = (st.out == 0) & ~st.sitting & bk.take(spec.seated, n)
    bits = (dealt.astype(xp.int32) << xp.arange(s, dtype=xp.int32)[None, :]).sum(axis=1, dtype=xp.int32)
    if spec.rotate:
        dealer = bk.take(NEXT, st.dealer * BITS + bits)
        leader = bk.take(NEXT, dealer * BITS + bits)
    else:
        payer = xp.maximum(st.payer, 0)
        leader = xp.where((bits >> payer) & 1 == 1, payer, bk.take(NEXT, payer * BITS + bits))
        dealer = bk.take(PREV, leader * BITS + bits)
    fresh = st.rounds == 0
    dealer = xp.where(fresh, (st.first - 1) % n, dealer).astype(xp.int32)
    leader = xp.where(fresh, st.first, leader).astype(xp.int32)
    hands = deal_cards(bk, spec, st.key, st.match, st.rounds, bits)
    return blend(
        bk,
        st,
        where,
        hands=hands,
        dealt=bk.sum_seats(hands),
        trick=xp.full_like(st.trick, -1),
        trick_len=xp.zeros_like(st.trick_len),
        best=xp.full_like(st.best, -1),
        high=xp.zeros_like(st.high),
        lead=xp.full_like(st.lead, -1),
        tricks=xp.zeros_like(st.tricks),
        seats=bits,
        in_round=dealt.sum(axis=1, dtype=xp.int32),
        dealer=dealer,
        leader=leader,
        current_player=leader.copy(),
        pending=xp.full_like(st.pending, -1),
    )
