"""The backend shim the kernels are written against: an array namespace and a handful of operations.

The kernels of `cucumber_rules.batch` take their array namespace from the backend (`bk.xp`: numpy,
or `jax.numpy`) and never name numpy in rule code; tables built when an environment is made (read
once from the rules) are numpy arrays, which the kernels look up through `bk.take`. The shim holds
what array libraries do differently:

- updates at an index within each lane (numpy writes in place; JAX's `.at[]` returns a new array);
  a kernel always writes `x = bk.set_lane(x, ...)`, never relies on an update happening in place,
  and indexes only within a lane, so that a backend running every lane stays within each lane;
- work on a subset of lanes: numpy compacts the lanes with `flatnonzero` (`lanes`) and skips work no
  lane needs (`some`); a traced backend (`traced`) runs every lane and merges with `where`;
- the deck shuffle's sort, counting, and the speed tricks numpy needs, each behind one named
  method (`any_rows`, `as_bool`, `sum_seats`), so that no kernel copies them around.

Example:
    >>> import numpy as np
    >>> bk = NUMPY
    >>> a = bk.set_lane(np.zeros((2, 3), np.int32), np.array([1, 2]), 7)
    >>> a.tolist(), bk.take(np.array([[1, 2], [3, 4]]), np.array([1, 1, 0])).tolist()
    ([[0, 7, 0], [0, 0, 7]], [[3, 4], [3, 4], [1, 2]])
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any, Final, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["NUMPY", "Array", "Backend", "JaxBackend", "NumpyBackend", "OneHot", "backend_named"]

Array = npt.NDArray[Any]
"""An array of the backend (numpy's `ndarray`, or a JAX array for a JAX backend)."""

F = TypeVar("F", bound=Callable[..., Any])


class OneHot(NamedTuple):
    """A part of an observation given by its indexes (`Backend.join` writes the ones).

    Example:
        >>> import numpy as np
        >>> NUMPY.join([OneHot(np.array([[2, -1]]), 3), np.array([[7]])]).tolist()
        [[0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 7.0]]
    """

    ids: Array
    """(B,) or (B, m) ints: where the one is in each group of `size` columns, -1 for none."""
    size: int


class Backend:
    """The operations a kernel needs beyond the array namespace `xp` (see the module docstring).

    Example:
        >>> NUMPY.name, NUMPY.in_place, NUMPY.traced
        ('numpy', True, False)
    """

    name: str = "abstract"
    in_place: bool = False
    """True when updates change the array given (numpy): a state passed to `step` is consumed."""
    traced: bool = False
    """True for a backend that runs every lane of every branch (JAX under `jit`): `some` is always
    True, `lanes` is never asked, and work on a subset of lanes is merged with `where`."""
    xp: Any = None
    """The array namespace: `numpy`, or `jax.numpy` for a JAX backend."""

    def asarray(self, a: Any) -> Array:
        """`a` (a numpy array) as an array of this backend."""
        raise NotImplementedError

    def set_lane(self, a: Array, index: Array, values: Any) -> Array:
        """`a` (B, ...) with each lane's entry at flat position `index[lane]` of its row set to
        `values` (one per lane, or one for all); numpy writes in place and returns `a`."""
        raise NotImplementedError

    def add_lane(self, a: Array, index: Array, values: Any) -> Array:
        """`a` (B, ...) with `values` added at each lane's flat position `index[lane]` of its row."""
        raise NotImplementedError

    def get_lane(self, a: Array, index: Array) -> Array:
        """(B,): each lane's entry at flat position `index[lane]` of its row of `a` (B, ...)."""
        raise NotImplementedError

    def starts(self, lanes: int, width: int) -> Array:
        """(lanes,) int32: `arange(lanes) * width`, where each lane's row starts in a flat array."""
        out: Array = self.xp.arange(lanes, dtype=self.xp.int32) * width
        return out

    def take(self, table: Array, rows: Array) -> Array:
        """The rows `rows` of `table` (the first axis): `table[rows]`, a lookup in a made-time table."""
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

    def every(self, mask: Array) -> bool:
        """Whether `mask` holds in every lane, so that work need not be merged (a traced backend
        always says False)."""
        raise NotImplementedError

    def any_rows(self, mask: Array) -> Array:
        """(B,) bool: whether each row of the (B, K) bools `mask` has a True."""
        raise NotImplementedError

    def as_bool(self, counts: Array) -> Array:
        """`counts > 0` for int8 counts known to be 0 or 1 (numpy views them as bools for free)."""
        raise NotImplementedError

    def sum_seats(self, hands: Array) -> Array:
        """(B, K): the hands (B, S, K) of every seat added up (same dtype)."""
        raise NotImplementedError

    def join(self, parts: list[Array | OneHot]) -> Array:
        """(B, total) float32: the parts side by side, as a new array; a part is a (B, n) array of any
        dtype, or a `OneHot` ((B, m) indexes: m groups of `size` columns)."""
        raise NotImplementedError

    def sort_order(self, keys: Array) -> Array:
        """The indexes that sort each row of `keys`, distinct uint32 keys whose low 6 bits are the index
        (`rng.shuffle_keys`): a plain sort of the keys, masked, is the order (faster than an argsort)."""
        raise NotImplementedError

    def counts(self, index: Array, size: int, distinct: bool = False) -> Array:
        """(B, size) int8: how often each of `0..size-1` occurs in each row of `index` (B, N); negative
        indexes are not counted. `distinct`: no index occurs twice in a row (numpy then writes ones)."""
        raise NotImplementedError

    def compile(self, fn: F) -> F:
        """`fn` compiled for this backend (JAX: `jax.jit`; numpy: `fn` itself)."""
        raise NotImplementedError

    def branch(self, pred: Array, fn: Callable[[Any], Any], operand: Any) -> Any:
        """`fn(operand)` if `pred` holds, else `operand` (a traced backend: `jax.lax.cond`, so that work
        no lane needs this step, a round's end, is skipped; numpy compacts lanes instead)."""
        return fn(operand) if bool(pred) else operand


@functools.lru_cache(maxsize=256)
def lane_starts(lanes: int, width: int) -> Array:
    """(lanes,) intp, read-only: where each lane's row starts in a flat (lanes, width) array (made once
    per shape). The numpy backend's updates within lanes index through it: added to a lane's int32
    index it gives an intp index, and numpy's fancy writes with intp indexes cost a third of those
    with int32 ones (no cast).

    Example:
        >>> lane_starts(3, 4).tolist()
        [0, 4, 8]
    """
    out = np.arange(lanes, dtype=np.intp) * width
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=64)
def one_hots(size: int) -> Array:
    """(size + 1, size) float32, read-only: row i the one-hot of i, row `size` (that is, -1) zeros.

    Example:
        >>> one_hots(2)[[0, -1]].tolist()
        [[1.0, 0.0], [0.0, 0.0]]
    """
    out = np.eye(size + 1, size, dtype=np.float32)
    out.flags.writeable = False
    return out


class NumpyBackend(Backend):
    """The numpy backend: updates in place, subsets of lanes compacted with `flatnonzero`.

    Example:
        >>> import numpy as np
        >>> NUMPY.lanes(np.array([False, True, True])).tolist(), NUMPY.lanes(np.zeros(3, bool))
        ([1, 2], None)
    """

    name = "numpy"
    in_place = True
    traced = False
    xp = np

    def asarray(self, a: Any) -> Array:
        """See `Backend.asarray`."""
        return np.asarray(a)

    def set_lane(self, a: Array, index: Array, values: Any) -> Array:
        """See `Backend.set_lane`."""
        b = a.shape[0]
        a.reshape(-1)[lane_starts(b, a.size // b) + index] = values
        return a

    def add_lane(self, a: Array, index: Array, values: Any) -> Array:
        """See `Backend.add_lane`."""
        b = a.shape[0]
        a.reshape(-1)[lane_starts(b, a.size // b) + index] += values
        return a

    def get_lane(self, a: Array, index: Array) -> Array:
        """See `Backend.get_lane`."""
        b = a.shape[0]
        found: Array = a.reshape(-1).take(lane_starts(b, a.size // b) + index)
        return found

    def starts(self, lanes: int, width: int) -> Array:
        """See `Backend.starts` (made once per shape: `lane_starts`)."""
        return lane_starts(lanes, width)

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

    def every(self, mask: Array) -> bool:
        """See `Backend.every`."""
        return bool(mask.all())

    def any_rows(self, mask: Array) -> Array:
        """See `Backend.any_rows`: the rows' sums as int8 by `einsum`, which has no branch on the data
        (`any` and `argmax` along short rows cost two to three times as much)."""
        if mask.shape[1] > 127:  # (an int8 sum could overflow)
            found: Array = np.asarray(mask.any(axis=1))
            return found
        out: Array = np.einsum("ij->i", mask.view(np.int8)) > 0
        return out

    def as_bool(self, counts: Array) -> Array:
        """See `Backend.as_bool`."""
        return counts.view(bool)

    def sum_seats(self, hands: Array) -> Array:
        """See `Backend.sum_seats`: a loop over the seats (numpy's strided sum is slower)."""
        total: Array = hands[:, 0].copy()
        for j in range(1, hands.shape[1]):
            total += hands[:, j]
        return total

    def join(self, parts: list[Array | OneHot]) -> Array:
        """See `Backend.join`: zeros, each array part cast while it is copied in, each one-hot part
        one flat write (a cast of every part, then a `concatenate`, costs about three times as much)."""
        b = parts[0].ids.shape[0] if isinstance(parts[0], OneHot) else parts[0].shape[0]
        widths = [p.size * (p.ids.size // b) if isinstance(p, OneHot) else p.shape[1] for p in parts]
        total = sum(widths)
        out = np.zeros((b, total), np.float32)
        flat = out.reshape(-1)
        at = 0
        for p, width in zip(parts, widths, strict=True):
            if isinstance(p, OneHot) and p.ids.ndim == 1:  # one group: a row of a table of one-hots
                out[:, at : at + width] = one_hots(p.size).take(p.ids % (p.size + 1), axis=0)
            elif isinstance(p, OneHot):
                index = p.ids.reshape(b, -1)
                some = index >= 0
                starts = (lane_starts(b, total) + at)[:, None]
                groups = np.arange(index.shape[1], dtype=np.intp)[None, :] * p.size
                flat[starts + groups + np.where(some, index, 0)] = some
            else:
                out[:, at : at + width] = p
            at += width
        return out

    def sort_order(self, keys: Array) -> Array:
        """See `Backend.sort_order`."""
        out: Array = (np.sort(keys, axis=1) & np.uint32(63)).astype(np.int32)
        return out

    def counts(self, index: Array, size: int, distinct: bool = False) -> Array:
        """See `Backend.counts`: one flat write of ones when distinct, else a `bincount` (the
        negative indexes go to one spare entry past the lanes')."""
        b = index.shape[0]
        flat = np.where(index >= 0, index + lane_starts(b, size)[:, None], b * size)
        if distinct:
            out = np.zeros(b * size + 1, np.int8)
            out[flat] = 1
        else:
            out = np.bincount(flat.reshape(-1), minlength=b * size + 1).astype(np.int8)
        found: Array = out[:-1].reshape(b, size)
        return found

    def compile(self, fn: F) -> F:
        """See `Backend.compile`."""
        return fn


NUMPY: Final = NumpyBackend()
"""The numpy backend (the default).

Example:
    >>> from cucumber_rules import batch
    >>> batch.make("gurka", size=2).backend is NUMPY
    True
"""


class JaxBackend(Backend):
    """The JAX backend (optional: `pip install jax`): every update returns a new array, every branch runs
    on every lane and is merged with `where`, and `Env` compiles its steps with `jax.jit`.

    The kernels and the deals are the numpy backend's, bit for bit (32-bit dtypes only, no x64); the
    harness, `record` and the scalar bridge stay numpy's. On a CPU it pays at small batches, where
    numpy's per-operation overhead dominates; see the Performance page.

    Example:
        >>> JaxBackend.name, JaxBackend.traced, JaxBackend.in_place
        ('jax', True, False)
    """

    name = "jax"
    in_place = False
    traced = True

    def __init__(self) -> None:
        try:
            jax = importlib.import_module("jax")
        except ImportError as error:
            raise ImportError("the jax backend needs jax: pip install jax") from error
        self.xp = jax.numpy
        self._jax = jax

    def asarray(self, a: Any) -> Array:
        """See `Backend.asarray`."""
        out: Array = self.xp.asarray(a)
        return out

    def _rows(self, a: Array) -> tuple[Any, Array]:
        b = a.shape[0]
        return a.reshape(b, -1), self.xp.arange(b)

    def set_lane(self, a: Array, index: Array, values: Any) -> Array:
        """See `Backend.set_lane`."""
        rows, lane = self._rows(a)
        out: Array = rows.at[lane, index].set(values).reshape(a.shape)
        return out

    def add_lane(self, a: Array, index: Array, values: Any) -> Array:
        """See `Backend.add_lane`."""
        rows, lane = self._rows(a)
        out: Array = rows.at[lane, index].add(values).reshape(a.shape)
        return out

    def get_lane(self, a: Array, index: Array) -> Array:
        """See `Backend.get_lane`."""
        rows, lane = self._rows(a)
        out: Array = rows[lane, index]
        return out

    def take(self, table: Array, rows: Array) -> Array:
        """See `Backend.take`."""
        out: Array = self.xp.take(self.xp.asarray(table), rows, axis=0, mode="clip")
        return out

    def lanes(self, mask: Array) -> Array | None:
        """Never asked: a traced backend runs every lane."""
        raise NotImplementedError("a traced backend runs every lane (see Backend.traced)")

    def fill(self, a: Array, lanes: Array, value: Any) -> Array:
        """See `Backend.fill`."""
        w = lanes.reshape(lanes.shape + (1,) * (a.ndim - 1))
        out: Array = self.xp.where(w, value, a).astype(a.dtype)
        return out

    def some(self, mask: Array) -> bool:
        """Always True: the work runs on every lane, `where` keeps it to the lanes of `mask`."""
        return True

    def every(self, mask: Array) -> bool:
        """Always False: work on the lanes of `mask` is merged with `where`."""
        return False

    def any_rows(self, mask: Array) -> Array:
        """See `Backend.any_rows`."""
        out: Array = self.xp.any(mask, axis=1)
        return out

    def as_bool(self, counts: Array) -> Array:
        """See `Backend.as_bool`."""
        out: Array = counts != 0
        return out

    def sum_seats(self, hands: Array) -> Array:
        """See `Backend.sum_seats`."""
        out: Array = hands.sum(axis=1, dtype=hands.dtype)
        return out

    def counts(self, index: Array, size: int, distinct: bool = False) -> Array:
        """See `Backend.counts`."""
        xp = self.xp
        b = index.shape[0]
        spare = xp.where(index >= 0, index, size)
        out: Array = xp.zeros((b, size + 1), xp.int8).at[xp.arange(b)[:, None], spare].add(1)[:, :size]
        return out

    def join(self, parts: list[Array | OneHot]) -> Array:
        """See `Backend.join`."""
        xp = self.xp
        columns = []
        for p in parts:
            if isinstance(p, OneHot):
                b = p.ids.shape[0]
                hot = p.ids.reshape(b, -1)[:, :, None] == xp.arange(p.size)[None, None, :]
                columns.append(hot.reshape(b, -1).astype(xp.float32))
            else:
                columns.append(p.astype(xp.float32))
        out: Array = xp.concatenate(columns, axis=1)
        return out

    def sort_order(self, keys: Array) -> Array:
        """See `Backend.sort_order`."""
        xp = self.xp
        out: Array = (xp.sort(keys, axis=1) & np.uint32(63)).astype(xp.int32)
        return out

    def branch(self, pred: Array, fn: Callable[[Any], Any], operand: Any) -> Any:
        """See `Backend.branch`: `jax.lax.cond`."""
        return self._jax.lax.cond(pred, fn, lambda x: x, operand)

    def compile(self, fn: F) -> F:
        """`jax.jit(fn)`."""
        out: F = self._jax.jit(fn)
        return out


def backend_named(name: str | Backend) -> Backend:
    """The backend of a name: `"numpy"` (`NUMPY`) or `"jax"` (a `JaxBackend`; needs jax); a `Backend`
    is returned as it is.

    Example:
        >>> backend_named("numpy") is NUMPY
        True
    """
    if isinstance(name, Backend):
        return name
    if name == "numpy":
        return NUMPY
    if name == "jax":
        return JaxBackend()
    raise ValueError(f"backend must be 'numpy', 'jax' or a Backend, not {name!r}")
