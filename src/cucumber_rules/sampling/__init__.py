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
are first drawn by rejection (a deal shuffled card by card, given up at the
first card that does not fit its seat and kept once every card fits), which is
exactly uniform. When a few dozen tries all fail (late in a round with many
constraints) the sampler builds one consistent deal by bipartite matching and
then walks a swap chain (two cards of different seats trade places when both
fit), whose stationary distribution is uniform; after a bounded walk it is close
to uniform, not exactly. The earlier rounds are not sampled uniformly:
they are one legal way to reach the known results (they do not change what can
happen next), found by the game's construction and varied by the rng
(Catastrophe's is an exact, bounded search: see
`cucumber_rules.games.catastrophe.rebuild`).

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
from typing import TYPE_CHECKING, Any, Final

from ..actions import PLAY_OF, Action, Decision, Play
from ..cards import BY_INDEX, Card
from ..engine import apply, new_game
from ..errors import IllegalMoveError, InvalidStateError
from ..games import Game, game_of
from ..state import CHANCE, State, new_state, result_rows
from ..views import Dealt, PlayerView
from ..views import view as view_of
from .assign import (
    assign_cards,
    joined_hands,
    remaining_cards,
)
from .hooks import Sampling
from .rounds import round_distance, search_round

if TYPE_CHECKING:
    from ..views import Event

__all__ = [
    "Sampling",
    "WorldSampler",
    "assign_cards",
    "check_round",
    "finished_rounds",
    "joined_hands",
    "remaining_cards",
    "round_distance",
    "sample_world",
    "search_round",
]

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
        InvalidStateError: If no match could show the view (a tampered view), naming the
            field at fault as `loads` does (the same check; an `InvalidStateError` is a
            `ValueError`). The results are checked before any earlier round is rebuilt.
        ValueError: If the game could not rebuild an earlier round.

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

    Building it checks the view as `loads` checks one (a view no match could show
    raises `InvalidStateError`, a `ValueError`, before any work), rebuilds the
    earlier rounds and works out the current round's constraints once; each
    `sample(rng)` then deals the hidden cards again. Every world it gives shares
    the same earlier rounds.

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
        from ..serialization.validation import validate_view

        # The view is checked as `loads` checks one, before any work: a view that no match could
        # show is refused with the field at fault (the results' arithmetic is checked before any
        # earlier round is rebuilt), and nothing below meets a contradiction it did not expect.
        validate_view(view)
        self.view = view
        self.game: Game[Any] = game_of(view.rules)
        state = new_game(view.rules, view.players, first=view.first)
        finished = finished_rounds(view)
        for index in range(finished):
            state = self.game.sampling.rebuild_round(state, view, index, rng)
            if state.match.rounds != index + 1 or result_rows(state.match)[0][index] != view.results[index]:
                raise ValueError(f"the {self.game.name} game rebuilt round {index + 1} wrongly")
        self._start(state, rng)
        if finished and type(self.game).check_view is Game.check_view:
            # A game that does not check its earlier results itself (a plug-in's): its worlds are
            # checked here instead, once (its own seed: the caller's draws stay as they were).
            problem = check_round(view, state)
            if problem is not None:
                path, _, message = problem.partition(": ")
                raise InvalidStateError(path, message)

    @classmethod
    def _around(cls, view: PlayerView, before: State, rng: random.Random) -> WorldSampler:
        """A sampler of `view`'s current round from `before` (the state before its deal), unchecked."""
        self = cls.__new__(cls)
        self.view = view
        self.game = game_of(view.rules)
        self._start(before, rng)
        return self

    def _start(self, before: State, rng: random.Random) -> None:
        """Work out the current round's constraints, from `before` (the state before its deal)."""
        view = self.view
        events = view.events
        dealt = events[0] if events and type(events[0]) is Dealt else None
        self.dealt = dealt
        self.before = before
        acts = [i for i, e in enumerate(events) if i and (type(e) is Play or isinstance(e, Decision))]
        #: The index in `view.events` of each of `actions` (to name an event that no deal explains).
        self.where: tuple[int, ...] = tuple(acts)
        self.actions: tuple[Action, ...] = tuple(events[i] for i in acts)  # type: ignore[misc]
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
        known = [tuple(dealt.hand) if s == seat else tuple(sorted(played[s], key=BY_INDEX)) for s in range(n)]
        for s in range(n):
            if len(known[s]) > dealt.sizes[s]:
                raise InvalidStateError("$.events", f"seat {s} plays more cards than it was dealt")
        self.known = tuple(known)
        self._probes = self._probe_states(dealt, rng)

    def _probe_states(
        self, dealt: Dealt, rng: random.Random
    ) -> dict[int, list[tuple[State, Play, tuple[Play, ...]]]]:
        """For each hidden seat: the states before its plays, the play, and its known cards then."""
        game = self.game
        viewer = self.view.seat
        deal = game.sampling.complete_deal(self.before, self.known, dealt, self.others, _anything, rng)
        if deal is None:
            raise InvalidStateError("$.events[0]", "no deal of the round fits this view's events")
        error = game.deal_error(self.before, deal) if self.before.to_act == CHANCE else None
        if self.before.to_act != CHANCE or error is not None:
            why = "no deal is due" if error is None else f"no deal fits ({error.code})"
            raise InvalidStateError("$.events[0]", f"{why} after the view's results")
        state = game.start_round(self.before, deal)
        remaining = {s: [PLAY_OF[s][c] for c in self.known[s]] for s in range(len(self.known))}
        probes: dict[int, list[tuple[State, Play, tuple[Play, ...]]]] = {}
        for a, index in zip(self.actions, self.where, strict=True):
            assert type(a) is Play or isinstance(a, Decision)
            if state.to_act != a.seat:  # (a round already over, or another seat's turn)
                raise InvalidStateError(f"$.events[{index}].seat", f"not seat {a.seat}'s turn here")
            if type(a) is Play:
                if a not in remaining[a.seat]:  # (the viewer's own card not dealt to it, or played twice)
                    raise InvalidStateError(
                        f"$.events[{index}].card", f"seat {a.seat} does not hold {a.card}"
                    )
                if a.seat != viewer:
                    hand = tuple(sorted(remaining[a.seat], key=_card_index))
                    probes.setdefault(a.seat, []).append((state, a, hand))
                remaining[a.seat].remove(a)
                state = _unchecked_play(game, state, a)
            else:
                # (A decision does not depend on the cards: the engine's own check.)
                refused = game.decision_error(state, a)  # type: ignore[arg-type]
                if refused is not None:
                    raise InvalidStateError(f"$.events[{index}]", f"an illegal decision ({refused.code})")
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
            InvalidStateError: If no deal of the current round fits the view (a `ValueError`).

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
        failed = 0  # the event no deal made legal (the `Dealt` itself: no deal at all)
        code = "no deal"
        for _ in range(DEAL_TRIES):
            deal = game.sampling.complete_deal(self.before, self.known, dealt, self.others, self.allowed, rng)
            if deal is None:
                break
            at = 0
            try:
                state = apply(self.before, deal)
                for at, a in zip(self.where, self.actions, strict=True):  # noqa: B007 (`at` names the event)
                    state = apply(state, a)
            except IllegalMoveError as caught:  # a rule of play that is not per card: draw again
                failed, code = max(failed, at), caught.code
                continue
            return state
        # (The code only, not the message: the message would quote the cards of a made-up deal.)
        raise InvalidStateError(f"$.events[{failed}]", f"no deal of the round makes this legal ({code})")


def finished_rounds(view: PlayerView) -> int:
    """The earlier rounds a view sums up in its results: those before its current round.

    A view whose events start with a `Dealt` shows a round (in play, or just finished, its result
    then the last); before the first deal there is none.

    Example:
        >>> import cucumber_rules as cr
        >>> finished_rounds(cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0))
        0
    """
    events = view.events
    dealt = bool(events) and type(events[0]) is Dealt
    return view.round_number - 1 if dealt else view.round_number


def check_round(view: PlayerView, before: State) -> str | None:
    """Whether some deal of the view's current round, played as its events say, shows exactly `view`.

    `before` is the state before the round's deal, with the view's earlier results (a game's
    `check_view` builds it from them; its history may leave the earlier rounds out). One deal
    that fits everything the view shows is drawn (with a fixed seed: the answer does not
    depend on the draw, as every such deal shows the same) and played; then every field of
    the view must be that world's. Returns `"$.path: message"` for the first field that no
    deal explains, or None.

    Example:
        >>> import attrs, random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> v = cr.view(cr.apply(s, cr.sample_chance(s, random.Random(1))), 0)
        >>> check_round(v, s) is None
        True
        >>> print(check_round(attrs.evolve(v, to_act=2), s))
        $.to_act: does not match what the view's events and results give (expected 0)
    """
    rng = random.Random(0)
    try:
        world = WorldSampler._around(view, before, rng).sample(rng)
    except InvalidStateError as err:
        return str(err)
    seen = view_of(world, view.seat)
    if seen == view:
        return None
    from ..serialization.documents import converter
    from ..serialization.validation import diff

    conv = converter()
    bad = diff(
        conv.unstructure(seen), conv.unstructure(view), reason="what the view's events and results give"
    )
    return str(bad) if bad is not None else "$: does not match what the view's events and results give"


def _anything(seat: int, card: Card) -> bool:
    return True


def _card_index(play: Play) -> int:
    return play.card.index


def _unchecked_play(game: Game[Any], state: State, play: Play) -> State:
    """Apply a play without checking it (the provisional deal may not make it legal)."""
    try:
        return game.play(state, play)  # type: ignore[no-any-return]
    except NotImplementedError:  # a game that only fuses check and play: ask it to check
        return game.apply_play(state, play)  # type: ignore[no-any-return]
