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
    >>> keys = shuffle_keys(seed_of(7, 0, 0, DEAL), 4)
    >>> sorted(int(k) & 63 for k in keys[0])
    [0, 1, 2, 3]
"""

from __future__ import annotations

from typing import Final

import numpy as np

from .backend import Array

__all__ = ["DEAL", "REDEAL", "STARTER", "lane_keys", "mix", "seed_of", "shuffle_keys", "uniform_below"]

DEAL: Final = 0
"""Purpose: the deck's shuffle for a deal."""
REDEAL: Final = 1
"""Purpose: If You Can't Beat 'Em's second shuffle of the dealt block."""
STARTER: Final = 2
"""Purpose: the starter drawn among tied seats (Catastrophe)."""

_M1: Final = 0x7FEB352D
_M2: Final = 0x846CA68B
_GOLDEN: Final = 0x9E3779B9


def mix(x: Array) -> Array:
    """`lowbias32` of each uint32 (a bijection of 32-bit integers with good avalanche).

    Example:
        >>> import numpy as np
        >>> mix(np.array([0, 1], np.uint32)).tolist()
        [0, 1753845952]
    """
    x = np.asarray(x, np.uint32)
    with np.errstate(over="ignore"):  # (uint32 arithmetic wraps on purpose; numpy warns for scalars)
        x = x ^ (x >> 16)
        x = x * np.uint32(_M1)
        x = x ^ (x >> 15)
        x = x * np.uint32(_M2)
        out: Array = x ^ (x >> 16)
    return out


def _u32(x: Array | int) -> Array:
    return np.atleast_1d(np.asarray(x)).astype(np.uint32)


def seed_of(key: Array | int, match: Array | int, round: Array | int, purpose: int) -> Array:
    """The seed of one shuffle: the lane's key, match number, round number and purpose, hashed.

    Example:
        >>> import numpy as np
        >>> int(seed_of(1, 0, 0, DEAL)[0]) != int(seed_of(1, 0, 1, DEAL)[0]) != int(seed_of(1, 1, 0, DEAL)[0])
        True
    """
    x = mix(_u32(key) ^ np.uint32(_GOLDEN))
    x = mix(x ^ _u32(match))
    with np.errstate(over="ignore"):
        counter = _u32(round) * np.uint32(4) + np.uint32(purpose)
    return mix(x ^ counter)


#: A hashed constant per card slot (at most 64 slots: the decks have 52 and 60 cards).
_SLOTS: Final = mix(np.arange(64, dtype=np.uint32) * np.uint32(_GOLDEN) + np.uint32(0x632BE5AB))


def shuffle_keys(seeds: Array, slots: int) -> Array:
    """Distinct sort keys for `slots` card slots per seed: 26 hashed bits, then the slot (`(B, slots)`).

    Example:
        >>> import numpy as np
        >>> k = shuffle_keys(np.array([1, 2], np.uint32), 52)
        >>> k.shape, k.dtype.name, len(set(k[0].tolist()))
        ((2, 52), 'uint32', 52)
    """
    h = mix(seeds[:, None] ^ _SLOTS[None, :slots])
    return (h & np.uint32(0xFFFFFFC0)) | np.arange(slots, dtype=np.uint32)[None, :]


def uniform_below(seeds: Array, n: Array) -> Array:
    """A number in `0..n-1` per lane from its seed (modulo bias below `n / 2**32`).

    Example:
        >>> import numpy as np
        >>> uniform_below(np.array([5, 6], np.uint32), np.array([3, 1])).tolist()[1]
        0
    """
    return (mix(seeds ^ np.uint32(0x5BD1E995)) % np.maximum(n, 1).astype(np.uint32)).astype(np.int32)


def lane_keys(seed: int, size: int) -> Array:
    """`size` lane keys from one integer seed (the keys `Env.init(seed)` uses).

    Example:
        >>> lane_keys(0, 3).tolist() == lane_keys(0, 5)[:3].tolist()
        True
    """
    s = mix(np.asarray([seed & 0xFFFFFFFF], np.uint32) ^ np.uint32((seed >> 32) & 0xFFFFFFFF))
    return mix(s ^ mix(np.arange(size, dtype=np.uint32) + np.uint32(0x2545F491)))
