"""Numbers for machine learning: action ids, legal-action masks, observation vectors and card-by-card chance.

Everything here is plain Python (tuples of ints, floats and bools); the
framework adapters (`cucumber_rules.openspiel`, `cucumber_rules.pettingzoo`)
turn it into arrays. Each game decides its own encodings through hooks on its
[`Game`][cucumber_rules.Game] (`action_cards`, `action_decisions`,
`observation_parts`, `observe`, `deal_plan`), with defaults that fit any game
played with one of the library's decks, so a third-party game gets them too.

**Actions.** A rule set has `num_actions(rules)` action ids, the same for every
seat: first every distinct card of the deck in card order (id 0 is the lowest
card: `2C` on a 52-card deck, `1` on a numbered one; Five Cucumbers' four copies
of a card are one id), then the game's decisions (the ladder games with
`revival=True`: `Revive(seat, True)`, then `Revive(seat, False)`). A `Play` of a
card has that card's id whoever plays it; `action_of(rules, seat, id)` gives the
seat's action back. Ids never change for a given rule set.

**Observations.** `observation(view)` is a tuple of `observation_size(rules,
players)` floats, seats counted from the viewer (relative seat `r` is seat
`(viewer + r) % players`, so the viewer is always 0). `observation_parts` names
its parts in order; every game starts with the common parts (`common_parts`):

| part | size | holds |
|---|---|---|
| `hand` | K | copies of each card in the viewer's hand (K = distinct cards) |
| `seen` | K | copies of each card seen this round: completed tricks' cards, cards turned up (Surprise) |
| `trick` | n × K | for each relative seat, the card it played in the current trick (1.0), if any |
| `leader` | n | the relative seat that leads the current trick (1.0) |
| `to_act` | n | the relative seat to act (1.0); all 0 at a deal and once over |
| `hand_sizes` | n | cards in each relative seat's hand |
| `totals` | n | each relative seat's total (points or cucumbers) |
| `out` | n | 1.0 for each relative seat out of the match |
| `round` | 1 | the round (hand) in play or just finished: 1 for the first, 0 before the first deal |

The ladder games add `marks` (n: cucumber marks, Agurk), `sitting_out` (n) and
`pending` (n: seats to decide on revival); Catastrophe adds `marker` (4: High,
Low, High broken, Low broken), `revealed` (K: the current trick's card turned up
in Surprise Cucumber) and `captured` (n: cucumbers each relative seat captured
this hand). Values are raw counts, not scaled.

**Chance, card by card.** `sample_chance` draws a whole deal at once; a search
or learning framework that wants every chance event as a node of its own (each
card dealt) uses `deal_plan`, `chance_outcomes` and `chance_deal`: the deal is
drawn one card at a time, hand by hand in seat order, then the stock cards the
round needs (Surprise Cucumber's reveals), then the starter among tied seats
(Catastrophe), with exactly the probabilities of `sample_chance`'s deals.
Chance outcome ids are card ids (`0..K-1`) and `K + seat` for a starter.

Example:
    >>> import cucumber_rules as cr, random
    >>> rules = cr.ruleset("gurka")
    >>> cr.num_actions(rules), cr.action_id(rules, cr.Play(1, "2C")), cr.action_of(rules, 1, 51)
    (52, 0, Play(seat=1, card=card('AS')))
    >>> s = cr.new_game(rules, players=3)
    >>> s = cr.apply(s, cr.sample_chance(s, random.Random(1)))
    >>> sum(cr.legal_mask(s)), len(cr.observation(cr.view(s, 0))) == cr.observation_size(rules, 3)
    (7, True)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from ._values import Value
from .actions import MAX_SEATS, Action, Deal, Decision, Play, seat_number
from .cards import CARD_BY_INDEX, DECKS, Card
from .engine import legal_moves
from .rules import Rules
from .state import CHANCE, State
from .views import PlayerView

if TYPE_CHECKING:
    from .games import Game

__all__ = [
    "DealPlan",
    "action_id",
    "action_of",
    "chance_deal",
    "chance_outcomes",
    "common_observation",
    "common_parts",
    "deal_plan",
    "default_deal_plan",
    "legal_mask",
    "num_actions",
    "num_chance_outcomes",
    "observation",
    "observation_parts",
    "observation_size",
    "relative",
]


def _game(rules: Rules) -> Game:
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (see ruleset()), not {type(rules).__name__}")
    return type(rules)._game  # type: ignore[no-any-return]


@attrs.frozen
class _Encoding:
    """A rule set's action encoding, worked out once (internal)."""

    cards: tuple[Card, ...]
    ids: tuple[int, ...]
    """Card id by `Card.index` (-1 for cards outside the deck)."""
    decisions: int


@functools.lru_cache(maxsize=64)
def _encoding(rules: Rules) -> _Encoding:
    game = _game(rules)
    cards = tuple(game.action_cards(rules))
    ids = [-1] * len(CARD_BY_INDEX)
    for i, c in enumerate(cards):
        if ids[c.index] != -1:
            raise ValueError(f"{game.name}: action_cards lists {c} twice")
        ids[c.index] = i
    return _Encoding(cards, tuple(ids), len(game.action_decisions(rules, 0)))


def num_actions(rules: Rules) -> int:
    """How many action ids a rule set has: each distinct card of its deck, then the game's decisions.

    Raises:
        TypeError: If `rules` is not a `Rules`.

    Example:
        >>> import cucumber_rules as cr
        >>> [cr.num_actions(cr.ruleset(n)) for n in ("agurk", "five-cucumbers", "catastrophe")]
        [52, 15, 60]
        >>> cr.num_actions(cr.ruleset("agurk", revival=True))
        54
    """
    e = _encoding(rules)
    return len(e.cards) + e.decisions


def action_id(rules: Rules, action: Action) -> int:
    """The id of a player's action: its card's id for a `Play` (whoever plays it), else its decision's.

    Args:
        rules: The rule set.
        action: A `Play` or a decision of the game (a `Deal` has no id: see `chance_outcomes`).

    Returns:
        An id in `0..num_actions(rules) - 1`.

    Raises:
        ValueError: If the card is not in the deck or the decision is not one of the game's.
        TypeError: If `action` is not a `Play` or a `Decision`.

    Example:
        >>> import cucumber_rules as cr
        >>> r = cr.ruleset("gurka", revival=True)
        >>> cr.action_id(r, cr.Play(0, "2C")), cr.action_id(r, cr.Play(3, "AS"))
        (0, 51)
        >>> cr.action_id(r, cr.Revive(2, True)), cr.action_id(r, cr.Revive(2, False))
        (52, 53)
    """
    e = _encoding(rules)
    if type(action) is Play:
        found = e.ids[action.card.index]
        if found < 0:
            raise ValueError(f"{action.card} is not a card of the {rules.deck} deck ({rules.name})")
        return found
    if isinstance(action, Decision):
        decisions = _game(rules).action_decisions(rules, action.seat)
        for i, d in enumerate(decisions):
            if d == action:
                return len(e.cards) + i
        raise ValueError(f"{action} is not a decision of {rules.name}")
    if type(action) is Deal:
        raise TypeError("a Deal has no action id: chance outcomes have their own ids (see chance_outcomes)")
    raise TypeError(f"expected a Play or a Decision, not {type(action).__name__}")


def action_of(rules: Rules, seat: int, id: int) -> Play | Decision:
    """The action of `seat` that has this id (the inverse of `action_id`).

    Args:
        rules: The rule set.
        seat: The acting seat (any integer, not a bool).
        id: The action id (any integer, not a bool).

    Returns:
        A `Play` of the seat, or a decision of the seat.

    Raises:
        ValueError: If the id or the seat is out of range.
        TypeError: If `seat` or `id` is not an integer.

    Example:
        >>> import cucumber_rules as cr
        >>> r = cr.ruleset("agurk", revival=True)
        >>> cr.action_of(r, 2, 12), cr.action_of(r, 2, 52)
        (Play(seat=2, card=card('5C')), Revive(seat=2, accept=True))
    """
    seat = seat_number(seat, "seat must be an int")
    number = seat_number(id, "an action id is an int")
    if not 0 <= seat < min(rules.max_players, MAX_SEATS):
        raise ValueError(f"seat must be 0..{rules.max_players - 1} under {rules.name}, not {seat}")
    e = _encoding(rules)
    if 0 <= number < len(e.cards):
        return Play(seat, e.cards[number])
    if len(e.cards) <= number < len(e.cards) + e.decisions:
        return _game(rules).action_decisions(rules, seat)[number - len(e.cards)]
    top = len(e.cards) + e.decisions - 1
    raise ValueError(f"action id must be 0..{top} under {rules.name}, not {number}")


def legal_mask(state: State) -> tuple[bool, ...]:
    """One bool per action id: True where `legal_moves(state)` holds that id's action of the seat to act.

    All False at a deal (chance) and once the match is over.

    Raises:
        TypeError: If `state` is not a `State`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> [i for i, ok in enumerate(cr.legal_mask(s)) if ok]
        [0, 47]
    """
    if type(state) is not State:
        raise TypeError(f"expected a State, not {type(state).__name__}")
    rules = state.match.rules
    mask = [False] * num_actions(rules)
    for action in legal_moves(state):
        mask[action_id(rules, action)] = True
    return tuple(mask)


# --------------------------------------------------------------------------- observations


def _count(players: object) -> int:
    n = seat_number(players, "players must be an int")
    if not 1 <= n <= MAX_SEATS:
        raise ValueError(f"players must be 1..{MAX_SEATS}, not {n}")
    return n


def common_parts(rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
    """The parts every game's observation starts with, as (name, size) (see the module docstring).

    Example:
        >>> import cucumber_rules as cr
        >>> dict(common_parts(cr.ruleset("agurk"), 3))["trick"]
        156
    """
    k = len(_encoding(rules).cards)
    n = _count(players)
    return (
        ("hand", k),
        ("seen", k),
        ("trick", n * k),
        ("leader", n),
        ("to_act", n),
        ("hand_sizes", n),
        ("totals", n),
        ("out", n),
        ("round", 1),
    )


def observation_parts(rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
    """The named parts of a rule set's observation vector, in order, as (name, size).

    Raises:
        TypeError: If `rules` is not a `Rules` or `players` is not an integer.
        ValueError: If `players` is not a player count.

    Example:
        >>> import cucumber_rules as cr
        >>> [name for name, size in cr.observation_parts(cr.ruleset("catastrophe"), 4)][-3:]
        ['marker', 'revealed', 'captured']
    """
    return tuple(_game(rules).observation_parts(rules, _count(players)))


def observation_size(rules: Rules, players: int) -> int:
    """The length of `observation(view)` for a rule set and player count.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.observation_size(cr.ruleset("agurk"), 4), cr.observation_size(cr.ruleset("catastrophe"), 4)
        (345, 449)
    """
    return sum(size for _, size in observation_parts(rules, players))


def _relative(seat: int, viewer: int, n: int) -> int:
    return (seat - viewer) % n


def common_observation(view: PlayerView) -> list[float]:
    """The common parts of a view's observation (`common_parts`), as a list of floats.

    Example:
        >>> import cucumber_rules as cr
        >>> v = cr.view(cr.new_game(cr.ruleset("gurka"), players=2), 1)
        >>> len(common_observation(v)) == sum(size for _, size in common_parts(v.rules, 2))
        True
    """
    e = _encoding(view.rules)
    game = _game(view.rules)
    ids = e.ids
    k = len(e.cards)
    n = len(view.players)
    me: int = view.seat  # type: ignore[assignment]
    hand = [0.0] * k
    for c in view.hand:
        hand[ids[c.index]] += 1.0
    seen = [0.0] * k
    for t in view.tricks:
        for p in t.plays:
            seen[ids[p.card.index]] += 1.0
    for c in game.view_cards(view):
        seen[ids[c.index]] += 1.0
    trick = [0.0] * (n * k)
    for p in view.trick:
        trick[_relative(p.seat, me, n) * k + ids[p.card.index]] = 1.0
    leader = [0.0] * n
    if view.leader is not None:
        leader[_relative(view.leader, me, n)] = 1.0
    to_act = [0.0] * n
    if view.to_act is not None and view.to_act >= 0:
        to_act[_relative(view.to_act, me, n)] = 1.0
    order = [(me + r) % n for r in range(n)]
    return [
        *hand,
        *seen,
        *trick,
        *leader,
        *to_act,
        *(float(view.hand_sizes[s]) for s in order),
        *(float(view.totals[s]) for s in order),
        *(1.0 if view.eliminated[s] else 0.0 for s in order),
        float(view.round_number),
    ]


def relative(values: Sequence[float], viewer: int) -> list[float]:
    """Per-seat values reordered from the viewer's seat on (for games' own observation parts).

    Example:
        >>> relative([10.0, 11.0, 12.0], 1)
        [11.0, 12.0, 10.0]
    """
    n = len(values)
    return [float(values[(viewer + r) % n]) for r in range(n)]


def observation(view: PlayerView) -> tuple[float, ...]:
    """A seat's view as a fixed-length vector of floats, seats relative to the viewer.

    The layout is `observation_parts(view.rules, len(view.players))` (see the module docstring).

    Args:
        view: A seat's view (from `view(state, seat)`); a spectator's view has no seat to count from.

    Returns:
        `observation_size(rules, players)` floats.

    Raises:
        TypeError: If `view` is not a `PlayerView`.
        ValueError: For a spectator's view.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> obs = cr.observation(cr.view(s, 1))
        >>> [i for i in range(52) if obs[i]]  # the hand: 3H and AS
        [6, 51]
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"expected a PlayerView (from view(state, seat)), not {type(view).__name__}")
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to observe from: use view(state, seat)")
    values = tuple(_game(view.rules).observe(view))
    size = observation_size(view.rules, len(view.players))
    if len(values) != size:
        raise ValueError(f"{view.rules.game}: observe gave {len(values)} values, not {size}")
    return values


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
