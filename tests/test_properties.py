"""Random-play conformance: every preset and random valid rules keep the engine's invariants.

Two layers:

- `check_game` (the public conformance check, `cucumber_rules.testing`) over every
  preset, every player count, and the Catastrophe variants;
- Hypothesis properties over `rules()` and `states()`, written here independently of
  `check_game`, so that a bug in the checker cannot hide a bug in the engine: matches
  terminate within `max_actions` (Catastrophe's matches take exactly that many actions;
  a ladder match never passes its `round_limit`, and one undecided there goes to the
  lowest total still in); cards are conserved; `legal_moves` is non-empty, sorted and duplicate-free
  until the end; every legal move applies; illegal moves (wrong seat, card not held,
  rule-breaking card) raise the right code and leave the state equal; the same actions
  give equal states; the global `random` module is untouched.

Example counts come from the Hypothesis profile (see `conftest.py`).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cucumber_rules as cr
from cucumber_rules import CHANCE, Action, Card, Deal, IllegalMoveError, Play, State
from cucumber_rules.testing import RULE_CODES, action_bound, check_game, rules, states
from helpers import catastrophe_trick, ladder_state

#: Matches per `check_game` call: one in CI; more in the dev and deep profiles.
MATCHES = {"ci": 1, "dev": 3, "deep": 25}.get(os.environ.get("CUCUMBER_HYPOTHESIS_PROFILE", "ci"), 1)

PRESET_COUNTS = [
    (name, n) for name, r in sorted(cr.RULESETS.items()) for n in range(r.min_players, r.max_players + 1)
]

VARIANTS = {
    "surprise": cr.ruleset("catastrophe", surprise=True),
    "cant-beat-em": cr.ruleset("catastrophe", cant_beat_em=True),
    "surprise+cant-beat-em": cr.ruleset("catastrophe", surprise=True, cant_beat_em=True),
    "gurka-revival": cr.ruleset("gurka", revival=True, threshold=15),
    "agurk-reverse-rotate": cr.ruleset("agurk", reverse=True, threshold=15),
    "five-cucumbers-fixed": cr.ruleset("five-cucumbers", fixed_rounds=3, ace_lead=True),
    "fuenf-gurken-forced": cr.ruleset("fuenf-gurken", follow="forced-lowest", tie_bonus=True, lives=2),
}


# --------------------------------------------------------------------------- check_game over presets


@pytest.mark.parametrize(("name", "players"), PRESET_COUNTS)
def test_check_game_every_preset_and_player_count(name: str, players: int) -> None:
    report = check_game(cr.RULESETS[name], matches=MATCHES, seed=1000 * players, players=players)
    assert report.matches == MATCHES
    assert report.rounds >= MATCHES  # every match finished at least one round
    assert report.players == (players,) * MATCHES


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_check_game_variants(variant: str) -> None:
    rules_ = VARIANTS[variant]
    counts = (rules_.min_players, rules_.max_players)
    report = check_game(rules_, matches=2 * MATCHES, seed=7, players=counts)
    assert report.players == counts * MATCHES


@given(rules(), st.data())
def test_check_game_random_rules(r: cr.Rules, data: st.DataObject) -> None:
    n = data.draw(st.integers(r.min_players, r.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    check_game(r, matches=1, seed=seed, players=n)


# --------------------------------------------------------------------------- independent properties


def play_out(rules_: cr.Rules, players: int, seed: int) -> tuple[State, int]:
    """Random play to the end (or the bound); return the last state and the number of actions."""
    rng = random.Random(seed)
    state = cr.new_game(rules_, players, first=rng.randrange(players))
    count = 0
    bound = action_bound(rules_, players)
    while not state.is_over and count < bound:
        action = cr.sample_chance(state, rng) if state.to_act == CHANCE else rng.choice(cr.legal_moves(state))
        state = cr.apply(state, action)
        count += 1
    return state, count


def replayed(state: State) -> State:
    """The same position, rebuilt from scratch: a new game plus the history."""
    return cr.apply_all(cr.new_game(state.rules, list(state.players), first=state.first), state.actions)


def last_deal(state: State) -> Deal | None:
    return next((a for a in reversed(state.actions) if isinstance(a, Deal)), None)


def round_cards(state: State) -> tuple[list[Counter[Card]], Counter[Card], Counter[Card]]:
    """Per seat: cards held + played this round; and the stock + revealed cards; and captured cards."""
    r = state.round
    assert r is not None
    per_seat = [Counter(h) for h in r.hands]
    revealed: Counter[Card] = Counter(cr.game_of(state).testing.round_cards(state))  # Surprise's reveals
    captured: Counter[Card] = Counter()
    for trick in r.tricks:
        for p in trick.plays:
            per_seat[p.seat][p.card] += 1
    for p in r.trick:
        per_seat[p.seat][p.card] += 1
    for cards in getattr(r, "captured", ()):  # Catastrophe's table
        captured.update(cards)
    return per_seat, revealed + Counter(r.stock), captured


@given(rules(), st.data())
def test_matches_terminate(r: cr.Rules, data: st.DataObject) -> None:
    n = data.draw(st.integers(r.min_players, r.max_players))
    state, count = play_out(r, n, data.draw(st.integers(0, 2**32 - 1)))
    assert state.is_over, f"no winner after {count} actions"
    assert state.to_act is None
    assert cr.legal_moves(state) == ()
    assert cr.score(state).winners == state.match.winners != ()


@given(rules(["catastrophe"]), st.data())
def test_a_catastrophe_match_takes_exactly_max_actions(r: cr.Rules, data: st.DataObject) -> None:
    """Catastrophe's bound is exact: `hands` deals and every card of every hand, no decisions."""
    n = data.draw(st.integers(r.min_players, r.max_players))
    state, count = play_out(r, n, data.draw(st.integers(0, 2**32 - 1)))
    assert state.is_over
    assert count == cr.max_actions(r, n)


@given(rules(["agurk", "gurka", "five-cucumbers", "fuenf-gurken"]), st.integers(1, 4), st.data())
def test_ladder_matches_never_pass_their_round_limit(r: cr.Rules, limit: int, data: st.DataObject) -> None:
    """A small `round_limit` ends undecided matches: the lowest total still in wins, ties share."""
    if r.fixed_rounds is None:
        r = r.replace(round_limit=limit)
    n = data.draw(st.integers(r.min_players, r.max_players))
    state, count = play_out(r, n, data.draw(st.integers(0, 2**32 - 1)))
    assert state.is_over
    m = ladder_state(state).match
    most = r.fixed_rounds if r.fixed_rounds is not None else limit
    assert m.rounds <= most
    assert count <= cr.max_actions(r, n)
    still_in = [s for s in range(n) if m.out[s] == 0]
    if r.fixed_rounds is None and len(still_in) > 1:  # undecided by elimination: ended at the limit
        assert m.rounds == limit
        low = min(m.totals[s] for s in still_in)
        assert m.winners == tuple(s for s in still_in if m.totals[s] == low)
        assert m.pending == ()
        assert cr.score(state).standings[: len(m.winners)] == m.winners


@given(states())
def test_cards_are_conserved(state: State) -> None:
    deal = last_deal(state)
    if deal is None:
        assert state.round is None
        assert all(not h for h in state.hands)
        return
    deck = Counter(cr.DECKS[state.rules.deck])
    dealt = Counter(c for h in deal.hands for c in h) + Counter(deal.stock)
    assert not dealt - deck, "the deal used cards that are not in the deck"
    never_dealt = deck - dealt
    per_seat, stock_and_revealed, captured = round_cards(state)
    for seat, cards in enumerate(per_seat):
        assert cards == Counter(deal.hands[seat]), f"seat {seat}: held + played != dealt"
    assert stock_and_revealed == Counter(deal.stock)
    everything = sum(per_seat, Counter()) + stock_and_revealed + never_dealt
    assert everything == deck
    r = state.round
    assert r is not None
    if getattr(r, "captured", ()):  # Catastrophe: captured cards are exactly the completed tricks' cards
        taken = Counter(p.card for t in r.tricks for p in t.plays)
        taken.update(t.revealed for t in map(catastrophe_trick, r.tricks) if t.revealed is not None)
        assert captured == taken


def sort_key(action: Action) -> tuple[int, int, int]:
    if isinstance(action, Play):
        return (0, action.seat, action.card.index)
    assert isinstance(action, cr.Revive)
    return (1, action.seat, int(action.accept))


@given(states())
def test_legal_moves_shape(state: State) -> None:
    legal = cr.legal_moves(state)
    assert isinstance(legal, tuple)
    if state.to_act is None or state.to_act == CHANCE:
        assert legal == ()
        return
    assert legal, "no legal move before the end of the match"
    assert len(set(legal)) == len(legal), "duplicates"
    assert list(legal) == sorted(legal, key=sort_key), "not sorted"
    assert all(a.seat == state.to_act for a in legal)  # type: ignore[union-attr]
    hand = state.hands[state.to_act]
    assert all(a.card in hand for a in legal if isinstance(a, Play))


@given(states())
def test_every_legal_move_applies(state: State) -> None:
    twin = replayed(state)
    if state.to_act == CHANCE:
        moves: tuple[Action, ...] = (cr.sample_chance(state, random.Random(len(state.history))),)
    else:
        moves = cr.legal_moves(state)
    for move in moves:
        assert cr.check(state, move) is None
        assert cr.is_legal(state, move)
        after = cr.apply(state, move)
        assert after.actions == (*state.actions, move)
    assert state == twin, "apply changed its input state"
    assert hash(state) == hash(twin)


def expect_refused(state: State, action: Action, codes: set[str] | frozenset[str]) -> None:
    twin = replayed(state)
    error = cr.check(state, action)
    assert error is not None, f"{action} should be refused"
    assert error.code in codes, f"{action}: {error.code} not in {codes}"
    assert not cr.is_legal(state, action)
    with pytest.raises(IllegalMoveError) as raised:
        cr.apply(state, action)
    assert raised.value.code == error.code
    assert raised.value.action == action
    assert state == twin, f"refusing {action} changed the state"
    assert hash(state) == hash(twin)


@given(states(), st.data())
def test_illegal_moves_are_refused_without_change(state: State, data: st.DataObject) -> None:
    n = state.num_players
    deck = sorted(set(cr.DECKS[state.rules.deck]))
    to_act = state.to_act
    some_card = data.draw(st.sampled_from(deck), label="card")
    if to_act is None:
        expect_refused(state, Play(data.draw(st.integers(0, n - 1)), some_card), {"game-over"})
        return
    if to_act == CHANCE:
        expect_refused(state, Play(data.draw(st.integers(0, n - 1)), some_card), {"deal-expected"})
        return
    if ladder_state(state).match.pending:
        expect_refused(state, Play(to_act, some_card), {"decision-expected"})
        return
    # wrong seat
    other = data.draw(st.sampled_from([s for s in range(n) if s != to_act]), label="other seat")
    expect_refused(
        state, Play(other, state.hands[other][0] if state.hands[other] else some_card), {"not-your-turn"}
    )
    # card not held
    hand = state.hands[to_act]
    missing = [c for c in deck if c not in hand]
    expect_refused(state, Play(to_act, data.draw(st.sampled_from(missing), label="missing")), {"not-in-hand"})
    # rule-breaking card: every held card that is not a legal move
    legal = set(cr.legal_moves(state))
    for c in dict.fromkeys(hand):
        if Play(to_act, c) not in legal:
            expect_refused(state, Play(to_act, c), RULE_CODES)


@given(states(), st.integers(0, 2**32 - 1))
def test_same_actions_give_equal_states(state: State, seed: int) -> None:
    assert replayed(state) == state
    assert hash(replayed(state)) == hash(state)
    if state.is_over:
        return
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    a = cr.sample_chance(state, rng_a) if state.to_act == CHANCE else rng_a.choice(cr.legal_moves(state))
    b = cr.sample_chance(state, rng_b) if state.to_act == CHANCE else rng_b.choice(cr.legal_moves(state))
    assert a == b
    assert cr.apply(state, a) == cr.apply(replayed(state), b)


@given(states(), st.integers(0, 2**32 - 1))
def test_global_random_is_untouched(state: State, seed: int) -> None:
    random.seed(seed)
    before = random.getstate()
    moves = cr.legal_moves(state)
    for move in moves:
        cr.apply(state, move)
    if state.to_act == CHANCE:
        deal = cr.sample_chance(state, random.Random(seed))
        cr.apply(state, deal)
        # the same seed gives the same deal, whatever the global generator holds
        random.seed(seed + 1)
        assert cr.sample_chance(state, random.Random(seed)) == deal
        random.setstate(before)
    cr.score(state)
    for seat in (None, *range(state.num_players)):
        cr.view(state, seat)
    cr.loads(cr.dumps(state))
    assert random.getstate() == before
