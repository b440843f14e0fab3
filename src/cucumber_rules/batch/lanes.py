"""Work on a subset of lanes, and what every kernel shares: seat masks, new matches, rewards.

Example:
    >>> import numpy as np
    >>> from .backend import NUMPY
    >>> seat_mask(np.array([0b101], np.int32), 4).tolist()
    [[True, False, True, False]]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .backend import Array, Backend
from .state import FIXED_FIELDS, NO_HAND, BatchState, merge, subset

__all__ = ["blend", "on_lanes", "reset_matches", "seat_mask", "seat_sum", "win"]


def on_lanes(
    bk: Backend,
    st: BatchState,
    mask: Array,
    fn: Callable[[BatchState], BatchState],
    unused: frozenset[str] = frozenset(),
) -> BatchState:
    """`st` with `fn` applied to the lanes where `mask` holds (skipped when none does).

    numpy compacts those lanes, runs `fn` on them and writes them back; a traced backend would
    run `fn` on every lane and merge with `where` (the kernels never branch on values otherwise).
    `fn` must not read the fields of `unused` (they are left empty) nor change `FIXED_FIELDS`.

    Example:
        >>> import numpy as np
        >>> from .backend import NUMPY
        >>> from .state import allocate
        >>> s = allocate(3, 2, 4, 4, 1, 0)
        >>> s = on_lanes(NUMPY, s, np.array([True, False, True]), lambda t: t._replace(rounds=t.rounds + 1))
        >>> s.rounds.tolist()
        [1, 0, 1]
    """
    lanes = bk.lanes(mask)
    if lanes is None:
        return st
    if lanes.size == mask.shape[0]:
        return fn(st)
    return merge(st, lanes, fn(subset(st, lanes, unused)), unused | FIXED_FIELDS)


def seat_sum(hands: Array) -> Array:
    """(B, K): the hands of every seat added up (a loop over the seats: numpy's strided sum is slower).

    Example:
        >>> import numpy as np
        >>> seat_sum(np.ones((2, 3, 4), np.int8)).tolist()[0]
        [3, 3, 3, 3]
    """
    total: Array = hands[:, 0].copy()
    for j in range(1, hands.shape[1]):
        total += hands[:, j]
    return total


def seat_mask(bits: Array, seats: int) -> Array:
    """(B, seats) bool: the seats set in each lane's bitmask.

    Example:
        >>> import numpy as np
        >>> seat_mask(np.array([3], np.int32), 3).tolist()
        [[True, True, False]]
    """
    return ((bits[:, None] >> np.arange(seats, dtype=np.int32)[None, :]) & 1).astype(bool)


def blend(st: BatchState, where: Array | None, **fields: Any) -> BatchState:
    """`st` with `fields` replaced in the lanes of `where` (every lane when None).

    Example:
        >>> import numpy as np
        >>> from .state import allocate
        >>> s = allocate(2, 2, 4, 4, 1, 0)
        >>> blend(s, np.array([False, True]), rounds=np.array([7, 7], np.int32)).rounds.tolist()
        [0, 7]
    """
    if where is None:
        return st._replace(**fields)
    out: dict[str, Any] = {}
    for name, value in fields.items():
        old = getattr(st, name)
        if old.shape[0] != where.shape[0]:  # a field `on_lanes` left empty: not this work's
            continue
        w = where.reshape(where.shape + (1,) * (old.ndim - 1))
        out[name] = np.where(w, value, old).astype(old.dtype, copy=False)
    return st._replace(**out)


def win(st: BatchState, winners: Array, done: Array, auto_reset: bool) -> BatchState:
    """The lanes of `done` just ended their match with `winners` (B, S): rewards (the winners share
    1.0), terminated. Without auto-reset such a lane waits: no seat to act. (With auto-reset the caller
    starts the next match.)

    Example:
        >>> import numpy as np
        >>> from .state import allocate
        >>> s = allocate(1, 3, 4, 4, 1, 0)
        >>> s = win(s, np.array([[True, False, True]]), np.array([True]), False)
        >>> s.rewards.tolist(), s.over.tolist(), s.current_player.tolist()
        ([[0.5, 0.0, 0.5]], [True], [-1])
    """
    share = (winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)).astype(np.float32)
    st = blend(st, done, rewards=share, winners=winners)
    st = st._replace(terminated=st.terminated | done)
    if not auto_reset:
        st = blend(st, done, over=np.ones_like(st.over), current_player=np.full_like(st.current_player, -1))
    return st


def reset_matches(bk: Backend, st: BatchState, where: Array | None = None) -> BatchState:
    """The lanes' next matches (those of `where`), before their first deal: totals, marks,
    eliminations and logs cleared.

    Example:
        >>> from .state import allocate
        >>> s = allocate(1, 3, 4, 4, 1, 0)
        >>> from .backend import NUMPY
        >>> reset_matches(NUMPY, s._replace(rounds=s.rounds + 3)).rounds.tolist()
        [0]
    """
    fills = {
        "rounds": 0, "totals": 0, "marks": 0, "out": 0, "revived": False, "sitting": False, "pending": -1,
        "payer": -1, "captured": 0, "fives": 0, "low": NO_HAND, "over": False, "log_len": 0, "origin": -1,
    }  # fmt: skip
    if where is None:
        values = {name: np.full_like(getattr(st, name), value) for name, value in fills.items()}
        return st._replace(match=st.match + np.uint32(1), **values)
    out: dict[str, Any] = {}
    for name, value in fills.items():
        old = getattr(st, name)
        if old.shape[0] == where.shape[0]:  # (not a field `on_lanes` left empty)
            out[name] = bk.fill(old, where, value)
    return st._replace(match=st.match + where.astype(np.uint32), **out)
