"""Observations: `cucumber_rules.encoding`'s vectors, built for every lane at once.

The layout is `cr.observation_parts(rules, N)` for N, the environment's most players: a lane of
N players gets exactly `cr.observation(cr.view(state, seat))`; a lane of fewer players gets its own
values with the relative seats it does not have left at zero (a seat's part of `trick`, `leader`,
`to_act`, the per-seat parts).

Every part is built as a new array with whole-array operations (per-seat parts by one `take` of the
seats counted from the viewer, one-hot parts by comparisons), in the backend's namespace, and the
parts are joined by one `concatenate`: nothing is written in place, so a JAX backend runs it as is.

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules import batch
    >>> env = batch.make("agurk", players=4, size=2)
    >>> env.observe(env.init(0)).shape == (2, cr.observation_size(cr.ruleset("agurk"), 4))
    True
"""

from __future__ import annotations

from .backend import Array, Backend, OneHot
from .lanes import seat_mask
from .spec import Spec
from .state import BatchState

__all__ = ["layout", "observe"]


def layout(spec: Spec) -> dict[str, tuple[int, int]]:
    """Each part's (offset, size) in the observation for `spec.seats` players.

    Example:
        >>> import cucumber_rules as cr
        >>> from .spec import spec_of
        >>> layout(spec_of(cr.ruleset("agurk"), 3))["trick"]
        (104, 156)
    """
    return {name: (at, size) for name, at, size in spec.parts}


def observe(bk: Backend, spec: Spec, st: BatchState, seat: Array) -> Array:
    """(B, observation size) float32: each lane's observation from `seat` (one seat per lane)."""
    xp = bk.xp
    b = seat.shape[0]
    s, k = spec.seats, spec.num_cards
    n = st.players
    lane = xp.arange(b, dtype=xp.int32)
    base = (lane * s)[:, None]
    gather = base + bk.take(spec.rotation, n * s + seat)  # the seat at each place from the viewer
    full = bk.every(n == s)
    valid = bk.take(spec.seated, n)

    def per_seat(x: Array) -> Array:
        got = bk.take(x.reshape(-1), gather)
        return got if full else got * valid

    def relative(absolute: Array) -> Array:  # (a seat, or -1 for none: then -1)
        d = absolute - seat
        found: Array = xp.where(absolute < 0, -1, d + n * (d < 0))
        return found

    hands = st.hands
    trick = st.trick
    # what was dealt, less the hands and the current trick's cards (not yet seen)
    seen = st.dealt - bk.sum_seats(hands) - bk.counts(trick, k, spec.unique)  # (a deck of distinct cards)
    if spec.family == "catastrophe" and spec.surprise:  # the cards turned up so far
        shown = xp.minimum(st.tricks + 1, bk.take(spec.hand, n))
        up = (xp.arange(st.stock.shape[1], dtype=xp.int32)[None, :] < shown[:, None]) & (st.stock >= 0)
        seen = seen + bk.counts(xp.where(up, st.stock, -1), k)
    in_play = ~st.over
    if spec.family == "ladder":
        in_play = in_play & (st.pending < 0)
    # cards held: the hand size less the tricks played and the card in this trick (seats dealt in)
    held = (bk.take(spec.hand, n) - st.tricks)[:, None] - (trick >= 0)
    dealt_in = seat_mask(bk, spec, st.seats) & in_play[:, None]
    parts: dict[str, Array | OneHot] = {
        "hand": bk.take(hands.reshape(b * s, k), lane * s + seat),
        "seen": seen,
        "trick": OneHot(xp.where(valid, per_seat(trick), -1), k),
        "leader": OneHot(relative(st.leader), s),
        "to_act": OneHot(relative(st.current_player), s),
        "hand_sizes": per_seat(xp.where(dealt_in, held, 0)),
        "totals": per_seat(st.totals),
        "round": (st.rounds + in_play)[:, None],
    }
    if spec.family == "ladder":
        parts["eliminated"] = per_seat(st.out > 0)
        parts["marks"] = per_seat(st.marks)
        parts["sitting_out"] = per_seat(st.sitting)
        parts["pending"] = OneHot(relative(st.pending), s)
    else:
        parts["marker"] = OneHot(st.marker - 1, 4)
        parts["revealed"] = OneHot(st.lead if spec.surprise else xp.full_like(st.lead, -1), k)
        parts["captured"] = per_seat(st.captured)
    return bk.join([parts[name] for name, _, _ in spec.parts])
