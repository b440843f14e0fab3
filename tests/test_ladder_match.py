"""Ladder matches: thresholds, lives, resets (ruling 3), leads and dealing (ruling 6),
revival (ruling 5), fixed rounds, and whole matches with their Score.

Most rounds here are one-card rounds (`hand_size=1`): the only trick is the last trick,
so each round's payer is rigged exactly with `pay_round` or `one_card_round`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cucumber_rules as cr
from cucumber_rules import CHANCE, Play, Revive, State
from cucumber_rules.narrate import narrate
from helpers import (
    FILLERS,
    assert_illegal,
    autoplay,
    deal,
    dealt_seats,
    ladder_score,
    ladder_state,
    one_card_round,
    pay_round,
    random_states,
)

LADDER = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken")


def totals(s: State) -> tuple[int, ...]:
    return cr.score(s).totals


def round_leader(s: State) -> int:
    """Who led the round's first trick (the round may be finished)."""
    assert s.round is not None
    return s.round.tricks[0].leader if s.round.tricks else s.round.leader


def leader_and_dealer(s: State) -> tuple[int, int]:
    return round_leader(s), s.match.dealer


def next_deal(s: State) -> State:
    """Apply a one-card deal of low cards to the seats due to receive cards (no play)."""
    fillers = iter(FILLERS[s.rules.deck])
    return cr.apply(
        s, deal(*(next(fillers) if seat in dealt_seats(s) else "" for seat in range(s.num_players)))
    )


# --------------------------------------------------------------------------- Agurk: lives and resets


def test_agurk_first_crossing_draws_a_mark_and_resets_then_the_second_eliminates() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 3)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 1, "9S")
    assert totals(s) == (14, 9, 0)
    s = pay_round(s, 0, "10S")  # 24 >= 21: first crossing
    sc = ladder_score(cr.score(s))
    assert sc.marks == (1, 0, 0)
    assert sc.totals == (9, 9, 0)  # reset to the highest score of another active player
    assert sc.eliminated == (False, False, False)
    assert sc.round_points[-1] == (10, 0, 0)
    assert sc.results[-1].marked == (0,)
    assert sc.results[-1].totals == (9, 9, 0)
    assert sc.results[-1].went_out == ()
    assert s.to_act == CHANCE
    s = pay_round(s, 0, "QS")  # 9 + 12 = 21: reaching counts; the second crossing eliminates
    sc = ladder_score(cr.score(s))
    assert sc.eliminated == (True, False, False)
    assert sc.results[-1].went_out == (0,)
    assert sc.results[-1].marked == ()
    assert sc.marks == (1, 0, 0)  # elimination draws no further mark: marks stay below lives
    assert sc.totals[1:] == (9, 0)
    assert sc.winners == ()
    assert s.to_act == CHANCE
    assert dealt_seats(s) == (1, 2)


def test_agurk_below_the_threshold_nothing_happens() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 3)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 0, "6S")  # 20 < 21
    assert totals(s) == (20, 0, 0)
    assert cr.score(s).marks == (0, 0, 0)


def test_ruling_3_reset_uses_the_scores_after_the_tie_bonuses() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 3)
    s = pay_round(s, 0, "8S")
    s = pay_round(s, 0, "7S")
    s = pay_round(s, 1, "10S")
    s = pay_round(s, 2, "4S")
    assert totals(s) == (15, 10, 4)
    # round 5 is led by seat 1: order 1, 2, 0. Seat 0's later 8 takes: 23 >= 21.
    s = one_card_round(s, {1: "8H", 2: "2C", 0: "8D"})
    assert round_leader(s) == 1
    sc = ladder_score(cr.score(s))
    assert sc.results[-1].payer == 0
    # seat 1's bonus first (10 - 8 = 2), then the reset to the highest other score: 4 (not 10)
    assert sc.totals == (4, 2, 4)
    assert sc.marks == (1, 0, 0)
    assert sc.round_points[-1] == (8, -8, 0)


def test_ruling_3_reset_to_zero_when_no_other_active_player_holds_points() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 3, first=2)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 1, "7S")
    assert totals(s) == (14, 7, 0)
    # round 3 is led by seat 1: order 1, 2, 0
    s = one_card_round(s, {1: "7D", 2: "2C", 0: "7H"})
    assert round_leader(s) == 1
    assert cr.score(s).totals == (0, 0, 0)  # 21 -> mark; seat 1's bonus takes it to 0; reset to 0
    assert cr.score(s).marks == (1, 0, 0)


def test_the_reset_ignores_eliminated_players() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 4)
    s = pay_round(s, 3, "AS")
    s = pay_round(s, 3, "8S")  # 22: mark, reset to 0
    s = pay_round(s, 3, "AS")
    s = pay_round(s, 3, "9S")  # 23 again: out, with 23 points
    assert cr.score(s).eliminated == (False, False, False, True)
    assert totals(s)[3] == 23
    s = pay_round(s, 1, "5S")
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 0, "9S")  # 23: mark; reset to 5 (seat 1), not 23 (seat 3, out)
    assert totals(s) == (5, 5, 0, 23)


def test_lives_is_an_option() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1, lives=1), 3)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 0, "7S")
    assert cr.score(s).eliminated == (True, False, False)
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, lives=2), 2)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 0, "AD")
    s = pay_round(s, 0, "4S")  # 32 >= 30: a mark and a reset to seat 1's 0
    assert totals(s) == (0, 0)
    assert cr.score(s).marks == (1, 0)
    assert not s.is_over


# --------------------------------------------------------------------------- elimination


def test_gurka_threshold_30_reached_eliminates() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1), 2)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 0, "QS")
    assert totals(s) == (26, 0)
    assert s.to_act == CHANCE
    s = pay_round(s, 0, "4S")  # exactly 30
    assert s.is_over
    sc = cr.score(s)
    assert sc.totals == (30, 0)  # no reset with one life
    assert sc.eliminated == (True, False)
    assert sc.winners == (1,)


def test_gurka_29_survives() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1), 2)
    for paid in ("AS", "JS", "4S"):
        s = pay_round(s, 0, paid)
    assert totals(s) == (29, 0)
    assert not s.is_over
    assert cr.score(s).eliminated == (False, False)


def test_gurka_threshold_21() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=21), 3)
    s = pay_round(s, 2, "AS")
    s = pay_round(s, 2, "6S")
    assert cr.score(s).eliminated == (False, False, False)
    s = pay_round(s, 2, "4S")  # 24
    assert cr.score(s).eliminated == (False, False, True)
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=21), 3)
    s = pay_round(s, 2, "AS")
    s = pay_round(s, 2, "7S")  # exactly 21
    assert cr.score(s).eliminated == (False, False, True)


def test_five_cucumbers_eliminates_at_five() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1), 2)
    s = pay_round(s, 0, "12")  # 4 cucumbers
    assert totals(s) == (4, 0)
    assert not s.is_over
    s = pay_round(s, 0, "4")  # 5: "5 or more"
    assert s.is_over
    assert cr.score(s).winners == (1,)


def test_fuenf_gurken_eliminates_at_the_sixth_cucumber() -> None:
    s = cr.new_game(cr.ruleset("fuenf-gurken", hand_size=1), 2)
    s = pay_round(s, 0, "15")  # 5 cucumbers: still in
    assert totals(s) == (5, 0)
    assert not s.is_over
    assert cr.score(s).eliminated == (False, False)
    s = pay_round(s, 0, "4")  # 6
    assert s.is_over
    assert cr.score(s).winners == (1,)


def test_five_cucumbers_single_round_of_15_eliminates() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1), 3)
    s = pay_round(s, 1, "15")
    assert cr.score(s).eliminated == (False, True, False)
    assert not s.is_over


def test_the_last_player_standing_wins() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 3)
    s = pay_round(s, 1, "QS")
    assert not s.is_over
    s = pay_round(s, 0, "KS")
    assert s.is_over
    assert s.to_act is None
    sc = cr.score(s)
    assert sc.winners == (2,)
    assert sc.is_final
    assert sc.eliminated == (True, True, False)
    assert sc.standings == (2, 0, 1)  # the winner, then the later elimination
    assert s.match.winners == (2,)
    assert cr.legal_moves(s) == ()


# --------------------------------------------------------------------------- fixed rounds


def test_fixed_rounds_no_elimination_lowest_total_wins() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10, fixed_rounds=3), 3)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 0, "QS")
    assert totals(s) == (26, 0, 0)
    assert cr.score(s).eliminated == (False, False, False)  # far past the threshold: still in
    assert cr.score(s).marks == (0, 0, 0)
    assert s.to_act == CHANCE
    assert dealt_seats(s) == (0, 1, 2)
    s = pay_round(s, 1, "5S")
    assert s.is_over
    sc = cr.score(s)
    assert sc.winners == (2,)
    assert sc.standings == (2, 1, 0)
    assert len(sc.round_points) == 3


def test_fixed_rounds_ties_share_the_win() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1, fixed_rounds=3), 3)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 1, "5S")
    assert not s.is_over
    s = pay_round(s, 2, "5D")
    assert s.is_over
    assert cr.score(s).winners == (1, 2)
    assert cr.score(s).standings[:2] == (1, 2)


def test_fixed_rounds_one_round() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1, fixed_rounds=1), 2)
    s = pay_round(s, 0, "15")
    assert s.is_over
    assert cr.score(s).winners == (1,)


# --------------------------------------------------------------------------- the round limit


def free_round(state: State) -> State:
    """A Five Cucumbers round with `hand_size=1` in which every dealt seat plays a 1: it costs nothing."""
    return one_card_round(state, dict.fromkeys(dealt_seats(state), "1"))


def test_round_limit_ends_an_undecided_match_the_lowest_total_still_in_winning() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10, round_limit=3), 4)
    s = pay_round(s, 0, "QS")  # seat 0 is out
    s = pay_round(s, 1, "5S")
    assert not s.is_over
    s = pay_round(s, 2, "4S")
    assert s.is_over
    assert s.to_act is None
    sc = cr.score(s)
    assert sc.totals == (12, 5, 4, 0)
    assert sc.winners == (3,)
    assert sc.standings == (3, 2, 1, 0)
    assert cr.returns(s) == (0.0, 0.0, 0.0, 1.0)
    assert len(sc.round_points) == 3


def test_round_limit_ties_share_and_returns_still_sum_to_one() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1, round_limit=2), 3)
    s = free_round(s)
    assert not s.is_over
    s = free_round(s)
    assert s.is_over
    assert cr.score(s).winners == (0, 1, 2)
    assert sum(cr.returns(s)) == pytest.approx(1.0)


def test_the_narration_says_the_round_limit_ended_the_match() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, round_limit=1), ["Ann", "Bo", "Cy"])
    s = cr.apply(s, deal("2C", "9S", "3C"))
    before = cr.apply(s, Play(0, "2C"))
    before = cr.apply(before, Play(1, "9S"))
    after = cr.apply(before, Play(2, "3C"))
    lines = narrate(before, Play(2, "3C"), after)
    assert "  Round limit reached: the lowest total still in wins" in lines
    assert lines[-1] == "Shared win: Ann, Cy"


def test_an_elimination_before_the_limit_ends_the_match_as_usual() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10, round_limit=1), 2)
    s = pay_round(s, 1, "QS")
    assert cr.score(s).winners == (0,)
    assert cr.score(s).eliminated == (False, True)


def test_no_revival_is_offered_in_the_last_round() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=10, revival=True, round_limit=2)
    s = pay_round(cr.new_game(rules, 4), 0, "QS")
    assert ladder_state(s).match.pending == (0,)  # before the limit, the decision is offered
    s = pay_round(cr.apply(s, Revive(0, False)), 1, "JS")
    assert s.is_over
    assert ladder_state(s).match.pending == ()
    assert s.to_act is None
    assert cr.score(s).winners == (2, 3)
    assert cr.legal_moves(s) == ()


def test_the_automatic_round_limit_ends_even_a_match_of_free_rounds() -> None:
    rules = cr.ruleset("five-cucumbers", hand_size=1)
    assert rules.round_limit is None
    limit = 4 * 2 * 1 * (5 + 1) + 50
    s = cr.new_game(rules, 2)
    actions = 0
    while not s.is_over:
        s = free_round(s)
        actions += 3
    assert s.match.rounds == limit
    assert cr.score(s).winners == (0, 1)
    assert actions == cr.max_actions(rules, 2) == limit * 3  # the bound is hard, and reached here


@pytest.mark.parametrize("name", LADDER)
def test_the_presets_have_the_automatic_limit(name: str) -> None:
    from cucumber_rules.games.ladder.rules import automatic_round_limit, round_limit

    rules = cr.ruleset(name)
    assert isinstance(rules, cr.LadderRules)
    assert rules.round_limit is None
    for n in range(rules.min_players, rules.max_players + 1):
        revival = 2 if rules.revival else 1
        expected = 4 * n * rules.lives * (rules.threshold + 1) * revival + 50
        assert round_limit(rules, n) == automatic_round_limit(rules, n) == expected
        assert cr.max_actions(rules, n) == expected * (1 + n * rules.hand_size)


def test_round_limit_and_fixed_rounds() -> None:
    from cucumber_rules.games.ladder.rules import round_limit

    fixed, limited = cr.ruleset("gurka", fixed_rounds=4), cr.ruleset("gurka", round_limit=7)
    assert isinstance(fixed, cr.LadderRules)
    assert isinstance(limited, cr.LadderRules)
    assert round_limit(fixed, 3) == 4
    assert round_limit(limited, 3) == 7
    assert cr.max_actions(cr.ruleset("gurka", round_limit=7, revival=True), 3) == 7 * (1 + 3 * 7 + 1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"round_limit": 0}, "at least 1"),
        ({"round_limit": -3}, "at least 1"),
        ({"round_limit": 5, "fixed_rounds": 3}, "fixed_rounds already fixes"),
    ],
)
def test_round_limit_is_validated(options: dict[str, Any], message: str) -> None:
    with pytest.raises(cr.InvalidRulesError, match=message) as err:
        cr.ruleset("agurk", **options)
    assert err.value.option == "round_limit"


def test_round_limit_takes_any_integer_but_not_a_bool_or_text() -> None:
    class Index:
        def __index__(self) -> int:
            return 4

    assert cr.ruleset("agurk", round_limit=Index()).round_limit == 4
    for bad in (True, "4", 4.0):
        with pytest.raises(cr.InvalidRulesError):
            cr.ruleset("agurk", round_limit=bad)


def test_round_limit_is_saved_and_loaded() -> None:
    rules = cr.ruleset("agurk", round_limit=12)
    text = cr.dumps(rules)
    assert '"round_limit":12' in text
    assert cr.loads(text) == rules
    assert '"round_limit":null' in cr.dumps(cr.ruleset("agurk"))


# --------------------------------------------------------------------------- leads and dealing (ruling 6)


@pytest.mark.parametrize("name", LADDER)
@pytest.mark.parametrize("first", [0, 1, 2])
def test_seat_first_leads_the_first_trick_and_the_seat_before_deals(name: str, first: int) -> None:
    s = cr.new_game(cr.ruleset(name, hand_size=1), 3, first=first)
    assert s.match.dealer == (first - 1) % 3
    s = next_deal(s) if name in ("agurk", "gurka") else cr.apply(s, deal("2", "3", "4"))
    assert s.to_act == first
    assert leader_and_dealer(s) == (first, (first - 1) % 3)


def test_rotate_passes_deal_and_lead_clockwise_whoever_pays() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=99), 4, first=1)
    seen = []
    for payer in (3, 3, 0, 2, 1):
        s = pay_round(s, payer, "9S")
        assert s.round is not None
        seen.append(leader_and_dealer(s))
    assert seen == [(1, 0), (2, 1), (3, 2), (0, 3), (1, 0)]


def test_rotate_skips_eliminated_seats_documented_example() -> None:
    # dealer 2, leader 0; seat 0 is eliminated -> dealer 1, leader 2
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 3)
    s = pay_round(s, 0, "QS")
    assert leader_and_dealer(s) == (0, 2)
    assert cr.score(s).eliminated == (True, False, False)
    s = next_deal(s)
    assert leader_and_dealer(s) == (2, 1)
    assert s.round is not None
    assert s.round.seats == (1, 2)
    assert s.to_act == 2


def test_rotate_skips_an_eliminated_seat_between_dealer_and_leader() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 4)
    s = pay_round(s, 1, "QS")  # round 1: dealer 3, leader 0; seat 1 out
    s = next_deal(s)
    assert leader_and_dealer(s) == (2, 0)  # dealer 0; seat 1 skipped for the lead
    assert s.round is not None
    assert s.round.seats == (0, 2, 3)
    assert s.round.after[0] == 2  # the play order skips seat 1 too
    assert s.round.after[3] == 0
    s = autoplay(s)
    s = next_deal(s)
    assert leader_and_dealer(s) == (3, 2)  # dealer 0 -> 2 (skipping 1), leader 3


def test_rotate_when_the_dealer_is_eliminated() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 4)
    s = pay_round(s, 3, "QS")  # round 1: dealer 3 (out now), leader 0
    s = next_deal(s)
    assert leader_and_dealer(s) == (1, 0)


def test_penalized_the_payer_leads_the_next_round() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1), 3, first=1)
    s = pay_round(s, 2, "4")  # round 1, led by seat 1 (first)
    s = next_deal(s)
    assert s.round is not None
    assert s.round.leader == 2
    assert s.to_act == 2


@pytest.mark.parametrize("name", ["five-cucumbers", "fuenf-gurken"])
def test_penalized_sequence_follows_the_payers(name: str) -> None:
    s = cr.new_game(cr.ruleset(name, hand_size=1), 4)
    leaders = []
    for payer in (2, 2, 0, 3, 1):
        s = pay_round(s, payer, "4")
        s2 = next_deal(s)
        assert s2.round is not None
        leaders.append(s2.round.leader)
    assert leaders == [2, 2, 0, 3, 1]


def test_penalized_an_eliminated_payer_passes_the_lead_clockwise() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1), 4)
    s = pay_round(s, 2, "15")  # 5 cucumbers: seat 2 is out
    assert cr.score(s).eliminated == (False, False, True, False)
    s = next_deal(s)
    assert s.round is not None
    assert s.round.leader == 3
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1), 4)
    s = pay_round(s, 3, "15")
    s = next_deal(s)
    assert s.round is not None
    assert s.round.leader == 0  # clockwise wraps round the table


def test_penalized_skips_several_eliminated_seats() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1), 5)
    s = pay_round(s, 2, "15")
    s = pay_round(s, 3, "15")  # seat 3 led this round (seat 2 was out), and is now out
    s = next_deal(s)
    assert s.round is not None
    assert s.round.leader == 4
    assert s.round.seats == (0, 1, 4)


def test_eliminated_seats_receive_no_cards() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=2, threshold=10), 3)
    s = autoplay(cr.apply(s, deal("2C QS", "3C 4C", "5C 6C")))
    assert cr.score(s).eliminated == (True, False, False)
    assert_illegal(s, deal("7C 8C", "2C 3C", "4C 5C"), "bad-deal")
    s = cr.apply(s, deal("", "2C 3C", "4C 5C"))
    assert s.hands[0] == ()
    assert s.round is not None
    assert 0 not in s.round.seats


# --------------------------------------------------------------------------- revival (ruling 5)


def revival_rules(**extra: Any) -> cr.Rules:
    return cr.ruleset("gurka", hand_size=1, threshold=10, revival=True, **extra)


def test_revival_decision_is_offered_to_the_eliminated_player() -> None:
    s = cr.new_game(revival_rules(), 4)
    s = pay_round(s, 1, "QS")
    assert ladder_state(s).match.pending == (1,)
    assert s.to_act == 1
    assert not s.is_over
    assert cr.legal_moves(s) == (Revive(1, False), Revive(1, True))
    sc = cr.score(s)
    assert sc.eliminated == (False, True, False, False)
    assert sc.winners == ()
    assert cr.is_legal(s, Revive(1, True))
    assert cr.is_legal(s, Revive(1, False))


def test_revival_accept_sits_out_a_round_then_returns_with_the_highest_other_score() -> None:
    s = cr.new_game(revival_rules(), 4)
    s = pay_round(s, 1, "QS")
    s = cr.apply(s, Revive(1, True))
    assert s.to_act == CHANCE
    assert s.actions[-1] == Revive(1, True)
    assert ladder_state(s).match.revived == (False, True, False, False)
    assert ladder_state(s).match.sitting_out == (1,)
    assert cr.score(s).eliminated == (False, False, False, False)
    # the next round: seat 1 sits out, so it is dealt no cards
    assert_illegal(s, deal("2C", "3C", "4C", "5C"), "bad-deal")
    assert dealt_seats(s) == (0, 2, 3)
    s = pay_round(s, 3, "7S")
    assert s.round is not None
    assert s.round.seats == (0, 2, 3)
    assert all(p.seat != 1 for p in s.round.tricks[0].plays)
    sc = ladder_score(cr.score(s))
    assert sc.results[-1].returned == (1,)
    assert sc.totals == (0, 7, 0, 7)  # back with seat 3's 7, the highest other score
    assert ladder_state(s).match.sitting_out == ()
    # and seat 1 plays again in the round after
    assert dealt_seats(s) == (0, 1, 2, 3)
    assert_illegal(s, deal("2C", "", "4C", "5C"), "bad-deal")
    s = pay_round(s, 0, "5S")
    assert s.round is not None
    assert s.round.seats == (0, 1, 2, 3)


def test_revival_decline_stays_out() -> None:
    s = cr.new_game(revival_rules(), 4)
    s = pay_round(s, 1, "QS")
    s = cr.apply(s, Revive(1, False))
    assert s.to_act == CHANCE
    assert ladder_state(s).match.pending == ()
    assert ladder_state(s).match.sitting_out == ()
    assert cr.score(s).eliminated == (False, True, False, False)
    assert dealt_seats(s) == (0, 2, 3)
    s = pay_round(s, 2, "5S")
    assert cr.score(s).eliminated == (False, True, False, False)
    assert ladder_score(cr.score(s)).results[-1].returned == ()
    assert dealt_seats(s) == (0, 2, 3)  # never back


def test_revival_only_once_per_match() -> None:
    s = cr.new_game(revival_rules(), 4)
    s = pay_round(s, 1, "QS")
    s = cr.apply(s, Revive(1, True))
    s = pay_round(s, 3, "7S")  # seat 1 sits out, returns with 7
    s = pay_round(s, 1, "5S")  # 12 >= 10 again
    assert cr.score(s).eliminated == (False, True, False, False)
    assert ladder_state(s).match.pending == ()  # no second offer
    assert s.to_act == CHANCE
    assert dealt_seats(s) == (0, 2, 3)


def test_revival_needs_two_other_players_left() -> None:
    s = cr.new_game(revival_rules(), 3)
    s = pay_round(s, 0, "QS")
    assert ladder_state(s).match.pending == (0,)  # seats 1 and 2 remain
    s = cr.apply(s, Revive(0, False))
    s = pay_round(s, 1, "QS")  # only seat 2 would remain: no offer, the match ends
    assert ladder_state(s).match.pending == ()
    assert s.is_over
    assert cr.score(s).winners == (2,)


def test_revival_never_offered_in_a_two_player_sized_end() -> None:
    s = cr.new_game(revival_rules(), 4)
    s = pay_round(s, 0, "QS")
    s = cr.apply(s, Revive(0, False))
    s = pay_round(s, 1, "QS")
    assert ladder_state(s).match.pending == (1,)  # seats 2 and 3 remain
    s = cr.apply(s, Revive(1, False))
    s = pay_round(s, 2, "QS")
    assert ladder_state(s).match.pending == ()
    assert s.is_over
    assert cr.score(s).winners == (3,)


def test_a_sitting_out_player_counts_as_remaining_and_the_match_goes_on() -> None:
    s = cr.new_game(revival_rules(), 3)
    s = pay_round(s, 0, "QS")
    s = cr.apply(s, Revive(0, True))
    s = pay_round(s, 1, "QS")  # during seat 0's sit-out: seats 0 and 2 remain, so seat 1 is offered
    assert not s.is_over
    assert ladder_state(s).match.pending == (1,)
    s = cr.apply(s, Revive(1, False))
    assert not s.is_over
    assert s.to_act == CHANCE
    assert totals(s)[0] == 0  # back with seat 2's 0
    assert dealt_seats(s) == (0, 2)
    s = pay_round(s, 0, "QS")  # seat 0 out again: used its revival; seat 2 wins
    assert s.is_over
    assert cr.score(s).winners == (2,)
    assert cr.score(s).standings[0] == 2


def test_no_revival_without_the_option() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 4)
    s = pay_round(s, 1, "QS")
    assert ladder_state(s).match.pending == ()
    assert s.to_act == CHANCE
    assert_illegal(s, Revive(1, True), "no-decision")


# --------------------------------------------------------------------------- whole matches


def _match(name: str, players: int, seed: int, **extra: Any) -> list[State]:
    states = random_states(cr.ruleset(name, **extra), players, seed=seed, limit=5000)
    assert states[-1].is_over, "the match should end"
    return states


@pytest.mark.parametrize("name", LADDER)
@pytest.mark.parametrize("players", [2, 4])
def test_whole_match_ends_with_one_winner_and_a_consistent_score(name: str, players: int) -> None:
    if name == "agurk" and players == 2:
        players = 3
    states = _match(name, players, seed=100 + players)
    end = states[-1]
    sc = cr.score(end)
    assert end.to_act is None
    assert cr.legal_moves(end) == ()
    assert len(sc.winners) == 1
    assert sc.winners == end.match.winners
    assert sc.is_final
    assert sc.eliminated.count(False) == 1
    assert not sc.eliminated[sc.winners[0]]
    assert sc.standings[0] == sc.winners[0]
    assert sorted(sc.standings) == list(range(players))
    # eliminated seats rank by how late they went out
    order = [ladder_state(end).match.out[s] for s in sc.standings[1:]]
    assert order == sorted(order, reverse=True)
    assert len(sc.round_points) == len(sc.results) == end.match.rounds
    assert all(len(row) == players for row in sc.round_points)
    assert sc.totals == sc.results[-1].totals
    assert [r.number for r in sc.results] == list(range(1, end.match.rounds + 1))
    assert len(end.history) == len(states) - 1
    deals = sum(1 for a in end.actions if isinstance(a, cr.Deal))
    assert deals == end.match.rounds
    if name != "agurk":  # no resets, no bonuses: the totals are the column sums of the rows
        assert sc.totals == tuple(sum(col) for col in zip(*sc.round_points, strict=True))
        loser_totals = [sc.totals[s] for s in range(players) if sc.eliminated[s]]
        assert all(t >= end.rules.threshold for t in loser_totals)
    for r in ladder_score(sc).results:
        assert r.payer is not None
        assert r.points[r.payer] >= 0


def test_score_is_valid_at_any_point() -> None:
    states = _match("agurk", 4, seed=3)
    for s in states:
        sc = cr.score(s)
        assert len(sc.totals) == len(sc.marks) == len(sc.eliminated) == 4
        assert sorted(sc.standings) == [0, 1, 2, 3]
        assert (sc.winners != ()) == s.is_over
        assert all(t >= 0 for t in sc.totals)
        assert all(t < 21 for t, out in zip(sc.totals, sc.eliminated, strict=True) if not out)


@pytest.mark.parametrize("name", LADDER)
def test_same_seed_same_match(name: str) -> None:
    a = _match(name, 3, seed=77)
    b = _match(name, 3, seed=77)
    assert a[-1].actions == b[-1].actions
    assert a[-1] == b[-1]
    assert cr.score(a[-1]) == cr.score(b[-1])
    c = _match(name, 3, seed=78)
    assert c[-1].actions != a[-1].actions


def test_replaying_the_actions_reproduces_every_state() -> None:
    states = _match("gurka", 3, seed=5, revival=True)
    end = states[-1]
    s = cr.new_game(end.rules, len(end.players), first=end.first)
    for i, action in enumerate(end.actions):
        s = cr.apply(s, action)
        assert s == states[i + 1]


def test_the_global_random_module_is_never_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    random.seed(1234)
    saved = random.getstate()

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the global random module was used")

    for fn in (
        "random",
        "shuffle",
        "sample",
        "choice",
        "choices",
        "randrange",
        "randint",
        "seed",
        "getrandbits",
    ):
        monkeypatch.setattr(random, fn, forbidden)
    for name in LADDER:
        states = random_states(cr.ruleset(name), 3, seed=8, limit=5000)
        assert states[-1].is_over
    monkeypatch.undo()
    assert random.getstate() == saved


def test_a_revival_match_plays_to_the_end() -> None:
    for seed in range(3):
        states = _match("gurka", 5, seed=seed, revival=True, hand_size=3, threshold=20)
        end = states[-1]
        decisions = [a for a in end.actions if isinstance(a, Revive)]
        assert all(ladder_state(end).match.revived[a.seat] for a in decisions if a.accept)
        assert cr.score(end).eliminated.count(False) == 1


def test_an_elimination_is_not_a_cucumber_mark() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1), 3)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 0, "AH")
    s = pay_round(s, 0, "4H")  # 14 + 14 + 4 = 32 >= 30: eliminated at once (one life)
    sc = cr.score(s)
    assert sc.eliminated == (True, False, False)
    assert sc.marks == (0, 0, 0)


def test_a_sitting_out_seat_neither_deals_nor_leads() -> None:
    # Rotation: round 1 dealt by 3 and led by 0; seat 0 pays and buys back in. Round 2 would be
    # dealt by seat 0, who sits out: the deal passes to seat 1 and the lead to seat 2.
    s = cr.new_game(revival_rules(), 4)
    assert s.match.dealer == 3
    s = pay_round(s, 0, "QS")
    s = cr.apply(s, Revive(0, True))
    s = cr.apply(s, deal("", "2C", "3C", "4C"))
    assert (s.match.dealer, s.to_act) == (1, 2)
    assert s.round is not None
    assert s.round.seats == (1, 2, 3)


def test_a_revived_player_keeps_their_marks_and_the_next_crossing_puts_them_out() -> None:
    rules = cr.ruleset("agurk", hand_size=1, revival=True)
    s = cr.new_game(rules, 4)
    s = pay_round(s, 0, "AS")
    s = pay_round(s, 0, "QS")  # 26 >= 21: a mark and a reset to 0
    assert cr.score(s).marks == (1, 0, 0, 0)
    s = pay_round(s, 0, "AH")
    s = pay_round(s, 0, "QH")  # out on the second crossing
    assert ladder_state(s).match.pending == (0,)
    s = cr.apply(s, Revive(0, True))
    assert cr.score(s).marks == (1, 0, 0, 0)
    s = pay_round(s, 1, "5S")  # seat 0 sits this one out
    assert cr.score(s).totals[0] == 5  # back with seat 1's 5
    s = pay_round(s, 0, "AD")
    s = pay_round(s, 0, "9D")  # 5 + 14 + 9 = 28: out again, and no second revival
    sc = cr.score(s)
    assert sc.eliminated[0]
    assert ladder_state(s).match.pending == ()


def test_tie_bonus_with_reverse_goes_to_the_other_players_of_the_paying_rank() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1, reverse=True), 4)
    s = one_card_round(s, {0: "2C", 1: "9D", 2: "5H", 3: "6S"})  # 2C is lowest: seat 0 pays 9
    s = one_card_round(s, {0: "8C", 1: "10D", 2: "3H", 3: "7S"})  # 3H: seat 2 pays 10
    assert cr.score(s).totals == (9, 0, 10, 0)
    # Round 3 is led by seat 2: the fives come from seats 2, 3, 0, and the last of them pays 9.
    s = one_card_round(s, {0: "5C", 1: "9C", 2: "5D", 3: "5S"})
    sc = ladder_score(cr.score(s))
    assert (sc.results[-1].payer, sc.results[-1].card) == (0, cr.card("9C"))
    assert sc.round_points[-1] == (9, 0, -9, 0)  # seats 2 and 3 played the paying rank; floor 0 for seat 3
    assert sc.totals == (18, 0, 1, 0)


def test_penalized_lead_shows_the_seat_before_the_leader_as_dealer() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=1, threshold=99), 4)
    s = pay_round(s, 2, "9")
    s = cr.apply(s, deal("2", "3", "4", "5"))
    assert (s.to_act, s.match.dealer) == (2, 1)


# --------------------------------------------------------------------------- leads, revival, standings


def test_penalized_leader_and_the_dealer_before_them() -> None:
    rules = cr.ruleset("five-cucumbers", hand_size=1, threshold=50)
    state = cr.new_game(rules, 4)
    state = pay_round(state, payer=2, paid="9")
    state = cr.apply(state, deal("2", "3", "4", "9"))
    assert state.round is not None
    assert (state.round.leader, state.match.dealer) == (2, 1)


def test_accepting_a_revival_brings_back_only_that_seat() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
    state = cr.new_game(rules, 4)
    state = pay_round(state, payer=0, paid="9S")
    assert ladder_state(state).match.pending == (0,)
    state = cr.apply(state, Revive(0, False))  # seat 0 stays out
    state = pay_round(state, payer=1, paid="9S")
    assert ladder_state(state).match.pending == (1,)
    state = cr.apply(state, Revive(1, True))
    assert ladder_state(state).match.out[0] > 0, "seat 0 declined: it must stay out"
    assert ladder_state(state).match.out[1] == 0
    assert ladder_state(state).match.eliminated == (True, False, False, False)
    assert ladder_state(state).match.sitting_out == (1,)
    assert ladder_state(state).match.pending == ()
    assert state.to_act == cr.CHANCE


def test_declining_a_revival_leaves_no_decision_due() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
    state = pay_round(cr.new_game(rules, 3), payer=2, paid="9S")
    state = cr.apply(state, Revive(2, False))
    assert ladder_state(state).match.pending == ()
    assert state.match.winners == ()
    assert state.to_act == cr.CHANCE


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


def test_standings_put_eliminated_seats_after_the_players_still_in() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    state = pay_round(cr.new_game(rules, 4), payer=1, paid="9S")
    assert cr.score(state).eliminated == (False, True, False, False)
    assert cr.score(state).standings == (0, 2, 3, 1)
    state = pay_round(state, payer=3, paid="6S")
    # seat 3 went out later than seat 1, so it ranks better
    assert cr.score(state).standings == (0, 2, 3, 1)
