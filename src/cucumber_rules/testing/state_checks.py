"""Invariants of one state: whose turn, card conservation, tricks, the score, the game's own."""

from __future__ import annotations

import itertools

from ..actions import Play
from ..cards import Card
from ..engine import score
from ..state import CHANCE, Round, State
from .base import CheckBase, cards_text, plays_text
from .hooks import Testing

__all__ = ["StateChecks"]


class StateChecks(CheckBase):
    """`check_turn`, `check_cards`, `check_trick_order`, `check_score`, `check_game_invariants`.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.testing import match, strategies
        >>> s = strategies.random_play(cr.ruleset("gurka"), 2, 0, 1, 3)  # a deal and two plays
        >>> check = match.MatchCheck(s.rules, 2, 0, None)
        >>> check.adopt(s)  # the deal in play, to count the cards against
        >>> check.check_turn(s), check.check_cards(s), check.check_score(s)
        (None, None, None)
    """

    def check_turn(self, state: State) -> None:
        m = state.match
        to_act = state.to_act
        if (to_act is None) != bool(m.winners) or state.is_over != bool(m.winners):
            self.fail("turn", f"to_act is {to_act} but the winners are {m.winners}")
        if any(not 0 <= w < self.n for w in m.winners) or len(set(m.winners)) != len(m.winners):
            self.fail("turn", f"winners {m.winners} are not distinct seats")
        if to_act is None or to_act == CHANCE:
            return
        if not 0 <= to_act < self.n:
            self.fail("turn", f"to_act {to_act} is not a seat, CHANCE or None")
        r = state.round
        if r is None:
            self.fail("turn", f"seat {to_act} is to act before any deal")
        if not any(state.hands) and not r.trick:
            return  # between rounds: a seat decides (the game's decisions)
        if to_act not in r.seats:
            self.fail("turn", f"seat {to_act} is to act but is not dealt in ({r.seats})")
        expected = r.leader if not r.trick else r.after[r.trick[-1].seat]
        if to_act != expected:
            self.fail("turn", f"seat {expected} should act (trick {plays_text(r.trick)}), not seat {to_act}")

    def check_cards(self, state: State) -> None:
        """Card conservation: every card of the deck is accounted for, each seat's cards too."""
        r = state.round
        if r is None:
            if any(state.hands):
                self.fail("card-conservation", "cards are held before the first deal")
            return
        deal = self.deal
        if deal is None:
            self.fail("card-conservation", "a round is in play but no deal was applied")
        n = self.n
        if len(r.hands) != n:
            self.fail("card-conservation", f"{len(r.hands)} hands for {n} seats")
        played: list[list[Card]] = [[] for _ in range(n)]
        for number, trick in enumerate(r.tricks, 1):
            self.check_trick_order(r, trick.plays, trick.leader, f"trick {number}", complete=True)
            if trick.taker not in r.seats:
                self.fail("tricks", f"trick {number} was taken by seat {trick.taker}, who is not dealt in")
            for p in trick.plays:
                played[p.seat].append(p.card)
        self.check_trick_order(r, r.trick, r.leader, "the current trick", complete=False)
        for p in r.trick:
            played[p.seat].append(p.card)
        elsewhere = Testing.of(self.game).round_cards(state)
        everything = list(self.never_dealt)
        for s in range(n):
            hand = r.hands[s]
            indexes = [c.index for c in hand]
            if indexes != sorted(indexes):
                self.fail("card-conservation", f"seat {s}'s hand {cards_text(hand)} is not sorted")
            if s not in r.seats and (hand or played[s]):
                self.fail("card-conservation", f"seat {s} is not dealt in but holds or played cards")
            indexes += [c.index for c in played[s]]
            everything += indexes
            if sorted(indexes) != self.dealt[s]:
                self.fail(
                    "card-conservation",
                    f"seat {s} was dealt {cards_text(deal.hands[s])} but holds {cards_text(hand)} "
                    f"and played {cards_text(played[s])}",
                )
        stock = [c.index for c in r.stock] + [c.index for c in elsewhere]
        everything += stock
        if sorted(stock) != self.stock:
            self.fail(
                "card-conservation",
                f"the stock {cards_text(r.stock)} plus the game's other cards {cards_text(elsewhere)} "
                f"is not the dealt stock {cards_text(deal.stock)}",
            )
        if sorted(everything) != self.deck_indexes:
            self.fail(
                "card-conservation",
                "hands + tricks + stock + the game's cards + never-dealt cards are not the deck",
            )

    def check_trick_order(
        self, r: Round, plays: tuple[Play, ...], leader: int, what: str, *, complete: bool
    ) -> None:
        seats = [p.seat for p in plays]
        size = len(r.seats)
        if (complete and len(plays) != size) or len(plays) > size or len(set(seats)) != len(seats):
            self.fail("tricks", f"{what} {plays_text(plays)} does not hold one card per seat of {r.seats}")
        if plays and plays[0].seat != leader:
            self.fail("tricks", f"{what} {plays_text(plays)} was not started by its leader, seat {leader}")
        for a, b in itertools.pairwise(plays):
            if r.after[a.seat] != b.seat:
                self.fail("tricks", f"in {what} {plays_text(plays)}, seat {b.seat} played out of turn")

    def check_score(self, state: State) -> None:
        sc = self.call("score", "score", score, state)
        m = state.match
        if len(sc.totals) != self.n or sc.winners != m.winners or sc.is_final != state.is_over:
            self.fail("score", f"score {sc} does not match the state (winners {m.winners})")
        if sorted(sc.standings) != list(range(self.n)):
            self.fail("score", f"standings {sc.standings} are not a ranking of every seat")
        if len(sc.round_points) != m.rounds or any(len(row) != self.n for row in sc.round_points):
            self.fail("score", f"{len(sc.round_points)} score rows after {m.rounds} rounds")
        if sc.winners and any(sc.standings.index(w) >= len(sc.winners) for w in sc.winners):
            self.fail("score", f"winners {sc.winners} do not head the standings {sc.standings}")
        if sc.game != self.game.name:
            self.fail("score", f"the score names the game {sc.game!r}, not {self.game.name!r}")

    def check_game_invariants(self, state: State) -> None:
        problem = self.call("game", f"{self.game.name} check_state", Testing.of(self.game).check_state, state)
        if problem is not None:
            self.fail("game", problem)
