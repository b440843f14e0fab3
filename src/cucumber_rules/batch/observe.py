"""Observations: `cucumber_rules.encoding`'s vectors, built for every lane at once.

The layout is `cr.observation_parts(rules, N)` for N, the environment's most players: a lane of
N players gets exactly `cr.observation(cr.view(state, seat))`; a lane of fewer players gets its own
values with the relative seats it does not have left at zero (a seat's part of `trick`, `leader`,
`to_act`, the per-seat parts).

Every part is written with whole-array operations: per-seat parts by one flat `take` of the seats
counted from the viewer, one-hot parts by one flat write each (a lane without a value writes a 0
inside its own part).

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules import batch
    >>> env = batch.make("agurk", players=4, size=2)
    >>> env.observe(env.init(0)).shape == (2, cr.observation_size(cr.ruleset("agurk"), 4))
    True
"""

from __future__ import annotations

import numpy as np

from .backend import Array
from .lanes import seat_sum
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


def observe(spec: Spec, st: BatchState, seat: Array) -> Array:
    """(B, observation size) float32: each lane's observation from `seat` (one seat per lane)."""
    b = seat.shape[0]
    s, k = spec.seats, spec.num_cards
    at = {name: offset for name, offset, _ in spec.parts}
    size = spec.parts[-1][1] + spec.parts[-1][2]
    out = np.zeros((b, size), np.float32)
    flat_out = out.reshape(-1)
    lane = np.arange(b)
    base = lane * size  # each lane's first entry in `flat_out`
    n = st.players
    full = bool((n == s).all())
    r = np.arange(s)[None, :]
    rel = (seat[:, None] + r) % n[:, None]  # the absolute seat at each relative seat
    gather = lane[:, None] * s + rel
    valid = r < n[:, None]

    def per_seat(x: Array) -> Array:
        got = x.reshape(-1).take(gather)
        return got if full else np.where(valid, got, 0)

    def one_hot(name: str, index: Array, present: Array) -> None:
        flat_out[base + at[name] + np.where(present, index, 0)] = present

    def relative(absolute: Array) -> Array:
        return (absolute - seat) % n

    hands = st.hands
    out[:, at["hand"] : at["hand"] + k] = hands.reshape(b * s, k).take(lane * s + seat, axis=0)
    seen = st.dealt - seat_sum(hands)  # what was dealt, less the hands
    flat_seen = seen.reshape(-1)
    trick = st.trick
    for j in range(s):  # the current trick's cards are in `trick`, not yet seen (one lane per write)
        card = trick[:, j]
        flat_seen[lane * k + np.maximum(card, 0)] -= card >= 0
    if spec.family == "catastrophe" and spec.surprise:  # the cards turned up so far
        shown = np.minimum(st.tricks + 1, spec.hand.take(n))
        for j in range(st.stock.shape[1]):
            card = st.stock[:, j]
            flat_seen[lane * k + np.maximum(card, 0)] += (j < shown) & (card >= 0)
    out[:, at["seen"] : at["seen"] + k] = seen
    cards = per_seat(trick + 1) - 1
    flat_out[base[:, None] + at["trick"] + r * k + np.maximum(cards, 0)] = cards >= 0
    in_play = ~st.over
    if spec.family == "ladder":
        in_play = in_play & (st.pending < 0)
    everywhere = np.ones(b, bool)
    one_hot("leader", relative(st.leader), everywhere)
    one_hot("to_act", relative(st.current_player), st.current_player >= 0)
    # cards held: the hand size less the tricks played and the card in this trick (seats dealt in)
    held = (spec.hand.take(n) - st.tricks)[:, None] - (trick >= 0)
    dealt_in = ((st.seats[:, None] >> np.arange(s)[None, :]) & 1) == 1
    out[:, at["hand_sizes"] : at["hand_sizes"] + s] = per_seat(np.where(dealt_in & in_play[:, None], held, 0))
    out[:, at["totals"] : at["totals"] + s] = per_seat(st.totals)
    out[:, at["round"]] = st.rounds + in_play
    if spec.family == "ladder":
        out[:, at["eliminated"] : at["eliminated"] + s] = per_seat(st.out > 0)
        out[:, at["marks"] : at["marks"] + s] = per_seat(st.marks)
        out[:, at["sitting_out"] : at["sitting_out"] + s] = per_seat(st.sitting)
        one_hot("pending", relative(st.pending), st.pending >= 0)
    else:
        one_hot("marker", st.marker - 1, st.marker > 0)
        if spec.surprise:
            one_hot("revealed", st.lead, st.lead >= 0)
        out[:, at["captured"] : at["captured"] + s] = per_seat(st.captured)
    return out
