"""The Catastrophe kernel: the Trick Marker, Surprise Cucumber, If You Can't Beat 'Em, any cucumbers table.

One step plays every lane's card: the marker is one int per lane (0 unset, 1 High, 2 Low, 3 High
broken, 4 Low broken), the rules of play a table row (no 5-cucumber lead; above or below the lead)
and an `any`. The taker of a trick captures its cucumbers (and the revealed card's); the rare path
scores the hand, draws the next starter among tied seats and deals, on the lanes whose hand ended.
Each rule has one function here, named for it, so a test can plant a mutant in it.

Example:
    >>> from cucumber_rules import batch
    >>> env = batch.make("catastrophe", players=3, size=2)
    >>> s = env.init(1)
    >>> s.marker.tolist(), bool(s.legal_action_mask.sum(axis=1).max() <= 10)
    ([0, 0], True)
"""

from __future__ import annotations

import numpy as np

from . import rng
from .backend import Array, Backend
from .lanes import blend, on_lanes, reset_matches, seat_sum, win
from .spec import Spec
from .state import BatchState

__all__ = [
    "advance",
    "deal",
    "deal_cards",
    "end_hand",
    "hand_points",
    "legal",
    "mark",
    "new_matches",
    "restriction",
    "starter",
    "trick_cucumbers",
    "winners",
]

HIGH, LOW, HIGH_BROKEN, LOW_BROKEN = 1, 2, 3, 4
BIG = 1 << 29
#: Fields Catastrophe's end of a hand never reads: the ladder's, and the public ones a step makes anew.
UNUSED: frozenset[str] = frozenset(
    {"marks", "out", "revived", "sitting", "pending", "payer", "legal_action_mask"}
)


# --------------------------------------------------------------------------- the rules, one function each


def restriction(spec: Spec, marker: Array, lead: Array, leading: Array) -> Array:
    """The row of `spec.restrict` the rules of play restrict a hand to (when it holds such a card):
    leading from hand, no 5-cucumber card; under High, the cards above the lead; under Low, below."""
    k = spec.num_cards
    row = np.where(marker == HIGH, 2 + lead, np.where(marker == LOW, 2 + k + lead, 0))
    return np.where(leading, 1, row) if not spec.surprise else row


def mark(marker: Array, card: Array, lead: Array, high: Array, setting: Array, leading: Array
         ) -> tuple[Array, Array]:  # fmt: skip
    """The Trick Marker after a card, and whether the card takes the trick so far: the card that sets
    the marker takes for now; one that breaks it flips it and takes; otherwise the highest (High,
    Low broken) or lowest (Low, High broken) card takes."""
    up = card > lead
    broken = ((marker == HIGH) & ~up) | ((marker == LOW) & up)
    new = np.where(setting, np.where(up, np.int32(HIGH), np.int32(LOW)), np.where(broken, marker + 2, marker))
    lowest = (marker == LOW) | (marker == HIGH_BROKEN)
    beats = np.where(lowest, card < high, card > high)
    return new, leading | setting | broken | ((marker > 0) & beats)


def trick_cucumbers(spec: Spec, trick: Array, lead: Array) -> tuple[Array, Array]:
    """What the taker of each trick captures: its cards' cucumbers and 5-cucumber cards, with Surprise
    Cucumber's revealed lead card too (`trick`: each seat's card id or -1)."""
    won = trick + 1
    cucumbers: Array = spec.cucumbers.take(won).sum(axis=1)
    fives: Array = spec.fives.take(won).sum(axis=1)
    if spec.surprise:
        cucumbers = cucumbers + spec.cucumbers.take(lead + 1)
        fives = fives + spec.fives.take(lead + 1)
    return cucumbers, fives


def hand_points(spec: Spec, captured: Array, fives: Array) -> Array:
    """A hand's score per seat: the cucumbers captured, or If You Can't Beat 'Em's bonus (-5) for four
    or more 5-cucumber cards."""
    if spec.cant_beat_em:
        return np.where(fives >= spec.bonus_fives, spec.bonus, captured)
    return captured


def winners(totals: Array, low: Array, seated: Array) -> Array:
    """The winners after the last hand: the fewest cucumbers, then the lowest single hand; ties share."""
    fewest = np.where(seated, totals, BIG).min(axis=1)
    tied = seated & (totals == fewest[:, None])
    best = np.where(tied, low, BIG).min(axis=1)
    out: Array = tied & (low == best[:, None])
    return out


def starter(totals: Array, seated: Array) -> Array:
    """The seats that may start the next hand: the highest total (a tie is drawn among them)."""
    top = np.where(seated, totals, -BIG).max(axis=1)
    out: Array = seated & (totals == top[:, None])
    return out


def legal(bk: Backend, spec: Spec, st: BatchState) -> Array:
    """The legal card ids of every lane's seat to act."""
    b = st.current_player.shape[0]
    s, k = spec.seats, spec.num_cards
    p = np.maximum(st.current_player, 0)
    held = bk.take(st.hands.reshape(b * s, k), np.arange(b, dtype=np.int32) * s + p).view(bool)
    allowed = bk.take(spec.restrict, restriction(spec, st.marker, st.lead, st.trick_len == 0)) & held
    some: Array = np.logical_or.reduce(allowed, axis=1)
    mask: Array = allowed | (held & ~some[:, None])
    if bk.some(st.over):
        mask = mask | st.over[:, None]
    return mask


# --------------------------------------------------------------------------- a step


def advance(bk: Backend, spec: Spec, st: BatchState, a: Array, auto_reset: bool) -> BatchState:
    """Play every lane's card (all lanes in play, each card legal)."""
    b = a.shape[0]
    s = spec.seats
    p = st.current_player
    lane = np.arange(b, dtype=np.int32)
    seat = lane * s + p
    hands = bk.add_at(st.hands, seat * spec.num_cards + a, -1)
    trick = bk.set_at(st.trick, seat, a)
    first = st.trick_len == 0
    if spec.surprise:  # the first card from hand sets the marker against the revealed lead
        leading = np.zeros_like(first)
        setting = first
        lead = st.lead
    else:
        leading = first
        setting = (st.marker == 0) & ~first
        lead = np.where(first, a, st.lead)
    marker, take = mark(st.marker, a, lead, st.high, setting, leading)
    best = np.where(take, p, st.best)
    high = np.where(take, a, st.high)
    trick_len = st.trick_len + 1
    end = trick_len == st.in_round
    nxt = np.where(p + 1 >= st.players, 0, p + 1)
    st = st._replace(hands=hands, trick=trick, lead=lead, marker=marker, best=best, high=high,
                     trick_len=trick_len, current_player=np.where(end, best, nxt))  # fmt: skip
    if not bk.some(end):
        return st
    # the taker captures the trick's cucumbers (and the revealed lead's)
    cucumbers, fives = trick_cucumbers(spec, trick, lead)
    at = (lane * s + best)[end]
    captured = bk.add_at(st.captured, at, cucumbers[end])
    got = bk.add_at(st.fives, at, fives[end])
    tricks = st.tricks + end
    per = spec.hand.take(st.players)
    if spec.surprise:  # the next trick's lead is turned up from the stock
        upcoming = np.take_along_axis(st.stock, np.minimum(tricks, spec.max_hand - 1)[:, None], axis=1)[:, 0]
        nxt_lead = np.where(tricks < per, upcoming, -1)
    else:
        nxt_lead = np.full_like(lead, -1)
    st = st._replace(
        captured=captured,
        fives=got,
        tricks=tricks,
        leader=np.where(end, best, st.leader),
        trick=np.where(end[:, None], -1, trick),
        trick_len=np.where(end, 0, trick_len),
        best=np.where(end, -1, best),
        high=np.where(end, -1, high),
        marker=np.where(end, 0, marker),
        lead=np.where(end, nxt_lead, lead),
    )
    over = end & (tricks == per)
    return on_lanes(bk, st, over, lambda t: end_hand(bk, spec, t, auto_reset), UNUSED)


def end_hand(bk: Backend, spec: Spec, st: BatchState, auto_reset: bool) -> BatchState:
    """Score the hand: each seat's points, totals, best single hands; the winners after the last hand,
    else the next deal."""
    s = spec.seats
    seated = np.arange(s)[None, :] < st.players[:, None]
    points = np.where(seated, hand_points(spec, st.captured, st.fives), 0)
    totals = st.totals + points
    low = np.where(seated, np.minimum(st.low, points), st.low)
    number = st.rounds + 1
    done = number >= spec.hand_count
    found = winners(totals, low, seated) & done[:, None]
    st = st._replace(totals=totals.astype(np.int32), low=low.astype(np.int32), rounds=number)
    if not bk.some(done):
        return deal(bk, spec, st)
    st = win(st, found, done, auto_reset)
    if auto_reset:
        return deal(bk, spec, reset_matches(bk, st, done))
    return deal(bk, spec, st, ~done)


# --------------------------------------------------------------------------- dealing


def new_matches(bk: Backend, spec: Spec, st: BatchState) -> BatchState:
    """Start the lanes' next matches and deal their first hands."""
    return deal(bk, spec, reset_matches(bk, st))


def deal_cards(bk: Backend, spec: Spec, key: Array, match: Array, rounds: Array, players: Array
               ) -> tuple[Array, Array]:  # fmt: skip
    """The hands (B, S, K) and Surprise Cucumber's reveals (B, H) of a deal: the deck shuffled by (key,
    match, round); with If You Can't Beat 'Em the 5-cucumber cards first, the dealt block shuffled again.
    The scalar replays (`to_scalar`) deal with it too."""
    b, s, k, h = key.shape[0], spec.seats, spec.num_cards, spec.max_hand
    slots = spec.deck.shape[0]
    per = spec.hand.take(players)
    block = players * per
    keys = rng.shuffle_keys(rng.seed_of(key, match, rounds, rng.DEAL), slots)
    if spec.cant_beat_em:  # the 5-cucumber cards first, the others after them, each in random order
        other = (~spec.five.take(spec.deck)).astype(np.uint32) << np.uint32(31)
        keys = other[None, :] | ((keys >> np.uint32(7)) << np.uint32(6)) | (keys & np.uint32(63))
    cards = spec.deck.take(bk.sort_order(keys))
    j = np.arange(h)[None, :]
    stock = np.take_along_axis(cards, np.minimum(block[:, None] + j, slots - 1), axis=1)
    stock = (
        np.where(j < per[:, None], stock, -1).astype(np.int32)
        if spec.surprise
        else np.full((b, h), -1, np.int32)
    )
    if spec.cant_beat_em:  # shuffle the dealt block again, so the 5-cucumber cards go to random seats
        again = rng.shuffle_keys(rng.seed_of(key, match, rounds, rng.REDEAL), slots)
        pos = np.arange(slots, dtype=np.uint32)[None, :]
        outside = (pos >= block[:, None].astype(np.uint32)).astype(np.uint32) << np.uint32(31)
        again = outside | ((again >> np.uint32(7)) << np.uint32(6)) | pos
        cards = np.take_along_axis(cards, bk.sort_order(again), axis=1)
    seat = np.arange(s)[None, :, None]
    slot = np.minimum(seat * per[:, None, None] + j[:, None, :], slots - 1)
    got = np.take_along_axis(cards, slot.reshape(b, -1), axis=1).reshape(b, s, h)
    inside = (seat < players[:, None, None]) & (j[:, None, :] < per[:, None, None])
    flat = (np.arange(b)[:, None, None] * s + seat) * k + got
    hands = bk.counts(flat[inside].reshape(-1), b * s * k).reshape(b, s, k).astype(np.int8)
    return hands, stock


def deal(bk: Backend, spec: Spec, st: BatchState, where: Array | None = None) -> BatchState:
    """Deal the lanes' coming hands (those of `where`, default all): the starter (`first`, else the
    highest total, a tie drawn), the cards."""
    s = spec.seats
    n = st.players
    seated = np.arange(s)[None, :] < n[:, None]
    tied = starter(st.totals, seated)
    ties = tied.sum(axis=1)
    draw = rng.uniform_below(rng.seed_of(st.key, st.match, st.rounds, rng.STARTER), ties)
    chosen = (np.cumsum(tied, axis=1) == (draw + 1)[:, None]) & tied
    leader = np.where(st.rounds == 0, st.first, chosen.argmax(axis=1)).astype(np.int32)
    hands, stock = deal_cards(bk, spec, st.key, st.match, st.rounds, n)
    return blend(
        st,
        where,
        hands=hands,
        dealt=seat_sum(hands),
        stock=stock,
        trick=np.full_like(st.trick, -1),
        trick_len=np.zeros_like(st.trick_len),
        best=np.full_like(st.best, -1),
        high=np.full_like(st.high, -1),
        lead=stock[:, 0].copy() if spec.surprise else np.full_like(st.lead, -1),
        marker=np.zeros_like(st.marker),
        tricks=np.zeros_like(st.tricks),
        seats=((1 << n) - 1).astype(np.int32),
        in_round=n.copy(),
        dealer=((leader - 1) % n).astype(np.int32),
        leader=leader,
        current_player=leader.copy(),
        captured=np.zeros_like(st.captured),
        fives=np.zeros_like(st.fives),
    )
