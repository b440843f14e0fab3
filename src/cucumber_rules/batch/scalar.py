"""The bridge to the library: lanes from `State`s, `State`s from lanes, and a lane's deals as `Deal`s.

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules import batch
    >>> env = batch.make("agurk", players=3, size=1)
    >>> s = env.init(3)
    >>> d = lane_deal(env.spec, s, 0)
    >>> [len(h) for h in d.hands], d.leader
    ([7, 7, 7], None)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from ..actions import Deal, Play
from ..cards import Card
from ..encoding import action_id, action_of
from ..engine import apply, new_game
from ..games.catastrophe import CatastropheState
from ..games.ladder import LadderMatch, LadderState
from ..rules import Rules
from ..state import CHANCE, State
from . import catastrophe, ladder, rng
from .backend import NUMPY, Array
from .spec import Spec
from .state import NO_HAND, BatchState, allocate


class Lanes(Protocol):
    """What `to_scalar` and `from_scalar` read of an environment (an `Env` is one)."""

    @property
    def spec(self) -> Spec:
        """The rules' fixed sizes and tables."""

    @property
    def size(self) -> int:
        """The number of lanes."""

    @property
    def record(self) -> bool:
        """True if the lanes keep their actions (so a lane can become a library state)."""


__all__ = ["cards_of", "from_scalar", "lane_deal", "to_scalar"]


@functools.lru_cache(maxsize=64)
def cards_of(rules: Rules) -> tuple[Card, ...]:
    """The card of each card id (`cr.action_of`).

    Example:
        >>> import cucumber_rules as cr
        >>> str(cards_of(cr.ruleset("agurk"))[51])
        'AS'
    """
    out = []
    for i in range(1_000):
        try:
            a = action_of(rules, 0, i)
        except ValueError:
            break
        if type(a) is not Play:
            break
        out.append(a.card)
    return tuple(out)


def _hands(cards: tuple[Card, ...], counts: Array) -> list[list[Card]]:
    return [[cards[c] for c in np.repeat(np.arange(row.shape[0]), row).tolist()] for row in counts]


def lane_deal(spec: Spec, st: BatchState, lane: int) -> Deal:
    """The deal a lane's current round started with, as a library `Deal` (read just after the deal).

    Example:
        >>> from cucumber_rules import batch
        >>> env = batch.make("catastrophe", players=4, size=1)
        >>> [len(h) for h in lane_deal(env.spec, env.init(0), 0).hands]
        [10, 10, 10, 10]
    """
    cards = cards_of(spec.rules)
    n = int(st.players[lane])
    hands = _hands(cards, st.hands[lane, :n].astype(np.int64))
    if spec.family == "ladder":
        return Deal(hands=hands)
    stock: list[Card] = []
    if spec.surprise:
        stock = [cards[c] for c in st.stock[lane].tolist() if c >= 0]
    leader = None
    if int(st.rounds[lane]) > 0:
        seated = np.arange(spec.seats) < n
        tied = catastrophe.starter(NUMPY, st.totals[lane][None, :], seated[None, :])[0]
        if tied.sum() > 1:
            leader = int(st.leader[lane])
    return Deal(hands=hands, stock=stock, leader=leader)


def deal_for(spec: Spec, state: State, key: int, match: int) -> Deal:
    """The deal a lane of key `key` makes for library state `state` (a deal due) in its match `match`.

    The same function of (key, match, round) as the kernels' deals: `to_scalar` replays with it.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules import batch
        >>> env = batch.make("gurka", players=2, size=1)
        >>> s = env.init([9])
        >>> d = deal_for(env.spec, cr.new_game(cr.ruleset("gurka"), 2), 9, 0)
        >>> d == lane_deal(env.spec, s, 0)
        True
    """
    cards = cards_of(spec.rules)
    m = state.match
    n = len(m.players)
    one = np.array
    k, mt, r = one([key], np.uint32), one([match], np.uint32), one([m.rounds], np.int32)
    if spec.family == "ladder":
        assert isinstance(m, LadderMatch)
        sitting = set(m.sitting_out)
        bits = sum(1 << s for s in range(n) if m.out[s] == 0 and s not in sitting)
        counts = ladder.deal_cards(NUMPY, spec, k, mt, r, one([bits], np.int32))
        return Deal(hands=_hands(cards, counts[0, :n].astype(np.int64)))
    counts, stock = catastrophe.deal_cards(NUMPY, spec, k, mt, r, one([n], np.int32))
    leader = None
    if m.rounds > 0:
        top = max(m.totals)
        tied = [s for s in range(n) if m.totals[s] == top]
        if len(tied) > 1:
            draw = rng.uniform_below(np, rng.seed_of(k, mt, r, rng.STARTER), one([len(tied)]))
            leader = tied[int(draw[0])]
    shown = [cards[c] for c in stock[0].tolist() if c >= 0] if spec.surprise else []
    return Deal(hands=_hands(cards, counts[0, :n].astype(np.int64)), stock=shown, leader=leader)


def to_scalar(env: Lanes, st: BatchState, lane: int) -> State:
    """A lane's library state, by replaying its match's actions (and its deals) from its start."""
    if not isinstance(lane, int | np.integer) or isinstance(lane, bool) or not 0 <= int(lane) < env.size:
        raise ValueError(f"lane must be 0..{env.size - 1}, not {lane!r}")
    lane = int(lane)
    spec = env.spec
    actions = int(st.log_len[lane])
    if actions and not env.record:
        raise ValueError("to_scalar replays the lane's actions: make the environment with record=True")
    origin = int(st.origin[lane])
    state = (
        st.origins[origin]
        if origin >= 0
        else new_game(spec.rules, int(st.players[lane]), first=int(st.first[lane]))
    )
    log = st.log[lane, :actions].tolist() if actions else []
    key, match = int(st.key[lane]), int(st.match[lane])
    i = 0
    while (seat := state.to_act) is not None:
        if seat == CHANCE:
            state = apply(state, deal_for(spec, state, key, match))
            continue
        if i == len(log):
            break
        state = apply(state, action_of(spec.rules, seat, log[i]))
        i += 1
    return state


def from_scalar(env: Lanes, states: Sequence[State], keys: Array) -> BatchState:
    """Lanes from library states (see `Env.from_scalar`)."""
    spec = env.spec
    states = tuple(states)
    if len(states) != env.size:
        raise ValueError(f"from_scalar needs {env.size} states (one per lane), not {len(states)}")
    b, s, k = env.size, spec.seats, spec.num_cards
    st = allocate(b, s, k, spec.num_actions, spec.max_hand, 64 if env.record else 0)
    arrays = {name: getattr(st, name) for name in st._fields[:-2]}
    chance = np.zeros(b, bool)
    kind = LadderState if spec.family == "ladder" else CatastropheState
    for lane, state in enumerate(states):
        if not isinstance(state, kind) or state.match.rules != spec.rules:
            raise ValueError(f"states[{lane}] is not a state of the environment's rules ({spec.rules.name})")
        n = len(state.match.players)
        if n > s:
            raise ValueError(f"states[{lane}] has {n} players; the environment seats at most {s}")
        if state.to_act is None:
            raise ValueError(
                f"states[{lane}] is over: a lane starts from a state with a seat to act or a deal due"
            )
        _load(spec, arrays, lane, state)
        chance[lane] = state.to_act == CHANCE
    arrays["key"] = keys.copy()
    arrays["origin"] = np.arange(b, dtype=np.int32)
    st = st._replace(**arrays, origins=states)
    kernel: Any = ladder if spec.family == "ladder" else catastrophe
    from .lanes import on_lanes

    st = on_lanes(NUMPY, st, chance, lambda t: kernel.deal(NUMPY, spec, t))  # (Env converts for JAX)
    return st._replace(legal_action_mask=kernel.legal(NUMPY, spec, st))


def _id(rules: Rules, c: Card) -> int:
    return action_id(rules, Play(0, c))


def _load(spec: Spec, a: dict[str, Array], lane: int, state: State) -> None:
    rules = spec.rules
    m = state.match
    n = len(m.players)
    a["players"][lane] = n
    a["first"][lane] = m.first
    a["dealer"][lane] = m.dealer
    a["rounds"][lane] = m.rounds
    a["totals"][lane, :n] = m.totals
    a["current_player"][lane] = state.to_act
    if spec.family == "ladder":
        assert isinstance(m, LadderMatch)
        a["marks"][lane, :n] = m.marks
        a["out"][lane, :n] = m.out
        a["revived"][lane, :n] = m.revived
        for seat in m.sitting_out:
            a["sitting"][lane, seat] = True
        a["pending"][lane] = m.pending[0] if m.pending else -1
        a["payer"][lane] = m.payer
    else:
        results = m.results.items()
        for seat in range(n):
            a["low"][lane, seat] = min((r.points[seat] for r in results), default=NO_HAND)
    t = state.table
    if t is None or state.to_act == CHANCE:
        return
    for seat in range(n):
        for c in state.hand(seat):
            a["hands"][lane, seat, _id(rules, c)] += 1
    for hand in state.held:
        for p in hand:
            a["dealt"][lane, _id(rules, p.card)] += 1
    for done in t.tricks:
        for p in done.plays:
            a["dealt"][lane, _id(rules, p.card)] += 1
    for p in state.trick:
        a["trick"][lane, p.seat] = _id(rules, p.card)
    a["trick_len"][lane] = len(state.trick)
    a["leader"][lane] = t.leader
    a["tricks"][lane] = len(t.tricks)
    a["seats"][lane] = sum(1 << seat for seat in t.seats)
    a["in_round"][lane] = len(t.seats)
    best = state.best
    a["best"][lane] = -1 if best is None else best.seat
    if spec.family == "ladder":
        a["high"][lane] = 0 if best is None else best.card.rank
        a["lead"][lane] = state.trick[0].card.rank if state.trick else -1
        return
    from ..games.catastrophe import CatastropheTable, Marker

    assert isinstance(t, CatastropheTable)
    a["high"][lane] = -1 if best is None else _id(rules, best.card)
    markers = {None: 0, Marker.HIGH: 1, Marker.LOW: 2, Marker.HIGH_BROKEN: 3, Marker.LOW_BROKEN: 4}
    a["marker"][lane] = markers[state.extra]
    if t.revealed is not None:
        a["lead"][lane] = _id(rules, t.revealed)
    elif state.trick:
        a["lead"][lane] = _id(rules, state.trick[0].card)
    if spec.surprise:
        shown: list[Card | None] = [d.revealed for d in t.tricks]  # (every trick of Surprise reveals one)
        if t.revealed is not None:
            shown.append(t.revealed)
        shown += list(t.stock)
        per = int(spec.hand[n])
        for j, up in enumerate(shown[:per]):
            assert up is not None
            a["stock"][lane, j] = _id(rules, up)
    for seat, got in enumerate(t.captured):
        a["captured"][lane, seat] = sum(int(spec.cucumbers[_id(rules, c) + 1]) for c in got)
        a["fives"][lane, seat] = sum(int(spec.fives[_id(rules, c) + 1]) for c in got)
