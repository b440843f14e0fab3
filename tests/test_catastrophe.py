"""Cucumber Catastrophe: the rules, the rulings (SPEC 7, 8, 9), both variants, errors and messages.

The two worked examples of the rulebook are replayed card for card on a rigged 6-player deal.
Scenarios that need exact scores use a custom `cucumbers` table (`TABLE`): cards 1..40
carry no cucumbers and card 40 + k carries k, so a trick's worth is easy to rig.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Sequence
from itertools import product

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules.actions import Action, Deal, Play
from cucumber_rules.games.catastrophe import CATASTROPHE, Marker
from cucumber_rules.games.catastrophe.scoring import starters
from cucumber_rules.games.ladder import Revive
from cucumber_rules.state import Round, State
from helpers import assert_illegal, catastrophe_state, catastrophe_trick, deal, names, play, start

#: Cards 1..40 carry no cucumbers, card 40 + k carries k (card 45 is the one 5-cucumber card).
TABLE = tuple(max(0, n - 40) for n in range(1, 61))

PLAYERS = ["Rick", "Martha", "Andrew", "Stephen", "Simon", "Eleonore"]
RICK, MARTHA, ANDREW, STEPHEN, SIMON, ELEONORE = range(6)

#: A 6-player deal of all 60 cards holding the cards of both worked examples.
EXAMPLE_HANDS = (
    "22 39 40 41 42 43 44 45 46 47",  # Rick: after 22, nothing lower than 38
    "2 3 4 5 6 7 8 15 30 58",  # Martha
    "1 10 11 12 13 14 16 17 18 27",  # Andrew
    "26 49 50 51 52 53 54 56 57 59",  # Stephen: after 26, nothing lower than 39
    "19 20 21 24 25 28 29 32 34 38",  # Simon
    "9 23 31 33 35 36 37 48 55 60",  # Eleonore
)


def legal_cards(state: State) -> list[str]:
    return names(state, cr.legal_moves(state))


def round_of(state: State) -> Round:
    assert state.round is not None
    return state.round


def hand_of(state: State, seat: int) -> list[str]:
    return [str(c) for c in round_of(state).hands[seat]]


def rules(**options: object) -> cr.Rules:
    return cr.ruleset("catastrophe", **options)


def surprise_deal(hands: Sequence[str], stock: str) -> Deal:
    return Deal(hands=[h.split() for h in hands], stock=stock.split())


def example_start() -> State:
    return cr.apply(cr.new_game(rules(), PLAYERS), deal(*EXAMPLE_HANDS))


def step(state: State, text: str, *, legal: list[str] | None, marker: str | None, taker: int) -> State:
    """Play `text` for the seat to act, checking its legal cards before and the marker and taker after."""
    if legal is not None:
        assert legal_cards(state) == legal, f"legal cards before {text}"
    state = play(state, text)
    assert state.round is not None
    assert catastrophe_state(state).marker == marker, f"marker after {text}"
    assert state.extra == marker  # the game's per-trick value is the marker
    if state.trick:
        assert state.round.taker == taker, f"taker after {text}"
    return state


# --------------------------------------------------------------------------- the worked examples


def after_example_1() -> State:
    s = example_start()
    assert s.to_act == RICK
    assert s.match.dealer == ELEONORE
    s = step(s, "22", legal=["22", "39", "40", "41", "42", "43", "44", "46", "47"], marker=None, taker=RICK)
    assert catastrophe_state(s).lead == cr.card("22")
    s = step(s, "30", legal=hand_of(s, MARTHA), marker="high", taker=MARTHA)
    assert legal_cards(s) == ["27"]
    assert_illegal(
        s,
        Play(ANDREW, "1"),
        "must-follow-marker",
        "seat 2 cannot play 1: the High rule is in force, play a card higher than 22 (they hold 27)",
    )
    s = step(s, "27", legal=None, marker="high", taker=MARTHA)
    s = step(s, "26", legal=hand_of(s, STEPHEN), marker="high", taker=MARTHA)
    s = step(s, "34", legal=["24", "25", "28", "29", "32", "34", "38"], marker="high", taker=SIMON)
    s = step(s, "23", legal=hand_of(s, ELEONORE)[1:], marker=None, taker=SIMON)
    return s


def test_example_1_simon_takes_the_trick_under_the_high_rule() -> None:
    s = after_example_1()
    (trick,) = map(catastrophe_trick, round_of(s).tricks)
    assert [(p.seat, str(p.card)) for p in trick.plays] == [
        (RICK, "22"),
        (MARTHA, "30"),
        (ANDREW, "27"),
        (STEPHEN, "26"),
        (SIMON, "34"),
        (ELEONORE, "23"),
    ]
    assert trick.leader == RICK
    assert trick.taker == SIMON
    assert trick.marker == "high"
    assert trick.revealed is None
    assert sorted(str(c) for c in round_of(s).captured[SIMON]) == sorted(["22", "30", "27", "26", "34", "23"])
    assert all(not round_of(s).captured[seat] for seat in range(6) if seat != SIMON)
    assert s.to_act == SIMON
    assert round_of(s).leader == SIMON
    assert s.trick == ()


def test_example_2_rick_breaks_the_low_rule_and_stephen_takes_it_with_59() -> None:
    s = after_example_1()
    # Simon won the last trick and leads; he may not lead his 25 (5 cucumbers).
    s = step(s, "38", legal=["19", "20", "21", "24", "28", "29", "32", "38"], marker=None, taker=SIMON)
    s = step(s, "31", legal=hand_of(s, ELEONORE), marker="low", taker=ELEONORE)
    # Rick holds nothing lower than 38: every card is legal, and playing one breaks the rule.
    s = step(s, "39", legal=hand_of(s, RICK), marker="low-broken", taker=RICK)
    # Martha holds 58, which an unbroken Low rule would forbid: now she plays freely.
    assert "58" in legal_cards(s)
    s = step(s, "15", legal=hand_of(s, MARTHA), marker="low-broken", taker=RICK)
    s = step(s, "1", legal=hand_of(s, ANDREW), marker="low-broken", taker=RICK)
    s = step(s, "59", legal=hand_of(s, STEPHEN), marker=None, taker=STEPHEN)
    trick = catastrophe_trick(round_of(s).tricks[-1])
    assert [str(p.card) for p in trick.plays] == ["38", "31", "39", "15", "1", "59"]
    assert trick.leader == SIMON
    assert trick.taker == STEPHEN
    assert trick.marker == "low-broken"
    assert sorted(c.rank for c in round_of(s).captured[STEPHEN]) == [1, 15, 31, 38, 39, 59]
    assert s.to_act == STEPHEN


def test_the_example_hand_scores_every_cucumber_of_the_deck() -> None:
    s = after_example_1()
    while s.to_act is not None and s.to_act >= 0:
        s = cr.apply(s, cr.legal_moves(s)[0])
    assert s.to_act == cr.CHANCE
    score = cr.score(s)
    (row,) = score.round_points
    assert sum(row) == 6 * 5 + 54  # six 5-cucumber cards, 54 cards of 1
    assert score.totals == row
    for seat in range(6):
        assert row[seat] == sum(5 if c.rank % 10 == 5 else 1 for c in round_of(s).captured[seat])
    assert len(round_of(s).tricks) == 10


# --------------------------------------------------------------------------- the lead


def test_a_five_cucumber_card_may_not_lead_while_other_cards_are_held() -> None:
    s = start(rules(hand_size=3), "5 7 15", "1 2 3", "4 6 8")
    assert legal_cards(s) == ["7"]
    assert_illegal(
        s,
        Play(0, "15"),
        "cannot-lead-five",
        "seat 0 cannot lead 15: a 5-cucumber card may not lead a trick while the hand holds other cards "
        "(lead one of 7)",
    )


def test_a_hand_of_only_five_cucumber_cards_may_lead_one() -> None:
    s = start(rules(hand_size=2), "5 15", "1 2", "3 4")
    assert legal_cards(s) == ["5", "15"]
    s = play(s, "15")
    assert s.to_act == 1


def test_five_cucumber_cards_may_be_played_when_not_leading() -> None:
    s = start(rules(hand_size=2), "10 11", "5 12", "15 25")
    s = play(s, "10")
    assert legal_cards(s) == ["5", "12"]  # the second card is free, fives included
    s = play(s, "5")
    assert catastrophe_state(s).marker == "low"
    assert legal_cards(s) == ["15", "25"]  # nothing lower than 10: free, fives included


def test_the_five_cucumber_cards_follow_the_cucumbers_table() -> None:
    # Card 7 carries 5 cucumbers and card 5 only 1: 7 may not lead, 5 may.
    table = tuple(5 if n == 7 else 1 for n in range(1, 61))
    s = start(rules(hand_size=2, cucumbers=table), "5 7", "1 2", "3 4")
    assert legal_cards(s) == ["5"]
    assert cr.check(s, Play(0, "7")) is not None
    assert [str(c) for c in rules(cucumbers=table)._plan.fives] == ["7"]


def test_the_leader_may_lead_any_other_card() -> None:
    s = start(rules(hand_size=3), "1 30 60", "2 3 4", "6 8 9")
    assert legal_cards(s) == ["1", "30", "60"]


# --------------------------------------------------------------------------- the Trick Marker


def test_the_second_card_sets_the_high_rule_when_higher() -> None:
    s = start(rules(hand_size=1), "20", "21", "22")
    assert catastrophe_state(s).marker is None
    s = play(s, "20")
    assert catastrophe_state(s).marker is None
    assert catastrophe_state(s).lead == cr.card("20")
    s = play(s, "21")
    assert catastrophe_state(s).marker == "high"


def test_the_second_card_sets_the_low_rule_when_lower() -> None:
    s = play(start(rules(hand_size=1), "20", "19", "18"), "20", "19")
    assert catastrophe_state(s).marker == "low"


def test_the_high_rule_binds_a_player_who_can_obey() -> None:
    s = play(start(rules(hand_size=3), "38 1 2", "40 3 4", "6 41 60"), "38", "40")
    assert catastrophe_state(s).marker == "high"
    assert legal_cards(s) == ["41", "60"]
    err = assert_illegal(
        s,
        Play(2, "6"),
        "must-follow-marker",
        "seat 2 cannot play 6: the High rule is in force, play a card higher than 38 (they hold 41, 60)",
    )
    assert err.seat == 2


def test_the_low_rule_binds_a_player_who_can_obey() -> None:
    s = start(rules(hand_size=3), "38 50 51", "31 52 53", "1 2 3", "4 9 54")
    s = play(s, "38", "31")
    assert catastrophe_state(s).marker == "low"
    assert legal_cards(s) == ["1", "2", "3"]
    s = play(s, "2")
    assert catastrophe_state(s).marker == "low"
    assert legal_cards(s) == ["4", "9"]
    assert_illegal(
        s,
        Play(3, "54"),
        "must-follow-marker",
        "seat 3 cannot play 54: the Low rule is in force, play a card lower than 38 (they hold 4, 9)",
    )
    s = play(s, "9")
    assert round_of(s).tricks[0].taker == 2  # the lowest card, 2


def test_unbroken_high_the_highest_card_takes_the_trick() -> None:
    s = play(start(rules(hand_size=1), "20", "30", "50", "40"), "20", "30", "50", "40")
    assert round_of(s).tricks[0].taker == 2
    assert catastrophe_trick(round_of(s).tricks[0]).marker == "high"


def test_unbroken_low_the_lowest_card_takes_the_trick() -> None:
    s = play(start(rules(hand_size=1), "40", "30", "10", "20"), "40", "30", "10", "20")
    assert round_of(s).tricks[0].taker == 2
    assert catastrophe_trick(round_of(s).tricks[0]).marker == "low"


def test_breaking_the_high_rule_flips_the_marker_and_frees_every_later_player() -> None:
    s = start(rules(hand_size=2), "30 1", "40 2", "10 20", "35 50", "3 60")
    s = play(s, "30", "40")
    assert legal_cards(s) == ["10", "20"]  # nothing higher than 30: any card
    s = play(s, "20")
    assert catastrophe_state(s).marker == "high-broken"
    assert round_of(s).taker == 2  # the breaker's card is the lowest so far
    assert legal_cards(s) == ["35", "50"]  # free: 35 would have been required anyway
    s = play(s, "50")
    assert catastrophe_state(s).marker == "high-broken"
    assert legal_cards(s) == ["3", "60"]  # free, although seat 4 holds 60 > 30
    s = play(s, "3")
    assert round_of(s).tricks[0].taker == 4  # the lowest card wins after a broken High
    assert catastrophe_trick(round_of(s).tricks[0]).marker == "high-broken"
    assert s.to_act == 4


def test_breaking_the_low_rule_flips_the_marker_the_highest_card_wins() -> None:
    s = start(rules(hand_size=2), "30 1", "20 2", "40 50", "10 45", "3 60")
    s = play(s, "30", "20")
    assert legal_cards(s) == ["40", "50"]
    s = play(s, "40")
    assert catastrophe_state(s).marker == "low-broken"
    assert legal_cards(s) == ["10", "45"]
    s = play(s, "10")
    s = play(s, "60")
    assert round_of(s).tricks[0].taker == 4
    assert catastrophe_trick(round_of(s).tricks[0]).marker == "low-broken"
    assert catastrophe_state(s).marker is None


def test_the_breaker_keeps_the_trick_if_no_later_card_beats_it() -> None:
    s = play(start(rules(hand_size=1), "30", "40", "10", "20"), "30", "40", "10", "20")
    assert round_of(s).tricks[0].taker == 2


def test_the_taker_captures_the_trick_and_leads_the_next() -> None:
    s = start(rules(hand_size=2, cucumbers=TABLE), "30 1", "40 2", "41 3")
    s = play(s, "30", "40", "41")
    assert round_of(s).captured == ((), (), tuple(cr.card(t) for t in ("30", "40", "41")))
    assert s.to_act == 2
    assert round_of(s).leader == 2
    assert catastrophe_state(s).marker is None


# --------------------------------------------------------------------------- scoring a hand


def test_a_hand_scores_the_cucumbers_on_captured_cards_default_table() -> None:
    # Default table (ruling 7): 5 on 5, 15, ..., 55 and 1 on every other card.
    s = start(rules(hand_size=1, hand_count=2), "1", "25", "30")
    s = play(s, "1", "25", "30")
    score = cr.score(s)
    assert score.round_points == ((0, 0, 7),)
    assert score.totals == (0, 0, 7)
    assert score.results[0].points == (0, 0, 7)
    assert score.results[0].totals == (0, 0, 7)
    assert score.winners == ()
    assert s.to_act == cr.CHANCE


def test_a_custom_cucumbers_table_scores_the_hand() -> None:
    s = play(start(rules(hand_size=1, hand_count=2, cucumbers=TABLE), "1", "42", "60"), "1", "42", "60")
    assert cr.score(s).round_points == ((0, 0, 22),)


def test_score_before_any_hand() -> None:
    score = cr.score(cr.new_game(rules(), 4))
    assert score.totals == (0, 0, 0, 0)
    assert score.round_points == ()
    assert score.winners == ()
    assert not isinstance(score, cr.LadderScore)  # marks and eliminations are the ladder's
    assert "eliminated" not in attrs.fields_dict(type(score))
    assert score.standings == (0, 1, 2, 3)


# --------------------------------------------------------------------------- hands, starters, the end


def one_trick(state: State, cards: str, leader: int | None = None) -> State:
    """Deal one card a seat (hand_size=1) and play the trick; `cards` is in seat order."""
    hands = cards.split()
    state = cr.apply(state, Deal(hands=[[h] for h in hands], leader=leader))
    while state.to_act is not None and state.to_act >= 0:
        assert state.round is not None
        state = cr.apply(state, Play(state.to_act, state.round.hands[state.to_act][0]))
    return state


def test_seat_first_starts_the_first_hand_and_the_seat_before_it_deals() -> None:
    s = start(rules(hand_size=1), "1", "2", "3", "4", first=2)
    assert s.to_act == 2
    assert round_of(s).leader == 2
    assert s.match.dealer == 1


def test_the_first_hand_leader_must_be_none_or_seat_first() -> None:
    s = cr.new_game(rules(hand_size=1), 3, first=1)
    assert cr.is_legal(s, Deal(hands=[["1"], ["2"], ["3"]], leader=1))
    assert_illegal(
        s,
        Deal(hands=[["1"], ["2"], ["3"]], leader=0),
        "bad-deal",
        "bad deal: seat 1 starts this hand (seat `first` starts the first hand), so leader must be None "
        "or 1, not 0",
    )


def test_the_highest_total_starts_the_next_hand() -> None:
    s = one_trick(cr.new_game(rules(hand_size=1, hand_count=3, cucumbers=TABLE), 3), "1 2 41")
    assert cr.score(s).totals == (0, 0, 1)
    assert catastrophe_state(s).match.starter == 2
    assert starters(s) == (2,)
    hands = [["3"], ["4"], ["5"]]
    assert_illegal(s, Deal(hands=hands, leader=0), "bad-deal")
    assert cr.is_legal(s, Deal(hands=hands, leader=2))
    t = cr.apply(s, Deal(hands=hands))
    assert t.to_act == 2
    assert t.match.dealer == 1
    assert cr.sample_chance(s, random.Random(1)).leader is None  # type: ignore[union-attr]


def tied_after_two_hands() -> State:
    s = cr.new_game(rules(hand_size=1, hand_count=3, cucumbers=TABLE), 3)
    s = one_trick(s, "1 2 41")  # seat 2 takes 1
    s = one_trick(s, "4 41 3")  # seat 2 leads 3, seat 0 plays 4 (high), seat 1 plays 41: takes 1
    assert cr.score(s).totals == (0, 1, 1)
    return s


def test_a_tie_for_the_highest_total_is_broken_by_the_deals_leader() -> None:
    s = tied_after_two_hands()
    assert starters(s) == (1, 2)
    assert catastrophe_state(s).match.starter == -1
    hands = [["5"], ["6"], ["7"]]
    err = assert_illegal(s, Deal(hands=hands), "bad-deal")
    assert "seats 1, 2 tie for the highest total" in str(err)
    assert_illegal(
        s,
        Deal(hands=hands, leader=0),
        "bad-deal",
        "bad deal: seats 1, 2 tie for the highest total, so the deal's leader must be one of them "
        "(drawn at random), not 0",
    )
    for leader in (1, 2):
        t = cr.apply(s, Deal(hands=hands, leader=leader))
        assert t.to_act == leader
        assert round_of(t).leader == leader
        assert t.match.dealer == leader - 1


def test_sample_chance_draws_the_starter_among_the_tied_seats_with_the_rng() -> None:
    s = tied_after_two_hands()
    drawn = set()
    for seed in range(30):
        d = cr.sample_chance(s, random.Random(seed))
        assert isinstance(d, Deal)
        assert cr.is_legal(s, d)
        drawn.add(d.leader)
    assert drawn == {1, 2}
    assert cr.sample_chance(s, random.Random(5)) == cr.sample_chance(s, random.Random(5))


def test_the_match_ends_after_hands_hands() -> None:
    s = tied_after_two_hands()
    s = one_trick(s, "5 6 7", leader=1)  # seat 1 leads 6, seat 2 plays 7, seat 0 plays 5: 7 takes 0
    assert s.is_over
    assert s.to_act is None
    assert s.match.rounds == 3
    assert cr.score(s).winners == (0,)
    assert s.match.winners == (0,)
    assert cr.score(s).standings[0] == 0
    assert_illegal(s, Play(0, "5"), "game-over")
    assert_illegal(s, Deal(hands=[["5"], ["6"], ["7"]]), "game-over")


def test_the_hands_option_sets_the_number_of_hands() -> None:
    s = one_trick(cr.new_game(rules(hand_size=1, hand_count=1), 3), "1 2 3")
    assert s.is_over
    s = one_trick(cr.new_game(rules(hand_size=1, hand_count=2), 3), "1 2 3")
    assert not s.is_over


def two_hand_match(hand1: Sequence[str], plays1: str, hand2: Sequence[str], plays2: str) -> State:
    s = cr.new_game(rules(hand_size=2, hand_count=2, cucumbers=TABLE), 3, first=1)
    s = play(cr.apply(s, deal(*hand1)), *plays1.split())
    return play(cr.apply(s, deal(*hand2)), *plays2.split())


def test_final_ranking_a_tie_goes_to_the_lowest_single_hand_score() -> None:
    s = two_hand_match(
        ["3 41", "1 42", "2 4"],
        "1 2 41  3 42 4",  # seat 0 takes 1, then seat 1 takes 2
        ["8 41", "6 9", "7 43"],
        "6 7 41  8 9 43",  # seat 0 takes 1, then seat 2 takes 3
    )
    score = cr.score(s)
    assert score.round_points == ((1, 2, 0), (1, 0, 3))
    assert score.totals == (2, 2, 3)
    assert score.winners == (1,)  # 2 like seat 0, but a hand of 0 beats seat 0's best hand of 1
    assert score.standings == (1, 0, 2)


def test_final_ranking_still_tied_shares_the_win() -> None:
    s = two_hand_match(
        ["3 42", "1 4", "2 41"],
        "1 2 42  3 4 41",  # seat 0 takes 2, then seat 2 takes 1
        ["6 9", "8 42", "7 43"],
        "6 42 7  8 43 9",  # seat 1 takes 2, then seat 2 takes 3
    )
    score = cr.score(s)
    assert score.totals == (2, 2, 4)
    assert score.winners == (0, 1)
    assert score.standings == (0, 1, 2)


def test_the_fewest_cucumbers_win_outright() -> None:
    s = two_hand_match(
        ["3 41", "1 42", "2 4"],
        "1 2 41  3 42 4",  # seat 0 takes 1, then seat 1 takes 2
        ["8 6", "41 9", "7 43"],
        "41 43 6  8 9 7",  # seat 0 takes 41 43 6 (4), then seat 1 takes 0
    )
    score = cr.score(s)
    assert score.totals == (5, 2, 0)
    assert score.winners == (2,)
    assert score.standings == (2, 1, 0)
    t = one_trick(cr.new_game(rules(hand_size=1, hand_count=1, cucumbers=TABLE), 3), "42 43 41")
    # 42 leads, 43 sets High, 41 breaks it: the lowest (41) takes 6 cucumbers.
    assert cr.score(t).totals == (0, 0, 6)
    assert cr.score(t).winners == (0, 1)


# --------------------------------------------------------------------------- Surprise Cucumber


def test_surprise_reveals_each_lead_from_the_stock_top_first() -> None:
    r = rules(surprise=True, hand_size=2)
    s = cr.apply(cr.new_game(r, 3), surprise_deal(["10 45", "40 50", "20 60"], "30 15 1"))
    assert round_of(s).revealed == cr.card("30")
    assert catastrophe_state(s).lead == cr.card("30")
    assert round_of(s).stock == (cr.card("15"), cr.card("1"))
    assert catastrophe_state(s).marker is None
    assert s.to_act == 0
    # The first player plays from hand and sets the rule; no lead restriction (45 allowed).
    assert legal_cards(s) == ["10", "45"]
    s = play(s, "45")
    assert catastrophe_state(s).marker == "high"
    assert round_of(s).taker == 0
    assert legal_cards(s) == ["40", "50"]
    assert_illegal(s, Play(1, "30"), "not-in-hand")  # the revealed card is no one's
    s = play(s, "40")
    assert legal_cards(s) == ["60"]
    s = play(s, "60")
    trick = catastrophe_trick(round_of(s).tricks[0])
    assert trick.revealed == cr.card("30")
    assert trick.leader == 0
    assert trick.taker == 2
    assert trick.marker == "high"
    assert sorted(c.rank for c in round_of(s).captured[2]) == [30, 40, 45, 60]
    # The taker starts the next trick on the next revealed card, a 5-cucumber card.
    assert s.to_act == 2
    assert round_of(s).revealed == cr.card("15")
    assert catastrophe_state(s).lead == cr.card("15")
    assert round_of(s).stock == (cr.card("1"),)
    assert catastrophe_state(s).marker is None


def test_surprise_the_first_play_below_the_revealed_card_sets_low() -> None:
    r = rules(surprise=True, hand_size=1)
    s = cr.apply(cr.new_game(r, 3), surprise_deal(["10", "40", "20"], "30"))
    s = play(s, "10")
    assert catastrophe_state(s).marker == "low"
    s = play(s, "40")
    assert catastrophe_state(s).marker == "low-broken"
    s = play(s, "20")
    score = cr.score(s)
    assert score.round_points == ((0, 4, 0),)  # 30, 10, 40, 20: the highest (40) takes all four
    assert round_of(s).revealed is None
    assert catastrophe_trick(round_of(s).tricks[0]).marker == "low-broken"


def test_surprise_six_players_get_eight_cards_and_play_eight_tricks() -> None:
    r = rules(surprise=True)
    assert r.cards_per_player(6) == 8
    assert r.cards_per_player(5) == 10
    assert rules().cards_per_player(6) == 10
    s = cr.new_game(r, 6)
    d = cr.sample_chance(s, random.Random(4))
    assert isinstance(d, Deal)
    assert [len(h) for h in d.hands] == [8] * 6
    assert len(d.stock) == 12
    assert len({*d.stock, *(c for h in d.hands for c in h)}) == 60
    s = cr.apply(s, d)
    tricks = 0
    while s.to_act is not None and s.to_act >= 0:
        s = cr.apply(s, cr.legal_moves(s)[0])
        tricks = len(round_of(s).tricks)
    assert tricks == 8
    assert len(round_of(s).stock) == 4
    err = cr.check(
        cr.new_game(r, 6), Deal(hands=[[str(10 * s_ + k) for k in range(1, 11)] for s_ in range(6)])
    )
    assert err is not None
    assert err.code == "bad-deal"
    assert str(err) == "bad deal: seat 0 must receive 8 cards, not 10"


def test_surprise_needs_a_stock_card_for_every_trick() -> None:
    r = rules(surprise=True, hand_size=2)
    s = cr.new_game(r, 3)
    assert_illegal(
        s,
        surprise_deal(["1 2", "3 4", "6 7"], "8"),
        "bad-deal",
        "bad deal: the stock must hold at least 2 cards, not 1",
    )
    assert cr.is_legal(s, surprise_deal(["1 2", "3 4", "6 7"], "8 9"))
    assert_illegal(s, surprise_deal(["1 2", "3 4", "6 7"], "8 1"), "bad-deal")  # 1 twice


def test_surprise_breaking_the_rule_against_the_revealed_card() -> None:
    r = rules(surprise=True, hand_size=1)
    s = cr.apply(cr.new_game(r, 4), surprise_deal(["40", "10", "20", "50"], "30"))
    s = play(s, "40")
    assert catastrophe_state(s).marker == "high"
    s = play(s, "10")  # nothing higher than the revealed 30: breaks
    assert catastrophe_state(s).marker == "high-broken"
    assert legal_cards(s) == ["20"]
    s = play(s, "20", "50")
    assert round_of(s).tricks[0].taker == 1


# --------------------------------------------------------------------------- If You Can't Beat 'Em


CANT_HANDS = ("1 35 5", "15 45 2", "25 30 55")
CANT_PLAYS = "1 15 25  30 35 45  2 55 5"  # seat 2 takes 1 15 25, seat 1 30 35 45, seat 2 2 55 5


def test_four_captured_five_cucumber_cards_score_minus_five() -> None:
    s = play(start(rules(hand_size=3, cant_beat_em=True), *CANT_HANDS), *CANT_PLAYS.split())
    assert cr.score(s).round_points == ((0, 11, -5),)  # seat 2: four fives, seat 1: two fives and 30
    assert cr.score(s).totals == (0, 11, -5)


def test_without_the_variant_four_fives_score_their_cucumbers() -> None:
    s = play(start(rules(hand_size=3), *CANT_HANDS), *CANT_PLAYS.split())
    assert cr.score(s).round_points == ((0, 11, 22),)


def test_three_captured_five_cucumber_cards_score_their_cucumbers() -> None:
    s = start(rules(hand_size=2, cant_beat_em=True), "5 15", "25 35", "45 55")
    s = play(s, "5", "25", "45", "55", "15", "35")
    assert cr.score(s).round_points == ((15, 0, 15),)


def test_cant_beat_em_deals_every_five_cucumber_card() -> None:
    r = rules(cant_beat_em=True, hand_size=3)
    s = cr.new_game(r, 3)
    assert_illegal(
        s,
        deal("1 35 5", "15 45 2", "25 30 3"),
        "bad-deal",
        "bad deal: If You Can't Beat 'Em deals all 6 5-cucumber cards (5, 15, 25, 35, 45, 55) into the "
        "hands; 55 is not in any hand",
    )
    err = cr.check(s, deal("1 35 6", "15 45 2", "25 30 3"))
    assert err is not None
    assert str(err).endswith("5, 55 are not in any hand")
    assert cr.is_legal(s, deal(*CANT_HANDS))
    # With Surprise, a 5-cucumber card in the stock instead of a hand is refused too.
    rs = rules(cant_beat_em=True, surprise=True, hand_size=3)
    bad = surprise_deal(["1 35 5", "15 45 2", "25 30 3"], "55 7 8")
    assert_illegal(cr.new_game(rs, 3), bad, "bad-deal")
    good = surprise_deal(list(CANT_HANDS), "6 7 8")
    assert cr.is_legal(cr.new_game(rs, 3), good)


@pytest.mark.parametrize(("surprise", "players"), list(product((False, True), (3, 6))))
def test_cant_beat_em_sample_deal_builds_the_ruling_8_deck(surprise: bool, players: int) -> None:
    r = rules(cant_beat_em=True, surprise=surprise)
    per = r.cards_per_player(players)
    s = cr.new_game(r, players)
    fives = {cr.card(str(n)) for n in (5, 15, 25, 35, 45, 55)}
    for seed in range(5):
        d = cr.sample_chance(s, random.Random(seed))
        assert isinstance(d, Deal)
        assert cr.is_legal(s, d)
        dealt = [c for h in d.hands for c in h]
        assert [len(h) for h in d.hands] == [per] * players
        assert fives <= set(dealt)
        assert len(d.stock) == (per if surprise else 0)
        assert not fives & set(d.stock)
        assert len(set(dealt) | set(d.stock)) == len(dealt) + len(d.stock)
        assert all(list(h) == sorted(h) for h in d.hands)
    a = cr.sample_chance(s, random.Random(9))
    b = cr.sample_chance(s, random.Random(9))
    assert a == b


def test_cant_beat_em_rules_need_room_for_every_five_cucumber_card() -> None:
    seven = tuple(5 if n in (1, 5, 15, 25, 35, 45, 55) else 1 for n in range(1, 61))
    with pytest.raises(cr.InvalidRulesError) as info:
        rules(cant_beat_em=True, hand_size=2, cucumbers=seven)
    assert info.value.option == "cant_beat_em"
    rules(cant_beat_em=True, hand_size=2)  # six fives fit in 3 x 2 cards
    rules(cant_beat_em=True, hand_size=3, cucumbers=seven)


def test_both_variants_combined() -> None:
    r = rules(cant_beat_em=True, surprise=True, hand_size=3)
    s = cr.apply(cr.new_game(r, 3), surprise_deal(list(CANT_HANDS), "40 50 60"))
    assert round_of(s).revealed == cr.card("40")
    assert legal_cards(s) == ["1", "5", "35"]  # rule-setting card: fives allowed
    s = play(s, "5")  # low against 40
    assert catastrophe_state(s).marker == "low"
    assert legal_cards(s) == ["2", "15"]
    s = play(s, "15", "30")
    assert round_of(s).tricks[0].taker == 0  # 5 is the lowest
    assert round_of(s).revealed == cr.card("50")
    s = autoplay_hand(s)
    score = cr.score(s)
    for seat in range(3):
        won = round_of(s).captured[seat]
        fives = sum(1 for c in won if c.rank % 10 == 5)
        expected = -5 if fives >= 4 else sum(5 if c.rank % 10 == 5 else 1 for c in won)
        assert score.round_points[0][seat] == expected


def autoplay_hand(s: State) -> State:
    while s.to_act is not None and s.to_act >= 0:
        s = cr.apply(s, cr.legal_moves(s)[0])
    return s


# --------------------------------------------------------------------------- errors and bad deals


def test_not_in_hand_message() -> None:
    s = start(rules(hand_size=2), "1 2", "3 4", "6 7")
    assert_illegal(
        s, Play(0, "3"), "not-in-hand", "seat 0 cannot play 3: it is not in their hand (they hold 1, 2)"
    )
    assert_illegal(s, Play(1, "3"), "not-your-turn")
    assert_illegal(s, Deal(hands=[["1"], ["2"], ["3"]]), "unexpected-deal")


def test_a_deal_is_expected_first() -> None:
    assert_illegal(cr.new_game(rules(), 3), Play(0, "1"), "deal-expected")


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (["1 2", "3 4"], "bad deal: 2 hands for 3 seats"),
        (["1 2", "3 4", "6"], "bad deal: seat 2 must receive 2 cards, not 1"),
        (["1 2", "3 4", "6 7 8"], "bad deal: seat 2 must receive 2 cards, not 3"),
        (["1 2", "3 4", "6 AS"], "bad deal: AS is not a card of this deck"),
        (["1 2", "3 4", "6 1"], "bad deal: 1 appears 2 times, but the deck holds it once"),
    ],
)
def test_bad_deals(hands: list[str], message: str) -> None:
    assert_illegal(cr.new_game(rules(hand_size=2), 3), deal(*hands), "bad-deal", message)


def test_a_stock_card_may_not_repeat_a_dealt_card() -> None:
    s = cr.new_game(rules(hand_size=2), 3)
    assert_illegal(s, surprise_deal(["1 2", "3 4", "6 7"], "7"), "bad-deal")
    assert cr.is_legal(s, surprise_deal(["1 2", "3 4", "6 7"], "8"))  # a stock is optional without Surprise


def test_catastrophe_has_no_decisions() -> None:
    s = start(rules(hand_size=1), "1", "2", "3")
    assert_illegal(s, Revive(0, True), "no-decision")
    err = CATASTROPHE.decision_error(s, Revive(0, False))
    assert err is not None
    assert err.code == "no-decision"
    assert Revive not in CATASTROPHE.decisions
    with pytest.raises(NotImplementedError):
        CATASTROPHE.decide(s, Revive(0, True))


def test_illegal_plays_leave_the_state_untouched_and_legal_plays_make_new_states() -> None:
    s = start(rules(hand_size=2), "1 2", "3 4", "6 7")
    before = s
    t = play(s, "2")
    assert s is before
    assert round_of(s).hands[0] == (cr.card("1"), cr.card("2"))
    assert round_of(t).hands[0] == (cr.card("1"),)
    assert len(t.history) == len(s.history) + 1


# --------------------------------------------------------------------------- random play


def check_conservation(state: State) -> None:
    """hands + current trick + captured + revealed + stock + undealt: the 60 cards, once each."""
    r = state.round
    assert r is not None
    deals = [a for a in state.actions if isinstance(a, Deal)]
    last = deals[-1]
    in_deal = {c for h in last.hands for c in h} | set(last.stock)
    undealt = [c for c in cr.DECKS["numbered-60"] if c not in in_deal]
    held = [c for h in r.hands for c in h]
    held += [p.card for p in r.trick]
    held += [c for won in r.captured for c in won]
    held += [r.revealed] if r.revealed is not None else []
    held += list(r.stock)
    held += undealt
    counts = Counter(held)
    assert len(held) == 60, len(held)
    assert set(counts) == set(cr.DECKS["numbered-60"])


def check_legal(state: State) -> None:
    moves = cr.legal_moves(state)
    assert moves
    cards_ = [m.card for m in moves if isinstance(m, Play)]
    assert len(cards_) == len(moves)
    assert cards_ == sorted(set(cards_))
    assert all(m.seat == state.to_act for m in moves if isinstance(m, Play))
    assert state.round is not None
    assert state.to_act is not None
    # Complete and sound: a card of the hand is legal exactly when listed.
    for c in state.round.hands[state.to_act]:
        assert cr.is_legal(state, Play(state.to_act, c)) == (c in cards_)


def expected_winners(rows: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    n = len(rows[0])
    totals = [sum(r[s] for r in rows) for s in range(n)]
    tied = [s for s in range(n) if totals[s] == min(totals)]
    best = {s: min(r[s] for r in rows) for s in tied}
    return tuple(s for s in tied if best[s] == min(best.values()))


@pytest.mark.parametrize(
    ("surprise", "cant_beat_em", "players"),
    [(a, b, n) for a, b in product((False, True), repeat=2) for n in (3, 4, 5, 6)],
)
def test_random_matches(surprise: bool, cant_beat_em: bool, players: int) -> None:
    r = rules(surprise=surprise, cant_beat_em=cant_beat_em, hand_count=2)
    rng = random.Random(players * 4 + 2 * surprise + cant_beat_em)
    per = r.cards_per_player(players)
    s = cr.new_game(r, players, first=players - 1)
    actions: list[Action] = []
    while not s.is_over:
        assert len(actions) <= 2 * (1 + players * per)
        if s.to_act == cr.CHANCE:
            assert cr.legal_moves(s) == ()
            action = cr.sample_chance(s, rng)
            assert isinstance(action, Deal)
            assert action.leader is None or action.leader in starters(s)
        else:
            check_legal(s)
            action = rng.choice(cr.legal_moves(s))
        s = cr.apply(s, action)
        actions.append(action)
        check_conservation(s)
        assert catastrophe_state(s).marker in (None, *tuple(Marker))
        if round_of(s).trick:
            assert round_of(s).taker in round_of(s).seats
        for trick in map(catastrophe_trick, round_of(s).tricks):
            assert trick.marker in tuple(Marker)
            assert (trick.revealed is not None) == surprise
            assert len(trick.plays) == players
    assert len(actions) == 2 * (1 + players * per)
    score = cr.score(s)
    assert len(score.round_points) == 2
    assert score.totals == tuple(sum(row[seat] for row in score.round_points) for seat in range(players))
    assert score.winners == expected_winners(score.round_points)
    assert set(score.standings) == set(range(players))
    assert score.standings[: len(score.winners)] == score.winners
    assert cr.apply_all(cr.new_game(r, players, first=players - 1), actions) == s


# --------------------------------------------------------------------------- trick state, validation, deals


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
    assert catastrophe_trick(r.tricks[-1]).marker == "high-broken"
    assert state.match.dealer == 2, "the finished hand keeps its dealer"


def test_catastrophe_not_in_hand_error_names_the_seat() -> None:
    state = start(cr.ruleset("catastrophe", hand_size=2), "7 20", "9 30", "8 40")
    error = assert_illegal(state, Play(0, "59"), "not-in-hand")
    assert error.seat == 0


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
        (
            {"cucumbers": (1,) * 59 + (101,)},
            "cucumbers",
            "cucumbers[59] (card 60) must be at most 100, not 101",
        ),
        (
            {"cucumbers": (2**53 - 1,) * 60},
            "cucumbers",
            f"cucumbers[0] (card 1) must be at most 100, not {2**53 - 1}",
        ),
        (
            {"cucumbers": (10**5000,) * 60},
            "cucumbers",
            "cucumbers[0] (card 1) must be at most 100, not more than 2**53 - 1",
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


def test_the_largest_cucumber_count_is_allowed() -> None:
    from cucumber_rules.games.catastrophe.rules import MAX_CUCUMBERS

    assert MAX_CUCUMBERS == 100
    rules = cr.ruleset("catastrophe", cucumbers=[MAX_CUCUMBERS] * 60)
    assert rules.cucumbers == (100,) * 60


def test_a_forged_view_with_the_largest_cucumbers_is_refused_quickly() -> None:
    # Checking a view does work in proportion to the counts: the bound keeps a refusal quick.
    rules = cr.ruleset("catastrophe", cucumbers=[100] * 60, hand_count=2)
    s = cr.new_game(rules, 3)
    rng = random.Random(1)
    while s.match.rounds < 1:
        s = cr.apply(s, cr.sample_chance(s, rng) if s.to_act == cr.CHANCE else rng.choice(cr.legal_moves(s)))
    s = cr.apply(s, cr.sample_chance(s, rng))
    view = cr.view(s, 0)
    assert cr.loads(cr.dumps(view)) == view
    cr.sample_world(view, random.Random(1))
    doc = json.loads(cr.dumps(view))
    doc["results"][0]["totals"][2] += 1
    doc["totals"][2] += 1
    started = time.process_time()
    with pytest.raises(cr.InvalidStateError):
        cr.loads(json.dumps(doc))
    assert time.process_time() - started < 0.5


def test_cucumber_tables_given_as_lists_become_tuples() -> None:
    table = [1] * 60
    rules = cr.ruleset("catastrophe", cucumbers=table)
    assert rules.cucumbers == (1,) * 60
    assert type(rules.cucumbers) is tuple


def test_catastrophe_options_are_type_checked() -> None:
    for option, value in [("surprise", "yes"), ("cant_beat_em", 1), ("hand_count", "4")]:
        with pytest.raises(cr.InvalidRulesError) as raised:
            cr.ruleset("catastrophe", **{option: value})
        assert raised.value.option == option


def test_surprise_deal_keeps_the_rest_of_the_deck_as_the_stock() -> None:
    drawn = cr.sample_chance(cr.new_game(cr.ruleset("catastrophe", surprise=True), 3), random.Random(7))
    assert isinstance(drawn, cr.Deal)
    assert [str(c) for c in drawn.stock[:5]] == ["50", "42", "12", "5", "15"]
    assert len(drawn.stock) == 30


def test_catastrophe_deal_leader_messages() -> None:
    rules = cr.ruleset("catastrophe", hand_size=1, hand_count=2)
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
