"""Chance, card by card: a deal as a sequence of chance outcomes with the odds of `sample_chance`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from .._values import Value
from ..actions import Deal, seat_number
from ..cards import DECKS, Card
from ..rules import Rules
from ..state import CHANCE, State

if TYPE_CHECKING:
    from ..games import Game

from .ids import _Encoding, _encoding

__all__ = [
    "DealPlan",
    "chance_deal",
    "chance_outcomes",
    "deal_outcomes",
    "deal_plan",
    "default_deal_plan",
    "num_chance_outcomes",
]


# --------------------------------------------------------------------------- chance, card by card


@attrs.frozen
class DealPlan(Value):
    """How the coming deal is made, for dealing it card by card (a game's `Game.deal_plan`).

    The cards are drawn from `deck` without replacement: `hands[s]` cards to each
    seat in seat order, then `stock` cards for the stock (top first), then, when
    `leaders` lists tied seats, the starter among them (uniformly). Each card of
    `required` goes to a hand, never to the stock (If You Can't Beat 'Em's
    5-cucumber cards); the hands' other cards are uniform among the rest.

    Example:
        >>> import cucumber_rules as cr
        >>> p = deal_plan(cr.new_game(cr.ruleset("catastrophe", surprise=True), players=3))
        >>> p.hands, p.stock, p.leaders
        ((10, 10, 10), 10, ())
    """

    hands: tuple[int, ...]
    """Cards dealt to each seat (0 for a seat not dealt in)."""
    stock: int
    """Cards drawn for the stock after the hands."""
    deck: tuple[Card, ...]
    """The cards dealt from, copies repeated."""
    required: tuple[Card, ...] = ()
    """Cards that must all go to the hands."""
    leaders: tuple[int, ...] = ()
    """Seats among which chance picks the starter (empty unless two or more tie)."""


def default_deal_plan(game: Game, state: State) -> DealPlan:
    """`Game.deal_plan`'s default: the hand and stock sizes of one deal `sample_deal` draws.

    Fits a game whose deals are uniform over its deck (`rules.deck`) with no starter drawn.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> default_deal_plan(cr.GAMES["ladder"], s).hands
        (7, 7)
    """
    import random

    deal = game.sample_deal(state, random.Random(0))
    return DealPlan(tuple(len(h) for h in deal.hands), len(deal.stock), DECKS[state.match.rules.deck])


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
    if type(state) is not State:
        raise TypeError(f"expected a State, not {type(state).__name__}")
    if state.to_act != CHANCE:
        raise ValueError("no deal is due in this state")
    return state.game.deal_plan(state)


def num_chance_outcomes(rules: Rules) -> int:
    """How many chance outcome ids a rule set has: a card id each, then a starter id per seat.

    Example:
        >>> import cucumber_rules as cr
        >>> num_chance_outcomes(cr.ruleset("catastrophe"))
        66
    """
    return len(_encoding(rules).cards) + rules.max_players


def _drawn(state: State, drawn: Sequence[int]) -> tuple[DealPlan, list[int]]:
    plan = deal_plan(state)
    ids = [seat_number(d, "a chance outcome id is an int") for d in drawn]
    return plan, ids


def _remaining(plan: DealPlan, e: _Encoding, cards: Sequence[int]) -> list[int]:
    left = [0] * len(e.cards)
    for c in plan.deck:
        left[e.ids[c.index]] += 1
    for i in cards:
        if not 0 <= i < len(left) or left[i] <= 0:
            raise ValueError(f"chance outcome {i} is not a card left to deal")
        left[i] -= 1
    return left


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
    plan, ids = _drawn(state, drawn)
    e = _encoding(state.match.rules)
    k = len(e.cards)
    slots = sum(plan.hands)
    cards = ids[: slots + plan.stock]
    left = _remaining(plan, e, cards)
    if len(ids) < slots + plan.stock:
        required = [0] * k
        for c in plan.required:
            required[e.ids[c.index]] += 1
        for i in ids[:slots]:
            if required[i] > 0:
                required[i] -= 1
        need = sum(required)
        free = [left[i] - required[i] for i in range(k)]
        pool = sum(free)
        if len(ids) < slots:  # a hand's card: the required ones first come by chance like any
            r = slots - len(ids)
            out = []
            for i in range(k):
                p = required[i] / r + ((r - need) / r * free[i] / pool if pool else 0.0)
                if p > 0:
                    out.append((i, p))
            return tuple(out)
        if need:
            raise ValueError("the hands were dealt without every required card")
        return tuple((i, free[i] / pool) for i in range(k) if free[i] > 0)
    if len(ids) == slots + plan.stock and len(plan.leaders) > 1:
        p = 1.0 / len(plan.leaders)
        return tuple((k + s, p) for s in plan.leaders)
    if len(ids) > slots + plan.stock + (1 if len(plan.leaders) > 1 else 0):
        raise ValueError("more chance outcomes than the deal has")
    return ()


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
    plan, ids = _drawn(state, drawn)
    e = _encoding(state.match.rules)
    k = len(e.cards)
    slots = sum(plan.hands)
    total = slots + plan.stock + (1 if len(plan.leaders) > 1 else 0)
    if len(ids) < total:
        chance_outcomes(state, ids)  # checks the outcomes so far
        return None
    if len(ids) > total:
        raise ValueError(f"the deal takes {total} chance outcomes, not {len(ids)}")
    _remaining(plan, e, ids[: slots + plan.stock])
    hands: list[list[Card]] = []
    at = 0
    for size in plan.hands:
        hands.append([e.cards[i] for i in ids[at : at + size]])
        at += size
    stock = [e.cards[i] for i in ids[at : at + plan.stock]]
    leader = None
    if len(plan.leaders) > 1:
        leader = ids[-1] - k
        if leader not in plan.leaders:
            raise ValueError(f"chance outcome {ids[-1]} is not a starter among the tied seats")
    deal = Deal(hands=hands, stock=stock, leader=leader)
    error = state.game.deal_error(state, deal)
    if error is not None:
        raise ValueError(f"the chance outcomes make no legal deal: {error.message}")
    return deal


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
    error = state.game.deal_error(state, deal)
    if error is not None:
        raise ValueError(f"not a legal deal now: {error.message}")
    e = _encoding(state.match.rules)
    ids = [e.ids[c.index] for hand in deal.hands for c in hand]
    ids += [e.ids[c.index] for c in deal.stock[: plan.stock]]
    if len(plan.leaders) > 1 and deal.leader is not None:  # (a legal deal after a tie names its starter)
        ids.append(len(e.cards) + deal.leader)
    return tuple(ids)
