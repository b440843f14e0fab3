"""The ladder's part of hidden-information sampling: rebuilding an earlier round from its result.

Only a round's last trick scores, so a round with a given result is built from
its last trick: the payer keeps the paid card, the seats that earned a tie bonus
keep cards of its rank, the 1s that doubled the penalty go to other seats, and
every other seat keeps a lower card (or one of the same rank, if none is lower).
Random other cards fill the hands, and the earlier tricks are played at random,
each seat keeping its last card (half the tries mostly shed the highest legal
card, as a cautious player does, and so keep low cards). The engine replays each try and keeps the first
whose result is the wanted one (with `reverse`, the payer and the seats of its
rank hold the lowest cards, another seat the paid one); when the tries fail (or
for an all-1s last trick) the game falls back to the generic search
(`cucumber_rules.sampling.search_round`).

Checking a loaded view (`LadderViews.check_view`) needs no cards of the earlier rounds:
`fold_results` rebuilds each result from a last trick alone (`score_round`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

import attrs

from ...actions import PLAY_OF, Play, trusted_deal
from ...cards import BY_INDEX, Card
from ...engine import apply, legal_moves
from ...errors import IllegalMoveError, InvalidStateError
from ...history import EMPTY
from ...sampling import Sampling
from ...state import CHANCE, State
from ...tricks import state_builder
from ..registry import game_of
from .rules import LadderRules
from .types import LadderMatch, LadderResult, LadderState, Revive, dealt_seats

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from ...state import RoundResult
    from ...views import PlayerView

__all__ = [
    "LadderSampling",
    "decide_revivals",
    "fold_results",
    "rebuild_round",
    "score_round",
]

_new_state = state_builder(LadderState)

#: Deals tried before the generic search.
ATTEMPTS = 200


def rebuild_round(state: State, target: Any, rng: random.Random) -> State | None:
    """A legal round from `state` (its deal due) whose result is `target`, or None.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> target = cr.LadderResult(1, (0, 12, 0), (0, 12, 0), payer=1, card=cr.card("QH"))
        >>> rebuild_round(s, target, random.Random(1)).match.results[0] == target
        True
    """
    m = cast("LadderMatch", state.match)
    rules = m.rules
    plan = rules._plan
    rank = target.card.rank
    if rank == min(c.rank for c in plan.deck):
        return None
    seats = dealt_seats(m)
    payer = target.payer
    ties = [s for s in seats if s != payer and target.points[s] < 0]
    ones = 0
    value = plan.value[rank]
    if rules.doubling != "none" and value:
        ratio = target.points[payer] // value
        ones = ratio.bit_length() - 1 if rules.doubling == "per-one" else (1 if ratio == 2 else 0)
    doubled = rules.doubling != "none"
    others = [s for s in seats if s != payer and s not in ties]
    if ones > len(others):
        return None
    for _ in range(ATTEMPTS):
        found = _attempt(state, target, seats, payer, ties, ones, others, doubled, rng)
        if found is not None:
            return found
    return None


def _attempt(
    state: State,
    target: Any,
    seats: tuple[int, ...],
    payer: int,
    ties: list[int],
    ones: int,
    others: list[int],
    doubled: bool,
    rng: random.Random,
) -> State | None:
    rules = cast("LadderRules", state.match.rules)
    card: Card = target.card
    rank = card.rank
    pool = list(rules._plan.deck)
    pool.remove(card)
    rng.shuffle(pool)
    last: dict[int, Card] = {payer: card}

    def take(fits: Any) -> Card | None:
        for i, c in enumerate(pool):
            if fits(c):
                return pool.pop(i)
        return None

    chosen = list(others)
    rng.shuffle(chosen)
    if rules.reverse:  # the lowest card pays: the payer holds some rank below the taken card's
        return _reverse(state, target, seats, payer, ties, chosen, pool, last, rng)
    wanted = [(s, lambda c: c.rank == rank) for s in ties]
    wanted += [(s, lambda c: c.rank == 1) for s in chosen[:ones]]
    wanted += [(s, lambda c: c.rank < rank and not (doubled and c.rank == 1)) for s in chosen[ones:]]
    for s, fits in wanted:
        # No lower card left (the paid card is the lowest but for 1s): the same rank, played before
        # the payer's, takes nothing (it earns a tie bonus only where that rule is on).
        got = take(fits) or take(lambda c: c.rank == rank)
        if got is None:
            return None
        last[s] = got
    return _play_out(state, target, seats, last, pool, rng)


def _reverse(
    state: State,
    target: Any,
    seats: tuple[int, ...],
    payer: int,
    ties: list[int],
    others: list[int],
    pool: list[Card],
    last: dict[int, Card],
    rng: random.Random,
) -> State | None:
    """A last trick for `reverse`: someone takes the paid card, the payer (and ties) hold the lowest."""
    card: Card = target.card
    rank = card.rank
    del last[payer]
    pool.append(card)
    if not others:  # only the payer and the seats of its rank: every card of one rank, the payer's last
        wanted = [(payer, -1), *((s, rank) for s in ties)]
    else:
        taker = others[0]
        low = rng.choice([r for r in range(1, rank) if any(c.rank == r for c in pool)] or [0])
        if low == 0:
            return None
        wanted = [(taker, -1), (payer, low), *((s, low) for s in ties)]
        wanted += [(s, rng.randint(low + 1, rank) if low + 1 <= rank else rank) for s in others[1:]]
    for s, r in wanted:
        got = card if r == -1 else next((c for c in pool if c.rank == r), None)
        if got is None:
            return None
        pool.remove(got)
        last[s] = got
    return _play_out(state, target, seats, last, pool, rng)


def _play_out(
    state: State,
    target: Any,
    seats: tuple[int, ...],
    last: dict[int, Card],
    pool: list[Card],
    rng: random.Random,
) -> State | None:
    """Deal each seat its last card and random others; play the earlier tricks keeping the last cards."""
    rules = cast("LadderRules", state.match.rules)
    n = len(state.match.players)
    hands: list[tuple[Card, ...]] = [()] * n
    for s in seats:  # (shared cards, sorted as a `Deal` keeps them: no conversion; `apply` still checks it)
        hands[s] = tuple(sorted([last[s], *(pool.pop() for _ in range(rules.hand_size - 1))], key=BY_INDEX))
    try:
        after = apply(state, trusted_deal(tuple(hands)))
    except IllegalMoveError:
        return None
    number = state.match.rounds
    keep = {s: last[s] for s in seats}
    shed = rng.random() < 0.5  # half the tries shed high cards (and so keep low ones), half play at random
    rnd = rng.random
    while after.match.rounds == number and after.to_act is not None and after.to_act != CHANCE:
        seat = after.to_act
        moves = legal_moves(after)
        if len(after.held[seat]) > 1:  # (at its turn a seat's held cards are its hand)
            kept = keep[seat]
            moves = tuple([a for a in moves if type(a) is not Play or a.card is not kept]) or moves
        after = apply(after, moves[-1] if shed and rnd() < 0.8 else moves[int(rnd() * len(moves))])
    if after.match.rounds != number + 1 or after.match.results[number] != target:
        return None
    return after


# --------------------------------------------------------------------------- checking a loaded view


def fold_results(view: PlayerView, count: int) -> State:
    """The state before round `count + 1` of the view's match, rebuilt from its first `count` results.

    Each round is rebuilt by `score_round` from its last trick alone, and followed by the
    revival decisions the view shows (`decide_revivals`). The state's history holds those
    last tricks only: it serves to check the view, not to replay.

    Raises:
        InvalidStateError: Naming the first result the ladder's scoring cannot give.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
        >>> s = cr.apply_all(s, [cr.Deal(hands=[["9C"], ["2D"]]), cr.Play(0, "9C"), cr.Play(1, "2D")])
        >>> fold_results(cr.view(s, 0), 1).match == s.match
        True
    """
    from ...engine import new_game

    state = new_game(view.rules, view.players, first=view.first)
    rules = view.rules
    assert isinstance(rules, LadderRules)
    deck = _Deck(rules, len(view.players))
    for index in range(count):
        target = cast("LadderResult", view.results[index])
        if state.to_act != CHANCE:
            raise InvalidStateError(f"$.results[{index}]", f"the match was over after round {index}")
        if target.payer not in dealt_seats(cast("LadderMatch", state.match)):
            raise InvalidStateError(
                f"$.results[{index}].payer", f"seat {target.payer} was not dealt in to round {index + 1}"
            )
        after = score_round(state, target, deck)
        if after is None or after.match.results[-1] != target:
            raise _misfit(index, target, None if after is None else after.match.results[-1])
        state = decide_revivals(after, view, index)
    return state


def decide_revivals(state: State, view: PlayerView, index: int) -> State:
    """The revival decisions after round `index` (0-based), as the view shows them.

    A seat eliminated with the revival rule decided to buy back in exactly when it sat out
    the next round: it came back at that round's end (`returned`), or sits out the round
    in play (`sitting_out`).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> decide_revivals(s, cr.view(s, 0), 0) is s
        True
    """
    m = cast("LadderMatch", state.match)
    for seat in m.pending:
        later = cast("LadderResult", view.results[index + 1]) if index + 1 < len(view.results) else None
        back = seat in later.returned if later is not None else seat in view.sitting_out
        state = apply(state, Revive(seat, back))
    return state


def score_round(state: State, target: Any, deck: _Deck | None = None) -> State | None:
    """The state after a round from `state` (its deal due) that ends with `target`, or None.

    Only the last trick scores, so only it is played: each seat dealt in holds one card,
    chosen to give `target` (the payer the paid card, the seats of its tie bonus cards of
    its rank, the 1s that doubled the penalty, lower cards for the others), in an order
    the engine scores as wanted; a few such tricks are tried. The engine plays and scores
    it, so the result and the match after it are the engine's own. The earlier tricks are
    left out (any seat can have taken the one before the last, and so lead the last,
    unless a round is a single trick). The closest state found if no such trick gives
    `target` (its result differs), or None if no trick could be laid out at all. `deck`:
    the rules' cards by rank (worked out once for a whole match).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> target = cr.LadderResult(1, (0, 12, 0), (0, 12, 0), payer=1, card=cr.card("QH"))
        >>> score_round(s, target).match.results[-1] == target
        True
    """
    m = cast("LadderMatch", state.match)
    game = game_of(m)
    n = len(m.players)
    if state.to_act != CHANCE or target.payer not in dealt_seats(m) or len(target.points) != n:
        return None
    rules = m.rules
    deck = deck if deck is not None else _Deck(rules, n)
    # No cards: the engine chooses the dealer and the leader and lays out the table. No history
    # either: only the match matters here (a long fold keeps no actions alive).
    bare = _new_state(CHANCE, m, None, state.held, (), None, None, EMPTY, None)
    started = game.start_round(bare, deck.no_cards)
    table = started.table
    assert table is not None
    found: State | None = None
    fixed = table.leader if rules.hand_size == 1 else None  # (a round of one trick: the round's leader)
    for leader, cards in deck.last_tricks(table.seats, table.after, target, fixed):
        plays = {s: PLAY_OF[s][c] for s, c in cards.items()}
        held = tuple((plays[s],) if s in plays else () for s in range(n))
        at = table if leader == table.leader else attrs.evolve(table, leader=leader)
        after = _new_state(leader, started.match, at, held, (), None, None, started.past, None)
        for _ in table.seats:
            seat = after.to_act
            assert seat is not None
            after = game.play(after, plays[seat])
        if after.match.results[-1] == target:
            return after
        found = found or after
    return found


def _misfit(index: int, target: RoundResult, got: RoundResult | None) -> InvalidStateError:
    """The error for a result the scoring does not give: the first field that differs from `got`."""
    where = f"$.results[{index}]"
    if got is None:
        return InvalidStateError(where, "no last trick of the round gives this result")
    for field in attrs.fields(type(target)):
        want, have = getattr(got, field.name), getattr(target, field.name)
        if want != have:
            shown = str(want) if type(want) is Card else repr(list(want) if type(want) is tuple else want)
            return InvalidStateError(
                f"{where}.{field.name}", f"does not match what the ladder's scoring gives (expected {shown})"
            )
    return InvalidStateError(where, "not a result of the ladder's scoring")  # pragma: no cover


class _Deck:
    """A rule set's cards by rank, for laying out last tricks (worked out once per match)."""

    def __init__(self, rules: LadderRules, players: int) -> None:
        self.rules = rules
        plan = rules._plan
        by_rank: dict[int, list[Card]] = {}
        for c in plan.deck:
            by_rank.setdefault(c.rank, []).append(c)
        self.by_rank = {rank: tuple(cards) for rank, cards in by_rank.items()}
        self.ranks = tuple(sorted(by_rank))
        self.no_cards = trusted_deal(((),) * players)

    def last_tricks(
        self, seats: tuple[int, ...], after: tuple[int, ...], target: Any, fixed: int | None
    ) -> Iterator[tuple[int, dict[int, Card]]]:
        """Last tricks that may give `target`: a leader, and each seat's card.

        The payer plays last, so its card is the last of its rank (an Ace it leads instead,
        where a led Ace keeps the trick); the seats with a tie bonus (negative points) hold
        cards of the paid rank; the number of 1s is the one the penalty's doubling says; the
        others hold lower cards (cards of the paid rank when none are left). With `reverse`,
        the lowest card pays: the payer and its ties hold the lowest rank, another seat the
        taken card, the others ranks between (or, when every card is of one rank, the payer
        holds the taken card). `fixed`: the leader when it cannot be chosen (a round of one
        trick).
        """
        rules = self.rules
        plan = rules._plan
        payer: int = target.payer
        taken: Card = target.card
        top = taken.rank
        ties = [s for s in seats if s != payer and target.points[s] < 0]
        others = [s for s in seats if s != payer and s not in ties]
        payer_last = after[payer] if fixed is None else fixed  # (the seat after the payer leads)
        ace_leads = payer if fixed is None and top == plan.ace else payer_last
        ranks = self.ranks
        for ones in _ones_counts(rules, top, target.points[payer], len(seats)):
            if not rules.reverse:
                take = self._pool(taken)
                cards = {payer: taken}
                low = [r for r in ranks if r < top and not (ones is not None and r == 1)]
                for s in ties:
                    cards[s] = take((top,))
                for i, s in enumerate(others):
                    one = ones is not None and i < ones and top > 1
                    cards[s] = take((1,) if one else (*low, top))
                if None not in cards.values():
                    yield ace_leads, cards
                continue
            # reverse: the lowest card pays, the highest is taken
            lowest = [1] if ones else [r for r in ranks if r < top and (ones is None or r != 1)]
            for paying in lowest:
                if not others:
                    break
                take = self._pool(taken)
                cards = {others[0]: taken}
                for s in (payer, *ties):
                    cards[s] = take((paying,))
                between = tuple(r for r in ranks if paying < r < top)
                for s in others[1:]:
                    cards[s] = take((*between, top))
                if None not in cards.values():
                    yield payer_last, cards
                    break
            # Every card of one rank: the payer (last) also takes, unless an Ace led keeps the trick.
            for holder in dict.fromkeys((payer, payer_last)):
                take = self._pool(taken)
                cards = {holder: taken}
                for s in seats:
                    if s != holder:
                        cards[s] = take((top,))
                if None not in cards.values():
                    yield payer_last, cards

    def _pool(self, taken: Card) -> Callable[[tuple[int, ...]], Card]:
        """A fresh pool of the deck's cards but `taken`: `take(ranks)` gives a card of the first of
        `ranks` that has one left (None when none has: the caller drops that trick)."""
        by_rank = self.by_rank
        used: dict[int, int] = {}
        rest = list(by_rank[taken.rank])
        rest.remove(taken)

        def take(ranks: tuple[int, ...]) -> Card:
            for rank in ranks:
                if rank == taken.rank:
                    if rest:
                        return rest.pop()
                    continue
                cards = by_rank.get(rank, ())
                i = used.get(rank, 0)
                if i < len(cards):
                    used[rank] = i + 1
                    return cards[i]
            return None  # type: ignore[return-value]  # (the caller checks for None)

        return take


def _ones_counts(rules: LadderRules, rank: int, amount: int, seats: int) -> list[int | None]:
    """How many 1s the last trick may hold for its payer to pay `amount` for a card of `rank`.

    None: any number (the 1s double nothing); else the candidates, fewest first.
    """
    value = rules._plan.value[rank]
    if rules.doubling == "none" or value == 0:
        return [None]
    if rules.doubling == "once":
        return [0] if amount == value else [1] if amount == 2 * value else []
    ratio, rest = divmod(amount, value)
    if rest or ratio < 1 or ratio & (ratio - 1):
        return []
    ones = ratio.bit_length() - 1
    return [ones] if ones <= seats else []


class LadderSampling(Sampling):
    """The ladder's sampling: an earlier round rebuilt from its last trick, then its revival decision.

    Example:
        >>> type(LadderSampling()).__name__
        'LadderSampling'
    """

    __slots__ = ()

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """A round built from its last trick (`rebuild_round`; else searched for with the generic
        `cucumber_rules.sampling.search_round`), then the revival decision it led to (`decide_revivals`).
        """
        found = rebuild_round(state, view.results[index], rng)
        after = found if found is not None else super().rebuild_round(state, view, index, rng)
        return decide_revivals(after, view, index)
