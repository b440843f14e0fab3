"""The JSON Schemas of cucumber_rules.schema: every document the library writes is valid, and the
schemas refuse the hostile documents `loads` refuses wherever a schema can express the rule (issue 37)."""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import given

import cucumber_rules as cr
from cucumber_rules import schema
from cucumber_rules.bots import Bot, HeuristicBot, RandomBot
from cucumber_rules.testing import strategies
from helpers import random_states

Validator = jsonschema.Draft202012Validator


@functools.cache
def validator(kind: str, game: str | None = None) -> jsonschema.protocols.Validator:
    return Validator(schema.json_schema(kind, game), format_checker=Validator.FORMAT_CHECKER)


def problems(doc: Any, kind: str, game: str | None = None) -> list[str]:
    return [f"{e.json_path}: {e.message[:300]}" for e in validator(kind, game).iter_errors(doc)]


def assert_valid(text: str) -> None:
    """Valid against its kind's schema for every game, and for its own game."""
    doc = json.loads(text)
    kind = doc["kind"]
    game = doc["game"] if kind == "score" else (doc["rules"] if kind != "rules" else doc)["game"]
    assert problems(doc, kind) == [], text[:500]
    assert problems(doc, kind, game) == [], text[:500]


# --------------------------------------------------------------------------- the schemas themselves


@pytest.mark.parametrize("kind", schema.KINDS)
def test_every_schema_is_a_valid_draft_2020_12_schema(kind: str) -> None:
    for game in (None, *cr.GAMES):
        s = schema.json_schema(kind, game)
        Validator.check_schema(s)
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert s["$id"] == schema.schema_id(kind, game if kind != "error" else None)
        assert s["title"]
        assert s.get("description") or kind == "error"


def test_ids_are_unique_and_name_the_format() -> None:
    ids = [json.loads(text)["$id"] for text in schema.schema_files().values()]
    assert len(ids) == len(set(ids))
    assert all(f"format-{cr.FORMAT_VERSION}" in i for i in ids)


def test_descriptions_come_from_the_docs() -> None:
    view = schema.json_schema("view", "catastrophe")
    assert view["properties"]["seat"]["description"] == "The viewer's seat; None for a spectator."
    assert view["properties"]["marker"]["description"].startswith("The Trick Marker")
    rules = schema.json_schema("rules", "ladder")
    assert rules["properties"]["threshold"]["description"] == cr.OPTIONS["threshold"].meaning
    assert rules["properties"]["follow"]["enum"] == list(cr.OPTIONS["follow"].choices or ())
    error = schema.json_schema("error")
    for code, meaning in {**cr.ERROR_CODES, **schema.PROTOCOL_CODES}.items():
        assert f"{code}: {meaning}" in error["properties"]["code"]["description"]


def test_per_game_shapes_differ_where_the_games_differ() -> None:
    ladder, cat = schema.json_schema("rules", "ladder"), schema.json_schema("rules", "catastrophe")
    assert "threshold" in ladder["properties"]
    assert "threshold" not in cat["properties"]
    assert "surprise" in cat["properties"]
    assert "surprise" not in ladder["properties"]
    cat_cards = schema.json_schema("view", "catastrophe")["$defs"]["card"]["enum"]
    ladder_cards = schema.json_schema("view", "ladder")["$defs"]["card"]["enum"]
    assert set(cat_cards) == {str(c) for c in cr.DECKS["numbered-60"]}
    assert "QS" in ladder_cards
    assert "15" in ladder_cards
    assert "16" not in ladder_cards


def test_scores_and_views_have_their_games_own_fields() -> None:
    """Format 3: marks and eliminations are the ladder's alone; the rows are `round_points` everywhere."""
    for kind in ("score", "view"):
        ladder, cat = schema.json_schema(kind, "ladder"), schema.json_schema(kind, "catastrophe")
        assert {"marks", "eliminated", "round_points"} <= set(ladder["required"]), kind
        assert "round_points" in cat["required"], kind
        assert not {"marks", "eliminated", "rounds"} & set(cat["properties"]), kind
        assert "rounds" not in ladder["properties"], kind
    result = schema.json_schema("score", "ladder")["$defs"]["LadderResult"]
    assert {"marked", "went_out"} <= set(result["properties"])
    assert not {"marks", "eliminated"} & set(result["properties"])


@pytest.mark.parametrize("kind", ["score", "view"])
def test_a_ladder_field_in_a_catastrophe_document_is_refused_by_both(kind: str) -> None:
    state = random_states(cr.ruleset("catastrophe", hand_count=2, hand_size=3), 3, seed=1, limit=14)[-1]
    assert cr.score(state).results  # (a hand played: rows and results to show)
    doc = json.loads(cr.dumps(cr.score(state) if kind == "score" else cr.view(state, 0)))
    assert problems(doc, kind) == []
    for field, value in (("marks", [0, 0, 0]), ("eliminated", [False] * 3), ("rounds", [])):
        bad = {**doc, field: value}
        assert _refused_by_loads(bad), field
        assert problems(bad, kind, "catastrophe"), field
        assert problems(bad, kind), field  # (nor is it any other game's document)


def test_a_schema_is_a_new_value_each_call() -> None:
    a = schema.json_schema("view")
    a["$defs"].clear()
    assert schema.json_schema("view")["$defs"]


def test_unknown_kinds_and_games_are_calling_mistakes() -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        schema.json_schema("sandwich")
    with pytest.raises(ValueError, match="unknown game"):
        schema.json_schema("view", "hearts")


def test_schema_files_are_json_for_every_kind_and_game() -> None:
    files = schema.schema_files()
    expected = {f"{k}.json" for k in schema.KINDS} | {
        f"{g}/{k}.json" for g in cr.GAMES for k in schema.KINDS if k != "error"
    }
    assert set(files) == expected
    for text in files.values():
        Validator.check_schema(json.loads(text))


# --------------------------------------------------------------------------- every document written


def variants() -> Iterator[cr.Rules]:
    """Every preset, then each preset with each other value of every option that has choices."""
    for name in cr.RULESETS:
        base = cr.ruleset(name)
        yield base
        for option in cr.OPTIONS.values():
            if base.game not in option.games or option.choices is None:
                continue
            for value in option.choices:
                if value == getattr(base, option.name):
                    continue
                try:
                    yield cr.ruleset(name, **{option.name: value})
                except cr.InvalidRulesError:
                    continue  # a combination the rules refuse


VARIANTS = list(dict.fromkeys(variants()))


def short(rules: cr.Rules) -> cr.Rules:
    """The rules with a short hand and match (a whole match in the test's time), where they allow it."""
    shorter: tuple[dict[str, int], ...] = (
        {"hand_size": 2, "threshold": 6},
        {"hand_size": 2, "hand_count": 2},
        {"hand_size": 2},
        {},
    )
    for options in shorter:
        try:
            return rules.replace(**{k: v for k, v in options.items() if k in rules.options()})
        except cr.InvalidRulesError:
            continue
    return rules


def documents(rules: cr.Rules, seed: int, every: int = 9, players: int | None = None) -> Iterator[str]:
    """Every kind of document at several points of a whole match: rules, states, views of every seat
    and the spectator, scores, records, actions, and the error of an illegal move."""
    rng = random.Random(seed)
    if players is None:
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    state = cr.new_game(rules, players=[f"P{i}" for i in range(players)], first=seed % players)
    bots: list[Bot] = [HeuristicBot(), RandomBot()]
    yield cr.dumps(rules)
    step = 0
    while True:
        if step % every == 0 or state.is_over:
            yield cr.dumps(state)
            yield cr.dumps(cr.score(state))
            yield cr.dumps(cr.record(state))
            for seat in (*range(players), None):
                yield cr.dumps(cr.view(state, seat))
            for action in cr.legal_moves(state)[:3]:
                yield json.dumps(schema.action_document(action))
            wrong = cr.Play(0, cr.DECKS[rules.deck][0])
            error = cr.check(state, wrong)
            if error is not None:
                yield json.dumps(schema.error_document(error))
        if state.is_over:
            return
        if state.to_act == cr.CHANCE:
            action = cr.sample_chance(state, rng)
            yield json.dumps(schema.action_document(action))
        else:
            action = bots[step % 2].choose(cr.view(state, state.to_act), rng)
        state = cr.apply(state, action)
        step += 1


def variant_id(rules: cr.Rules) -> str:
    preset = cr.ruleset(rules.name)
    changed = [f"{k}={v}" for k, v in rules.options().items() if getattr(preset, k) != v]
    return "-".join([rules.name, *changed])


@pytest.mark.parametrize("rules", VARIANTS, ids=variant_id)
def test_every_document_of_a_whole_match_is_valid(rules: cr.Rules) -> None:
    seen = set()
    for text in documents(short(rules), seed=len(VARIANTS) % 7 + 3):
        doc = json.loads(text)
        kind = doc["kind"]
        seen.add(kind)
        if kind == "error":
            assert problems(doc, kind) == [], text
        elif kind == "action":
            assert problems(doc, kind, rules.game) == [], text
        else:
            assert problems(doc, kind, _game(doc)) == [], text[:500]
    assert seen == set(schema.KINDS)


@pytest.mark.parametrize("name", list(cr.RULESETS))
def test_a_whole_match_at_the_presets_own_sizes_is_valid(name: str) -> None:
    for text in documents(cr.ruleset(name), seed=11, every=97, players=cr.ruleset(name).min_players):
        if json.loads(text)["kind"] not in ("action", "error"):
            assert_valid(text)


@given(strategies.states())
def test_documents_of_any_state_are_valid(state: cr.State) -> None:
    assert_valid(cr.dumps(state))
    assert_valid(cr.dumps(cr.score(state)))
    for seat in (*range(len(state.players)), None):
        assert_valid(cr.dumps(cr.view(state, seat)))


# --------------------------------------------------------------------------- action and error documents


def test_action_documents_round_trip() -> None:
    for action in (cr.Play(3, "10H"), cr.Revive(1, False), cr.Deal(hands=[["2C"], ["3C"]], leader=1)):
        doc = schema.action_document(action)
        assert schema.read_action(json.loads(json.dumps(doc))) == action
        assert problems(doc, "action") == []


def test_format_2_action_documents_still_read() -> None:
    # the 0.2 development server's clients sent format 2; an action's layout did not change in format 3
    doc = {"format": 2, "kind": "action", "type": "revive", "seat": 1, "accept": False}
    assert schema.read_action(doc) == cr.Revive(1, False)
    with pytest.raises(cr.InvalidStateError) as caught:
        schema.read_action({**doc, "format": 4})
    assert caught.value.path == "$.format"


@pytest.mark.parametrize(
    ("doc", "path"),
    [
        ([], "$"),
        ({"format": 1, "kind": "action", "type": "play", "seat": 0, "card": "2C"}, "$.format"),
        ({"format": 3, "kind": "view", "type": "play", "seat": 0, "card": "2C"}, "$.kind"),
        ({"format": 3, "kind": "action", "type": "cheat", "seat": 0}, "$.type"),
        ({"format": 3, "kind": "action", "type": "play", "seat": "0", "card": "2C"}, "$.seat"),
        ({"format": 3, "kind": "action", "type": "play", "seat": 0, "card": "2X"}, "$.card"),
        ({"format": 3, "kind": "action", "type": "play", "seat": 0, "card": "2C", "x": 1}, "$.x"),
        ({"format": 3, "kind": "action", "type": "play", "seat": 99, "card": "2C"}, "$.seat"),
        ({"format": 3, "kind": "action", "type": "revive", "seat": 0, "accept": 1}, "$.accept"),
        ({"format": 3, "kind": "action", "type": "play", "seat": 0}, "$.card"),
    ],
)
def test_bad_action_documents_are_refused_by_both(doc: Any, path: str) -> None:
    with pytest.raises(cr.InvalidStateError) as caught:
        schema.read_action(doc)
    assert caught.value.path == path
    assert problems(doc, "action"), doc


def test_error_documents() -> None:
    rules = cr.ruleset("agurk")
    state = cr.apply(cr.new_game(rules, players=3), cr.Deal(hands=[["2C"] * 0 + c for c in _hands()]))
    error = cr.check(state, cr.Play(0, "AS"))
    assert error is not None
    doc = schema.error_document(error)
    assert doc["code"] == "not-in-hand"
    assert doc["seat"] == 0
    assert doc["path"] is None
    assert problems(doc, "error") == []
    for err, code in (
        (cr.InvalidRulesError("threshold", "too low"), "invalid-rules"),
        (cr.InvalidStateError("$.card", "bad"), "invalid-document"),
        (cr.InvalidNotationError("'QX' is not a card"), "invalid-document"),
    ):
        d = schema.error_document(err)
        assert d["code"] == code
        assert problems(d, "error") == []
    long = schema.protocol_error("too-large", "x" * 5000)
    assert problems(long, "error") == []
    with pytest.raises(ValueError, match="unknown error code"):
        schema.protocol_error("nope", "no")
    with pytest.raises(TypeError):
        schema.error_document(ValueError("no"))  # type: ignore[arg-type]
    assert problems({**doc, "code": "nope"}, "error")
    assert problems({k: v for k, v in doc.items() if k != "message"}, "error")


def _hands() -> list[list[str]]:
    return [
        ["2C", "3C", "4C", "5C", "6C", "7C", "KC"],
        ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H"],
    ]


# --------------------------------------------------------------------------- hostile documents


def _sample_documents() -> list[str]:
    out = []
    for rules, seed in (
        (cr.ruleset("agurk", hand_size=3), 1),
        (cr.ruleset("gurka", revival=True, hand_size=2, threshold=5), 2),
        (cr.ruleset("catastrophe", surprise=True, hand_size=3, hand_count=2), 3),
    ):
        texts = list(documents(rules, seed))
        for kind in ("rules", "state", "view", "score", "record"):
            mine = [t for t in texts if json.loads(t)["kind"] == kind]
            out.append(mine[len(mine) // 2])
    return out


SAMPLES = _sample_documents()


def _all_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _all_paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:2]):  # the first items stand for the rest
            yield from _all_paths(item, (*path, i))


def _paths(value: Any, limit: int = 60) -> list[tuple[tuple[Any, ...], Any]]:
    """Paths into a document: every one, or `limit` of them spread evenly (a state holds hundreds)."""
    found = list(_all_paths(value))
    return found if len(found) <= limit else found[:: len(found) // limit + 1]


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = copy.deepcopy(doc)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def _refused_by_loads(doc: Any) -> bool:
    try:
        cr.loads(json.dumps(doc))
    except (cr.InvalidStateError, cr.InvalidRulesError):
        return True
    return False


def _other_type(value: Any) -> Any:
    """A value of another JSON type."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"0": value}
    if isinstance(value, dict):
        return [value]
    return []  # null


@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_a_value_of_the_wrong_type_anywhere_is_refused_by_both(index: int) -> None:
    """The class of defect "a field of the wrong JSON type": every path of a document (the first items
    of each array) is given a value of another type; loads and the schema both refuse every one."""
    doc = json.loads(SAMPLES[index])
    for path, value in _paths(doc):
        if not path or path[-1] in ("format", "kind"):
            continue
        bad = _set(doc, path, _other_type(value))
        assert _refused_by_loads(bad), path
        assert problems(bad, doc["kind"], _game(doc)), path


@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_a_missing_or_unknown_field_anywhere_is_refused_by_both(index: int) -> None:
    doc = json.loads(SAMPLES[index])
    for path, value in _paths(doc):
        if not isinstance(value, dict):
            continue
        for key in list(value)[:: max(1, len(value) // 6)]:
            target = copy.deepcopy(doc)
            inner = target
            for step in path:
                inner = inner[step]
            del inner[key]
            assert _refused_by_loads(target), (*path, key)
            assert problems(target, doc["kind"], _game(doc)), (*path, key)
        bad = _set(doc, (*path, "sneaky"), 1) if path else {**doc, "sneaky": 1}
        assert _refused_by_loads(bad), path
        assert problems(bad, doc["kind"], _game(doc)), path
    assert problems({**doc, "sneaky": 1}, doc["kind"])  # and the schema of every game


def _game(doc: dict[str, Any]) -> str:
    return str(doc["game"] if doc["kind"] in ("score", "rules") else doc["rules"]["game"])


HOSTILE: list[tuple[str, str, str, str]] = [
    # (what, kind, JSON to find in the document, its replacement)
    ("unknown format", "rules", '"format":3', '"format":4'),
    ("an older format's name for a field", "score", '"round_points":', '"rounds":'),
    ("unknown kind", "rules", '"kind":"rules"', '"kind":"sandwich"'),
    ("unknown game", "rules", '"game":"ladder"', '"game":"hearts"'),
    ("option of another game", "rules", '"threshold":21', '"threshold":21,"surprise":true'),
    ("option outside its choices", "rules", '"follow":"optional-lowest"', '"follow":"sometimes"'),
    ("unknown deck", "rules", '"deck":"standard-52"', '"deck":"tarot-78"'),
    ("a number as a string", "rules", '"threshold":21', '"threshold":"21"'),
    ("a float for an integer", "rules", '"threshold":21', '"threshold":21.5'),
    ("a boolean as a number", "rules", '"tie_bonus":true', '"tie_bonus":1'),
    ("a card that is no card", "record", '"card":"', '"card":"Z'),
    ("a card of another game's deck", "record", '"card":"', '"card":"5'),
    ("an action of an unknown type", "record", '"type":"play"', '"type":"cheat"'),
    ("a seat no table has", "record", '"seat":1', '"seat":99'),
    ("a negative seat", "record", '"seat":1', '"seat":-3'),
    ("a view of an unknown game", "view", '"game":"ladder"', '"game":"hearts"'),
    ("a view's seat as a string", "view", '"seat":1', '"seat":"1"'),
    ("a catastrophe field in a ladder view", "view", '"pending":[]', '"pending":[],"marker":null'),
    ("a score of an unknown game", "score", '"game":"ladder"', '"game":"hearts"'),
    ("null for a list", "score", '"winners":[]', '"winners":null'),
    ("a state's table of the wrong shape", "state", '"table":{', '"table":{"x":1,'),
]


@functools.cache
def _agurk_documents() -> dict[str, str]:
    out: dict[str, str] = {}
    state = cr.new_game(cr.ruleset("agurk"), players=3)
    state = cr.apply(state, cr.Deal(hands=_hands()))
    for action in (cr.Play(0, "KC"), cr.Play(1, "2D"), cr.Play(2, "2H")):
        state = cr.apply(state, action)
    state = cr.apply(state, cr.Play(0, "2C"))
    out |= {"rules": cr.dumps(state.rules), "record": cr.dumps(cr.record(state)), "state": cr.dumps(state)}
    out |= {"view": cr.dumps(cr.view(state, 1)), "score": cr.dumps(cr.score(state))}
    return out


@pytest.mark.parametrize(("what", "kind", "find", "replace"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_documents_loads_refuses_the_schema_refuses(
    what: str, kind: str, find: str, replace: str
) -> None:
    text = _agurk_documents()[kind]
    assert find in text, what
    bad = (
        text.replace(find, replace, 1)
        if kind != "record" or "card" not in find
        else _last(text, find, replace)
    )
    assert _refused_by_loads(json.loads(bad)), what
    assert problems(json.loads(bad), kind), what


def _last(text: str, find: str, replace: str) -> str:
    at = text.rindex(find)
    return text[:at] + replace + text[at + len(find) :]


BEYOND_A_SCHEMA: list[tuple[str, str, str, str]] = [
    # Rules a schema cannot express: they need the rules of the game (loads replays and compares).
    ("a card moved between hands", "state", '"hands":[["2C"', '"hands":[["2D"'),
    ("a forged total", "state", '"totals":[0,0,0]', '"totals":[0,0,5]'),
    (
        "an integer written as a float (JSON Schema counts 2.0 as an integer)",
        "rules",
        '"format":3',
        '"format":3.0',
    ),
    (
        "an illegal move in a record",
        "record",
        '{"type":"play","seat":1,"card":"2D"}',
        '{"type":"play","seat":1,"card":"8D"}',
    ),
]


@pytest.mark.parametrize(
    ("what", "kind", "find", "replace"), BEYOND_A_SCHEMA, ids=[b[0] for b in BEYOND_A_SCHEMA]
)
def test_what_only_loads_can_refuse(what: str, kind: str, find: str, replace: str) -> None:
    """The limits of a schema, as the docs say: these need the rules, and only loads refuses them."""
    text = _agurk_documents()[kind]
    assert find in text, what
    bad = json.loads(text.replace(find, replace, 1))
    assert _refused_by_loads(bad), what
    assert problems(bad, kind) == [], what
