"""Computer players that see only a `PlayerView`.

A bot is any object with a `name` and a method
`choose(view, rng) -> Action` that returns one of `view.legal`. Bots get the
seat's [`PlayerView`][cucumber_rules.PlayerView] and nothing else, so they
cannot cheat: they never see another seat's cards or the stock. Randomness
comes only from the `random.Random` passed in.

Three bots come with the library:

- [`RandomBot`][cucumber_rules.bots.RandomBot] picks a legal action uniformly at random;
- [`HeuristicBot`][cucumber_rules.bots.HeuristicBot] plays by simple rules of thumb:
  in the ladder games it sheds its highest cards while the tricks do not count and so
  keeps its lowest card for the last trick; in Catastrophe it avoids capturing cucumbers
  (it plays cards that cannot take the trick, dumps 5-cucumber cards when someone else
  takes, and sets the Trick Marker with the card closest to the lead);
- [`ISMCTSBot`][cucumber_rules.bots.ISMCTSBot] searches: information-set Monte Carlo
  tree search over worlds drawn with [`sample_world`][cucumber_rules.sample_world]'s
  sampler, to the end of the round, playing it out by the game's rules of thumb.

Example:
    >>> import random
    >>> import cucumber_rules as cr
    >>> from cucumber_rules.bots import HeuristicBot
    >>> state = cr.new_game(cr.ruleset("agurk"), players=3)
    >>> state = cr.apply(state, cr.sample_chance(state, random.Random(1)))
    >>> action = HeuristicBot().choose(cr.view(state, state.to_act), random.Random(2))
    >>> cr.is_legal(state, action)
    True
"""

from __future__ import annotations

import math
import numbers
import random
import time
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol, SupportsIndex, cast, runtime_checkable

import attrs

from .actions import Action, Play
from .engine import apply, legal_moves
from .game import HookGroup, game_of
from .options import as_int
from .state import CHANCE, State, result_rows
from .values import exactly
from .views import view

if TYPE_CHECKING:
    from .views import PlayerView

__all__ = ["BOTS", "Bot", "Bots", "HeuristicBot", "ISMCTSBot", "RandomBot", "get_bot", "resolve_bots"]


@runtime_checkable
class Bot(Protocol):
    """What a bot provides: a `name` and `choose(view, rng) -> Action`.

    `choose` must return one of `view.legal` and may use only `view` and `rng`
    (never the global `random` module). Bots should be immutable and picklable so
    that simulations can ship them to worker processes.

    Example:
        >>> isinstance(RandomBot(), Bot)
        True
    """

    @property
    def name(self) -> str:
        """A short name, e.g. `"heuristic"`."""
        ...

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return one of `view.legal`."""
        ...


def _index(value: SupportsIndex) -> int:
    """An integer of any kind (numpy's included) as `int`; anything else is left for the validator."""
    return cast("int", as_int(value))


def _number(name: str, value: object) -> None:
    """Refuse a value that is not a finite real number (a bool is none), naming the field."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, not {value}")


def _no_move(view: PlayerView) -> ValueError:
    return ValueError(f"seat {view.seat} has no legal action to choose from (it is not their turn)")


@attrs.frozen
class RandomBot:
    """Plays a uniformly random legal action.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("gurka"), players=2)
        >>> state = cr.apply(state, cr.sample_chance(state, random.Random(3)))
        >>> view = cr.view(state, state.to_act)
        >>> RandomBot().choose(view, random.Random(4)) in view.legal
        True
    """

    @property
    def name(self) -> str:
        """`"random"`."""
        return "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return a legal action of `view`'s seat drawn uniformly with `rng` (no draw when only one is legal).

        Raises:
            ValueError: If the view has no legal action (not this seat's turn).
        """
        legal = view.legal
        n = len(legal)
        if n == 1:
            return legal[0]
        if not n:
            raise _no_move(view)
        return legal[int(rng.random() * n)]


@attrs.frozen
class HeuristicBot:
    """Plays by its game's rules of thumb (`Game.heuristic`), from its own view only.

    Ladder games (Agurk, Gurka, Five Cucumbers): only the last trick costs, and it
    goes to the highest card, so the bot plays its highest legal card in every
    trick. It sheds high cards while tricks are free, forces the others to throw
    their low cards when it leads high, and keeps its lowest card for the end. It
    always buys back in when the revival rule offers it.

    Catastrophe: for each legal card it estimates the chance of ending up with the
    trick (a card that does not take the trick now can never take it later) and
    the cucumbers it would capture, and prefers safe plays that get rid of
    5-cucumber and extreme cards. `caution` weighs the expected capture against
    the value of shedding a dangerous card.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("catastrophe"), players=4)
        >>> state = cr.apply(state, cr.sample_chance(state, random.Random(5)))
        >>> view = cr.view(state, state.to_act)
        >>> HeuristicBot().choose(view, random.Random(6)) in view.legal
        True
    """

    caution: float = 1.0
    """How much the expected loss counts against the gain of a play (games that weigh risks use it);
    a finite number."""

    def __attrs_post_init__(self) -> None:
        _number("caution", self.caution)

    @property
    def name(self) -> str:
        """`"heuristic"`."""
        return "heuristic"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return the action the game's heuristic prefers (ties broken with `rng`).

        Raises:
            ValueError: If the view has no legal action (not this seat's turn).
        """
        legal = view.legal
        if not legal:
            raise _no_move(view)
        if len(legal) == 1:
            return legal[0]
        return Bots.of(game_of(view.rules)).heuristic(view, rng, caution=self.caution)


class _Node:
    """A node of the search tree: one action after its parent's, with its statistics."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0


def _round_utility(state: State, number: int) -> tuple[float, ...]:
    """Per seat, how well the round went, in 0..1: 0.5, plus how far the seat's points fell below the
    mean of the others', as a share of all the points the round moved (so a seat that took a little
    while another took much is not counted as the loser, as a ranking would)."""
    if state.match.rounds <= number:  # the match ended otherwise (never in the built-in games)
        return (0.5,) * len(state.match.players)
    points = result_rows(state.match)[0][number].points
    n = len(points)
    moved = sum(abs(p) for p in points)
    if not moved or n < 2:
        return (0.5,) * n
    total = sum(points)
    scale = 2.0 * moved
    return tuple(min(1.0, max(0.0, 0.5 + ((total - p) / (n - 1) - p) / scale)) for p in points)


@attrs.frozen
class ISMCTSBot:
    """Information-set Monte Carlo tree search (single-observer ISMCTS) over sampled worlds.

    Each iteration deals the hidden cards anew with the sampler of
    [`sample_world`][cucumber_rules.sample_world] (a *determinization*
    consistent with the view), walks one shared tree of public actions from the
    current point, choosing among the actions available in that world by UCB1
    with availability counts, adds one node, and plays the round out (by every seat's
    `Game.heuristic`, or at random with `rollout="random"`). A round's outcome scores each seat
    0.5 plus how far its points fell below the others' mean, as a share of all the points the
    round moved; the heuristic's own move starts with a fifth of the budget as virtual visits at
    a good score, and the move visited most is played. It looks no further than the end of the
    round in play; decisions between rounds (revival) are left to the game's heuristic.

    With an `iterations` budget it is deterministic given the `rng` it is passed;
    `seconds` (a time budget, checked between iterations) makes it depend on the
    machine's speed.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("gurka"), players=3)
        >>> state = cr.apply(state, cr.sample_chance(state, random.Random(5)))
        >>> view = cr.view(state, state.to_act)
        >>> bot = ISMCTSBot(iterations=30)
        >>> move = bot.choose(view, random.Random(6))
        >>> move in view.legal, move == bot.choose(view, random.Random(6))
        (True, True)
    """

    iterations: int = attrs.field(default=200, converter=_index, validator=exactly(int, "an int"))
    """Iterations (sampled worlds) per decision, at least 1."""
    seconds: float | None = None
    """Stop early once this many seconds have passed (None: no time limit); a positive number."""
    exploration: float = 0.7
    """The UCB1 exploration constant (outcomes are in 0..1); a finite number, at least 0."""
    rollout: str = "heuristic"
    """How the rounds are played out beyond the tree: `"heuristic"` (every seat by the game's
    `Game.heuristic`, from its view of the sampled world) or `"random"` (uniform legal moves: cheaper,
    weaker)."""

    def __attrs_post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout must be 'heuristic' or 'random', not {self.rollout!r}")
        if self.seconds is not None:
            _number("seconds", self.seconds)
            if not self.seconds > 0:
                raise ValueError(f"seconds must be positive or None, not {self.seconds}")
        _number("exploration", self.exploration)
        if self.exploration < 0:
            raise ValueError(f"exploration must be at least 0, not {self.exploration}")

    @property
    def name(self) -> str:
        """`"ismcts"`."""
        return "ismcts"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return the legal action the search visits most (ties: the first in `view.legal` order).

        Raises:
            ValueError: If the view has no legal action (not this seat's turn).
        """
        from .sampling import WorldSampler

        legal = view.legal
        if not legal:
            raise _no_move(view)
        if len(legal) == 1:
            return legal[0]
        if any(type(a) is not Play for a in legal):  # a decision between rounds: no round to search
            return Bots.of(game_of(view.rules)).heuristic(view, rng)
        try:
            sampler = WorldSampler(view, rng)
        except ValueError:  # an earlier round the game could not rebuild: play by rules of thumb
            return Bots.of(game_of(view.rules)).heuristic(view, rng)
        root = _Node()
        if self.rollout == "heuristic":
            # The game's rules of thumb as a prior: their move starts with a fifth of the budget of
            # virtual visits at a good score, which the search must outdo to overturn it.
            prior = root.children[Bots.of(game_of(view.rules)).heuristic(view, rng)] = _Node()
            prior.visits = prior.available = max(1, self.iterations // 5)
            prior.reward = prior.visits * 0.75
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for _ in range(self.iterations):
            self._iterate(root, sampler.sample(rng), rng)
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)
        return best

    def _iterate(self, root: _Node, world: State, rng: random.Random) -> None:
        number = world.match.rounds
        c = self.exploration
        state = world
        node = root
        path: list[tuple[_Node, int]] = []
        while state.match.rounds == number and state.to_act is not None and state.to_act != CHANCE:
            seat = state.to_act
            moves = legal_moves(state)
            children = node.children
            untried = [m for m in moves if m not in children]
            for m in moves:
                child = children.get(m)
                if child is not None:
                    child.available += 1
            if untried:
                move = rng.choice(untried)
                child = children[move] = _Node()
                child.available = 1
                path.append((child, seat))
                state = apply(state, move)
                break
            move = max(
                moves,
                key=lambda m: (
                    children[m].reward / children[m].visits
                    + c * math.sqrt(math.log(children[m].available) / children[m].visits)
                ),
            )
            node = children[move]
            path.append((node, seat))
            state = apply(state, move)
        rnd = rng.random
        if self.rollout == "heuristic":
            heuristic = Bots.of(game_of(world.match.rules)).heuristic
            while state.match.rounds == number and state.to_act is not None and state.to_act != CHANCE:
                moves = legal_moves(state)
                if len(moves) > 1:  # the world is the bot's own sample: any seat's view of it is fair
                    state = apply(state, heuristic(view(state, state.to_act), rng))
                else:
                    state = apply(state, moves[0])
        while state.match.rounds == number and state.to_act is not None and state.to_act != CHANCE:
            moves = legal_moves(state)
            state = apply(state, moves[int(rnd() * len(moves))])
        outcome = _round_utility(state, number)
        for child, seat in path:
            child.visits += 1
            child.reward += outcome[seat]


# --------------------------------------------------------------------------- registry

BOTS: Mapping[str, Bot] = MappingProxyType(
    {"random": RandomBot(), "heuristic": HeuristicBot(), "ismcts": ISMCTSBot()}
)
"""The built-in bots by name (read-only); the CLI's `--bots` names.

Example:
    >>> sorted(BOTS), BOTS["heuristic"]
    (['heuristic', 'ismcts', 'random'], HeuristicBot(caution=1.0))
"""


def get_bot(name: str | Bot) -> Bot:
    """Return a built-in bot by name (case-insensitive); a bot object is returned as is.

    Args:
        name: `"random"`, `"heuristic"` or `"ismcts"`, or a bot.

    Returns:
        The bot.

    Raises:
        ValueError: For an unknown name.
        TypeError: For something that is neither a name nor a bot.

    Example:
        >>> get_bot("Heuristic")
        HeuristicBot(caution=1.0)
    """
    if isinstance(name, str):
        found = BOTS.get(name.strip().lower())
        if found is None:
            raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOTS)}")
        return found
    if isinstance(name, Bot):
        return name
    raise TypeError(f"a bot is a name or an object with name and choose(), not {type(name).__name__}")


def resolve_bots(bots: str | Bot | Sequence[str | Bot], players: int) -> tuple[Bot, ...]:
    """Return one bot per seat from a bot, a name, or a list of them.

    A list shorter than `players` is filled with its last bot, so
    `["heuristic", "random"]` for 4 players is one heuristic seat and three random
    ones. A comma-separated string is split.

    Raises:
        ValueError: For an unknown bot name, an empty list, or more bots than players.

    Example:
        >>> [b.name for b in resolve_bots("heuristic,random", 4)]
        ['heuristic', 'random', 'random', 'random']
    """
    if isinstance(bots, str):
        items: list[str | Bot] = [part for part in bots.split(",") if part.strip()]
    elif isinstance(bots, Bot):
        items = [bots]
    else:
        items = list(bots)
    if not items:
        raise ValueError("give at least one bot")
    if len(items) > players:
        raise ValueError(f"{len(items)} bots for {players} players")
    resolved = [get_bot(b) for b in items]
    resolved += [resolved[-1]] * (players - len(resolved))
    return tuple(resolved)


class Bots(HookGroup):
    """The hook group of a game's bot knowledge: `Game.bots` (see `Game`).

    The default heuristic picks a random legal action; a game with a better one overrides it.

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.GAMES["ladder"].bots).__name__, type(cr.Game.bots).__name__
        ('LadderBots', 'Bots')
    """

    __slots__ = ()
    attribute = "bots"  # (`Game.bots`)

    def heuristic(self, view: PlayerView, rng: random.Random, *, caution: float = 1.0) -> Action:
        """The heuristic bot's choice among `view.legal` (default: a random legal action).

        `caution` weighs the expected loss of a play against its gain, for games whose
        heuristic weighs risks; others ignore it.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> bots = cr.GAMES["ladder"].bots
            >>> str(bots.heuristic(cr.view(s, 0), random.Random(1)).card)  # sheds its high card
            '9S'
        """
        return rng.choice(view.legal)
