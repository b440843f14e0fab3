"""Lowball, a fourth game written against the public contract alone (tests/plugins/lowball.py).

Its trick mechanism is unlike the library's games: suits matter, the lowest card of the led suit
takes the trick, and every trick scores. It was written with no change to `src/`: it registers,
passes `check_game` for every player count, keeps its rules in every scenario below and in random
play, keeps other hands secret in its views, and its values go through JSON and back.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cucumber_rules as cr
from cucumber_rules.testing import check_game, check_state, registered
from plugins.lowball import GAME, LowballRules

PLUGIN = Path(__file__).resolve().parent / "plugins" / "lowball.py"


@pytest.fixture(autouse=True)
def lowball() -> Iterator[None]:
    with registered(GAME):
        yield


def _rules(**options: object) -> cr.Rules:
    return cr.ruleset("lowball", **options)


def _dealt(hands: str, players: int = 3, **options: object) -> cr.State:
    """A new match of Lowball (players Ann, Bo, Cy, ...) and its first deal, one hand per `/`."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed"][:players]
    rules = _rules(hand_size=len(hands.split("/", maxsplit=1)[0].split()), **options)
    return cr.apply(cr.new_game(rules, names), cr.Deal(hands=[h.split() for h in hands.split("/")]))


def _trick(state: cr.State, *cards: str) -> cr.State:
    """Play one card from each seat in turn."""
    for c in cards:
        assert state.to_act is not None
        state = cr.apply(state, cr.Play(state.to_act, c))
    return state


def _random_match(rules: cr.Rules, players: int, seed: int) -> cr.State:
    rng = random.Random(seed)
    state = cr.new_game(rules, players)
    while not state.is_over:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    return state


# --------------------------------------------------------------------------- it plugs in


def test_it_registers_with_its_own_option_and_error_code() -> None:
    assert cr.GAMES["lowball"] is GAME
    rules = _rules()
    assert isinstance(rules, LowballRules)
    assert (rules.hand_size, rules.round_count, rules.min_players, rules.max_players) == (5, 3, 3, 5)
    assert cr.game_of(rules) is GAME
    assert cr.OPTIONS["round_count"].games == ("lowball",)
    assert cr.ERROR_CODES["must-follow-suit"].startswith("Lowball")
    with pytest.raises(cr.InvalidRulesError) as bad:
        _rules(round_count=0)
    assert bad.value.option == "round_count"
    with pytest.raises(cr.InvalidRulesError) as bad:
        _rules(hand_size=11)  # 5 players x 11 cards > 52
    assert bad.value.option == "hand_size"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_it_passes_check_game(players: int) -> None:
    report = check_game(_rules(), matches=3, seed=players, players=players)
    assert report.players == (players,) * 3
    assert report.matches == 3
    assert report.rounds == 3 * 3


def test_other_rule_sets_pass_check_game_too() -> None:
    check_game(_rules(hand_size=10, round_count=1), matches=2, seed=7)
    check_game(_rules(hand_size=1, round_count=4), matches=2, seed=8)


def test_it_uses_only_the_public_contract() -> None:
    # Nothing private of the library, no `State(...)` laid out by hand: the trick toolkit builds its states.
    tree = ast.parse(PLUGIN.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cucumber_rules"):
            assert not any(part.startswith("_") for part in (node.module or "").split("."))
            assert not any(alias.name.startswith("_") for alias in node.names)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "cr":
            assert not node.attr.startswith("_"), node.attr
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr != "State", "a State laid out by hand"


# --------------------------------------------------------------------------- its rules, in scenarios


def test_must_follow_suit_when_able_and_the_refusal_lists_the_legal_cards() -> None:
    state = _trick(_dealt("5H KS 2D / 9H 2C JH / 3D 4D 7C"), "5H")
    assert cr.legal_moves(state) == (cr.Play(1, "9H"), cr.Play(1, "JH"))
    with pytest.raises(cr.IllegalMoveError) as refused:
        cr.apply(state, cr.Play(1, "2C"))
    error = refused.value
    assert error.code == "must-follow-suit"
    assert error.seat == 1
    assert error.action == cr.Play(1, "2C")
    assert str(error) == "seat 1 cannot play 2C: follow the led suit (9H, JH)"
    checked = cr.check(state, cr.Play(1, "2C"))
    assert checked is not None
    assert (checked.code, str(checked)) == (error.code, str(error))
    assert not cr.is_legal(state, cr.Play(1, "2C"))
    with pytest.raises(cr.IllegalMoveError) as refused:
        cr.apply(state, cr.Play(1, "4D"))  # a card Bo does not hold
    assert refused.value.code == "not-in-hand"


def test_a_seat_without_the_led_suit_may_play_any_card() -> None:
    state = _trick(_dealt("5H KS 2D / 9H 2C JH / 3D 4D 7C"), "5H", "JH")
    assert cr.legal_moves(state) == tuple(cr.Play(2, c) for c in ("3D", "4D", "7C"))


def test_the_leader_may_lead_any_card() -> None:
    state = _dealt("5H KS 2D / 9H 2C JH / 3D 4D 7C")
    assert state.to_act == 0
    assert {m.card for m in cr.legal_moves(state)} == {cr.card(c) for c in ("5H", "KS", "2D")}  # type: ignore[union-attr]


def test_the_lowest_card_of_the_led_suit_takes_the_trick_and_its_taker_leads_next() -> None:
    state = _trick(_dealt("9H KS 2D / 5H 2C JH / 3D 4D 7C"), "9H", "5H", "3D")
    assert state.table is not None
    assert state.table.tricks[-1].taker == 1  # 5H: the lowest heart; 3D is lower but off suit
    assert state.to_act == 1
    assert state.table.leader == 1
    state = _trick(state, "2C", "7C", "KS")  # clubs led: Cy must follow; the lowest club takes it
    assert state.table is not None
    assert state.table.tricks[-1].taker == 1
    assert state.to_act == 1


def test_an_off_suit_card_never_takes_the_trick() -> None:
    # The leader's king is the only spade: every other card is lower, and none takes the trick.
    state = _trick(_dealt("KS 3H / 2C 4H / 2D 5H"), "KS", "2C", "2D")
    assert state.table is not None
    assert state.table.tricks[-1].taker == 0
    assert state.to_act == 0


def test_every_trick_scores_one_and_after_round_count_rounds_the_lowest_total_wins() -> None:
    state = _dealt("2H 3S / 5H 4S / 9H AS", round_count=2)
    state = _trick(state, "2H", "5H", "9H")  # Ann takes it
    state = _trick(state, "3S", "4S", "AS")  # Ann again
    assert cr.score(state).round_points == ((2, 0, 0),)
    assert state.to_act == cr.CHANCE
    assert not state.is_over
    state = cr.apply(state, cr.Deal(hands=[["KC", "QC"], ["2C", "3C"], ["JD", "5C"]]))
    assert state.to_act == 1  # the lead passes round by round
    state = _trick(state, "2C", "5C", "KC")  # Bo leads and takes it: the lowest club
    state = _trick(state, "3C", "JD", "QC")  # Bo again
    score = cr.score(state)
    assert score.round_points == ((2, 0, 0), (0, 2, 0))
    assert score.totals == (2, 2, 0)
    assert state.is_over
    assert score.winners == (2,)
    assert cr.returns(state) == (0.0, 0.0, 1.0)


def test_ties_share_the_win() -> None:
    state = _dealt("2H / 5H / 9H", round_count=1)
    state = _trick(state, "2H", "5H", "9H")
    assert state.is_over
    assert cr.score(state).totals == (1, 0, 0)
    assert cr.score(state).winners == (1, 2)
    assert sum(cr.returns(state)) == pytest.approx(1.0)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 10**6), hand_size=st.integers(1, 6))
def test_random_matches_keep_every_rule(players: int, seed: int, hand_size: int) -> None:
    final = _random_match(_rules(hand_size=hand_size), players, seed)
    rounds = [a for a in final.history if isinstance(a, cr.Deal)]
    assert len(rounds) == final.match.rounds == 3
    for result in final.match.results:
        assert sum(result.points) == hand_size  # every trick scored one point
    totals = final.match.totals
    assert final.match.winners == tuple(s for s in range(players) if totals[s] == min(totals))
    assert final.table is not None
    for trick in final.table.tricks:  # the last round's tricks
        led = trick.plays[0].card.suit
        following = [p for p in trick.plays if p.card.suit == led]
        assert trick.taker == min(following, key=lambda p: p.card.rank).seat
        assert trick.leader == trick.plays[0].seat
    takers = [t.taker for t in final.table.tricks]
    assert [t.leader for t in final.table.tricks[1:]] == takers[:-1]  # the taker leads next


# --------------------------------------------------------------------------- views and JSON


def test_views_keep_other_hands_secret() -> None:
    state = _trick(_dealt("5H KS 2D / 9H 2C JH / 3D 4D 7C"), "5H")
    for seat in range(3):
        v = cr.view(state, seat)
        assert v.hand == state.hands[seat]
        assert v.hand_sizes == (2, 3, 3)
        others = {c for s in range(3) if s != seat for c in state.hands[s]}
        assert not others & set(v.hand)
        assert not others & {c for e in v.events if isinstance(e, cr.Dealt) for c in e.hand}
        assert v.legal == (cr.legal_moves(state) if seat == 1 else ())
        text = cr.dumps(v)
        assert '"5H"' in text  # the card played is public
        for c in others:
            assert f'"{c}"' not in text
    spectator = cr.view(state, None)
    assert spectator.hand == ()
    assert all(e.hand == () for e in spectator.events if isinstance(e, cr.Dealt))


def test_documents_round_trip() -> None:
    final = _random_match(_rules(hand_size=3), 4, seed=11)
    middle = cr.replay(cr.Record(final.rules, final.players, final.first, final.actions[:9]))
    for state in (middle, final):
        assert cr.loads(cr.dumps(state), cr.State) == state
        assert cr.loads(cr.dumps(cr.record(state))) == cr.record(state)
        assert cr.replay(cr.loads(cr.dumps(cr.record(state)), cr.Record)) == state
        assert cr.loads(cr.dumps(cr.score(state))) == cr.score(state)
        for seat in (None, 0, 1, 2, 3):
            v = cr.view(state, seat)
            assert cr.loads(cr.dumps(v)) == v
        check_state(state)
    assert cr.loads(cr.dumps(final.rules)) == final.rules
