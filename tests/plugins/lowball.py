"""Lowball: a fourth game with its own trick mechanism, written against the public contract alone.

Every player gets `hand_size` cards of the 52-card deck. The leader plays any
card; the others must follow the led suit when they can. The *lowest* card of
the led suit takes the trick (a card of another suit never does), and its
player scores one point for it and leads the next trick. After `round_count`
rounds the lowest total wins (ties share). Where the ladder games and
Catastrophe take a trick with one card's height across suits, Lowball has
suits, a rule that depends on them, and every trick scores.

It uses only what a plug-in author may: `cucumber_rules`, `cucumber_rules.dealing`
and `cucumber_rules.tricks`. It needs no change to the library (the tests prove
it with `check_game`).
"""

from __future__ import annotations

import random
from typing import ClassVar

import attrs

import cucumber_rules as cr
from cucumber_rules.dealing import deal_error, shuffled_deal
from cucumber_rules.tricks import end_round, next_turn, not_held, round_over, round_started, take_trick

__all__ = ["GAME", "LowballGame", "LowballRules"]

DECK = cr.DECKS["standard-52"]


@attrs.frozen(kw_only=True)
class LowballRules(cr.Rules):
    """The rules of Lowball: `hand_size` cards each, `round_count` rounds."""

    game = "lowball"
    round_count: int = cr.option(3, meaning="rounds in a match; the fewest tricks taken wins")

    def validate(self) -> None:
        """The 52-card deck, enough cards for every seat, at least one round."""
        if self.deck != "standard-52":
            raise cr.InvalidRulesError("deck", "Lowball is played with the standard-52 deck")
        if self.hand_size * self.max_players > len(DECK):
            raise cr.InvalidRulesError(
                "hand_size", f"{self.max_players} x {self.hand_size} cards need more than 52"
            )
        if self.round_count < 1:
            raise cr.InvalidRulesError(
                "round_count", f"round_count must be at least 1, not {self.round_count}"
            )


PRESET = LowballRules(name="lowball", deck="standard-52", min_players=3, max_players=5, hand_size=5)


class LowballGame(cr.Game[cr.State]):
    """The lowest card of the led suit takes the trick; follow suit when you can."""

    name: ClassVar[str] = "lowball"
    title: ClassVar[str] = "Lowball"
    rules_type = LowballRules
    presets: ClassVar = {"lowball": PRESET}
    preset_titles: ClassVar = {"lowball": "Lowball"}
    error_codes: ClassVar = {"must-follow-suit": "Lowball: play a card of the led suit when you hold one."}

    def deal_error(self, state: cr.State, deal: cr.Deal) -> cr.IllegalMoveError | None:
        n, per = state.num_players, state.rules.hand_size
        return deal_error(deal, players=n, seats=range(n), per=per, deck=DECK)

    def sample_deal(self, state: cr.State, rng: random.Random) -> cr.Deal:
        n, per = state.num_players, state.rules.hand_size
        return shuffled_deal(rng, DECK, players=n, seats=range(n), per=per, stock=False)

    def start_round(self, state: cr.State, deal: cr.Deal) -> cr.State:
        m = state.match
        leader = (m.first + m.rounds) % state.num_players  # the lead passes round by round
        return round_started(
            state, deal, leader=leader, match=attrs.evolve(m, dealer=(leader - 1) % state.num_players)
        )

    def legal(self, state: cr.State) -> tuple[cr.Action, ...]:
        assert state.to_act is not None
        hand = state.held[state.to_act]
        if state.trick:
            suit = state.trick[0].card.suit
            following = tuple(p for p in hand if p.card.suit == suit)
            if following:
                return following
        return hand

    def play_error(self, state: cr.State, play: cr.Play) -> cr.IllegalMoveError | None:
        error = not_held(state, play)
        if error is not None:
            return error
        legal = self.legal(state)
        if play in legal:
            return None
        cards = ", ".join(str(p.card) for p in legal)  # type: ignore[union-attr]
        return cr.IllegalMoveError(
            "must-follow-suit",
            f"seat {play.seat} cannot play {play.card}: follow the led suit ({cards})",
            seat=play.seat,
            action=play,
        )

    def play(self, state: cr.State, play: cr.Play) -> cr.State:
        best = state.best
        if best is None or (play.card.suit == best.card.suit and play.card.rank < best.card.rank):
            best = play
        table = state.table
        assert table is not None
        if len(state.trick) + 1 < len(table.seats):
            return next_turn(state, play, to_act=table.after[play.seat], best=best)
        after = take_trick(state, play, taker=best.seat)
        return self._score(after) if round_over(after) else after

    def _score(self, state: cr.State) -> cr.State:
        m = state.match
        table = state.table
        assert table is not None
        rules: LowballRules = m.rules  # type: ignore[assignment]
        taken = [sum(1 for t in table.tricks if t.taker == s) for s in range(state.num_players)]
        totals = tuple(t + p for t, p in zip(m.totals, taken, strict=True))
        number = m.rounds + 1
        low = min(totals)
        winners = tuple(s for s, t in enumerate(totals) if t == low) if number >= rules.round_count else ()
        result = cr.RoundResult(number, tuple(taken), totals)
        match = attrs.evolve(
            m, totals=totals, rounds=number, results=m.results.append(result), winners=winners
        )
        return end_round(state, match=match)

    def max_actions(self, rules: cr.Rules, players: int) -> int:
        assert isinstance(rules, LowballRules)
        return rules.round_count * (1 + players * rules.hand_size)


GAME = LowballGame()
"""The game, ready to register."""
