"""`BatchState`: every lane of a batch as plain arrays with a leading batch axis (a JAX pytree too).

The first five fields are pgx's; the rest is the engine's own, documented for those who read it
(dtypes are 32-bit or smaller, so a JAX backend needs no x64). Seats are slots `0..S-1`, S the most
players of the environment; a lane with fewer players leaves the slots above its count empty.

Example:
    >>> from cucumber_rules import batch
    >>> env = batch.make("agurk", players=4, size=2)
    >>> s = env.init(0)
    >>> s.current_player.dtype.name, s.legal_action_mask.shape, s.rewards.shape, s.hands.shape
    ('int32', (2, 52), (2, 4), (2, 4, 52))
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .backend import Array

__all__ = ["ARRAY_FIELDS", "BatchState", "allocate", "copy_state", "merge", "subset"]


class BatchState(NamedTuple):
    """The state of every lane (B lanes, S seat slots, K card ids, A action ids).

    Example:
        >>> BatchState._fields[:5]
        ('current_player', 'legal_action_mask', 'rewards', 'terminated', 'truncated')
    """

    current_player: Array
    """(B,) int32: the seat to act; -1 once the match is over (without auto-reset)."""
    legal_action_mask: Array
    """(B, A) bool: the legal action ids of `cucumber_rules.encoding`; all True once over (pgx)."""
    rewards: Array
    """(B, S) float32: this step's reward per seat: `cr.returns` when a match ends, else 0."""
    terminated: Array
    """(B,) bool: a match ended at this step (with auto-reset the lane already holds the next one)."""
    truncated: Array
    """(B,) bool: always False (the rules bound every match: `cr.max_actions`)."""
    key: Array
    """(B,) uint32: the lane's key; its deals hash (key, match, round)."""
    match: Array
    """(B,) uint32: matches begun in the lane before this one."""
    players: Array
    """(B,) int32: the lane's player count."""
    first: Array
    """(B,) int32: the seat that leads the match's first trick."""
    hands: Array
    """(B, S, K) int8: copies of each card id in each seat's hand."""
    dealt: Array
    """(B, K) int8: the cards dealt into the hands this round."""
    trick: Array
    """(B, S) int32: the card id each seat played to the current trick, -1 if none."""
    trick_len: Array
    """(B,) int32: cards in the current trick."""
    leader: Array
    """(B,) int32: the seat that led (or leads) the current trick."""
    best: Array
    """(B,) int32: the seat whose card takes the trick so far (-1 before the first card)."""
    high: Array
    """(B,) int32: the ladder: the rank taking the trick (0 before a card); Catastrophe: its id (-1)."""
    lead: Array
    """(B,) int32: the ladder: the lead's rank; Catastrophe: the lead card's id (revealed or played)."""
    tricks: Array
    """(B,) int32: tricks completed this round."""
    seats: Array
    """(B,) int32: bitmask of the seats dealt in this round."""
    in_round: Array
    """(B,) int32: seats dealt in this round."""
    dealer: Array
    """(B,) int32: the dealer of the current (or last) round."""
    rounds: Array
    """(B,) int32: rounds (Catastrophe: hands) finished in this match."""
    totals: Array
    """(B, S) int32: each seat's total."""
    over: Array
    """(B,) bool: the match is over and the lane waits (without auto-reset)."""
    winners: Array
    """(B, S) bool: the winners of the lane's last finished match."""
    marks: Array
    """(B, S) int32: cucumber marks (the ladder)."""
    out: Array
    """(B, S) int32: 0 for a seat in play, else the round that put it out (the ladder)."""
    revived: Array
    """(B, S) bool: seats that used their revival."""
    sitting: Array
    """(B, S) bool: seats sitting out the current round (or the coming one, once bought back in)."""
    pending: Array
    """(B,) int32: the seat to decide on its revival, -1 if none."""
    payer: Array
    """(B,) int32: the seat that paid for the last round, -1 before any."""
    marker: Array
    """(B,) int32: the Trick Marker: 0 unset, 1 High, 2 Low, 3 High broken, 4 Low broken."""
    stock: Array
    """(B, H) int32: Surprise Cucumber's reveals of the hand, in order (-1 past them)."""
    captured: Array
    """(B, S) int32: cucumbers each seat captured this hand."""
    fives: Array
    """(B, S) int32: 5-cucumber cards each seat captured this hand."""
    low: Array
    """(B, S) int32: each seat's lowest single-hand score so far (2**30 before any hand)."""
    log: Array
    """(B, L) int16: the action ids of the lane's current match (`record=True`; L grows as needed)."""
    log_len: Array
    """(B,) int32: actions in `log`."""
    origin: Array
    """(B,) int32: index into `origins` of the library state the lane's match started from, or -1."""
    origins: tuple[Any, ...] = ()
    """Library states given to `from_scalar` (the lanes' `origin` index them)."""
    ticket: list[bool] | None = None
    """Numpy only: [True] until the state is passed to `step`, which updates its arrays in place."""


#: The array fields, in order (all but `origins` and `ticket`).
ARRAY_FIELDS: tuple[str, ...] = BatchState._fields[:-2]

NO_HAND = 1 << 30
"""`low` before any hand is scored."""


def allocate(size: int, seats: int, cards: int, actions: int, hand: int, log: int) -> BatchState:
    """A state of `size` empty lanes (every array zero, seats empty, no trick).

    Example:
        >>> allocate(3, 4, 52, 52, 7, 0).trick.tolist()[0]
        [-1, -1, -1, -1]
    """
    b, s = size, seats

    def z(shape: tuple[int, ...], dtype: Any, fill: int = 0) -> Array:
        return np.full(shape, fill, dtype=dtype)

    return BatchState(
        current_player=z((b,), np.int32),
        legal_action_mask=z((b, actions), bool),
        rewards=z((b, s), np.float32),
        terminated=z((b,), bool),
        truncated=z((b,), bool),
        key=z((b,), np.uint32),
        match=z((b,), np.uint32),
        players=z((b,), np.int32),
        first=z((b,), np.int32),
        hands=z((b, s, cards), np.int8),
        dealt=z((b, cards), np.int8),
        trick=z((b, s), np.int32, -1),
        trick_len=z((b,), np.int32),
        leader=z((b,), np.int32),
        best=z((b,), np.int32, -1),
        high=z((b,), np.int32),
        lead=z((b,), np.int32, -1),
        tricks=z((b,), np.int32),
        seats=z((b,), np.int32),
        in_round=z((b,), np.int32),
        dealer=z((b,), np.int32),
        rounds=z((b,), np.int32),
        totals=z((b, s), np.int32),
        over=z((b,), bool),
        winners=z((b, s), bool),
        marks=z((b, s), np.int32),
        out=z((b, s), np.int32),
        revived=z((b, s), bool),
        sitting=z((b, s), bool),
        pending=z((b,), np.int32, -1),
        payer=z((b,), np.int32, -1),
        marker=z((b,), np.int32),
        stock=z((b, hand), np.int32, -1),
        captured=z((b, s), np.int32),
        fives=z((b, s), np.int32),
        low=z((b, s), np.int32, NO_HAND),
        log=z((b, log), np.int16),
        log_len=z((b,), np.int32),
        origin=z((b,), np.int32, -1),
        origins=(),
        ticket=[True],
    )


#: The fields a kernel never changes once a lane is dealt in (`merge` need not write them back).
FIXED_FIELDS: frozenset[str] = frozenset({"key", "players", "first", "log"})


def subset(state: BatchState, lanes: Array, skip: frozenset[str] = frozenset()) -> BatchState:
    """The lanes `lanes` of a state, as a state of their own (copies; the fields of `skip`, which the
    work on them does not read, are left empty).

    Example:
        >>> import numpy as np
        >>> s = allocate(3, 2, 4, 4, 1, 0)
        >>> subset(s, np.array([2])).trick.shape
        (1, 2)
    """
    values = {
        name: getattr(state, name)[:0] if name in skip else getattr(state, name).take(lanes, axis=0)
        for name in ARRAY_FIELDS
    }
    return BatchState(**values, origins=state.origins, ticket=None)


def merge(
    state: BatchState, lanes: Array, part: BatchState, skip: frozenset[str] = frozenset()
) -> BatchState:
    """`state` with the lanes `lanes` replaced by `part`'s (in place for numpy; `log` widened if needed),
    but for the fields of `skip`.

    Example:
        >>> import numpy as np
        >>> s = allocate(3, 2, 4, 4, 1, 0)
        >>> p = subset(s, np.array([1]))._replace(rounds=np.array([5], np.int32))
        >>> merge(s, np.array([1]), p).rounds.tolist()
        [0, 5, 0]
    """
    log = state.log
    if part.log.shape[1] > log.shape[1]:
        wide = np.zeros((log.shape[0], part.log.shape[1]), log.dtype)
        wide[:, : log.shape[1]] = log
        state = state._replace(log=wide)
    b = state.current_player.shape[0]
    flats: dict[int, Array] = {}  # narrow rows: one flat write through indexes shared by the fields
    for name in ARRAY_FIELDS:
        if name in skip:
            continue
        target = getattr(state, name)
        value = getattr(part, name)
        width = target.size // b
        if name == "log" and value.shape[1] < target.shape[1]:
            target[lanes, : value.shape[1]] = value
            target[lanes, value.shape[1] :] = 0
        elif target.ndim == 1 or width > 16:
            target[lanes] = value
        else:
            at = flats.get(width)
            if at is None:
                at = flats[width] = ((lanes * width)[:, None] + np.arange(width)).reshape(-1)
            target.reshape(-1)[at] = value.reshape(-1)
    return state


def copy_state(state: BatchState) -> BatchState:
    """A copy whose arrays are new (a numpy state to keep while the original is stepped on).

    Example:
        >>> s = allocate(2, 2, 4, 4, 1, 0)
        >>> copy_state(s).hands is not s.hands
        True
    """
    values = {name: getattr(state, name).copy() for name in ARRAY_FIELDS}
    return BatchState(**values, origins=state.origins, ticket=None if state.ticket is None else [True])
