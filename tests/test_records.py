"""Match records and replay: the canonical way to store a match (issue 5)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cucumber_rules as cr
from cucumber_rules import Deal, IllegalMoveError, Play, Record, Revive
from helpers import play, random_states, start

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("agurk", {}),
    ("gurka", {}),
    ("five-cucumbers", {}),
    ("fuenf-gurken", {}),
    ("gurka", {"revival": True, "threshold": 12, "hand_size": 3}),
    ("agurk", {"fixed_rounds": 3}),
    ("catastrophe", {}),
    ("catastrophe", {"surprise": True}),
    ("catastrophe", {"cant_beat_em": True}),
]


PLAYABLE = VARIANTS


def test_every_preset_is_covered() -> None:
    assert {name for name, _ in PLAYABLE} == set(cr.RULESETS)


def _gurka_one_card() -> cr.State:
    return start(cr.ruleset("gurka", hand_size=1), "2C", "KS")


def test_record_holds_rules_players_first_and_actions() -> None:
    s = play(_gurka_one_card(), "2C")
    rec = cr.record(s)
    assert rec == Record(s.rules, s.players, 0, (Deal(hands=[["2C"], ["KS"]]), Play(0, "2C")))
    assert rec.actions == s.actions
    assert cr.record(cr.new_game(cr.ruleset("agurk"), ["A", "B", "C"], first=2)) == Record(
        cr.ruleset("agurk"), ("A", "B", "C"), 2, ()
    )


def test_record_is_frozen_and_converts_sequences() -> None:
    rec = Record(cr.ruleset("gurka"), ["Ann", "Bo"], 1, [Play(1, "QS")])
    assert rec.players == ("Ann", "Bo")
    assert rec.actions == (Play(1, "QS"),)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rec.first = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "gurka"},
        {"players": "AnnBo"},
        {"players": ["Ann", 2]},
        {"first": "0"},
        {"first": True},
        {"actions": [Play(0, "QS"), "QS"]},
        {"actions": Play(0, "QS")},
    ],
)
def test_record_rejects_wrong_types(kwargs: dict[str, Any]) -> None:
    fields: dict[str, Any] = {"rules": cr.ruleset("gurka"), "players": ["A", "B"], "first": 0, "actions": []}
    with pytest.raises(TypeError):
        Record(**{**fields, **kwargs})


def test_replay_reproduces_the_state() -> None:
    s = play(_gurka_one_card(), "2C", "KS")
    assert cr.replay(cr.record(s)) == s
    assert cr.score(cr.replay(cr.record(s))).totals == (0, 13)


def test_replay_reports_the_first_illegal_action_with_its_index() -> None:
    rules = cr.ruleset("gurka", hand_size=2)
    deal = Deal(hands=[["2C", "9C"], ["KS", "3H"]])
    # Action 2: seat 1 holds KS, so forced following forbids 3H after 9C.
    rec = Record(rules, ["A", "B"], 0, [deal, Play(0, "9C"), Play(1, "3H"), Play(9, "QS")])
    with pytest.raises(IllegalMoveError) as info:
        cr.replay(rec)
    assert info.value.index == 2
    assert info.value.code == "must-follow"
    assert info.value.action == Play(1, "3H")
    assert "action 2" in str(info.value)


@pytest.mark.parametrize(
    ("actions", "index", "code"),
    [
        ([Play(0, "2C")], 0, "deal-expected"),
        ([Deal(hands=[["2C"], ["2C"]])], 0, "bad-deal"),
        ([Deal(hands=[["2C"], ["KS"]]), Play(1, "KS")], 1, "not-your-turn"),
        ([Deal(hands=[["2C"], ["KS"]]), Play(0, "KS")], 1, "not-in-hand"),
        ([Deal(hands=[["2C"], ["KS"]]), Deal(hands=[["2C"], ["KS"]])], 1, "unexpected-deal"),
        ([Deal(hands=[["2C"], ["KS"]]), Revive(0, True)], 1, "no-decision"),
    ],
)
def test_replay_error_codes(actions: list[cr.Action], index: int, code: str) -> None:
    rec = Record(cr.ruleset("gurka", hand_size=1), ["A", "B"], 0, actions)
    with pytest.raises(IllegalMoveError) as info:
        cr.replay(rec)
    assert (info.value.index, info.value.code) == (index, code)


def test_replay_after_game_over() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    s = play(start(rules, "2C", "KS"), "2C", "KS")
    assert s.is_over
    rec = attrs.evolve(cr.record(s), actions=(*s.actions, Play(0, "3C")))
    with pytest.raises(IllegalMoveError) as info:
        cr.replay(rec)
    assert (info.value.index, info.value.code) == (3, "game-over")


def test_replay_checks_players_and_first() -> None:
    with pytest.raises(cr.InvalidRulesError) as info:
        cr.replay(Record(cr.ruleset("agurk"), ["A", "B"], 0, []))
    assert info.value.option == "players"
    with pytest.raises(cr.InvalidRulesError) as info:
        cr.replay(Record(cr.ruleset("agurk"), ["A", "B", "C"], 3, []))
    assert info.value.option == "first"


def test_record_and_replay_reject_wrong_types() -> None:
    with pytest.raises(TypeError):
        cr.record(cr.record(_gurka_one_card()))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cr.replay(_gurka_one_card())  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLAYABLE), st.integers(0, 2**32 - 1), st.data())
def test_round_trips_over_every_preset(
    variant: tuple[str, dict[str, Any]], seed: int, data: st.DataObject
) -> None:
    name, options = variant
    rules = cr.ruleset(name, **options)
    players = data.draw(st.integers(rules.min_players, min(rules.max_players, 5)))
    states = random_states(rules, players, seed=seed, limit=data.draw(st.integers(0, 400)))
    # Every few states (and the last), replaying the record gives the same state,
    # and a record survives JSON.
    for s in [*states[:: max(1, len(states) // 4)], states[-1]]:
        rec = cr.record(s)
        assert cr.replay(rec) == s
        assert cr.loads(cr.dumps(rec)) == rec
        assert cr.loads(cr.dumps(rec), Record) == rec


def test_full_matches_replay_to_the_end() -> None:
    for name, options in PLAYABLE:
        rules = cr.ruleset(name, **options)
        final = random_states(rules, rules.min_players, seed=3, limit=100_000)[-1]
        assert final.is_over, name
        again = cr.replay(cr.loads(cr.dumps(cr.record(final)), Record))
        assert again == final
        assert cr.score(again) == cr.score(final)
