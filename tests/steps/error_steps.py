"""Steps about bad input: bad rules, bad card text, bad deals, misplaced decisions, tampered saves."""

from __future__ import annotations

import json
import random

import pytest
from pytest_bdd import given, parsers, then, when

import cucumber_rules as cr

from .check_steps import refuse
from .world import CARD, WHO, Game, deal_from_table, parse_options

_CODE = r'"(?P<code>[a-z-]+)"'


@then(
    parsers.re(
        r"asking for the (?P<preset>.+?) rules(?: with (?P<options>.+))? "
        r'is refused for the option "(?P<option>\w+)"'
    )
)
def rules_refused(preset: str, options: str | None, option: str) -> None:
    """`cr.ruleset` raises `InvalidRulesError` naming the option."""
    with pytest.raises(cr.InvalidRulesError) as raised:
        cr.ruleset(preset, **parse_options(options))
    error = raised.value
    assert error.option == option, (
        f"the error should name the option {option!r}, not {error.option!r}: {error}"
    )
    assert isinstance(error, cr.RulesError)
    assert isinstance(error, ValueError)


@then(
    parsers.re(
        r"starting a game of (?P<preset>.+?) for (?P<players>\d+) players(?:, seat (?P<first>\d+) first)? "
        r'is refused for the option "(?P<option>\w+)"'
    )
)
def game_refused(preset: str, players: str, first: str | None, option: str) -> None:
    """`cr.new_game` raises `InvalidRulesError` naming `players` or `first`."""
    with pytest.raises(cr.InvalidRulesError) as raised:
        cr.new_game(cr.ruleset(preset), players=int(players), first=int(first or 0))
    assert raised.value.option == option, f"the error should name {option!r}: {raised.value}"


@then(parsers.re(r'the card "(?P<text>[^"]*)" is refused as bad notation'))
def bad_notation(text: str) -> None:
    """`cr.card` raises `InvalidNotationError` (a `RulesError` and a `ValueError`)."""
    with pytest.raises(cr.InvalidNotationError) as raised:
        cr.card(text)
    assert isinstance(raised.value, cr.RulesError)
    assert isinstance(raised.value, ValueError)


@then(parsers.re(r'the card "(?P<text>[^"]+)" reads as (?P<canonical>\S+)'))
def reads_as(text: str, canonical: str) -> None:
    """`cr.card` parses the notation; `str` gives the canonical form."""
    assert str(cr.card(text)) == canonical, f"{text!r} should read as {canonical}, not {cr.card(text)}"


@then(parsers.re(r"giving a card as the number (?P<number>\d+) gives the numbered card (?P<card>\d+)"))
def card_as_number(number: str, card: str) -> None:
    """An integer names a card of a numbered deck (Five Cucumbers, Catastrophe)."""
    assert cr.card(int(number)) is cr.card(card)
    assert cr.Play(0, int(number)).card is cr.card(card)


@then("giving a card as 12.0 or true is refused as the wrong type")
def card_wrong_type() -> None:
    """A float or a bool is not a card: `TypeError`, not a rules error."""
    for value in (12.0, True):
        with pytest.raises(TypeError):
            cr.card(value)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            cr.Play(0, value)


@then(parsers.re(rf"dealing these hands is refused with {_CODE}:"))
def deal_refused(game: Game, datatable: list[list[str]], code: str) -> None:
    """The rigged deal is illegal now, with this code; nothing changes."""
    refuse(game, deal_from_table(game, datatable), code, "this deal")


@then(parsers.re(rf"dealing these hands, with (?P<who>{WHO}) drawn to start, is refused with {_CODE}:"))
def deal_with_starter_refused(game: Game, datatable: list[list[str]], who: str, code: str) -> None:
    """The rigged deal with this starter (`Deal.leader`) is illegal now."""
    refuse(game, deal_from_table(game, datatable, leader=who), code, f"this deal with {who} drawn to start")


@then(parsers.re(rf"drawing a random deal is refused with {_CODE}"))
def random_deal_refused(game: Game, code: str) -> None:
    """`cr.sample_chance` raises when no deal is due."""
    with pytest.raises(cr.IllegalMoveError) as raised:
        cr.sample_chance(game.state, random.Random(1))
    assert raised.value.code == code, f"expected {code!r}, got {raised.value.code!r}: {raised.value}"


@then(parsers.re(rf"(?P<who>{WHO}) (?P<choice>buying back in|staying out) is refused with {_CODE}"))
def decision_refused(game: Game, who: str, choice: str, code: str) -> None:
    """The revival decision is illegal now."""
    action = cr.Revive(game.seat(who), choice == "buying back in")
    refuse(game, action, code, f"{who} {choice}")


# ------------------------------------------------------------------ saved games (ruling 9)


@given("the game is saved as text")
@when("the game is saved as text")
def saved(game: Game) -> None:
    """`cr.dumps` of the current state."""
    game.saved = cr.dumps(game.state)
    assert isinstance(game.saved, str)


@given(parsers.re(r"seat (?P<seat>\d+)'s view is saved as text"))
def view_saved(game: Game, seat: str) -> None:
    """`cr.dumps` of one seat's view of the current state."""
    game.saved = cr.dumps(cr.view(game.state, int(seat)))


@then("loading the text gives back the same game")
def loads_same(game: Game) -> None:
    """`cr.loads` restores an equal state, with the same legal moves and score."""
    assert game.saved is not None, "save the game first"
    loaded = cr.loads(game.saved)
    assert loaded == game.state
    assert cr.legal_moves(loaded) == cr.legal_moves(game.state)
    assert cr.score(loaded) == cr.score(game.state)


def _refused_load(text: str) -> cr.RulesError:
    try:
        cr.loads(text)
    except (cr.InvalidStateError, cr.InvalidRulesError) as error:
        return error
    except Exception as error:  # the ruling: never a bare KeyError/TypeError/AttributeError
        pytest.fail(f"loading bad data raised {type(error).__name__} instead of InvalidStateError: {error}")
    pytest.fail("loading bad data succeeded; it should be refused")


def _names(error: cr.RulesError, where: str) -> None:
    path = getattr(error, "path", "")
    assert where in path, f"the error should name {where!r}, but names {path!r}: {error}"


@then(
    parsers.re(
        rf"loading the text with every (?P<old>{CARD}) changed to (?P<new>{CARD}) "
        r'is refused, naming "(?P<where>[^"]+)"'
    )
)
def tampered_card_refused(game: Game, old: str, new: str, where: str) -> None:
    """A saved game whose cards were edited by hand is re-validated and refused."""
    assert game.saved is not None, "save the game first"
    before, after = f'"{cr.card(old)}"', f'"{cr.card(new)}"'
    assert before in game.saved, f"the saved text holds no {before}"
    _names(_refused_load(game.saved.replace(before, after)), where)


@then(
    parsers.re(
        r"loading the text with (?P<field>[a-z_.]+) set to (?P<value>\S+) "
        r'is refused, naming "(?P<where>[^"]+)"'
    )
)
def tampered_field_refused(game: Game, field: str, value: str, where: str) -> None:
    """A saved game with one field edited (a dotted path into the JSON object) is refused."""
    assert game.saved is not None, "save the game first"
    document = json.loads(game.saved)
    *parents, last = field.split(".")
    node = document
    for key in parents:
        node = node[key]
    assert last in node, f"the saved text has no field {field}"
    node[last] = json.loads(value)
    _names(_refused_load(json.dumps(document)), where)


@then(parsers.re(r"loading the text (?P<raw>'.*') is refused, naming \"(?P<where>[^\"]+)\""))
def bad_text_refused(raw: str, where: str) -> None:
    """Text that is not a saved game at all is refused with `InvalidStateError`."""
    error = _refused_load(raw[1:-1])
    assert isinstance(error, cr.InvalidStateError), f"expected InvalidStateError, got {error!r}"
    _names(error, where)


@then(
    parsers.re(
        rf"replaying the game's record followed by (?P<who>{WHO}) playing (?P<card>{CARD}) "
        rf"is refused at action (?P<index>\d+) with {_CODE}"
    )
)
def replay_refused(game: Game, who: str, card: str, index: str, code: str) -> None:
    """`cr.replay` of a record with an illegal action raises at that action's position."""
    record = cr.record(game.state)
    bad = cr.Record(
        record.rules, record.players, record.first, [*record.actions, cr.Play(game.seat(who), cr.card(card))]
    )
    with pytest.raises(cr.IllegalMoveError) as raised:
        cr.replay(bad)
    assert raised.value.code == code, f"expected {code!r}, got {raised.value.code!r}: {raised.value}"
    assert raised.value.index == int(index), (
        f"the error should be at action {index}, not {raised.value.index}"
    )
