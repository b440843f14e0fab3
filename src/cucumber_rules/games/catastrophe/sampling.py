"""Catastrophe's part of hidden-information sampling (`cucumber_rules.sampling`).

- `complete_deal`: a hand's deal from what a viewer knows: the stock starts with
  the cards revealed so far (Surprise Cucumber) and If You Can't Beat 'Em keeps
  every 5-cucumber card in the hands;
- `rebuild_hand`: an earlier hand that ends with given cucumbers per seat, built
  directly rather than searched for by playing. First the exact, bounded search
  of `rebuild.construct_hand` (trick counts and card classes per seat, then cards
  with anchors, played in an always-legal order): it builds every hand of the
  kind described there. Only a hand that needs a trick made of 5-cucumber cards
  alone (a custom cucumbers table, or a tiny hand with If You Can't Beat 'Em)
  falls back to the older randomised local search: the hand's cards are grouped
  into tricks, each given to a taker, and cards are moved between tricks (and the
  undealt cards) and takers changed until every seat's cucumbers are right; and
  if that fails too, the game falls back to the generic
  `cucumber_rules.sampling.search_round`, which plays random hands. Every trick
  is played in an order that is always legal: the lead (or the revealed card) is
  the trick's lowest card and the taker plays its highest, so the marker is High
  and everyone obeys it (or the mirror image, Low). The leader never takes a
  trick from hand, so takers of consecutive tricks differ (with Surprise the
  first player may take it). The engine replays the result and checks it.

The randomised local search is in `search`, and the checks of earlier hands without cards
(`HandCheck`, `fold_results`, which `CatastropheViews.check_view` uses) in `folding`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...actions import Action, Deal, Play, trusted_deal
from ...cards import Card
from ...engine import apply
from ...errors import IllegalMoveError
from ...sampling import Sampling
from ...state import State
from .folding import HandCheck, fold_results, score_hand
from .rebuild import construct_hand
from .rules import CatastropheRules
from .search import ATTEMPTS, STEPS, rank_key, search_hand
from .types import Revealed

if TYPE_CHECKING:
    from ...views import Dealt, Event, PlayerView

__all__ = [
    "ATTEMPTS",
    "STEPS",
    "CatastropheSampling",
    "HandCheck",
    "complete_deal",
    "fold_results",
    "rebuild_hand",
    "score_hand",
]


def complete_deal(
    state: State,
    known: tuple[tuple[Card, ...], ...],
    dealt: Dealt,
    events: tuple[Any, ...],
    allowed: Callable[[int, Card], bool],
    rng: random.Random,
) -> Deal | None:
    """A Catastrophe deal that fits a viewer's knowledge (see `Game.complete_deal`).

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True, hand_size=2), players=3)
        >>> d = cr.Dealt(hand=(cr.card("7"), cr.card("9")), sizes=(2, 2, 2))
        >>> deal = complete_deal(s, ((cr.card("7"), cr.card("9")), (), ()), d,
        ...                      (cr.Revealed(cr.card("30")),), lambda s, c: True, random.Random(1))
        >>> deal.hands[0], deal.stock[0], len(deal.stock)
        ((card('7'), card('9')), card('30'), 54)
    """
    from ...sampling import assign_cards, joined_hands, remaining_cards

    rules = state.match.rules
    assert isinstance(rules, CatastropheRules)
    p = rules._plan
    reveals = [e.card for e in events if type(e) is Revealed]
    pool = remaining_cards(p.deck, *known, reveals)
    needs = [size - len(hand) for size, hand in zip(dealt.sizes, known, strict=True)]
    five = p.five
    spare = (lambda c: not five[c.rank]) if rules.cant_beat_em else None
    found = assign_cards(pool, needs, allowed, rng, spare=spare)
    if found is None:
        return None
    hidden, rest = found
    hands = joined_hands(known, hidden)
    stock: tuple[Card, ...] = ()
    if rules.surprise:
        left = list(rest)
        rng.shuffle(left)
        if rules.cant_beat_em:
            per = rules.cards_per_player(len(known))
            left = left[: per - len(reveals)]
        stock = (*reveals, *left)
    return trusted_deal(hands, stock, dealt.leader)


def rebuild_hand(state: State, target: Any, rng: random.Random) -> State | None:
    """A legal hand from `state` (its deal due) whose result equals `target`, or None.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
        >>> target = cr.RoundResult(1, (12, 9, 17), (12, 9, 17))
        >>> rebuild_hand(s, target, random.Random(1)).match.totals
        (12, 9, 17)
    """
    found = construct_hand(state, target, rng, play_hand)
    if found is not None:
        return found
    return search_hand(state, target, rng, play_hand)


def play_hand(
    state: State,
    tricks: list[list[Card]],
    takers: list[int],
    leader: int,
    tied: tuple[int, ...],
    spare: list[Card],
    rng: random.Random,
) -> State | None:
    """Lay the tricks out as a deal and plays in a legal order; replay them with the engine."""
    m = state.match
    rules = m.rules
    assert isinstance(rules, CatastropheRules)
    p = rules._plan
    n = len(m.players)
    five = p.five
    surprise = rules.surprise
    hands: list[list[Card]] = [[] for _ in range(n)]
    reveals: list[Card] = []
    plays: list[Action] = []
    lead = leader
    for trick, taker in zip(tricks, takers, strict=True):
        ordered = sorted(trick, key=rank_key)
        low, high = ordered[0], ordered[-1]
        if surprise:  # the revealed card is the lowest (High) or the highest (Low)
            rising = not (rules.cant_beat_em and five[low.rank])
            reveal = low if rising else high
            reveals.append(reveal)
            rest = ordered[1:] if rising else ordered[:-1]
            best = rest[-1] if rising else rest[0]
            middle = rest[:-1] if rising else rest[1:]
            seats = [(lead + k) % n for k in range(n)]
            cards: dict[int, Card] = {taker: best}
            others = [s for s in seats if s != taker]
        else:  # the lead is the lowest (High) or the highest (Low); the taker plays the other extreme
            rising = not five[low.rank]
            first, best = (low, high) if rising else (high, low)
            middle = ordered[1:-1]
            seats = [(lead + k) % n for k in range(n)]
            cards = {lead: first, taker: best}
            others = [s for s in seats if s not in cards]
        rng.shuffle(middle)
        for s, c in zip(others, middle, strict=True):
            cards[s] = c
        for s in seats:
            hands[s].append(cards[s])
            plays.append(Play(s, cards[s]))
        lead = taker
    stock: list[Card] = []
    if surprise:
        stock = reveals + ([] if rules.cant_beat_em else spare)
    deal = Deal(hands=hands, stock=stock, leader=leader if len(tied) > 1 else None)
    try:
        after = apply(state, deal)
        for a in plays:
            after = apply(after, a)
    except IllegalMoveError:
        return None
    if after.match.rounds != m.rounds + 1:
        return None
    return after


class CatastropheSampling(Sampling):
    """Catastrophe's sampling: the stock starts with the revealed cards; earlier hands are built.

    Example:
        >>> type(CatastropheSampling()).__name__
        'CatastropheSampling'
    """

    __slots__ = ()

    def complete_deal(
        self,
        state: State,
        known: tuple[tuple[Card, ...], ...],
        dealt: Dealt,
        events: tuple[Event, ...],
        allowed: Callable[[int, Card], bool],
        rng: random.Random,
    ) -> Deal | None:
        """See `complete_deal`: the stock starts with the revealed cards."""
        return complete_deal(state, known, dealt, events, allowed, rng)

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """See `rebuild_hand`: a hand built to end with the view's cucumbers, else searched for."""
        found = rebuild_hand(state, view.results[index], rng)
        return found if found is not None else super().rebuild_round(state, view, index, rng)
