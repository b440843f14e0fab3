"""The backend shim the kernels are written against: a handful of array operations.

The kernels of `cucumber_rules.batch` use the array namespace (`xp`: numpy's functions) for
elementwise work, and this shim for what array libraries do differently: updates at flat indexes
(numpy writes in place; JAX's `.at[]` returns a new array), row lookups in tables, work on a subset of
lanes (numpy compacts the lanes with `flatnonzero`; a traced backend would run every lane and merge
with `where`), and the deck shuffle's sort. A kernel always writes `x = bk.set_at(x, ...)`, never
relies on an update happening in place, and never branches on array values except through
`bk.lanes`, so a JAX backend (`jit`, `vmap`) can follow without touching the rules.

Example:
    >>> import numpy as np
    >>> bk = NUMPY
    >>> a = bk.set_at(np.zeros(4, np.int32), np.array([1, 3]), 7)
    >>> a.tolist(), bk.take(np.array([[1, 2], [3, 4]]), np.array([1, 1, 0])).tolist()
    ([0, 7, 0, 7], [[3, 4], [3, 4], [1, 2]])
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

__all__ = ["NUMPY", "Array", "Backend", "NumpyBackend"]

Array = npt.NDArray[Any]
"""An array of the backend (numpy's `ndarray` here)."""


class Backend:
    """The operations a kernel needs beyond elementwise array functions (see the module docstring).

    Example:
        >>> NUMPY.name, NUMPY.in_place
        ('numpy', True)
    """

    name: str = "abstract"
    in_place: bool = False
    """True when updates change the array given (numpy): a state passed to `step` is consumed."""
    xp: Any = None
    """The array namespace: `numpy`, or `jax.numpy` for a JAX backend."""

    def set_at(self, a: Array, flat: Array, values: Any) -> Array:
        """`a` with `a.flat[flat] = values` (indexes distinct); numpy writes in place and returns `a`."""
        raise NotImplementedError

    def add_at(self, a: Array, flat: Array, values: Any) -> Array:
        """`a` with `values` added at the flat indexes `flat` (indexes distinct)."""
        raise NotImplementedError

    def take(self, table: Array, rows: Array) -> Array:
        """The rows `rows` of `table` (the first axis)."""
        raise NotImplementedError

    def lanes(self, mask: Array) -> Array | None:
        """The lanes where `mask` holds, as indexes, or None when there are none (then skip the work)."""
        raise NotImplementedError

    def fill(self, a: Array, lanes: Array, value: Any) -> Array:
        """`a` with `value` in the lanes where the bools `lanes` hold (numpy: in place)."""
        raise NotImplementedError

    def some(self, mask: Array) -> bool:
        """Whether work on the lanes of `mask` is needed at all (a traced backend always says True and
        lets `where` make the work a no-op on the other lanes)."""
        raise NotImplementedError

    def gather(self, a: Array, lanes: Array) -> Array:
        """`a[lanes]`."""
        raise NotImplementedError

    def scatter(self, a: Array, lanes: Array, values: Array) -> Array:
        """`a` with `a[lanes] = values`."""
        raise NotImplementedError

    def sort_order(self, keys: Array) -> Array:
        """The indexes that sort each row of `keys`, distinct uint32 keys whose low 6 bits are the index
        (`rng.shuffle_keys`): a plain sort of the keys, masked, is the order (faster than an argsort)."""
        raise NotImplementedError

    def counts(self, flat: Array, size: int) -> Array:
        """How often each of `0..size-1` occurs in `flat` (int32)."""
        raise NotImplementedError


class NumpyBackend(Backend):
    """The numpy backend: updates in place, subsets of lanes compacted with `flatnonzero`.

    Example:
        >>> import numpy as np
        >>> NUMPY.lanes(np.array([False, True, True])).tolist(), NUMPY.lanes(np.zeros(3, bool))
        ([1, 2], None)
    """

    name = "numpy"
    in_place = True
    xp = np

    def set_at(self, a: Array, flat: Array, values: Any) -> Array:
        """See `Backend.set_at`."""
        a.reshape(-1)[flat] = values
        return a

    def add_at(self, a: Array, flat: Array, values: Any) -> Array:
        """See `Backend.add_at`."""
        a.reshape(-1)[flat] += values
        return a

    def take(self, table: Array, rows: Array) -> Array:
        """See `Backend.take`."""
        return table.take(rows, axis=0)

    def lanes(self, mask: Array) -> Array | None:
        """See `Backend.lanes`."""
        found = np.flatnonzero(mask)
        return found if found.size else None

    def fill(self, a: Array, lanes: Array, value: Any) -> Array:
        """See `Backend.fill`."""
        a[lanes] = value
        return a

    def some(self, mask: Array) -> bool:
        """See `Backend.some`."""
        return bool(mask.any())

    def gather(self, a: Array, lanes: Array) -> Array:
        """See `Backend.gather`."""
        return a[lanes]

    def scatter(self, a: Array, lanes: Array, values: Array) -> Array:
        """See `Backend.scatter`."""
        a[lanes] = values
        return a

    def sort_order(self, keys: Array) -> Array:
        """See `Backend.sort_order`."""
        out: Array = (np.sort(keys, axis=1) & np.uint32(63)).astype(np.int32)
        return out

    def counts(self, flat: Array, size: int) -> Array:
        """See `Backend.counts`."""
        return np.bincount(flat, minlength=size).astype(np.int32)


NUMPY: Final = NumpyBackend()
"""The numpy backend (the default, and for now the only one).

Example:
    >>> from cucumber_rules import batch
    >>> batch.make("gurka", size=2).backend is NUMPY
    True
"""
