"""A traced backend's (JAX's) side of `Env`: states moved to the backend, and the compiled functions.

`Env` checks the actions on the host, then calls one compiled function per kind of call (`init`,
`step`, `step-penalty`, `restart`, `observe`), made once per environment with the backend's
`compile` (`jax.jit`). A compiled function takes and returns the state's arrays only (a tuple); the
library states of `origins` stay on the host.

Example:
    >>> from cucumber_rules import batch
    >>> s = batch.make("gurka", players=2, size=2).init(0)
    >>> to_backend(batch.NUMPY, s).hands.shape
    (2, 2, 52)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .backend import Array, Backend
from .lanes import on_lanes
from .observe import observe
from .spec import Spec
from .state import ARRAY_FIELDS, BatchState

__all__ = ["compiled", "to_backend"]


def to_backend(bk: Backend, st: BatchState) -> BatchState:
    """`st` with its arrays the backend's (a state already the backend's is returned as it is)."""
    if st.ticket is None and not isinstance(st.hands, np.ndarray):  # (the backend's state already)
        return st
    values: dict[str, Any] = {name: bk.asarray(getattr(st, name)) for name in ARRAY_FIELDS}
    return st._replace(**values, ticket=None)


def _rebuild(arrays: tuple[Array, ...], origins: tuple[Any, ...]) -> BatchState:
    return BatchState._make((*arrays, origins, None))


def _arrays_of(st: BatchState) -> tuple[Array, ...]:
    return tuple(getattr(st, name) for name in ARRAY_FIELDS)


def compiled(
    bk: Backend,
    spec: Spec,
    kernel: Any,
    auto: bool,
    penalize: Callable[[BatchState], BatchState],
    kind: str,
) -> Callable[..., Any]:
    """The compiled function for `kind` of an environment (its backend, spec, kernel module, auto-reset
    and penalty): `init(st)`, `step(st, actions, moving, bad)` (and `step-penalty`, which ends the
    lanes of `bad` first), `restart(st, where)`, `observe(st, seats)`."""

    def legal(st: BatchState) -> BatchState:
        out: BatchState = st._replace(legal_action_mask=kernel.legal(bk, spec, st))
        return out

    def init(arrays: tuple[Array, ...]) -> tuple[Array, ...]:
        return _arrays_of(legal(kernel.deal(bk, spec, _rebuild(arrays, ()))))

    def step(
        arrays: tuple[Array, ...], a: Array, moving: Array, bad: Array, *, penalty: bool
    ) -> tuple[Array, ...]:
        xp = bk.xp
        st = _rebuild(arrays, ())
        st = st._replace(
            rewards=xp.zeros_like(st.rewards),
            terminated=xp.zeros_like(st.terminated),
            truncated=xp.zeros_like(st.truncated),
        )
        if penalty:
            st = on_lanes(bk, st, bad, penalize)
        st = st._replace(log_len=st.log_len + moving)
        st = on_lanes(bk, st, moving, lambda t: kernel.advance(bk, spec, t, a, auto))
        return _arrays_of(legal(st))

    def restart(arrays: tuple[Array, ...], w: Array) -> tuple[Array, ...]:
        st = on_lanes(bk, _rebuild(arrays, ()), w, lambda t: kernel.new_matches(bk, spec, t))
        return _arrays_of(legal(st))

    def look(arrays: tuple[Array, ...], seats: Array) -> Array:
        return observe(bk, spec, _rebuild(arrays, ()), seats)

    functions: dict[str, Callable[..., Any]] = {
        "init": init,
        "step": lambda *args: step(*args, penalty=False),
        "step-penalty": lambda *args: step(*args, penalty=True),
        "restart": restart,
        "observe": look,
    }
    run = bk.compile(functions[kind])

    def fn(st: BatchState, *args: Array) -> Any:
        out = run(_arrays_of(st), *(bk.asarray(x) for x in args))
        return out if kind == "observe" else _rebuild(out, st.origins)

    return fn
