"""Dealing: the seat order, checking a deal against its deck, and random deals (seeded, uniform)."""

from __future__ import annotations

import random

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules import dealing
from cucumber_rules.dealing import next_seat, previous_seat
from helpers import deal, message_of, pay_round

# --------------------------------------------------------------------------- seats


def test_previous_seat() -> None:
    assert previous_seat(0, (0, 1, 2), 3) == 2
    assert previous_seat(2, (0, 1, 2), 3) == 1
    assert previous_seat(1, (0, 2, 3), 4) == 0
    assert previous_seat(0, (0, 1), 4) == 1
    assert previous_seat(3, (3,), 4) == 3
    with pytest.raises(ValueError, match=r"^no seat to choose from$"):
        previous_seat(0, (), 3)


def test_next_seat_without_a_seat_to_choose() -> None:
    assert next_seat(2, (0, 1, 2), 3) == 0
    assert message_of(ValueError, lambda: next_seat(0, (), 3)) == "no seat to choose from"


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
        monkeypatch.setattr(dealing, "_AFTER", {})
        assert dealing.after_table(seats, players) == expected
        assert dealing.after_table(list(seats), players) == expected  # from the cache now
    monkeypatch.setattr(dealing, "_AFTER", {})
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    state = pay_round(cr.new_game(rules, 4), payer=1, paid="9S")
    monkeypatch.setattr(dealing, "_AFTER", {})
    state = cr.apply(state, deal("2C", "", "3C", "4C"))
    assert state.round is not None
    assert state.round.after == (2, -1, 3, 0)


# --------------------------------------------------------------------------- checking a deal


def test_a_deck_that_can_change_is_read_afresh_each_time() -> None:
    # Only tuples are kept by identity: a list deck changed in place gives the answer its cards give now.
    deck = list(cr.DECKS["standard-52"][:4])  # 2C 2D 2H 2S
    d = cr.Deal(hands=[["2C"], ["3C"]])
    assert str(dealing.deal_error(d, players=2, seats=(0, 1), per=1, deck=deck)) == (
        "bad deal: 3C is not a card of this deck"
    )
    deck[1] = cr.card("3C")
    assert dealing.deal_error(d, players=2, seats=(0, 1), per=1, deck=deck) is None
    assert dealing.deck_limits(deck)[cr.card("3C").index] == 1
    assert dealing.deck_members(deck) == frozenset(map(cr.card, ["2C", "3C", "2H", "2S"]))


def test_deck_limits_are_counted_again_when_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    five = cr.DECKS["five-cucumbers-60"]
    monkeypatch.setattr(dealing, "_DECKS", {})
    limits = dealing.deck_limits(five)
    assert limits[cr.card("7").index] == 4
    assert limits[cr.card("QS").index] == 0
    assert sum(limits) == 60
    assert dealing.deck_limits(five) == limits  # from the cache now
    state = cr.new_game(cr.ruleset("five-cucumbers", hand_size=3), 2)
    for hands, error in [
        (("7 7 8", "7 7 9"), None),
        (("7 7 7", "7 7 8"), "bad deal: 7 appears 5 times, but the deck holds it 4 times"),
        (("7 8 9", "9 10 QS"), "bad deal: QS is not a card of this deck"),
    ]:
        monkeypatch.setattr(dealing, "_DECKS", {})
        found = cr.check(state, deal(*hands))
        assert (None if found is None else str(found)) == error
    gurka = cr.new_game(cr.ruleset("gurka", hand_size=2), 2)  # a deck that holds every card once
    for hands, error in [
        (("2C 3C", "4C 5C"), None),
        (("2C 3C", "3C 5C"), "bad deal: 3C appears 2 times, but the deck holds it once"),
    ]:
        monkeypatch.setattr(dealing, "_DECKS", {})
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


# --------------------------------------------------------------------------- random deals


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


def _plain_shuffled_deal(
    rng: random.Random, deck: list[cr.Card], players: int, seats: tuple[int, ...], per: int, stock: bool
) -> cr.Deal:
    # The dealer written plainly: the same partial Fisher-Yates over the cards themselves.
    pool = list(deck)
    draw = len(pool) if stock else len(seats) * per
    for i in range(draw):
        j = i + int(rng.random() * (len(pool) - i))
        pool[i], pool[j] = pool[j], pool[i]
    hands: list[list[cr.Card]] = [[] for _ in range(players)]
    for k, seat in enumerate(seats):
        hands[seat] = pool[k * per : (k + 1) * per]
    return cr.Deal(hands=hands, stock=pool[len(seats) * per : draw] if stock else ())


def test_shuffled_deal_draws_as_a_plain_shuffle_of_the_cards_and_keeps_the_plays() -> None:
    # The dealer shuffles card indexes and makes each hand's cards and plays in one lookup: its deals
    # are a plain shuffle's, card for card (copies of Five Cucumbers' numbers too), from the same draws,
    # and the plays it keeps on the deal are the hands' (`dealt_held`), for a tuple or a list deck.
    from cucumber_rules.state import dealt_held, held_cards

    rng = random.Random(11)
    for _ in range(400):
        deck = cr.DECKS[rng.choice(sorted(cr.DECKS))]
        players = rng.randint(2, 8)
        seats = tuple(sorted(rng.sample(range(players), rng.randint(1, players))))
        per = rng.randint(0, len(deck) // len(seats))
        stock = rng.random() < 0.5
        seed = rng.randrange(10**6)
        given = deck if rng.random() < 0.5 else list(deck)
        drawn = dealing.shuffled_deal(
            random.Random(seed), given, players=players, seats=seats, per=per, stock=stock
        )
        assert drawn == _plain_shuffled_deal(random.Random(seed), list(deck), players, seats, per, stock)
        assert dealt_held(drawn) == held_cards(drawn.hands)
        assert dealt_held(drawn) is dealt_held(drawn)  # kept, not worked out again


def test_a_deal_keeps_its_plays_only_as_a_cache() -> None:
    # The kept plays are not part of the deal's value: equal deals compare and hash equal, and a pickled
    # deal comes back without them (its plays are worked out again).
    import pickle

    from cucumber_rules.state import dealt_held

    drawn = cr.sample_chance(cr.new_game(cr.ruleset("agurk"), players=3), random.Random(5))
    assert isinstance(drawn, cr.Deal)
    typed = cr.Deal(hands=drawn.hands)
    assert drawn == typed
    assert hash(drawn) == hash(typed)
    assert repr(drawn) == repr(typed)
    assert drawn._held is not None
    assert typed._held is None
    again = pickle.loads(pickle.dumps(drawn))
    assert again == drawn
    assert again._held is None
    assert again._drawn_for is None
    assert dealt_held(again) == dealt_held(drawn) == dealt_held(typed)


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
        drawn = dealing.shuffled_deal(rng, deck, players=5, seats=(0, 1, 2, 4), per=7, stock=stock)
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
