"""Tests written to kill surviving mutants of the engine (mutation testing, see tests/MUTANTS.md).

Each test names the behaviour it pins; the mutants it was written for are listed in
tests/MUTANTS.md with the equivalent ones that no test can kill.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules import Card, InvalidNotationError, Play, Revive
from cucumber_rules import cards as cards_module
from cucumber_rules import dealing as dealing_module
from cucumber_rules.dealing import next_seat, previous_seat
from helpers import assert_illegal, deal, pay_round, play, start

# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("rank", "suit", "index"),
    [(1, None, 1), (60, None, 60), (2, "C", 64), (14, "S", 64 + 12 * 4 + 3)],
)
def test_building_the_edge_cards_directly(rank: int, suit: str | None, index: int) -> None:
    built = Card(rank, suit)  # not through card(): the validation runs again
    assert (built.rank, built.suit, built.index) == (rank, suit, index)
    assert built == cr.card(str(built))


@pytest.mark.parametrize(
    ("rank", "suit", "message"),
    [
        (0, None, "no numbered card 0: numbers run 1..60"),
        (61, None, "no numbered card 61: numbers run 1..60"),
        (5, "X", "no suit 'X': suits are S, H, D, C"),
        (1, "S", "no suited card of rank 1: ranks run 2..14"),
        (15, "H", "no suited card of rank 15: ranks run 2..14"),
    ],
)
def test_building_a_bad_card_says_why(rank: int, suit: str | None, message: str) -> None:
    with pytest.raises(InvalidNotationError) as raised:
        Card(rank, suit)
    assert str(raised.value) == message


def test_building_a_card_of_a_non_int_rank_says_why() -> None:
    with pytest.raises(TypeError) as raised:
        Card("5")  # type: ignore[arg-type]
    assert str(raised.value) == "card rank must be an int, not str"


def test_card_order_is_strict() -> None:
    c, same = cr.card("7"), Card(7)  # equal cards, two objects
    assert not c > same
    assert not c < same
    assert c >= same
    assert c <= same
    assert cr.card("8") > c


def test_numbered_decks_are_built_from_one_to_the_top() -> None:
    assert cards_module._numbered(4, 15) == cr.DECKS["five-cucumbers-60"]
    assert cards_module._numbered(1, 60) == cr.DECKS["numbered-60"]
    assert [c.rank for c in cards_module._numbered(2, 3)] == [1, 1, 2, 2, 3, 3]


# --------------------------------------------------------------------------- engine


def test_game_over_message_names_every_winner() -> None:
    # One fixed round: seat 0 pays, seats 1 and 2 share the win.
    state = start(cr.ruleset("agurk", hand_size=1, fixed_rounds=1), "9S", "2C", "3D")
    state = play(state, "9S", "2C", "3D")
    assert state.match.winners == (1, 2)
    error = assert_illegal(state, Play(0, "2H"), "game-over")
    assert str(error) == "the match is over (won by seat 1, seat 2); no action is possible"


# --------------------------------------------------------------------------- dealing


def test_previous_seat() -> None:
    assert previous_seat(0, (0, 1, 2), 3) == 2
    assert previous_seat(2, (0, 1, 2), 3) == 1
    assert previous_seat(1, (0, 2, 3), 4) == 0
    assert previous_seat(0, (0, 1), 4) == 1
    assert previous_seat(3, (3,), 4) == 3
    with pytest.raises(ValueError, match=r"^no seat to choose from$"):
        previous_seat(0, (), 3)


def test_penalized_leader_and_the_dealer_before_them() -> None:
    rules = cr.ruleset("five-cucumbers", hand_size=1, threshold=50)
    state = cr.new_game(rules, 4)
    state = pay_round(state, payer=2, paid="9")
    state = cr.apply(state, deal("2", "3", "4", "9"))
    assert state.round is not None
    assert (state.round.leader, state.match.dealer) == (2, 1)


# --------------------------------------------------------------------------- ladder


def test_accepting_a_revival_brings_back_only_that_seat() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
    state = cr.new_game(rules, 4)
    state = pay_round(state, payer=0, paid="9S")
    assert state.match.pending == (0,)
    state = cr.apply(state, Revive(0, False))  # seat 0 stays out
    state = pay_round(state, payer=1, paid="9S")
    assert state.match.pending == (1,)
    state = cr.apply(state, Revive(1, True))
    assert state.match.out[0] > 0, "seat 0 declined: it must stay out"
    assert state.match.out[1] == 0
    assert state.match.eliminated == (True, False, False, False)
    assert state.match.sitting_out == (1,)
    assert state.match.pending == ()
    assert state.to_act == cr.CHANCE


def test_declining_a_revival_leaves_no_decision_due() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
    state = pay_round(cr.new_game(rules, 3), payer=2, paid="9S")
    state = cr.apply(state, Revive(2, False))
    assert state.match.pending == ()
    assert state.match.winners == ()
    assert state.to_act == cr.CHANCE


def test_standings_put_eliminated_seats_after_the_players_still_in() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    state = pay_round(cr.new_game(rules, 4), payer=1, paid="9S")
    assert cr.score(state).eliminated == (False, True, False, False)
    assert cr.score(state).standings == (0, 2, 3, 1)
    state = pay_round(state, payer=3, paid="6S")
    # seat 3 went out later than seat 1, so it ranks better
    assert cr.score(state).standings == (0, 2, 3, 1)


# --------------------------------------------------------------------------- catastrophe


def test_catastrophe_trick_state_between_tricks_and_after_the_hand() -> None:
    rules = cr.ruleset("catastrophe", hand_size=2)
    state = start(rules, "7 20", "9 30", "8 40")
    assert state.round is not None
    assert (state.best, state.taker, state.match.dealer) == (None, -1, 2)
    state = play(state, "7", "9", "8")  # High: the 9 takes
    r = state.round
    assert r is not None
    assert (r.leader, r.best, r.taker, r.trick, state.to_act) == (1, None, -1, (), 1)
    state = play(state, "30", "40", "20")  # seat 0 cannot obey the High rule: it breaks it and takes
    r = state.round
    assert r is not None
    assert state.to_act == cr.CHANCE
    assert (r.leader, r.best, r.taker, r.trick, r.extra) == (0, None, -1, (), None)
    assert r.tricks[-1].marker == "high-broken"
    assert state.match.dealer == 2, "the finished hand keeps its dealer"


def test_catastrophe_not_in_hand_error_names_the_seat() -> None:
    state = start(cr.ruleset("catastrophe", hand_size=2), "7 20", "9 30", "8 40")
    error = assert_illegal(state, Play(0, "59"), "not-in-hand")
    assert error.seat == 0


# --------------------------------------------------------------------------- rules validation


@pytest.mark.parametrize(
    ("options", "option", "message"),
    [
        ({"deck": "standard-52"}, "deck", "deck: catastrophe uses the numbered-60 deck, not 'standard-52'"),
        ({"min_players": 2}, "min_players", "min_players: catastrophe is for 3 to 6 players"),
        ({"max_players": 7}, "max_players", "max_players: catastrophe is for 3 to 6 players"),
        ({"cucumbers": (1,) * 59}, "cucumbers", "cucumbers must list 60 counts, one for each card 1..60"),
        (
            {"cucumbers": (1, 1, 1, 1, -1) + (1,) * 55},
            "cucumbers",
            "cucumbers[4] (card 5) must be an int >= 0, not -1",
        ),
        ({"hand_size": 11}, "hand_size", "hand_size: 6 players x 11 cards need 66 of 60"),
    ],
)
def test_catastrophe_rules_validation_names_the_option(
    options: dict[str, object], option: str, message: str
) -> None:
    with pytest.raises(cr.InvalidRulesError) as raised:
        cr.ruleset("catastrophe", **options)
    assert raised.value.option == option
    assert str(raised.value) == message


# --------------------------------------------------------------------------- a seed gives the same deal


GOLDEN_DEALS = {
    "agurk": (
        cr.ruleset("agurk"),
        ["2D 3H 4C 6C 7H 9D 10H", "3C 4D 5C 5H 8S 9C KD", "6H 7S 10C JD JH AH AS"],
        "",
    ),
    "catastrophe": (
        cr.ruleset("catastrophe"),
        ["2 7 8 10 20 26 32 34 35 40", "1 6 14 16 33 36 43 44 52 58", "4 23 24 25 30 37 48 54 55 60"],
        "",
    ),
    "surprise+cant-beat-em": (
        cr.ruleset("catastrophe", surprise=True, cant_beat_em=True),
        ["5 12 14 19 20 22 25 26 40 51", "1 10 13 24 35 45 46 52 55 57", "15 17 28 33 38 41 48 53 58 59"],
        "50 2 21 32 60 36 34 9 49 43",
    ),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_DEALS))
def test_a_seed_gives_the_same_deal_in_every_version(name: str) -> None:
    rules, hands, stock = GOLDEN_DEALS[name]
    drawn = cr.sample_chance(cr.new_game(rules, 3), random.Random(7))
    assert isinstance(drawn, cr.Deal)
    assert [" ".join(str(c) for c in h) for h in drawn.hands] == hands
    assert " ".join(str(c) for c in drawn.stock) == stock
    assert drawn.leader is None


@pytest.mark.parametrize(
    ("rules", "draws"),
    [
        (cr.ruleset("agurk"), 21),  # 3 x 7 dealt cards, the rest of the deck left alone
        (cr.ruleset("five-cucumbers"), 21),
        (cr.ruleset("catastrophe"), 30),
        (cr.ruleset("catastrophe", surprise=True), 60),  # the whole deck: the rest is the stock
    ],
)
def test_a_deal_draws_one_random_number_per_card_it_places(rules: cr.Rules, draws: int) -> None:
    # So a generator shared by the deals and the moves plays the same match in every version.
    rng = random.Random(7)
    cr.sample_chance(cr.new_game(rules, 3), rng)
    expected = random.Random(7)
    for _ in range(draws):
        expected.random()
    assert rng.getstate() == expected.getstate()


def test_surprise_deal_keeps_the_rest_of_the_deck_as_the_stock() -> None:
    drawn = cr.sample_chance(cr.new_game(cr.ruleset("catastrophe", surprise=True), 3), random.Random(7))
    assert isinstance(drawn, cr.Deal)
    assert [str(c) for c in drawn.stock[:5]] == ["50", "42", "12", "5", "15"]
    assert len(drawn.stock) == 30


@pytest.mark.parametrize("stock", [False, True])
def test_random_deals_are_uniform(stock: bool) -> None:
    # Every card lands in each hand (and in the rest of the deck) as often as chance says. A chi-square
    # statistic over card x place, at a fixed seed (so it cannot flake): (52 - 1) x (5 - 1) = 204 degrees
    # of freedom, mean 204 and standard deviation 20; the bound is five deviations above the mean.
    rng = random.Random(2026)
    deck = cr.DECKS["standard-52"]
    count = {(c, place): 0 for c in deck for place in range(5)}
    deals = 6000
    for _ in range(deals):
        drawn = dealing_module.shuffled_deal(rng, deck, players=5, seats=(0, 1, 2, 4), per=7, stock=stock)
        assert drawn.hands[3] == ()
        assert len(drawn.stock) == (24 if stock else 0)
        assert all(list(h) == sorted(h, key=lambda c: c.index) for h in drawn.hands)
        dealt = {c for h in drawn.hands for c in h}
        assert len(dealt) == 28
        assert not dealt & set(drawn.stock)
        for seat, place in ((0, 0), (1, 1), (2, 2), (4, 3)):
            for c in drawn.hands[seat]:
                count[c, place] += 1
        for c in deck:
            if c not in dealt:
                count[c, 4] += 1
    expected = {place: deals * (7 if place < 4 else 24) / 52 for place in range(5)}
    chi2 = sum((n - expected[place]) ** 2 / expected[place] for (_, place), n in count.items())
    assert chi2 < 204 + 5 * 20, chi2


# --------------------------------------------------------------------------- caches fill themselves


def test_deck_limits_are_counted_again_when_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    five = cr.DECKS["five-cucumbers-60"]
    monkeypatch.setattr(dealing_module, "_DECKS", {})
    limits = dealing_module.deck_limits(five)
    assert limits[cr.card("7").index] == 4
    assert limits[cr.card("QS").index] == 0
    assert sum(limits) == 60
    assert dealing_module.deck_limits(five) == limits  # from the cache now
    state = cr.new_game(cr.ruleset("five-cucumbers", hand_size=3), 2)
    for hands, error in [
        (("7 7 8", "7 7 9"), None),
        (("7 7 7", "7 7 8"), "bad deal: 7 appears 5 times, but the deck holds it 4 times"),
        (("7 8 9", "9 10 QS"), "bad deal: QS is not a card of this deck"),
    ]:
        monkeypatch.setattr(dealing_module, "_DECKS", {})
        found = cr.check(state, deal(*hands))
        assert (None if found is None else str(found)) == error
    gurka = cr.new_game(cr.ruleset("gurka", hand_size=2), 2)  # a deck that holds every card once
    for hands, error in [
        (("2C 3C", "4C 5C"), None),
        (("2C 3C", "3C 5C"), "bad deal: 3C appears 2 times, but the deck holds it once"),
    ]:
        monkeypatch.setattr(dealing_module, "_DECKS", {})
        found = cr.check(gurka, deal(*hands))
        assert (None if found is None else str(found)) == error


def test_a_deal_counts_its_stock_against_the_deck() -> None:
    five = cr.new_game(cr.ruleset("five-cucumbers", hand_size=3), 3)
    legal = attrs.evolve(deal("7 7 7", "8 8 8", "8 9 9"), stock=["7"])
    assert cr.check(five, legal) is None
    fifth = attrs.evolve(legal, stock=["7", "7"])
    assert str(cr.check(five, fifth)) == "bad deal: 7 appears 5 times, but the deck holds it 4 times"
    # The first card used too often is named, not one seen fewer times than the deck holds it.
    over = deal("7 7 7", "8 8 8", "8 8 9")
    assert str(cr.check(five, over)) == "bad deal: 8 appears 5 times, but the deck holds it 4 times"
    gurka = cr.new_game(cr.ruleset("gurka", hand_size=1), 2)
    assert str(cr.check(gurka, cr.Deal(hands=[["2C"], ["3C"]], stock=["2C"]))) == (
        "bad deal: 2C appears 2 times, but the deck holds it once"
    )


# --------------------------------------------------------------------------- the state between tricks


def test_ladder_trick_state_after_the_deal_and_after_the_round() -> None:
    state = start(cr.ruleset("gurka", hand_size=1), "5C", "9D")
    r = state.round
    assert r is not None
    assert (state.high, r.taker, r.trick, r.leader) == (0, -1, (), 0)
    state = play(state, "5C", "9D")
    r = state.round
    assert r is not None
    assert state.to_act == cr.CHANCE
    assert (state.high, r.taker, r.trick, r.leader) == (0, -1, (), 1)


def test_seats_not_dealt_in_have_no_seat_after_them() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    state = pay_round(cr.new_game(rules, 4), payer=1, paid="9S")
    state = cr.apply(state, deal("2C", "", "3C", "4C"))
    r = state.round
    assert r is not None
    assert r.seats == (0, 2, 3)
    assert r.after == (2, -1, 3, 0)


def test_the_seat_order_is_computed_again_when_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    for seats, players, expected in [
        ((0, 1, 2), 3, (1, 2, 0)),
        ((0, 2, 3), 4, (2, -1, 3, 0)),
        ((1, 3), 5, (-1, 3, -1, 1, -1)),
    ]:
        monkeypatch.setattr(dealing_module, "_AFTER", {})
        assert dealing_module.after_table(seats, players) == expected
        assert dealing_module.after_table(list(seats), players) == expected  # from the cache now
    monkeypatch.setattr(dealing_module, "_AFTER", {})
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    state = pay_round(cr.new_game(rules, 4), payer=1, paid="9S")
    monkeypatch.setattr(dealing_module, "_AFTER", {})
    state = cr.apply(state, deal("2C", "", "3C", "4C"))
    assert state.round is not None
    assert state.round.after == (2, -1, 3, 0)


def test_a_ladder_deal_has_no_stock() -> None:
    drawn = cr.sample_chance(cr.new_game(cr.ruleset("five-cucumbers"), 2), random.Random(3))
    assert isinstance(drawn, cr.Deal)
    assert drawn.stock == ()


def test_new_game_seats_four_players_by_default() -> None:
    assert cr.new_game(cr.ruleset("agurk")).num_players == 4


def test_a_preset_without_overrides_is_the_shared_preset() -> None:
    assert cr.ruleset("agurk") is cr.RULESETS["agurk"]
    assert cr.ruleset("Danish") is cr.RULESETS["agurk"]


def test_cucumber_tables_given_as_lists_become_tuples() -> None:
    table = [1] * 60
    rules = cr.ruleset("catastrophe", cucumbers=table)
    assert rules.cucumbers == (1,) * 60
    assert type(rules.cucumbers) is tuple


def test_preset_names_ignore_spaces_around_dashes() -> None:
    assert cr.ruleset("five - cucumbers").name == "five-cucumbers"
    assert cr.ruleset("Fuenf__Gurken").name == "fuenf-gurken"


def test_catastrophe_options_are_type_checked() -> None:
    for option, value in [("surprise", "yes"), ("cant_beat_em", 1), ("hands", "4")]:
        with pytest.raises(cr.InvalidRulesError) as raised:
            cr.ruleset("catastrophe", **{option: value})
        assert raised.value.option == option


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


# --------------------------------------------------------------------------- every error says why, exactly


def _raises(kind: type[Exception], call: Any) -> str:
    with pytest.raises(kind) as raised:
        call()
    return str(raised.value)


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (
            lambda: cr.card(12.0),  # type: ignore[arg-type]
            TypeError,
            "a card is written as a string such as 'QS' or '42' (or a number), not float",
        ),
        (
            lambda: cr.card("10HS"),
            InvalidNotationError,
            "'10HS' is not a card: write e.g. 'QS', '10H', 'A♠' or '42'",
        ),
        (lambda: cr.new_game("agurk"), TypeError, "rules must be a Rules (see ruleset()), not str"),  # type: ignore[arg-type]
        (
            lambda: cr.new_game(cr.ruleset("agurk"), True),
            TypeError,
            "players must be a count or a list of names",
        ),
        (
            lambda: cr.new_game(cr.ruleset("agurk"), "Ann"),
            TypeError,
            "players must be a count or a list of names, not str",
        ),
        (lambda: cr.new_game(cr.ruleset("agurk"), ["A", "B", 3]), TypeError, "player names must be strings"),  # type: ignore[list-item]
        (
            lambda: cr.new_game(cr.ruleset("agurk"), 3, first="0"),  # type: ignore[arg-type]
            TypeError,
            "first must be a seat number, not str",
        ),
        (
            lambda: cr.new_game(cr.ruleset("agurk"), 3, first=3),
            cr.InvalidRulesError,
            "first must be a seat 0..2, not 3",
        ),
        (
            lambda: cr.sample_chance(cr.new_game(cr.ruleset("agurk"), 3), 7),  # type: ignore[arg-type]
            TypeError,
            "rng must be a random.Random, not int",
        ),
        (
            lambda: cr.check(cr.new_game(cr.ruleset("agurk"), 3), "QS"),  # type: ignore[arg-type]
            TypeError,
            "expected an action (Deal, Play or a game's decision), not str",
        ),
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
def test_error_messages(call: Any, kind: type[Exception], message: str) -> None:
    assert _raises(kind, call) == message


def test_move_error_messages() -> None:
    fresh = cr.new_game(cr.ruleset("gurka"), 2)
    assert str(cr.check(fresh, Play(0, "AS"))) == (
        "seat 0 cannot play AS: a deal is due first (apply a Deal, e.g. from sample_chance)"
    )
    hands = [h.split() for h in ("2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D")]
    with_leader = cr.Deal(hands=hands, leader=1)
    assert str(cr.check(fresh, with_leader)) == (
        "bad deal: the ladder game never draws a leader, so leader must be None"
    )
    dealt = cr.apply(fresh, deal("2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D"))
    assert _raises(cr.IllegalMoveError, lambda: cr.sample_chance(dealt, random.Random(1))) == (
        "no deal is due: it is seat 0's turn"
    )
    over = play(start(cr.ruleset("gurka", hand_size=1, fixed_rounds=1), "5C", "9D"), "5C", "9D")
    assert _raises(cr.IllegalMoveError, lambda: cr.sample_chance(over, random.Random(1))) == (
        "the match is over; no deal is due"
    )


def test_revival_decision_messages() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
    state = pay_round(cr.new_game(rules, 3), payer=2, paid="9S")
    assert str(cr.check(state, Play(2, "2C"))) == (
        "seat 2 cannot play now: they must first decide whether to buy back in "
        "(Revive(seat, True) or Revive(seat, False))"
    )
    assert str(cr.check(state, Revive(1, True))) == (
        "seat 1 cannot decide now: seat 2 must decide whether to buy back in"
    )


def test_follow_messages_name_the_card_to_beat() -> None:
    five = start(cr.ruleset("five-cucumbers", hand_size=3), "12 2 3", "4 6 13")
    five = play(five, "12")
    assert (
        str(cr.check(five, Play(1, "6")))
        == "seat 1 cannot play 6: must play 12 or higher, or the lowest card 4"
    )
    forced = start(cr.ruleset("gurka", hand_size=3, ace_lead=False), "9S 2H 3H", "2C 3C 9D")
    forced = play(forced, "9S")
    assert (
        str(cr.check(forced, Play(1, "3C"))) == "seat 1 cannot play 3C: must play 9 or higher (they hold 9D)"
    )
    assert (
        str(cr.check(forced, Play(1, "2C"))) == "seat 1 cannot play 2C: must play 9 or higher (they hold 9D)"
    )


def test_next_seat_without_a_seat_to_choose() -> None:
    assert next_seat(2, (0, 1, 2), 3) == 0
    assert _raises(ValueError, lambda: next_seat(0, (), 3)) == "no seat to choose from"


def test_catastrophe_deal_leader_messages() -> None:
    rules = cr.ruleset("catastrophe", hand_size=1, hands=2)
    state = cr.new_game(rules, 3, first=1)
    first_hand = cr.Deal(hands=[["7"], ["9"], ["8"]], leader=2)
    assert str(cr.check(state, first_hand)) == (
        "bad deal: seat 1 starts this hand (seat `first` starts the first hand), "
        "so leader must be None or 1, not 2"
    )
    state = play(cr.apply(state, deal("7", "9", "8")), "9", "8", "7")  # Low rule: seat 0's 7 takes
    assert cr.score(state).totals == (3, 0, 0)
    second = cr.Deal(hands=[["7"], ["9"], ["8"]], leader=1)
    assert str(cr.check(state, second)) == (
        "bad deal: seat 0 starts this hand (it has the highest total), so leader must be None or 0, not 1"
    )


def test_a_new_trick_starts_with_no_high_card_and_no_taker() -> None:
    state = start(cr.ruleset("gurka", hand_size=2), "2C 9C", "3C KC", "4C 10C")
    state = play(state, "2C", "3C", "10C")  # seat 2 takes the first trick and leads the second
    assert (state.to_act, state.trick, state.high, state.taker) == (2, (), 0, -1)
    assert state.round is not None
    assert (state.round.leader, state.round.best, state.round.taker) == (2, None, -1)
    assert len(state.round.tricks) == 1
    doc = json.loads(cr.dumps(state))
    assert (doc["best"], doc["extra"], doc["trick"]) == (None, None, [])
