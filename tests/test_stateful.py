"""A Hypothesis state machine that drives whole matches with legal and illegal actions.

Each run draws valid rules (`cucumber_rules.testing.rules()`), a player count, a first
seat and a seed, then mixes steps: deals, chosen legal moves, runs of random play (to
the end of a round or of the match), rematches, and illegal actions of every kind
(a play by the wrong seat, a card not held, a rule-breaking card, a corrupted deal, a
deal or decision at the wrong time, anything at all after the end). Every illegal
action must raise `IllegalMoveError` with the right code and leave the state exactly
as it was. After every step the invariants are checked: card conservation, the shape
of `legal_moves`, that replaying the history gives an equal state, the acting seat's
view, and the public per-state checker `check_state` (which re-checks most of this
from another angle, with every legal move applied and serialization round trips).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import cucumber_rules as cr
from cucumber_rules import CHANCE, Action, Card, Deal, IllegalMoveError, Play, Revive, State
from cucumber_rules.testing import RULE_CODES, action_bound, check_state, rules

STRUCTURAL = frozenset(cr.ERROR_CODES) - RULE_CODES


def playing(machine: MatchMachine) -> bool:
    to_act = machine.state.to_act
    return to_act is not None and to_act >= 0 and not getattr(machine.state.match, "pending", ())


def at_chance(machine: MatchMachine) -> bool:
    return machine.state.to_act == CHANCE


def running(machine: MatchMachine) -> bool:
    return not machine.state.is_over


def forbidden_cards(state: State) -> list[Card]:
    """Cards the seat to act holds but may not play now."""
    to_act = state.to_act
    if to_act is None or to_act < 0 or bool(getattr(state.match, "pending", ())):
        return []
    legal = set(cr.legal_moves(state))
    return [c for c in dict.fromkeys(state.hands[to_act]) if Play(to_act, c) not in legal]


class MatchMachine(RuleBasedStateMachine):
    """Whole matches under random rules, with illegal actions mixed in."""

    def __init__(self) -> None:
        super().__init__()
        self.game_rules = cr.ruleset("agurk")
        self.players = 3
        self.first = 0
        self.state: State = cr.new_game(self.game_rules, self.players)
        self.rng = random.Random(0)
        self.deck: tuple[Card, ...] = ()
        self.refused: Counter[str] = Counter()

    # ------------------------------------------------------------------ helpers

    def apply(self, action: Action) -> None:
        before = self.state
        after = cr.apply(before, action)
        assert after.actions[-1] == action
        assert len(after.history) == len(before.history) + 1
        self.state = after

    def random_step(self) -> None:
        state = self.state
        if state.to_act == CHANCE:
            self.apply(cr.sample_chance(state, self.rng))
        else:
            self.apply(self.rng.choice(cr.legal_moves(state)))

    def refuse(self, action: Action, codes: frozenset[str] | set[str]) -> None:
        """`action` must be refused with one of `codes`, and leave the state as it was."""
        state = self.state
        text, digest = repr(state), hash(state)
        error = cr.check(state, action)
        assert error is not None, f"{action} was accepted by check"
        assert error.code in codes, f"{action}: code {error.code!r}, expected one of {sorted(codes)}"
        assert not cr.is_legal(state, action)
        with pytest.raises(IllegalMoveError) as raised:
            cr.apply(state, action)
        assert raised.value.code == error.code
        assert raised.value.code in cr.ERROR_CODES
        assert raised.value.action == action
        assert str(raised.value)
        assert repr(state) == text, f"refusing {action} changed the state"
        assert hash(state) == digest
        self.refused[error.code] += 1

    # ------------------------------------------------------------------ a new match

    @initialize(r=rules(), data=st.data())
    def new_match(self, r: cr.Rules, data: st.DataObject) -> None:
        self.game_rules = r
        self.players = data.draw(st.integers(r.min_players, r.max_players), label="players")
        self.first = data.draw(st.integers(0, self.players - 1), label="first")
        self.rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
        self.deck = tuple(dict.fromkeys(cr.DECKS[r.deck]))
        self.state = cr.new_game(r, self.players, first=self.first)

    @precondition(lambda self: self.state.is_over)
    @rule()
    def rematch(self) -> None:
        self.state = cr.new_game(self.game_rules, self.players, first=self.first)

    # ------------------------------------------------------------------ legal actions

    @precondition(at_chance)
    @rule(seed=st.integers(0, 2**32 - 1))
    def deal(self, seed: int) -> None:
        self.apply(cr.sample_chance(self.state, random.Random(seed)))

    @precondition(lambda self: running(self) and not at_chance(self))
    @rule(data=st.data())
    def chosen_legal_move(self, data: st.DataObject) -> None:
        self.apply(data.draw(st.sampled_from(cr.legal_moves(self.state)), label="move"))

    @precondition(running)
    @rule(steps=st.one_of(st.integers(1, 40), st.sampled_from(["round", "round", "match"])))
    def play_on(self, steps: int | str) -> None:
        """Random play: a number of actions, to the end of the round, or to the end of the match."""
        rounds = self.state.match.rounds
        bound = action_bound(self.game_rules, self.players)
        count = 0
        while not self.state.is_over:
            if steps == "round" and self.state.match.rounds > rounds:
                break
            if isinstance(steps, int) and count >= steps:
                break
            assert len(self.state.history) <= bound, "the match does not end"
            self.random_step()
            count += 1

    @rule(data=st.data())
    def any_play(self, data: st.DataObject) -> None:
        """Any seat, any card of the deck: applied if legal, else refused with a code."""
        action = Play(data.draw(st.integers(0, self.players - 1)), data.draw(st.sampled_from(self.deck)))
        if cr.check(self.state, action) is None:
            self.apply(action)
        else:
            self.refuse(action, frozenset(cr.ERROR_CODES))

    # ------------------------------------------------------------------ illegal actions

    @precondition(playing)
    @rule(data=st.data())
    def play_by_the_wrong_seat(self, data: st.DataObject) -> None:
        to_act = self.state.to_act
        seat = data.draw(st.sampled_from([s for s in range(self.players) if s != to_act]))
        hand = self.state.hands[seat]
        c = data.draw(st.sampled_from(hand)) if hand else data.draw(st.sampled_from(self.deck))
        self.refuse(Play(seat, c), {"not-your-turn"})

    @precondition(playing)
    @rule(data=st.data())
    def card_not_held(self, data: st.DataObject) -> None:
        seat = self.state.to_act
        assert seat is not None
        missing = [c for c in self.deck if c not in self.state.hands[seat]]
        self.refuse(Play(seat, data.draw(st.sampled_from(missing))), {"not-in-hand"})

    @precondition(lambda self: bool(forbidden_cards(self.state)))
    @rule(data=st.data())
    def rule_breaking_card(self, data: st.DataObject) -> None:
        seat = self.state.to_act
        assert seat is not None
        self.refuse(Play(seat, data.draw(st.sampled_from(forbidden_cards(self.state)))), RULE_CODES)

    @precondition(at_chance)
    @rule(data=st.data(), how=st.sampled_from(["move", "drop", "extra", "twice", "stranger"]))
    def corrupted_deal(self, data: st.DataObject, how: str) -> None:
        deal = cr.sample_chance(self.state, random.Random(data.draw(st.integers(0, 2**32 - 1))))
        assert isinstance(deal, Deal)
        hands = [list(h) for h in deal.hands]
        dealt = [s for s, h in enumerate(hands) if h]
        seat = data.draw(st.sampled_from(dealt))
        if how == "move":  # one card moved to another seat: wrong hand sizes
            other = data.draw(st.sampled_from([s for s in range(self.players) if s != seat]))
            hands[other].append(hands[seat].pop())
        elif how == "drop":
            hands[seat].pop()
        elif how == "extra":
            hands[seat].append(hands[seat][0])
        elif how == "twice":  # a card replaced by more copies than the deck holds
            copies = Counter(cr.DECKS[self.game_rules.deck])
            c = hands[seat][0]
            hands[seat] = [c] * len(hands[seat])
            if copies[c] >= len(hands[seat]):
                hands[seat].append(c)
        else:  # a hand too many
            hands.append([])
        self.refuse(Deal(hands=hands, stock=deal.stock, leader=deal.leader), {"bad-deal"})

    @precondition(lambda self: running(self) and not at_chance(self))
    @rule()
    def deal_during_play(self) -> None:
        self.refuse(Deal(hands=[[]] * self.players), {"unexpected-deal"})

    @precondition(lambda self: running(self) and not getattr(self.state.match, "pending", ()))
    @rule(seat=st.integers(0, 6), accept=st.booleans())
    def decision_not_due(self, seat: int, accept: bool) -> None:
        self.refuse(Revive(seat % self.players, accept), {"no-decision"})

    @precondition(lambda self: bool(getattr(self.state.match, "pending", ())))
    @rule(data=st.data())
    def play_while_a_decision_is_due(self, data: st.DataObject) -> None:
        seat = self.state.to_act
        assert seat is not None
        self.refuse(Play(seat, data.draw(st.sampled_from(self.deck))), {"decision-expected"})
        other = (seat + 1) % self.players
        self.refuse(Revive(other, True), {"not-your-turn"})

    @precondition(at_chance)
    @rule(data=st.data())
    def play_before_the_deal(self, data: st.DataObject) -> None:
        seat = data.draw(st.integers(0, self.players - 1))
        self.refuse(Play(seat, data.draw(st.sampled_from(self.deck))), {"deal-expected"})

    @precondition(lambda self: self.state.is_over)
    @rule(data=st.data())
    def anything_after_the_end(self, data: st.DataObject) -> None:
        seat = data.draw(st.integers(0, self.players - 1))
        for action in (Play(seat, data.draw(st.sampled_from(self.deck))), Revive(seat, True)):
            self.refuse(action, {"game-over"})
        self.refuse(Deal(hands=[[]] * self.players), {"game-over"})

    # ------------------------------------------------------------------ invariants

    @invariant()
    def cards_are_conserved(self) -> None:
        state = self.state
        r = state.round
        deal = next((a for a in reversed(state.actions) if isinstance(a, Deal)), None)
        if r is None or deal is None:
            assert r is None
            assert deal is None
            return
        for seat in range(self.players):
            played = [p.card for t in r.tricks for p in t.plays if p.seat == seat]
            played += [p.card for p in r.trick if p.seat == seat]
            assert Counter(r.hands[seat]) + Counter(played) == Counter(deal.hands[seat]), f"seat {seat}"
        revealed = cr.game_of(state).testing.round_cards(state)  # Surprise Cucumber's reveals
        assert Counter(r.stock) + Counter(revealed) == Counter(deal.stock)
        dealt = Counter(c for h in deal.hands for c in h) + Counter(deal.stock)
        assert not dealt - Counter(cr.DECKS[self.game_rules.deck])

    @invariant()
    def legal_moves_are_sound(self) -> None:
        state = self.state
        legal = cr.legal_moves(state)
        if state.to_act is None or state.to_act == CHANCE:
            assert legal == ()
            return
        assert legal
        assert len(set(legal)) == len(legal)
        keys = [(a.card.index if isinstance(a, Play) else int(a.accept)) for a in legal]  # type: ignore[union-attr]
        assert keys == sorted(keys)
        assert all(a.seat == state.to_act for a in legal)  # type: ignore[union-attr]

    @invariant()
    def the_history_rebuilds_the_state(self) -> None:
        state = self.state
        start = cr.new_game(self.game_rules, self.players, first=self.first)
        assert cr.apply_all(start, state.actions) == state

    @invariant()
    def the_acting_seat_sees_its_hand_and_moves(self) -> None:
        state = self.state
        seat = state.to_act
        if seat is None or seat < 0:
            return
        v = cr.view(state, seat)
        assert v.hand == state.hands[seat]
        assert v.legal == cr.legal_moves(state)
        assert v.hand_sizes == tuple(len(h) for h in state.hands)

    @invariant()
    def the_public_checker_agrees(self) -> None:
        check_state(self.state, seed=len(self.state.history))


TestMatchMachine = MatchMachine.TestCase
