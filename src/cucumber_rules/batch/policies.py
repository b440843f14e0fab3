"""Batched policies: uniformly random legal actions, and a heuristic for every lane at once.

Example:
    >>> import numpy as np
    >>> mask = np.array([[False, True, True], [True, False, False]])
    >>> random_actions(mask, np.random.default_rng(0)).tolist()[1]
    0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import catastrophe
from .backend import NUMPY, Array

if TYPE_CHECKING:
    from .env import Env
    from .state import BatchState

__all__ = ["heuristic_actions", "random_actions"]


def random_actions(mask: Array, rng: np.random.Generator) -> Array:
    """(B,) int32: a uniformly random legal action id per lane (each lane's row of `mask` has one True).

    Example:
        >>> import numpy as np
        >>> m = np.ones((4, 3), bool)
        >>> random_actions(m, np.random.default_rng(1)).shape
        (4,)
    """
    found = np.flatnonzero(mask)  # each lane's legal ids, lane after lane
    counts = np.bincount(found // mask.shape[1], minlength=mask.shape[0])
    start = np.cumsum(counts) - counts
    pick = (rng.random(mask.shape[0]) * counts).astype(np.int64)
    out: Array = (found[start + pick] % mask.shape[1]).astype(np.int32)
    return out


def heuristic_actions(env: Env, state: BatchState, rng: Any = None) -> Array:
    """(B,) int32: a heuristic's action per lane.

    The ladder games: the library's heuristic exactly (`cr.bots`'s `"heuristic"`): the highest legal
    card, and always buy back in. Catastrophe: a simpler batched cousin of the library's heuristic: of
    the legal cards that would not take the trick now, the one most costly to keep (its cucumbers
    beyond one, plus up to 2 for the most extreme numbers); if every legal card would take it, the most
    costly card too. `rng` is unused (both are deterministic).

    Example:
        >>> from cucumber_rules import batch
        >>> env = batch.make("gurka", players=2, size=2)
        >>> s = env.init(0)
        >>> a = heuristic_actions(env, s)
        >>> bool((a == s.legal_action_mask[:, :52].cumsum(axis=1).argmax(axis=1)).all())
        True
    """
    spec = env.spec
    mask = state.legal_action_mask
    k = spec.num_cards
    cards = mask[:, :k]
    if spec.family == "ladder":
        top = k - 1 - cards[:, ::-1].argmax(axis=1)
        if spec.revival:
            top = np.where(state.pending >= 0, k, top)
        found: Array = top.astype(np.int32)
        return found
    ids = np.arange(k)
    cost = (spec.cucumbers[1:] - 1) + np.maximum(0.0, np.abs(spec.rank - 30.5) - 15.0) / 15.0
    first = state.trick_len == 0
    if spec.surprise:
        leading, setting, lead = np.zeros_like(first), first, state.lead
    else:
        leading, setting = first, (state.marker == 0) & ~first
        lead = np.where(first, 0, state.lead)
    _, takes = catastrophe.mark(NUMPY, state.marker[:, None], ids[None, :], lead[:, None],
                                state.high[:, None], setting[:, None], leading[:, None])  # fmt: skip
    takes = takes & ~leading[:, None]  # a card led from hand never takes the trick in the end
    safe = cards & ~takes
    some: Array = safe.any(axis=1)
    pool = np.where(some[:, None], safe, cards)
    out: Array = np.where(pool, cost[None, :], -np.inf).argmax(axis=1).astype(np.int32)
    return out
