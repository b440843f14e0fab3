"""Rebuilding a finished round: any legal round that ends with the result a view reports."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..actions import Deal
from ..cards import DECKS, Card
from ..engine import apply, legal_moves
from ..errors import IllegalMoveError
from ..game import game_of
from ..state import CHANCE, RoundResult, State, result_rows

if TYPE_CHECKING:
    pass


# --------------------------------------------------------------------------- rebuilding a round


def round_distance(result: RoundResult, target: RoundResult) -> int:
    """How far a round's result is from the wanted one (0 when equal), for `search_round`.

    Example:
        >>> import cucumber_rules as cr
        >>> round_distance(cr.RoundResult(1, (0, 3), (0, 3)), cr.RoundResult(1, (0, 5), (0, 5)))
        5
    """
    if result == target:
        return 0
    points: int = sum(abs(a - b) for a, b in zip(result.points, target.points, strict=True))
    totals: int = sum(abs(a - b) for a, b in zip(result.totals, target.totals, strict=True))
    return 1 + points + totals


def search_round(
    state: State,
    target: Any,
    rng: random.Random,
    *,
    budget: int = 6000,
    accept: Callable[[State], bool] | None = None,
) -> State | None:
    """Find a legal round from `state` (a deal due) whose result equals `target`, by local search.

    The default of `Game.rebuild_round`, knowing nothing of the game: deals from
    the game's own dealer, played out with a seeded random policy, are improved
    by swapping cards (between hands, or with the undealt cards) while the
    result gets no further from `target` (`round_distance`), with restarts.
    At most `budget` rounds are played. A game whose results are rare under
    random play should override `rebuild_round` with a construction.

    Args:
        state: A state where the round's deal is due.
        target: The wanted `RoundResult` (as `view.results` holds it).
        rng: The random generator.
        budget: The most rounds to play.
        accept: Also required of the state after the round (default: nothing more).

    Returns:
        The state after the round, or None if the budget ran out.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
        >>> target = cr.LadderResult(1, (0, 9), (0, 9), payer=1, card=cr.card("9H"))
        >>> after = search_round(s, target, random.Random(1))
        >>> after.match.results[0] == target
        True
    """
    game = game_of(state)
    number = state.match.rounds
    deck = DECKS[state.rules.deck]
    spent = 0

    def play_out(deal: Deal, seed: float) -> State | None:
        try:
            s = apply(state, deal)
        except IllegalMoveError:
            return None
        policy = random.Random(seed)
        while s.match.rounds == number and s.to_act is not None and s.to_act != CHANCE:
            s = apply(s, policy.choice(legal_moves(s)))
        return s

    def distance(s: State | None) -> int:
        if s is None or s.match.rounds != number + 1:
            return 1 << 30
        d = round_distance(result_rows(s.match)[0][number], target)
        if d == 0 and accept is not None and not accept(s):
            return 1
        return d

    while spent < budget:
        deal = game.sample_deal(state, rng)
        seed = rng.random()
        current = play_out(deal, seed)
        score = distance(current)
        spent += 1
        stale = 0
        while score and stale < 150 and spent < budget:
            candidate = _mutate(deal, deck, rng)
            after = play_out(candidate, seed)
            d = distance(after)
            spent += 1
            if d <= score:
                stale = stale + 1 if d == score else 0
                deal, current, score = candidate, after, d
            else:
                stale += 1
        if score == 0:
            return current
    return None


def _mutate(deal: Deal, deck: Sequence[Card], rng: random.Random) -> Deal:
    """A deal like `deal` with two cards swapped: between two hands, or a hand and the undealt cards."""
    hands = [list(h) for h in deal.hands]
    dealt = [s for s, h in enumerate(hands) if h]
    left = Counter(deck)
    left.subtract(c for h in hands for c in h)
    left.subtract(deal.stock)
    spare = [c for c, k in left.items() if k > 0]
    a = rng.choice(dealt)
    i = rng.randrange(len(hands[a]))
    if spare and (len(dealt) < 2 or rng.random() < 0.5):
        hands[a][i] = rng.choice(spare)
    else:
        b = rng.choice([s for s in dealt if s != a])
        j = rng.randrange(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return Deal(hands=hands, stock=deal.stock, leader=deal.leader)
