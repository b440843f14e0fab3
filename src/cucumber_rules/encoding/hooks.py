"""What a game says about its numbers for machine learning: the `Encoding` hook group (`Game.encoding`).

Beside the group, what its defaults and the rest of the package share: a rule set's action ids
(`ActionTable`, `action_table`), the plan of a deal (`DealPlan`, `default_deal_plan`) and the
common parts of an observation (`common_parts`, `common_observation`, `relative`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import attrs

from ..actions import Decision, seat_number
from ..cards import CARD_BY_INDEX, DECKS, Card
from ..game import GameBase, HookGroup, game_of
from ..rules import Rules
from ..state import State
from ..values import Value
from ..views import PlayerView, Views

__all__ = [
    "ActionTable",
    "DealPlan",
    "Encoding",
    "action_table",
    "common_observation",
    "common_parts",
    "default_deal_plan",
    "player_count",
    "relative",
]


class Encoding(HookGroup):
    """The hook group `cucumber_rules.encoding` asks: `Game.encoding` (see `Game`).

    The defaults fit a game whose actions are its deck's distinct cards, whose
    observation is the common layout (`encoding.common_parts`) and whose deals are
    uniform over its deck.

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.GAMES["ladder"].encoding).__name__
        'LadderEncoding'
        >>> len(cr.Game.encoding.action_cards(cr.ruleset("agurk")))
        52
    """

    __slots__ = ()
    attribute = "encoding"  # (`Game.encoding`)

    def action_cards(self, rules: Rules) -> tuple[Card, ...]:
        """The cards a seat may play, in action-id order: ids `0..len-1` (default: each distinct card
        of `rules.deck`, in card order).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].encoding.action_cards(cr.ruleset("five-cucumbers"))[:3]
            (card('1'), card('2'), card('3'))
        """
        return tuple(dict.fromkeys(DECKS[rules.deck]))

    def action_decisions(self, rules: Rules, seat: int) -> tuple[Decision, ...]:
        """Every decision `seat` may take under `rules`, in action-id order after the cards (default:
        none). There must be as many for every seat.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].encoding.action_decisions(cr.ruleset("agurk", revival=True), 0)
            (Revive(seat=0, accept=True), Revive(seat=0, accept=False))
        """
        return ()

    def observation_parts(self, rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
        """The named parts of the observation vector, with sizes (default: `encoding.common_parts`).

        Example:
            >>> import cucumber_rules as cr
            >>> Encoding().observation_parts(cr.ruleset("gurka"), 2)[:2]
            (('hand', 52), ('seen', 52))
        """
        return common_parts(rules, players)

    def observe(self, view: PlayerView) -> list[float]:
        """A seat's view as the floats `observation_parts` lays out (`encoding.common_observation`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> parts = Encoding().observation_parts(s.rules, 2)
            >>> len(Encoding().observe(cr.view(s, 0))) == sum(size for _, size in parts)
            True
        """
        return common_observation(view)

    def deal_plan(self, state: State) -> DealPlan:
        """How the deal due now is made, for dealing it card by card (`encoding.DealPlan`).

        The default (`encoding.default_deal_plan`) fits deals that are uniform over `rules.deck`.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
            >>> plan = cr.GAMES["ladder"].encoding.deal_plan(s)
            >>> plan.hands, plan.stock, len(plan.deck)
            ((1, 1), 0, 52)
        """
        return default_deal_plan(game_of(state), state)

    def observation_bounds(self, rules: Rules, players: int) -> dict[str, tuple[float, float]]:
        """The lowest and highest value of the observation's parts whose range depends on the game's
        scoring (`totals`, `round`, the game's own parts), by part name (default: none known, so
        `encoding.observation_bounds` gives them `±UNKNOWN_BOUND`). Flags and card counts are known
        without the game.

        Example:
            >>> import cucumber_rules as cr
            >>> Encoding().observation_bounds(cr.ruleset("agurk"), 3)
            {}
            >>> ladder = cr.GAMES["ladder"].encoding
            >>> ladder.observation_bounds(cr.ruleset("gurka", fixed_rounds=10), 3)["totals"]
            (0.0, 140.0)
        """
        return {}


# --------------------------------------------------------------------------- action ids


@attrs.frozen
class ActionTable(Value):
    """A rule set's action ids, worked out once (`action_table`): its action cards, then its decisions.

    Example:
        >>> import cucumber_rules as cr
        >>> t = action_table(cr.ruleset("five-cucumbers"))
        >>> len(t.cards), t.ids[cr.card("1").index], t.decisions
        (15, 0, 0)
    """

    cards: tuple[Card, ...]
    """The cards a seat may play, in id order (the game's `Encoding.action_cards`)."""
    ids: tuple[int, ...]
    """Card id by `Card.index` (-1 for cards outside the deck)."""
    decisions: int
    """How many decisions a seat has (`Encoding.action_decisions`), after the cards."""


#: The encodings last asked for, by the identity of their rules (kept alive here): a rules object
#: equal to another but not the same one would cost a full comparison in `_equal_table`'s cache.
_BY_IDENTITY: dict[int, tuple[Rules, ActionTable]] = {}


def action_table(rules: Rules) -> ActionTable:
    """A rule set's `ActionTable` (worked out once per rule set; the frameworks' hot paths ask for it often).

    Example:
        >>> import cucumber_rules as cr
        >>> action_table(cr.ruleset("agurk")) is action_table(cr.ruleset("agurk"))
        True
    """
    found = _BY_IDENTITY.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    encoding = _equal_table(rules)
    if len(_BY_IDENTITY) >= 64:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(rules)] = (rules, encoding)  # one whole entry, published at once
    return encoding


@functools.lru_cache(maxsize=64)
def _equal_table(rules: Rules) -> ActionTable:
    game = game_of(rules)
    hooks = Encoding.of(game)
    cards = tuple(hooks.action_cards(rules))
    ids = [-1] * len(CARD_BY_INDEX)
    for i, c in enumerate(cards):
        if ids[c.index] != -1:
            raise ValueError(f"{game.name}: action_cards lists {c} twice")
        ids[c.index] = i
    return ActionTable(cards, tuple(ids), len(hooks.action_decisions(rules, 0)))


# --------------------------------------------------------------------------- deals, card by card


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
        >>> from cucumber_rules.encoding import deal_plan
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


def default_deal_plan(game: GameBase[State], state: State) -> DealPlan:
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


# --------------------------------------------------------------------------- the common observation


def player_count(rules: Rules, players: object) -> int:
    """The player count as an int, checked as `max_actions` checks it: within the rules' range.

    Raises:
        TypeError: If `rules` is not a `Rules` or `players` is not an integer.
        ValueError: If `players` is outside the rules' range.

    Example:
        >>> import cucumber_rules as cr
        >>> player_count(cr.ruleset("agurk"), 3)
        3
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (see ruleset()), not {type(rules).__name__}")
    n = seat_number(players, "players must be an int")
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}")
    return n


def common_parts(rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
    """The parts every game's observation starts with, as (name, size) (see the module docstring).

    Raises:
        TypeError: If `rules` is not a `Rules` or `players` is not an integer.
        ValueError: If `players` is outside the rules' range.

    Example:
        >>> import cucumber_rules as cr
        >>> dict(common_parts(cr.ruleset("agurk"), 3))["trick"]
        156
    """
    k = len(action_table(rules).cards)
    n = player_count(rules, players)
    return (
        ("hand", k),
        ("seen", k),
        ("trick", n * k),
        ("leader", n),
        ("to_act", n),
        ("hand_sizes", n),
        ("totals", n),
        ("round", 1),
    )


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
    rules = view.rules
    e = action_table(rules)
    ids = e.ids
    k = len(e.cards)
    n = len(view.players)
    me: int = view.seat  # type: ignore[assignment]
    # One list of zeros, the counts and flags set in place (a view's observation is made at every
    # decision of a learning run).
    out = [0.0] * (2 * k + n * k + 2 * n)
    for c in view.hand:
        out[ids[c.index]] += 1.0
    for t in view.tricks:
        for p in t.plays:
            out[k + ids[p.card.index]] += 1.0
    for c in Views.of(game_of(rules)).view_cards(view):
        out[k + ids[c.index]] += 1.0
    base = 2 * k
    for p in view.trick:
        out[base + (p.seat - me) % n * k + ids[p.card.index]] = 1.0
    base += n * k
    if view.leader is not None:
        out[base + (view.leader - me) % n] = 1.0
    to_act = view.to_act
    if to_act is not None and to_act >= 0:
        out[base + n + (to_act - me) % n] = 1.0
    sizes, totals = view.hand_sizes, view.totals
    order = [*range(me, n), *range(me)]
    out += [float(sizes[s]) for s in order]
    out += [float(totals[s]) for s in order]
    out.append(float(view.round_number))
    return out


def relative(values: Sequence[float], viewer: int) -> list[float]:
    """Per-seat values reordered from the viewer's seat on (for games' own observation parts).

    Example:
        >>> relative([10.0, 11.0, 12.0], 1)
        [11.0, 12.0, 10.0]
    """
    n = len(values)
    return [float(values[(viewer + r) % n]) for r in range(n)]
