"""The state's building blocks: the persistent Chain, the State/Table/Match split, fast constructors."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules.state import Chain, Round, State, Table, new_state, new_table


def test_chain_appends_without_changing_the_original() -> None:
    empty: Chain[int] = Chain.EMPTY
    one = empty.append(1)
    two = one.append(2)
    assert (list(empty), list(one), list(two)) == ([], [1], [1, 2])
    assert (len(empty), len(one), len(two)) == (0, 1, 2)
    assert two.rest is one
    assert two.last == 2
    assert not empty
    assert two
    assert two[0] == 1
    assert two[-1] == 2
    assert 2 in two
    assert 3 not in two


def test_chain_equality_and_hash_follow_the_items() -> None:
    a = Chain.of([1, 2, 3])
    b = Chain.EMPTY.append(1).append(2).append(3)
    assert a == b
    assert hash(a) == hash(b)
    assert a != Chain.of([1, 2])
    assert a != Chain.of([1, 2, 4])
    assert a != Chain.of([0, 2, 3])
    assert a != (3, Chain.of([1, 2]), 3) or a.items() == (1, 2, 3)
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a


def test_a_long_chain_compares_and_pickles_without_recursion() -> None:
    long = Chain.of(range(100_000))
    assert long == Chain.of(range(100_000))
    assert pickle.loads(pickle.dumps(long)) == long


def _values(obj: Any) -> tuple[Any, ...]:
    return tuple(getattr(obj, f.name) for f in attrs.fields(type(obj)))


def test_fast_constructors_build_what_the_attrs_constructors_build() -> None:
    s = cr.new_game(cr.ruleset("catastrophe", surprise=True), 3)
    s = cr.apply(s, cr.sample_chance(s, __import__("random").Random(5)))
    s = cr.apply(s, cr.legal_moves(s)[0])
    assert new_state(*_values(s)) == State(*_values(s))
    t = s.table
    assert t is not None
    assert new_table(*_values(t)) == Table(*_values(t))
    assert len(_values(s)) == 9
    assert len(_values(t)) == 7


def test_round_gathers_the_round_in_play() -> None:
    s = cr.new_game(cr.ruleset("catastrophe", surprise=True), 3)
    assert s.round is None
    s = cr.apply(s, cr.sample_chance(s, __import__("random").Random(5)))
    s = cr.apply(s, cr.legal_moves(s)[0])
    r = s.round
    assert r is not None
    assert s.table is not None
    assert r == Round(s.hands, s.table, s.trick, s.high, s.taker, s.marker)
    assert (r.trick, r.high, r.taker, r.marker, r.table) == (s.trick, s.high, s.taker, s.marker, s.table)
    assert (s.rules, s.players, s.first) == (s.match.rules, s.match.players, s.match.first)


def test_round_reads_its_table_through() -> None:
    table = Table(seats=(0, 2), after=(2, -1, 0), leader=2, stock=(cr.card("7"),))
    r = Round(hands=((), (), ()), table=table)
    assert (r.seats, r.after, r.leader, r.tricks, r.stock, r.revealed, r.captured) == (
        (0, 2), (2, -1, 0), 2, (), (cr.card("7"),), None, (),
    )  # fmt: skip


def test_a_card_played_mid_trick_shares_the_table() -> None:
    s = cr.new_game(cr.ruleset("agurk"), 4)
    s = cr.apply(s, cr.sample_chance(s, __import__("random").Random(1)))
    after = cr.apply(s, cr.legal_moves(s)[0])
    assert after.table is s.table
    assert after.match is s.match
    assert after.rules is s.rules
    assert after.hands[1] is s.hands[1]


@pytest.mark.parametrize("preset", sorted(cr.RULESETS))
def test_states_are_frozen(preset: str) -> None:
    s = cr.new_game(cr.ruleset(preset), 4)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        s.to_act = 1  # type: ignore[misc]


def test_new_trick_matches_the_attrs_constructor() -> None:
    from cucumber_rules.state import Trick, new_trick

    plays = (cr.Play(0, "7"), cr.Play(1, "9"))
    assert new_trick(0, plays, 1, "high", cr.card("3")) == Trick(0, plays, 1, "high", cr.card("3"))
    assert new_trick(2, plays, 0) == Trick(2, plays, 0)


def _long_match() -> State:
    rules = cr.ruleset("agurk", fixed_rounds=60)
    rng = __import__("random").Random(4)
    state = cr.new_game(rules, 4)
    while not state.is_over:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    return state


def test_a_long_history_is_plain_nodes_read_as_a_chain() -> None:
    state = _long_match()
    assert len(state.history) > 1500  # deeper than the recursion limit
    node = state._history
    assert type(node) is tuple
    assert node[2] == len(state.history)
    assert type(state.history) is Chain
    assert state.history.last is node[0]
    assert state.history.rest == Chain.of(state.actions[:-1])
    rebuilt = attrs.evolve(state, history=Chain.of(state.actions))  # a Chain is turned into a plain node
    assert type(rebuilt._history) is tuple
    assert rebuilt == state
    assert hash(rebuilt) == hash(state)
    assert attrs.evolve(state, history=Chain.of(state.actions[:-1])) != state


def test_a_long_history_pickles_copies_and_prints_without_recursion() -> None:
    state = _long_match()
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state
    text = repr(state)
    assert text.startswith("State(to_act=None, match=Match(")
    assert "history=Chain.of([" in text
    assert "_history" not in text


@pytest.mark.parametrize("how", ["pickle", "deepcopy", "evolve", "loads"])
def test_a_rebuilt_state_plays_on_exactly_like_the_original(how: str) -> None:
    state = cr.new_game(cr.ruleset("agurk"), 3)  # some way into a match, the seat to act holding cards
    rng = __import__("random").Random(8)
    for _ in range(40):
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    assert cr.legal_moves(state)
    ways: dict[str, Callable[[State], State]] = {
        "pickle": lambda s: pickle.loads(pickle.dumps(s)),
        "deepcopy": copy.deepcopy,
        "evolve": lambda s: attrs.evolve(s, history=s.history),
        "loads": lambda s: cr.loads(cr.dumps(s), State),
    }
    rebuilt = ways[how](state)
    assert type(rebuilt._history) is tuple
    move = cr.legal_moves(state)[0]
    after, rebuilt_after = cr.apply(state, move), cr.apply(rebuilt, move)
    assert rebuilt_after == after
    assert len(rebuilt_after.history) == len(state.history) + 1
    assert rebuilt_after.history.items() == (*state.actions, move)


def test_result_rows_are_built_once_per_match_and_are_not_part_of_its_value() -> None:
    from cucumber_rules.state import result_rows

    state = _long_match()
    m = state.match
    results, rows = result_rows(m)
    assert results == m.results.items()
    assert rows == tuple(r.points for r in results)
    assert len(rows) == m.rounds == 60
    assert result_rows(m)[0] is results  # kept
    fresh = attrs.evolve(m)  # an equal match without the cache
    assert fresh._rows is None
    assert fresh == m
    assert hash(fresh) == hash(m)
    assert "_rows" not in repr(m)
    assert cr.score(state).rounds == rows
    assert cr.score(attrs.evolve(state, match=fresh)) == cr.score(state)
