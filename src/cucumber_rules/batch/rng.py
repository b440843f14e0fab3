"""Chance from a counter-based hash: a lane's deals are a pure function of (key, match, round).

Nothing is drawn from a generator with state: each shuffle hashes its lane's key, the number of the
match in that lane (counted from 0), the number of the round (rounds finished before it) and a
purpose, then gives every card slot of the deck a 32-bit key from that seed and sorts them. The hash
is `lowbias32` (Chris Wellons' 32-bit integer hash: a bijection with low bias), in uint32 arithmetic,
so numpy and a JAX backend compute the same deals bit for bit, and a lane's deals never depend on the
other lanes or on the batch size.

A sort key is 26 hashed bits above the slot's index (`(h & ~63) | slot`): the keys are distinct, so
the order is the same whichever sort is used. Two slots whose 26 bits tie keep their deck order; the
resulting bias is about `slots**2 / 2**27` (2e-5 for 52 cards), far below anything a statistic sees.

Example:
    >>> import numpy as np
    >>> one = lambda x: np.array([x], np.uint32)
    >>> keys = shuffle_keys(seed_of(one(7), one(0), one(0), DEAL), 4)
    >>> sorted(int(k) & 63 for k in keys[0])
    [0, 1, 2, 3]
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from .backend import Array

__all__ = ["DEAL", "REDEAL", "STARTER", "lane_keys", "mix", "seed_of", "shuffle_keys", "uniform_below"]

DEAL: Final = 0
"""Purpose: the deck's shuffle for a deal."""
REDEAL: Final = 1
"""Purpose: If You Can't Beat 'Em's second shuffle of the dealt block."""
STARTER: Final = 2
"""Purpose: the starter drawn among tied seats (Catastrophe)."""

U32: Final = np.dtype(np.uint32)
_M1: Final = np.uint32(0x7FEB352D)
_M2: Final = np.uint32(0x846CA68B)
_GOLDEN: Final = np.uint32(0x9E3779B9)
_FOUR: Final = np.uint32(4)
_PURPOSES: Final = tuple(np.uint32(purpose) for purpose in (DEAL, REDEAL, STARTER))
_HIGH26: Final = np.uint32(0xFFFFFFC0)
_DRAW: Final = np.uint32(0x5BD1E995)


def mix(x: Array) -> Array:
    """`lowbias32` of each uint32 of an array (a bijection of 32-bit integers with good avalanche).

    Only operators: the same code runs on numpy and JAX arrays (uint32 arithmetic wraps).

    Example:
        >>> import numpy as np
        >>> mix(np.array([0, 1], np.uint32)).tolist()
        [0, 1753845952]
    """
    x = x ^ (x >> 16)
    x = x * _M1
    x = x ^ (x >> 15)
    x = x * _M2
    out: Array = x ^ (x >> 16)
    return out


def seed_of(key: Array, match: Array, round: Array, purpose: int) -> Array:
    """The seed of one shuffle per lane: the lane's key, match number, round number and purpose, hashed
    (arrays of one entry per lane; `key` and `match` uint32).

    Example:
        >>> import numpy as np
        >>> one = lambda x: np.array([x], np.uint32)
        >>> a, b, c = (int(seed_of(one(1), one(m), one(r), DEAL)[0]) for m, r in ((0, 0), (0, 1), (1, 0)))
        >>> len({a, b, c})
        3
    """
    x = mix(key.astype(U32) ^ _GOLDEN)
    x = mix(x ^ match.astype(U32))
    counter = round.astype(U32) * _FOUR + _PURPOSES[purpose]
    return mix(x ^ counter)


#: A hashed constant per card slot (at most 64 slots: the decks have 52 and 60 cards), and the slots.
_SLOTS: Final = mix(np.arange(64, dtype=np.uint32) * _GOLDEN + np.uint32(0x632BE5AB))
_INDEX: Final = np.arange(64, dtype=np.uint32)


def shuffle_keys(seeds: Array, slots: int) -> Array:
    """Distinct sort keys for `slots` card slots per seed: 26 hashed bits, then the slot (`(B, slots)`).

    Example:
        >>> import numpy as np
        >>> k = shuffle_keys(np.array([1, 2], np.uint32), 52)
        >>> k.shape, k.dtype.name, len(set(k[0].tolist()))
        ((2, 52), 'uint32', 52)
    """
    h = mix(seeds[:, None] ^ _SLOTS[None, :slots])
    out: Array = (h & _HIGH26) | _INDEX[None, :slots]
    return out


def uniform_below(xp: Any, seeds: Array, n: Array) -> Array:
    """A number in `0..n-1` per lane from its seed (modulo bias below `n / 2**32`); `xp` the namespace.

    Example:
        >>> import numpy as np
        >>> uniform_below(np, np.array([5, 6], np.uint32), np.array([3, 1])).tolist()[1]
        0
    """
    out: Array = (mix(seeds ^ _DRAW) % xp.maximum(n, 1).astype(U32)).astype(xp.int32)
    return out


def lane_keys(seed: int, size: int) -> Array:
    """`size` lane keys from one integer seed (the keys `Env.init(seed)` uses; numpy).

    Example:
        >>> lane_keys(0, 3).tolist() == lane_keys(0, 5)[:3].tolist()
        True
    """
    s = mix(np.asarray([seed & 0xFFFFFFFF], np.uint32) ^ np.uint32((seed >> 32) & 0xFFFFFFFF))
    out: Array = mix(s ^ mix(np.arange(size, dtype=np.uint32) + np.uint32(0x2545F491)))
    return out
