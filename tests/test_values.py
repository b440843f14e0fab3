"""Frozen values: copies are the value itself, and the fast builders build what the constructors build."""

from __future__ import annotations

import copy
import random
from typing import Any

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules.state import new_state
from cucumber_rules.tricks import state_builder
from cucumber_rules.values import builder


def _values(obj: Any) -> tuple[Any, ...]:
    return tuple(getattr(obj, f.name) for f in attrs.fields(type(obj)) if f.init)


def _some_states() -> list[cr.State]:
    out = []
    for name, options in [("agurk", {}), ("catastrophe", {"surprise": True})]:
        s = cr.new_game(cr.ruleset(name, **options), 3)
        s = cr.apply(s, cr.sample_chance(s, random.Random(5)))
        out += [s, cr.apply(s, cr.legal_moves(s)[0])]
    return out


def test_builders_build_what_the_attrs_constructors_build() -> None:
    for s in _some_states():
        built = new_state(*_values(s))
        assert type(built) is cr.State
        assert built == cr.State(*_values(s))
        assert hash(built) == hash(cr.State(*_values(s)))
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            built.to_act = 1  # type: ignore[misc]
        table = s.table
        assert table is not None
        assert builder(type(table))(*_values(table)) == table
    trick = cr.CatastropheTrick(0, (cr.Play(0, "7"), cr.Play(1, "9")), 1, cr.Marker.HIGH, cr.card("3"))
    assert builder(cr.CatastropheTrick)(*_values(trick)) == trick
    assert builder(cr.Trick)(2, trick.plays, 0) == cr.Trick(2, trick.plays, 0)


def test_the_state_builder_takes_the_fast_path() -> None:
    # The state is built by filling a twin of its class and switching the class: it must end up an
    # ordinary frozen state of the game's state class, and no other value may be left a twin.
    s = _some_states()[1]
    assert type(s) is cr.LadderState
    assert type(s) is cr.game_of(s).state_type
    while s.table is None or not s.table.tricks:
        s = cr.apply(s, cr.legal_moves(s)[0])
    assert type(s) is cr.LadderState
    for value in (s.match, s.table, s.past, *s.table.tricks):
        assert not type(value).__name__.endswith("Open"), type(value)
    assert new_state.__code__.co_filename == "<builder State>"
    build = state_builder(cr.LadderState)
    assert build.__code__.co_filename == "<builder LadderState>"
    assert state_builder(cr.LadderState) is build  # made once per class
    built = build(*_values(s), None)
    assert type(built) is cr.LadderState
    assert built == s
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.to_act = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    "value",
    [
        cr.ruleset("agurk"),
        cr.card("QS"),
        cr.Play(0, "QS"),
        cr.Deal(hands=[["QS"]]),
        cr.Revive(1, True),
        cr.History([1]),
        cr.score(cr.new_game(cr.ruleset("agurk"), 3)),
    ],
)
def test_copies_of_immutable_values_are_the_values(value: Any) -> None:
    assert copy.copy(value) is value
    assert copy.deepcopy(value) is value


def test_copies_of_states_and_views_are_the_values() -> None:
    for s in _some_states():
        assert copy.deepcopy(s) is s
        v = cr.view(s, 0)
        assert copy.deepcopy(v) is v
        assert copy.copy(v) is v


# --------------------------------------------------------------------------- nothing to change or take apart


def test_nothing_reachable_from_a_value_can_be_set_or_deleted() -> None:
    from cucumber_rules.testing import mutable_parts

    for s in _some_states():
        assert mutable_parts(s) == []
        assert mutable_parts(cr.view(s, 0)) == []
        for obj in (s.history, cr.new_game(s.rules, 3).history):
            for slot in ("_items", "_len", "_rest", "_segment"):
                with pytest.raises(AttributeError, match="immutable"):
                    delattr(obj, slot)
    # (Before: `del state.history._len` on a fresh state broke the empty history every new game shares.)
    s = cr.new_game(cr.ruleset("catastrophe"), 4)
    assert cr.apply(s, cr.sample_chance(s, random.Random(2))).to_act is not None


def test_a_games_mappings_are_read_only() -> None:
    from collections.abc import MutableMapping

    from plugins.highcard import GAME, HighCardGame

    names = ("presets", "aliases", "preset_titles", "error_codes")
    for game in [*cr.GAMES.values(), GAME]:
        for name in names:
            value = getattr(game, name)
            assert not isinstance(value, MutableMapping), (game.name, name)
            with pytest.raises(TypeError):
                value["x"] = "HACKED"  # type: ignore[index,unused-ignore]
    assert HighCardGame.__dict__["preset_titles"] == {"highcard": "High Card"}  # given as a dict: copied

    class Loose(HighCardGame):  # a game that keeps a dict of its own on the instance
        def __init__(self) -> None:
            object.__setattr__(self, "preset_titles", {"highcard": "High Card"})

    with pytest.raises(TypeError, match="preset_titles must be read-only"):
        cr.register_game(Loose())


def test_an_object_with_nowhere_to_store_anything_is_not_mutable() -> None:
    """A game's hook group (a views' cache keeps one beside a match's views) has no slot and no
    `__dict__`: nothing in it can change. An object with a slot it lets anyone set is mutable."""
    from cucumber_rules.testing import mutable_parts
    from cucumber_rules.views import Views

    class Empty:
        __slots__ = ()

    class Settable:
        __slots__ = ("x",)

    hooks = Views.of(cr.GAMES["ladder"])
    assert mutable_parts((hooks, Empty())) == []
    with pytest.raises(AttributeError):
        hooks.anything = 1  # type: ignore[attr-defined]
    assert mutable_parts((Settable(),)) == [("value[0]", "Settable (its attributes can be set or deleted)")]
    s = cr.new_game(cr.ruleset("agurk"), 3)
    cr.view(s, 0)
    assert mutable_parts(s) == []  # (with the views' cache on its match, the game's `Views` in it)


def test_a_state_whose_views_were_made_pickles() -> None:
    """A match keeps its views' cache, which holds the view class's open twin (made at run time): a
    pickled state makes the twin anew (OpenSpiel's `random_sim_test` pickles states)."""
    import pickle

    s = cr.new_game(cr.ruleset("catastrophe"), 3)
    s = cr.apply(s, cr.sample_chance(s, random.Random(1)))
    v = cr.view(s, 0)
    back = pickle.loads(pickle.dumps(s))
    assert back == s
    assert cr.view(back, 0) == v
