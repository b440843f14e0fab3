"""Hidden-information sampling: a whole state consistent with what one seat knows.

[`sample_world`][cucumber_rules.sample_world] turns a
[`PlayerView`][cucumber_rules.PlayerView] into a full `State` (a
*determinization*, for search bots and for resampling in game frameworks):

- the current round's hidden cards are dealt at random among the deals that fit
  everything the view shows: the viewer's own hand, every hand's size, the cards
  each seat has played, the game's own public events (Catastrophe's revealed
  lead cards), and what the plays revealed: a seat that did not follow (or beat,
  or obey the Trick Marker) holds no card that would have been a legal play then.
  Those constraints come from the game's own rule of play: each play of a hidden
  seat is tried, through the game's `play_error`, against the seat's known
  cards plus one candidate card at a time;
- the earlier rounds, which a view sums up in `results`, are rebuilt by the game
  (`Game.rebuild_round`): any legal rounds that end with exactly those results.

The sampled state's whole history replays legally, and `view(world, v.seat) == v`.

**Uniformity.** Among the current round's consistent deals, the hidden cards
are first drawn by rejection (a shuffled deal kept only if every card fits its
seat), which is exactly uniform. When a few dozen tries all fail (late in a
round with many constraints) the sampler builds one consistent deal by bipartite
matching and then walks a swap chain (two cards of different seats trade places
when both fit), whose stationary distribution is uniform; after a bounded walk it
is close to uniform, not exactly. The earlier rounds are not sampled uniformly:
they are one legal way to reach the known results (they do not change what can
happen next).

Example:
    >>> import random
    >>> import cucumber_rules as cr
    >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
    >>> s = cr.apply(s, cr.sample_chance(s, random.Random(1)))
    >>> s = cr.apply(s, cr.legal_moves(s)[0])
    >>> v = cr.view(s, 2)
    >>> w = cr.sample_world(v, random.Random(5))
    >>> cr.view(w, 2) == v, cr.replay(cr.record(w)) == w
    (True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

from .actions import PLAY_OF, Action, Deal, Decision, Play
from .cards import DECKS, Card
from .engine import apply, legal_moves, new_game
from .errors import IllegalMoveError
from .games import game_of
from .state import CHANCE, RoundResult, State, new_state, result_rows
from .views import Dealt, PlayerView

if TYPE_CHECKING:
    from .games import Game
    from .views import Event

__all__ = [
    "WorldSampler",
    "assign_cards",
    "joined_hands",
    "remaining_cards",
    "round_distance",
    "sample_world",
    "search_round",
]

_INDEX: Final = attrgetter("index")

#: Shuffled deals tried (exactly uniform) before the matching-and-swaps fallback.
REJECTION_TRIES: Final = 48
#: Swap proposals per card of the pool in the fallback's chain.
SWAPS_PER_CARD: Final = 24
#: Deals sampled for a round before giving up (a game whose rule of play is not per card).
DEAL_TRIES: Final = 64


def sample_world(view: PlayerView, rng: random.Random) -> State:
    """A full state consistent with everything `view`'s seat knows, drawn with `rng`.

    The hidden cards of the current round are dealt at random among the deals
    that fit the view, including what play revealed (a seat that could not
    follow holds no card that would have been a legal play); the earlier rounds
    are rebuilt to end with the view's results. Then `view(world, view.seat) ==
    view` and `replay(record(world)) == world`. A spectator's view (seat None)
    hides every hand. See the module docs for how uniform the draw is.

    Args:
        view: A view from `cr.view(state, seat)` (or loaded from JSON).
        rng: The random generator to draw with (never the global `random` module).

    Returns:
        A state of the same match, at the same point, with every hidden card filled in.

    Raises:
        TypeError: If `view` is not a `PlayerView` or `rng` not a `random.Random`.
        ValueError: If no state fits the view (a tampered view), or the game could not
            rebuild an earlier round.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=4)
        >>> s = cr.apply(s, cr.sample_chance(s, random.Random(3)))
        >>> w = cr.sample_world(cr.view(s, 1), random.Random(4))
        >>> w.hands[1] == s.hands[1], cr.view(w, 1) == cr.view(s, 1)
        (True, True)
    """
    return WorldSampler(view, rng).sample(rng)


class WorldSampler:
    """`sample_world` in two steps, for drawing many worlds of one view (a search bot).

    Building it rebuilds the earlier rounds and works out the current round's
    constraints once; each `sample(rng)` then deals the hidden cards again.
    Every world it gives shares the same earlier rounds.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=3)
        >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
        >>> sampler = WorldSampler(cr.view(s, 0), random.Random(3))
        >>> worlds = [sampler.sample(random.Random(seed)) for seed in range(3)]
        >>> all(cr.view(w, 0) == cr.view(s, 0) for w in worlds)
        True
    """

    def __init__(self, view: PlayerView, rng: random.Random) -> None:
        if not isinstance(view, PlayerView):
            raise TypeError(f"view must be a PlayerView (from cr.view), not {type(view).__name__}")
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        self.view = view
        self.game: Game = game_of(view.rules)
        events = view.events
        dealt = events[0] if events and type(events[0]) is Dealt else None
        self.dealt = dealt
        finished = view.round_number if dealt is None else view.round_number - 1
        state = new_game(view.rules, view.players, first=view.first)
        for index in range(finished):
            state = self.game.rebuild_round(state, view, index, rng)
            if state.match.rounds != index + 1 or result_rows(state.match)[0][index] != view.results[index]:
                raise ValueError(f"the {self.game.name} game rebuilt round {index + 1} wrongly")
        self.before = state
        self.actions: tuple[Action, ...] = tuple(
            e for e in events[1:] if type(e) is Play or isinstance(e, Decision)
        )
        self.others: tuple[Event, ...] = tuple(
            e for e in events[1:] if not (type(e) is Play or isinstance(e, Decision))
        )
        self.known: tuple[tuple[Card, ...], ...] = ()
        self._allowed: dict[tuple[int, int], bool] = {}
        self._probes: dict[int, list[tuple[State, Play, tuple[Play, ...]]]] = {}
        if dealt is not None:
            self._prepare(dealt, rng)

    # ----------------------------------------------------------------- constraints

    def _prepare(self, dealt: Dealt, rng: random.Random) -> None:
        seat = self.view.seat
        n = len(self.view.players)
        played: list[list[Card]] = [[] for _ in range(n)]
        for a in self.actions:
            if type(a) is Play:
                played[a.seat].append(a.card)
        known = [tuple(dealt.hand) if s == seat else tuple(sorted(played[s], key=_INDEX)) for s in range(n)]
        for s in range(n):
            if len(known[s]) > dealt.sizes[s]:
                raise ValueError(f"seat {s} played more cards than it was dealt")
        self.known = tuple(known)
        self._probes = self._probe_states(dealt, rng)

    def _probe_states(
        self, dealt: Dealt, rng: random.Random
    ) -> dict[int, list[tuple[State, Play, tuple[Play, ...]]]]:
        """For each hidden seat: the states before its plays, the play, and its known cards then."""
        game = self.game
        viewer = self.view.seat
        deal = game.complete_deal(self.before, self.known, dealt, self.others, _anything, rng)
        if deal is None:
            raise ValueError("no deal fits this view")
        try:
            state = game.start_round(self.before, deal)
        except Exception as error:  # a game whose start_round needs a checked deal
            raise ValueError(f"no deal fits this view: {error}") from error
        remaining = {s: [PLAY_OF[s][c] for c in self.known[s]] for s in range(len(self.known))}
        probes: dict[int, list[tuple[State, Play, tuple[Play, ...]]]] = {}
        for a in self.actions:
            if type(a) is Play:
                if a.seat != viewer:
                    hand = tuple(sorted(remaining[a.seat], key=_card_index))
                    probes.setdefault(a.seat, []).append((state, a, hand))
                remaining[a.seat].remove(a)
                state = _unchecked_play(game, state, a)
            else:
                state = game.decide(state, a)  # type: ignore[arg-type]
        return probes

    def allowed(self, seat: int, card: Card) -> bool:
        """Whether `seat` may have held `card` at the deal, given its plays this round (memoised).

        Each of the seat's plays is asked again of the game's rule of play with the
        seat holding its known cards then plus `card`.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["9S", "2C"], ["3C", "5H"]]))
            >>> s = cr.apply(cr.apply(s, cr.Play(0, "9S")), cr.Play(1, "3C"))
            >>> sampler = WorldSampler(cr.view(s, 0), random.Random(1))
            >>> [sampler.allowed(1, cr.card(c)) for c in ("4D", "KD", "2D")]
            [True, False, False]
        """
        key = (seat, card.index)
        found = self._allowed.get(key)
        if found is None:
            found = True
            play_of = PLAY_OF[seat]
            extra = play_of[card]
            for state, play, hand in self._probes.get(seat, ()):
                held = tuple(sorted((*hand, extra), key=_card_index))
                probe = new_state(
                    state.to_act,
                    state.match,
                    state.table,
                    (*state.held[:seat], held, *state.held[seat + 1 :]),
                    state.trick,
                    state.best,
                    state.extra,
                    state.past,
                )
                if self.game.play_error(probe, play) is not None:
                    found = False
                    break
            self._allowed[key] = found
        return found

    # ----------------------------------------------------------------- sampling

    def sample(self, rng: random.Random) -> State:
        """A world: the earlier rounds rebuilt once, the current round's hidden cards dealt anew.

        Raises:
            ValueError: If no deal of the current round fits the view.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> v = cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0)
            >>> WorldSampler(v, random.Random(1)).sample(random.Random(2)).to_act == cr.CHANCE
            True
        """
        dealt = self.dealt
        if dealt is None:
            return self.before
        game = self.game
        error: Exception | None = None
        for _ in range(DEAL_TRIES):
            deal = game.complete_deal(self.before, self.known, dealt, self.others, self.allowed, rng)
            if deal is None:
                break
            try:
                state = apply(self.before, deal)
                for a in self.actions:
                    state = apply(state, a)
            except IllegalMoveError as caught:  # a rule of play that is not per card: draw again
                error = caught
                continue
            return state
        raise ValueError(f"no deal of the current round fits this view ({error})")


def _anything(seat: int, card: Card) -> bool:
    return True


def _card_index(play: Play) -> int:
    return play.card.index


def _unchecked_play(game: Game, state: State, play: Play) -> State:
    """Apply a play without checking it (the provisional deal may not make it legal)."""
    try:
        return game.play(state, play)
    except NotImplementedError:  # a game that only fuses check and play: ask it to check
        return game.apply_play(state, play)


# --------------------------------------------------------------------------- assigning cards


def remaining_cards(deck: Sequence[Card], *used: Sequence[Card]) -> list[Card]:
    """The cards of `deck` (copies repeated) once the `used` cards are taken out, in deck order.

    Example:
        >>> from cucumber_rules import DECKS, card
        >>> remaining_cards(DECKS["five-cucumbers-60"], [card("1")], [card("1"), card("2")])[:4]
        [card('1'), card('1'), card('2'), card('2')]
    """
    taken = Counter(c for group in used for c in group)
    out = []
    for c in deck:
        if taken[c] > 0:
            taken[c] -= 1
        else:
            out.append(c)
    return out


def joined_hands(
    known: Sequence[Sequence[Card]], hidden: Sequence[Sequence[Card]]
) -> tuple[tuple[Card, ...], ...]:
    """Each seat's known and hidden cards together, sorted (as a `Deal` keeps its hands).

    Example:
        >>> from cucumber_rules import card
        >>> joined_hands([[card("9")], []], [[card("3")], [card("5")]])
        ((card('3'), card('9')), (card('5'),))
    """
    return tuple(tuple(sorted((*k, *h), key=_INDEX)) for k, h in zip(known, hidden, strict=True))


def assign_cards(
    pool: Sequence[Card],
    needs: Sequence[int],
    allowed: Callable[[int, Card], bool],
    rng: random.Random,
    *,
    spare: Callable[[Card], bool] | None = None,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] | None:
    """Deal `pool` at random: `needs[s]` cards to each seat `s` that `allowed(s, card)` accepts.

    The cards left over (`len(pool) - sum(needs)` of them) are returned too, in a
    random order; `spare(card)` says which cards may be left over (default: any).
    Rejection first (exactly uniform over the valid deals), then matching and a
    swap chain (see the module docs). Hands come back sorted.

    Args:
        pool: The cards to deal (copies repeated).
        needs: How many cards each seat receives.
        allowed: Which cards each seat may receive.
        rng: The random generator.
        spare: Which cards may stay undealt (default: any).

    Returns:
        `(hands, rest)`, or None if no deal fits.

    Example:
        >>> import random
        >>> from cucumber_rules import card
        >>> pool = [card(n) for n in (1, 2, 3, 4)]
        >>> hands, rest = assign_cards(pool, [2, 1], lambda s, c: s == 0 or c.rank > 3, random.Random(1))
        >>> hands[1], len(hands[0]), len(rest)
        ((card('4'),), 2, 1)
        >>> assign_cards(pool, [1, 1], lambda s, c: c.rank == 4, random.Random(1)) is None
        True
    """
    cards = list(pool)
    seats = len(needs)
    total = sum(needs)
    if total > len(cards):
        return None
    spare_ok = spare if spare is not None else (lambda c: True)
    fits: dict[tuple[int, int], bool] = {}

    def fit(slot: int, c: Card) -> bool:
        key = (slot, c.index)
        found = fits.get(key)
        if found is None:
            found = fits[key] = spare_ok(c) if slot == seats else allowed(slot, c)
        return found

    slot_of: list[int] = []
    for s, k in enumerate(needs):
        slot_of += [s] * k
    slot_of += [seats] * (len(cards) - total)
    rnd = rng.random
    size = len(cards)
    for _ in range(REJECTION_TRIES):
        for i in range(size - 1, 0, -1):  # Fisher-Yates with one rng.random() a card (see shuffled_deal)
            j = int(rnd() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        if all(fit(slot, c) for slot, c in zip(slot_of, cards, strict=True)):
            return _hands_of(cards, slot_of, seats)
    placed = _matching(cards, needs, fit, rng)
    if placed is None:
        return None
    cards = placed
    if size > 1:
        for _ in range(SWAPS_PER_CARD * size):
            i = int(rnd() * size)
            j = int(rnd() * size)
            si, sj = slot_of[i], slot_of[j]
            if si != sj and fit(si, cards[j]) and fit(sj, cards[i]):
                cards[i], cards[j] = cards[j], cards[i]
    return _hands_of(cards, slot_of, seats)


def _hands_of(
    cards: list[Card], slot_of: list[int], seats: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    hands: list[list[Card]] = [[] for _ in range(seats + 1)]
    for slot, c in zip(slot_of, cards, strict=True):
        hands[slot].append(c)
    return tuple(tuple(sorted(h, key=_INDEX)) for h in hands[:seats]), tuple(hands[seats])


def _matching(
    cards: list[Card], needs: Sequence[int], fit: Callable[[int, Card], bool], rng: random.Random
) -> list[Card] | None:
    """One valid placement (cards in slot order, as `assign_cards` lays them out), or None."""
    seats = len(needs)
    capacity = [*needs, len(cards) - sum(needs)]
    held: list[list[int]] = [[] for _ in capacity]  # card positions per slot
    order = list(range(len(cards)))
    rng.shuffle(order)
    slots = list(range(len(capacity)))

    def place(i: int, seen: set[int]) -> bool:
        rng.shuffle(slots)
        for slot in list(slots):
            if slot in seen or not fit(slot, cards[i]):
                continue
            seen.add(slot)
            if len(held[slot]) < capacity[slot]:
                held[slot].append(i)
                return True
            for k, other in enumerate(held[slot]):
                if place(other, seen):
                    held[slot][k] = i
                    return True
        return False

    for i in order:
        if not place(i, set()):
            return None
    out: list[Card] = []
    for slot in range(seats + 1):
        out += [cards[i] for i in held[slot]]
    return out


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
    game = state.game
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
