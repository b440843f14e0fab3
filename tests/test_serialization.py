"""JSON documents: round trips, the format, and re-validation of what is loaded (issue 5)."""

from __future__ import annotations

import array
import copy
import json
import pickle
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import cattrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cucumber_rules as cr
from cucumber_rules import (
    FORMAT_VERSION,
    InvalidRulesError,
    InvalidStateError,
    PlayerView,
    Record,
    Rules,
    Score,
    State,
)
from cucumber_rules.serialization import KINDS, RulesDocumentError
from cucumber_rules.state import Match, RoundResult, Table, Trick
from helpers import play, random_states, start

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("agurk", {}),
    ("gurka", {}),
    ("five-cucumbers", {}),
    ("fuenf-gurken", {}),
    ("gurka", {"revival": True, "threshold": 12, "hand_size": 3}),
    ("agurk", {"fixed_rounds": 2, "reverse": True}),
    ("catastrophe", {}),
    ("catastrophe", {"surprise": True}),
    ("catastrophe", {"surprise": True, "cant_beat_em": True}),
]


PLAYABLE = VARIANTS


def _state(name: str = "agurk", seed: int = 1, steps: int = 40, players: int = 3, **options: Any) -> State:
    return random_states(cr.ruleset(name, **options), players, seed=seed, limit=steps)[-1]


def _doc(obj: Any) -> dict[str, Any]:
    doc = json.loads(cr.dumps(obj))
    assert isinstance(doc, dict)
    return doc


def _load(doc: dict[str, Any]) -> Any:
    return cr.loads(json.dumps(doc))


# --------------------------------------------------------------------------- round trips


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLAYABLE), st.integers(0, 2**32 - 1), st.data())
def test_loads_dumps_round_trip_for_every_kind(
    variant: tuple[str, dict[str, Any]], seed: int, data: st.DataObject
) -> None:
    name, options = variant
    rules = cr.ruleset(name, **options)
    players = data.draw(st.integers(rules.min_players, min(rules.max_players, 5)))
    states = random_states(rules, players, seed=seed, limit=data.draw(st.integers(0, 300)))
    state = states[-1]
    seat = data.draw(st.one_of(st.none(), st.integers(0, players - 1)))
    objects: list[Any] = [rules, state, cr.view(state, seat), cr.score(state), cr.record(state)]
    for obj in objects:
        text = cr.dumps(obj)
        back = cr.loads(text)
        assert type(back) is type(obj)
        assert back == obj
        assert cr.dumps(back) == text  # the text is stable
        assert cr.loads(text, type(obj)) == obj


def test_loaded_state_plays_on_like_the_original() -> None:
    s = _state(seed=4, steps=30)
    back = cr.loads(cr.dumps(s), State)
    rng1, rng2 = random.Random(9), random.Random(9)
    for _ in range(30):
        if s.is_over:
            break
        moves = cr.legal_moves(s)
        assert cr.legal_moves(back) == moves
        s = cr.apply(s, rng1.choice(moves) if moves else cr.sample_chance(s, rng1))
        back = cr.apply(back, rng2.choice(moves) if moves else cr.sample_chance(back, rng2))
        assert back == s


# --------------------------------------------------------------------------- the format


def test_every_document_has_format_and_kind_first() -> None:
    s = _state()
    for obj, kind in [
        (s.rules, "rules"),
        (s, "state"),
        (cr.view(s, 0), "view"),
        (cr.score(s), "score"),
        (cr.record(s), "record"),
    ]:
        doc = _doc(obj)
        assert list(doc)[:2] == ["format", "kind"]
        assert doc["format"] == FORMAT_VERSION == 3
        assert doc["kind"] == kind
        assert isinstance(obj, KINDS[kind])


def test_json_is_compact() -> None:
    text = cr.dumps(_state(players=["Ann Lee", "Bo", "Cy"]))  # type: ignore[arg-type]
    assert text == json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    assert "\n" not in text


def test_cards_are_strings_and_actions_are_tagged() -> None:
    s = play(start(cr.ruleset("agurk", hand_size=2), "10H QS", "2C 3C", "4D 5D"), "10H")
    doc = _doc(s)
    assert doc["history"][0] == {
        "type": "deal",
        "hands": [["10H", "QS"], ["2C", "3C"], ["4D", "5D"]],
        "stock": [],
        "leader": None,
    }
    assert doc["history"][1] == {"type": "play", "seat": 0, "card": "10H"}
    assert doc["trick"] == [{"type": "play", "seat": 0, "card": "10H"}]
    assert doc["hands"][0] == ["QS"]
    numbered = _doc(cr.view(start(cr.ruleset("five-cucumbers", hand_size=1), "15", "1"), 0))
    assert numbered["hand"] == ["15"]
    assert numbered["events"][0] == {"type": "dealt", "hand": ["15"], "sizes": [1, 1], "leader": None}


def test_revive_and_reveal_tags() -> None:
    conv = cr.make_converter()
    assert conv.unstructure(cr.Revive(1, True)) == {"type": "revive", "seat": 1, "accept": True}
    assert conv.unstructure(cr.Revealed(cr.card("42"))) == {"type": "reveal", "card": "42"}
    for cls in (cr.Deal, cr.Play, cr.Revive, cr.Dealt, cr.Revealed):
        assert isinstance(cls.TAG, str)


def test_history_chains_are_lists() -> None:
    s = autoplayed = _state(steps=60)
    doc = _doc(autoplayed)
    assert isinstance(doc["history"], list)
    assert len(doc["history"]) == len(s.history)
    assert isinstance(doc["match"]["results"], list)
    assert len(doc["match"]["results"]) == len(s.match.results)
    conv = cr.make_converter()
    history = cr.History([cr.Play(0, "QS"), cr.Play(1, "KS")])
    data = conv.unstructure(history, cr.History[cr.Action])
    assert data == [{"type": "play", "seat": 0, "card": "QS"}, {"type": "play", "seat": 1, "card": "KS"}]
    assert conv.structure(data, cr.History[cr.Action]) == history


def test_rules_plan_cache_is_never_serialized() -> None:
    s = _state()  # playing builds the rules' private plan
    assert s.rules._plan is not None
    for obj in (s.rules, s, cr.view(s, 1)):
        assert "plan" not in cr.dumps(obj)
    assert "_plan" not in _doc(s.rules)
    assert cr.loads(cr.dumps(s.rules)) == s.rules


def test_catastrophe_rules_keep_their_cucumber_table() -> None:
    rules = cr.ruleset("catastrophe", cucumbers=[2] * 60)
    doc = _doc(rules)
    assert doc["cucumbers"] == [2] * 60
    assert "threshold" not in doc  # only the game's own options are written
    assert cr.loads(cr.dumps(rules)) == rules


def test_a_cucumber_count_above_the_bound_is_refused_naming_the_field() -> None:
    doc = _doc(cr.ruleset("catastrophe"))
    for count in (101, 2**53 - 1):  # (2**53 - 1 once made checking a view of such rules a MemoryError)
        doc["cucumbers"][3] = count
        with pytest.raises(RulesDocumentError) as info:
            _load(doc)
        assert (info.value.option, info.value.path) == ("cucumbers", "$.cucumbers")
        assert str(info.value) == f"$.cucumbers: cucumbers[3] (card 4) must be at most 100, not {count}"


def test_make_converter_is_fresh_and_leaves_the_global_converter_alone() -> None:
    a, b = cr.make_converter(), cr.make_converter()
    assert a is not b
    assert a is not cattrs.global_converter
    assert a.unstructure(cr.card("QS")) == "QS"
    assert cattrs.global_converter.unstructure(cr.card("QS")) != "QS"


def test_an_errors_message_is_capped_however_long_the_bad_value() -> None:
    # A client's 5-million-character card name must not become a 5-million-character log line.
    play = {"type": "play", "seat": 0, "card": "Q" * 5_000_000}
    with pytest.raises(InvalidStateError) as caught:
        cr.make_converter().structure(play, cr.Play)
    text = str(caught.value)
    assert len(text) <= cr.errors.MAX_MESSAGE
    assert text.startswith("$.card: 'QQQ")
    assert "characters left out" in text
    assert text.endswith("or '42'")
    doc = json.loads(cr.dumps(cr.record(_state(steps=2, players=3))))
    doc["actions"][1] = dict(play, card="Q" * 100_000)  # (within the size limit `loads` checks first)
    with pytest.raises(InvalidStateError) as caught:
        cr.loads(json.dumps(doc))
    assert caught.value.path == "$.actions[1].card"
    assert len(str(caught.value)) <= cr.errors.MAX_MESSAGE


def test_structuring_a_state_leaves_the_callers_dict_alone() -> None:
    # `loads` gives `structure_state` its own copy to consume (its parsed history freed before the
    # replay); a converter's caller keeps every field of the dict it passes.
    state = play(start(cr.ruleset("gurka", hand_size=2), "2C KS", "3H AS"), "KS")
    conv = cr.make_converter()
    value = conv.unstructure(state, cr.State)
    before = copy.deepcopy(value)
    assert conv.structure(value, cr.State) == state
    assert value == before


@pytest.mark.parametrize(
    ("value", "kind", "path", "message"),
    [
        ({"type": "play", "seat": "1", "card": "QS"}, cr.Action, "$.seat", "expected an integer, not a"),
        ([{"type": "play", "seat": 1, "card": "QX"}], tuple[cr.Action, ...], "$[0].card", "'QX' is not a"),
        ({"type": "play", "seat": 1}, cr.Play, "$.card", "missing field 'card'"),
        ({"type": "revive", "seat": 0, "accept": 1}, cr.Action, "$.accept", "expected true or false, not"),
        ({"type": "play", "seat": 0, "card": ["2C"]}, cr.Action, "$.card", "expected a card such as"),
        ({"type": "play", "seat": 0, "card": {"2C": 1}}, cr.Play, "$.card", "expected a card such as"),
        ({"seat": 0, "card": "2C"}, cr.Action, "$.type", "missing field 'type'"),
    ],
)
def test_a_converters_errors_are_invalid_state_errors_naming_the_path(
    value: Any, kind: Any, path: str, message: str
) -> None:
    # A server reading a client's message with its own converter gets the error `loads` would give,
    # path and cause, not an internal exception whose text is only a path step.
    with pytest.raises(cr.InvalidStateError) as caught:
        cr.make_converter().structure(value, kind)
    assert caught.value.path == path
    assert str(caught.value).startswith(f"{path}: {message}")
    assert isinstance(caught.value, ValueError)


def test_dumps_rejects_other_types() -> None:
    for obj in (cr.Play(0, "QS"), {"format": 1}, "text", None):
        with pytest.raises(TypeError):
            cr.dumps(obj)  # type: ignore[arg-type]


def test_loads_argument_types() -> None:
    with pytest.raises(TypeError):
        cr.loads(123)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        cr.loads(cr.dumps(cr.ruleset("agurk")), cr.Play)
    assert cr.loads(cr.dumps(cr.ruleset("agurk")).encode(), Rules) == cr.ruleset("agurk")


def test_expect_checks_the_kind() -> None:
    text = cr.dumps(cr.ruleset("agurk"))
    with pytest.raises(InvalidStateError) as info:
        cr.loads(text, State)
    assert info.value.path == "$.kind"


def test_lenient_card_notation_is_accepted() -> None:
    doc = _doc(cr.record(start(cr.ruleset("agurk", hand_size=1), "10H", "2C", "3C")))
    doc["actions"][0]["hands"][0] = ["th"]
    assert _load(doc).actions[0].hands[0] == (cr.card("10H"),)


# --------------------------------------------------------------------------- re-validation

Mutation = Callable[[dict[str, Any]], object]


def _state_doc() -> dict[str, Any]:
    # Seat 0 leads; two tricks played of a 7-card agurk round with 3 players, round 2.
    return _doc(_state(seed=7, steps=32))


STATE_CASES: list[tuple[str, Mutation, type[Exception], str]] = [
    ("threshold 0", lambda d: d["rules"].update(threshold=0), InvalidRulesError, "$.rules.threshold"),
    ("threshold text", lambda d: d["rules"].update(threshold="21"), InvalidRulesError, "$.rules.threshold"),
    ("threshold float", lambda d: d["rules"].update(threshold=21.0), InvalidRulesError, "$.rules.threshold"),
    ("bool as int", lambda d: d["rules"].update(ace_lead=0), InvalidRulesError, "$.rules.ace_lead"),
    ("unknown option", lambda d: d["rules"].update(bogus=1), InvalidRulesError, "$.rules.bogus"),
    ("missing option", lambda d: d["rules"].pop("lives"), InvalidRulesError, "$.rules.lives"),
    ("bad deck", lambda d: d["rules"].update(deck="tarot"), InvalidRulesError, "$.rules.deck"),
    ("other game's option", lambda d: d["rules"].update(hand_count=4), InvalidRulesError, "$.rules.hand_count"),  # noqa: E501
    ("rules not an object", lambda d: d.update(rules=[]), InvalidRulesError, "$.rules"),
    ("rules missing", lambda d: d.pop("rules"), InvalidStateError, "$.rules"),
    ("format 4", lambda d: d.update(format=4), InvalidStateError, "$.format"),
    ("format 0", lambda d: d.update(format=0), InvalidStateError, "$.format"),
    ("format text", lambda d: d.update(format="1"), InvalidStateError, "$.format"),
    ("format true", lambda d: d.update(format=True), InvalidStateError, "$.format"),
    ("no format", lambda d: d.pop("format"), InvalidStateError, "$.format"),
    ("no kind", lambda d: d.pop("kind"), InvalidStateError, "$.kind"),
    ("bad kind", lambda d: d.update(kind="State"), InvalidStateError, "$.kind"),
    ("unknown field", lambda d: d.update(secret=1), InvalidStateError, "$.secret"),
    ("missing field", lambda d: d.pop("to_act"), InvalidStateError, "$.to_act"),
    ("too few players", lambda d: d.update(players=["A"]), InvalidStateError, "$.players"),
    ("name not text", lambda d: d["players"].__setitem__(1, 7), InvalidStateError, "$.players[1]"),
    ("first not a seat", lambda d: d.update(first=9), InvalidStateError, "$.first"),
    ("to_act", lambda d: d.update(to_act=(d["to_act"] + 1) % 3), InvalidStateError, "$.to_act"),
    ("to_act text", lambda d: d.update(to_act="0"), InvalidStateError, "$.to_act"),
    ("total", lambda d: d["match"]["totals"].__setitem__(0, 99), InvalidStateError, "$.match.totals[0]"),
    ("dealer", lambda d: d["match"].update(dealer=5), InvalidStateError, "$.match.dealer"),
    ("winner", lambda d: d["match"].update(winners=[0]), InvalidStateError, "$.match.winners"),
    ("swapped hand card", lambda d: d["hands"][1].__setitem__(0, "AS"), InvalidStateError,
     "$.hands[1][0]"),
    ("bad card", lambda d: d["hands"][0].__setitem__(0, "QX"), InvalidStateError,
     "$.hands[0][0]"),
    ("card number", lambda d: d["hands"][0].__setitem__(0, 12), InvalidStateError,
     "$.hands[0][0]"),
    ("extra hand card", lambda d: d["hands"][0].append("2S"), InvalidStateError, "$.hands[0]"),
    ("trick shape", lambda d: d["table"]["tricks"][0]["plays"].pop(), InvalidStateError,
     "$.table.tricks[0].plays"),
    ("trick not list", lambda d: d.update(trick={}), InvalidStateError, "$.trick"),
    ("table null", lambda d: d.update(table=None), InvalidStateError, "$.table"),
    ("table field missing", lambda d: d["table"].pop("tricks"), InvalidStateError, "$.table.tricks"),
    ("table wrong type", lambda d: d["table"].update(tricks={}), InvalidStateError, "$.table.tricks"),
    ("best", lambda d: d.update(best={"type": "play", "seat": 2, "card": "2C"}), InvalidStateError, "$.best"),
    ("stock", lambda d: d["table"].update(stock=["2C"]), InvalidStateError, "$.table.stock"),
    ("history card", lambda d: d["history"][3].update(card="QX"), InvalidStateError, "$.history[3].card"),
    ("history type", lambda d: d["history"][3].update(type="pass"), InvalidStateError, "$.history[3].type"),
    ("history no type", lambda d: d["history"][3].pop("type"), InvalidStateError, "$.history[3].type"),
    ("history extra", lambda d: d["history"][3].update(x=1), InvalidStateError, "$.history[3].x"),
    ("history seat", lambda d: d["history"][3].update(seat="1"), InvalidStateError, "$.history[3].seat"),
    ("history item", lambda d: d["history"].__setitem__(2, "QS"), InvalidStateError, "$.history[2]"),
    ("deal leader", lambda d: d["history"][0].update(leader=1), InvalidStateError, "$.history[0]"),
    ("dealt twice", lambda d: d["history"][0]["hands"][0].__setitem__(0, d["history"][0]["hands"][1][0]),
     InvalidStateError, "$.history[0]"),
    ("history truncated", lambda d: d["history"].pop(), InvalidStateError, "$.to_act"),
    ("results", lambda d: d["match"]["results"][0]["points"].__setitem__(0, -3), InvalidStateError,
     "$.match.results[0].points[0]"),
    ("hand not list", lambda d: d["hands"].__setitem__(0, "QS"), InvalidStateError,
     "$.hands[0]"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "error", "path"), [c[1:] for c in STATE_CASES], ids=[c[0] for c in STATE_CASES]
)
def test_tampered_state_documents(mutate: Mutation, error: type[Exception], path: str) -> None:
    doc = _state_doc()
    assert _load(copy.deepcopy(doc)) is not None  # the untouched document loads
    mutate(doc)
    with pytest.raises(error) as info:
        _load(doc)
    assert info.value.path == path, str(info.value)  # type: ignore[attr-defined]
    assert str(info.value).startswith(path + ":")


def test_the_state_doc_fixture_has_what_the_cases_need() -> None:
    s = cr.loads(json.dumps(_state_doc()), State)
    assert s.round is not None
    assert s.match.rounds == 1
    assert s.round.tricks
    assert isinstance(s.actions[3], cr.Play)


def test_tampered_rules_document() -> None:
    doc = _doc(cr.ruleset("gurka"))
    doc["threshold"] = 0
    with pytest.raises(RulesDocumentError) as info:
        _load(doc)
    err = info.value
    assert isinstance(err, InvalidRulesError)
    assert isinstance(err, ValueError)
    assert (err.option, err.path) == ("threshold", "$.threshold")
    assert str(err) == "$.threshold: threshold must be at least 1, not 0"
    again = pickle.loads(pickle.dumps(err))
    assert (type(again), again.option, again.path, str(again)) == (type(err), err.option, err.path, str(err))


def test_rules_combination_error_names_the_option() -> None:
    doc = _doc(cr.ruleset("agurk"))
    doc["penalty"] = "cucumbers"  # the cucumbers table needs the five-cucumbers deck
    with pytest.raises(InvalidRulesError) as info:
        _load(doc)
    assert info.value.option == "penalty"
    assert info.value.path == "$.penalty"  # type: ignore[attr-defined]


RECORD_CASES: list[tuple[str, Mutation, str]] = [
    ("illegal card", lambda d: d["actions"][1].update(card="AS"), "$.actions[1].card"),
    ("wrong seat", lambda d: d["actions"][1].update(seat=2), "$.actions[1].seat"),
    ("deal missing", lambda d: d["actions"].pop(0), "$.actions[0]"),
    ("revive", lambda d: d["actions"].insert(1, {"type": "revive", "seat": 0, "accept": True}),
     "$.actions[1]"),
    ("accept not bool", lambda d: d["actions"].insert(1, {"type": "revive", "seat": 0, "accept": 1}),
     "$.actions[1].accept"),
    ("actions not list", lambda d: d.update(actions={}), "$.actions"),
]  # fmt: skip


@pytest.mark.parametrize(("mutate", "path"), [c[1:] for c in RECORD_CASES], ids=[c[0] for c in RECORD_CASES])
def test_tampered_record_documents(mutate: Mutation, path: str) -> None:
    doc = _doc(cr.record(play(start(cr.ruleset("agurk", hand_size=2), "2C 3C", "4D 5D", "6H 7H"), "2C")))
    mutate(doc)
    with pytest.raises(InvalidStateError) as info:
        _load(doc)
    assert info.value.path == path, str(info.value)


def _view_doc() -> dict[str, Any]:
    return _doc(cr.view(play(start(cr.ruleset("agurk", hand_size=2), "2C 3C", "4D 5D", "6H 7H"), "2C"), 1))


VIEW_CASES: list[tuple[str, Mutation, str]] = [
    ("foreign card", lambda d: d["hand"].__setitem__(0, "42"), "$.hand[0]"),
    ("hand size", lambda d: d["hand"].pop(), "$.hand"),
    ("unsorted hand", lambda d: d["hand"].reverse(), "$.hand"),
    ("duplicate card", lambda d: d["hand"].__setitem__(0, "2C"), "$.hand"),
    ("seat", lambda d: d.update(seat=3), "$.seat"),
    ("spectator with hand", lambda d: d.update(seat=None), "$.hand"),
    ("to_act", lambda d: d.update(to_act=7), "$.to_act"),
    ("sizes", lambda d: d["hand_sizes"].append(0), "$.hand_sizes"),
    ("size too big", lambda d: d["hand_sizes"].__setitem__(0, 9), "$.hand_sizes[0]"),
    ("legal other seat", lambda d: d["legal"].__setitem__(0, {"type": "play", "seat": 0, "card": "4D"}),
     "$.legal[0]"),
    ("legal not in hand", lambda d: d["legal"].__setitem__(0, {"type": "play", "seat": 1, "card": "AS"}),
     "$.legal[0].card"),
    ("legal deal", lambda d: d["legal"].__setitem__(0, d["events"][0]), "$.legal[0].type"),
    ("event tag", lambda d: d["events"][0].update(type="deal"), "$.events[0].type"),
    ("event hand", lambda d: d["events"][0]["hand"].pop(), "$.events[0].hand"),
    ("event sizes", lambda d: d["events"][0].update(sizes=[2, 2]), "$.events[0].sizes"),
    ("marker", lambda d: d.update(marker="sideways"), "$.marker"),
    ("trick seat", lambda d: d["trick"][0].update(seat=-2), "$.trick[0].seat"),
    ("standings", lambda d: d.update(standings=[0, 0, 1]), "$.standings"),
    ("players", lambda d: d.update(players=["solo"]), "$.players"),
    ("leader", lambda d: d.update(leader=4), "$.leader"),
    ("round number", lambda d: d.update(round_number=-1), "$.round_number"),
]  # fmt: skip


@pytest.mark.parametrize(("mutate", "path"), [c[1:] for c in VIEW_CASES], ids=[c[0] for c in VIEW_CASES])
def test_tampered_view_documents(mutate: Mutation, path: str) -> None:
    doc = _view_doc()
    assert isinstance(_load(copy.deepcopy(doc)), PlayerView)
    mutate(doc)
    with pytest.raises(InvalidStateError) as info:
        _load(doc)
    assert info.value.path == path, str(info.value)


def _score_doc() -> dict[str, Any]:
    s = _state(seed=7, steps=60)
    assert cr.score(s).results
    return _doc(cr.score(s))


SCORE_CASES: list[tuple[str, Mutation, str]] = [
    ("totals", lambda d: d["totals"].__setitem__(0, 99), "$.totals"),
    ("round_points", lambda d: d["round_points"][0].__setitem__(0, 99), "$.round_points"),
    ("row length", lambda d: d["round_points"][0].append(0), "$.round_points[0]"),
    ("marks", lambda d: d["marks"].pop(), "$.marks"),
    ("standings", lambda d: d.update(standings=[2, 1]), "$.standings"),
    ("winner", lambda d: d.update(winners=[5]), "$.winners[0]"),
    ("number", lambda d: d["results"][0].update(number=3), "$.results[0].number"),
    ("one seat", lambda d: d.update(totals=[0]), "$.totals"),
]  # fmt: skip


@pytest.mark.parametrize(("mutate", "path"), [c[1:] for c in SCORE_CASES], ids=[c[0] for c in SCORE_CASES])
def test_tampered_score_documents(mutate: Mutation, path: str) -> None:
    doc = _score_doc()
    assert isinstance(_load(copy.deepcopy(doc)), Score)
    mutate(doc)
    with pytest.raises(InvalidStateError) as info:
        _load(doc)
    assert info.value.path == path, str(info.value)


@pytest.mark.parametrize("kind", ["score", "view"])
def test_rows_and_results_are_counted_before_either_is_read(kind: str) -> None:
    # Rows that could not even be read: refused for their number, before anything is structured.
    doc = _score_doc() if kind == "score" else _view_doc()
    results = len(doc["results"])
    doc["round_points"] = [*doc["round_points"], "not a row", {"nor": "this"}]
    with pytest.raises(InvalidStateError) as info:
        _load(doc)
    assert info.value.path == "$.round_points"
    assert f"one row per result: {results + 2} rows for {results} results" in str(info.value)
    del doc["results"]  # no results at all: no rows either
    with pytest.raises(InvalidStateError, match=r"\$\.round_points: .* for 0 results"):
        _load(doc)


def test_loaded_record_is_replayed() -> None:
    rec = Record(
        cr.ruleset("gurka", hand_size=1), ["A", "B"], 0, [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(1, "KS")]
    )
    with pytest.raises(cr.IllegalMoveError) as raised:
        cr.replay(rec)
    assert raised.value.index == 1
    # dumps writes it (a record is data), but loads refuses an illegal match.
    with pytest.raises(InvalidStateError) as info:
        cr.loads(cr.dumps(rec))
    assert info.value.path == "$.actions[1].seat"
    assert "not-your-turn" in str(info.value)


# --------------------------------------------------------------------------- hostile text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ("null", "JSON object"),
        ('"state"', "JSON object"),
        ('{"format": 1, "format": 1, "kind": "rules"}', "duplicate key"),
        ('{"format": NaN, "kind": "rules"}', "NaN"),
        ('{"format": Infinity, "kind": "rules"}', "Infinity"),
        ('{"format": 1' + "0" * 5000 + "}", r"^\$: not valid JSON: a number has more than \d+ digits$"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a":' * 50 + "1" + "}" * 50, "nested too deeply"),
        ("\ud800", "not valid JSON"),
    ],
)
def test_malformed_text(text: str, message: str) -> None:
    with pytest.raises(InvalidStateError, match=message) as info:
        cr.loads(text)
    assert info.value.path == "$"


def test_nesting_inside_strings_does_not_count() -> None:
    doc = _doc(cr.record(_state(steps=0, players=3)))
    doc["players"] = ["[" * 64, "{" * 64, '"\\"[[[[' * 9]  # (names: at most 64 characters)
    assert _load(doc).players == tuple(doc["players"])


def test_size_limit() -> None:
    text = cr.dumps(_state())
    with pytest.raises(InvalidStateError, match="too large") as info:
        cr.loads(text, max_length=len(text) - 1)
    assert info.value.path == "$"
    assert cr.loads(text, max_length=len(text)) == cr.loads(text)
    with pytest.raises(InvalidStateError, match="too large"):
        cr.loads(" " * (cr.serialization.MAX_LENGTH + 1))


def test_depth_limit_is_configurable() -> None:
    text = cr.dumps(_state())
    with pytest.raises(InvalidStateError, match="nested too deeply"):
        cr.loads(text, max_depth=3)


@pytest.mark.parametrize("limit", ["max_length", "max_depth"])
def test_the_limits_are_checked_as_arguments_before_the_document(limit: str) -> None:
    text = cr.dumps(cr.ruleset("agurk"))
    wrongs: list[tuple[Any, str]] = [(True, "bool"), (10.0, "float"), ("9", "str"), (None, "NoneType")]
    for wrong, kind in wrongs:
        with pytest.raises(TypeError, match=f"^{limit} must be an int, not {kind}$"):
            cr.loads(text, **{limit: wrong})
    negative: dict[str, Any] = {limit: -1}
    with pytest.raises(ValueError, match=f"^{limit} must be at least 0, not -1$") as info:
        cr.loads(text, **negative)
    assert not isinstance(info.value, InvalidStateError)  # a calling mistake, not the document's
    large: dict[str, Any] = {limit: array.array("q", [10**6])[0]}
    assert cr.loads(text, **large) == cr.ruleset("agurk")


def test_bad_bytes() -> None:
    with pytest.raises(InvalidStateError, match="UTF-8"):
        cr.loads(b'{"format": 1, "kind": "\xff"}')


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


nested = st.recursive(
    st.one_of(st.integers(), st.text(alphabet='[]{}"\\ab', max_size=6)),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.text(alphabet='[]{}"\\k', max_size=4), children, max_size=3),
    ),
    max_leaves=40,
)


@settings(max_examples=200, deadline=None)
@given(nested, st.integers(1, 8))
def test_depth_check_measures_json_nesting(value: Any, limit: int) -> None:
    # Brackets and escapes inside strings never count; only real nesting does.
    text = json.dumps(value)
    if _depth(value) > limit:
        with pytest.raises(InvalidStateError, match="nested too deeply"):
            cr.serialization.documents._check_depth(text, limit)
    else:
        cr.serialization.documents._check_depth(text, limit)


def test_the_state_document_holds_every_field_of_the_state() -> None:
    for name, options in VARIANTS:
        state = _state(name, steps=20, **options)
        doc = _doc(state)
        assert list(doc) == [
            "format", "kind", "rules", "players", "first", "to_act", "match", "table", "hands", "trick",
            "best", "extra", "history",
        ]  # fmt: skip
        fields = {f.name for f in attrs.fields(State) if f.init}
        assert fields - {"past", "held"} | {"history", "hands"} == set(doc) - {
            "format",
            "kind",
            "rules",
            "players",
            "first",
        }
        match_fields = {f.name for f in attrs.fields(type(state.match)) if f.init}
        assert set(doc["match"]) | {"rules", "players", "first"} == match_fields
        assert state.table is not None
        assert set(doc["table"]) == {f.name for f in attrs.fields(type(state.table)) if f.init}


def test_json_format_page_documents_every_field() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "json-format.md").read_text(encoding="utf-8")
    classes: list[type[Any]] = [Match, Table, Trick, RoundResult, PlayerView, Score, Record]
    for game in cr.GAMES.values():
        classes += [game.match_type, game.table_type, game.trick_type, game.result_type, game.view_type]
    for cls in classes:
        for field in attrs.fields(cls):
            if field.init and field.name not in ("rules", "players", "first"):
                assert f"| `{field.alias or field.name}` |" in page, (
                    f"{cls.__name__}.{field.name} is not in docs/json-format.md"
                )
    for field in ("to_act", "match", "table", "hands", "trick", "best", "extra", "history", "game"):
        assert f"| `{field}` |" in page, field
    tagged: tuple[type[Any], ...] = (cr.Deal, cr.Play, cr.Revive, cr.Dealt, cr.Revealed)
    for kind in tagged:
        assert f'{{"type": "{kind.TAG}", ...}}' in page, kind.__name__
        for field in attrs.fields(kind):
            if not field.init:
                continue  # a cache or a mark, never written
            assert f"`{field.name}`:" in page, f"{kind.__name__}.{field.name} is not in docs/json-format.md"
    # The rules' options are listed from each game's own options when the site is built (a name two
    # games define differently has a row for each); name and game by hand.
    assert "option_definitions()" in page


def test_lists_of_plain_values_are_checked_item_by_item_when_one_is_wrong() -> None:
    # Rows of integers and lists of names are read in one pass when all is well; a wrong item still
    # gets its own path.
    rng = random.Random(1)
    s = cr.new_game(cr.ruleset("agurk"), 3)
    while s.match.rounds < 2:
        moves = cr.legal_moves(s)
        s = cr.apply(s, rng.choice(moves) if moves else cr.sample_chance(s, rng))
    score = json.loads(cr.dumps(cr.score(s)))
    assert cr.loads(json.dumps(score)) == cr.score(s)
    for bad, path in (
        (True, r"\$\.round_points\[1\]\[2\]"),
        ("3", r"\$\.round_points\[1\]\[2\]"),
        (1.0, r"\$\.round_points\[1\]\[2\]"),
    ):
        doc = json.loads(json.dumps(score))
        doc["round_points"][1][2] = bad
        with pytest.raises(cr.InvalidStateError, match=path):
            cr.loads(json.dumps(doc))
    doc = json.loads(json.dumps(score))
    doc["round_points"][0] = 5
    with pytest.raises(cr.InvalidStateError, match=r"\$\.round_points\[0\]: expected an array"):
        cr.loads(json.dumps(doc))
    rec = json.loads(cr.dumps(cr.record(s)))
    rec["players"][1] = 3
    with pytest.raises(cr.InvalidStateError, match=r"\$\.players\[1\]: expected a string"):
        cr.loads(json.dumps(rec))


FORMAT1 = Path(__file__).resolve().parent / "data" / "format1"


@pytest.mark.parametrize("path", sorted(FORMAT1.glob("*.rules.json")), ids=lambda p: p.name)
def test_format1_rules_load_with_the_options_added_since(path: Path) -> None:
    """0.1 had no `round_limit`: its ladder rules load with the default (the automatic limit)."""
    rules = cr.loads(path.read_text(encoding="utf-8"))
    assert isinstance(rules, cr.Rules)
    if isinstance(rules, cr.LadderRules):
        assert rules.round_limit is None
    stem = path.name.split(".")[0]
    if stem in cr.RULESETS:
        assert rules == cr.RULESETS[stem]
    assert cr.loads(cr.dumps(rules)) == rules


# --------------------------------------------------------------------------- documents of older formats

DATA = Path(__file__).resolve().parent / "data"
#: Documents as cucumber_rules 0.1 (format 1) and 0.2 (format 2) wrote them (tools/old_documents.py),
#: by match: `<match>.record.json`, `.rules.json`, `.state-<k>.json` (after k actions), and where the
#: views are taken, `.view-<k>-<seat>.json` and `.score.json` (the score at that point).
OLD_FORMATS = {1: DATA / "format1", 2: DATA / "format2"}
OLD_MATCHES = [
    (version, path.name.removesuffix(".record.json"))
    for version, folder in OLD_FORMATS.items()
    for path in sorted(folder.glob("*.record.json"))
]


def _old(version: int, name: str) -> Any:
    text = (OLD_FORMATS[version] / name).read_text(encoding="utf-8")
    assert json.loads(text)["format"] == version  # (a fixture is never rewritten in a later format)
    return cr.loads(text)


def _replayed(record: Record, upto: int) -> State:
    return cr.replay(Record(record.rules, record.players, record.first, record.actions[:upto]))


@pytest.mark.parametrize(("version", "match"), OLD_MATCHES, ids=[f"format{v}-{m}" for v, m in OLD_MATCHES])
def test_older_documents_load_to_what_they_held(version: int, match: str) -> None:
    """A document of format 1 or 2 loads to the value this release computes for the same match."""
    record = _old(version, f"{match}.record.json")
    assert isinstance(record, Record)
    assert _old(version, f"{match}.rules.json") == record.rules
    assert cr.replay(record).is_over
    names = sorted(p.name for p in OLD_FORMATS[version].glob(f"{match}.*-*.json"))
    (at,) = {n.split(".view-")[1].split("-")[0] for n in names if ".view-" in n}
    assert any(".state-" in n for n in names)
    for name in [*names, f"{match}.score.json"]:
        kind, _, where = name.removeprefix(f"{match}.").removesuffix(".json").partition("-")
        k, _, seat = (where or at).partition("-")
        state = _replayed(record, int(k))
        expected: Any = state
        if kind == "score":
            expected = cr.score(state)
        elif kind == "view":
            expected = cr.view(state, None if seat == "None" else int(seat))
        loaded = _old(version, name)
        assert type(loaded) is type(expected), name
        assert loaded == expected, name
        again = json.loads(cr.dumps(loaded))  # written again: the current format, which loads the same
        assert again["format"] == FORMAT_VERSION
        assert cr.loads(json.dumps(again)) == expected, name


def test_format2_fixtures_hold_the_names_format3_changed() -> None:
    """The format-2 fixtures exercise every rename and every retired field (else they prove little)."""
    rules = _format2("catastrophe-surprise-cant_beat_em.rules.json")
    assert rules["hands"] == 2
    assert "hand_count" not in rules
    view = _format2("catastrophe-surprise-cant_beat_em.view-61-0.json")
    assert (view["marks"], view["eliminated"]) == ([0] * 4, [False] * 4)
    assert view["rounds"]
    score = _format2("agurk.score.json")
    assert "round_points" not in score
    assert all(any(score[name]) for name in ("marks", "eliminated"))
    assert all(any(r[name] for r in score["results"]) for name in ("marks", "eliminated"))
    state = _format2("gurka-revival.state-91.json")
    assert any(r["returned"] for r in state["match"]["results"])
    assert state["match"]["sitting_out"]


def _renamed_as_format3(doc: dict[str, Any], keep: str) -> None:
    """A Catastrophe view or score of format 2 given format 3's names and number, but one retired field."""
    if "rules" in doc:
        doc["rules"]["hand_count"] = doc["rules"].pop("hands")
    doc.update(format=3, round_points=doc.pop("rounds"))
    for retired in {"marks", "eliminated"} - {keep}:
        del doc[retired]


def _format2(name: str) -> dict[str, Any]:
    doc = json.loads((OLD_FORMATS[2] / name).read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


#: Format-2 documents tampered where format 3 changed a name or dropped a field: (case, fixture,
#: mutation, path of the refusal, words of the message).
FORMAT2_CASES: list[tuple[str, str, Mutation, str, str]] = [
    ("catastrophe view with a mark", "catastrophe-surprise-cant_beat_em.view-61-0.json",
     lambda d: d["marks"].__setitem__(2, 1), "$.marks", "this game has no marks"),
    ("catastrophe view with an elimination", "catastrophe-surprise-cant_beat_em.view-61-None.json",
     lambda d: d["eliminated"].__setitem__(0, True), "$.eliminated", "this game has no eliminated"),
    ("catastrophe view, marks of a bool", "catastrophe-surprise-cant_beat_em.view-61-1.json",
     lambda d: d["marks"].__setitem__(0, False), "$.marks", "wrote 0 for every seat"),
    ("catastrophe view, marks not a list", "catastrophe-surprise-cant_beat_em.view-61-1.json",
     lambda d: d.update(marks=0), "$.marks", "wrote 0 for every seat"),
    ("catastrophe view, a seat's marks missing", "catastrophe-surprise-cant_beat_em.view-61-2.json",
     lambda d: d["marks"].pop(), "$.marks", "4 values, not 3"),
    ("catastrophe view, a seat too many", "catastrophe-surprise-cant_beat_em.view-61-3.json",
     lambda d: d["eliminated"].append(False), "$.eliminated", "4 values, not 5"),
    ("catastrophe score with a mark", "catastrophe-surprise-cant_beat_em.score.json",
     lambda d: d["marks"].__setitem__(3, 2), "$.marks", "this game has no marks"),
    ("catastrophe score, marks of another table", "catastrophe-surprise-cant_beat_em.score.json",
     lambda d: d.update(marks=[0, 0]), "$.marks", "4 values, not 2"),
    ("both names of the rows", "agurk.score.json",
     lambda d: d.update(round_points=d["rounds"]), "$.rounds", "give one of them, not both"),
    ("both names of a result's marks", "agurk.view-208-1.json",
     lambda d: d["results"][3].update(marked=[2]), "$.results[3].marks", "give one of them, not both"),
    ("both names of the hand count", "catastrophe-surprise-cant_beat_em.rules.json",
     lambda d: d.update(hand_count=2), "$.hands", "give one of them, not both"),
    ("both names in a state's rules", "catastrophe-surprise-cant_beat_em.state-61.json",
     lambda d: d["rules"].update(hand_count=2), "$.rules.hands", "give one of them, not both"),
    ("a ladder view's marks", "agurk.view-208-0.json",
     lambda d: d["marks"].__setitem__(1, 0), "$.marks[1]", "does not match"),
    ("a ladder result's mark moved", "agurk.view-208-2.json",
     lambda d: d["results"][3].update(marks=[1]), "$.results[3].marked", "does not match"),
    ("a ladder result's elimination moved", "gurka-revival.view-91-0.json",
     lambda d: d["results"][0].update(eliminated=[1]), "$.results[0].went_out", "does not match"),
    ("a ladder state's result", "gurka-revival.state-91.json",
     lambda d: d["match"]["results"][2].update(eliminated=[]), "$.match.results[2].went_out",
     "does not match"),
    ("rows of a view", "five-cucumbers.view-94-0.json",
     lambda d: d["rounds"][0].__setitem__(0, 99), "$.round_points", ""),
    ("relabelled format 3, with its marks", "catastrophe-surprise-cant_beat_em.view-61-0.json",
     lambda d: _renamed_as_format3(d, keep="marks"), "$.marks", "unknown field"),
    ("relabelled format 3, with its eliminations", "catastrophe-surprise-cant_beat_em.score.json",
     lambda d: _renamed_as_format3(d, keep="eliminated"), "$.eliminated", "unknown field"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "mutate", "path", "words"), [c[1:] for c in FORMAT2_CASES], ids=[c[0] for c in FORMAT2_CASES]
)
def test_tampered_format2_documents_are_refused(name: str, mutate: Mutation, path: str, words: str) -> None:
    doc = _format2(name)
    assert cr.loads(json.dumps(doc)) is not None  # the untouched document loads
    mutate(doc)
    with pytest.raises(InvalidStateError) as info:
        _load(doc)
    assert info.value.path == path, str(info.value)
    assert words in str(info.value)


@pytest.mark.parametrize("kind", ["view", "score"])
def test_format3_catastrophe_documents_have_no_marks_nor_eliminations(kind: str) -> None:
    state = random_states(cr.ruleset("catastrophe", hand_count=2), 3, seed=2, limit=70)[-1]
    doc = _doc(cr.view(state, 1) if kind == "view" else cr.score(state))
    assert not {"marks", "eliminated", "rounds"} & set(doc)
    for field, value in (("marks", [0, 0, 0]), ("eliminated", [False] * 3), ("rounds", doc["round_points"])):
        with pytest.raises(InvalidStateError) as info:
            _load({**doc, field: value})
        assert info.value.path == f"$.{field}", str(info.value)
        assert "unknown field" in str(info.value)


def _score_document(**changes: Any) -> str:
    base: dict[str, Any] = {
        "format": 3, "kind": "score", "game": "catastrophe", "totals": [31, 31, 34],
        "round_points": [[21, 16, 17], [10, 15, 17]], "winners": [0], "standings": [0, 1, 2],
        "results": [{"number": 1, "points": [21, 16, 17], "totals": [21, 16, 17]},
                    {"number": 2, "points": [10, 15, 17], "totals": [31, 31, 34]}],
    }  # fmt: skip
    return json.dumps({**base, **changes})


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"winners": [2]}, "$.winners"),  # the most cucumbers
        ({"winners": [1]}, "$.winners"),  # tied with seat 0, whose best hand (10) is lower
        ({"winners": [0, 1, 2]}, "$.winners"),
        ({"standings": [2, 1, 0]}, "$.standings"),
        ({"standings": [1, 0, 2]}, "$.standings"),  # the tie goes to the lower best hand
        (
            {
                "totals": [1, 2, 3],
                "results": [
                    {"number": 1, "points": [21, 16, 17], "totals": [21, 16, 17]},
                    {"number": 2, "points": [10, 15, 17], "totals": [1, 2, 3]},
                ],
            },
            "$.results[1].totals",
        ),
        (
            {
                "round_points": [[-9, 16, 17], [10, 15, 17]],
                "results": [
                    {"number": 1, "points": [-9, 16, 17], "totals": [-9, 16, 17]},
                    {"number": 2, "points": [10, 15, 17], "totals": [1, 31, 34]},
                ],
                "totals": [1, 31, 34],
            },
            "$.results[0].points",
        ),
    ],
)
def test_a_catastrophe_score_no_match_could_make_is_refused(changes: dict[str, Any], where: str) -> None:
    assert cr.loads(_score_document(), cr.Score).winners == (0,)  # the honest one loads
    with pytest.raises(cr.InvalidStateError) as caught:
        cr.loads(_score_document(**changes))
    assert caught.value.path == where


def test_a_ladder_score_no_match_could_make_is_refused() -> None:
    rng = random.Random(4)
    state = cr.new_game(cr.ruleset("agurk"), players=4)
    while not any(cr.score(state).eliminated):
        state = cr.apply(
            state,
            cr.sample_chance(state, rng) if state.to_act == cr.CHANCE else rng.choice(cr.legal_moves(state)),
        )
    document = json.loads(cr.dumps(cr.score(state)))
    assert cr.loads(json.dumps(document)) == cr.score(state)
    gone = document["eliminated"].index(True)
    still = [s for s in document["standings"] if not document["eliminated"][s]]
    for changes, where in [
        ({"winners": [gone]}, "$.winners"),
        ({"standings": [gone, *[s for s in document["standings"] if s != gone]]}, "$.standings"),
        (
            {"standings": [*reversed(still), *[s for s in document["standings"] if s not in still]]},
            "$.standings",
        ),
    ]:
        with pytest.raises(cr.InvalidStateError) as caught:
            cr.loads(json.dumps({**document, **changes}))
        assert caught.value.path == where, changes
