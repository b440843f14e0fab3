"""`History`: a persistent sequence that behaves as a sequence should, at any length."""

from __future__ import annotations

import copy
import pickle
import random
import sys
from collections.abc import Sequence

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules import History, State


def test_a_history_is_a_sequence_of_its_items() -> None:
    h = History(["a", "b"]).append("c").extend(["b", "d"])
    assert isinstance(h, Sequence)
    assert list(h) == ["a", "b", "c", "b", "d"]
    assert len(h) == 5
    assert h[0] == "a"
    assert h[-1] == "d"
    assert h[1:3] == ("b", "c")
    assert h.index("b") == 1
    assert h.index("b", 2) == 3
    assert h.count("b") == 2
    assert "c" in h
    assert "z" not in h
    assert list(reversed(h)) == ["d", "b", "c", "b", "a"]
    assert h.last == "d"
    with pytest.raises(ValueError, match="not in"):
        h.index("z")
    with pytest.raises(IndexError):
        h[5]


def test_the_constructor_takes_any_iterable_and_empty_is_falsy() -> None:
    assert History() == History([]) == History(())
    assert not History()
    assert History(x for x in "ab") == History(["a", "b"])
    assert History().last is None
    h = History([1])
    assert History(h) is h


def test_plus_concatenates_and_leaves_both_alone() -> None:
    a, b = History([1, 2]), History([3])
    assert a + b == History([1, 2, 3])
    assert a + (3, 4) == History([1, 2, 3, 4])  # noqa: RUF005 - the operator itself is tested
    assert (0,) + a == History([0, 1, 2])  # noqa: RUF005
    assert [0] + a == History([0, 1, 2])  # noqa: RUF005
    assert list(a) == [1, 2]
    assert list(b) == [3]
    with pytest.raises(TypeError):
        a + 3  # type: ignore[operator]


def test_equality_is_by_items_whatever_the_segments() -> None:
    one = History([1]).append(2).append(3)
    other = History([1, 2]).extend([3])
    assert one == other == History([1, 2, 3])
    assert hash(one) == hash(other)
    assert one != History([1, 2])
    assert one != History([0, 2, 3])
    assert one != (1, 2, 3)  # a history equals histories, as a tuple equals tuples
    assert (History([1]) == [1]) is False


def test_appending_shares_the_older_part() -> None:
    base = History(range(10))
    longer = base.append(10)
    assert list(base) == list(range(10))
    assert list(longer) == list(range(11))
    assert longer._rest is base  # nothing copied


def test_a_history_is_immutable() -> None:
    h = History([1])
    with pytest.raises(AttributeError):
        h._len = 3
    assert copy.copy(h) is h
    assert copy.deepcopy(h) is h


def test_since_walks_back_only_to_the_first_match() -> None:
    h = History(["deal", "a", "b"]).extend(["deal", "c"]).append("d")
    assert h.since(lambda x: x == "deal") == ("deal", "c", "d")
    assert History(["a"]).since(lambda x: x == "deal") == ("a",)


def _long_state(actions: int = 30_000) -> State:
    """A state whose history has `actions` actions (fixed rounds: the match cannot end early)."""
    rules = cr.ruleset("agurk", fixed_rounds=10_000)
    rng = random.Random(4)
    state = cr.new_game(rules, 4)
    while len(state.history) < actions:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    return state


def test_a_30000_action_history_is_safe_everywhere() -> None:
    state = _long_state()
    assert len(state.history) >= 30_000
    limit = sys.getrecursionlimit()
    assert len(state.history) > 10 * limit
    as_dict = attrs.asdict(state)  # no recursion into the history
    assert as_dict["past"] is state.past
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) is state
    assert hash(state) == hash(attrs.evolve(state))
    assert repr(state).startswith("LadderState(to_act=")
    assert state.history == History(state.actions)
    assert len(cr.dumps(cr.record(state))) > 100_000
