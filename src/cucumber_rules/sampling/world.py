"""The sampler of hidden worlds: a view's current round dealt again at random, as it could have been."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from ..actions import PLAY_OF, Action, Decision, Play
from ..cards import BY_INDEX, Card
from ..engine import apply
from ..errors import IllegalMoveError, InvalidStateError
from ..game import game_of
from ..state import CHANCE, State, new_state
from ..views import Dealt, PlayerView
from .hooks import Sampling

if TYPE_CHECKING:
    from ..game import GameBase
    from ..views import Event

__all__ = ["DEAL_TRIES", "RawSampler"]

#: Deals sampled for a round before giving up (a game whose rule of play is not per card).
DEAL_TRIES: Final = 64


class RawSampler:
    """A sampler of a view's current round that takes the view as it is (`WorldSampler` checks it first).

    Its fields are set by `_around` (or `WorldSampler`'s constructor).

    Example:
        >>> import random, cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=3)
        >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
        >>> sampler = RawSampler._around(cr.view(s, 0), cr.new_game(s.rules, 3), random.Random(3))
        >>> sampler.sample(random.Random(1)).to_act
        0
    """

    view: PlayerView
    game: GameBase[State]
    before: State
    dealt: Dealt | None

    @classmethod
    def _around(cls, view: PlayerView, before: State, rng: random.Random) -> RawSampler:
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
        deal = Sampling.of(game).complete_deal(self.before, self.known, dealt, self.others, _anything, rng)
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
            >>> from cucumber_rules.sampling import WorldSampler
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
            >>> from cucumber_rules.sampling import WorldSampler
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
            complete = Sampling.of(game).complete_deal
            deal = complete(self.before, self.known, dealt, self.others, self.allowed, rng)
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


def _anything(seat: int, card: Card) -> bool:
    return True


def _card_index(play: Play) -> int:
    return play.card.index


def _unchecked_play(game: GameBase[State], state: State, play: Play) -> State:
    """Apply a play without checking it (the provisional deal may not make it legal)."""
    try:
        return game.play(state, play)
    except NotImplementedError:  # a game that only fuses check and play: ask it to check
        return game.apply_play(state, play)
