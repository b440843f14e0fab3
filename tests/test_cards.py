"""Cards: notation, canonical text, ordering, interning, decks and bad input."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

import cucumber_rules as cr
from cucumber_rules import Card, InvalidNotationError, card
from cucumber_rules import cards as cards_module
from cucumber_rules.cards import SUITS, rank_label
from helpers import message_of

ALL_CARDS = sorted({c for deck in cr.DECKS.values() for c in deck})


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("QS", 12, "S"),
        ("10H", 10, "H"),
        ("TH", 10, "H"),
        ("A♠", 14, "S"),
        ("K♥", 13, "H"),
        ("J♦", 11, "D"),
        ("9♣", 9, "C"),
        ("qs", 12, "S"),
        ("as", 14, "S"),
        ("th", 10, "H"),
        ("2c", 2, "C"),
        ("Jd", 11, "D"),
        ("2C", 2, "C"),
        ("7", 7, None),
        ("10", 10, None),
        ("42", 42, None),
        ("1", 1, None),
        ("15", 15, None),
        ("60", 60, None),
        (" QS ", 12, "S"),
    ],
)
def test_parse(text: str, rank: int, suit: str | None) -> None:
    c = card(text)
    assert type(c) is Card
    assert (c.rank, c.suit) == (rank, suit)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QS", "QS"),
        ("qs", "QS"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10h", "10H"),
        ("A♠", "AS"),
        ("a♠", "AS"),
        ("K♥", "KH"),
        ("j♦", "JD"),
        ("3♣", "3C"),
        ("7", "7"),
        ("42", "42"),
    ],
)
def test_canonical_str(text: str, canonical: str) -> None:
    assert str(card(text)) == canonical
    assert repr(card(text)) == f"card({canonical!r})"


@pytest.mark.parametrize("c", ALL_CARDS, ids=str)
def test_every_card_round_trips_through_its_text(c: Card) -> None:
    assert card(str(c)) is c
    assert card(str(c).lower()) is c


def test_face_cards_and_ace_ranks() -> None:
    assert [card(t + "S").rank for t in ("2", "9", "10", "J", "Q", "K", "A")] == [2, 9, 10, 11, 12, 13, 14]
    assert [rank_label(r) for r in range(2, 15)] == [
        *(str(r) for r in range(2, 11)),
        "J",
        "Q",
        "K",
        "A",
    ]
    assert rank_label(12, suited=False) == "12"


def test_order_is_rank_then_suit_clubs_diamonds_hearts_spades() -> None:
    assert SUITS == ("C", "D", "H", "S")
    assert card("2C") < card("2D") < card("2H") < card("2S") < card("3C")
    assert card("10S") < card("JC") < card("QC") < card("KC") < card("AC")
    assert card("AS") > card("KS") >= card("KS") >= card("KH")
    assert card("KH") <= card("KH") <= card("KS")
    assert not card("3C") < card("2S")
    assert card("7") < card("42")
    assert card("9") < card("10") < card("15")


def test_sorting_a_shuffled_deck_gives_the_deck_order() -> None:
    for name, deck in cr.DECKS.items():
        shuffled = list(deck)
        random.Random(3).shuffle(shuffled)
        assert tuple(sorted(shuffled)) == deck, name
    standard = cr.DECKS["standard-52"]
    assert [str(c) for c in standard[:5]] == ["2C", "2D", "2H", "2S", "3C"]
    assert str(standard[-1]) == "AS"


def test_equality_and_hash_follow_rank_and_suit() -> None:
    assert card("QS") == card("Q♠") == Card(12, "S")
    assert hash(card("QS")) == hash(Card(12, "S"))
    assert card("QS") != card("QH")
    assert card("QS") != card("12")
    assert card("10") != card("10H")
    assert card("QS") != "QS"
    assert len({card("QS"), Card(12, "S"), card("qs")}) == 1
    assert Card(12, "S") is card("QS")  # one instance per card, however it is built


def test_cards_are_interned() -> None:
    assert card("QS") is card("qs") is card("Q♠") is card(" QS")
    assert card("TH") is card("10H")
    assert card(Card(12, "S")) is card("QS")
    assert card(card("42")) is card("42")
    five = cr.DECKS["five-cucumbers-60"]
    assert five[0] is five[1] is five[2] is five[3] is card("1")
    assert all(c is card(str(c)) for deck in cr.DECKS.values() for c in deck)


def test_cards_survive_copy_and_pickle_as_the_shared_instance() -> None:
    c = card("KD")
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.deepcopy(c) is c
    assert copy.copy(c) == c


def test_cards_are_frozen() -> None:
    c = card("QS")
    with pytest.raises(AttributeError):
        c.rank = 3  # type: ignore[misc]
    assert c.rank == 12


def test_index_is_unique_and_follows_the_order() -> None:
    indexes = [c.index for c in ALL_CARDS]
    assert len(set(indexes)) == len(ALL_CARDS) == 52 + 60
    standard = cr.DECKS["standard-52"]
    assert [c.index for c in standard] == sorted(c.index for c in standard)


def test_decks() -> None:
    assert set(cr.DECKS) >= {"standard-52", "five-cucumbers-60", "numbered-60"}
    standard = cr.DECKS["standard-52"]
    assert len(standard) == len(set(standard)) == 52
    assert {(c.rank, c.suit) for c in standard} == {(r, s) for r in range(2, 15) for s in "SHDC"}
    five = cr.DECKS["five-cucumbers-60"]
    assert len(five) == 60
    assert all(c.suit is None for c in five)
    assert {r: sum(1 for c in five if c.rank == r) for r in range(1, 16)} == dict.fromkeys(range(1, 16), 4)
    numbered = cr.DECKS["numbered-60"]
    assert [c.rank for c in numbered] == list(range(1, 61))
    with pytest.raises(TypeError):
        cr.DECKS["mine"] = ()  # type: ignore[index]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "QX",
        "XS",
        "1S",
        "0",
        "61",
        "99",
        "0H",
        "15S",
        "QSS",
        "A♠♠",
        "1234",
        "-5",
        "S",
        "♠",
    ],
)
def test_bad_notation_raises_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        card(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, cr.RulesError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("value", [12.0, True, None, b"QS", ["QS"], ("Q", "S"), object()])
def test_card_of_a_non_string_raises_type_error(value: Any) -> None:
    with pytest.raises(TypeError):
        card(value)


def test_building_a_card_directly_validates() -> None:
    with pytest.raises(TypeError):
        Card("12", "S")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Card(True, "S")
    with pytest.raises(TypeError):
        Card(12.0, "S")  # type: ignore[arg-type]
    for rank, suit in [(1, "S"), (15, "S"), (12, "X"), (12, "s"), (0, None), (61, None)]:
        with pytest.raises(InvalidNotationError):
            Card(rank, suit)


def test_actions_take_card_text_or_cards() -> None:
    assert cr.Play(0, "qs").card is card("QS")
    assert cr.Play(0, card("QS")) == cr.Play(0, "Q♠")
    d = cr.Deal(hands=[["TH", card("2C")], []])
    assert d.hands == ((card("2C"), card("10H")), ())  # each hand sorted
    with pytest.raises(InvalidNotationError):
        cr.Play(0, "ZZ")
    assert cr.Play(0, 12).card is card("12")  # a numbered card by its number
    with pytest.raises(TypeError):
        cr.Play(0, 12.0)
    with pytest.raises(TypeError):
        cr.Play("0", "QS")
    with pytest.raises(TypeError):
        cr.Play(True, "QS")
    with pytest.raises(TypeError):
        cr.Deal(hands="QS KS")
    with pytest.raises(TypeError):
        cr.Deal(hands=["QS KS"])
    assert cr.Deal(hands=[[12]]).hands == ((card("12"),),)  # a numbered card by its number
    with pytest.raises(TypeError):
        cr.Deal(hands=[[12.0]])
    with pytest.raises(TypeError):
        cr.Deal(hands=[["QS"]], leader="0")
    with pytest.raises(TypeError, match=r"^accept must be True or False, not 1$"):
        cr.Revive(0, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cr.Revive(None, True)


# --------------------------------------------------------------------------- built directly, order, decks


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
        (
            lambda: cr.card("Q"),  # a rank without its suit: said so (it used to be "unknown rank ''")
            InvalidNotationError,
            "'Q' is not a card: a suited card is a rank and a suit, e.g. 'QS' or '10H' "
            "(numbered cards 1..60)",
        ),
        (
            lambda: cr.card("x"),
            InvalidNotationError,
            "'x' is not a card: a suited card is a rank and a suit, e.g. 'QS' or '10H' "
            "(numbered cards 1..60)",
        ),
    ],
)
def test_card_error_messages(call: Any, kind: type[Exception], message: str) -> None:
    assert message_of(kind, call) == message
