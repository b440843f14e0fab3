"""Values are safe to share between threads from the moment they are returned: a stress test.

The library keeps caches on its values (a view fills its fields in when one is
first read; views of one trick share pieces kept on the state's table and match;
a state keeps its legal moves; a score is worked out once per match value). Each
must be built whole before another thread can see it. These tests make threads
switch as often as CPython allows (`sys.setswitchinterval(1e-6)`) and have
several threads read the same fresh values at once, for every game (the High
Card and Lowball plug-ins included), comparing every field with a twin built apart from them.
Keep them: they found a view that could be seen half filled in.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules.testing import registered
from cucumber_rules.testing.shareable import mutable_parts
from cucumber_rules.views import glance
from plugins.highcard import GAME as HIGH_CARD
from plugins.lowball import GAME as LOWBALL

THREADS = 4

RULES: list[tuple[str, Callable[[], cr.Rules]]] = [
    ("agurk", lambda: cr.ruleset("agurk")),
    ("agurk-revival", lambda: cr.ruleset("agurk", revival=True, hand_size=2)),
    ("gurka", lambda: cr.ruleset("gurka", hand_size=3)),
    ("five-cucumbers", lambda: cr.ruleset("five-cucumbers")),
    ("catastrophe", lambda: cr.ruleset("catastrophe", hand_count=2)),
    (
        "catastrophe-variants",
        lambda: cr.ruleset("catastrophe", surprise=True, cant_beat_em=True, hand_count=2),
    ),
    ("highcard", lambda: cr.ruleset("highcard")),
    ("lowball", lambda: cr.ruleset("lowball", hand_size=4, round_count=2)),
]


@pytest.fixture(autouse=True)
def _switch_often() -> Iterator[None]:
    """Threads switch as often as CPython allows; High Card and Lowball are registered for these tests."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with registered(HIGH_CARD), registered(LOWBALL):
            yield
    finally:
        sys.setswitchinterval(before)


def _states(rules: cr.Rules, seed: int, count: int) -> list[cr.State]:
    """`count` states of seeded random matches (every state, in order, from the first deal on)."""
    rng = random.Random(seed)
    players = min(rules.max_players, max(rules.min_players, 4))
    out: list[cr.State] = []
    while len(out) < count:
        state = cr.new_game(rules, players)
        while not state.is_over and len(out) < count:
            moves = cr.legal_moves(state)
            state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
            out.append(state)
    return out


def _twin(state: cr.State) -> cr.State:
    """An equal state that shares no object (and so no cache) with `state`."""
    loaded = cr.loads(cr.dumps(cr.record(state)))
    assert isinstance(loaded, cr.Record)
    twin = cr.replay(loaded)
    assert twin == state
    assert twin is not state
    return twin


def _fields(v: cr.PlayerView) -> dict[str, Any]:
    return {a.name: getattr(v, a.name) for a in attrs.fields(type(v))}


class _Crew:
    """`THREADS` worker threads that run one task each per round, all released at once."""

    def __init__(self) -> None:
        self.tasks: list[Callable[[], None]] = []
        self.errors: list[str] = []
        self.start = threading.Barrier(THREADS + 1)
        self.done = threading.Barrier(THREADS + 1)
        self.stop = False
        self.threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(THREADS)]
        for t in self.threads:
            t.start()

    def _work(self, index: int) -> None:
        while True:
            self.start.wait()
            if self.stop:
                return
            try:
                self.tasks[index]()
            except BaseException as error:  # any error in a reader is a failure of the test
                self.errors.append(f"{type(error).__name__}: {error}")
            self.done.wait()

    def run(self, tasks: list[Callable[[], None]]) -> None:
        assert len(tasks) == THREADS
        self.tasks = tasks
        self.start.wait()
        self.done.wait()

    def close(self) -> None:
        self.stop = True
        self.start.wait()
        for t in self.threads:
            t.join()


@pytest.fixture
def crew() -> Iterator[_Crew]:
    c = _Crew()
    yield c
    c.close()


@pytest.mark.parametrize(("name", "make"), RULES, ids=[name for name, _ in RULES])
def test_a_fresh_view_read_by_several_threads_at_once_is_whole(
    name: str, make: Callable[[], cr.Rules], crew: _Crew
) -> None:
    # Four threads each read a different part of the same new view (every field between them, and
    # `glance`), released together; every value must be the twin's.
    rules = make()
    views = 0
    for state in _states(rules, seed=len(name), count=60):
        twin = _twin(state)
        for seat in (None, *range(state.num_players)):
            expected = _fields(cr.view(twin, seat))
            names = list(expected)
            fresh = cr.view(state, seat)
            got: list[dict[str, Any]] = [{} for _ in range(THREADS)]

            def reader(
                k: int, fresh: cr.PlayerView = fresh, names: list[str] = names, got: list[Any] = got
            ) -> Callable[[], None]:
                def read() -> None:
                    part = names[k::THREADS] if k % 2 else names[k::THREADS][::-1]
                    for field in part:
                        got[k][field] = getattr(fresh, field)
                    if k == 0:
                        glance(fresh)

                return read

            crew.run([reader(k) for k in range(THREADS)])
            seen = {field: value for part in got for field, value in part.items()}
            assert seen == expected, (name, seat)
            assert _fields(fresh) == expected
            views += 1
    assert not crew.errors, crew.errors[:5]
    assert views >= 60


@pytest.mark.parametrize(("name", "make"), RULES, ids=[name for name, _ in RULES])
def test_views_of_one_new_state_built_by_several_threads_at_once_are_right(
    name: str, make: Callable[[], cr.Rules], crew: _Crew
) -> None:
    # Threads build views of a state nobody has viewed yet, at once: they race to keep the pieces
    # views share (on the state's table and match), and to fill them in; each must be the twin's.
    rules = make()
    for state in _states(rules, seed=7 + len(name), count=40):
        fresh = _twin(state)  # nothing viewed yet: no shared pieces kept
        seats: list[int | None] = [None, *range(state.num_players)]
        expected = {seat: _fields(cr.view(state, seat)) for seat in seats}
        got: dict[tuple[int, int | None], dict[str, Any]] = {}

        def builder(
            k: int, fresh: cr.State = fresh, seats: list[int | None] = seats, got: dict[Any, Any] = got
        ) -> Callable[[], None]:
            def build() -> None:
                for seat in seats[k % len(seats) :] + seats[: k % len(seats)]:
                    got[k, seat] = _fields(cr.view(fresh, seat))
                cr.legal_moves(fresh)
                cr.score(fresh)

            return build

        crew.run([builder(k) for k in range(THREADS)])
        for (_, seat), fields in got.items():
            assert fields == expected[seat], (name, seat)
        assert cr.legal_moves(fresh) == cr.legal_moves(state)
    assert not crew.errors, crew.errors[:5]


def _line_and_branches(rules: cr.Rules, seed: int, count: int) -> list[cr.State]:
    """The states of one match line and, at each decision, a sibling branch (another legal move):
    built by `apply` and never viewed, so consecutive and sibling states share their match, table
    and history, and the caches kept on them."""
    rng = random.Random(seed)
    players = min(rules.max_players, max(rules.min_players, 4))
    state = cr.new_game(rules, players)
    out: list[cr.State] = []
    while not state.is_over and len(out) < count:
        moves = cr.legal_moves(state)
        if len(moves) > 1:
            out.append(cr.apply(state, moves[-1]))
        state = cr.apply(state, rng.choice(moves[:-1] or moves) if moves else cr.sample_chance(state, rng))
        out.append(state)
    return out


@pytest.mark.parametrize(("name", "make"), RULES, ids=[name for name, _ in RULES])
def test_views_of_consecutive_and_sibling_states_built_at_once_are_right(
    name: str, make: Callable[[], cr.Rules], crew: _Crew
) -> None:
    # The states of a line and its branches share the pieces views keep (on one match value, one
    # table, one history): threads view all of them at once, in different orders, every seat, and
    # each view must be its twin's (made from a state that shares nothing).
    rules = make()
    for seed in range(2):
        states = _line_and_branches(rules, seed=seed + len(name), count=50)
        seats: list[int | None] = [None, *range(states[0].num_players)]
        expected = [{seat: _fields(cr.view(_twin(s), seat)) for seat in seats} for s in states]
        got: list[dict[tuple[int, int | None], dict[str, Any]]] = [{} for _ in range(THREADS)]

        def viewer(
            k: int,
            states: list[cr.State] = states,
            seats: list[int | None] = seats,
            got: list[dict[tuple[int, int | None], dict[str, Any]]] = got,
        ) -> Callable[[], None]:
            def run() -> None:
                order = list(range(len(states)))
                if k % 2:
                    order.reverse()
                for i in order[k:] + order[:k]:
                    for seat in seats[k % len(seats) :] + seats[: k % len(seats)]:
                        got[k][i, seat] = _fields(cr.view(states[i], seat))

            return run

        crew.run([viewer(k) for k in range(THREADS)])
        for part in got:
            assert len(part) == len(states) * len(seats)
            for (i, seat), fields in part.items():
                assert fields == expected[i][seat], (name, i, seat)
    assert not crew.errors, crew.errors[:5]


@pytest.mark.parametrize(("name", "make"), RULES, ids=[name for name, _ in RULES])
def test_nothing_mutable_is_reachable_from_any_value(name: str, make: Callable[[], cr.Rules]) -> None:
    # Underscore attributes included: a cache that holds a list or a dict could be changed by one
    # holder and seen by every other (a forged score in a view's cache, seen by the other seats).
    rules = make()
    rng = random.Random(3)
    assert not mutable_parts(rules, "rules")
    for state in _states(rules, seed=11, count=80)[::3]:
        values: list[tuple[str, Any]] = [
            ("state", state),
            ("score", cr.score(state)),
            ("record", cr.record(state)),
        ]
        if state.to_act == cr.CHANCE:
            values.append(("deal", cr.sample_chance(state, rng)))
        for seat in (None, *range(state.num_players)):
            v = cr.view(state, seat)
            values.append((f"fresh view {seat}", v))
            values.append((f"the state after view {seat}", state))
            filled = cr.view(state, seat)
            _ = filled.events
            values.append((f"filled view {seat}", filled))
            values.append((f"loaded view {seat}", cr.loads(cr.dumps(filled))))
        for label, value in values:
            assert not mutable_parts(value, label), mutable_parts(value, label)[:3]


def test_a_view_cannot_be_made_to_show_a_forged_score() -> None:
    # The attack the issue found: a forged Score put into a fresh view's cache changed what the other
    # seats (and later views of the same state) showed. The caches are frozen values now.
    state = _states(cr.ruleset("agurk"), seed=5, count=20)[-1]
    first = cr.view(state, 0)
    cache = first._later  # (shared, held, trick, head, own): plain tuples, `shared[3]` the lazy score
    for target in (cache, cache[0], cache[0][3]):
        with pytest.raises(AttributeError):  # a tuple, or a frozen attrs value (FrozenInstanceError)
            target.score = None
    assert isinstance(cache, tuple)
    assert type(cache[0][3]).__name__ == "LazyScore"
    assert cr.view(state, 1).totals == cr.score(state).totals


def test_the_deal_drawn_for_a_state_is_never_changed_and_holds_the_state_weakly() -> None:
    import gc
    import weakref

    state = cr.new_game(cr.ruleset("agurk"), players=3)
    deal = cr.sample_chance(state, random.Random(1))
    assert isinstance(deal, cr.Deal)
    mark = deal._drawn_for
    after = cr.apply(state, deal)
    assert deal._drawn_for is mark  # applying it changed nothing
    assert cr.apply(state, deal) == after
    other = cr.new_game(cr.ruleset("agurk"), players=3)
    assert cr.apply(other, deal) == after  # another state: the deal is checked, and legal there
    alive = weakref.ref(state)
    del state
    gc.collect()
    assert alive() is None  # the deal does not keep the state it was drawn for
    assert cr.apply(other, deal) == after
