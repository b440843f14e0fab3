"""When steps: leads and plays, whole tricks, one-card rounds, revival decisions, whole matches."""

from __future__ import annotations

import random

from pytest_bdd import given, parsers, when

import cucumber_rules as cr
from helpers import catastrophe_state, catastrophe_trick, ladder_result

from .world import (
    CARD,
    MARKER_WORDS,
    WHO,
    Game,
    card_list,
    check_may_play,
    describe_turn,
    parse_cards,
    parse_ints,
    parse_marker,
    table_rows,
)


@given(parsers.re(rf"(?P<who>{WHO}) leads (?P<card>{CARD})"))
@when(parsers.re(rf"(?P<who>{WHO}) leads (?P<card>{CARD})"))
def leads(game: Game, who: str, card: str) -> None:
    """The player starts a trick with the card."""
    assert not game.state.trick, f"{who} cannot lead: a trick is in progress ({game.state.trick})"
    game.play(who, card)


@given(parsers.re(rf"(?P<who>{WHO}) plays (?P<card>{CARD})"))
@when(parsers.re(rf"(?P<who>{WHO}) plays (?P<card>{CARD})"))
def plays(game: Game, who: str, card: str) -> None:
    """The player adds the card to the trick."""
    game.play(who, card)


def _check_trick(game: Game, row: dict[str, str], number: str, leader: int) -> None:
    state = game.state
    assert state.round is not None
    trick = state.round.tricks[-1]
    if "taken by" in row:
        taker = game.seat(row["taken by"])
        assert trick.taker == taker, (
            f"trick {number} should be taken by {row['taken by']}, not {game.name(trick.taker)}"
        )
    if "marker" in row:
        expected = parse_marker(row["marker"])
        marker = catastrophe_trick(trick).marker
        assert marker == expected, (
            f"trick {number} should end with the Trick Marker {MARKER_WORDS[expected]}, "
            f"not {MARKER_WORDS.get(marker, marker)}"
        )
    if "led by" in row:
        assert leader == game.seat(row["led by"]), (
            f"trick {number} should be led by {row['led by']}, not {game.name(leader)}"
        )


@given("the tricks are played:")
@when("the tricks are played:")
def tricks_played(game: Game, datatable: list[list[str]]) -> None:
    """Whole tricks: `| cards |` in play order, optionally `| trick | led by | taken by | marker |`."""
    for row in table_rows(datatable):
        state = game.state
        assert state.round is not None, "deal the cards before playing tricks"
        number = row.get("trick", str(len(state.round.tricks) + 1))
        assert not state.trick, f"trick {number} cannot start: a trick is in progress"
        leader = state.to_act
        assert leader is not None, f"trick {number} cannot start: {describe_turn(game, leader)}"
        assert leader >= 0, f"trick {number} cannot start: {describe_turn(game, leader)}"
        for c in parse_cards(row["cards"]):
            seat = game.state.to_act
            assert seat is not None, f"trick {number}: {c} cannot be played, {describe_turn(game, seat)}"
            assert seat >= 0, f"trick {number}: {c} cannot be played, {describe_turn(game, seat)}"
            game.act(cr.Play(seat, c), f"in trick {number}, {game.name(seat)} playing {c}")
        state = game.state
        assert state.round is not None
        done = state.round.tricks
        complete = bool(done) and not state.trick and done[-1].plays[-1].card == c
        assert complete, f"trick {number} is not complete after {row['cards']}"
        _check_trick(game, row, number, leader)


@given("the trick is played card by card:")
@when("the trick is played card by card:")
def trick_card_by_card(game: Game, datatable: list[list[str]]) -> None:
    """One trick, a row per card: `| player | may play | plays | marker |`.

    `player` (or `seat`) must be the one to act; `may play` (optional) is exactly
    what they may play (as in the step "... may play ..."); `plays` is the card
    they play; `marker` (optional) is the Trick Marker after that card.
    """
    for row in table_rows(datatable):
        who = row.get("player") or row["seat"]
        if row.get("may play"):
            check_may_play(game, who, row["may play"])
        game.play(who, row["plays"])
        if row.get("marker"):
            expected = parse_marker(row["marker"])
            actual = catastrophe_state(game.state).marker
            if not game.state.trick:  # the trick is over: its marker is kept on the trick
                assert game.state.round is not None
                actual = catastrophe_trick(game.state.round.tricks[-1]).marker
            assert actual == expected, (
                f"after {who} plays {row['plays']} the Trick Marker should be {MARKER_WORDS[expected]}, "
                f"not {MARKER_WORDS.get(actual, actual)}"
            )


@given("these one-card rounds are played:")
@when("these one-card rounds are played:")
def one_card_rounds(game: Game, datatable: list[list[str]]) -> None:
    """Rounds of one card each: `| round | seat 0 | seat 1 | ... |` (or players' names).

    Each row deals every seat its card (`-` for none) and plays the single trick
    in the engine's order. Optional columns check the outcome: `pays` (who pays),
    `points` (what they pay), `totals` (everyone's totals after the round).
    """
    header = [h.strip() for h in datatable[0]]
    checks = {"round", "pays", "points", "totals"}
    seat_columns = [(i, game.seat(h)) for i, h in enumerate(header) if h.lower() not in checks]
    for raw, row in zip(datatable[1:], table_rows(datatable), strict=True):
        number = row.get("round", "?")
        if "round" in row:
            done = len(cr.score(game.state).results)
            assert int(number) == done + 1, f"this is round {done + 1}, not round {number}"
        hands: list[list[cr.Card]] = [[] for _ in game.labels]
        for column, seat in seat_columns:
            hands[seat] = parse_cards(raw[column])
        game.act(cr.Deal(hands=hands), f"the deal of round {number}")
        while (actor := game.state.to_act) is not None and actor >= 0 and game.state.hands[actor]:
            (c,) = game.state.hands[actor]
            game.act(cr.Play(actor, c), f"in round {number}, {game.name(actor)} playing {c}")
        result = game.last_result()
        if "pays" in row:
            payer = ladder_result(result).payer
            assert payer == game.seat(row["pays"]), (
                f"round {number}: {row['pays']} should pay, not {game.name(payer or 0)}"
            )
        if "points" in row:
            payer = ladder_result(result).payer
            assert payer is not None
            assert result.points[payer] == int(row["points"]), (
                f"round {number}: the payer should pay {row['points']}, not {result.points[payer]}"
            )
        if "totals" in row:
            assert list(result.totals) == parse_ints(row["totals"]), (
                f"round {number}: the totals should be {row['totals']}, not {list(result.totals)}"
            )


@given(parsers.re(rf"(?P<who>{WHO}) buys back in"))
@when(parsers.re(rf"(?P<who>{WHO}) buys back in"))
def buys_back_in(game: Game, who: str) -> None:
    """Revival: the eliminated player buys back in."""
    game.act(cr.Revive(game.seat(who), True), f"{who} buying back in")


@given(parsers.re(rf"(?P<who>{WHO}) stays out"))
@when(parsers.re(rf"(?P<who>{WHO}) stays out"))
def stays_out(game: Game, who: str) -> None:
    """Revival: the eliminated player declines to buy back in."""
    game.act(cr.Revive(game.seat(who), False), f"{who} staying out")


def _random_actions(game: Game, rng: random.Random, limit: int) -> int:
    """Take up to `limit` random actions (deals by `sample_chance`, legal moves); return how many."""
    for done in range(limit):
        state = game.state
        if state.to_act is None:
            return done
        if state.to_act == cr.CHANCE:
            game.act(cr.sample_chance(state, rng), "a random deal")
        else:
            moves = cr.legal_moves(state)
            assert moves, (
                f"{game.name(state.to_act)} is to act but has no legal move; "
                f"hand {card_list(state.hands[state.to_act])}"
            )
            game.act(rng.choice(moves), "a legal move")
    return limit


@when(parsers.re(r"the match is played to the end with random choices from seed (?P<seed>\d+)"))
def random_match(game: Game, seed: str) -> None:
    """Deal with `sample_chance` and pick random legal moves until the match is over."""
    limit = 100_000
    taken = _random_actions(game, random.Random(int(seed)), limit)
    assert taken < limit, f"the match did not end within {limit} actions"


@when(parsers.re(r"(?P<count>\d+) actions? (?:is|are) taken at random with seed (?P<seed>\d+)"))
def random_actions(game: Game, count: str, seed: str) -> None:
    """Take this many random actions (deals included), or fewer if the match ends."""
    _random_actions(game, random.Random(int(seed)), int(count))
