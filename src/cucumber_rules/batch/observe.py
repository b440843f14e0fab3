"""Observations: `cucumber_rules.encoding`'s vectors, built for every lane at once.

The layout is `cr.observation_parts(rules, N)` for N, the environment's most players: a lane of
N players gets exactly `cr.observation(cr.view(state, seat))`; a lane of fewer players gets its own
values with the relative seats it does not have left at zero (a seat's part of `trick`, `leader`,
`to_act`, the per-seat parts).

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules import batch
    >>> env = batch.make("agurk", players=4, size=2)
    >>> env.observe(env.init(0)).shape == (2, cr.observation_size(cr.ruleset("agurk"), 4))
    True
"""

from __future__ import annotations

import numpy as np

from .. import encoding
from .backend import Array
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
    out: dict[str, tuple[int, int]] = {}
    at = 0
    for name, size in encoding.observation_parts(spec.rules, spec.seats):
        out[name] = (at, size)
        at += size
    return out


def observe(spec: Spec, st: BatchState, seat: Array) -> Array:
    """(B, observation size) float32: each lane's observation from `seat` (one seat per lane)."""
    b = seat.shape[0]
    s, k = spec.seats, spec.num_cards
    parts = layout(spec)
    size = sum(n for _, n in parts.values())
    out = np.zeros((b, size), np.float32)
    lane = np.arange(b)
    n = st.players
    r = np.arange(s)[None, :]
    valid = r < n[:, None]
    rel = np.where(valid, (seat[:, None] + r) % n[:, None], 0)

    def per_seat(x: Array) -> Array:
        return np.where(valid, np.take_along_axis(x, rel, axis=1), 0)

    def one_hot(name: str, absolute: Array, present: Array) -> None:
        at, _ = parts[name]
        ok = present & (absolute >= 0)
        out[lane[ok], at + ((absolute - seat) % n)[ok]] = 1.0

    at, _ = parts["hand"]
    out[:, at : at + k] = st.hands[lane, seat]
    seen = st.dealt.astype(np.int32) - st.hands.sum(axis=1, dtype=np.int32)
    played = st.trick >= 0
    rows = np.broadcast_to(lane[:, None], st.trick.shape)
    np.subtract.at(seen, (rows[played], st.trick[played]), 1)
    if spec.family == "catastrophe" and spec.surprise:  # the cards turned up so far
        per = spec.hand.take(n)
        shown = np.minimum(st.tricks + 1, per)
        j = np.arange(st.stock.shape[1])[None, :]
        up = (j < shown[:, None]) & (st.stock >= 0)
        rows = np.broadcast_to(lane[:, None], st.stock.shape)
        np.add.at(seen, (rows[up], st.stock[up]), 1)
    at, _ = parts["seen"]
    out[:, at : at + k] = seen
    at, _ = parts["trick"]
    cards = per_seat(st.trick + 1) - 1
    ok = cards >= 0
    b_idx, r_idx = np.nonzero(ok)
    out[b_idx, at + r_idx * k + cards[ok]] = 1.0
    in_play = ~st.over
    if spec.family == "ladder":
        in_play = in_play & (st.pending < 0)
    one_hot("leader", st.leader, np.ones(b, bool))
    one_hot("to_act", st.current_player, st.current_player >= 0)
    at, _ = parts["hand_sizes"]
    out[:, at : at + s] = per_seat(st.hands.sum(axis=2, dtype=np.int32))
    at, _ = parts["totals"]
    out[:, at : at + s] = per_seat(st.totals)
    at, _ = parts["round"]
    out[:, at] = st.rounds + in_play
    if spec.family == "ladder":
        at, _ = parts["eliminated"]
        out[:, at : at + s] = per_seat((st.out > 0).astype(np.int32))
        at, _ = parts["marks"]
        out[:, at : at + s] = per_seat(st.marks)
        at, _ = parts["sitting_out"]
        out[:, at : at + s] = per_seat(st.sitting.astype(np.int32))
        one_hot("pending", st.pending, st.pending >= 0)
    else:
        at, _ = parts["marker"]
        on = st.marker > 0
        out[lane[on], at + st.marker[on] - 1] = 1.0
        if spec.surprise:
            at, _ = parts["revealed"]
            up = st.lead >= 0
            out[lane[up], at + st.lead[up]] = 1.0
        at, _ = parts["captured"]
        out[:, at : at + s] = per_seat(st.captured)
    return out
