"""Work on a subset of lanes, and what every kernel shares: seat masks, new matches, rewards.

Example:
    >>> import numpy as np
    >>> import cucumber_rules as cr
    >>> from .backend import NUMPY
    >>> from .spec import spec_of
    >>> seat_mask(NUMPY, spec_of(cr.ruleset("agurk"), 4), np.array([0b101], np.int32)).tolist()
    [[True, False, True, False]]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .backend import Array, Backend
from .spec import Spec
from .state import ARRAY_FIELDS, FIXED_FIELDS, NO_HAND, BatchState, merge, subset

__all__ = ["blend", "on_lanes", "reset_matches", "seat_mask", "win"]


def on_lanes(
    bk: Backend,
    st: BatchState,
    mask: Array,
    fn: Callable[..., BatchState],
    unused: frozenset[str] = frozenset(),
    extra: tuple[Array, ...] = (),
) -> BatchState:
    """`st` with `fn(lanes, *extra)` applied to the lanes where `mask` holds (skipped when none does).

    numpy compacts those lanes (and the arrays of `extra`, one row per lane, which `fn` receives after
    the state), runs `fn` on them and writes them back; a traced backend runs `fn` on every lane and
    merges with `where` (the kernels never branch on values otherwise). `fn` must not read the fields
    of `unused` (they are left empty) nor change `FIXED_FIELDS`.

    Example:
        >>> import numpy as np
        >>> from .backend import NUMPY
        >>> from .state import allocate
        >>> s = allocate(3, 2, 4, 4, 1, 0)
        >>> s = on_lanes(NUMPY, s, np.array([True, False, True]), lambda t: t._replace(rounds=t.rounds + 1))
        >>> s.rounds.tolist()
        [1, 0, 1]
    """
    if bk.traced:
        xp = bk.xp

        def run(st: BatchState) -> BatchState:
            done = fn(st, *extra)
            values = {}
            for name in ARRAY_FIELDS:
                old, new = getattr(st, name), getattr(done, name)
                if name in FIXED_FIELDS or new is old:
                    continue
                w = mask.reshape(mask.shape + (1,) * (old.ndim - 1))
                values[name] = xp.where(w, new, old).astype(old.dtype)
            return st._replace(**values)

        merged: BatchState = bk.branch(xp.any(mask), run, st)
        return merged
    lanes = bk.lanes(mask)
    if lanes is None:
        return st
    if lanes.size == mask.shape[0]:
        return fn(st, *extra)
    part = fn(subset(st, lanes, unused), *(x[lanes] for x in extra))
    return merge(st, lanes, part, unused | FIXED_FIELDS)


def seat_mask(bk: Backend, spec: Spec, bits: Array) -> Array:
    """(B, S) bool: the seats set in each lane's bitmask.

    Example:
        >>> import numpy as np
        >>> import cucumber_rules as cr
        >>> from .backend import NUMPY
        >>> from .spec import spec_of
        >>> seat_mask(NUMPY, spec_of(cr.ruleset("agurk"), 3), np.array([3], np.int32)).tolist()
        [[True, True, False]]
    """
    return bk.take(spec.bit_seats, bits)


def blend(bk: Backend, st: BatchState, where: Array | None, **fields: Any) -> BatchState:
    """`st` with `fields` replaced in the lanes of `where` (every lane when None).

    Example:
        >>> import numpy as np
        >>> from .backend import NUMPY
        >>> from .state import allocate
        >>> s = allocate(2, 2, 4, 4, 1, 0)
        >>> blend(NUMPY, s, np.array([False, True]), rounds=np.array([7, 7], np.int32)).rounds.tolist()
        [0, 7]
    """
    if where is None:
        return st._replace(**fields)
    xp = bk.xp
    out: dict[str, Any] = {}
    for name, value in fields.items():
        old = getattr(st, name)
        if old.shape[0] != where.shape[0]:  # a field `on_lanes` left empty: not this work's
            continue
        w = where.reshape(where.shape + (1,) * (old.ndim - 1))
        out[name] = xp.where(w, value, old).astype(old.dtype)
    return st._replace(**out)


def win(bk: Backend, st: BatchState, winners: Array, done: Array, auto_reset: bool) -> BatchState:
    """The lanes of `done` just ended their match with `winners` (B, S): rewards (the winners share
    1.0), terminated. Without auto-reset such a lane waits: no seat to act. (With auto-reset the caller
    starts the next match.)

    Example:
        >>> import numpy as np
        >>> from .backend import NUMPY
        >>> from .state import allocate
        >>> s = allocate(1, 3, 4, 4, 1, 0)
        >>> s = win(NUMPY, s, np.array([[True, False, True]]), np.array([True]), False)
        >>> s.rewards.tolist(), s.over.tolist(), s.current_player.tolist()
        ([[0.5, 0.0, 0.5]], [True], [-1])
    """
    xp = bk.xp
    count = xp.maximum(winners.sum(axis=1, keepdims=True, dtype=xp.int32), 1).astype(xp.float32)
    share = winners.astype(xp.float32) / count
    st = blend(bk, st, done, rewards=share, winners=winners)
    st = st._replace(terminated=st.terminated | done)
    if not auto_reset:
        st = blend(
            bk, st, done, over=xp.ones_like(st.over), current_player=xp.full_like(st.current_player, -1)
        )
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
    xp = bk.xp
    fills = {
        "rounds": 0, "totals": 0, "marks": 0, "out": 0, "revived": False, "sitting": False, "pending": -1,
        "payer": -1, "captured": 0, "fives": 0, "low": NO_HAND, "over": False, "log_len": 0, "origin": -1,
    }  # fmt: skip
    if where is None:
        values = {name: xp.full_like(getattr(st, name), value) for name, value in fills.items()}
        return st._replace(match=st.match + xp.uint32(1), **values)
    out: dict[str, Any] = {}
    for name, value in fills.items():
        old = getattr(st, name)
        if old.shape[0] == where.shape[0]:  # (not a field `on_lanes` left empty)
            out[name] = bk.fill(old, where, value)
    return st._replace(match=st.match + where.astype(xp.uint32), **out)
