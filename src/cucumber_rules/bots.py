"""Computer players that see only a `PlayerView`.

A bot is any object with a `name` and a method
`choose(view, rng) -> Action` that returns one of `view.legal`. Bots get the
seat's [`PlayerView`][cucumber_rules.PlayerView] and nothing else, so they
cannot cheat: they never see another seat's cards or the stock. Randomness
comes only from the `random.Random` passed in.

Two bots come with the library:

- [`RandomBot`][cucumber_rules.bots.RandomBot] picks a legal action uniformly at random;
- [`HeuristicBot`][cucumber_rules.bots.HeuristicBot] plays by simple rules of thumb:
  in the ladder games it sheds its highest cards while the tricks do not count and so
  keeps its lowest card for the last trick; in Catastrophe it avoids capturing cucumbers
  (it plays cards that cannot take the trick, dumps 5-cucumber cards when someone else
  takes, and sets the Trick Marker with the card closest to the lead).

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

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import attrs

from .actions import Action
from .games import game_of

if TYPE_CHECKING:
    from .views import PlayerView

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "get_bot", "resolve_bots"]


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
        """Return a legal action of `view`'s seat drawn with `rng`.

        Raises:
            ValueError: If the view has no legal action (not this seat's turn).
        """
        if not view.legal:
            raise _no_move(view)
        return rng.choice(view.legal)


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
    """How much the expected loss counts against the gain of a play (games that weigh risks use it)."""

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
        return game_of(view.rules).heuristic(view, rng, caution=self.caution)


# --------------------------------------------------------------------------- registry

BOTS: Mapping[str, Bot] = MappingProxyType({"random": RandomBot(), "heuristic": HeuristicBot()})
"""The built-in bots by name (read-only); the CLI's `--bots` names.

Example:
    >>> sorted(BOTS), BOTS["heuristic"]
    (['heuristic', 'random'], HeuristicBot(caution=1.0))
"""


def get_bot(name: str | Bot) -> Bot:
    """Return a built-in bot by name (case-insensitive); a bot object is returned as is.

    Args:
        name: `"random"` or `"heuristic"`, or a bot.

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
