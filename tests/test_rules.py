"""Rules: the ladder presets exactly as the SPEC table, aliases, overrides and validation."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules import InvalidRulesError, Rules, ruleset
from helpers import message_of

LADDER_OPTIONS = (
    "deck",
    "min_players",
    "max_players",
    "hand_size",
    "follow",
    "ace_lead",
    "penalty",
    "doubling",
    "tie_bonus",
    "threshold",
    "lives",
    "next_leader",
    "reverse",
    "revival",
    "fixed_rounds",
)
CATASTROPHE_ONLY = ("surprise", "cant_beat_em", "hand_count", "cucumbers")

#: SPEC §2, the ladder table, column by column.
TABLE: dict[str, dict[str, Any]] = {
    "agurk": {
        "deck": "standard-52",
        "min_players": 3,
        "max_players": 7,
        "hand_size": 7,
        "follow": "optional-lowest",
        "ace_lead": False,
        "penalty": "card-value",
        "doubling": "none",
        "tie_bonus": True,
        "threshold": 21,
        "lives": 2,
        "next_leader": "rotate",
        "reverse": False,
        "revival": False,
        "fixed_rounds": None,
    },
    "gurka": {
        "deck": "standard-52",
        "min_players": 2,
        "max_players": 7,
        "hand_size": 7,
        "follow": "forced-lowest",
        "ace_lead": True,
        "penalty": "card-value",
        "doubling": "none",
        "tie_bonus": False,
        "threshold": 30,
        "lives": 1,
        "next_leader": "rotate",
        "reverse": False,
        "revival": False,
        "fixed_rounds": None,
    },
    "five-cucumbers": {
        "deck": "five-cucumbers-60",
        "min_players": 2,
        "max_players": 6,
        "hand_size": 7,
        "follow": "optional-lowest",
        "ace_lead": False,
        "penalty": "cucumbers",
        "doubling": "per-one",
        "tie_bonus": False,
        "threshold": 5,
        "lives": 1,
        "next_leader": "penalized",
        "reverse": False,
        "revival": False,
        "fixed_rounds": None,
    },
    "fuenf-gurken": {
        "deck": "five-cucumbers-60",
        "min_players": 2,
        "max_players": 6,
        "hand_size": 7,
        "follow": "optional-lowest",
        "ace_lead": False,
        "penalty": "cucumbers",
        "doubling": "once",
        "tie_bonus": False,
        "threshold": 6,
        "lives": 1,
        "next_leader": "penalized",
        "reverse": False,
        "revival": False,
        "fixed_rounds": None,
    },
}


@pytest.mark.parametrize("name", sorted(TABLE))
def test_preset_options_are_exactly_the_spec_table(name: str) -> None:
    rules = ruleset(name)
    assert rules.name == name
    assert rules.game == "ladder"
    actual = {option: getattr(rules, option) for option in LADDER_OPTIONS}
    assert actual == TABLE[name]
    for option, value in TABLE[name].items():
        assert type(getattr(rules, option)) is type(value), option  # e.g. False, not 0
    for option in CATASTROPHE_ONLY:
        assert not hasattr(rules, option), option  # another game's option is not an attribute
        with pytest.raises(AttributeError, match=f"'LadderRules' object has no attribute '{option}'"):
            getattr(rules, option)


def test_every_ladder_option_is_documented_in_options() -> None:
    for option in LADDER_OPTIONS:
        assert option in cr.OPTIONS, option
        assert "ladder" in cr.OPTIONS[option].games, option
    for option in CATASTROPHE_ONLY:
        assert cr.OPTIONS[option].games == ("catastrophe",), option
    fields = {a.name for game in cr.GAMES.values() for a in attrs.fields(game.rules_type)} - {"name", "_plan"}
    assert fields == set(cr.OPTIONS)
    assert {a.name for a in attrs.fields(Rules)} - {"name"} == {
        "deck",
        "min_players",
        "max_players",
        "hand_size",
    }


def test_rulesets_maps_the_presets_and_is_read_only() -> None:
    for name in TABLE:
        assert cr.RULESETS[name] == ruleset(name)
        assert cr.RULESETS[name].name == name
    with pytest.raises(TypeError):
        cr.RULESETS["mine"] = ruleset("agurk")  # type: ignore[index]
    assert "mine" not in cr.RULESETS
    for mapping in (cr.RULESETS, cr.GAMES, cr.OPTIONS):  # nor can a mapping be pointed elsewhere
        with pytest.raises(AttributeError, match="read-only"):
            setattr(mapping, "_build", dict)  # noqa: B010 (what a caller might try)
        with pytest.raises(AttributeError, match="read-only"):
            delattr(mapping, "_name")
    assert cr.ruleset("agurk") == cr.RULESETS["agurk"]


@pytest.mark.parametrize(
    ("preset", "options", "field"),
    [
        ("agurk", {"threshold": 2**53}, "threshold"),
        ("agurk", {"threshold": 10**5000}, "threshold"),
        ("gurka", {"fixed_rounds": 2**60}, "fixed_rounds"),
        ("catastrophe", {"hand_count": -(2**53)}, "hand_count"),
        ("catastrophe", {"cucumbers": (10**309,) + (1,) * 59}, "cucumbers"),
    ],
)
def test_integer_options_are_bounded_so_rules_can_always_be_written(
    preset: str, options: dict[str, Any], field: str
) -> None:
    # Beyond ±(2**53 - 1) a rule set could not be written as JSON every reader holds exactly (nor,
    # past 4,300 digits, shown at all): refused when made, naming the option, and in a document too.
    with pytest.raises(cr.InvalidRulesError, match="2\\*\\*53") as caught:
        ruleset(preset, **options)
    assert caught.value.option == field
    doc = json.loads(cr.dumps(ruleset(preset)))
    doc.update(dict.fromkeys(options, "HUGE"))
    value = options[field]
    written = "1" + "0" * 5000 if value == 10**5000 else json.dumps(value)  # (past str()'s digit limit)
    text = json.dumps(doc).replace('"HUGE"', written)
    if value == 10**5000:  # (the JSON reader refuses such a number before the rules see it)
        with pytest.raises(cr.InvalidStateError, match=r"a number has more than \d+ digits"):
            cr.loads(text)
    else:
        with pytest.raises(cr.InvalidRulesError, match=f"^\\$\\.{field}"):
            cr.loads(text)
    largest = {name: 2**53 - 1 if isinstance(v, int) else v for name, v in options.items()}
    if field == "cucumbers":  # (a count has a far smaller bound, MAX_CUCUMBERS: see test_catastrophe)
        largest = {"cucumbers": (100,) + (1,) * 59}
    if field != "hand_count":  # (the largest of the others is a valid rule set, and is written whole)
        r = ruleset(preset, **largest)
        assert cr.loads(cr.dumps(r)) == r
        assert repr(r)


def test_cucumber_counts_take_any_integer_type() -> None:
    import numpy as np

    r = ruleset("catastrophe", cucumbers=tuple(np.ones(60, dtype=np.int64)))
    assert r.cucumbers == (1,) * 60
    assert all(type(c) is int for c in r.cucumbers)
    assert ruleset("catastrophe", cucumbers=list(np.full(60, 2, dtype=np.int32))).cucumbers == (2,) * 60
    for bad in (True, np.True_, 1.0, "1"):
        with pytest.raises(cr.InvalidRulesError, match=r"cucumbers\[0\] \(card 1\) must be an int >= 0"):
            ruleset("catastrophe", cucumbers=(bad,) + (1,) * 59)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("danish", "agurk"),
        ("danish-cucumber", "agurk"),
        ("Danish Cucumber", "agurk"),
        ("danish_cucumber", "agurk"),
        ("cucumber", "agurk"),
        ("swedish", "gurka"),
        ("scandinavian", "gurka"),
        ("Scandinavian Cucumber", "gurka"),
        ("kurkku", "gurka"),
        ("5-cucumbers", "five-cucumbers"),
        ("Five Cucumbers", "five-cucumbers"),
        ("five_cucumbers", "five-cucumbers"),
        ("fuenf", "fuenf-gurken"),
        ("Fünf Gurken", "fuenf-gurken"),
        ("funf-gurken", "fuenf-gurken"),
        ("5-gurken", "fuenf-gurken"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert ruleset(alias) == ruleset(name)
    assert ruleset(alias).name == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("AGURK", "agurk"),
        ("Agurk", "agurk"),
        ("GuRkA", "gurka"),
        ("  gurka  ", "gurka"),
        ("FIVE-CUCUMBERS", "five-cucumbers"),
        ("Fuenf-Gurken", "fuenf-gurken"),
        ("DANISH", "agurk"),
    ],
)
def test_preset_names_are_case_insensitive(text: str, name: str) -> None:
    assert ruleset(text).name == name
    assert ruleset(text) == cr.RULESETS[name]


@pytest.mark.parametrize("text", ["", "poker", "agurkk", "five cucumber", "gurka-30"])
def test_unknown_preset(text: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        ruleset(text)
    assert info.value.option == "preset"
    assert "agurk" in str(info.value)  # names the presets


@pytest.mark.parametrize("value", [None, 5, ["agurk"], b"agurk"])
def test_preset_name_of_the_wrong_type(value: Any) -> None:
    with pytest.raises(TypeError):
        ruleset(value)


def test_overrides_return_new_rules_and_leave_the_preset_alone() -> None:
    base = ruleset("gurka")
    rules = ruleset("gurka", threshold=21, ace_lead=False)
    assert (rules.threshold, rules.ace_lead) == (21, False)
    assert rules.name == "gurka"
    assert rules != base
    for option in LADDER_OPTIONS:
        if option not in ("threshold", "ace_lead"):
            assert getattr(rules, option) == getattr(base, option), option
    assert (base.threshold, base.ace_lead) == (30, True)
    assert cr.RULESETS["gurka"].threshold == 30
    assert ruleset("gurka", threshold=30) == base  # an override to the same value changes nothing
    assert base.replace(threshold=21, ace_lead=False) == rules


@pytest.mark.parametrize(
    ("name", "overrides"),
    [
        ("agurk", {"hand_size": 3}),
        ("gurka", {"hand_size": 1}),
        ("agurk", {"max_players": 6, "hand_size": 8}),  # 48 cards
        ("five-cucumbers", {"hand_size": 10}),  # 6 x 10 = 60
        ("agurk", {"follow": "forced-lowest", "ace_lead": True}),
        ("gurka", {"reverse": True, "tie_bonus": True}),
        ("gurka", {"revival": True}),
        ("agurk", {"fixed_rounds": 5}),
        ("five-cucumbers", {"doubling": "once", "threshold": 6}),
        ("gurka", {"next_leader": "penalized", "lives": 3}),
        ("agurk", {"min_players": 2}),
        ("five-cucumbers", {"max_players": 2}),
    ],
)
def test_valid_overrides(name: str, overrides: dict[str, Any]) -> None:
    rules = ruleset(name, **overrides)
    for option, value in overrides.items():
        assert getattr(rules, option) == value


@pytest.mark.parametrize(
    ("name", "overrides", "option"),
    [
        # unknown options
        ("agurk", {"colour": "red"}, "colour"),
        ("agurk", {"game": "catastrophe"}, "game"),
        # wrong types
        ("agurk", {"threshold": "21"}, "threshold"),
        ("agurk", {"threshold": 21.0}, "threshold"),
        ("agurk", {"threshold": True}, "threshold"),
        ("agurk", {"hand_size": "7"}, "hand_size"),
        ("agurk", {"lives": None}, "lives"),
        ("gurka", {"ace_lead": 1}, "ace_lead"),
        ("gurka", {"ace_lead": "yes"}, "ace_lead"),
        ("agurk", {"tie_bonus": None}, "tie_bonus"),
        ("agurk", {"reverse": 0}, "reverse"),
        ("agurk", {"revival": "no"}, "revival"),
        ("agurk", {"fixed_rounds": 2.5}, "fixed_rounds"),
        ("agurk", {"fixed_rounds": "3"}, "fixed_rounds"),
        ("agurk", {"min_players": 3.0}, "min_players"),
        ("agurk", {"deck": 52}, "deck"),
        # bad choices and values
        ("agurk", {"follow": "forced"}, "follow"),
        ("agurk", {"penalty": "points"}, "penalty"),
        ("five-cucumbers", {"doubling": "twice"}, "doubling"),
        ("agurk", {"next_leader": "winner"}, "next_leader"),
        ("agurk", {"deck": "tarot-78"}, "deck"),
        ("agurk", {"deck": "numbered-60"}, "deck"),
        ("agurk", {"threshold": 0}, "threshold"),
        ("agurk", {"threshold": -5}, "threshold"),
        ("agurk", {"lives": 0}, "lives"),
        ("agurk", {"hand_size": 0}, "hand_size"),
        ("agurk", {"hand_size": -1}, "hand_size"),
        ("agurk", {"fixed_rounds": 0}, "fixed_rounds"),
        # 7 players x 8 cards = 56 > 52; 6 x 11 = 66 > 60
        ("agurk", {"hand_size": 8}, "hand_size"),
        ("gurka", {"hand_size": 8}, "hand_size"),
        ("five-cucumbers", {"hand_size": 11}, "hand_size"),
        # player counts
        ("agurk", {"min_players": 1}, "min_players"),
        ("gurka", {"min_players": 0}, "min_players"),
        ("agurk", {"max_players": 8}, "max_players"),
        ("five-cucumbers", {"min_players": 5, "max_players": 4}, "min_players"),
        # combinations
        ("agurk", {"penalty": "cucumbers"}, "penalty"),
        ("agurk", {"doubling": "per-one"}, "doubling"),
        ("five-cucumbers", {"deck": "standard-52"}, "penalty"),
        ("agurk", {"fixed_rounds": 3, "revival": True}, "revival"),
        ("gurka", {"revival": True, "max_players": 2}, "revival"),
        # Catastrophe-only options on a ladder preset, even with a harmless value
        ("agurk", {"surprise": True}, "surprise"),
        ("gurka", {"surprise": False}, "surprise"),
        ("five-cucumbers", {"cant_beat_em": True}, "cant_beat_em"),
        ("fuenf-gurken", {"hand_count": 4}, "hand_count"),
        ("fuenf-gurken", {"hands": 4}, "hands"),  # Catastrophe's old name is no ladder option either
        ("agurk", {"cucumbers": (1,) * 60}, "cucumbers"),
    ],
)
def test_bad_options_raise_invalid_rules_naming_the_option(
    name: str, overrides: dict[str, Any], option: str
) -> None:
    with pytest.raises(InvalidRulesError) as info:
        ruleset(name, **overrides)
    assert info.value.option == option
    assert option in str(info.value)
    assert isinstance(info.value, cr.RulesError)
    assert isinstance(info.value, ValueError)
    assert ruleset(name) == cr.RULESETS[name]  # the preset is untouched


def test_replace_rejects_the_identity_fields() -> None:
    for option, value in [("name", "mine"), ("game", "catastrophe"), ("_plan", None)]:
        with pytest.raises(InvalidRulesError) as info:
            ruleset("agurk").replace(**{option: value})
        assert info.value.option == option


def test_hand_size_message_counts_the_cards() -> None:
    with pytest.raises(InvalidRulesError) as info:
        ruleset("agurk", hand_size=8)
    assert "7 players x 8 cards need 56" in str(info.value)
    assert "52" in str(info.value)


def test_rules_built_directly_are_validated() -> None:
    good = attrs.asdict(cr.RULESETS["gurka"])
    good.pop("_plan", None)
    cls = type(cr.RULESETS["gurka"])
    assert cls(**good) == ruleset("gurka")
    for option, value in [("threshold", 0), ("hand_size", 9), ("follow", "any")]:
        with pytest.raises(InvalidRulesError) as info:
            cls(**{**good, option: value})
        assert info.value.option == option
    with pytest.raises(TypeError):
        cls(**{**good, "surprise": True})  # not an option of this game's rules class


def test_rules_are_frozen_values_and_the_cache_is_not_part_of_equality() -> None:
    rules = ruleset("gurka")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.threshold = 5  # type: ignore[attr-defined]
    used = ruleset("agurk")
    state = cr.new_game(used, 3)
    cr.legal_moves(cr.apply(state, cr.sample_chance(state, __import__("random").Random(1))))
    fresh = ruleset("agurk", threshold=21)  # a new object, nothing cached yet
    assert fresh is not used
    assert fresh == used
    assert hash(fresh) == hash(used)
    assert "_plan" not in repr(fresh)


# --------------------------------------------------------------------------- presets, players, messages


def test_a_preset_without_overrides_is_the_shared_preset() -> None:
    assert cr.ruleset("agurk") is cr.RULESETS["agurk"]
    assert cr.ruleset("Danish") is cr.RULESETS["agurk"]


def test_preset_names_ignore_spaces_around_dashes() -> None:
    assert cr.ruleset("five - cucumbers").name == "five-cucumbers"
    assert cr.ruleset("Fuenf__Gurken").name == "fuenf-gurken"


@pytest.mark.parametrize(
    ("min_players", "max_players", "option"),
    [(1, 5, "min_players"), (2, 8, "max_players"), (6, 5, "min_players"), (8, 8, "max_players")],
)
def test_player_range_errors_name_the_right_bound(min_players: int, max_players: int, option: str) -> None:
    with pytest.raises(cr.InvalidRulesError) as raised:
        attrs.evolve(cr.RULESETS["gurka"], min_players=min_players, max_players=max_players)
    assert raised.value.option == option
    assert str(raised.value) == f"{option}: players must satisfy 2 <= min_players <= max_players <= 7"


def test_revival_with_three_players_at_most_is_allowed() -> None:
    rules = attrs.evolve(cr.RULESETS["gurka"], max_players=3, revival=True)  # type: ignore[call-arg]
    assert rules.revival is True
    with pytest.raises(cr.InvalidRulesError) as raised:
        attrs.evolve(cr.RULESETS["gurka"], max_players=2, revival=True)  # type: ignore[call-arg]
    assert str(raised.value) == "revival needs at least two other players left, so max_players >= 3"


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (lambda: cr.ruleset(5), TypeError, "a preset name is a string, not int"),  # type: ignore[arg-type]
        (
            lambda: cr.ruleset("hearts"),
            cr.InvalidRulesError,
            "preset: unknown preset 'hearts'; presets are "
            "agurk, gurka, five-cucumbers, fuenf-gurken, catastrophe",
        ),
        (
            lambda: cr.ruleset("agurk", colour="red"),
            cr.InvalidRulesError,
            "colour: unknown option 'colour'; options are " + ", ".join(cr.ruleset("agurk").options()),
        ),
        (
            lambda: cr.ruleset("agurk", threshold="21"),
            cr.InvalidRulesError,
            "threshold must be int, not str '21'",
        ),
        (lambda: cr.ruleset("agurk", follow=5), cr.InvalidRulesError, "follow must be str, not int 5"),
        (
            lambda: cr.ruleset("agurk", follow="up"),
            cr.InvalidRulesError,
            "follow must be one of 'optional-lowest', 'forced-lowest', not 'up'",
        ),
        (lambda: cr.ruleset("agurk", hand_size=0), cr.InvalidRulesError, "hand_size must be at least 1"),
        (
            lambda: attrs.evolve(cr.RULESETS["agurk"], deck="numbered-60"),
            cr.InvalidRulesError,
            "deck: the ladder game uses standard-52 or five-cucumbers-60, not 'numbered-60'",
        ),
        (
            lambda: cr.ruleset("gurka", fixed_rounds=3, revival=True),
            cr.InvalidRulesError,
            "revival needs elimination, but fixed_rounds plays without it",
        ),
        (
            lambda: cr.ruleset("agurk", penalty="cucumbers"),
            cr.InvalidRulesError,
            "penalty: the cucumbers penalty table is for the five-cucumbers-60 deck",
        ),
        (
            lambda: cr.ruleset("agurk", doubling="once"),
            cr.InvalidRulesError,
            "doubling counts 1s, which only the five-cucumbers-60 deck has",
        ),
    ],
)
def test_rules_error_messages(call: Any, kind: type[Exception], message: str) -> None:
    assert message_of(kind, call) == message


def test_option_types_read_as_written_before_and_after_the_fields_are_resolved() -> None:
    # attrs resolves the rules classes' field types when a document is read or a schema is built; an
    # option's type read 'tuple[int, ...]' before that and 'tuple' after.
    from cucumber_rules import schema

    state = cr.new_game(cr.ruleset("catastrophe"), 3)
    cr.loads(cr.dumps(state))
    schema.json_schema("rules")
    types = {name: option.type for name, option in cr.OPTIONS.items()}
    assert types["cucumbers"] == "tuple[int, ...]"
    assert types["fixed_rounds"] == "int | None"
    assert [types[name] for name in ("threshold", "surprise", "follow")] == ["int", "bool", "str"]
