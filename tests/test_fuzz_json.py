"""Fuzzing `loads`: random documents and mutations of valid ones never crash it (issue 5).

Whatever the input, `loads` either returns a valid object or raises `InvalidStateError`
(or `InvalidRulesError` for bad rules) naming a JSON path; never another exception.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import cucumber_rules as cr
from cucumber_rules import InvalidRulesError, InvalidStateError, State
from cucumber_rules.serialization import RulesDocumentError
from helpers import random_states

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["QS", "10H", "42", "1", "AS", "0", "61", "QX", "deal", "play", "revive", "state"]),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _must_fail_cleanly_or_load(text: str | bytes, *, in_hypothesis: bool = True) -> Any:
    """Load; a failure must be one of the library's path-naming errors."""
    error: InvalidStateError | InvalidRulesError | None = None
    try:
        obj = cr.loads(text)
    except (InvalidStateError, InvalidRulesError) as err:
        error = err
    if error is not None:
        if in_hypothesis:
            event(f"rejected: {type(error).__name__}")
        path = error.path if isinstance(error, InvalidStateError | RulesDocumentError) else None
        assert path is not None, f"an InvalidRulesError without a path: {error!r}"
        assert path.startswith("$"), path
        assert str(error).startswith(path + ": ")
        assert "engine error" not in str(error), str(error)  # an engine crash, converted: a core bug
        return None
    # It loaded: then it is a valid object that round-trips.
    if in_hypothesis:
        event(f"loaded: {type(obj).__name__}")
    assert cr.loads(cr.dumps(obj)) == obj
    if isinstance(obj, State):
        assert cr.replay(cr.record(obj)) == obj
    return obj


@functools.cache
def _valid_documents() -> tuple[str, ...]:
    """Valid documents of every kind, from random matches of every preset that plays."""
    docs: list[str] = []
    for name in cr.RULESETS:
        rules = cr.ruleset(name)
        try:
            states = random_states(rules, rules.min_players, seed=len(docs), limit=60)
        except Exception:  # a game whose engine does not play yet
            continue
        for s in (states[0], states[len(states) // 2], states[-1]):
            docs += [cr.dumps(x) for x in (s, cr.view(s, 0), cr.view(s, None), cr.score(s), cr.record(s))]
        docs.append(cr.dumps(rules))
    # Documents of format 1 (cucumber_rules 0.1) too: they take another path through `loads`.
    fixtures = Path(__file__).resolve().parent / "data" / "format1"
    for name in ("agurk.rules.json", "agurk.record.json", "agurk.score.json", "agurk.state-3.json"):
        docs.append(fixtures.joinpath(name).read_text(encoding="utf-8"))
    docs += [p.read_text(encoding="utf-8") for p in sorted(fixtures.glob("catastrophe*.score.json"))[:1]]
    # And of format 2 (0.2), whose renamed and retired fields are read by `format2.upgrade`.
    fixtures = fixtures.parent / "format2"
    for name in (
        "agurk.score.json",
        "agurk.view-208-1.json",
        "catastrophe-surprise-cant_beat_em.rules.json",
        "catastrophe-surprise-cant_beat_em.view-61-2.json",
        "catastrophe-surprise-cant_beat_em.score.json",
        "gurka-revival.state-3.json",
    ):
        docs.append(fixtures.joinpath(name).read_text(encoding="utf-8"))
    return tuple(docs)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*path, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _mutate(doc: Any, rng: random.Random, data: st.DataObject) -> Any:
    """One random structural change somewhere in the document."""
    paths = _paths(doc)
    path = rng.choice(paths)
    if not path:
        return data.draw(json_values)
    parent = _get(doc, path[:-1])
    key = path[-1]
    old = parent[key]
    op = rng.randrange(9)
    if op == 0:  # replace with a random value
        parent[key] = data.draw(json_values)
    elif op == 1:  # delete
        del parent[key]
    elif op == 2:  # add an unknown key or an extra element
        if isinstance(parent, dict):
            parent[data.draw(st.text(max_size=6))] = data.draw(json_values)
        else:
            parent.insert(key, copy.deepcopy(old))
    elif op == 3 and type(old) is int:  # nudge a number
        parent[key] = old + rng.choice([-2, -1, 1, 2, 60, -(2**40)])
    elif op == 4 and isinstance(old, str):  # another card, or a near miss
        parent[key] = rng.choice(
            ["QS", "2C", "AS", "10H", "1", "15", "42", "60", "61", "0", "QX", "", old + "S"]
        )
    elif op == 5 and isinstance(old, list) and len(old) > 1:  # reorder
        rng.shuffle(old)
    elif op == 6 and isinstance(old, bool):
        parent[key] = not old
    elif op == 7:  # a value of the wrong type
        parent[key] = rng.choice([None, 0, "", [], {}, True, 1.5])
    elif isinstance(parent, list) and len(parent) > 1:  # swap with a sibling
        other = rng.randrange(len(parent))
        parent[key], parent[other] = parent[other], parent[key]
    elif isinstance(parent, dict):  # copy a sibling's value
        parent[key] = copy.deepcopy(rng.choice(list(parent.values())))
    return doc


@_SETTINGS
@given(json_values)
def test_random_json_values(value: Any) -> None:
    _must_fail_cleanly_or_load(json.dumps(value))


@_SETTINGS
@given(
    st.dictionaries(
        st.sampled_from(["format", "kind", "rules", "players", "first", "actions", "x"]), json_values
    )
)
def test_random_documents_with_plausible_keys(doc: dict[str, Any]) -> None:
    doc.setdefault("format", 1)
    _must_fail_cleanly_or_load(json.dumps(doc))


@_SETTINGS
@given(st.sampled_from(sorted(cr.serialization.KINDS)), json_values, st.data())
def test_random_bodies_of_each_kind(kind: str, value: Any, data: st.DataObject) -> None:
    body = value if isinstance(value, dict) else {"x": value}
    _must_fail_cleanly_or_load(json.dumps({"format": 1, "kind": kind, **body}))


@_SETTINGS
@given(st.text(max_size=60))
def test_random_text(text: str) -> None:
    _must_fail_cleanly_or_load(text)


@_SETTINGS
@given(st.binary(max_size=60))
def test_random_bytes(raw: bytes) -> None:
    _must_fail_cleanly_or_load(raw)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32 - 1), st.integers(1, 3))
def test_mutated_valid_documents(data: st.DataObject, seed: int, count: int) -> None:
    rng = random.Random(seed)
    text = data.draw(st.sampled_from(_valid_documents()))
    doc = json.loads(text)
    for _ in range(count):
        doc = _mutate(doc, rng, data)
    _must_fail_cleanly_or_load(json.dumps(doc))


@_SETTINGS
@given(st.data(), st.integers(0, 2**32 - 1))
def test_mutated_valid_text(data: st.DataObject, seed: int) -> None:
    rng = random.Random(seed)
    text = data.draw(st.sampled_from(_valid_documents()))
    i = rng.randrange(len(text) + 1)
    op = rng.randrange(4)
    if op == 0:
        text = text[:i]
    elif op == 1:
        text = text[:i] + data.draw(st.sampled_from(list('{}[],:"\\0123456789-etrufalsn QSX'))) + text[i:]
    elif op == 2:
        text = text[:i] + text[i + 1 :]
    else:
        text = text[:i] + "[" * rng.randrange(1, 40) + text[i:]
    _must_fail_cleanly_or_load(text)


def test_valid_documents_load() -> None:
    docs = _valid_documents()
    assert len(docs) >= 4 * 16
    for text in docs:
        assert _must_fail_cleanly_or_load(text, in_hypothesis=False) is not None
