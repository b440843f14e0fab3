"""Then steps: what may be played, what is refused and why, who takes, who pays, who wins."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from pytest_bdd import parsers, then

import cucumber_rules as cr
from helpers import catastrophe_state, ladder_result

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
)

# ------------------------------------------------------------------ legal moves


@then(parsers.re(rf"(?P<who>{WHO}) may play (?P<cards>.+)"))
def may_play(game: Game, who: str, cards: str) -> None:
    """Exactly these cards are legal for the player now (`any card`, `any card but 45`: the hand).

    Also checks that `check`/`is_legal` agree with `legal_moves` for every card in the hand.
    """
    check_may_play(game, who, cards)


@then(parsers.re(rf"(?P<who>{WHO}) may not play (?P<cards>.+)"))
def may_not_play(game: Game, who: str, cards: str) -> None:
    """None of these cards is legal for the player now."""
    seat = game.seat(who)
    legal = set(game.legal_cards(seat))
    allowed = [c for c in parse_cards(cards) if c in legal]
    assert not allowed, f"{who} should not be allowed {card_list(allowed)}; legal: {card_list(legal)}"


def refuse(game: Game, action: cr.Deal | cr.Play | cr.Revive, code: str, what: str) -> cr.IllegalMoveError:
    """Assert that `check` reports and `apply` raises `code`, and that the state is left as it was."""
    state = game.state
    before = (state.to_act, state.hands, state.trick, len(state.history), cr.legal_moves(state))
    verdict = cr.check(state, action)
    assert verdict is not None, f"{what} should be refused with {code!r}, but check() finds it legal"
    assert verdict.code == code, f"{what} should be refused with {code!r}, not {verdict.code!r}: {verdict}"
    assert not cr.is_legal(state, action)
    with pytest.raises(cr.IllegalMoveError) as raised:
        cr.apply(state, action)
    error = raised.value
    assert error.code == code, f"apply() refused {what} with {error.code!r}, but check() said {code!r}"
    assert str(error) == str(verdict), "apply() and check() give different explanations"
    assert error.action == action, f"the error should carry the refused action, not {error.action!r}"
    if isinstance(action, cr.Play | cr.Revive):
        assert error.seat == action.seat, f"the error should name seat {action.seat}, not {error.seat}"
    after = (state.to_act, state.hands, state.trick, len(state.history), cr.legal_moves(state))
    assert after == before, "a refused action changed the state"
    game.refusal = error
    return error


@then(parsers.re(rf'playing (?P<card>{CARD}) by (?P<who>{WHO}) is refused with "(?P<code>[a-z-]+)"'))
def playing_refused(game: Game, card: str, who: str, code: str) -> None:
    """The play is illegal, with this error code; nothing changes."""
    refuse(game, cr.Play(game.seat(who), cr.card(card)), code, f"{who} playing {card}")


@then(parsers.re(r'the explanation mentions (?P<texts>".+")'))
def explanation_mentions(game: Game, texts: str) -> None:
    """The last refusal's message contains each quoted text."""
    assert game.refusal is not None, "no action has been refused yet"
    message = str(game.refusal)
    for text in re.findall(r'"([^"]*)"', texts):
        assert text in message, f"the explanation should mention {text!r}: {message!r}"


# ------------------------------------------------------------------ turns and tricks


@then(parsers.re(rf"it is (?P<who>{WHO})'s turn"))
def whose_turn(game: Game, who: str) -> None:
    """The seat to act."""
    seat = game.seat(who)
    assert game.state.to_act == seat, (
        f"it should be {who}'s turn, but {describe_turn(game, game.state.to_act)}"
    )


@then("a deal is due")
def deal_due(game: Game) -> None:
    """The game waits for a chance action; no player may act."""
    state = game.state
    assert state.to_act == cr.CHANCE, f"a deal should be due, but {describe_turn(game, state.to_act)}"
    assert cr.legal_moves(state) == ()


@then(parsers.re(rf"(?P<who>{WHO}) takes the trick"))
def takes_trick(game: Game, who: str) -> None:
    """The last completed trick went to this player."""
    state = game.state
    assert state.round is not None
    assert state.round.tricks, "no trick has been completed"
    assert not state.trick, f"the trick is still in progress: {[str(p) for p in state.trick]}"
    taker = state.round.tricks[-1].taker
    assert taker == game.seat(who), f"{who} should take the trick, but {game.name(taker)} takes it"


@then(parsers.re(rf"(?P<who>{WHO}) leads the next trick"))
def leads_next(game: Game, who: str) -> None:
    """A new trick is due and this player leads it."""
    state = game.state
    seat = game.seat(who)
    assert not state.trick, "the trick is still in progress"
    assert state.to_act == seat, f"{who} should lead, but {describe_turn(game, state.to_act)}"


@then(parsers.re(rf"(?P<who>{WHO}) (?:leads the first trick|starts the hand)"))
def leads_first(game: Game, who: str) -> None:
    """The round (or hand) was just dealt and this player leads its first trick."""
    state = game.state
    seat = game.seat(who)
    assert state.round is not None
    assert not state.round.tricks, "this is not the start of a round: tricks have been played"
    assert not state.trick, "this is not the start of a round: a trick is in progress"
    assert state.round.leader == seat, (
        f"{who} should lead the first trick, not {game.name(state.round.leader)}"
    )
    assert state.to_act == seat, f"{who} should lead the first trick, but {describe_turn(game, state.to_act)}"


@then(parsers.re(rf"(?P<who>{WHO}) is the dealer"))
def is_dealer(game: Game, who: str) -> None:
    """The dealer of the current round."""
    dealer = game.state.match.dealer
    assert dealer == game.seat(who), f"{who} should be the dealer, not {game.name(dealer)}"


@then(parsers.re(r"the Trick Marker (?:is|shows) (?P<marker>.+)"))
def trick_marker(game: Game, marker: str) -> None:
    """Catastrophe's Trick Marker now: not set, High, Low, broken High or broken Low."""
    expected = parse_marker(marker)
    actual = catastrophe_state(game.state).marker
    assert actual == expected, (
        f"the Trick Marker should be {MARKER_WORDS[expected]}, not {MARKER_WORDS.get(actual, actual)}"
    )


@then(parsers.re(r"the card revealed from the stock is (?P<card>\d+)"))
def revealed(game: Game, card: str) -> None:
    """Surprise Cucumber: the lead card of the current trick, turned up from the stock."""
    state = game.state
    assert state.round is not None
    assert state.round.revealed == cr.card(card), f"{card} should be revealed, not {state.round.revealed}"


@then(parsers.re(rf"(?P<who>{WHO}) has captured (?P<cards>.+)"))
def has_captured(game: Game, who: str, cards: str) -> None:
    """Catastrophe: the cards the player has taken in tricks this hand."""
    state = game.state
    assert state.round is not None
    captured = state.round.captured[game.seat(who)]
    assert sorted(captured) == sorted(parse_cards(cards)), (
        f"{who} should have captured {cards}, not {card_list(captured)}"
    )


# ------------------------------------------------------------------ hands


@then(parsers.re(rf"(?P<who>{WHO}) holds (?P<cards>(?!\d+ cards$).+)"))
def holds(game: Game, who: str, cards: str) -> None:
    """The player's hand, exactly."""
    hand = game.hand(game.seat(who))
    assert sorted(hand) == sorted(parse_cards(cards)), f"{who} should hold {cards}, not {card_list(hand)}"


@then(parsers.re(rf"(?P<who>{WHO}) holds (?P<count>\d+) cards"))
def holds_count(game: Game, who: str, count: str) -> None:
    """The size of the player's hand."""
    hand = game.hand(game.seat(who))
    assert len(hand) == int(count), f"{who} should hold {count} cards, not {len(hand)}"


@then(parsers.re(r"every player holds (?P<count>\d+) cards"))
def everyone_holds(game: Game, count: str) -> None:
    """Every hand's size."""
    sizes = [len(h) for h in game.state.hands]
    assert sizes == [int(count)] * len(sizes), f"every player should hold {count} cards: {sizes}"


@then(parsers.re(rf"(?P<who>{WHO}) is dealt no cards"))
def dealt_none(game: Game, who: str) -> None:
    """The player takes no part in the round just dealt."""
    state = game.state
    seat = game.seat(who)
    assert state.round is not None
    assert not state.hands[seat], f"{who} should hold no cards"
    assert seat not in state.round.seats, f"{who} should not be dealt in"


# ------------------------------------------------------------------ scores


@then(parsers.re(rf"(?P<who>{WHO}) (?:pays|takes) (?P<amount>\d+) (?:points?|cucumbers?)"))
def pays(game: Game, who: str, amount: str) -> None:
    """The last round's payer, and what they paid."""
    result = ladder_result(game.last_result())
    seat = game.seat(who)
    assert result.payer == seat, (
        f"{who} should pay for the last trick, but {game.name(result.payer or 0)} pays"
    )
    assert result.points[seat] == int(amount), f"{who} should pay {amount}, not {result.points[seat]}"


@then(parsers.re(r"the scores for the (?:round|hand) are (?P<values>.+)"))
def round_scores(game: Game, values: str) -> None:
    """What each seat scored in the last finished round or hand."""
    rounds = cr.score(game.state).round_points
    assert rounds, "no round has finished yet"
    assert list(rounds[-1]) == parse_ints(values), f"the scores should be {values}, not {list(rounds[-1])}"


@then(parsers.re(r"the totals are (?P<values>.+)"))
def totals(game: Game, values: str) -> None:
    """Every seat's running total."""
    actual = list(cr.score(game.state).totals)
    assert actual == parse_ints(values), f"the totals should be {values}, not {actual}"


@then(parsers.re(rf"(?P<who>{WHO}) has (?P<count>\d+|no) cucumber marks?"))
def marks(game: Game, who: str, count: str) -> None:
    """Agurk: the player's cucumber marks."""
    actual = cr.score(game.state).marks[game.seat(who)]
    assert actual == (0 if count == "no" else int(count)), (
        f"{who} should have {count} cucumber marks, not {actual}"
    )


@then(parsers.re(rf"(?P<who>{WHO}) draws a cucumber mark and is reset to (?P<total>\d+) points"))
def draws_mark(game: Game, who: str, total: str) -> None:
    """Agurk: the last round gave the player a cucumber mark and reset their total."""
    seat = game.seat(who)
    result = ladder_result(game.last_result())
    assert seat in result.marked, f"{who} should draw a cucumber mark in the last round: {result}"
    assert result.totals[seat] == int(total), f"{who} should be reset to {total}, not {result.totals[seat]}"
    assert not cr.score(game.state).eliminated[seat], f"{who} should still be in the game"


@then(parsers.re(rf"(?P<who>{WHO}) is eliminated"))
def eliminated(game: Game, who: str) -> None:
    """The player is out of the match."""
    assert cr.score(game.state).eliminated[game.seat(who)], f"{who} should be eliminated"


@then(parsers.re(rf"(?P<who>{WHO}) is still in the game"))
def still_in(game: Game, who: str) -> None:
    """The player is not eliminated."""
    assert not cr.score(game.state).eliminated[game.seat(who)], f"{who} should still be in the game"


@then(parsers.re(rf"(?P<who>{WHO}) wins the match"))
def wins(game: Game, who: str) -> None:
    """The match is over and this player alone won it."""
    state = game.state
    winners = cr.score(state).winners
    assert winners == (game.seat(who),), f"{who} should win alone, winners: {[game.name(s) for s in winners]}"
    assert state.is_over
    assert state.to_act is None


@then(parsers.re(r"(?P<who>.+) share the win"))
def share_win(game: Game, who: str) -> None:
    """The match is over and these players won it together."""
    state = game.state
    winners = cr.score(state).winners
    expected = sorted(game.seats(who))
    assert sorted(winners) == expected, (
        f"{who} should share the win, winners: {[game.name(s) for s in winners]}"
    )
    assert state.is_over


@then("the match is not over")
def not_over(game: Game) -> None:
    """Nobody has won yet and someone (or a deal) is to act."""
    state = game.state
    assert not state.is_over, "the match should go on"
    assert cr.score(state).winners == (), "nobody should have won yet"


@then("the match is over")
def over(game: Game) -> None:
    """The match has winners and no action is possible."""
    state = game.state
    assert state.is_over
    assert state.to_act is None
    assert cr.score(state).winners
    assert cr.legal_moves(state) == ()


@then(parsers.re(r"exactly one player is left in the game, and wins"))
def one_left(game: Game) -> None:
    """Elimination matches end with a single player in."""
    score = cr.score(game.state)
    left = [s for s, out in enumerate(score.eliminated) if not out]
    assert len(left) == 1, f"one player should be left, not {left}"
    assert score.winners == tuple(left), f"the player left should win, winners: {score.winners}"


@then(parsers.re(r"(?P<count>\d+|no) (?:rounds?|hands?) (?:has|have) been played"))
def rounds_played(game: Game, count: str) -> None:
    """How many rounds (hands) the match has finished."""
    done = len(cr.score(game.state).round_points)
    expected = 0 if count == "no" else int(count)
    assert done == expected, f"{count} rounds should have been played, not {done}"


@then(parsers.re(rf"(?P<who>{WHO}) must decide whether to buy back in"))
def must_decide(game: Game, who: str) -> None:
    """Revival: the eliminated player's decision is due, and it is their only choice."""
    seat = game.seat(who)
    state = game.state
    assert state.to_act == seat, f"{who} should decide, but {describe_turn(game, state.to_act)}"
    moves = cr.legal_moves(state)
    assert set(moves) == {cr.Revive(seat, True), cr.Revive(seat, False)}, f"moves: {moves}"


# ------------------------------------------------------------------ dealing and whole matches


@then(
    parsers.re(
        r"drawing a deal twice with seed (?P<seed>\d+) gives the same cards, whatever the global random state"
    )
)
def same_seed_same_deal(game: Game, seed: str) -> None:
    """`sample_chance` depends only on the generator it is given, never on the global `random` module."""
    state = game.state
    random.seed(1)
    first = cr.sample_chance(state, random.Random(int(seed)))
    random.seed(2)
    random.random()
    second = cr.sample_chance(state, random.Random(int(seed)))
    assert first == second, "the same seed gave two different deals"
    assert cr.is_legal(state, first)


@then(parsers.re(r"seeds (?P<one>\d+) and (?P<two>\d+) give different deals"))
def different_seeds(game: Game, one: str, two: str) -> None:
    """Different generators shuffle differently."""
    state = game.state
    a = cr.sample_chance(state, random.Random(int(one)))
    b = cr.sample_chance(state, random.Random(int(two)))
    assert a != b, f"seeds {one} and {two} gave the same deal"


@then("the hands hold only cards of the deck, none more often than the deck holds it")
def cards_of_the_deck(game: Game) -> None:
    """Card conservation for the deal just made: hands, the revealed card and the stock."""
    state = game.state
    assert state.round is not None
    deck = Counter(cr.DECKS[state.rules.deck])
    used = Counter(c for hand in state.hands for c in hand)
    used.update(state.round.stock)
    used.update(cr.game_of(state).testing.round_cards(state))  # the game's other cards (Surprise's reveal)
    over = {str(c): n for c, n in used.items() if n > deck[c]}
    assert not over, f"cards dealt more often than the deck holds them: {over}"


@then(parsers.re(r"every 5-cucumber card is in a hand"))
def all_fives_dealt(game: Game) -> None:
    """If You Can't Beat 'Em: 5, 15, 25, 35, 45 and 55 are all dealt."""
    dealt = {c for hand in game.state.hands for c in hand}
    missing = [n for n in (5, 15, 25, 35, 45, 55) if cr.card(str(n)) not in dealt]
    assert not missing, f"5-cucumber cards not dealt: {missing}"


@then(parsers.re(r"the standings are (?P<order>.+)"))
def standings(game: Game, order: str) -> None:
    """The final ranking, best first."""
    actual = list(cr.score(game.state).standings)
    expected = game.seats(order)
    assert actual == expected, f"the standings should be {order}, not {[game.name(s) for s in actual]}"


@then("replaying the game's record gives the same game")
def replay_same(game: Game) -> None:
    """Rules, players, first seat and the actions rebuild the state exactly."""
    state = game.state
    record = cr.record(state)
    assert record.actions == state.actions
    assert cr.replay(record) == state
