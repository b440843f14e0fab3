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

from . import rng
from .backend import Array, Backend
from .lanes import blend, on_lanes, reset_matches, win
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


def restriction(bk: Backend, spec: Spec, marker: Array, lead: Array, leading: Array) -> Array:
    """The row of `spec.restrict` the rules of play restrict a hand to (when it holds such a card):
    leading from hand, no 5-cucumber card; under High, the cards above the lead; under Low, below."""
    xp = bk.xp
    k = spec.num_cards
    row = xp.where(marker == HIGH, 2 + lead, xp.where(marker == LOW, 2 + k + lead, 0))
    found: Array = xp.where(leading, 1, row) if not spec.surprise else row
    return found


def mark(bk: Backend, marker: Array, card: Array, lead: Array, high: Array, setting: Array, leading: Array
         ) -> tuple[Array, Array]:  # fmt: skip
    """The Trick Marker after a card, and whether the card takes the trick so far: the card that sets
    the marker takes for now; one that breaks it flips it and takes; otherwise the highest (High,
    Low broken) or lowest (Low, High broken) card takes."""
    xp = bk.xp
    up = card > lead
    broken = ((marker == HIGH) & ~up) | ((marker == LOW) & up)
    new = xp.where(setting, xp.where(up, HIGH, LOW), xp.where(broken, marker + 2, marker)).astype(xp.int32)
    lowest = (marker == LOW) | (marker == HIGH_BROKEN)
    beats = xp.where(lowest, card < high, card > high)
    return new, leading | setting | broken | ((marker > 0) & beats)


def trick_cucumbers(bk: Backend, spec: Spec, trick: Array, lead: Array) -> tuple[Array, Array]:
    """What the taker of each trick captures: its cards' cucumbers and 5-cucumber cards, with Surprise
    Cucumber's revealed lead card too (`trick`: each seat's card id or -1)."""
    xp = bk.xp
    won = trick + 1
    cucumbers: Array = bk.take(spec.cucumbers, won).sum(axis=1, dtype=xp.int32)
    fives: Array = bk.take(spec.fives, won).sum(axis=1, dtype=xp.int32)
    if spec.surprise:
        cucumbers = cucumbers + bk.take(spec.cucumbers, lead + 1)
        fives = fives + bk.take(spec.fives, lead + 1)
    return cucumbers, fives


def hand_points(bk: Backend, spec: Spec, captured: Array, fives: Array) -> Array:
    """A hand's score per seat: the cucumbers captured, or If You Can't Beat 'Em's bonus (-5) for four
    or more 5-cucumber cards."""
    if spec.cant_beat_em:
        found: Array = bk.xp.where(fives >= spec.bonus_fives, spec.bonus, captured)
        return found
    return captured


def winners(bk: Backend, totals: Array, low: Array, seated: Array) -> Array:
    """The winners after the last hand: the fewest cucumbers, then the lowest single hand; ties share."""
    xp = bk.xp
    fewest = xp.where(seated, totals, BIG).min(axis=1)
    tied = seated & (totals == fewest[:, None])
    best = xp.where(tied, low, BIG).min(axis=1)
    out: Array = tied & (low == best[:, None])
    return out


def starter(bk: Backend, totals: Array, seated: Array) -> Array:
    """The seats that may start the next hand: the highest total (a tie is drawn among them)."""
    top = bk.xp.where(seated, totals, -BIG).max(axis=1)
    out: Array = seated & (totals == top[:, None])
    return out


def legal(bk: Backend, spec: Spec, st: BatchState) -> Array:
    """The legal card ids of every lane's seat to act."""
    xp = bk.xp
    b = st.current_player.shape[0]
    s, k = spec.seats, spec.num_cards
    p = xp.maximum(st.current_player, 0)
    held = bk.as_bool(bk.take(st.hands.reshape(b * s, k), bk.starts(b, s) + p))
    allowed = bk.take(spec.restrict, restriction(bk, spec, st.marker, st.lead, st.trick_len == 0)) & held
    some = bk.any_rows(allowed)
    mask: Array = allowed | (held & ~some[:, None])
    if bk.some(st.over):
        mask = mask | st.over[:, None]
    return mask


# --------------------------------------------------------------------------- a step


def advance(bk: Backend, spec: Spec, st: BatchState, a: Array, auto_reset: bool) -> BatchState:
    """Play every lane's card (all lanes in play, each card legal)."""
    xp = bk.xp
    p = st.current_player
    hands = bk.set_lane(st.hands, p * spec.num_cards + a, 0)  # (the deck's cards are distinct)
    trick = bk.set_lane(st.trick, p, a)
    first = st.trick_len == 0
    if spec.surprise:  # the first card from hand sets the marker against the revealed lead
        leading = xp.zeros_like(first)
        setting = first
        lead = st.lead
    else:
        leading = first
        setting = (st.marker == 0) & ~first
        lead = xp.where(first, a, st.lead)
    marker, take = mark(bk, st.marker, a, lead, st.high, setting, leading)
    best = xp.where(take, p, st.best)
    high = xp.where(take, a, st.high)
    trick_len = st.trick_len + 1
    end = trick_len == st.in_round
    nxt = xp.where(p + 1 >= st.players, 0, p + 1)
    st = st._replace(hands=hands, trick=trick, lead=lead, marker=marker, best=best, high=high,
                     trick_len=trick_len, current_player=xp.where(end, best, nxt))  # fmt: skip
    if not bk.some(end):
        return st
    # the taker captures the trick's cucumbers (and the revealed lead's)
    cucumbers, fives = trick_cucumbers(bk, spec, trick, lead)
    taker = xp.maximum(best, 0)
    captured = bk.add_lane(st.captured, taker, xp.where(end, cucumbers, 0))
    got = bk.add_lane(st.fives, taker, xp.where(end, fives, 0))
    tricks = st.tricks + end
    per = bk.take(spec.hand, st.players)
    if spec.surprise:  # the next trick's lead is turned up from the stock
        upcoming = bk.get_lane(st.stock, xp.minimum(tricks, spec.max_hand - 1))
        nxt_lead = xp.where(tricks < per, upcoming, -1)
    else:
        nxt_lead = xp.full_like(lead, -1)
    st = st._replace(
        captured=captured,
        fives=got,
        tricks=tricks,
        leader=xp.where(end, best, st.leader),
        trick=bk.fill(trick, end, -1),
        trick_len=xp.where(end, 0, trick_len),
        best=xp.where(end, -1, best),
        high=xp.where(end, -1, high),
        marker=xp.where(end, 0, marker),
        lead=xp.where(end, nxt_lead, lead),
    )
    over = end & (tricks == per)
    if not bk.some(over):
        return st
    return on_lanes(bk, st, over, lambda t: end_hand(bk, spec, t, auto_reset), UNUSED)


def end_hand(bk: Backend, spec: Spec, st: BatchState, auto_reset: bool) -> BatchState:
    """Score the hand: each seat's points, totals, best single hands; the winners after the last hand,
    else the next deal."""
    xp = bk.xp
    seated = bk.take(spec.seated, st.players)
    points = xp.where(seated, hand_points(bk, spec, st.captured, st.fives), 0)
    totals = st.totals + points
    low = xp.where(seated, xp.minimum(st.low, points), st.low)
    number = st.rounds + 1
    done = number >= spec.hand_count
    found = winners(bk, totals, low, seated) & done[:, None]
    st = st._replace(totals=totals.astype(xp.int32), low=low.astype(xp.int32), rounds=number)
    if not bk.some(done):
        return deal(bk, spec, st)
    st = win(bk, st, found, done, auto_reset)
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
    xp = bk.xp
    b, s, k, h = key.shape[0], spec.seats, spec.num_cards, spec.max_hand
    slots = spec.deck.shape[0]
    per = bk.take(spec.hand, players)
    block = players * per
    keys = rng.shuffle_keys(rng.seed_of(key, match, rounds, rng.DEAL), slots)
    if spec.cant_beat_em:  # the 5-cucumber cards first, the others after them, each in random order
        keys = spec.other_first[None, :] | ((keys >> 7) << 6) | (keys & 63)
    cards = bk.take(spec.deck, bk.sort_order(keys))
    j = xp.arange(h, dtype=xp.int32)[None, :]
    if spec.surprise:
        stock = xp.take_along_axis(cards, xp.minimum(block[:, None] + j, slots - 1), axis=1)
        stock = xp.where(j < per[:, None], stock, -1).astype(xp.int32)
    else:
        stock = xp.full((b, h), -1, xp.int32)
    if spec.cant_beat_em:  # shuffle the dealt block again, so the 5-cucumber cards go to random seats
        again = rng.shuffle_keys(rng.seed_of(key, match, rounds, rng.REDEAL), slots)
        pos = xp.arange(slots, dtype=xp.int32)[None, :]
        outside = (pos >= block[:, None]).astype(xp.uint32) << 31
        again = outside | ((again >> 7) << 6) | pos.astype(xp.uint32)
        cards = xp.take_along_axis(cards, bk.sort_order(again), axis=1)
    # the card at place `seat * per + j` goes to `seat` (places past the dealt block go nowhere)
    owner = bk.take(spec.deal_seats, players)
    hands = bk.counts(xp.where(owner >= 0, owner * k + cards, -1), s * k, True).reshape(b, s, k)
    return hands, stock


def deal(bk: Backend, spec: Spec, st: BatchState, where: Array | None = None) -> BatchState:
    """Deal the lanes' coming hands (those of `where`, default all): the starter (`first`, else the
    highest total, a tie drawn), the cards."""
    xp = bk.xp
    n = st.players
    seated = bk.take(spec.seated, n)
    tied = starter(bk, st.totals, seated)
    ties = tied.sum(axis=1, dtype=xp.int32)
    draw = rng.uniform_below(xp, rng.seed_of(st.key, st.match, st.rounds, rng.STARTER), ties)
    chosen = (xp.cumsum(tied, axis=1, dtype=xp.int32) == (draw + 1)[:, None]) & tied
    leader = xp.where(st.rounds == 0, st.first, chosen.argmax(axis=1)).astype(xp.int32)
    hands, stock = deal_cards(bk, spec, st.key, st.match, st.rounds, n)
    return blend(
        bk,
        st,
        where,
        hands=hands,
        dealt=bk.sum_seats(hands),
        stock=stock,
        trick=xp.full_like(st.trick, -1),
        trick_len=xp.zeros_like(st.trick_len),
        best=xp.full_like(st.best, -1),
        high=xp.full_like(st.high, -1),
        lead=stock[:, 0].copy() if spec.surprise else xp.full_like(st.lead, -1),
        marker=xp.zeros_like(st.marker),
        tricks=xp.zeros_like(st.tricks),
        seats=((1 << n) - 1).astype(xp.int32),
        in_round=n.copy(),
        dealer=((leader - 1) % n).astype(xp.int32),
        leader=leader,
        current_player=leader.copy(),
        captured=xp.zeros_like(st.captured),
        fives=xp.zeros_like(st.fives),
    )
