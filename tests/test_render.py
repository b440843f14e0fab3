"""cucumber_rules.render: well-formed, accessible pictures that show exactly what the viewer may see."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

import cucumber_rules as cr
from cucumber_rules import render

SVG = "{http://www.w3.org/2000/svg}"


def _parse(picture: str) -> ET.Element:
    """Parse a picture; check the element and its text alternative."""
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    label = root.get("aria-label") or ""
    assert label.strip(), "a picture needs a text alternative"
    title = root.find(f"{SVG}title")
    assert title is not None, "the picture's first child is its <title>"
    assert title.text == label
    return root


def _drawn_cards(root: ET.Element) -> list[str]:
    return [g.get("data-card") or "" for g in root.iter(f"{SVG}g") if g.get("data-card") is not None]


def _states(rules: cr.Rules, seed: int, players: int) -> Iterator[cr.State]:
    """States along one random match: before and after every deal, mid-trick, after tricks and rounds."""
    rng = random.Random(seed)
    state = cr.new_game(rules, players=players)
    yield state
    steps = 0
    while state.to_act is not None and steps < 400:
        action = (
            cr.sample_chance(state, rng) if state.to_act == cr.CHANCE else rng.choice(cr.legal_moves(state))
        )
        state = cr.apply(state, action)
        steps += 1
        if steps % 7 == 0 or state.to_act in (cr.CHANCE, None) or isinstance(action, cr.Deal):
            yield state
    yield state


def _visible(v: cr.PlayerView) -> set[str]:
    """Every card the view shows: the own hand, the trick, the round's tricks, captured and revealed cards."""
    cards = {str(c) for c in v.hand}
    cards |= {str(p.card) for p in v.trick}
    for trick in v.tricks:
        cards |= {str(p.card) for p in trick.plays}
        if (revealed := getattr(trick, "revealed", None)) is not None:
            cards.add(str(revealed))
    for got in getattr(v, "captured", ()):
        cards |= {str(c) for c in got}
    if getattr(v, "revealed", None) is not None:
        cards.add(str(v.revealed))
    return cards


def _players(rules: cr.Rules) -> int:
    return max(rules.min_players, min(4, rules.max_players))


def test_every_preset_renders_for_every_seat_a_spectator_and_open_hands(preset: cr.Rules) -> None:
    players = _players(preset)
    for state in _states(preset, seed=3, players=players):
        for seat in [None, *range(players)]:
            _parse(render.svg(state, seat))
        _parse(render.svg(state, open_hands=True, tricks="round"))
        _parse(render.results_svg(state))


def test_a_seat_sees_no_card_hidden_from_it(preset: cr.Rules) -> None:
    players = _players(preset)
    for state in _states(preset, seed=11, players=players):
        for seat in [None, *range(players)]:
            v = cr.view(state, seat)
            root = _parse(render.svg(state, seat, tricks="round"))
            shown = set(_drawn_cards(root))
            assert shown <= _visible(v), f"seat {seat} is shown cards it may not see: {shown - _visible(v)}"
            if preset.deck == "standard-52":  # card text is unambiguous: check the words too
                others = {str(c) for s in range(players) if s != seat for c in cr.view(state, s).hand}
                hidden = others - _visible(v)
                said = set(re.findall(r"\b(?:10|[2-9JQKA])[SHDC]\b", root.get("aria-label") or ""))
                assert not (said & hidden), (
                    f"seat {seat}'s text alternative names hidden cards {said & hidden}"
                )


def test_open_hands_shows_every_hand_and_the_legal_cards_of_the_seat_to_act() -> None:
    state = cr.new_game(cr.ruleset("agurk", hand_size=3), players=["Ann", "Bo", "Cy"])
    state = cr.apply(state, cr.Deal(hands=[["2C", "9H", "KS"], ["3D", "4D", "QH"], ["5S", "6S", "AH"]]))
    state = cr.apply(state, cr.Play(0, "9H"))
    root = _parse(render.svg(state, open_hands=True))
    assert sorted(_drawn_cards(root)) == sorted(["9H", "2C", "KS", "3D", "4D", "QH", "5S", "6S", "AH"])
    legal = [g.get("data-card") for g in root.iter(f"{SVG}g") if "cr-legal" in (g.get("class") or "")]
    assert legal == ["3D", "QH"]  # Bo: the lowest card, or at least as high as the 9
    label = root.get("aria-label") or ""
    assert "Bo holds 3D, 4D, QH and may play 3D, QH." in label
    assert "Trick 1: Ann 9H." in label


def test_a_seat_view_shows_its_own_hand_first_and_its_legal_moves() -> None:
    state = cr.new_game(cr.ruleset("gurka", hand_size=2), players=["Ann", "Bo"])
    state = cr.apply(state, cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
    state = cr.apply(state, cr.Play(0, "KS"))
    root = _parse(render.svg(state, seat=1))
    label = root.get("aria-label") or ""
    assert "Your hand (Bo): 3H, AS; you may play AS." in label  # Gurka: must beat the king if able
    assert "Ann holds 1 card." in label
    assert label.index("Your hand") < label.index("Ann holds")
    backs = [g for g in root.iter(f"{SVG}g") if "cr-back" in (g.get("class") or "")]
    assert len(backs) == 1


def test_the_description_speaks_to_the_viewer_about_its_own_captured_cards() -> None:
    rules = cr.ruleset("catastrophe", hand_size=2)
    deal = cr.Deal(hands=[["30", "50"], ["10", "20"], ["40", "2"]])
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo", "Cy"]), deal)
    state = cr.apply_all(state, [cr.Play(0, "30"), cr.Play(1, "10"), cr.Play(2, "2")])  # Low: Cy takes it
    mine = render.describe(cr.view(state, 2))
    assert "Your hand (Cy): 40; you may play 40; you have captured 3 cards," in mine
    assert "Ann holds 1 card." in mine
    theirs = render.describe(cr.view(state, 0))
    assert "Cy holds 1 card and has captured 3 cards," in theirs


def _catastrophe_example_2() -> cr.State:
    """The rulebook's Example 2 (features/catastrophe.feature): Rick breaks the Low rule."""
    names = ["Rick", "Martha", "Andrew", "Stephen", "Simon", "Eleonore"]
    state = cr.new_game(cr.ruleset("catastrophe"), players=names)
    hands = [
        "22 39 40 41 42 43 44 45 46 47",
        "2 3 4 5 6 7 8 9 15 30",
        "1 10 11 12 13 14 16 27 28 48",
        "26 49 50 51 52 53 54 56 57 59",
        "17 18 19 24 25 32 34 38 55 60",
        "20 21 23 29 31 33 35 36 37 58",
    ]
    state = cr.apply(state, cr.Deal(hands=[h.split() for h in hands]))
    for card in ["22", "30", "27", "26", "34", "23"]:
        state = cr.apply(state, cr.Play(state.to_act, card))
    for card in ["38", "31", "39"]:  # Simon leads 38, Eleonore's 31 sets Low, Rick cannot go lower
        state = cr.apply(state, cr.Play(state.to_act, card))
    return state


def test_a_catastrophe_trick_shows_its_trick_marker_and_who_takes_it() -> None:
    state = _catastrophe_example_2()
    root = _parse(render.svg(state, seat=4))
    markers = [g.get("data-marker") for g in root.iter(f"{SVG}g") if "cr-marker" in (g.get("class") or "")]
    assert markers == ["low-broken"]
    assert "Trick Marker Low, broken (the highest card wins)" in (root.get("aria-label") or "")
    for card in ["15", "1", "59"]:
        state = cr.apply(state, cr.Play(state.to_act, card))
    done = _parse(render.svg(state, seat=0))
    label = done.get("aria-label") or ""
    assert "Trick 2 (complete): Simon 38, Eleonore 31, Rick 39, Martha 15, Andrew 1, Stephen 59." in label
    assert "Stephen takes the trick." in label
    takers = [g.get("data-card") for g in done.iter(f"{SVG}g") if "cr-taker" in (g.get("class") or "")]
    assert takers == ["59"]


def test_every_side_of_the_trick_marker_is_drawn() -> None:
    rules = cr.ruleset("catastrophe")
    names = ["A", "B", "C"]
    plays = (cr.Play(0, "22"), cr.Play(1, "30"))
    for marker, words in [
        ("high", "Trick Marker High (the highest card wins)"),
        ("low", "Trick Marker Low (the lowest card wins)"),
        ("high-broken", "Trick Marker High, broken (the lowest card wins)"),
        ("low-broken", "Trick Marker Low, broken (the highest card wins)"),
        (None, "Trick Marker not set yet"),
    ]:
        root = _parse(render.trick_svg(plays, names, rules=rules, marker=marker))
        assert words in (root.get("aria-label") or "")
    # A ladder game has no marker to draw.
    ladder = _parse(render.trick_svg(plays[:1], names, rules=cr.ruleset("gurka")))
    assert "Marker" not in (ladder.get("aria-label") or "")


def test_a_surprise_cucumber_trick_shows_the_revealed_card() -> None:
    state = cr.new_game(cr.ruleset("catastrophe", surprise=True), players=3)
    state = cr.apply(state, cr.sample_chance(state, random.Random(2)))
    v = cr.view(state, 0)
    assert v.revealed is not None
    root = _parse(render.svg(state, seat=0))
    assert str(v.revealed) in _drawn_cards(root)
    assert f"revealed {v.revealed}" in (root.get("aria-label") or "")


def test_cards_show_the_cucumbers_the_engine_counts() -> None:
    def glyphs(picture: str) -> int:
        return picture.count('fill="#388e3c"')

    catastrophe = cr.ruleset("catastrophe")
    assert catastrophe.cucumbers is not None
    for number in range(1, 61):
        assert glyphs(render.card_svg(str(number), rules=catastrophe)) == catastrophe.cucumbers[number - 1]
    # Five Cucumbers: the cucumbers printed on a card are what the last trick costs when it takes it.
    rules = cr.ruleset("five-cucumbers", hand_size=1)
    for number in range(1, 16):
        other = "1" if number == 1 else "2"
        state = cr.new_game(rules, players=2)
        state = cr.apply_all(
            state, [cr.Deal(hands=[[other], [str(number)]]), cr.Play(0, other), cr.Play(1, str(number))]
        )
        paid = cr.score(state).round_points[-1][1]
        assert glyphs(render.card_svg(str(number), rules=rules)) == paid, f"card {number}"
    assert glyphs(render.card_svg("QS", rules=cr.ruleset("agurk"))) == 0
    assert glyphs(render.card_svg("7")) == 0  # no rules: no cucumbers


def test_single_cards_hands_tricks_and_results() -> None:
    assert _parse(render.card_svg("10H")).get("aria-label") == "10H (10 of hearts)"
    assert _parse(render.card_svg(cr.card("AS"))).get("aria-label") == "AS (ace of spades)"
    assert _parse(render.card_svg(None)).get("aria-label") == "A card, face down"
    hand = _parse(render.hand_svg(["3C", "7H", "QS"], legal=["7H"], label="Your hand"))
    assert hand.get("aria-label") == "Your hand: 3C, 7H, QS; playable: 7H."
    assert _drawn_cards(hand) == ["3C", "7H", "QS"]
    state = cr.new_game(cr.ruleset("agurk", hand_size=1), players=["Ann", "Bo", "Cy"])
    state = cr.apply_all(
        state,
        [
            cr.Deal(hands=[["AC"], ["2D"], ["3H"]]),
            cr.Play(0, "AC"),
            cr.Play(1, "2D"),
            cr.Play(2, "3H"),
            cr.Deal(hands=[["KC"], ["KD"], ["2H"]]),
            cr.Play(1, "KD"),
            cr.Play(2, "2H"),
            cr.Play(0, "KC"),
        ],
    )
    results = _parse(render.results_svg(state))
    assert results.get("aria-label") == (
        # Ann passes 21: a cucumber mark, and her total drops to the best of the others (0).
        "Scores: round 1: Ann 14, Bo 0, Cy 0; round 2: Ann 13, Bo 0, Cy 0. Totals: Ann 0, Bo 0, Cy 0. "
        "Cucumber marks: Ann 1."
    )
    assert "round 2" in render.describe(state)


def test_the_match_winners_are_shown() -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=10)
    state = cr.new_game(rules, players=["Ann", "Bo"])
    state = cr.apply_all(state, [cr.Deal(hands=[["QS"], ["2C"]]), cr.Play(0, "QS"), cr.Play(1, "2C")])
    assert state.is_over
    label = _parse(render.svg(state, seat=1)).get("aria-label") or ""
    assert label.startswith("Gurka, round 1, trick 1 of 1. The match is over: Bo wins.")
    assert "Bo wins the match." in label


def test_standalone_pictures_bring_their_own_table_and_text_colour() -> None:
    state = cr.new_game(cr.ruleset("agurk"), players=3)
    plain = _parse(render.svg(state))
    alone = _parse(render.svg(state, standalone=True))
    assert plain.get("color") is None
    assert alone.get("color") == "#f4f4ee"
    assert alone.find(f"{SVG}rect") is not None


def test_pictures_are_deterministic_and_leave_the_state_alone() -> None:
    state = _catastrophe_example_2()
    before = cr.dumps(state)
    assert render.svg(state, seat=2) == render.svg(state, seat=2)
    again = cr.loads(before)
    assert isinstance(again, cr.State)
    assert render.svg(state, open_hands=True) == render.svg(again, open_hands=True)
    assert cr.dumps(state) == before


def test_bad_arguments() -> None:
    state = cr.new_game(cr.ruleset("agurk"), players=3)
    view = cr.view(state, 1)
    with pytest.raises(TypeError, match="State or a PlayerView"):
        render.svg("agurk")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat 1's"):
        render.svg(view, seat=2)
    assert render.svg(view, seat=1) == render.svg(view)
    with pytest.raises(ValueError, match="needs a State"):
        render.svg(view, open_hands=True)
    with pytest.raises(ValueError, match="tricks is"):
        render.svg(state, tricks="all")  # type: ignore[arg-type]
    with pytest.raises(cr.InvalidNotationError):
        render.card_svg("1X")
    with pytest.raises(TypeError, match="a card is"):
        render.card_svg(12.0)  # type: ignore[arg-type]


def test_card_pictures_take_numbers_of_any_integer_kind() -> None:
    import numpy as np

    from cucumber_rules.render import card_svg, hand_svg

    assert hand_svg([np.int64(5), 7]) == hand_svg(["5", "7"])
    assert card_svg(np.uint8(42)) == card_svg("42")
    for bad in (True, 5.0, None):
        with pytest.raises(TypeError, match="a card is a Card"):
            hand_svg([bad])  # type: ignore[list-item]


@pytest.mark.parametrize("results", [True, False, None])
def test_the_table_says_the_totals_once(results: bool | None) -> None:
    """The seats' rows and the results block both know the totals: the words say them once."""
    state = cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo", "Cy"])
    state = cr.apply(state, cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
    for seat, card in enumerate(["2C", "3C", "9S"]):
        state = cr.apply(state, cr.Play(seat, cr.card(card)))
    state = cr.apply(state, cr.Deal(hands=[["4C"], ["5C"], ["6S"]]))
    words = render.describe(cr.view(state, 0), results=results)
    assert words.count("Totals:") == 1, words
    assert ("Scores: round 1" in words) is (results is not False)
