"""Documents that cannot lie (issue 33): what `loads` accepts is what some match could have produced.

- player names (and a rule set's name) are valid one-line Unicode text, checked by one rule in
  `new_game` and `loads` alike;
- a loaded view is one that some match could show: its fields agree with its events and its
  results, for every game, and `sample_world` either gives a world that shows exactly that view
  or raises the documented error (never an `IndexError`), checking the results before it
  rebuilds any earlier round;
- every value of a document may be of any JSON type: the refusal names its path;
- a refusal of a long document does little work (the timing itself is in
  `benchmarks/hostile_documents.py`, never in a test).

A seeded tamper harness changes the fields of honest views of random matches of every preset;
`CUCUMBER_TAMPER_MATCHES` (default 1) sets how many matches per variant it plays, and
`CUCUMBER_TAMPER_CUTS` (default 3) how many points of each match it looks at.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cucumber_rules as cr
from cucumber_rules import InvalidRulesError, InvalidStateError
from cucumber_rules.serialization import MAX_LENGTH, RulesDocumentError
from cucumber_rules.serialization.documents import converter
from cucumber_rules.testing.strategies import states
from helpers import ladder_result, random_states

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import hostile_documents

#: Matches per preset the tamper harness plays (more with the environment variable).
TAMPER_MATCHES = int(os.environ.get("CUCUMBER_TAMPER_MATCHES", "1"))

#: Points of each match the tamper harness looks at.
TAMPER_CUTS = int(os.environ.get("CUCUMBER_TAMPER_CUTS", "3"))

#: A rule set per game variant worth tampering with (the presets, and the ladder's and
#: Catastrophe's options that change what a round's result or events look like).
VARIANTS: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("agurk", {}, 3),
    ("gurka", {"revival": True, "threshold": 12}, 3),
    ("five-cucumbers", {}, 2),
    ("fuenf-gurken", {"reverse": True, "tie_bonus": True}, 4),
    ("gurka", {"hand_size": 1, "tie_bonus": True}, 4),
    ("catastrophe", {}, 3),
    ("catastrophe", {"surprise": True, "cant_beat_em": True}, 4),
)


def _doc(obj: Any) -> dict[str, Any]:
    return json.loads(cr.dumps(obj))  # type: ignore[no-any-return]


def _refusal(text: str) -> InvalidStateError | InvalidRulesError:
    """`loads(text)` must refuse: the error, which names a JSON path."""
    with pytest.raises((InvalidStateError, InvalidRulesError)) as info:
        cr.loads(text)
    error: InvalidStateError | InvalidRulesError = info.value  # type: ignore[assignment]
    path = getattr(error, "path", None)
    assert path is not None, repr(error)
    assert path.startswith("$"), repr(error)
    assert str(error).startswith(path + ": "), str(error)
    return error


def _outcome(call: Callable[..., Any], *args: Any) -> tuple[Any, Exception | None]:
    """`call(*args)`'s value, or the exception it raised (to look at after the `except`)."""
    try:
        return call(*args), None
    except Exception as err:  # (the caller asserts what it may be)
        return None, err


def _mid_match(
    preset: str = "agurk", players: int = 3, seed: int = 1, rounds: int = 2, **options: Any
) -> cr.State:
    """A state a few plays into round `rounds + 1` of a random match."""
    rng = random.Random(seed)
    state = cr.new_game(cr.ruleset(preset, **options), players)
    while state.match.rounds < rounds or state.to_act == cr.CHANCE or len(state.trick) < 1:
        assert not state.is_over, "the match ended too soon: another seed"
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    return state


# --------------------------------------------------------------------------- names


BAD_NAMES = {
    "\ud800": "lone surrogate",
    "Bo\udc00b": "lone surrogate",
    "Ann\x1b[2J": "control character (U+001B)",
    "tab\there": "control character (U+0009)",
    "two\nlines": "control character (U+000A)",
    "del\x7f": "control character (U+007F)",
    "c1\x9b31m": "control character (U+009B)",
    "sep\u2028x": "line separator",
    "para\u2029x": "paragraph separator",
    "evil\u202egnp.exe": "bidirectional formatting character (U+202E)",
    "iso\u2066late": "bidirectional formatting character (U+2066)",
    "": "is empty",
    "   ": "is empty",
    "x" * 65: "is too long: 65 characters",
}

GOOD_NAMES = [
    "Ann",
    "Zoë",
    "李雷",
    "🥒 Cucumber",
    "👩‍👩‍👧 family",
    "नमस्ते",
    "a b",
    "x" * 64,
    "O'Brien-Smith (bot)",
]


@pytest.mark.parametrize(("name", "why"), BAD_NAMES.items(), ids=[repr(n)[:20] for n in BAD_NAMES])
def test_new_game_and_records_refuse_a_bad_name(name: str, why: str) -> None:
    with pytest.raises(InvalidRulesError, match=rf"player 1's name .*{re.escape(why)}") as info:
        cr.new_game(cr.ruleset("agurk"), players=["Ann", name, "Cy"])
    assert info.value.option == "players"
    with pytest.raises(InvalidRulesError, match="player 1's name"):
        cr.Record(cr.ruleset("agurk"), ["Ann", name, "Cy"], 0, [])


@pytest.mark.parametrize(("name", "why"), BAD_NAMES.items(), ids=[repr(n)[:20] for n in BAD_NAMES])
@pytest.mark.parametrize("kind", ["record", "state", "view"])
def test_loads_refuses_a_bad_name_naming_its_path(name: str, why: str, kind: str) -> None:
    state = _mid_match(players=3)
    value = {"record": cr.record(state), "state": state, "view": cr.view(state, 0)}[kind]
    doc = _doc(value)
    doc["players"][2] = name
    text = json.dumps(doc)  # (a lone surrogate travels as a JSON escape, as in the issue)
    error = _refusal(text)
    assert type(error) is InvalidStateError
    assert error.path == "$.players[2]"
    assert why in str(error)
    assert "\x1b" not in str(error)  # the message never repeats the name
    assert "\u202e" not in str(error)


def test_a_rule_set_name_follows_the_same_rule() -> None:
    with pytest.raises(InvalidRulesError, match="name holds a lone surrogate"):
        attrs.evolve(cr.ruleset("agurk"), name="\ud800")
    doc = _doc(cr.record(_mid_match()))
    doc["rules"]["name"] = "agurk\x1b]0;title\x07"
    error = _refusal(json.dumps(doc))
    assert isinstance(error, RulesDocumentError)
    assert error.path == "$.rules.name"


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_good_names_travel_through_every_document(name: str) -> None:
    state = _mid_match(players=3)
    state = cr.replay(cr.Record(state.rules, ["Ann", name, "Cy"], state.first, state.actions))
    for value in (state, cr.record(state), cr.view(state, 1)):
        text = cr.dumps(value)
        text.encode("utf-8")  # (what `replay` and `play --resume` write and read)
        assert cr.loads(text) == value


@settings(max_examples=200)
@given(st.text(max_size=70))
def test_any_name_is_refused_cleanly_or_written_as_utf8(name: str) -> None:
    state, error = _outcome(cr.new_game, cr.ruleset("gurka"), [name, "Bo"])
    if error is not None:
        assert isinstance(error, InvalidRulesError), repr(error)
        assert error.option == "players"
        return
    text = cr.dumps(cr.record(state))
    assert cr.loads(text.encode("utf-8")) == cr.record(state)


def test_replay_and_resume_of_a_file_with_a_bad_name_fail_cleanly(tmp_path: Path) -> None:
    typer_testing = pytest.importorskip("typer.testing")
    from cucumber_rules.cli import app

    doc = _doc(cr.record(_mid_match(preset="gurka", players=2)))
    doc["players"][0] = "\ud800"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")  # (ASCII: the surrogate stays an escape)
    runner = typer_testing.CliRunner()
    for args in (["replay", str(path)], ["play", "--resume", str(path)]):
        result = runner.invoke(app, args, input="quit\n")
        assert result.exit_code == 1, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert "$.players[0]" in result.output


# --------------------------------------------------------------------------- any JSON type anywhere


def test_format1_rules_whose_game_is_an_array_or_object() -> None:
    # Was a bare `TypeError: unhashable type: 'list'` (rules, record, view), or Python's own message (state).
    state = _mid_match()
    for kind, value in (("rules", state.rules), ("state", state), ("view", cr.view(state, 0))):
        for game in ([1], {"a": 1}, ["ladder"], 1.5, None, True):
            doc = _doc(value)
            doc["format"] = 1
            (doc if kind == "rules" else doc["rules"])["game"] = game
            error = _refusal(json.dumps(doc))
            assert isinstance(error, RulesDocumentError), (kind, game, error)
            assert error.path == ("$.game" if kind == "rules" else "$.rules.game"), error
            assert "unhashable" not in str(error)
    doc = _doc(cr.record(state))
    doc["format"] = 1
    doc["rules"]["game"] = ["ladder"]
    assert _refusal(json.dumps(doc)).path == "$.rules.game"  # type: ignore[union-attr]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):  # (the first items: the rest are alike)
            yield from _paths(item, (*path, i))


def _documents_of_every_format() -> list[dict[str, Any]]:
    docs = []
    for preset in ("agurk", "catastrophe"):
        state = _mid_match(preset=preset, players=3, rounds=1)
        docs += [_doc(v) for v in (state.rules, state, cr.view(state, 1), cr.score(state), cr.record(state))]
    fixtures = Path(__file__).resolve().parent / "data" / "format1"
    docs += [
        json.loads(fixtures.joinpath(name).read_text()) for name in ("agurk.rules.json", "agurk.score.json")
    ]
    docs += [
        json.loads(fixtures.joinpath(name).read_text())
        for name in ("agurk.record.json", "agurk.view-150-0.json")
    ]
    fixtures = fixtures.parent / "format2"  # (0.2's documents: the names format 3 changed)
    docs += [
        json.loads(fixtures.joinpath(name).read_text())
        for name in ("agurk.score.json", "catastrophe-surprise-cant_beat_em.view-61-1.json")
    ]
    return docs


@pytest.mark.parametrize(
    "replacement",
    [[], {}, [1, [2]], {"game": "ladder"}, "x" * 5000, ["y"] * 3000],
    ids=["[]", "{}", "nested", "object", "long text", "long array"],
)
def test_every_value_replaced_by_an_array_or_object_is_named(replacement: Any) -> None:
    """The class of the format-1 `game` bug: a JSON value used as a key, or read as a string; and a
    huge value is never quoted whole (every message is at most `MAX_MESSAGE` characters)."""
    for original in _documents_of_every_format():
        for path in _paths(original):
            if not path or path[0] == "format":
                continue
            doc = copy.deepcopy(original)
            parent = doc
            for step in path[:-1]:
                parent = parent[step]
            if parent[path[-1]] == replacement:
                continue
            parent[path[-1]] = copy.deepcopy(replacement)
            _, err = _outcome(cr.loads, json.dumps(doc))
            if err is not None:
                assert isinstance(err, InvalidStateError | InvalidRulesError), (path, repr(err))
                assert getattr(err, "path", "").startswith("$"), (path, err)
                assert "unhashable" not in str(err), (path, err)
                assert len(str(err)) <= cr.errors.MAX_MESSAGE, (path, str(err)[:200])


def test_a_format1_score_names_the_result_with_the_unknown_field() -> None:
    # Was refused as `$.results[0].payer: unknown field` (the game was guessed from every result).
    # Format 1 wrote no `game` in a score: the reader tells it from the results.
    fixtures = Path(__file__).resolve().parent / "data" / "format1"
    for name, game in (("agurk.score.json", "ladder"), ("catastrophe.score.json", "catastrophe")):
        doc = json.loads(fixtures.joinpath(name).read_text(encoding="utf-8"))
        assert "game" not in doc
        assert len(doc["results"]) >= 2
        loaded = cr.loads(json.dumps(doc))
        assert isinstance(loaded, cr.Score)
        assert loaded.game == game
        for bad in range(1, len(doc["results"])):
            broken = copy.deepcopy(doc)
            broken["results"][bad]["surprise"] = 1
            assert _refusal(json.dumps(broken)).path == f"$.results[{bad}].surprise"  # type: ignore[union-attr]


# --------------------------------------------------------------------------- views agree with their events


def _unchecked(doc: dict[str, Any]) -> cr.PlayerView:
    """The view a document holds, built by the converter alone (none of `loads`' checks)."""
    body = {k: v for k, v in doc.items() if k not in ("format", "kind")}
    view: cr.PlayerView = converter().structure(body, cr.PlayerView)
    return view


def _world_shows(view: cr.PlayerView) -> bool:
    """`sample_world` on `view` gives a world that shows exactly `view`, or raises the documented error."""
    world, err = _outcome(cr.sample_world, view, random.Random(3))
    if err is not None:
        assert type(err) is ValueError or isinstance(err, InvalidStateError), repr(err)
        return False
    assert cr.view(world, view.seat) == view
    return True


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("to_act", lambda d: d.update(to_act=(d["to_act"] + 1) % len(d["players"]))),
        ("dealer", lambda d: d.update(dealer=(d["dealer"] + 1) % len(d["players"]))),
        ("trick", lambda d: d.update(trick=d["trick"][:-1])),
        ("hand_sizes", lambda d: d["hand_sizes"].__setitem__(1, d["hand_sizes"][1] - 1)),
        ("leader", lambda d: d.update(leader=(d["leader"] + 1) % len(d["players"]))),
        ("tricks", lambda d: d.update(tricks=d["tricks"][:-1])),
        ("marks", lambda d: d["marks"].__setitem__(0, d["marks"][0] + 1)),
        ("standings", lambda d: d["standings"].reverse()),
        ("eliminated", lambda d: d["eliminated"].__setitem__(2, True)),
        ("totals", lambda d: d["totals"].__setitem__(0, d["totals"][0] + 1)),
    ],
)
def test_a_view_whose_fields_contradict_its_events_is_refused(
    field: str, change: Callable[[Any], None]
) -> None:
    # Such views loaded, and `sample_world` then gave a world whose view differed.
    state = _mid_match(players=3, rounds=2)
    while len(state.table.tricks) < 2 or not state.trick:  # type: ignore[union-attr]
        state = cr.apply(state, cr.legal_moves(state)[0])
    doc = _doc(cr.view(state, 0))
    change(doc)
    error = _refusal(json.dumps(doc))
    assert error.path.startswith(f"$.{field}"), error  # type: ignore[union-attr]
    with pytest.raises(InvalidStateError, match=rf"^\$\.{field}"):  # the same check, on a view not loaded
        cr.sample_world(_unchecked(doc), random.Random(1))


def test_sample_world_raises_only_documented_errors_on_the_issues_views() -> None:
    # `round_number: 2` with no results, and Gurka events after the deal reversed: `IndexError` before.
    state = _mid_match(preset="gurka", players=3, rounds=0)
    view = cr.view(state, 0)
    doc = _doc(view)
    doc["round_number"] = 2
    assert _refusal(json.dumps(doc)).path == "$.results"  # type: ignore[union-attr]
    with pytest.raises(InvalidStateError, match=r"^\$\.results: "):
        cr.sample_world(attrs.evolve(view, round_number=2), random.Random(1))
    while len(state.trick) < 2:
        state = cr.apply(state, cr.legal_moves(state)[0])
    view = cr.view(state, 1)
    doc = _doc(view)
    doc["events"] = doc["events"][:1] + doc["events"][1:][::-1]
    assert _refusal(json.dumps(doc)).path.startswith("$.events[")  # type: ignore[union-attr]
    reversed_events = (view.events[0], *view.events[1:][::-1])
    with pytest.raises(InvalidStateError, match=r"^\$\.events\["):
        cr.sample_world(attrs.evolve(view, events=reversed_events), random.Random(1))


Change = Callable[[dict[str, Any]], Any]


def _setting(**fields: Any) -> Change:
    return lambda d: d.update(fields)


def _nudging(key: str, index: int, by: int) -> Change:
    return lambda d: d[key].__setitem__(index, d[key][index] + by)


def _cutting(key: str) -> Change:
    return lambda d: d.update({key: d[key][:-1]})


def _reversing(key: str) -> Change:
    return lambda d: d[key].reverse()


def _clearing(key: str) -> Change:
    return lambda d: d.update({key: [] if isinstance(d[key], list) else None})


def _bumping_last_result(key: str) -> Change:
    def bump(d: dict[str, Any]) -> None:
        last = d["results"][-1]
        if type(last[key]) is int:
            last[key] += 1
        else:
            last[key][0] += 1
            if key == "points":
                d["round_points"][-1][0] += 1

    return bump


def _tampers(doc: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    """Copies of a view document with one field changed, by what was changed."""
    n = len(doc["players"])
    changes: list[tuple[str, Change]] = []
    for value in (None, -1, *range(n)):
        changes.append((f"to_act={value}", _setting(to_act=value)))
    for seat in range(n):
        changes += [(f"dealer={seat}", _setting(dealer=seat)), (f"leader={seat}", _setting(leader=seat))]
        for by in (-1, 1):
            changes.append((f"hand_sizes[{seat}]{by:+}", _nudging("hand_sizes", seat, by)))
            changes.append((f"totals[{seat}]{by:+}", _nudging("totals", seat, by)))
    for key in ("trick", "tricks", "events", "legal", "results", "standings"):
        changes += [(f"{key} without its last", _cutting(key)), (f"{key} reversed", _reversing(key))]
    events = doc["events"]
    shuffled = list(events)
    rng.shuffle(shuffled)
    changes.append(("events after the deal reversed", _setting(events=events[:1] + events[1:][::-1])))
    changes.append(("events shuffled", _setting(events=shuffled)))
    for number in (0, 1, 2, doc["round_number"] - 1, doc["round_number"] + 1):
        changes.append((f"round_number={number}", _setting(round_number=number)))
    changes.append(("no results", _setting(results=[], round_points=[])))
    if doc["seat"] is not None:
        changes.append(("another seat", _setting(seat=(doc["seat"] + 1) % n)))
        changes.append(("a spectator", _setting(seat=None)))
    changes += [("hand without its last", _cutting("hand")), ("hand reversed", _reversing("hand"))]
    if doc["hand"] and doc["trick"]:  # a card of the trick in the hand instead
        changes.append(("hand swapped", _setting(hand=sorted([*doc["hand"][1:], doc["trick"][0]["card"]]))))
    changes.append(("events without the deal", _setting(events=events[1:])))
    changes.append(("the deal twice", _setting(events=events[:1] + events)))
    changes.append(("first moved", _setting(first=(doc["first"] + 1) % n)))
    changes.append(("winners", _setting(winners=[0])))
    if "marks" in doc:  # (the ladder's: other games' views have no marks nor eliminations)
        changes.append(("marks", _nudging("marks", 0, 1)))
        flipped = [not doc["eliminated"][0], *doc["eliminated"][1:]]
        changes.append(("eliminated", _setting(eliminated=flipped)))
    changes += [
        (f"{key} cleared", _clearing(key))
        for key in ("sitting_out", "pending", "marker", "revealed", "captured")
        if key in doc
    ]
    if doc["results"]:
        last = doc["results"][-1]
        for key, value in last.items():
            if key != "number" and (
                type(value) is int or (type(value) is list and value and type(value[0]) is int)
            ):
                changes.append((f"last result's {key}", _bumping_last_result(key)))
        if "card" in last:
            other = "2C" if last["card"] != "2C" else "3C"
            changes.append(("last result's card", lambda d: d["results"][-1].update(card=other)))
    for name, change in changes:
        new = copy.deepcopy(doc)
        try:
            change(new)
        except (IndexError, KeyError, TypeError):  # (a field that is empty or absent here)
            continue
        if new != doc:
            yield name, new


def _tamper_views() -> Iterator[tuple[str, cr.PlayerView]]:
    for preset, options, players in VARIANTS:
        rules = cr.ruleset(preset, **options)
        for seed in range(TAMPER_MATCHES):
            played = random_states(rules, players, seed=seed, limit=600)
            cuts = [*played[:: max(1, len(played) // TAMPER_CUTS)], played[-1]]
            for i, state in enumerate(cuts):
                seat = None if i % 3 == 2 else (seed + i) % players  # (a spectator now and then)
                yield (
                    f"{preset}{options} seed {seed} action {len(state.actions)} seat {seat}",
                    cr.view(state, seat),
                )


def test_tampered_views_are_refused_or_possible() -> None:
    """Honest views load as they are; a changed field is refused naming a path, or the changed view is
    one some match shows (`sample_world` builds it); `sample_world` on the changed view (not loaded)
    raises only the documented error."""
    refused = accepted = 0
    for where, view in _tamper_views():
        doc = _doc(view)
        assert cr.loads(json.dumps(doc)) == view, where
        for name, changed in _tampers(doc, random.Random(len(where))):
            loaded, err = _outcome(cr.loads, json.dumps(changed))
            if err is not None:
                assert isinstance(err, InvalidStateError | InvalidRulesError), (where, name, repr(err))
                assert getattr(err, "path", "").startswith("$"), (where, name, err)
                refused += 1
                unloaded, bad_shape = _outcome(_unchecked, changed)
                if bad_shape is not None:  # (not even the shape of a view)
                    continue
                _, err = _outcome(cr.sample_world, unloaded, random.Random(1))
                # The documented error (an InvalidStateError is a ValueError), never a world or a crash.
                assert type(err) is ValueError or isinstance(err, InvalidStateError), (where, name, repr(err))
                continue
            accepted += 1
            assert isinstance(loaded, cr.PlayerView)
            assert _world_shows(loaded), (where, name)
    assert refused > 10 * accepted  # (the changes that are still possible are few: e.g. `first` early on)


def test_results_after_the_end_of_the_match_are_refused() -> None:
    for preset, option in (("catastrophe", "hand_count"), ("gurka", "fixed_rounds")):
        state = _mid_match(preset=preset, players=3, rounds=2, **{option: 3})
        doc = _doc(cr.view(state, 0))
        doc["rules"][option] = 1  # (the match ended after its first round: two results are one too many)
        error = _refusal(json.dumps(doc))
        assert error.path == "$.results[1]", error  # type: ignore[union-attr]
        assert "the match was over" in str(error)


@settings(max_examples=25)
@given(states(max_actions=500), st.data())
def test_honest_views_of_random_rules_load_and_sample(state: cr.State, data: st.DataObject) -> None:
    """No honest view is refused, whatever the rules (the check of the results is exact for them)."""
    seat = data.draw(st.sampled_from([*range(len(state.players)), None]))
    view = cr.view(state, seat)
    assert cr.loads(cr.dumps(view)) == view
    assert _world_shows(view)


def test_a_plugin_game_gets_the_checks_that_need_no_knowledge_of_it() -> None:
    """A game without its own `check_view` (High Card, a test plug-in): a first-round view is checked
    against its events by the library; a later view by `sample_world`, which checks the world it builds."""
    from cucumber_rules.testing import registered
    from plugins.highcard import GAME

    with registered(GAME):
        rules = cr.ruleset("highcard")
        rng = random.Random(2)
        state = cr.apply(cr.new_game(rules, 3), cr.sample_chance(cr.new_game(rules, 3), rng))
        viewer = (state.to_act + 2) % 3  # type: ignore[operator]  # (not to act: it has no legal moves)
        doc = _doc(cr.view(state, viewer))
        doc["to_act"] = (doc["to_act"] + 1) % 3
        assert _refusal(json.dumps(doc)).path == "$.to_act"  # type: ignore[union-attr]
        while state.match.rounds < 2 or state.to_act == cr.CHANCE:
            moves = cr.legal_moves(state)
            state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
        viewer = (state.to_act + 2) % 3  # type: ignore[operator]
        view = cr.view(state, viewer)
        assert _world_shows(view)
        tampered = attrs.evolve(view, to_act=(view.to_act + 1) % 3)  # type: ignore[operator]
        with pytest.raises(InvalidStateError, match=r"^\$\.to_act: "):
            cr.sample_world(tampered, random.Random(1))


# --------------------------------------------------------------------------- the work a refusal does


def _long_view(rounds: int) -> cr.PlayerView:
    return cr.view(_mid_match(preset="gurka", players=2, rounds=rounds, fixed_rounds=rounds + 5), 0)


def test_an_impossible_last_result_is_refused_before_any_round_is_rebuilt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = _long_view(40)
    last = ladder_result(view.results[-1])
    seat = last.payer
    bump = tuple(p + (s == seat) for s, p in enumerate(last.points))
    totals = tuple(t + (s == seat) for s, t in enumerate(last.totals))
    bad = attrs.evolve(last, points=bump, totals=totals)
    tampered = attrs.evolve(
        view, results=(*view.results[:-1], bad), round_points=(*view.round_points[:-1], bump), totals=totals
    )
    rebuilt: list[int] = []
    sampling = cr.GAMES["ladder"].sampling
    original = type(sampling).rebuild_round

    def counting(self: Any, state: cr.State, v: cr.PlayerView, index: int, rng: random.Random) -> cr.State:
        rebuilt.append(index)
        return original(self, state, v, index, rng)

    monkeypatch.setattr(type(sampling), "rebuild_round", counting)
    with pytest.raises(InvalidStateError, match=rf"^\$\.results\[{len(view.results) - 1}\]\.points"):
        cr.sample_world(tampered, random.Random(1))
    assert rebuilt == []
    error = _refusal(cr.dumps(tampered))
    assert error.path.startswith(f"$.results[{len(view.results) - 1}]")  # type: ignore[union-attr]
    assert rebuilt == []
    assert cr.view(cr.sample_world(view, random.Random(1)), 0) == view
    assert rebuilt == list(range(len(view.results)))  # (an honest view: every earlier round rebuilt)


def test_checking_a_view_plays_a_handful_of_cards_per_earlier_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ladder checks a result from its last trick alone: a few plays more for each round."""
    game = cr.GAMES["ladder"]
    plays: list[int] = []
    original = type(game).play

    def counting(self: Any, state: cr.State, play: cr.Play) -> cr.State:
        plays.append(1)
        after: cr.State = original(self, state, play)
        return after

    for rounds in (10, 40):
        view = _long_view(rounds)
        text = cr.dumps(view)
        with monkeypatch.context() as patched:
            patched.setattr(type(game), "play", counting)  # (the game's own rule of play: a class hook)
            plays.clear()
            assert cr.loads(text) == view
        # 2 seats, a candidate or two each (and at least the last trick's play of every round)
        assert rounds <= len(plays) <= 2 * 2 * rounds + 40, (rounds, len(plays))


def test_the_default_size_limit() -> None:
    assert MAX_LENGTH == 500_000
    text = cr.dumps(_long_view(3))
    padded = text[:-1] + " " * (MAX_LENGTH - len(text)) + "}"
    assert cr.loads(padded) == cr.loads(text)
    with pytest.raises(InvalidStateError, match="too large"):
        cr.loads(padded + " ")
    assert cr.loads(padded + " ", max_length=MAX_LENGTH + 1) == cr.loads(text)  # (the caller can raise it)


def test_the_hostile_documents_benchmark_builds_what_it_says() -> None:
    rows = {r.document: r for r in hostile_documents.measure(limit=40_000, repeats=1)}
    for name, row in rows.items():
        assert row.chars <= 40_000, name
        if "honest" in name or "most results" in name:
            assert row.outcome == "accepted", (name, row.outcome)
        else:
            assert row.outcome.startswith("refused: InvalidStateError"), (name, row.outcome)
    impossible = [r for n, r in rows.items() if "impossible" in n]
    assert len(impossible) == 3
    assert all(".points" in r.outcome for r in impossible)
