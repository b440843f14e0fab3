"""The ladder trick rules and the scoring of one round (SPEC §2, rulings 1, 2 and 4)."""

from __future__ import annotations

import json
import random

import pytest

import cucumber_rules as cr
from cucumber_rules import CHANCE, Play, State, card
from helpers import (
    assert_illegal,
    ladder_result,
    ladder_score,
    ladder_state,
    names,
    one_card_round,
    pay_round,
    play,
    start,
)

LADDER = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken")
OPTIONAL = ("agurk", "five-cucumbers", "fuenf-gurken")


def legal(s: State) -> list[str]:
    return names(s, cr.legal_moves(s))


def last_trick(s: State) -> cr.Trick:
    assert s.round is not None
    return s.round.tricks[-1]


# --------------------------------------------------------------------------- following: optional-lowest


@pytest.mark.parametrize("name", ["agurk", "gurka"])
def test_the_leader_may_play_any_card(name: str) -> None:
    s = start(cr.ruleset(name, hand_size=4), "2C 7D 9S KH", "3C 4C 5C 6C", "3D 4D 5D 6D")
    assert legal(s) == ["2C", "7D", "9S", "KH"]


def test_optional_lowest_any_card_at_least_the_highest_or_the_lowest() -> None:
    s = start(cr.ruleset("agurk", hand_size=5), "7S 2S 3S 4S 5S", "2C 5D 6D 7C KD", "2H 3H 4H 5H 6H")
    s = play(s, "7S")
    assert legal(s) == ["2C", "7C", "KD"]  # the lowest; 7 (a tie is high enough) and up; not 5 or 6
    for bad in ("5D", "6D"):
        assert_illegal(s, Play(1, bad), "must-follow")
    assert cr.is_legal(s, Play(1, "7C"))  # "at least as high" includes a tie


def test_optional_lowest_may_play_the_lowest_even_when_holding_higher() -> None:
    s = start(cr.ruleset("agurk", hand_size=3), "5S 6S 7S", "3D QD KD", "2H 3H 4H")
    s = play(s, "5S", "3D")  # seat 1 could beat the 5, but plays its lowest
    assert s.trick == (Play(0, "5S"), Play(1, "3D"))


def test_the_bar_is_the_highest_card_so_far_not_the_led_card() -> None:
    s = start(cr.ruleset("agurk", hand_size=3), "5S 6S 7S", "10D JD QD", "3C 7H KH")
    s = play(s, "5S", "10D")
    assert legal(s) == ["3C", "KH"]
    assert_illegal(s, Play(2, "7H"), "must-follow")  # beats the lead, not the 10


def test_when_the_lowest_card_is_high_enough_every_card_is_legal() -> None:
    s = start(cr.ruleset("agurk", hand_size=3), "5S 6S 7S", "8D JD QD", "2H 3H 4H")
    s = play(s, "5S")
    assert legal(s) == ["8D", "JD", "QD"]


def test_several_lowest_cards_of_one_rank_are_all_legal() -> None:
    s = start(cr.ruleset("agurk", hand_size=4), "9S 2S 3S 4S", "4C 4H 6D KD", "2H 3H 5H 6H")
    s = play(s, "9S")
    assert legal(s) == ["4C", "4H", "KD"]
    s2 = play(s, "4H")
    assert s2.trick[-1] == Play(1, "4H")
    assert_illegal(
        s,
        Play(1, "6D"),
        "must-follow",
        "seat 1 cannot play 6D: must play 9 or higher, or the lowest card 4C or 4H",
    )


@pytest.mark.parametrize("name", ["five-cucumbers", "fuenf-gurken"])
def test_five_cucumbers_follow_is_optional_lowest(name: str) -> None:
    s = start(cr.ruleset(name, hand_size=4), "8 2 3 4", "5 5 7 12")
    s = play(s, "8")
    assert legal(s) == ["5", "12"]
    assert_illegal(
        s, Play(1, "7"), "must-follow", "seat 1 cannot play 7: must play 8 or higher, or the lowest card 5"
    )


# --------------------------------------------------------------------------- following: forced-lowest (Gurka)


def test_forced_lowest_must_play_high_enough_when_held_any_such_card() -> None:
    s = start(cr.ruleset("gurka", hand_size=5), "7S 2S 3S 4S 5S", "2C 5D 7C QD KD", "2H 3H 4H 5H 6H")
    s = play(s, "7S")
    assert legal(s) == ["7C", "QD", "KD"]  # any card >= 7, the tie included; not the lowest 2C
    assert_illegal(s, Play(1, "2C"), "must-follow")
    assert_illegal(s, Play(1, "5D"), "must-follow")
    for ok in ("7C", "QD", "KD"):
        assert cr.is_legal(s, Play(1, ok))


def test_forced_lowest_plays_the_lowest_when_nothing_is_high_enough() -> None:
    s = start(cr.ruleset("gurka", hand_size=4), "QS 2S 3S 4S", "3C 3D 5D 9D", "2H 3H 4H 5H")
    s = play(s, "QS")
    assert legal(s) == ["3C", "3D"]
    assert_illegal(s, Play(1, "9D"), "must-follow")
    assert_illegal(s, Play(1, "5D"), "must-follow")


def test_forced_lowest_option_on_another_preset() -> None:
    s = start(cr.ruleset("agurk", hand_size=3, follow="forced-lowest"), "5S 6S 7S", "3D QD KD", "2H 3H 4H")
    s = play(s, "5S")
    assert legal(s) == ["QD", "KD"]
    assert_illegal(s, Play(1, "3D"), "must-follow")


def test_gurka_can_drop_forced_following() -> None:
    s = start(cr.ruleset("gurka", hand_size=3, follow="optional-lowest"), "5S 6S 7S", "3D QD KD", "2H 3H 4H")
    s = play(s, "5S")
    assert legal(s) == ["3D", "QD", "KD"]


# --------------------------------------------------------------------------- who takes a trick


@pytest.mark.parametrize("name", ["agurk", "gurka"])
def test_the_highest_card_takes_and_leads_next(name: str) -> None:
    s = start(cr.ruleset(name, hand_size=2), "5S 2S", "9D 3D", "7H 4H")
    s = play(s, "5S", "9D", "4H")
    t = last_trick(s)
    assert t.taker == 1
    assert t.leader == 0
    assert t.plays == (Play(0, "5S"), Play(1, "9D"), Play(2, "4H"))
    assert s.to_act == 1
    assert s.round is not None
    assert s.round.leader == 1
    assert s.trick == ()


@pytest.mark.parametrize("name", LADDER)
def test_ties_go_to_the_later_card(name: str) -> None:
    numbered = name in ("five-cucumbers", "fuenf-gurken")
    hands = ("9 2", "9 3", "4 5") if numbered else ("9S 2S", "9H 3H", "4D 5D")
    s = start(cr.ruleset(name, hand_size=2), *hands)
    s = play(s, *(h.split()[0] for h in hands))
    assert last_trick(s).taker == 1
    assert s.to_act == 1


def test_a_three_way_tie_goes_to_the_last_of_them() -> None:
    s = start(cr.ruleset("agurk", hand_size=2), "2S 8S", "8H 3H", "8D 4D", "5C 6C")
    s = play(s, "8S", "8H", "8D", "5C")
    assert last_trick(s).taker == 2


def test_a_lower_later_card_does_not_take() -> None:
    s = start(cr.ruleset("agurk", hand_size=2), "KS 2S", "3H 4H", "5D 6D")
    s = play(s, "KS", "3H", "5D")
    assert last_trick(s).taker == 0
    assert s.to_act == 0


def test_the_ladder_works_with_two_players_gurka_full_round() -> None:
    s = start(cr.ruleset("gurka"), "2C 4C 6C 8C 10C QC AC", "3D 5D 7D 9D JD KD AD")
    s = play(s, "AC")
    assert legal(s) == ["3D"]  # Ace led: the lowest card
    s = play(s, "3D")
    assert last_trick(s).taker == 0
    s = play(s, "2C")
    assert legal(s) == ["5D", "7D", "9D", "JD", "KD", "AD"]
    s = play(s, "5D")
    assert last_trick(s).taker == 1
    s = play(s, "7D")
    assert legal(s) == ["8C", "10C", "QC"]  # forced: 4C and 6C are out
    s = play(s, "8C", "4C", "9D")
    assert last_trick(s).taker == 1
    s = play(s, "AD")
    assert legal(s) == ["6C"]
    s = play(s, "6C")
    assert last_trick(s).taker == 1
    s = play(s, "JD")
    assert legal(s) == ["QC"]
    s = play(s, "QC")
    assert last_trick(s).taker == 0
    assert s.to_act == 0
    s = play(s, "10C", "KD")
    assert s.to_act == CHANCE
    assert s.round is not None
    assert len(s.round.tricks) == 7
    assert [t.taker for t in s.round.tricks] == [0, 1, 0, 1, 1, 0, 1]
    assert cr.score(s).totals == (0, 13)
    assert cr.score(s).round_points == ((0, 13),)


def test_agurk_full_round_of_seven_tricks() -> None:
    s = start(
        cr.ruleset("agurk"),
        "2C 5C 8C JC KC AC 3S",
        "2D 4D 7D 9D QD KD 6S",
        "3H 4H 6H 10H JH AH 9S",
    )
    s = play(s, "5C", "7D")
    assert_illegal(s, Play(2, "6H"), "must-follow")
    s = play(s, "9S")  # trick 1: seat 2
    s = play(s, "3H", "3S", "4D")  # trick 2: seat 1 (4)
    s = play(s, "6S", "6H", "2C")  # trick 3: seat 2 (6H ties 6S, later)
    s = play(s, "4H", "8C", "2D")  # trick 4: seat 0
    s = play(s, "JC", "9D", "JH")  # trick 5: seat 2 (tie)
    s = play(s, "10H", "KC", "KD")  # trick 6: seat 1 (tie)
    assert s.round is not None
    assert [t.taker for t in s.round.tricks] == [2, 1, 2, 0, 2, 1]
    s = play(s, "QD", "AH", "AC")  # trick 7: seat 0 takes with the later Ace
    assert cr.score(s).totals == (14, 0, 0)
    assert cr.score(s).round_points == ((14, 0, 0),)
    result = ladder_result(cr.score(s).results[0])
    assert result.payer == 0
    assert result.card == card("AC")
    assert s.to_act == CHANCE


# --------------------------------------------------------------------------- the Ace lead (Gurka)


def test_a_led_ace_forces_the_lowest_card_even_over_a_higher_one() -> None:
    s = start(cr.ruleset("gurka", hand_size=3), "AS 2S 3S", "4D KD AD", "5H 5C QH")
    s = play(s, "AS")
    assert legal(s) == ["4D"]
    assert_illegal(s, Play(1, "AD"), "must-play-lowest")
    assert_illegal(s, Play(1, "KD"), "must-play-lowest")
    s = play(s, "4D")
    assert legal(s) == ["5C", "5H"]
    s = play(s, "5H")
    assert last_trick(s).taker == 0
    assert s.to_act == 0


def test_the_leaders_ace_beats_a_followers_ace() -> None:
    s = start(cr.ruleset("gurka", hand_size=2), "AS 2S", "AD AH")
    s = play(s, "AS")
    assert legal(s) == ["AD", "AH"]  # only Aces left: the lowest card is an Ace
    s = play(s, "AH")
    assert last_trick(s).taker == 0  # not the later Ace


def test_the_ace_lead_decides_who_pays_the_last_trick() -> None:
    s = start(cr.ruleset("gurka", hand_size=1), "AS", "AH")
    s = play(s, "AS", "AH")
    assert cr.score(s).totals == (14, 0)
    s = start(cr.ruleset("gurka", hand_size=1, ace_lead=False), "AS", "AH")
    s = play(s, "AS", "AH")
    assert cr.score(s).totals == (0, 14)


def test_a_followers_ace_never_triggers_the_ace_rule() -> None:
    s = start(cr.ruleset("gurka", hand_size=3), "5S 2S 3S", "AD 2D 3D", "4H 6H AH")
    s = play(s, "5S", "AD")
    assert legal(s) == ["AH"]  # normal forced following against the Ace: an Ace is held
    s = play(s, "AH")
    assert last_trick(s).taker == 2  # the later Ace takes


def test_a_followers_ace_then_normal_optional_following() -> None:
    s = start(cr.ruleset("gurka", hand_size=3, follow="optional-lowest"), "5S 2S 3S", "AD 2D 3D", "4H 6H AH")
    s = play(s, "5S", "AD")
    assert legal(s) == ["4H", "AH"]


def test_ace_lead_off_followers_follow_normally() -> None:
    s = start(cr.ruleset("gurka", hand_size=3, ace_lead=False), "AS 2S 3S", "4D KD AD", "5H 5C QH")
    s = play(s, "AS")
    assert legal(s) == ["AD"]  # forced following: an Ace is held, so it must be played
    s = play(s, "AD")
    assert legal(s) == ["5C", "5H"]
    s = play(s, "5C")
    assert last_trick(s).taker == 1


def test_agurk_has_no_ace_rule() -> None:
    s = start(cr.ruleset("agurk", hand_size=2), "AS 2S", "4D AD", "5H 6H")
    s = play(s, "AS")
    assert legal(s) == ["4D", "AD"]
    s = play(s, "AD", "5H")
    assert last_trick(s).taker == 1


def test_ace_lead_uses_the_decks_top_rank() -> None:
    s = start(cr.ruleset("five-cucumbers", hand_size=2, ace_lead=True), "15 2", "4 15")
    s = play(s, "15")
    assert legal(s) == ["4"]
    assert_illegal(s, Play(1, "15"), "must-play-lowest")
    s = play(s, "4")
    assert last_trick(s).taker == 0
    s = start(cr.ruleset("five-cucumbers", hand_size=2, ace_lead=True), "14 2", "4 15")
    s = play(s, "14")
    assert legal(s) == ["4", "15"]  # 14 is no Ace in this deck


# --------------------------------------------------------------------------- scoring one round


def test_only_the_last_trick_scores() -> None:
    s = start(cr.ruleset("agurk", hand_size=2), "AS 2C", "KD 3D", "QH 4H")
    s = play(s, "AS", "3D", "4H")  # seat 0 takes the Ace trick: no points for it
    assert cr.score(s).totals == (0, 0, 0)
    assert cr.score(s).round_points == ()
    s = play(s, "2C", "KD", "QH")
    assert cr.score(s).totals == (0, 13, 0)
    assert cr.score(s).round_points == ((0, 13, 0),)


@pytest.mark.parametrize(
    ("rank", "value"),
    [("2", 2), ("3", 3), ("5", 5), ("9", 9), ("10", 10), ("J", 11), ("Q", 12), ("K", 13), ("A", 14)],
)
def test_card_value_penalty(rank: str, value: int) -> None:
    rules = cr.ruleset("gurka", hand_size=1, ace_lead=False, threshold=99)
    s = play(start(rules, rank + "S", rank + "H"), rank + "S", rank + "H")
    assert cr.score(s).totals == (0, value)  # the later of equal cards takes and pays
    result = ladder_result(cr.score(s).results[0])
    assert (result.payer, result.card) == (1, card(rank + "H"))


def test_card_value_penalty_agurk_pays_the_highest_card() -> None:
    s = play(start(cr.ruleset("agurk", hand_size=1), "5S", "JD", "9H"), "5S", "JD", "9H")
    assert cr.score(s).totals == (0, 11, 0)


@pytest.mark.parametrize(
    ("rank", "cucumbers"),
    list(enumerate((0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 4, 5), start=1)),
)
@pytest.mark.parametrize("name", ["five-cucumbers", "fuenf-gurken"])
def test_cucumbers_table(name: str, rank: int, cucumbers: int) -> None:
    rules = cr.ruleset(name, hand_size=1, threshold=99)
    s = play(start(rules, str(rank), str(rank)), str(rank), str(rank))
    # a tie of two 1s doubles a 0, which stays 0
    assert cr.score(s).totals == (0, cucumbers)


@pytest.mark.parametrize(
    ("cards", "per_one", "once"),
    [
        (("10", "9", "8"), 3, 3),  # no 1: no doubling
        (("1", "10", "8"), 6, 6),  # one 1: x2 either way
        (("1", "10", "1"), 12, 6),  # two 1s: x4 per one, x2 once
        (("1", "1", "1"), 0, 0),  # a winning 1 pays 0
        (("15", "1", "1"), 20, 10),
    ],
)
def test_doubling_per_one_and_once(cards: tuple[str, str, str], per_one: int, once: int) -> None:
    for name, expected in (("five-cucumbers", per_one), ("fuenf-gurken", once)):
        rules = cr.ruleset(name, hand_size=1, threshold=99)
        s = play(start(rules, *cards), *cards)
        result = ladder_result(cr.score(s).results[0])
        highest = max(int(c) for c in cards)
        assert result.payer == max(i for i, c in enumerate(cards) if int(c) == highest)
        assert cr.score(s).totals[result.payer] == expected, name
        assert sum(cr.score(s).totals) == expected


def test_doubling_per_one_with_three_ones() -> None:
    rules = cr.ruleset("five-cucumbers", hand_size=1, threshold=99)
    hands = ("1", "1", "1", "6")
    s = play(start(rules, *hands), *hands)
    assert cr.score(s).totals == (0, 0, 0, 16)  # 2 cucumbers x 2 x 2 x 2
    rules = cr.ruleset("fuenf-gurken", hand_size=1, threshold=99)
    s = play(start(rules, *hands), *hands)
    assert cr.score(s).totals == (0, 0, 0, 4)


def test_without_doubling_the_ones_change_nothing() -> None:
    rules = cr.ruleset("five-cucumbers", hand_size=1, threshold=99, doubling="none")
    for cards, paid in ((("1", "10", "1"), 3), (("1", "9"), 2), (("15", "1", "1"), 5)):
        s = play(start(rules, *cards), *cards)
        assert sum(cr.score(s).totals) == paid, cards


def test_two_players_winning_one_pays_nothing() -> None:
    s = play(start(cr.ruleset("five-cucumbers", hand_size=1), "1", "1"), "1", "1")
    assert cr.score(s).totals == (0, 0)
    assert ladder_score(cr.score(s)).results[0].payer == 1


@pytest.mark.parametrize("name", LADDER)
def test_ruling_2_the_taker_pays_in_every_preset(name: str) -> None:
    rules = cr.ruleset(name, hand_size=2, threshold=99)
    numbered = rules.deck == "five-cucumbers-60"
    hands = ("2 9", "9 3", "4 5") if numbered else ("2S 9S", "9H 3H", "4D 5D")
    s = start(rules, *hands)
    lead, follow, third = ("2", "3", "4") if numbered else ("2S", "3H", "4D")
    s = play(s, lead, follow, third)  # seat 2 takes trick 1 and leads the last
    assert s.to_act == 2
    last = ("5", "9", "9") if numbered else ("5D", "9S", "9H")
    s = play(s, *last)
    result = ladder_result(cr.score(s).results[0])
    assert result.payer == 1  # seat 1's 9 is the later of the two highest cards
    expected = 2 if numbered else 9
    assert cr.score(s).totals[1] == expected
    assert cr.score(s).totals[2] == 0


def test_tie_bonus_agurk() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 4)
    s = pay_round(s, 1, "9S")
    assert cr.score(s).totals == (0, 9, 0, 0)
    # round 2: dealer 0, leader 1; order 1, 2, 3, 0
    s = one_card_round(s, {1: "7S", 2: "3C", 3: "7H", 0: "2C"})
    assert s.round is not None
    assert s.round.tricks[0].plays[0].seat == 1
    assert ladder_score(cr.score(s)).results[-1].payer == 3
    assert cr.score(s).totals == (0, 2, 0, 7)  # seat 1 played the paying rank: 9 - 7
    assert cr.score(s).round_points[-1] == (0, -7, 0, 7)
    # round 3: leader 2; order 2, 3, 0, 1. Seat 3 (7) drops to 0, not below; seat 2 played another rank.
    s = one_card_round(s, {2: "3D", 3: "8S", 0: "2D", 1: "8H"})
    assert ladder_score(cr.score(s)).results[-1].payer == 1
    assert cr.score(s).totals == (0, 10, 0, 0)
    assert cr.score(s).round_points[-1] == (0, 8, 0, -7)


def test_tie_bonus_floor_at_zero_and_several_takers_of_the_bonus() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 3)
    s = pay_round(s, 0, "4S")
    s = pay_round(s, 2, "KS")  # round 2: leader 1
    assert cr.score(s).totals == (4, 0, 13)
    # round 3: leader 2; order 2, 0, 1: both 2 and 0 played the paying rank
    s = one_card_round(s, {2: "10S", 0: "10H", 1: "10D"})
    assert ladder_score(cr.score(s)).results[-1].payer == 1
    assert cr.score(s).totals == (0, 10, 3)
    assert cr.score(s).round_points[-1] == (-4, 10, -10)


def test_no_tie_bonus_when_the_option_is_off() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1, tie_bonus=False), 4)
    s = pay_round(s, 1, "9S")
    s = one_card_round(s, {1: "7S", 2: "3C", 3: "7H", 0: "2C"})
    assert cr.score(s).totals == (0, 9, 0, 7)


def test_gurka_has_no_tie_bonus() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1), 3)
    s = pay_round(s, 0, "9S")
    s = one_card_round(s, {1: "3C", 2: "9H", 0: "9D"})  # round 2: leader 1; seat 0 takes
    assert cr.score(s).totals == (18, 0, 0)


def test_reverse_lowest_card_pays_the_highest_value() -> None:
    rules = cr.ruleset("agurk", hand_size=1, reverse=True, tie_bonus=False)
    s = play(start(rules, "5C", "9D", "5H"), "5C", "9D", "5H")
    result = ladder_result(cr.score(s).results[0])
    assert result.payer == 2  # the later of the two lowest cards
    assert cr.score(s).totals == (0, 0, 9)  # the amount is the highest card's value
    s = play(start(rules, "5C", "9D", "7H"), "5C", "9D", "7H")
    assert cr.score(s).totals == (9, 0, 0)


def test_reverse_with_the_cucumbers_table_and_doubling() -> None:
    rules = cr.ruleset("five-cucumbers", hand_size=1, reverse=True, threshold=99)
    s = play(start(rules, "1", "12", "3"), "1", "12", "3")
    assert cr.score(s).totals == (8, 0, 0)  # the 1 is lowest and pays 12's 4 cucumbers, doubled


def test_reverse_round_result_card_is_the_card_whose_value_was_paid() -> None:
    rules = cr.ruleset("agurk", hand_size=1, reverse=True, tie_bonus=False)
    s = play(start(rules, "5C", "9D", "5H"), "5C", "9D", "5H")
    assert ladder_score(cr.score(s)).results[0].card == card("9D")


def test_round_result_fields() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 3)
    s = pay_round(s, 2, "QS")
    result = ladder_result(cr.score(s).results[0])
    assert result.number == 1
    assert result.points == (0, 0, 12)
    assert result.totals == (0, 0, 12)
    assert result.payer == 2
    assert result.card == card("QS")
    assert result.marked == ()
    assert result.went_out == ()
    assert result.returned == ()


# --------------------------------------------------------------------------- between tricks, messages


def test_ladder_trick_state_after_the_deal_and_after_the_round() -> None:
    state = start(cr.ruleset("gurka", hand_size=1), "5C", "9D")
    r = state.round
    assert r is not None
    assert (ladder_state(state).high, r.taker, r.trick, r.leader) == (0, -1, (), 0)
    state = play(state, "5C", "9D")
    r = state.round
    assert r is not None
    assert state.to_act == cr.CHANCE
    assert (ladder_state(state).high, r.taker, r.trick, r.leader) == (0, -1, (), 1)


def test_a_new_trick_starts_with_no_high_card_and_no_taker() -> None:
    state = start(cr.ruleset("gurka", hand_size=2), "2C 9C", "3C KC", "4C 10C")
    state = play(state, "2C", "3C", "10C")  # seat 2 takes the first trick and leads the second
    assert (state.to_act, state.trick, ladder_state(state).high, state.taker) == (2, (), 0, -1)
    assert state.round is not None
    assert (state.round.leader, state.round.best, state.round.taker) == (2, None, -1)
    assert len(state.round.tricks) == 1
    doc = json.loads(cr.dumps(state))
    assert (doc["best"], doc["extra"], doc["trick"]) == (None, None, [])


def test_a_ladder_deal_has_no_stock() -> None:
    drawn = cr.sample_chance(cr.new_game(cr.ruleset("five-cucumbers"), 2), random.Random(3))
    assert isinstance(drawn, cr.Deal)
    assert drawn.stock == ()


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
