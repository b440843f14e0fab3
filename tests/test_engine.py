"""The engine API on the ladder games: new_game, to_act, legal_moves, check/is_legal/apply, errors."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import cucumber_rules as cr
from cucumber_rules import CHANCE, Deal, IllegalMoveError, InvalidRulesError, Play, Revive, State, card
from helpers import (
    assert_illegal,
    autoplay,
    deal,
    ladder_state,
    message_of,
    names,
    pay_round,
    play,
    random_states,
    start,
)

LADDER = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken")

# A trick in progress (SPEC's example message): seat 0 led 5S, seat 1 played 10D, seat 2 to act.
HANDS3 = ("5S 6S 7S", "10D JD QD", "3C 9H KH")


def agurk3() -> State:
    return start(cr.ruleset("agurk", hand_size=3), *HANDS3)


def over_state() -> State:
    """A finished 2-player Gurka match: seat 1 pays 12 >= threshold 10 and is out."""
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 2)
    s = pay_round(s, 1, "QS")
    assert s.is_over
    return s


def pending_state() -> State:
    """Seat 1 was eliminated in round 1 of a 4-player Gurka match with revival: their decision."""
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10, revival=True), 4)
    s = pay_round(s, 1, "QS")
    assert ladder_state(s).match.pending == (1,)
    return s


# --------------------------------------------------------------------------- new_game


@pytest.mark.parametrize("name", LADDER)
def test_new_game_waits_for_the_first_deal(name: str) -> None:
    rules = cr.ruleset(name)
    s = cr.new_game(rules, 3)
    assert s.rules == rules
    assert len(s.players) == s.num_players == 3
    assert all(isinstance(p, str) for p in s.players)
    assert len(set(s.players)) == 3
    assert s.first == 0
    assert s.to_act == CHANCE == -1
    assert not s.is_over
    assert s.round is None
    assert s.actions == ()
    assert len(s.history) == 0
    assert s.hands == ((), (), ())
    assert s.trick == ()
    assert cr.legal_moves(s) == ()
    sc = cr.score(s)
    assert sc.totals == (0, 0, 0)
    assert sc.round_points == ()
    assert sc.marks == (0, 0, 0)
    assert sc.eliminated == (False, False, False)
    assert sc.winners == ()
    assert sorted(sc.standings) == [0, 1, 2]


def test_new_game_with_names_and_first() -> None:
    s = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"], first=2)
    assert s.players == ("Ann", "Bo", "Cy")
    assert s.first == 2
    assert cr.new_game(cr.ruleset("gurka"), ("Ann", "Bo")).players == ("Ann", "Bo")
    s = cr.apply(s, deal("2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D", "2H 3H 4H 5H 6H 7H 8H"))
    assert s.to_act == 2  # seat `first` leads the first trick
    assert s.round is not None
    assert s.round.leader == 2
    assert s.match.dealer == 1  # the seat before it deals


@pytest.mark.parametrize(
    ("name", "bad", "good"),
    [
        ("agurk", (0, 1, 2, 8), (3, 7)),
        ("gurka", (0, 1, 8), (2, 7)),
        ("five-cucumbers", (1, 7), (2, 6)),
        ("fuenf-gurken", (1, 7), (2, 6)),
    ],
)
def test_new_game_player_counts(name: str, bad: tuple[int, ...], good: tuple[int, ...]) -> None:
    rules = cr.ruleset(name)
    for n in good:
        assert cr.new_game(rules, n).num_players == n
        assert cr.new_game(rules, [f"p{i}" for i in range(n)]).num_players == n
    for n in bad:
        with pytest.raises(InvalidRulesError) as info:
            cr.new_game(rules, n)
        assert info.value.option == "players"
        assert str(n) in str(info.value)
        with pytest.raises(InvalidRulesError) as info:
            cr.new_game(rules, [f"p{i}" for i in range(n)])
        assert info.value.option == "players"
    with pytest.raises(InvalidRulesError) as info:
        cr.new_game(rules, -1)
    assert info.value.option == "players"


def test_new_game_first_must_be_a_seat() -> None:
    rules = cr.ruleset("gurka")
    for first in (-1, 3, 10):
        with pytest.raises(InvalidRulesError) as info:
            cr.new_game(rules, 3, first=first)
        assert info.value.option == "first"
    assert cr.new_game(rules, 3, first=2).first == 2


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("agurk", 3), {}),
        ((None, 3), {}),
        ((cr.ruleset("agurk"), True), {}),
        ((cr.ruleset("agurk"), "abc"), {}),
        ((cr.ruleset("agurk"), 3.0), {}),
        ((cr.ruleset("agurk"), [1, 2, 3]), {}),
        ((cr.ruleset("agurk"), None), {}),
        ((cr.ruleset("agurk"), 3), {"first": "0"}),
        ((cr.ruleset("agurk"), 3), {"first": 1.0}),
        ((cr.ruleset("agurk"), 3), {"first": None}),
    ],
)
def test_new_game_wrong_types(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        cr.new_game(*args, **kwargs)


# --------------------------------------------------------------------------- to_act and legal_moves


def test_to_act_goes_chance_seat_chance_none() -> None:
    rules = cr.ruleset("gurka", hand_size=2, threshold=10)
    s = cr.new_game(rules, 2)
    assert s.to_act == CHANCE
    s = cr.apply(s, deal("2C 9S", "3D KD"))
    assert s.to_act == 0
    s = play(s, "2C")
    assert s.to_act == 1
    s = play(s, "KD")  # seat 1 takes and leads
    assert s.to_act == 1
    s = play(s, "3D")
    assert s.to_act == 0
    s = play(s, "9S")  # seat 0 pays 9: below 10
    assert s.to_act == CHANCE
    assert cr.legal_moves(s) == ()
    assert cr.score(s).totals == (9, 0)
    s = cr.apply(s, deal("2H 3H", "QS KS"))
    s = autoplay(s)
    assert s.to_act is None
    assert s.is_over
    assert cr.legal_moves(s) == ()


@pytest.mark.parametrize("name", LADDER)
def test_legal_moves_sorted_unique_and_agreeing_with_check_and_apply(name: str) -> None:
    rules = cr.ruleset(name, threshold=25) if name == "agurk" else cr.ruleset(name)
    deck = sorted(set(cr.DECKS[rules.deck]))
    states = random_states(rules, 3, seed=11, limit=160)
    assert len(states) > 50
    for s in states:
        moves = cr.legal_moves(s)
        if s.to_act is None or s.to_act == CHANCE:
            assert moves == ()
            continue
        assert moves, "a seat to act always has a move"
        assert len(set(moves)) == len(moves)
        if ladder_state(s).match.pending:
            assert moves == (Revive(s.to_act, False), Revive(s.to_act, True))
            continue
        assert all(isinstance(m, Play) and m.seat == s.to_act for m in moves)
        played = [m.card for m in moves if isinstance(m, Play)]
        assert played == sorted(played)
        assert len(set(played)) == len(played)
        allowed = set(played)
        for seat in range(s.num_players):
            for c in deck:
                action = Play(seat, c)
                error = cr.check(s, action)
                legal = seat == s.to_act and c in allowed
                assert (error is None) == legal, (str(action), error)
                assert cr.is_legal(s, action) == legal
                if error is None:
                    continue
                with pytest.raises(IllegalMoveError) as info:
                    cr.apply(s, action)
                assert info.value.code == error.code
                assert str(info.value) == str(error)
        for move in moves:
            after = cr.apply(s, move)
            assert after.actions == (*s.actions, move)


def test_five_cucumbers_copies_are_listed_once_and_played_one_at_a_time() -> None:
    s = start(cr.ruleset("five-cucumbers", hand_size=5), "3 3 3 9 9", "1 1 5 5 12")
    moves = cr.legal_moves(s)
    assert names(s, moves) == ["3", "9"]
    assert moves == (Play(0, "3"), Play(0, "9"))
    s = play(s, "9")
    assert s.hands[0] == (card("3"), card("3"), card("3"), card("9"))
    assert names(s, cr.legal_moves(s)) == ["1", "12"]  # the lowest card (one entry), or 9 and up
    s = play(s, "1")
    assert s.hands[1] == (card("1"), card("5"), card("5"), card("12"))
    assert names(s, cr.legal_moves(s)) == ["3", "9"]


def test_hands_are_sorted_after_the_deal() -> None:
    s = start(cr.ruleset("gurka", hand_size=3), "KS 2C 10H", "AD 3S 3C")
    assert s.hands == (
        (card("2C"), card("10H"), card("KS")),
        (card("3C"), card("3S"), card("AD")),
    )
    assert names(s, cr.legal_moves(s)) == ["2C", "10H", "KS"]


# --------------------------------------------------------------------------- purity


@pytest.mark.parametrize("name", LADDER)
def test_apply_never_changes_its_input(name: str) -> None:
    rules = cr.ruleset(name)
    states = random_states(rules, 3, seed=5, limit=120)
    rng = random.Random(9)
    for s in states[::7]:
        before = copy.deepcopy(s)
        if s.to_act == CHANCE:
            action: cr.Action = cr.sample_chance(s, rng)
        elif s.to_act is None:
            continue
        else:
            action = rng.choice(cr.legal_moves(s))
        after = cr.apply(s, action)
        assert s == before
        assert after != s
        assert s.actions == before.actions
        assert len(after.history) == len(s.history) + 1
        cr.legal_moves(s)
        cr.score(s)
        assert s == before


def test_an_illegal_action_leaves_everything_as_it_was() -> None:
    s = agurk3()
    s = play(s, "5S", "10D")
    before = copy.deepcopy(s)
    for action in (Play(2, "9H"), Play(1, "JD"), Play(2, "AS"), deal("2C", "3C", "4C"), Revive(2, True)):
        with pytest.raises(IllegalMoveError):
            cr.apply(s, action)
        assert s == before
    assert names(s, cr.legal_moves(s)) == ["3C", "KH"]
    s2 = play(s, "KH")
    assert s == before
    assert s2.round is not None
    assert s2.round.tricks[0].taker == 2


def test_states_are_frozen() -> None:
    s = agurk3()
    with pytest.raises(AttributeError):
        s.to_act = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        s.match.totals = (1, 2, 3)  # type: ignore[misc]
    assert s.to_act == 0


@pytest.mark.parametrize("bad", ["QS", None, 3, card("QS"), ("play", 0, "QS"), {"seat": 0}, object()])
def test_non_actions_raise_type_error(bad: Any) -> None:
    s = agurk3()
    for fn in (cr.apply, cr.check, cr.is_legal):
        with pytest.raises(TypeError):
            fn(s, bad)
    with pytest.raises(TypeError):
        cr.apply_all(s, [bad])
    chance = cr.new_game(cr.ruleset("agurk"), 3)
    with pytest.raises(TypeError):
        cr.apply(chance, bad)


# --------------------------------------------------------------------------- every error code


def test_spec_error_codes_exist() -> None:
    required = {
        "not-your-turn",
        "not-in-hand",
        "must-follow",
        "must-play-lowest",
        "deal-expected",
        "bad-deal",
        "game-over",
        "unexpected-deal",
        "decision-expected",
        "no-decision",
    }
    assert required <= set(cr.ERROR_CODES)
    assert all(isinstance(v, str) and v for v in cr.ERROR_CODES.values())


def test_not_your_turn() -> None:
    s = agurk3()
    err = assert_illegal(s, Play(1, "10D"), "not-your-turn", "seat 1 cannot play 10D: it is seat 0's turn")
    assert err.seat == 1
    assert_illegal(s, Play(2, "3C"), "not-your-turn")
    assert_illegal(s, Play(5, "3C"), "not-your-turn")  # no such seat
    with pytest.raises(ValueError, match=r"a seat is 0\.\.15"):
        Play(-1, "3C")  # not a seat at all
    s = play(s, "5S")
    assert_illegal(s, Play(0, "6S"), "not-your-turn")  # the leader cannot play twice


def test_not_your_turn_for_a_decision() -> None:
    s = pending_state()
    err = assert_illegal(s, Revive(0, True), "not-your-turn")
    assert "seat 1" in str(err)
    assert err.seat == 0


def test_not_in_hand() -> None:
    s = agurk3()
    err = assert_illegal(
        s,
        Play(0, "AS"),
        "not-in-hand",
        "seat 0 cannot play AS: it is not in their hand (they hold 5S, 6S, 7S)",
    )
    assert err.seat == 0
    assert err.action == Play(0, "AS")
    assert_illegal(s, Play(0, "10D"), "not-in-hand")  # another seat's card
    assert_illegal(  # a card of another deck
        s,
        Play(0, "7"),
        "not-in-hand",
        "seat 0 cannot play 7: it is not a card of the standard-52 deck (they hold 5S, 6S, 7S)",
    )
    s = play(s, "5S")
    assert_illegal(s, Play(1, "5S"), "not-in-hand")  # already played


def test_must_follow_optional_lowest_message() -> None:
    s = play(agurk3(), "5S", "10D")
    err = assert_illegal(
        s,
        Play(2, "9H"),
        "must-follow",
        "seat 2 cannot play 9H: must play 10 or higher, or the lowest card 3C",
    )
    assert err.seat == 2
    assert err.action == Play(2, "9H")
    assert names(s, cr.legal_moves(s)) == ["3C", "KH"]


def test_must_follow_names_every_lowest_card_and_face_ranks() -> None:
    s = start(cr.ruleset("agurk", hand_size=3), "5S 6S 7S", "QD KD AD", "3C 3H KH")
    s = play(s, "5S", "QD")
    assert names(s, cr.legal_moves(s)) == ["3C", "3H", "KH"]
    s2 = start(cr.ruleset("agurk", hand_size=3), "5S 6S 7S", "QD KD AD", "3C 3H 9H")
    s2 = play(s2, "5S", "QD")
    assert_illegal(
        s2,
        Play(2, "9H"),
        "must-follow",
        "seat 2 cannot play 9H: must play Q or higher, or the lowest card 3C or 3H",
    )


def test_must_follow_forced_lowest_messages() -> None:
    gurka = cr.ruleset("gurka", hand_size=3)
    s = play(start(gurka, *HANDS3), "5S", "10D")
    msg = "seat 2 cannot play 9H: must play 10 or higher (they hold KH)"
    assert_illegal(s, Play(2, "9H"), "must-follow", msg)
    msg = "seat 2 cannot play 3C: must play 10 or higher (they hold KH)"
    assert_illegal(s, Play(2, "3C"), "must-follow", msg)
    assert names(s, cr.legal_moves(s)) == ["KH"]
    s = play(start(gurka, "5S 6S 7S", "10D JD QD", "3C 9H 4D"), "5S", "10D")
    msg = "seat 2 cannot play 9H: they hold nothing of 10 or higher, so must play the lowest card 3C"
    assert_illegal(s, Play(2, "9H"), "must-follow", msg)
    assert names(s, cr.legal_moves(s)) == ["3C"]


def test_must_play_lowest_after_a_led_ace() -> None:
    s = start(cr.ruleset("gurka", hand_size=3), "AS 6S 7S", "10D JD AD", "3C 3H 4D")
    s = play(s, "AS")
    msg = "seat 1 cannot play AD: AS was led, so every other player plays their lowest card 10D"
    err = assert_illegal(s, Play(1, "AD"), "must-play-lowest", msg)
    assert err.seat == 1
    s = play(s, "10D")
    msg = "seat 2 cannot play 4D: AS was led, so every other player plays their lowest card 3C or 3H"
    assert_illegal(s, Play(2, "4D"), "must-play-lowest", msg)


def test_deal_expected() -> None:
    s = cr.new_game(cr.ruleset("gurka"), 2)
    err = assert_illegal(s, Play(0, "AS"), "deal-expected")
    assert "deal" in str(err)
    assert err.seat == 0
    assert_illegal(s, Play(1, "2C"), "deal-expected")
    # also between rounds
    s = cr.new_game(cr.ruleset("gurka", hand_size=1), 2)
    s = pay_round(s, 0, "5S")
    assert s.to_act == CHANCE
    assert_illegal(s, Play(0, "5S"), "deal-expected")


def test_unexpected_deal() -> None:
    s = agurk3()
    err = assert_illegal(s, deal("2C 3C 4C", "2D 3D 4D", "2H 3H 4H"), "unexpected-deal")
    assert "seat 0" in str(err)
    assert err.seat is None
    with pytest.raises(IllegalMoveError) as info:
        cr.sample_chance(s, random.Random(1))
    assert info.value.code == "unexpected-deal"


@pytest.mark.parametrize(
    ("hands", "fragment"),
    [
        (("2C 3C", "2D 3D"), "2 hands for 3 seats"),
        (("2C 3C", "2D 3D", "2H 3H", "2S 3S"), "4 hands for 3 seats"),
        (("2C 3C", "2D 3D", "2H"), "seat 2 must receive 2 cards, not 1"),
        (("2C 3C 4C", "2D 3D", "2H 3H"), "seat 0 must receive 2 cards, not 3"),
        (("", "2D 3D", "2H 3H"), "seat 0 must receive 2 cards, not 0"),
        (("2C 7", "2D 3D", "2H 3H"), "7 is not a card of this deck"),
        (("2C 3C", "2D 3D", "2H 2C"), "2C appears 2 times, but the deck holds it once"),
    ],
)
def test_bad_deal_agurk(hands: tuple[str, ...], fragment: str) -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=2), 3)
    err = assert_illegal(s, deal(*hands), "bad-deal")
    assert fragment in str(err), str(err)
    assert err.seat is None


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (("2C 3C", "2D", "2H"), "bad deal: seat 0 must receive 1 card, not 2"),
        (("2C",), "bad deal: 1 hand for 3 seats"),
    ],
)
def test_bad_deal_messages_say_one_card_and_one_hand(hands: tuple[str, ...], message: str) -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 3)
    assert str(assert_illegal(s, deal(*hands), "bad-deal")) == message


def test_bad_deal_five_cucumbers_copies() -> None:
    s = cr.new_game(cr.ruleset("five-cucumbers", hand_size=3), 2)
    assert cr.is_legal(s, deal("3 3 3", "3 9 9"))  # all four 3s
    err = assert_illegal(s, deal("3 3 3", "3 3 9"), "bad-deal")
    assert "3 appears 5 times, but the deck holds it 4 times" in str(err)
    err = assert_illegal(s, deal("3 3 16", "3 9 9"), "bad-deal")
    assert "16 is not a card of this deck" in str(err)
    err = assert_illegal(s, deal("QS 3 4", "3 9 9"), "bad-deal")
    assert "QS is not a card of this deck" in str(err)


def test_bad_deal_stock_counts_with_the_hands() -> None:
    s = cr.new_game(cr.ruleset("agurk", hand_size=1), 3)
    assert cr.is_legal(s, Deal(hands=[["2C"], ["3C"], ["4C"]], stock=["5C", "6C"]))
    err = assert_illegal(s, Deal(hands=[["2C"], ["3C"], ["4C"]], stock=["2C"]), "bad-deal")
    assert "2C appears 2 times" in str(err)


def test_bad_deal_leader_given() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1), 2)
    err = assert_illegal(s, Deal(hands=[["2C"], ["3C"]], leader=0), "bad-deal")
    assert "leader" in str(err)
    assert_illegal(s, Deal(hands=[["2C"], ["3C"]], leader=1), "bad-deal")


def test_bad_deal_cards_to_an_eliminated_seat() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 3)
    s = pay_round(s, 0, "QS")  # seat 0 out
    assert cr.score(s).eliminated == (True, False, False)
    err = assert_illegal(s, deal("5C", "2C", "3C"), "bad-deal")
    assert "seat 0 is not dealt in this round and must receive no cards" in str(err)
    assert cr.is_legal(s, deal("", "2C", "3C"))
    assert cr.is_legal(s, deal("-", "2C", "3C"))
    assert_illegal(s, deal("2C", "3C"), "bad-deal")  # still one hand per seat


def test_decision_expected() -> None:
    s = pending_state()
    assert s.to_act == 1
    err = assert_illegal(s, Play(1, "2C"), "decision-expected")
    assert "buy back in" in str(err)
    assert err.seat == 1
    assert_illegal(s, Play(0, "2C"), "not-your-turn")
    assert_illegal(s, deal("2C", "", "3C", "4C"), "unexpected-deal")
    with pytest.raises(IllegalMoveError) as info:
        cr.sample_chance(s, random.Random(1))
    assert info.value.code == "unexpected-deal"


def test_no_decision() -> None:
    s = agurk3()
    err = assert_illegal(
        s,
        Revive(0, True),
        "no-decision",
        "seat 0 has no decision to take (these rules have no revival: revival=False)",
    )
    assert err.seat == 0
    assert_illegal(s, Revive(1, False), "no-decision")
    chance = cr.new_game(cr.ruleset("gurka", revival=True), 3)
    assert_illegal(chance, Revive(0, True), "no-decision", "seat 0 has no decision to take now")
    # a seat eliminated without the revival rule has no decision either
    out = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 3)
    out = pay_round(out, 0, "QS")
    assert out.to_act == CHANCE
    assert_illegal(out, Revive(0, True), "no-decision")


def test_game_over() -> None:
    s = over_state()
    assert s.match.winners == (0,)
    for action in (
        Play(0, "2C"),
        Play(1, "2C"),
        deal("2C", ""),
        Deal(hands=[["2C"], ["3C"]]),
        Revive(1, True),
    ):
        err = assert_illegal(s, action, "game-over")
        assert "over" in str(err)
        assert "seat 0" in str(err)  # names the winner
    with pytest.raises(IllegalMoveError) as info:
        cr.sample_chance(s, random.Random(1))
    assert info.value.code == "game-over"


def test_check_returns_the_error_without_raising() -> None:
    s = play(agurk3(), "5S", "10D")
    assert cr.check(s, Play(2, "KH")) is None
    assert cr.check(s, Play(2, "3C")) is None
    assert cr.is_legal(s, Play(2, "KH"))
    err = cr.check(s, Play(2, "9H"))
    assert isinstance(err, IllegalMoveError)
    assert err.code == "must-follow"
    assert err.message == str(err)


def test_apply_all_and_error_index() -> None:
    s0 = cr.new_game(cr.ruleset("agurk", hand_size=3), 3)
    actions: list[cr.Action] = [deal(*HANDS3), Play(0, "5S"), Play(1, "10D"), Play(2, "KH")]
    s = cr.apply_all(s0, actions)
    assert s.actions == tuple(actions)
    assert s.to_act == 2
    assert cr.apply_all(s0, []) is s0
    with pytest.raises(IllegalMoveError) as info:
        cr.apply_all(s0, [*actions[:2], Play(1, "JD"), Play(2, "9H")])
    assert info.value.index == 3
    assert info.value.code == "must-follow"
    assert "action 3" in str(info.value)


def test_history_records_every_action_in_order() -> None:
    rules = cr.ruleset("agurk")
    s = cr.new_game(rules, 3)
    d = Deal(
        hands=[
            ["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
            ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
            ["2H", "3H", "4H", "5H", "6H", "7H", "8H"],
        ]
    )
    s = cr.apply(s, d)
    s = autoplay(s)
    assert s.to_act == CHANCE
    assert len(s.history) == len(s.actions) == 1 + 3 * 7
    assert s.actions[0] == d
    assert all(isinstance(a, Play) for a in s.actions[1:])
    assert list(s.history) == list(s.actions)


# --------------------------------------------------------------------------- sample_chance


@pytest.mark.parametrize("name", LADDER)
def test_sample_chance_is_a_legal_deal_and_reproducible(name: str) -> None:
    rules = cr.ruleset(name)
    s = cr.new_game(rules, 4)
    d1 = cr.sample_chance(s, random.Random(42))
    d2 = cr.sample_chance(s, random.Random(42))
    assert isinstance(d1, Deal)
    assert d1 == d2
    assert cr.is_legal(s, d1)
    assert [len(h) for h in d1.hands] == [7, 7, 7, 7]
    assert d1.leader is None
    assert any(cr.sample_chance(s, random.Random(seed)) != d1 for seed in range(1, 4))


def test_sample_chance_deals_nothing_to_eliminated_seats() -> None:
    s = cr.new_game(cr.ruleset("gurka", hand_size=1, threshold=10), 3)
    s = pay_round(s, 1, "QS")
    d = cr.sample_chance(s, random.Random(3))
    assert isinstance(d, Deal)
    assert [len(h) for h in d.hands] == [1, 0, 1]
    assert cr.is_legal(s, d)


@pytest.mark.parametrize("rng", [None, 7, "seed", random])
def test_sample_chance_needs_a_random_instance(rng: Any) -> None:
    s = cr.new_game(cr.ruleset("gurka"), 2)
    with pytest.raises(TypeError):
        cr.sample_chance(s, rng)


def test_errors_form_one_hierarchy() -> None:
    for kind in (cr.IllegalMoveError, cr.InvalidRulesError, cr.InvalidStateError, cr.InvalidNotationError):
        assert issubclass(kind, cr.RulesError)
        assert issubclass(kind, ValueError)


@pytest.mark.parametrize(
    "call",
    [
        cr.legal_moves,
        lambda bad: cr.apply(bad, cr.Play(0, "QS")),
        lambda bad: cr.apply(bad, cr.Deal(hands=[["2C"], ["3C"]])),
        lambda bad: cr.check(bad, cr.Play(0, "QS")),
        lambda bad: cr.is_legal(bad, cr.Play(0, "QS")),
        cr.score,
        lambda bad: cr.sample_chance(bad, random.Random(1)),
        lambda bad: cr.view(bad, 0),
    ],
)
@pytest.mark.parametrize("bad", ["agurk", None, 7])
def test_a_non_state_is_a_type_error(call: Any, bad: object) -> None:
    with pytest.raises(TypeError, match=f"State.* not {type(bad).__name__}$"):
        call(bad)


# --------------------------------------------------------------------------- messages and defaults


def test_game_over_message_names_every_winner() -> None:
    # One fixed round: seat 0 pays, seats 1 and 2 share the win.
    state = start(cr.ruleset("agurk", hand_size=1, fixed_rounds=1), "9S", "2C", "3D")
    state = play(state, "9S", "2C", "3D")
    assert state.match.winners == (1, 2)
    error = assert_illegal(state, Play(0, "2H"), "game-over")
    assert str(error) == "the match is over (won by seat 1, seat 2); no action is possible"


def test_new_game_seats_four_players_by_default() -> None:
    assert cr.new_game(cr.ruleset("agurk")).num_players == 4


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
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
    ],
)
def test_engine_error_messages(call: Any, kind: type[Exception], message: str) -> None:
    assert message_of(kind, call) == message


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
    assert message_of(cr.IllegalMoveError, lambda: cr.sample_chance(dealt, random.Random(1))) == (
        "no deal is due: it is seat 0's turn"
    )
    over = play(start(cr.ruleset("gurka", hand_size=1, fixed_rounds=1), "5C", "9D"), "5C", "9D")
    assert message_of(cr.IllegalMoveError, lambda: cr.sample_chance(over, random.Random(1))) == (
        "the match is over; no deal is due"
    )
