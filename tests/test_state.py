"""The state's building blocks: what a card played changes, the Table/Match split, the round view."""

from __future__ import annotations

import array
import copy
import pickle
import random
from collections.abc import Callable

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules.state import Round, State, Table, result_rows
from helpers import catastrophe_state, catastrophe_table, ladder_state


def _started(name: str = "agurk", players: int = 4, seed: int = 1, **options: object) -> State:
    s = cr.new_game(cr.ruleset(name, **options), players)
    return cr.apply(s, cr.sample_chance(s, random.Random(seed)))


def test_the_state_holds_what_a_card_changes_and_points_to_the_rest() -> None:
    assert [f.name for f in attrs.fields(State) if f.init] == [
        "to_act", "match", "table", "held", "trick", "best", "extra", "past",
    ]  # fmt: skip
    # Worked out from the fields, not part of the value: `is_over`, and the legal moves once asked.
    derived = [(f.name, f.eq) for f in attrs.fields(State) if not f.init]
    assert derived == [("is_over", False), ("_legal", False)]
    for game in cr.GAMES.values():
        assert issubclass(game.match_type, cr.Match)
        assert issubclass(game.table_type, Table)
        assert issubclass(game.view_type, cr.PlayerView)


def test_round_gathers_the_round_in_play() -> None:
    s = cr.new_game(cr.ruleset("catastrophe", surprise=True), 3)
    assert s.round is None
    s = cr.apply(s, cr.sample_chance(s, random.Random(5)))
    s = cr.apply(s, cr.legal_moves(s)[0])
    r = s.round
    assert r is not None
    assert s.table is not None
    assert r == Round(s.hands, s.table, s.trick, s.best, s.extra)
    assert (r.trick, r.best, r.taker, r.extra, r.table) == (
        s.trick,
        s.best,
        s.taker,
        catastrophe_state(s).marker,
        s.table,
    )
    assert (s.rules, s.players, s.first) == (s.match.rules, s.match.players, s.match.first)
    assert r.revealed == catastrophe_table(s.table).revealed  # a game's own table fields read through


def test_round_reads_its_table_through() -> None:
    table = Table(seats=(0, 2), after=(2, -1, 0), leader=2, stock=(cr.card("7"),))
    r = Round(hands=((), (), ()), table=table)
    assert (r.seats, r.after, r.leader, r.tricks, r.stock, r.taker) == (
        (0, 2),
        (2, -1, 0),
        2,
        (),
        (cr.card("7"),),
        -1,
    )
    with pytest.raises(AttributeError):
        r.revealed  # the ladder's table has no revealed card  # noqa: B018


def test_a_card_played_mid_trick_shares_the_table_and_the_past() -> None:
    s = _started()
    after = cr.apply(s, cr.legal_moves(s)[0])
    assert after.table is s.table
    assert after.match is s.match
    assert after.past is s.past  # the history before the trick: shared, not copied
    assert after.rules is s.rules
    assert after.held is s.held  # the hands at the trick's start: shared until the trick ends
    assert after.hands[1] == s.hands[1]
    assert len(after.hands[0]) == len(s.hands[0]) - 1  # the card played has left the hand
    assert after.history == s.history.append(after.trick[0])
    assert after.best is after.trick[0]
    assert after.taker == after.trick[0].seat


def test_games_read_their_own_state() -> None:
    s = ladder_state(_started())
    assert s.high == 0  # the ladder: the highest rank in the trick
    moved = ladder_state(cr.apply(s, cr.legal_moves(s)[-1]))
    assert moved.best is not None
    assert moved.high == moved.best.card.rank
    with pytest.raises(AttributeError, match="'LadderState' object has no attribute 'marker'"):
        s.marker  # type: ignore[attr-defined]  # noqa: B018
    c = catastrophe_state(_started("catastrophe", 3))
    assert c.marker is None
    assert c.lead is None
    c = catastrophe_state(cr.apply(c, cr.legal_moves(c)[0]))
    assert c.lead is c.trick[0].card
    with pytest.raises(AttributeError, match="'CatastropheState' object has no attribute 'high'"):
        c.high  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize("preset", sorted(cr.RULESETS))
def test_states_are_frozen(preset: str) -> None:
    s = cr.new_game(cr.ruleset(preset), 4)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        s.to_act = 1  # type: ignore[misc]


@pytest.mark.parametrize("how", ["pickle", "deepcopy", "evolve", "loads"])
def test_a_rebuilt_state_plays_on_exactly_like_the_original(how: str) -> None:
    state = cr.new_game(cr.ruleset("agurk"), 3)  # some way into a match, the seat to act holding cards
    rng = random.Random(8)
    for _ in range(40):
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    assert cr.legal_moves(state)
    ways: dict[str, Callable[[State], State]] = {
        "pickle": lambda s: pickle.loads(pickle.dumps(s)),
        "deepcopy": copy.deepcopy,
        "evolve": lambda s: attrs.evolve(s, past=cr.History(s.past.items())),
        "loads": lambda s: cr.loads(cr.dumps(s), State),
    }
    rebuilt = ways[how](state)
    assert rebuilt == state
    move = cr.legal_moves(state)[0]
    after, rebuilt_after = cr.apply(state, move), cr.apply(rebuilt, move)
    assert rebuilt_after == after
    assert len(rebuilt_after.history) == len(state.history) + 1
    assert rebuilt_after.history.items() == (*state.actions, move)


def test_result_rows_are_built_once_per_match_and_are_not_part_of_its_value() -> None:
    rules = cr.ruleset("agurk", fixed_rounds=12)
    rng = random.Random(4)
    state = cr.new_game(rules, 4)
    while not state.is_over:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    m = state.match
    results, rows = result_rows(m)
    assert results == m.results.items()
    assert rows == tuple(r.points for r in results)
    assert len(rows) == m.rounds == 12
    assert result_rows(m)[0] is results  # kept
    fresh = attrs.evolve(m)  # an equal match without the cache
    assert fresh._rows is None
    assert fresh == m
    assert hash(fresh) == hash(m)
    assert "_rows" not in repr(m)
    assert cr.score(state).round_points == rows
    assert cr.score(attrs.evolve(state, match=fresh)) == cr.score(state)


@pytest.mark.parametrize("method", ["hand", "hand_size"])
def test_hand_and_hand_size_check_the_seat_like_view(method: str) -> None:
    s0 = cr.new_game(cr.ruleset("agurk"), 3)
    s = cr.apply(s0, cr.sample_chance(s0, random.Random(1)))
    read = getattr(s, method)
    assert read(1) == read(array.array("q", [1])[0])  # any integer
    for wrong, kind in [(True, "bool"), (1.0, "float"), ("1", "str"), (None, "NoneType")]:
        with pytest.raises(TypeError, match=f"^seat must be an int, not {kind}$"):
            read(wrong)
    for outside in (-1, 3, 5):  # (once: -1 read seat 2, 3 a bare IndexError)
        with pytest.raises(ValueError, match=f"^seat must be a seat 0..2, not {outside}$"):
            read(outside)
