"""The lockstep harness: every lane played beside the library, compared at every decision.

`check(env, matches=N)` plays random matches in every lane of `env` and, in lockstep, the same
matches through the library (`cr.apply`, with each lane's deals given as explicit `cr.Deal`s, which
the library validates). At every decision of every lane it compares the seat to act, the legal mask
(`cr.legal_mask`), every hand, the trick, its leader and the card taking it, the dealer, the round,
the totals and the game's own state (the ladder: marks, eliminations, revivals, seats sitting out,
pending decisions, the payer; Catastrophe: the Trick Marker, the revealed card, captured cucumbers);
at the end of each match the winners and `rewards` against `cr.returns`; and on a sample of
decisions the observation against `cr.observation(cr.view(state, seat))`. The first difference raises
`LockstepError` naming the lane, the step and the field.

It is public so that a change to a kernel, a rules option or a plug-in's kernel can be checked the
same way the project's tests check the built-in ones.

Example:
    >>> from cucumber_rules import batch
    >>> report = batch.check(batch.make("gurka", players=range(2, 8), size=32, record=True), matches=40)
    >>> report.matches >= 40, report.decisions > 1000
    (True, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from ..actions import Play
from ..encoding import action_of, observation
from ..engine import apply, legal_moves, new_game
from ..errors import IllegalMoveError
from ..games.ladder import LadderMatch
from ..outcomes import returns
from ..state import CHANCE, State
from ..views import view
from .backend import Array
from .policies import random_actions
from .scalar import cards_of, lane_deal

if TYPE_CHECKING:
    from .env import Env
    from .state import BatchState

__all__ = ["CheckReport", "LockstepError", "check"]


class LockstepError(AssertionError):
    """A lane of the batched engine and the library disagree.

    Attributes:
        lane: The lane.
        step: The step of the run (0 for the state `init` returned).
        field: What differs (`"legal mask"`, `"totals"`, `"observation"`, ...).
        batch: The batched engine's value.
        scalar: The library's value.

    Example:
        >>> print(LockstepError(3, 17, "totals", [5, 0], [0, 5], "agurk, 2 players"))
        lane 3, step 17 (agurk, 2 players): totals differ: batch [5, 0], library [0, 5]
    """

    def __init__(self, lane: int, step: int, field: str, batch: Any, scalar: Any, where: str) -> None:
        super().__init__(
            f"lane {lane}, step {step} ({where}): {field} differ: batch {batch}, library {scalar}"
        )
        self.lane = lane
        self.step = step
        self.field = field
        self.batch = batch
        self.scalar = scalar


@attrs.frozen
class CheckReport:
    """What `check` compared: all equal.

    Example:
        >>> CheckReport("agurk", (4,), 10, 5000, 300, 200, 12, 1.5).matches
        10
    """

    rules: str
    """The rule set's name."""
    players: tuple[int, ...]
    """The player counts of the lanes."""
    matches: int
    """Matches played to the end in lockstep."""
    decisions: int
    """Decisions compared (one lane's state at one step)."""
    rounds: int
    """Rounds (hands) dealt and compared."""
    observations: int
    """Observations compared with `cr.observation`."""
    replays: int
    """Lanes replayed with `to_scalar` at the end and found equal."""
    seconds: float

    def __str__(self) -> str:
        counts = sorted(set(self.players))
        return (
            f"{self.rules} ({counts[0]}-{counts[-1]} players): {self.matches} matches, "
            f"{self.decisions} decisions, {self.rounds} rounds, {self.observations} observations, "
            f"{self.replays} replays: all equal "
            f"({self.seconds:.1f} s)"
        )


class _Lanes:
    """What the harness reads of the batch and of the library, as rows of ints to compare."""

    def __init__(self, env: Env) -> None:
        spec = env.spec
        self.env = env
        self.spec = spec
        self.rules = spec.rules
        self.k = spec.num_cards
        s = spec.seats
        self.s = s
        cards = cards_of(spec.rules)
        shift = 3 if len(spec.deck) > self.k else 1
        self.weights = np.array([1 << (shift * i) for i in range(self.k)], np.int64)
        self.card_weight = [0] * 256
        self.card_id = [0] * 256
        for i, c in enumerate(cards):
            self.card_weight[c.index] = 1 << (shift * i)
            self.card_id[c.index] = i
        self.actions = [
            [action_of(spec.rules, seat, i) for i in range(spec.num_actions)] for seat in range(s)
        ]
        self._held: dict[int, tuple[Any, list[int]]] = {}
        self.bits = np.array([1 << i for i in range(spec.num_actions)], np.int64)
        names = ["seat to act", "legal mask"] + [f"hand of seat {i}" for i in range(s)]
        names += [f"trick card of seat {i}" for i in range(s)]
        names += ["trick leader", "card taking the trick (seat)", "dealer", "rounds finished"]
        names += [f"total of seat {i}" for i in range(s)]
        if spec.family == "ladder":
            for what in ("marks", "eliminated in round", "revived", "sitting out"):
                names += [f"{what} of seat {i}" for i in range(s)]
            names += ["pending revival", "last payer"]
        else:
            names += ["trick marker", "revealed card"] + [f"captured cucumbers of seat {i}" for i in range(s)]
        self.names = names

    def batch_rows(self, st: BatchState) -> list[list[int]]:
        """Every lane's row."""
        spec = self.spec
        col = [
            st.current_player[:, None],
            (st.legal_action_mask.astype(np.int64) @ self.bits)[:, None],
            st.hands.astype(np.int64) @ self.weights,
            st.trick,
            st.leader[:, None],
            st.best[:, None],
            st.dealer[:, None],
            st.rounds[:, None],
            st.totals,
        ]
        if spec.family == "ladder":
            col += [st.marks, st.out, st.revived, st.sitting, st.pending[:, None], st.payer[:, None]]
        else:
            revealed = st.lead if spec.surprise else np.full_like(st.lead, -1)
            col += [st.marker[:, None], revealed[:, None], st.captured]
        rows: list[list[int]] = np.concatenate([c.astype(np.int64) for c in col], axis=1).tolist()
        return rows

    def scalar_row(self, state: State) -> list[int]:
        """One library state's row."""
        s, spec = self.s, self.spec
        m = state.match
        t = state.table
        n = len(m.players)
        pad = [0] * (s - n)
        weight = self.card_weight
        mask = 0
        k = self.k
        for mv in legal_moves(state):
            if type(mv) is Play:
                mask |= 1 << self.card_id[mv.card.index]
            else:
                mask |= 1 << (k if getattr(mv, "accept", False) else k + 1)
        held = state.held
        found = self._held.get(id(held))
        if found is None or found[0] is not held:
            if len(self._held) > 4096:
                self._held.clear()
            sums = [sum([weight[p.card.index] for p in h]) for h in held]  # noqa: C419 (a list sums faster)
            found = self._held[id(held)] = (held, sums)
        hands = list(found[1])
        trick = [-1] * s
        for p in state.trick:  # (a card played stays in `held` until its trick ends)
            trick[p.seat] = self.card_id[p.card.index]
            hands[p.seat] -= weight[p.card.index]
        best = state.best
        assert t is not None
        taking = -1 if best is None else best.seat
        row: list[int] = [state.to_act, mask, *hands, *pad, *trick, t.leader, taking, m.dealer, m.rounds]  # type: ignore[list-item]
        row += [*m.totals, *pad]
        if spec.family == "ladder":
            assert isinstance(m, LadderMatch)
            sitting = [1 if seat in m.sitting_out else 0 for seat in range(n)]
            row += [*m.marks, *pad, *m.out, *pad, *(int(x) for x in m.revived), *pad, *sitting, *pad]
            row += [m.pending[0] if m.pending else -1, m.payer]
        else:
            markers = {None: 0, "high": 1, "low": 2, "high-broken": 3, "low-broken": 4}
            revealed = getattr(t, "revealed", None)
            cuc = spec.cucumbers
            captured = [
                sum(int(cuc[self.card_id[c.index] + 1]) for c in got) for got in getattr(t, "captured", ())
            ]
            row += [
                markers[state.extra],
                -1 if revealed is None else self.card_id[revealed.index],
                *captured,
                *pad,
            ]
        return row

    def differ(
        self, lane: int, step: int, got: list[int], want: list[int], state: State, st: BatchState
    ) -> None:
        for i, (x, y) in enumerate(zip(got, want, strict=True)):
            if x != y:
                field = self.names[i]
                if field == "legal mask":
                    x = [j for j in range(self.spec.num_actions) if x >> j & 1]  # type: ignore[assignment]
                    y = [j for j in range(self.spec.num_actions) if y >> j & 1]  # type: ignore[assignment]
                n = len(state.match.players)
                number = state.match.rounds + 1
                where = f"{self.rules.name}, {n} players, match {int(st.match[lane])}, round {number}"
                raise LockstepError(lane, step, field, x, y, where)


def _expand(
    obs: tuple[float, ...], small: tuple[tuple[str, int], ...], big: tuple[tuple[str, int], ...]
) -> Array:
    """A scalar observation laid out for fewer players, placed in the layout for more (zeros beyond)."""
    out = np.zeros(sum(n for _, n in big), np.float32)
    at_small = at_big = 0
    for (_, m), (_, n) in zip(small, big, strict=True):
        out[at_big : at_big + m] = obs[at_small : at_small + m]
        at_small += m
        at_big += n
    return out


def check(
    env: Env,
    matches: int = 200,
    *,
    seed: int = 0,
    observe: float = 0.05,
    replay: int = 4,
    start: Sequence[State] | None = None,
) -> CheckReport:
    """Play `matches` random matches in the lanes of `env` and in the library, in lockstep (see the module).

    Args:
        env: The environment to check (its size is the number of lanes played at once).
        matches: Play until this many matches have ended (lanes still playing are compared until then).
        seed: Seeds the lanes' keys and the random choices.
        observe: The share of decisions whose observation (the seat to act's) is compared too.
        replay: At the end, replay this many lanes with `to_scalar` and compare (needs `record=True`).
        start: Library states to start the lanes from (`Env.from_scalar`, one per lane: a seat to act or
            a deal due), e.g. positions deep in a match; default fresh matches (`Env.init(seed)`).

    Returns:
        What was compared.

    Raises:
        LockstepError: At the first difference, naming the lane, the step and the field.
        ValueError: For an environment of a traced backend (JAX): the harness checks numpy's lanes, and
            the JAX backend is checked against numpy bit for bit (`tests/test_batch_jax.py`).

    Example:
        >>> from cucumber_rules import batch
        >>> print(batch.check(batch.make("catastrophe", players=3, size=8), matches=8, observe=0.2))
        ... # doctest: +ELLIPSIS
        catastrophe (3-3 players): 8 matches, ... all equal (...)
    """
    from .observe import observe as build

    if env.backend.traced:
        raise ValueError(
            f"check runs on the numpy backend, not {env.backend.name}: make the environment without "
            "backend=, check it, and compare the two backends' states (tests/test_batch_jax.py does)"
        )
    began = time.perf_counter()
    rules = env.rules
    look = _Lanes(env)
    step = 0
    gen = np.random.default_rng(seed)
    st = env.init(seed) if start is None else env.from_scalar(start, keys=seed)
    b = env.size
    big = env.observation_parts
    parts = {n: tuple((name, size) for name, size in _parts(rules, n)) for n in set(env.players)}

    def start_lane(lane: int) -> State:
        return _deal(env, st, lane, new_game(rules, int(st.players[lane]), first=int(st.first[lane])), step)

    if start is None:
        scal = [start_lane(lane) for lane in range(b)]
    else:
        scal = [_deal(env, st, lane, s, step) if s.to_act == CHANCE else s for lane, s in enumerate(start)]
    done = decisions = dealt = seen = replays = 0
    dealt = b
    while done < matches:
        rows = look.batch_rows(st)
        live = [lane for lane in range(b) if not st.over[lane]]
        for lane in live:
            want = look.scalar_row(scal[lane])
            if rows[lane] != want:
                look.differ(lane, step, rows[lane], want, scal[lane], st)
        decisions += len(live)
        chosen = [lane for lane in live if gen.random() < observe]
        if chosen:
            obs = build(env.backend, env.spec, st, np.maximum(st.current_player, 0))
            for lane in chosen:
                s = scal[lane]
                seat = s.to_act
                assert seat is not None
                n = len(s.match.players)
                want_obs = _expand(observation(view(s, seat)), parts[n], big)
                if not np.array_equal(obs[lane], want_obs):
                    wrong = [i for i in range(len(want_obs)) if obs[lane, i] != want_obs[i]]
                    names = [name for name, size in big for _ in range(size)]
                    shown = [(names[i], float(obs[lane, i]), float(want_obs[i])) for i in wrong[:6]]
                    got_obs = [x[:2] for x in shown]
                    raise LockstepError(
                        lane,
                        step,
                        "observation",
                        got_obs,
                        [(x[0], x[2]) for x in shown],
                        f"{rules.name}, {n} players, seat {seat}",
                    )
            seen += len(chosen)
        a = random_actions(st.legal_action_mask, gen)
        chosen_ids = a.tolist()
        for lane in live:
            s = scal[lane]
            assert s.to_act is not None
            try:
                scal[lane] = apply(s, look.actions[s.to_act][chosen_ids[lane]])
            except IllegalMoveError as error:
                raise LockstepError(
                    lane, step, "legal action", chosen_ids[lane], str(error), rules.name
                ) from error
        st = env.step(st, a)
        step += 1
        ended = st.terminated.tolist()
        for lane in live:
            s = scal[lane]
            n = len(s.match.players)
            if s.to_act is None:
                got = [round(float(x), 6) for x in st.rewards[lane, :n]]
                want_r = [round(x, 6) for x in returns(s)]
                if not ended[lane] or got != want_r:
                    raise LockstepError(
                        lane, step, "rewards at the end", got, want_r, f"{rules.name}, {n} players"
                    )
                won = [int(x) for x in np.flatnonzero(st.winners[lane, :n])]
                if won != list(s.match.winners):
                    raise LockstepError(
                        lane, step, "winners", won, list(s.match.winners), f"{rules.name}, {n} players"
                    )
                done += 1
                if env.auto_reset:
                    scal[lane] = start_lane(lane)
                    dealt += 1
            elif ended[lane]:
                raise LockstepError(lane, step, "match over", True, False, f"{rules.name}, {n} players")
            elif s.to_act == CHANCE:
                scal[lane] = _deal(env, st, lane, s, step)
                dealt += 1
        if not env.auto_reset and st.over.all() and done < matches:
            st = env.init(seed + step)
            scal = [start_lane(lane) for lane in range(b)]
            dealt += b
    if env.record:
        for lane in range(min(replay, b)):
            if st.over[lane] and env.auto_reset:
                continue
            again = env.to_scalar(st, lane)
            want_row, got_row = look.scalar_row(scal[lane]), look.scalar_row(again)
            if again.history != scal[lane].history or want_row != got_row:
                raise LockstepError(lane, step, "to_scalar replay", got_row, want_row, rules.name)
            replays += 1
    return CheckReport(
        rules.name, env.players, done, decisions, dealt, seen, replays, time.perf_counter() - began
    )


def _deal(env: Env, st: BatchState, lane: int, state: State, step: int) -> State:
    """The library state after the lane's deal; a deal the library refuses is a difference."""
    deal = lane_deal(env.spec, st, lane)
    try:
        return apply(state, deal)
    except IllegalMoveError as error:
        where = f"{env.rules.name}, {len(state.match.players)} players, round {state.match.rounds + 1}"
        raise LockstepError(lane, step, "deal", deal, str(error), where) from error


def _parts(rules: Any, n: int) -> tuple[tuple[str, int], ...]:
    from ..encoding import observation_parts

    return tuple(observation_parts(rules, n))
