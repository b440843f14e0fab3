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
from typing import TYPE_CHECKING

from ..engine import new_game
from ..errors import InvalidStateError
from ..game import game_of
from ..state import State, result_rows
from ..views import PlayerView, Views
from .assign import (
    assign_cards,
    joined_hands,
    remaining_cards,
)
from .consistency import check_folded, check_round, finished_rounds, validate_view
from .hooks import Sampling
from .rounds import round_distance, search_round
from .world import RawSampler

if TYPE_CHECKING:
    from ..game import GameBase

__all__ = [
    "RawSampler",
    "Sampling",
    "WorldSampler",
    "assign_cards",
    "check_folded",
    "check_round",
    "finished_rounds",
    "joined_hands",
    "remaining_cards",
    "round_distance",
    "sample_world",
    "search_round",
]


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


class WorldSampler(RawSampler):
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
        # The view is checked as `loads` checks one, before any work: a view that no match could
        # show is refused with the field at fault (the results' arithmetic is checked before any
        # earlier round is rebuilt), and nothing below meets a contradiction it did not expect.
        validate_view(view)
        self.view = view
        self.game: GameBase[State] = game_of(view.rules)
        state = new_game(view.rules, view.players, first=view.first)
        finished = finished_rounds(view)
        for index in range(finished):
            state = Sampling.of(self.game).rebuild_round(state, view, index, rng)
            if state.match.rounds != index + 1 or result_rows(state.match)[0][index] != view.results[index]:
                raise ValueError(f"the {self.game.name} game rebuilt round {index + 1} wrongly")
        self._start(state, rng)
        if finished and type(Views.of(self.game)).check_view is Views.check_view:
            # A game that does not check its earlier results itself (a plug-in's): its worlds are
            # checked here instead, once (its own seed: the caller's draws stay as they were).
            problem = check_round(view, state)
            if problem is not None:
                path, _, message = problem.partition(": ")
                raise InvalidStateError(path, message)
