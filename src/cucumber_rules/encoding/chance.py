"""Chance, card by card: a deal as a sequence of chance outcomes with the odds of `sample_chance`."""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from ..actions import Deal, drawn_for, seat_number, trusted_deal
from ..cards import BY_INDEX, Card
from ..game import game_of
from ..rules import Rules
from ..state import CHANCE, State
from ..values import Value, builder

if TYPE_CHECKING:
    pass

from .hooks import DealPlan, Encoding, action_table, default_deal_plan

__all__ = [
    "DealPlan",
    "Dealing",
    "chance_deal",
    "chance_outcomes",
    "deal_outcomes",
    "deal_plan",
    "default_deal_plan",
    "num_chance_outcomes",
]


# --------------------------------------------------------------------------- chance, card by card


def deal_plan(state: State) -> DealPlan:
    """The plan of the deal due now (see `DealPlan`).

    Raises:
        TypeError: If `state` is not a `State`.
        ValueError: If no deal is due.

    Example:
        >>> import cucumber_rules as cr
        >>> deal_plan(cr.new_game(cr.ruleset("agurk"), players=3)).hands
        (7, 7, 7)
    """
    if not isinstance(state, State):
        raise TypeError(f"expected a State, not {type(state).__name__}")
    if state.to_act != CHANCE:
        raise ValueError("no deal is due in this state")
    return Encoding.of(game_of(state)).deal_plan(state)


def num_chance_outcomes(rules: Rules) -> int:
    """How many chance outcome ids a rule set has: a card id each, then a starter id per seat.

    Example:
        >>> import cucumber_rules as cr
        >>> num_chance_outcomes(cr.ruleset("catastrophe"))
        66
    """
    return len(action_table(rules).cards) + rules.max_players


@attrs.frozen(weakref_slot=False)
class Dealing(Value):
    """A deal being drawn card by card: what is drawn so far, and the odds of the next outcome.

    `Dealing.start(state)` begins the deal due in `state`; `draw(outcome)` returns the
    dealing one outcome further (the value itself never changes), `outcomes()` lists the
    next outcomes with their probabilities, and once `complete`, `deal()` is the `Deal`.
    `chance_outcomes` and `chance_deal` are built on it; a framework that deals card by
    card keeps one of these per node, so that each card costs the same however many
    were drawn before.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
        >>> d = Dealing.start(s).draw(0)
        >>> len(d.outcomes()), d.outcomes()[0], d.complete
        (51, (1, 0.0196078431372549), False)
        >>> d.draw(51).deal()
        Deal(hands=((card('2C'),), (card('AS'),)), stock=(), leader=None)
    """

    state: State
    """The state the deal is due in."""
    plan: DealPlan
    """The deal's plan (`deal_plan(state)`)."""
    drawn: tuple[int, ...]
    """The outcomes drawn so far."""
    present: tuple[int, ...]
    """The card ids with a copy left, in order."""
    counts: tuple[int, ...] | None
    """Copies of each card id not drawn yet, where the deck has several copies of a card (Five
    Cucumbers); None where it has one of each (then `present` says it all: see `left`)."""
    required: tuple[int, ...]
    """Copies of each card id that must still reach a hand (If You Can't Beat 'Em)."""
    need: int
    """How many required cards have still to reach a hand (the sum of `required`)."""
    pool: int
    """How many cards are left (the sum of `left`)."""
    slots: int
    """The hands' places: the first `slots` outcomes are the hands' cards."""
    cards: int
    """The cards drawn in all (the hands', then the stock's)."""
    total: int
    """How many outcomes the whole deal takes: its cards, and a starter if one is drawn."""
    k: int
    """How many card ids the rules have."""

    @classmethod
    def start(cls, state: State) -> Dealing:
        """The deal due in `state`, before its first card.

        Raises:
            TypeError: If `state` is not a `State`.
            ValueError: If no deal is due.
        """
        plan = deal_plan(state)
        e = action_table(state.match.rules)
        k = len(e.cards)
        left = [0] * k
        for c in plan.deck:
            left[e.ids[c.index]] += 1
        required = [0] * k
        for c in plan.required:
            required[e.ids[c.index]] += 1
        slots = sum(plan.hands)
        cards = slots + plan.stock
        return _new_dealing(
            state,
            plan,
            (),
            tuple(i for i in range(k) if left[i]),
            None if max(left, default=0) <= 1 else tuple(left),
            tuple(required),
            sum(required),
            sum(left),
            slots,
            cards,
            cards + (1 if len(plan.leaders) > 1 else 0),
            k,
        )

    @property
    def left(self) -> tuple[int, ...]:
        """Copies of each card id not drawn yet."""
        if self.counts is not None:
            return self.counts
        present = set(self.present)
        return tuple(1 if i in present else 0 for i in range(self.k))

    @property
    def complete(self) -> bool:
        """True once every outcome of the deal is drawn."""
        return len(self.drawn) == self.total

    def outcomes(self) -> tuple[tuple[int, float], ...]:
        """The next outcomes with their probabilities (summing to 1); `()` once complete."""
        n = len(self.drawn)
        if n >= self.cards:
            leaders = self.plan.leaders
            if n == self.cards and len(leaders) > 1:
                return tuple(zip([self.k + s for s in leaders], itertools.repeat(1.0 / len(leaders))))
            return ()
        need = self.need if n < self.slots else 0
        present, counts, k = self.present, self.counts, self.k
        if not need:  # every card left equally likely, copies counted
            if counts is None:
                if len(present) == 1:
                    return (_odds(k, 1, 1)[present[0]],)
                return operator.itemgetter(*present)(_odds(k, 1, self.pool))  # type: ignore[no-any-return]
            by_copies = _odds_by_copies(k, max(counts), self.pool)
            return tuple([by_copies[counts[i]][i] for i in present])
        left = self.left
        pool = self.pool - need
        r = self.slots - n  # hand places left: the required cards first come by chance like any
        required = self.required
        out = []
        for i in present:
            p = required[i] / r + ((r - need) / r * (left[i] - required[i]) / pool if pool else 0.0)
            if p > 0:
                out.append((i, p))
        return tuple(out)

    def draw(self, outcome: int) -> Dealing:
        """The dealing after one more outcome.

        Raises:
            ValueError: If `outcome` is not one of `outcomes()` (a card drawn already, a card that
                must go to a hand drawn for the stock, a starter not among the tied seats, or more
                outcomes than the deal takes).
            TypeError: If `outcome` is not an integer.
        """
        i = outcome if type(outcome) is int else seat_number(outcome, "a chance outcome id is an int")
        n = len(self.drawn)
        if n < self.cards:
            present, counts = self.present, self.counts
            j = bisect.bisect_left(present, i)
            if j == len(present) or present[j] != i:
                raise ValueError(f"chance outcome {i} is not a card left to deal")
            required, need = self.required, self.need
            if need:
                if required[i] and n < self.slots:
                    required = (*required[:i], required[i] - 1, *required[i + 1 :])
                    need -= 1
                elif n < self.slots and self.slots - n <= need:
                    raise ValueError(
                        f"chance outcome {i} is not possible now: the hands need the required cards"
                    )
            if counts is not None:
                if counts[i] == 1:
                    present = present[:j] + present[j + 1 :]
                counts = (*counts[:i], counts[i] - 1, *counts[i + 1 :])
            else:
                present = present[:j] + present[j + 1 :]
            return _new_dealing(
                self.state, self.plan, (*self.drawn, i), present, counts, required, need, self.pool - 1,
                self.slots, self.cards, self.total, self.k,
            )  # fmt: skip
        if n < self.total:
            if i - self.k not in self.plan.leaders:
                raise ValueError(f"chance outcome {i} is not a starter among the tied seats")
            return _new_dealing(
                self.state, self.plan, (*self.drawn, i), self.present, self.counts, self.required, self.need,
                self.pool, self.slots, self.cards, self.total, self.k,
            )  # fmt: skip
        raise ValueError(f"the deal takes {self.total} chance outcomes, not more")

    def deal(self) -> Deal:
        """The `Deal` the outcomes make, checked here as `apply` checks a deal.

        `apply(self.state, deal)` does not check it a second time (on any other state it does).

        Raises:
            ValueError: If the deal is not complete, or the game refuses it.
        """
        if not self.complete:
            raise ValueError(f"the deal takes {self.total} chance outcomes, not {len(self.drawn)}")
        plan = self.plan
        state = self.state
        cards = action_table(state.match.rules).cards
        ids = self.drawn
        hands: list[tuple[Card, ...]] = []
        at = 0
        for size in plan.hands:
            hands.append(tuple(sorted([cards[i] for i in ids[at : at + size]], key=BY_INDEX)))
            at += size
        stock = tuple([cards[i] for i in ids[at : at + plan.stock]])
        leader = ids[-1] - len(cards) if self.total > self.cards else None
        # The encoding's cards are the shared `Card`s, each hand sorted as `Deal(...)` keeps it: the
        # deal is built as is, then checked here as `apply` would check it (a deal is due in `state`),
        # and marked checked for that state, so that `apply(state, deal)` does not check it again.
        deal = trusted_deal(tuple(hands), stock, leader)
        error = game_of(state).deal_error(state, deal)
        if error is not None:
            raise ValueError(f"the chance outcomes make no legal deal: {error.message}")
        drawn_for(deal, weakref.ref(state))
        return deal


_new_dealing = builder(Dealing)


@functools.lru_cache(maxsize=4096)
def _odds(k: int, copies: int, pool: int) -> tuple[tuple[int, float], ...]:
    """`(id, copies / pool)` for each of `k` card ids: the outcome pairs of a card with that many copies
    left among `pool` cards, made once and shared (a deal would otherwise build a pair per card left
    at every card it deals)."""
    p = copies / pool
    return tuple((i, p) for i in range(k))


@functools.lru_cache(maxsize=4096)
def _odds_by_copies(k: int, most: int, pool: int) -> tuple[tuple[tuple[int, float], ...], ...]:
    """`_odds(k, copies, pool)` for every count of copies up to `most` (one lookup a card dealt)."""
    return tuple(_odds(k, c, pool) if c else () for c in range(most + 1))


def _dealing(state: State, drawn: Sequence[int]) -> Dealing:
    dealing = Dealing.start(state)
    for outcome in drawn:
        dealing = dealing.draw(outcome)
    return dealing


def chance_outcomes(state: State, drawn: Sequence[int] = ()) -> tuple[tuple[int, float], ...]:
    """The next chance outcomes of the deal due now, after the outcomes `drawn` so far, with probabilities.

    Outcomes are card ids while cards are dealt (hands in seat order, then the
    stock), then `num_actions`-style starter ids `K + seat` when a starter is drawn;
    `()` once the deal is complete (then `chance_deal` gives it). The probabilities
    are those of `sample_chance`'s deals and sum to 1.

    Args:
        state: A state where a deal is due.
        drawn: The outcome ids drawn so far for this deal, in order.

    Raises:
        ValueError: If no deal is due or `drawn` holds an outcome that was not possible.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("five-cucumbers"), players=2)
        >>> chance_outcomes(s)[:2]
        ((0, 0.06666666666666667), (1, 0.06666666666666667))
        >>> chance_outcomes(s, [0])[0]
        (0, 0.05084745762711865)
    """
    return _dealing(state, drawn).outcomes()


def chance_deal(state: State, drawn: Sequence[int]) -> Deal | None:
    """The `Deal` that the chance outcomes `drawn` make, or None while the deal needs more.

    Raises:
        ValueError: If no deal is due, or `drawn` holds an outcome that was not possible.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
        >>> chance_deal(s, [0]) is None, chance_deal(s, [0, 51])
        (True, Deal(hands=((card('2C'),), (card('AS'),)), stock=(), leader=None))
    """
    dealing = _dealing(state, drawn)
    return dealing.deal() if dealing.complete else None


def deal_outcomes(state: State, deal: Deal) -> tuple[int, ...]:
    """The chance outcomes that deal `deal` card by card (the inverse of `chance_deal`).

    Each hand's cards in seat order, then the stock top first (as many cards as the plan draws: a
    deal of `sample_chance` may stack cards the round never turns up beneath them), then the
    starter's id when the deal's plan draws one among tied seats.

    Raises:
        ValueError: If no deal is due, or `deal` is not a legal deal now.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
        >>> deal_outcomes(s, cr.Deal(hands=[["2C"], ["AS"]]))
        (0, 51)
    """
    plan = deal_plan(state)
    error = game_of(state).deal_error(state, deal)
    if error is not None:
        raise ValueError(f"not a legal deal now: {error.message}")
    e = action_table(state.match.rules)
    ids = [e.ids[c.index] for hand in deal.hands for c in hand]
    ids += [e.ids[c.index] for c in deal.stock[: plan.stock]]
    if len(plan.leaders) > 1 and deal.leader is not None:  # (a legal deal after a tie names its starter)
        ids.append(len(e.cards) + deal.leader)
    return tuple(ids)
