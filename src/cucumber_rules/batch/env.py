"""`Env`: the batched environment (`make`, `init`, `step`, `observe`, `from_scalar`, `to_scalar`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

import numpy as np

from .. import encoding
from ..rules import Rules, ruleset
from ..state import State
from . import catastrophe, ladder
from .backend import NUMPY, Array, Backend, backend_named
from .lanes import on_lanes, reset_matches
from .observe import observe
from .spec import Spec, lane_players, spec_of
from .state import BatchState, allocate, copy_state

__all__ = ["AUTORESET_MODE", "Env", "IllegalActionError", "make"]

AUTORESET_MODE: Final = "same-step"
"""How a finished lane starts its next match: in the step that ends it (Gymnasium's `SAME_STEP`, pgx's
`auto_reset`): that step's state has `terminated` and the final `rewards`, and already the next match's
mask, seat to act and observation.

Example:
    >>> from cucumber_rules import batch
    >>> batch.make("agurk", size=2).autoreset_mode == AUTORESET_MODE
    True
"""


class IllegalActionError(ValueError):
    """Actions that are not legal in their lanes (with `illegal="raise"`, the default).

    Attributes:
        lanes: The offending lanes.
        actions: Their actions.

    Example:
        >>> from cucumber_rules import batch
        >>> env = batch.make("gurka", players=2, size=3)
        >>> s = env.init(0)
        >>> try:
        ...     env.step(s, [60, 0, 0])
        ... except batch.IllegalActionError as e:
        ...     print(e.lanes[:1])
        (0,)
    """

    def __init__(self, message: str, lanes: tuple[int, ...], actions: tuple[int, ...]) -> None:
        super().__init__(message)
        self.lanes = lanes
        self.actions = actions


class Env:
    """A batch of `size` lanes, each a match of the same rules (see `make`).

    Example:
        >>> from cucumber_rules import batch
        >>> env = batch.make("five-cucumbers", players=range(2, 7), size=10)
        >>> env.num_actions, env.max_players, env.players[:6]
        (15, 6, (2, 3, 4, 5, 6, 2))
    """

    def __init__(
        self,
        rules: Rules,
        *,
        players: int | Sequence[int] | range | None,
        size: int,
        auto_reset: bool,
        illegal: Literal["raise", "penalty"],
        record: bool,
        backend: Backend,
    ) -> None:
        if type(size) is not int or size < 1:
            raise ValueError(f"size must be an int >= 1, not {size!r}")
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        counts = lane_players(rules, players, size)
        self.rules: Rules = rules
        """The rule set every lane plays."""
        self.size: int = size
        """B: the lanes."""
        self.max_players: int = int(counts.max())
        """N: seat slots per lane (the most players of any lane)."""
        self.players: tuple[int, ...] = tuple(int(x) for x in counts)
        """Each lane's player count."""
        self.spec: Spec = spec_of(rules, self.max_players)
        self.auto_reset: bool = auto_reset
        self.autoreset_mode: str = AUTORESET_MODE if auto_reset else "disabled"
        """`"same-step"` with auto-reset (Gymnasium's `SAME_STEP`), else `"disabled"`."""
        self.illegal: str = illegal
        self.record: bool = record
        self.backend: Backend = backend
        self.num_actions: int = self.spec.num_actions
        """A: the action ids (`cr.num_actions(rules)`)."""
        self.observation_parts: tuple[tuple[str, int], ...] = tuple(
            encoding.observation_parts(rules, self.max_players)
        )
        """The observation's parts for N players (`cr.observation_parts`)."""
        self.observation_size: int = sum(n for _, n in self.observation_parts)
        self._counts = counts
        self._flat = np.arange(size, dtype=np.int32) * self.num_actions  # each lane's first mask entry
        self._kernel: Any = ladder if self.spec.family == "ladder" else catastrophe
        self._functions: dict[str, Any] = {}
        if backend.traced and record:
            raise ValueError(f"record=True needs the numpy backend (the {backend.name} backend keeps no log)")

    def __repr__(self) -> str:
        return (
            f"<batch.Env {self.rules.name!r} size={self.size} players={self._shown_players()} "
            f"auto_reset={self.auto_reset}>"
        )

    def _shown_players(self) -> object:
        return self.max_players if len(set(self.players)) == 1 else self.players

    # ------------------------------------------------------------------ start

    def _empty(self) -> BatchState:
        s = self.spec
        return allocate(self.size, s.seats, s.num_cards, s.num_actions, s.max_hand, 64 if self.record else 0)

    def _keys(self, seed_or_keys: Any) -> Array:
        from .rng import lane_keys

        if isinstance(seed_or_keys, bool):
            raise TypeError("init takes an int seed or one key per lane, not a bool")
        if isinstance(seed_or_keys, int | np.integer):
            return lane_keys(int(seed_or_keys), self.size)
        keys = np.asarray(seed_or_keys)
        if keys.shape != (self.size,) or keys.dtype.kind not in "iu":
            raise ValueError(
                f"keys must be {self.size} integers (one per lane), not an array of shape {keys.shape}"
            )
        return (keys.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)

    def init(self, seed: int | Sequence[int] | Array = 0, *, first: int | Sequence[int] | Array = 0
             ) -> BatchState:  # fmt: skip
        """Every lane's first match, dealt: an int seed (lane keys derived from it) or one key per lane.

        Args:
            seed: An int, or `size` integer keys (uint32): a lane's deals depend only on its key.
            first: The seat that leads each match's first trick (one for all lanes, or one per lane).

        Example:
            >>> from cucumber_rules import batch
            >>> env = batch.make("agurk", players=3, size=2)
            >>> s = env.init(7, first=[0, 2])
            >>> s.current_player.tolist(), s.legal_action_mask.sum(axis=1).tolist()
            ([0, 2], [7, 7])
        """
        st = self._empty()
        firsts = np.broadcast_to(np.asarray(first, np.int32), (self.size,)).copy()
        if ((firsts < 0) | (firsts >= self._counts)).any():
            raise ValueError("first must be a seat of each lane (0..players-1)")
        st = st._replace(key=self._keys(seed), players=self._counts.copy(), first=firsts)
        if self.backend.traced:
            started: BatchState = self._compiled("init")(self._to_backend(st))
            return started
        st = self._kernel.deal(self.backend, self.spec, st)
        out: BatchState = st._replace(legal_action_mask=self._kernel.legal(self.backend, self.spec, st))
        return out

    # ------------------------------------------------------------------ step

    def step(self, state: BatchState, actions: Any, *, where: Any = None) -> BatchState:
        """Apply one action per lane (ids of `cucumber_rules.encoding`); return the next state.

        The numpy backend updates the state's arrays in place and returns them: the state passed in is
        consumed (stepping it again raises; keep one with `copy`). `current_player`,
        `legal_action_mask`, `rewards`, `terminated` and `truncated` of each returned state are new
        arrays that later steps leave alone. A lane whose match is over (without auto-reset) ignores
        its action and gets zero rewards.

        Args:
            state: The current state.
            actions: (B,) integer action ids, one per lane (ignored in lanes that are over or not in
                `where`).
            where: Optional (B,) bools: only these lanes move; the others keep their state (rewards 0).

        Raises:
            IllegalActionError: (with `illegal="raise"`) naming the lanes whose action is not legal;
                the state is left as it was.
            ValueError: If the state was already stepped on, or the actions have the wrong shape.

        Example:
            >>> from cucumber_rules import batch
            >>> env = batch.make("agurk", players=4, size=3)
            >>> s = env.init(0)
            >>> s = env.step(s, s.legal_action_mask.argmax(axis=1))
            >>> s.current_player.tolist(), s.rewards.shape
            ([1, 1, 1], (3, 4))
        """
        ticket = state.ticket
        if ticket is not None and not ticket[0]:
            raise ValueError(
                "this state was already passed to step, which updated its arrays in place: step the state "
                "it returned (or keep one with env.copy(state) before stepping)"
            )
        b, a_count = self.size, self.num_actions
        a = np.asarray(actions)
        if a.shape != (b,) or a.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {b} integer action ids (one per lane), not an array of shape {a.shape} "
                f"and dtype {a.dtype}"
            )
        every = where is None and self.auto_reset  # every lane moves (no lane waits over)
        active: Array | None = None
        if not every:
            active = ~np.asarray(state.over)
            if where is not None:
                w = np.asarray(where)
                if w.shape != (b,) or w.dtype != bool:
                    raise ValueError(
                        f"where must be {b} bools, not an array of shape {w.shape} and dtype {w.dtype}"
                    )
                active = active & w
        # in range: the ids seen as unsigned (negative ones become huge) below the count
        fits = a.view(f"u{a.dtype.itemsize}") < a_count
        in_range = bool(fits.all())
        a32 = (a if in_range else np.where(fits, a, 0)).astype(np.int32, copy=False)
        ok = np.asarray(state.legal_action_mask).reshape(-1).take(self._flat + a32)
        if not in_range:
            ok &= fits
        if active is None:
            some_bad = not ok.all()
            bad = ~ok
        else:
            bad = active & ~ok
            some_bad = bool(bad.any())
        if some_bad and self.illegal == "raise":
            raise _illegal(state, a, bad, a_count)
        if ticket is not None:
            ticket[0] = False
        if some_bad:
            active = (np.ones(b, bool) if active is None else active) & ~bad
        if self.backend.traced:
            moving = np.ones(b, bool) if active is None else active
            kind = "step-penalty" if some_bad else "step"
            stepped: BatchState = self._compiled(kind)(self._to_backend(state), a32, moving, bad)
            return stepped
        st = state._replace(
            current_player=state.current_player.copy(),  # (merges of lanes write into it in place)
            rewards=np.zeros_like(state.rewards),
            terminated=np.zeros_like(state.terminated),
            truncated=np.zeros_like(state.truncated),
            ticket=[True] if ticket is not None else None,
        )
        if some_bad:
            st = on_lanes(self.backend, st, bad, self._penalize)
        if self.record:
            st = self._log(st, a32, np.ones(b, bool) if active is None else active)
        else:
            st = st._replace(log_len=st.log_len + (1 if active is None else active))
        kernel, bk, spec, auto = self._kernel, self.backend, self.spec, self.auto_reset
        if active is None or active.all():
            st = kernel.advance(bk, spec, st, a32, auto)
        else:
            st = on_lanes(bk, st, active, lambda t, x: kernel.advance(bk, spec, t, x, auto), extra=(a32,))
        return st._replace(legal_action_mask=kernel.legal(bk, spec, st))

    # ------------------------------------------------------------------ a traced backend (JAX)

    def _to_backend(self, st: BatchState) -> BatchState:
        from .traced import to_backend

        return to_backend(self.backend, st)

    def _compiled(self, kind: str) -> Any:
        """The backend's compiled `init`, `step`, `step-penalty`, `restart` or `observe` (made once)."""
        found = self._functions.get(kind)
        if found is None:
            from .traced import compiled

            made = compiled(self.backend, self.spec, self._kernel, self.auto_reset, self._penalize, kind)
            found = self._functions[kind] = made
        return found

    def _penalize(self, st: BatchState) -> BatchState:
        xp = self.backend.xp
        n = st.players
        seat = xp.arange(self.spec.seats, dtype=xp.int32)[None, :]
        p = st.current_player[:, None]
        others = xp.where(seat < n[:, None], 1 / (n[:, None] - 1).astype(xp.float32), 0)
        rewards = xp.where(seat == p, -1, others).astype(xp.float32)
        st = st._replace(
            rewards=rewards, terminated=xp.ones_like(st.terminated), winners=xp.zeros_like(st.winners)
        )
        if self.auto_reset:
            out: BatchState = self._kernel.deal(self.backend, self.spec, reset_matches(self.backend, st))
            return out
        return st._replace(over=xp.ones_like(st.over), current_player=xp.full_like(st.current_player, -1))

    def _log(self, st: BatchState, a: Array, active: Array) -> BatchState:
        log = st.log
        if int(st.log_len.max(initial=0)) >= log.shape[1]:
            wide = np.zeros((log.shape[0], max(64, 2 * log.shape[1])), log.dtype)
            wide[:, : log.shape[1]] = log
            log = wide
        lanes = np.flatnonzero(active)
        log[lanes, st.log_len[lanes]] = a[lanes]
        return st._replace(log=log, log_len=st.log_len + active)

    def restart(self, state: BatchState, where: Any) -> BatchState:
        """Start the next match in the lanes of `where` (a loop without auto-reset starts them when it
        has read their end); the other lanes are left as they are.

        The state given is consumed, as by `step`.

        Example:
            >>> import numpy as np
            >>> from cucumber_rules import batch
            >>> env = batch.make("gurka", players=2, size=2, auto_reset=False)
            >>> s = env.restart(env.init(0), np.array([False, True]))
            >>> s.match.tolist()
            [0, 1]
        """
        w = np.asarray(where)
        if w.shape != (self.size,) or w.dtype != bool:
            raise ValueError(
                f"where must be {self.size} bools, not an array of shape {w.shape} and dtype {w.dtype}"
            )
        ticket = state.ticket
        if ticket is not None and not ticket[0]:
            raise ValueError("this state was already passed to step or restart: use the state it returned")
        if ticket is not None:
            ticket[0] = False
        if self.backend.traced:
            restarted: BatchState = self._compiled("restart")(self._to_backend(state), w)
            return restarted
        bk, spec, kernel = self.backend, self.spec, self._kernel
        st = state._replace(
            current_player=state.current_player.copy(),
            rewards=state.rewards.copy(),
            terminated=state.terminated.copy(),
            ticket=[True] if ticket is not None else None,
        )
        st = on_lanes(bk, st, w, lambda t: kernel.new_matches(bk, spec, t))
        out: BatchState = st._replace(legal_action_mask=kernel.legal(bk, spec, st))
        return out

    # ------------------------------------------------------------------ observe, copy

    def observe(self, state: BatchState, seat: int | Array | None = None) -> Array:
        """(B, observation_size) float32: each lane's observation, as `cr.observation(cr.view(state, seat))`.

        Args:
            state: The state.
            seat: None for each lane's seat to act (seat 0 in a lane whose match is over), an int for
                that seat in every lane, or (B,) seats.

        Raises:
            ValueError: If a seat is not one of its lane's.

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules import batch
            >>> env = batch.make("catastrophe", players=4, size=2)
            >>> env.observe(env.init(0), seat=2).shape
            (2, 445)
        """
        if seat is None:
            seats = np.maximum(np.asarray(state.current_player), 0)
        else:
            seats = np.broadcast_to(np.asarray(seat), (self.size,)).astype(np.int32)
            if ((seats < 0) | (seats >= self._counts)).any():
                raise ValueError("seat must be a seat of each lane (0..players-1)")
        if self.backend.traced:
            out: Array = self._compiled("observe")(state, seats)
            return out
        return observe(self.backend, self.spec, state, seats)

    def copy(self, state: BatchState) -> BatchState:
        """A copy of a state with arrays of its own (to keep it while the original is stepped on).

        Example:
            >>> from cucumber_rules import batch
            >>> env = batch.make("agurk", players=3, size=2)
            >>> s = env.init(0)
            >>> kept = env.copy(s)
            >>> _ = env.step(s, s.legal_action_mask.argmax(axis=1))
            >>> int(kept.trick_len.sum())
            0
        """
        return copy_state(state)

    # ------------------------------------------------------------------ the scalar library

    def from_scalar(self, states: Sequence[State], keys: Any = 0) -> BatchState:
        """Lanes from library states (one per lane): a seat to act, or a deal due (dealt by the lane's key).

        Args:
            states: `size` states of these rules, each with at most `max_players` players, not over.
            keys: An int seed or one key per lane, for the deals to come.

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules import batch
            >>> env = batch.make("agurk", players=4, size=2)
            >>> s = env.from_scalar([cr.new_game(cr.ruleset("agurk"), 4)] * 2, keys=[5, 6])
            >>> s.hands.sum(axis=(1, 2)).tolist()
            [28, 28]
        """
        from .scalar import from_scalar

        st = from_scalar(self, states, self._keys(keys))
        return self._to_backend(st) if self.backend.traced else st

    def to_scalar(self, state: BatchState, lane: int) -> State:
        """The library state of a lane, by replaying its match (the lane's actions need `record=True`).

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules import batch
            >>> env = batch.make("gurka", players=3, size=2, record=True)
            >>> s = env.init(0)
            >>> s = env.step(s, s.legal_action_mask.argmax(axis=1))
            >>> t = env.to_scalar(s, 1)
            >>> t.to_act == int(s.current_player[1]), len(t.trick)
            (True, 1)
        """
        from .scalar import to_scalar

        return to_scalar(self, state, lane)


def _illegal(state: BatchState, a: Array, bad: Array, count: int) -> IllegalActionError:
    lanes = tuple(int(x) for x in np.flatnonzero(bad))
    shown = []
    for lane in lanes[:3]:
        legal = np.flatnonzero(state.legal_action_mask[lane]).tolist()
        shown.append(
            f"lane {lane}: seat {int(state.current_player[lane])} chose {int(a[lane])}, legal: {legal}"
        )
    more = f" (and {len(lanes) - 3} more lanes)" if len(lanes) > 3 else ""
    return IllegalActionError(
        f"illegal actions in {len(lanes)} lane{'s' if len(lanes) > 1 else ''}{more}: "
        + "; ".join(shown)
        + f" (action ids are 0..{count - 1}; make(..., illegal='penalty') ends such a lane with -1 instead)",
        lanes,
        tuple(int(a[x]) for x in lanes),
    )


def make(
    rules: Rules | str,
    players: int | Sequence[int] | range | None = None,
    size: int = 1024,
    *,
    auto_reset: bool = True,
    illegal: Literal["raise", "penalty"] = "raise",
    record: bool = False,
    backend: Backend | str = NUMPY,
) -> Env:
    """A batched environment: `size` lanes, each playing matches of `rules` (a preset name or a `Rules`).

    Args:
        rules: A preset name (`"agurk"`, ...) or a `Rules` of the ladder games or Catastrophe.
        players: Each lane's player count: an int, a `range` (lanes take its counts in turn) or one count
            per lane; default the rules' whole range.
        size: B, the lanes.
        auto_reset: Start a lane's next match in the step that ends one (`AUTORESET_MODE`); else the lane
            waits, over, with an all-True mask and no seat to act.
        illegal: `"raise"` (`IllegalActionError` naming the lanes) or `"penalty"` (pgx's behaviour: the
            offender gets -1, the others share +1, and the match ends).
        record: Keep each lane's actions, so that `to_scalar` can replay it.
        backend: The array backend: `"numpy"` (the default, `batch.NUMPY`) or `"jax"` (needs jax: the
            steps compiled with `jax.jit`, the state's arrays JAX arrays; no `record`).

    Example:
        >>> from cucumber_rules import batch
        >>> env = batch.make("agurk", players=4, size=256)
        >>> env.num_actions, env.observation_size, env.autoreset_mode
        (52, 345, 'same-step')
    """
    if isinstance(rules, str):
        rules = ruleset(rules)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a preset name or a Rules, not {type(rules).__name__}")
    return Env(rules, players=players, size=size, auto_reset=auto_reset, illegal=illegal, record=record,
               backend=backend_named(backend))  # fmt: skip
